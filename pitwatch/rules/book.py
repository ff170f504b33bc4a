"""The book of standing bets: bets that outlive the round they were placed in.

A standing bet stays on the layout from one round to the next until a result resolves it: a simple
chance «en prison» after a zero at French roulette (Galicia 000 L125-L127, Andalucía 004 L304-L316), a
bet «en prison» after a refait at treinta y cuarenta, craps' line, come, place and odds bets. The
engine keeps one :class:`Book` per table in its context (:class:`~pitwatch.rules.game.TableContext`,
``ctx.book``), stores it in the table's snapshot (:meth:`Book.to_dict`, versioned by
:data:`BOOK_VERSION`), and a game moves its bets through it.

States (:data:`STATES`): ``placed`` (on the layout, not yet in action: a come bet before its point),
``working`` (in action: the next result may resolve it), ``off`` (on the layout but not in action: craps'
place bets on a come-out roll, unless called on), ``resolved`` (settled: the bet leaves the book). A bet
may name a ``parent`` (odds on a line bet): taking the parent down takes its children down with it.

Pure: no I/O, no clock; money is ``Decimal`` (euros).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Iterator

from pitwatch.rules.base import RuleError

BOOK_VERSION = 1
"""Version of :meth:`Book.to_dict`'s form (``{"version": 1, "bets": [...]}``)."""

PLACED, WORKING, OFF, RESOLVED = "placed", "working", "off", "resolved"
STATES = (PLACED, WORKING, OFF, RESOLVED)
"""The states of a standing bet, in the order a bet goes through them."""


@dataclass(slots=True)
class StandingBet:
    """One bet in the book.

    ``initial``: the stake first placed (euros); ``at_stake``: what stands now (euros; en prison at the
    k-th zero: ``initial / 2**(k-1)``); ``state``: one of :data:`STATES`; ``round_id`` and
    ``event_id``: where it was placed; ``parent``: the bet it rides on (odds), or ``None``;
    ``detail``: the game's own facts about it (JSON types only: en prison's ``zeros``)."""

    bet_id: str
    player_id: str
    spot: str
    initial: Decimal
    at_stake: Decimal
    state: str
    round_id: str
    event_id: str
    parent: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (money as strings). Inverse: :meth:`from_dict`."""
        return {"bet_id": self.bet_id, "player_id": self.player_id, "spot": self.spot,
                "initial": str(self.initial), "at_stake": str(self.at_stake), "state": self.state,
                "round_id": self.round_id, "event_id": self.event_id, "parent": self.parent,
                "detail": dict(self.detail)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "StandingBet":
        """Rebuild from :meth:`to_dict`. Raises ``RuleError`` for an unknown state, ``KeyError`` for a
        missing key."""
        state = d["state"]
        if state not in STATES:
            raise RuleError(f"standing bet {d.get('bet_id')!r} has an unknown state {state!r}")
        return cls(d["bet_id"], d["player_id"], d["spot"], Decimal(d["initial"]), Decimal(d["at_stake"]), state,
                   d["round_id"], d["event_id"], d.get("parent"), dict(d.get("detail") or {}))


class Book:
    """The standing bets of one table, ``bet_id -> StandingBet`` in the order they were stood.

    Every operation checks before it changes anything and raises :class:`RuleError` naming the bet
    when it cannot apply (an unknown bet, a bet id already standing, a parent that is not standing)."""

    __slots__ = ("_bets",)

    def __init__(self, bets: list[StandingBet] | None = None):
        self._bets: dict[str, StandingBet] = {}
        for b in bets or ():
            self.stand(b)

    def __len__(self) -> int:
        return len(self._bets)

    def __contains__(self, bet_id: object) -> bool:
        return bet_id in self._bets

    def __iter__(self) -> Iterator[StandingBet]:
        return iter(list(self._bets.values()))

    def get(self, bet_id: str) -> StandingBet:
        """The standing bet ``bet_id``. Raises ``RuleError`` if it is not in the book."""
        try:
            return self._bets[bet_id]
        except KeyError:
            raise RuleError(f"bet {bet_id} is not standing on the layout") from None

    def stand(self, bet: StandingBet) -> StandingBet:
        """Put ``bet`` in the book (its state ``placed``, ``working`` or ``off``). Raises ``RuleError`` if
        its id is already standing, its state is ``resolved``, or its parent is not standing."""
        if bet.bet_id in self._bets:
            raise RuleError(f"bet {bet.bet_id} is already standing on the layout")
        if bet.state == RESOLVED or bet.state not in STATES:
            raise RuleError(f"bet {bet.bet_id} cannot stand in state {bet.state!r}")
        if bet.parent is not None and bet.parent not in self._bets:
            raise RuleError(f"bet {bet.bet_id} rides on bet {bet.parent}, which is not standing")
        self._bets[bet.bet_id] = bet
        return bet

    def set_state(self, bet_id: str, state: str) -> StandingBet:
        """Move ``bet_id`` to ``placed``, ``working`` or ``off`` (use :meth:`resolve` to settle it)."""
        if state not in (PLACED, WORKING, OFF):
            raise RuleError(f"bet {bet_id} cannot be set {state!r}: use resolve to settle it")
        bet = self.get(bet_id)
        bet.state = state
        return bet

    def move(self, bet_id: str, spot: str) -> StandingBet:
        """Move ``bet_id`` to ``spot`` (a come bet to its point). Raises ``RuleError`` if it is not standing."""
        bet = self.get(bet_id)
        bet.spot = spot
        return bet

    def children(self, bet_id: str) -> list[StandingBet]:
        """The bets riding on ``bet_id`` (its odds), in book order."""
        return [b for b in self._bets.values() if b.parent == bet_id]

    def resolve(self, bet_id: str) -> StandingBet:
        """Settle ``bet_id``: it leaves the book, state ``resolved``. Raises ``RuleError`` if it is not
        standing, or if bets still ride on it (resolve or take those down first)."""
        bet = self.get(bet_id)
        riders = self.children(bet_id)
        if riders:
            raise RuleError(f"bet {bet_id} still carries {', '.join(b.bet_id for b in riders)}")
        del self._bets[bet_id]
        bet.state = RESOLVED
        return bet

    def take_down(self, bet_id: str) -> list[StandingBet]:
        """The player takes ``bet_id`` down, and with it every bet riding on it: they leave the book
        (state ``resolved``); returns them, the riders first. Raises ``RuleError`` if it is not standing."""
        bet = self.get(bet_id)
        gone: list[StandingBet] = []
        for rider in self.children(bet_id):
            gone.extend(self.take_down(rider.bet_id))
        del self._bets[bet_id]
        bet.state = RESOLVED
        gone.append(bet)
        return gone

    def clear(self) -> list[StandingBet]:
        """Empty the book (the table closes); returns the bets that were standing, in book order."""
        left = list(self._bets.values())
        self._bets.clear()
        return left

    def to_dict(self) -> dict[str, Any]:
        """``{"version": BOOK_VERSION, "bets": [standing bet dicts in book order]}``. Inverse: :meth:`from_dict`."""
        return {"version": BOOK_VERSION, "bets": [b.to_dict() for b in self._bets.values()]}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "Book":
        """Rebuild from :meth:`to_dict` (``None``: an empty book). Raises ``RuleError`` for a version this
        release does not read or a bet that cannot stand."""
        if d is None:
            return cls()
        version = d.get("version")
        if version != BOOK_VERSION:
            raise RuleError(f"book of standing bets version {version!r} is not {BOOK_VERSION}")
        return cls([StandingBet.from_dict(b) for b in d.get("bets", [])])


__all__ = ["BOOK_VERSION", "OFF", "PLACED", "RESOLVED", "STATES", "WORKING", "Book", "StandingBet"]
