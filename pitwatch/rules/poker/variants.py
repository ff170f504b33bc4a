"""What differs between the variants of póquer en círculo, as hooks of one hand
(:class:`~pitwatch.rules.poker.game.PokerRound`): the board games (hold'em, Omaha) need none of them;
seven-card stud (:mod:`pitwatch.rules.poker.stud`) and five-card draw
(:mod:`pitwatch.rules.poker.draw`) fill them in. :func:`rules_for` picks the variant's from the
ruleset's ``family``.

The hooks: a card dealt to a seat (:meth:`VariantRules.seat_card`), who opens the betting interval
about to start (:meth:`VariantRules.opener`), the checks before an action goes to the betting
interval (:meth:`VariantRules.before_action`), the cards a shown hand is read from
(:meth:`VariantRules.shown_cards`), the variant's own event (:meth:`VariantRules.cards_discarded`), the
players who cannot win a pot (:meth:`VariantRules.barred`) and the checks at the end of the hand
(:meth:`VariantRules.check`).
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from pitwatch.rules.base import RuleError, Violation, ViolationKind
from pitwatch.rules.poker.betting import BettingRound
from pitwatch.schemas.events import CardDealt
from pitwatch.schemas.poker import CardsDiscarded, PokerAction

if TYPE_CHECKING:
    from pitwatch.rules.poker.game import PokerRound


class VariantRules:
    """The hooks of a board variant: nothing to add to the general rules. ``hand`` is the round."""

    hand_size = 0
    """Cards a shown hand must hold (0: any number, the board completes it)."""

    def __init__(self, hand: "PokerRound"):
        self.hand = hand
        self.cards: dict[str, list[tuple[str, bool]]] = {}
        """Player -> the cards dealt to his seat, in order, with whether each was dealt face up."""
        self.first_action_seen = False

    def violation(self, kind: str, message: str, key: str, eid: str, player: str | None = None,
                  amount: Decimal | None = None) -> Violation:
        """A violation citing the ruleset's ``key``."""
        return Violation(kind, message, self.hand.ctx.ruleset.cite(key), (eid,), None, player, amount)

    def player_at(self, hand_id: str) -> str | None:
        """The player dealt in at seat ``hand_id`` (a seat number as text), if any."""
        if not hand_id.isdigit():
            return None
        seat = int(hand_id)
        return next((p for p, s in self.hand.seats.items() if s == seat), None)

    def keep_card(self, event: CardDealt) -> str | None:
        """Keep a ``card_dealt`` to a seat as its player's card; returns the player (``None``: nobody
        is dealt in at that seat)."""
        p = self.player_at(event.hand)
        if p is not None:
            self.cards.setdefault(p, []).append((event.card, bool(event.face_up)))
        return p

    def seat_card(self, event: CardDealt, eid: str) -> list[Violation]:
        """A ``card_dealt`` to a seat: nothing to check at a board variant (the hole cards are read
        from the showdown)."""
        return []

    def opener(self) -> str | None:
        """The player who opens the interval about to start, by the variant's ``first_opener`` (the
        first interval) or ``later_opener`` rule: ``None`` for ``position``, the general rule (after the
        big blind, or the first live seat after the marca); else the family's ``_opener_<rule>``.
        Raises :class:`~pitwatch.rules.base.RuleError` for a rule the family does not know."""
        v = self.hand.variant
        rule = v.first_opener if self.hand.street == 0 else v.later_opener
        if rule == "position":
            return None
        method = getattr(self, f"_opener_{rule}", None)
        if method is None:
            raise RuleError(f"a {v.family} variant cannot open an interval by {rule!r}",
                            self.hand.ctx.ruleset.cite(self.hand.ctx.option("variant")))
        found: str | None = method()
        return found

    def before_action(self, event: PokerAction, eid: str, rnd: BettingRound) -> list[Violation]:
        """Checks of a betting action before the interval judges it; may move ``rnd``'s turn to the
        player when the violation returned already says he acted out of turn. The first action of the
        hand checks the number of players the variant is dealt to (stud: 4 to 8, 004 L4974-L4977)."""
        if self.first_action_seen:
            return []
        self.first_action_seen = True
        low, high = self.hand.variant.players
        n = len(self.hand.seats)
        if low <= n <= high:
            return []
        key = self.hand.ctx.option("variant")
        return [self.violation(ViolationKind.PROCEDURE, f"{n} players dealt in: {key} is played by {low} to {high}",
                               key if key in ("stud", "draw") else "seats", eid)]

    def shown_cards(self, player: str, cards: list[str]) -> list[str]:
        """The cards a ``hand_shown`` makes the player's hand from: the cards shown."""
        return cards

    def cards_discarded(self, event: CardsDiscarded, eid: str) -> list[Violation]:
        """A ``cards_discarded`` (``eid`` its event id): nothing to check at a variant without a draw."""
        return []

    def wrong_size(self) -> set[str]:
        """Players who showed a hand of the wrong size (stud: «Una mano con más o menos de siete cartas se
        considerará nula», 004 L5051-L5052)."""
        if not self.hand_size:
            return set()
        return {p for p, c in self.hand.shown.items() if len(set(c)) != self.hand_size}

    def barred(self) -> set[str]:
        """Players who may not win a pot though they showed: a hand of the wrong size."""
        return self.wrong_size()

    def check(self) -> list[Violation]:
        """Checks at the end of the hand: a shown hand of the wrong size (:meth:`wrong_size`)."""
        return [Violation(ViolationKind.PROCEDURE, f"{p} showed a hand of {len(set(self.hand.shown[p]))} cards: a hand "
                          f"is {self.hand_size}, another is void and wins nothing",
                          self.hand.ctx.ruleset.cite("stud_cards" if self.hand_size == 7 else "draw_discard"))
                for p in sorted(self.wrong_size())]


def rules_for(hand: "PokerRound") -> VariantRules:
    """The hooks of ``hand``'s variant (its ruleset ``family``)."""
    family = hand.variant.family
    if family == "stud":
        from pitwatch.rules.poker.stud import StudRules
        return StudRules(hand)
    if family == "draw":
        from pitwatch.rules.poker.draw import DrawRules
        return DrawRules(hand)
    return VariantRules(hand)


__all__ = ["VariantRules", "rules_for"]
