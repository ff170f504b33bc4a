"""The house's benefit at póquer en círculo, in the form the table takes (004 L4077-L4101, II.4).

«El beneficio del Casino de Juego se podrá obtener eligiendo una de las dos opciones» (004 L4077-L4080),
then three letters; the table option ``revenue`` says which one the table takes:

- ``rake`` (a, L4082-L4088): up to 5 per 100 of the money put in each hand, into the «cagnotte»
  before the winner is paid. Audited per hand by :mod:`pitwatch.rules.poker.game` (``rake_taken``
  against :func:`rake_rate` x the pots).
- ``session_rate`` (b, L4090-L4097): per player and session, between 10 and 20 per 100 of the table's
  maximum bet or of the initial stack, as the casino decides (options ``session_rate``,
  ``session_base``, ``initial_stack``).
- ``session_fee`` (c, L4099-L4101): a fixed amount per player and session (option ``session_fee``).

A session fee is a table-level ``session_fee_taken`` (:func:`fee_taken`): compared with the fee due
(rate x base rounded down to the cent, or the fixed fee), a difference is a ``rake_discrepancy`` of
recorded - due; a fee under the rake form, or a second fee of a player in one session, is not due at
all. The session is the table's opening to its close (the ruleset's ambiguity): at the close a
session shorter than twice the players who paid, each «postre» twice (004 L4095-L4097), is a procedure
violation (:func:`session_closed`). Under a session form no rake is due on a hand.

The session's fees are kept in the table's :class:`PokerCarry`. Pure: no I/O.
"""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal, InvalidOperation
from typing import Any, Mapping

from pitwatch.rules.base import Violation, ViolationKind
from pitwatch.rules.game import Carry, TableContext
from pitwatch.rules.models.poker import PokerRuleset
from pitwatch.rules.poker.pots import CENT
from pitwatch.schemas.events import TableClosed, TableOpened
from pitwatch.schemas.poker import SessionFeeTaken

ZERO = Decimal("0")
FORMS = ("rake", "session_rate", "session_fee")
"""The three forms of the benefit (004 L4082-L4101, II.4.a-c)."""


def _model(ctx: TableContext) -> PokerRuleset:
    model: PokerRuleset = ctx.derived(("poker_model",), lambda: ctx.ruleset.model_as(PokerRuleset))
    return model


def rake_rate(ctx: TableContext) -> Decimal:
    """The share of each hand's pots due to the house: the table's ``rake_rate`` under the rake form
    (004 L4082-L4088), nothing under a session form."""
    return Decimal(ctx.option("rake_rate")) if ctx.option("revenue") == "rake" else ZERO


def fee_due(ctx: TableContext) -> tuple[Decimal | None, str]:
    """``(euros due per player and session, how)``; ``None`` when the table's options do not say
    (no rate or fee announced, a rate outside the law's bounds, no initial stack) or the table takes
    the rake (004 L4090-L4101, II.4.b-c)."""
    form = ctx.option("revenue")
    if form == "session_fee":
        fee = _euros(ctx, "session_fee")
        return (fee, f"the fixed fee {fee}") if fee is not None else (None, "no session_fee announced")
    if form != "session_rate":
        return None, "the table takes the rake, not a session fee"
    bounds = _model(ctx).revenue
    rate = _euros(ctx, "session_rate")
    if rate is None:
        return None, "no session_rate announced"
    if not bounds.session_rate_min <= rate <= bounds.session_rate_max:
        return None, f"session_rate {rate} is outside {bounds.session_rate_min}..{bounds.session_rate_max}"
    base_kind = ctx.option("session_base")
    if base_kind == "initial_stack":
        stack = _euros(ctx, "initial_stack")
        if stack is None:
            return None, "no initial_stack announced"
        base, name = stack, f"the initial stack {stack}"
    elif base_kind == "max_bet":
        base, name = ctx.max_bet, f"the table maximum {ctx.max_bet}"
    else:
        return None, f"session_base {base_kind!r} is neither max_bet nor initial_stack"
    return (rate * base).quantize(CENT, rounding=ROUND_DOWN), f"{rate} x {name}, rounded down"


def _euros(ctx: TableContext, option: str) -> Decimal | None:
    """Table option ``option`` as a non-negative decimal; ``None`` when empty or not one."""
    try:
        value = Decimal(ctx.option(option))
    except InvalidOperation:
        return None
    return value if value.is_finite() and value >= 0 else None


class PokerCarry(Carry):
    """A póquer en círculo table's state across hands: the session's benefit so far, ``fees`` (player ->
    the euros he paid as the session's fee) and ``hands`` (the hands played in the session). Stored as
    ``{"version": 1, "session": {"fees": {player: euros as a string}, "hands": n}}``."""

    def __init__(self) -> None:
        self.fees: dict[str, Decimal] = {}
        self.hands = 0

    def fields(self) -> dict[str, Any]:
        """``{"session": {"fees": ..., "hands": ...}}``."""
        return {"session": {"fees": {p: str(v) for p, v in self.fees.items()}, "hands": self.hands}}

    def load(self, fields: Mapping[str, Any], version: int) -> None:
        """From :meth:`fields` (a state written before the table's first session has no ``session``)."""
        session = fields.get("session") or {"fees": {}, "hands": 0}
        self.fees = {str(p): Decimal(v) for p, v in session["fees"].items()}
        self.hands = int(session["hands"])


def _session(ctx: TableContext) -> PokerCarry:
    return ctx.carry_as(PokerCarry)


def table_opened(ctx: TableContext, event: TableOpened) -> list[Violation]:
    """A new session: no fee paid yet. Under a session form whose options do not give the fee (none
    announced, a rate outside 10..20 per 100), a procedure violation: the benefit «se fijará» and is
    announced before the game (004 L4082-L4092)."""
    ctx.carry = PokerCarry()
    form = ctx.option("revenue")
    if form not in FORMS:
        return [Violation(ViolationKind.PROCEDURE, f"table option revenue={form!r} is not one of {', '.join(FORMS)}",
                          ctx.ruleset.cite("rake"), (str(event.event_id),))]
    if form == "rake":
        return []
    due, why = fee_due(ctx)
    if due is not None:
        return []
    key = "session_rate" if form == "session_rate" else "session_fee"
    return [Violation(ViolationKind.PROCEDURE, f"table {ctx.table_id} takes the benefit per session ({form}) but "
                      f"{why}: the fees cannot be checked", ctx.ruleset.cite(key), (str(event.event_id),))]


def hand_played(ctx: TableContext) -> None:
    """Count one hand of the session (for :func:`session_closed`)."""
    _session(ctx).hands += 1


def fee_taken(ctx: TableContext, event: SessionFeeTaken) -> list[Violation]:
    """A ``session_fee_taken``: compared with :func:`fee_due` (module docstring). Returns a
    ``rake_discrepancy`` of recorded - due when they differ (the whole fee when none is due: the rake
    form, or the player's second fee of the session)."""
    session = _session(ctx)
    p, amount, eid = event.player_id, event.amount, str(event.event_id)
    paid = session.fees.get(p, ZERO)
    session.fees[p] = paid + amount
    form = ctx.option("revenue")
    key = "session_fee" if form == "session_fee" else "session_rate" if form == "session_rate" else "rake"
    if form == "rake":
        due, why = ZERO, "the table takes the rake: no fee per session is due"
    elif paid > 0:
        due, why = ZERO, f"{p} already paid {paid} this session: one fee per player and session"
    else:
        fee, how = fee_due(ctx)
        if fee is None:
            return []  # flagged at the opening: nothing to compare with
        due, why = fee, f"{fee} due ({how})"
    diff = amount - due
    if diff == 0:
        return []
    return [Violation(ViolationKind.RAKE_DISCREPANCY,
                      f"{amount} EUR of {p}'s chips put in the cagnotte as the session's benefit; {why}: "
                      f"{abs(diff)} EUR {'too much' if diff > 0 else 'too little'}",
                      ctx.ruleset.cite(key), (eid,), None, p, diff)]


def session_closed(ctx: TableContext, event: TableClosed) -> list[Violation]:
    """At ``table_closed`` under a session form: a session of fewer hands than the ruleset's
    ``session_postre`` (2) x the players who paid a fee is a procedure violation: the session is
    never shorter than each player's two turns as «postre» (004 L4092-L4097)."""
    session = _session(ctx)
    if ctx.option("revenue") == "rake" or not session.fees:
        return []
    players, hands = len(session.fees), session.hands
    need = _model(ctx).revenue.session_postre * players
    if hands >= need:
        return []
    return [Violation(ViolationKind.PROCEDURE, f"session of table {ctx.table_id} closed after {hands} hands: "
                      f"{players} players paid the session's benefit, so it lasts at least {need} hands "
                      "(each player «postre» twice)", ctx.ruleset.cite("session_length"), (str(event.event_id),))]


__all__ = ["FORMS", "fee_due", "fee_taken", "hand_played", "rake_rate", "session_closed", "table_opened"]
