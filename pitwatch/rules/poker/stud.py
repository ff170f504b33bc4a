"""Seven-card stud («Seven Stud Póquer», 004_5c9c19b250457762.txt L4969-L5185, I.1.10.B).1): the
hooks of a hand (:class:`~pitwatch.rules.poker.variants.VariantRules`).

- **Cards.** Every player who wants cards posts the ante; then three cards each, «los dos primeros
  cubiertos y el tercero descubierto» (004 L5003-L5007); the fourth, fifth and sixth face up (004 L5019-L5044),
  the seventh face down (004 L5046-L5052): the ruleset's ``deal`` (``ddu u u u d``), one betting interval
  after each street. A card of the next street closes the interval before it; dealt while that
  interval is open it is a premature card (004 L5143-L5146). The events say which cards are face up
  (``card_dealt.face_up``).
- **Bring-in** (004 L5009-L5017). The lowest up card speaks first, «sin que pueda pasar ni retirarse»,
  with at least the table minimum: the hand's first action is his ``bring_in`` (or ``bet``). Equal
  ranks: the lowest suit (the ruleset's ``suits`` from the highest, and its ambiguity).
- **Later streets** (004 L5019-L5031, L5043-L5044). The best hand showing opens (pairs, two pairs,
  trios, four of a kind, else the highest cards: pokerkit's own opening lookup of stud); equal: the
  closest to the «mano». He may check or bet, «En ningún caso podrá retirarse».
- **Limits** (004 L4989-L4998): at fixed limit the first two intervals at the minimum, the next three
  at twice it (the general ``fixed_limit_low_streets``); when a player's first two up cards pair, the
  fourth street may be played at the high limit, and its first bet sets the level.
- **Showdown.** The best five of the seven (004 L4974-L4981, pokerkit's ``StandardHighHand``); the hand
  read is every card dealt to the seat and shown; a hand of more or fewer than seven is void
  (004 L5051-L5052, L5125-L5126).
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from pokerkit import Card
from pokerkit.state import _HighHandOpeningLookup  # pokerkit's ranking of stud's up cards

from pitwatch.rules.base import Violation, ViolationKind
from pitwatch.rules.poker.betting import BettingRound
from pitwatch.rules.poker.variants import VariantRules
from pitwatch.schemas.events import CardDealt
from pitwatch.schemas.poker import PokerAction

if TYPE_CHECKING:
    from pitwatch.rules.poker.game import PokerRound

RANKS = "23456789TJQKA"
"""Ranks from the lowest; the ace high (004 L4167-L4169)."""

_UP_HANDS = _HighHandOpeningLookup()


def lowest_up_card(up: dict[str, list[str]], suits: str) -> str | None:
    """The player whose up card is the lowest: the lowest rank, then the lowest suit of ``suits``
    (highest first: ``SHDC``); ``up`` maps each player, in seat order, to his up cards (the first one
    counts). ``None`` when nobody shows a card (004 L5009-L5017)."""
    shown = {p: c[0] for p, c in up.items() if c}
    if not shown:
        return None
    return min(shown, key=lambda p: (RANKS.index(shown[p][0]), -suits.index(shown[p][1])))


def best_up_cards(up: dict[str, list[str]]) -> str | None:
    """The player showing the best up cards; ``up`` maps each player, in order from the «mano», to his
    up cards; equal: the first of them (004 L5024-L5029). ``None`` when nobody shows a card."""
    entries = {p: _UP_HANDS.get_entry_or_none(Card.parse("".join(c[0] + c[1].lower() for c in cards)))
               for p, cards in up.items() if cards}
    if not entries:
        return None
    best = max(e for e in entries.values() if e is not None)
    return next(p for p, e in entries.items() if e == best)


class StudRules(VariantRules):
    """Seven-card stud's hooks (module docstring)."""

    hand_size = 7

    def __init__(self, hand: "PokerRound"):
        super().__init__(hand)
        deal = hand.variant.deal
        self.ends = [sum(len(d) for d in deal[:k + 1]) for k in range(len(deal))]
        """Cards each player holds when each street is dealt (3, 4, 5, 6, 7)."""
        self.up_at = [k + 1 for k, face in enumerate("".join(deal)) if face == "u"]
        """The place of each up card among a player's cards (3, 4, 5, 6)."""
        self.acted_on: set[int] = set()

    def up(self, players: list[str], upto: int | None = None) -> dict[str, list[str]]:
        """Each of ``players`` -> his up cards (of his first ``upto`` cards)."""
        return {p: [c for c, face_up in self.cards.get(p, [])[:upto] if face_up] for p in players}

    def _live_from_mano(self) -> list[str]:
        h = self.hand
        live = [p for p in h.seats if p not in h.folded]
        return h._clockwise_after(h.button if h.button is not None else 0, live)

    def seat_card(self, event: CardDealt, eid: str) -> list[Violation]:
        """Keep the card; the first card of a later street closes the interval before it (a premature
        card while it is open, 004 L5143-L5146)."""
        p = self.keep_card(event)
        if p is None:
            return []
        street = self._street_of(self.cards[p])
        out: list[Violation] = []
        h = self.hand
        while h.street < street:
            rnd = h.interval
            if rnd is not None and not rnd.over and len(rnd.live) > 1:
                out.append(self.violation(ViolationKind.PROCEDURE, f"{event.card} dealt to seat {event.hand} before the "
                                          "betting interval was over (a premature card)", "stud_premature", eid))
            h._close_interval()
        return out

    def _street_of(self, cards: list[tuple[str, bool]]) -> int:
        """The street of a player's last card: by how many cards he holds, or, when the record misses
        some down cards (a hand history that knows only the up cards), by his up cards: the u-th up
        card is his ``up_at[u]``-th card, and a down card after it comes later."""
        ups = sum(1 for _, face_up in cards if face_up)
        floor = self.up_at[min(ups, len(self.up_at)) - 1] if ups else 0
        n = max(len(cards), floor + (0 if cards[-1][1] or not ups else 1))
        return next((k for k, end in enumerate(self.ends) if n <= end), len(self.ends) - 1)

    def _opener_lowest_up_card(self) -> str | None:
        """Third street: the lowest up card of the first cards dealt."""
        return lowest_up_card(self.up(self._live_from_mano(), self.ends[0]), self.hand.variant.suits)

    def _opener_best_up_cards(self) -> str | None:
        """A later street: the best hand showing."""
        return best_up_cards(self.up(self._live_from_mano()))

    def before_action(self, event: PokerAction, eid: str, rnd: BettingRound) -> list[Violation]:
        """The bring-in (third street) and the opener of a later street: the right player, who does
        not check (third street) or fold; a ``bring_in`` only as the hand's first action; the high
        limit on fourth street after an open pair (module docstring)."""
        out = super().before_action(event, eid, rnd)
        h, p, action = self.hand, event.player_id, event.action
        first = h.street not in self.acted_on
        self.acted_on.add(h.street)
        if action == "bring_in" and not (first and h.street == 0):
            out.append(self.violation(ViolationKind.ILLEGAL_DECISION, f"{p} posted a bring-in that is not the hand's "
                                      "first action: the lowest up card brings in, once", "bring_in", eid, p, event.amount))
        if not first:
            return out
        expected = rnd.to_act if self.opener() is not None else None  # the opener, or after him when all-in
        key = "bring_in" if h.street == 0 else "stud_opener"
        if expected is not None and p != expected and p in rnd.players:
            what = ("the lowest up card brings in (the bet stands, 004 L5159-L5163)" if h.street == 0
                    else "the best hand showing speaks first")
            out.append(self.violation(ViolationKind.ILLEGAL_DECISION, f"{p} opened the betting of street {h.street + 3}, "
                                      f"it is {expected}'s: {what}", key, eid, p, event.amount))
            rnd.turn = rnd.players.index(p)  # flagged once here, not again as out of turn
        if action == "fold" or (h.street == 0 and action not in ("bring_in", "bet")):
            out.append(self.violation(ViolationKind.ILLEGAL_DECISION, f"{p} opened street {h.street + 3} with a "
                                      f"{action}: the player who speaks first may not {'pass or ' if h.street == 0 else ''}"
                                      "fold", key, eid, p, event.amount))
        self._open_pair_limit(event, rnd)
        return out

    def _open_pair_limit(self, event: PokerAction, rnd: BettingRound) -> None:
        """Fourth street at fixed limit: a first bet of twice the minimum when a player's two up cards
        pair sets the high limit (004 L4989-L4998)."""
        h = self.hand
        high = 2 * h.ctx.min_bet
        if rnd.structure != "fixed_limit" or h.street != 1 or event.amount != high:
            return
        pairs = any(len(c) == 2 and c[0][0] == c[1][0] for c in self.up(rnd.live).values())
        if pairs:
            rnd.increment = Decimal(high)

    def shown_cards(self, player: str, cards: list[str]) -> list[str]:
        """Every card dealt to the player's seat and every card he shows."""
        dealt = [c for c, _ in self.cards.get(player, [])]
        return dealt + [c for c in cards if c not in dealt]


__all__ = ["RANKS", "StudRules", "best_up_cards", "lowest_up_card"]
