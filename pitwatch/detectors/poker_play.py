"""A poker hand's decisions as the collusion detectors read them: who acted, against whom.

A round digest carries the hand's ``poker_action`` events in order, ``(interval, player_id,
action, open)`` (:attr:`pitwatch.detectors.digest.RoundDigest.decisions`). :func:`situations` walks them
and gives each **voluntary** decision (not an ante or a blind, 004 L4425-L4448) with what the
player faced when he took it:

- ``live``: the players still in the hand (dealt in and not folded) just before it, himself
  included. A player all-in is still live (the events of a hand do not say who is all-in: his
  stack is not in the digest);
- ``aggressor``: the last player who bet or raised in the same betting interval (empty when
  nobody has, the blinds aside);
- ``open``: whether he could have bet or raised instead (chips beyond the call, somebody to answer,
  the betting open to him: the engine's reading of the rules).

Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

FORCED = frozenset({"ante", "small_blind", "big_blind", "bring_in"})
"""Actions the rules force (antes, blinds, stud's bring-in): no decision of the player. A bring-in
opens the betting like a bet: its player is the interval's aggressor."""
AGGRESSIVE = frozenset({"bet", "raise"})
"""Actions that put the others to a decision: a bet or a raise."""


@dataclass(frozen=True, slots=True)
class Situation:
    """One voluntary decision (module docstring): ``interval`` (0 = the first), ``player``,
    ``action``, ``live`` (players in the hand just before it), ``aggressor`` ("" if none), ``open``
    (he could have bet or raised)."""

    interval: int
    player: str
    action: str
    live: frozenset[str]
    aggressor: str
    open: bool

    def opponents(self) -> frozenset[str]:
        """The other players still in the hand."""
        return self.live - {self.player}


def situations(decisions: Iterable[tuple[int, str, str, bool]]) -> list[Situation]:
    """The voluntary decisions of a hand, in order, each with what the player faced (module
    docstring). ``decisions`` as :attr:`~pitwatch.detectors.digest.RoundDigest.decisions`."""
    taken = list(decisions)
    live = {p for _, p, _, _ in taken}
    out: list[Situation] = []
    aggressor, interval = "", 0
    for i, player, action, open_ in taken:
        if i != interval:
            aggressor, interval = "", i
        if action in FORCED:
            aggressor = player if action == "bring_in" else aggressor
            continue
        out.append(Situation(i, player, action, frozenset(live), aggressor, open_))
        if action == "fold":
            live.discard(player)
        elif action in AGGRESSIVE:
            aggressor = player
    return out


__all__ = ["AGGRESSIVE", "FORCED", "Situation", "situations"]
