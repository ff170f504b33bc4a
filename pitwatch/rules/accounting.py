"""Table-games accounting: the figures of each bet and the float of a table session.

Standard meaning of each figure, computed here once (the warehouse only sums them):

* **handle** — the sum of the original stakes of resolved wagers. A bet counts once, on the
  round that resolves it, at its original stake (:attr:`ExpectedSettlement.wager`): a roulette
  bet imprisoned by a zero and released a spin later counts its 10 € once; a blackjack double
  or split is a decision on the same wager (its result is in the win, not in the handle). A
  bet that is no wager (refused) or whose round was voided has no handle.
* **win** — what the bet left with the house: euros at stake in the round minus the player's
  net return (``returned - commission``) minus what stays on the layout for a later round
  (a bet kept en prison). So commissions and cagnotte are part of the win, and an imprisoned
  bet wins nothing for the house until it is settled. The return is what the dealer recorded;
  when nothing was recorded, what the rules say was due (that missing record is itself
  flagged by the engine).
* **theoretical win** — handle x the bet's house edge under its ruleset (computed elsewhere).
* **drop** — cash and markers exchanged for chips at the table (``chips_bought``); chips
  cashed at the table (``chips_cashed``) are kept apart, as are fills and credits (chips from
  the cage to the table and back) and tips («propinas», dropped in their own slot: they are
  the employees', never the float's: 000 L443, L453; 004 L1591, L1647).

Float reconciliation: the table's float («anticipo», 000 L175; 004 L375, L5686) is counted at
the close. The count-based win of the session

    closing count - anticipo - fills + credits + drop - cashed

must equal the bet-derived win (the sum of ``win`` over the session's settlements, commissions
and cagnotte included: the closing count is everything the table holds, the commission slot
too). A difference means chips are missing from (negative) or extra in (positive) the float.

Everything here is pure: no I/O, no clock. Euros are ``Decimal``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable

from pitwatch.rules.base import REFUSED, BetCheck
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import (
    ChipsBought,
    ChipsCashed,
    TableClosed,
    TableCredit,
    TableFill,
    TableOpened,
    TipReceived,
)
from pitwatch.schemas.money import ZERO

FLOAT_CITATION = ("pitwatch accounting (float reconciliation: count-based win = bet-derived win); "
                  "the table's anticipo and its cash box: 000 L175; 004 L375, L5686")
"""Cited by a float discrepancy: the check is an accounting control on the anticipo the
regulations give each table, not a rule of a game."""

NO_WAGER = frozenset({REFUSED, "void"})
"""Expected outcomes of a bet that was no wager at all (refused chips, voided round)."""

MOVEMENT_KINDS = ("anticipo", "drop", "cashed", "fill", "credit", "tip", "closing_count")
"""Kinds of chip and cash movements of a table (see :class:`Movement`)."""

MOVEMENT_FIGURE = {"anticipo": "anticipo", "drop": "drop", "cashed": "cashed", "fill": "fills",
                   "credit": "credits", "tip": "tips"}
"""Movement kind -> the figure it adds to (of :class:`FloatLedger` and of the table figures)."""


THEO_ZERO = Decimal("0.0000")


@dataclass(slots=True, unsafe_hash=True)
class BetFigures:
    """Accounting figures of one settlement row, in euros: ``handle`` (the original stake if
    the row resolves a wager, else 0), ``win`` (the house's win from this row; negative when
    the player won), ``theoretical_win`` (handle x the bet's house edge, 4 decimals; 0
    without a handle or an edge) and ``theoretical_variance`` (euros²: handle² x the variance of
    the bet kind's result per unit, 4 decimals, :func:`pitwatch.rules.edges.bet_variance`; 0
    likewise): summed over a table's bets, the variance of its win around the theoretical win."""

    handle: Decimal
    win: Decimal
    theoretical_win: Decimal = THEO_ZERO
    theoretical_variance: Decimal = THEO_ZERO


def bet_figures(check: BetCheck,
                theo: Callable[[str, Decimal], tuple[Decimal, Decimal]] | None = None) -> BetFigures:
    """Handle, win and theoretical win of one bet check (definitions in the module docstring).

    ``check.expected.stake`` is the euros at stake this round, ``carried`` what stays on the
    layout for a later round; the return is the recorded one, or the expected one when the
    dealer recorded nothing. ``theo(spot, handle)`` gives the theoretical win and variance of
    a resolved wager (the engine's, from :func:`pitwatch.rules.edges.theoretical_win` and
    :func:`pitwatch.rules.edges.theoretical_variance`)."""
    e, r = check.expected, check.recorded
    net = r.net if r is not None else e.net
    win = e.stake - net - e.carried
    if e.outcome in NO_WAGER or e.carried:
        return BetFigures(ZERO, win)
    handle = e.wager
    if theo is None:
        return BetFigures(handle, win)
    expected, variance = theo(e.spot, handle)
    return BetFigures(handle, win, expected, variance)


@dataclass(frozen=True, slots=True)
class Movement:
    """A chip or cash movement of a table, from one event: ``kind`` is one of
    :data:`MOVEMENT_KINDS`, ``amount`` euros (>= 0), ``player_id`` the player's, if any.
    ``event_id`` identifies it (one movement per event)."""

    kind: str
    amount: Decimal
    event_id: str
    player_id: str = ""


MOVEMENT_EVENT_TYPES = frozenset({"table_opened", "table_closed", "chips_bought", "chips_cashed", "table_fill",
                                  "table_credit", "tip_received"})
"""The event types that may record a movement (:func:`movement_of` is ``None`` for any other)."""


def movement_of(event: EventBase) -> Movement | None:
    """The movement an event records, or ``None``: ``table_opened`` (its ``float_amount``, the
    anticipo), ``table_closed`` with a ``closing_count``, ``chips_bought`` (drop),
    ``chips_cashed``, ``table_fill``, ``table_credit`` and ``tip_received``."""
    eid = str(event.event_id)
    if type(event) is ChipsBought:
        return Movement("drop", event.amount, eid, event.player_id)
    if type(event) is TipReceived:
        return Movement("tip", event.amount, eid, event.player_id or "")
    if type(event) is ChipsCashed:
        return Movement("cashed", event.amount, eid, event.player_id)
    if type(event) is TableFill:
        return Movement("fill", event.amount, eid)
    if type(event) is TableCredit:
        return Movement("credit", event.amount, eid)
    if type(event) is TableOpened:
        return Movement("anticipo", event.float_amount, eid)
    if type(event) is TableClosed:
        count = event.closing_count
        return None if count is None else Movement("closing_count", count, eid)
    return None


LEDGER_FIGURES = ("anticipo", "fills", "credits", "drop", "cashed", "tips", "bet_win")
"""The euro figures of a :class:`FloatLedger`, as its stored form lists them."""


@dataclass
class FloatLedger:
    """The running float account of one table session (from ``table_opened`` to
    ``table_closed``), euros. ``complete`` is false when the session began before this ledger
    was kept (a table state written by an older release): such a session is not reconciled."""

    anticipo: Decimal = ZERO
    fills: Decimal = ZERO
    credits: Decimal = ZERO
    drop: Decimal = ZERO
    cashed: Decimal = ZERO
    tips: Decimal = ZERO
    bet_win: Decimal = ZERO
    complete: bool = True

    def record(self, m: Movement) -> None:
        """Add a movement to its figure (a closing count changes nothing: it is compared)."""
        name = MOVEMENT_FIGURE.get(m.kind)
        if name is not None:
            setattr(self, name, getattr(self, name) + m.amount)

    def count_win(self, closing_count: Decimal) -> Decimal:
        """Count-based win: ``closing_count - anticipo - fills + credits + drop - cashed``."""
        return closing_count - self.anticipo - self.fills + self.credits + self.drop - self.cashed

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (euros as strings). Inverse: :meth:`from_dict`."""
        d: dict[str, Any] = {k: str(getattr(self, k)) for k in LEDGER_FIGURES}
        d["complete"] = self.complete
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "FloatLedger":
        """Rebuild from :meth:`to_dict`; raises ``KeyError``/``ArithmeticError`` if malformed."""
        led = cls(complete=bool(d["complete"]))
        for k in LEDGER_FIGURES:
            setattr(led, k, Decimal(d[k]))
        return led
