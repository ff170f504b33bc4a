"""Five-card draw («Póquer cubierto de cinco cartas con descarte», 004_5c9c19b250457762.txt L4824-L4967,
I.1.10.A): the hooks of a hand (:class:`~pitwatch.rules.poker.variants.VariantRules`).

- **Deal and first interval** (004 L4838-L4853). The ante, five cards face down each, then the first
  interval from the «mano» (the first seat after the marca). «Abrir» the pot, its first bet, needs
  «una pareja de J o una combinación de superior valor»; a player may pass without it. The opener's
  five dealt cards, when the events show them, are checked: opening without the pair makes the play «falsa»
  (004 L4955-L4964): flagged, and he may not win the pot.
- **The draw** (004 L4875-L4889, ``cards_discarded``). Once the bets are equal, each player still in
  discards «de uno o más naipes» (0: he is «servido»), at most the ruleset's ``max_discard`` (all
  five), starting with the opener and in turn, and is dealt as many «de manera que tenga cinco»
  before the next one discards. A discard while the first interval is open, out of turn, by a player
  out of the hand or beyond the limit, and a replacement count other than the discard, are flagged.
  A draw after a first interval nobody opened is flagged: that is a «mano en blanco» (004 L4863-L4866).
- **Second interval** (004 L4916-L4923). The opener speaks first; when he folded, the first live player
  after him (the ruleset's ambiguity). Then the showdown: the five cards shown, with «figuras»
  (:func:`~pitwatch.rules.poker.showdown.hand_of`, ``five_with_figuras``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pitwatch.rules.base import Violation, ViolationKind
from pitwatch.rules.poker.betting import BettingRound
from pitwatch.rules.poker.showdown import ShowdownError, hand_of
from pitwatch.rules.poker.variants import VariantRules
from pitwatch.schemas.events import CardDealt
from pitwatch.schemas.poker import CardsDiscarded, PokerAction

if TYPE_CHECKING:
    from pitwatch.rules.poker.game import PokerRound


def can_open(cards: list[str], pair: str) -> bool:
    """Whether five ``cards`` make at least a pair of rank ``pair`` (``J``: «una pareja de J o una
    combinación de superior valor», 004 L4846-L4848), by the standard ranking: they rank with the
    lowest such pair (``J J 4 3 2``) or above. Raises :class:`ShowdownError` for unreadable cards."""
    if not pair:
        return True
    weakest = [pair + "S", pair + "H", "2D", "3C", "4S"]
    return bool(hand_of(cards, []) >= hand_of(weakest, []))


class DrawRules(VariantRules):
    """Five-card draw's hooks (module docstring)."""

    hand_size = 5

    def __init__(self, hand: "PokerRound"):
        super().__init__(hand)
        self.opener_of_pot = ""
        """The player who opened the pot (the first bet of the first interval)."""
        self.false_opener = ""
        self.drawn: list[str] = []
        """Players who discarded, in order."""
        self.owed: dict[str, tuple[int, str]] = {}
        """Player -> (cards still to deal him for his discard, the discard's event id)."""

    # ------------------------------------------------------------------ the first interval
    def before_action(self, event: PokerAction, eid: str, rnd: BettingRound) -> list[Violation]:
        """The opening bet of the first interval: the opener's dealt cards hold the opening pair;
        a replacement count other than a discard's, once the second interval starts."""
        out = super().before_action(event, eid, rnd)
        h, p = self.hand, event.player_id
        if h.street >= 1:
            return out + self._owed_check(eid)
        if event.action not in ("bet", "raise") or self.opener_of_pot:
            return out
        self.opener_of_pot = p
        pair = h.variant.opening_pair
        dealt = [c for c, _ in self.cards.get(p, [])[:h.variant.hole_cards]]
        if len(dealt) < h.variant.hole_cards:
            return out  # the events do not show his cards
        try:
            opens = can_open(dealt, pair)
        except ShowdownError:
            return out
        if not opens:
            self.false_opener = p
            out.append(self.violation(ViolationKind.ILLEGAL_DECISION, f"{p} opened the pot with {' '.join(dealt)}: "
                                      f"opening takes a pair of {pair} or better; a false opener may not win the pot",
                                      "false_opener", eid, p, event.amount))
        return out

    def _opener_opener(self) -> str | None:
        """The second interval: the opener, or the first live player after him."""
        return self._first_from_opener()

    def _first_from_opener(self) -> str | None:
        h = self.hand
        if not self.opener_of_pot:
            return None
        order = h._clockwise_after(h.seats[self.opener_of_pot] - 1, list(h.seats))
        return next((q for q in order if q not in h.folded), None)

    # ------------------------------------------------------------------ the draw
    def cards_discarded(self, event: CardsDiscarded, eid: str) -> list[Violation]:
        """A ``cards_discarded`` (module docstring)."""
        h, p = self.hand, event.player_id
        out = self._owed_check(eid)
        if not self.drawn:  # the first discard closes the first interval
            rnd = h.interval
            if rnd is not None and not rnd.over and len(rnd.live) > 1:
                out.append(self.violation(ViolationKind.PROCEDURE, f"{p} discarded before the bets were equal: the "
                                          "draw comes once the first interval is over", "draw_discard", eid, p))
            if not self.opener_of_pot:
                out.append(self.violation(ViolationKind.PROCEDURE, "the draw went on though nobody opened the pot: "
                                          "a blank hand is dealt again with a new ante", "draw_open", eid))
            h._close_interval()
        if p not in h.seats or p in h.folded or p in self.drawn:
            out.append(self.violation(ViolationKind.PROCEDURE, f"{p} discarded but is not in the hand, or discarded "
                                      "twice", "draw_order", eid, p))
            return out
        expected = self._next_to_draw()
        if expected is not None and p != expected:
            out.append(self.violation(ViolationKind.PROCEDURE, f"{p} discarded out of turn: the draw starts with the "
                                      f"player who opened and goes in turn; it is {expected}'s", "draw_order", eid, p))
        self.drawn.append(p)
        limit = h.variant.max_discard
        if event.count > limit:
            out.append(self.violation(ViolationKind.ILLEGAL_DECISION, f"{p} discarded {event.count} cards: at most "
                                      f"{limit}, he holds five", "draw_discard", eid, p))
        if event.cards and len(event.cards) != event.count:
            out.append(self.violation(ViolationKind.PROCEDURE, f"{p} announced {event.count} discards and threw "
                                      f"{len(event.cards)}", "draw_discard", eid, p))
        held = self.cards.get(p, [])
        self.cards[p] = [(c, up) for c, up in held if c not in set(event.cards)]
        self.owed[p] = (event.count, eid)
        return out

    def _next_to_draw(self) -> str | None:
        h = self.hand
        first = self._first_from_opener()
        if first is None:
            return None
        order = h._clockwise_after(h.seats[first] - 1, [q for q in h.seats if q not in h.folded])
        return next((q for q in order if q not in self.drawn), None)

    def seat_card(self, event: CardDealt, eid: str) -> list[Violation]:
        """A card dealt to a seat; after a discard, one of its replacements."""
        p = self.keep_card(event)
        if p is not None and p in self.owed:
            left, first = self.owed[p]
            self.owed[p] = (left - 1, first)
        return []

    def _owed_check(self, eid: str) -> list[Violation]:
        """Replacements dealt other than discarded, for every discard so far (then forgotten)."""
        out = []
        for p, (left, first) in sorted(self.owed.items()):
            if left:
                out.append(Violation(ViolationKind.PROCEDURE, f"{p} was dealt {'fewer' if left > 0 else 'more'} cards than "
                                     f"he discarded ({abs(left)} {'missing' if left > 0 else 'too many'}): he is given "
                                     "as many as he discards, so that he has five", self.hand.ctx.ruleset.cite("draw_discard"),
                                     tuple(e for e in (first, eid) if e), None, p))
        self.owed.clear()
        return out

    def barred(self) -> set[str]:
        """A false opener may not win the pot (004 L4955-L4964), nor a hand of other than five cards."""
        return super().barred() | ({self.false_opener} if self.false_opener else set())

    def check(self) -> list[Violation]:
        """Replacements still owed at the end, and hands of the wrong size."""
        return self._owed_check("") + super().check()


__all__ = ["DrawRules", "can_open"]
