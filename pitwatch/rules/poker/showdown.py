"""The showdown of póquer en círculo: which shown hands win each pot («los naipes hablan»).

The croupier, not the players, reads the hands and names the winner (004 L4624-L4634, IX.21). A
hand is the best five of the player's hole cards and the board; hands rank as the regulation lists
them, «escalera real de color» to «carta mayor» (004 L4278-L4324, VI.1), with the tie-breaks of VI.2
(004 L4326-L4365); where VI.2 stops (a colour's or a pair's further cards, AMBIGUITY #15 of the
catalogue) the next cards decide, as in every casino. Equal hands share the pot (IX.24, see
:func:`pitwatch.rules.poker.pots.split_pot`). This ranking is the standard one of a 52-card game:
the evaluation is pokerkit's (``StandardHighHand``), a well-kept library, not ours.

Cards are pitwatch codes (``"QH"``: :mod:`pitwatch.schemas.cards`).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from pokerkit import Card, OmahaHoldemHand, StandardHighHand

from pitwatch.rules.poker.pots import Pot
from pitwatch.schemas.cards import is_card


class ShowdownError(ValueError):
    """Cards the showdown cannot read (not a card, a card twice, too few)."""


def _cards(codes: Sequence[str]) -> list[Any]:
    bad = [c for c in codes if not is_card(c)]
    if bad:
        raise ShowdownError(f"{bad} are not cards (RANK + SUIT, e.g. QH)")
    return list(Card.parse("".join(c[0] + c[1].lower() for c in codes)))


HAND_RULES = ("any_five", "two_plus_three", "five_with_figuras")
"""How a hand is made: the best five of all the cards (hold'em, 004 L5442-L5451; stud's seven,
004 L4974-L4981), exactly two hole cards and three of the board (Omaha, 004 L5240-L5245: pokerkit's
``OmahaHoldemHand``), or the five cards held with «figuras» (draw, :class:`FigurasHand`)."""

FACES = frozenset("AKQJ")
_TRIO_OR_BETTER = ("THREE_OF_A_KIND", "STRAIGHT", "FLUSH", "FULL_HOUSE", "FOUR_OF_A_KIND", "STRAIGHT_FLUSH")


class FigurasHand:
    """A five-card draw hand: the standard ranking (pokerkit's ``StandardHighHand``) with «figuras»,
    five cards that are «As, K, Q o J», between «trío» and «doble pareja» (004 L4310-L4316; only in
    this variety). Two «figuras» rank as their five cards (004 L4353-L4355 and the ruleset's
    ambiguity). Compare with ``<``, ``==``; ``str`` names it."""

    def __init__(self, standard: Any, figuras: bool):
        self.standard, self.figuras = standard, figuras
        label = standard.entry.label.name
        self.key = 2 if label in _TRIO_OR_BETTER else 1 if figuras else 0

    def __lt__(self, other: "FigurasHand") -> bool:
        return (self.key, self.standard) < (other.key, other.standard)

    def __le__(self, other: "FigurasHand") -> bool:
        return self < other or self == other

    def __gt__(self, other: "FigurasHand") -> bool:
        return other < self

    def __ge__(self, other: "FigurasHand") -> bool:
        return other <= self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FigurasHand) and (self.key, self.standard) == (other.key, other.standard)

    def __hash__(self) -> int:
        return hash((self.key, str(self.standard)))

    def __str__(self) -> str:
        text = str(self.standard)
        return "Figuras " + text[text.index("("):] if self.key == 1 else text


def hand_of(hole: Sequence[str], board: Sequence[str], rule: str = "any_five") -> Any:
    """The best five-card hand of ``hole`` and ``board`` under ``rule`` (:data:`HAND_RULES`; a
    pokerkit hand: compare with ``<``, ``==``; ``str`` names it). Raises :class:`ShowdownError` for
    fewer than five cards, a code that is not a card, a card twice, an unknown rule or, under
    ``two_plus_three``, fewer than two hole or three board cards."""
    codes = [*hole, *board]
    if len(set(codes)) != len(codes):
        raise ShowdownError(f"a card appears twice in {codes}")
    if len(codes) < 5:
        raise ShowdownError(f"a hand needs five cards, not {len(codes)}")
    if rule not in HAND_RULES:
        raise ShowdownError(f"{rule!r} is not a way to make a hand ({', '.join(HAND_RULES)})")
    if rule == "five_with_figuras":
        if len(codes) != 5:
            raise ShowdownError(f"a draw hand is five cards, not {len(codes)}")
        return FigurasHand(StandardHighHand.from_game(_cards(codes), []), all(c[0] in FACES for c in codes))
    if rule == "two_plus_three":
        if len(hole) < 2 or len(board) < 3:
            raise ShowdownError(f"an Omaha hand takes two hole cards and three of the board, not {len(hole)} and {len(board)}")
        return OmahaHoldemHand.from_game(_cards(hole), _cards(board))
    return StandardHighHand.from_game(_cards(hole), _cards(board))


def winners(pot: Pot, shown: Mapping[str, Sequence[str]], board: Sequence[str],
            rule: str = "any_five") -> tuple[str, ...]:
    """The eligible players of ``pot`` with the best of the hands ``shown`` (player -> hole cards),
    in the pot's order: several when equal. An eligible player who did not show has given up his
    claim (004 L4608-L4622, IX.19-IX.20). ``rule`` as in :func:`hand_of`. Raises :class:`ShowdownError` when no eligible player
    showed, or for unreadable cards."""
    hands = {p: hand_of(shown[p], board, rule) for p in pot.eligible if p in shown}
    if not hands:
        raise ShowdownError(f"nobody eligible for the pot of {pot.amount} showed a hand")
    best = max(hands.values())
    return tuple(p for p in pot.eligible if p in hands and hands[p] == best)


__all__ = ["HAND_RULES", "FigurasHand", "ShowdownError", "hand_of", "winners"]
