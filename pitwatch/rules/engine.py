"""The rules engine's fold: ``verdicts = fold(events)`` for one table.

:class:`TableEngine` consumes one table's events in ``seq`` order and emits a
:class:`~pitwatch.rules.base.RoundVerdict` at every ``round_ended`` (plus table-level
violations). It is pure: same events in, same verdicts out; no clock, no I/O, no
randomness. The game-specific law lives in the game modules registered in :data:`GAMES`
(:mod:`pitwatch.rules.registry`, filled by importing :mod:`pitwatch.rules.games`).

Common rules enforced here, for every game:

- «No va más»: no bet placed or withdrawn after ``bets_closed`` (past-posting) until the game
  opens the next betting window of the round (:meth:`~pitwatch.rules.game.GameRound.reopens_betting`:
  craps' next roll). Galicia 000 L185 (roulette V.3.b), L315 (blackjack IV.2); Andalucía 004 per game.
- Every bet's recorded settlement is compared with the expected one; the difference is a
  ``payout_discrepancy`` violation (positive amount = over-payment) citing the payout rule.
- A settlement recorded for a bet that was never placed is ``unknown_bet_settled``.
- Chips and cash (anticipo, drop, cashed, fills, credits, tips: the
  :func:`~pitwatch.rules.accounting.movement_of` each event) are kept in the session's float
  ledger; at ``table_closed`` with a closing count the float is reconciled
  (``float_discrepancy``).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Iterable, Iterator, Mapping, TypeVar, cast

from pitwatch.rules.accounting import FLOAT_CITATION, bet_figures, movement_of
from pitwatch.rules.base import (
    REFUSED,
    Bet,
    BetCheck,
    ExpectedSettlement,
    RecordedSettlement,
    RoundTooLong,
    RoundVerdict,
    RuleError,
    Violation,
    ViolationKind,
    load_ruleset,
)
from pitwatch.rules.book import Book
from pitwatch.rules.edges import WIN_PLACES, bet_variance, house_edge
from pitwatch.rules.game import GameRound, TableContext, carry_type
from pitwatch.rules.games import GAMES, spec
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import (
    BetPlaced,
    BetsClosed,
    BetWithdrawn,
    ChipsBought,
    ChipsCashed,
    CommissionCollected,
    DealerAssigned,
    LimitsChanged,
    RoundEnded,
    RoundStarted,
    RoundVoided,
    SettlementRecorded,
    TableClosed,
    TableCredit,
    TableFill,
    TableOpened,
    TipReceived,
)
from pitwatch.schemas.money import ZERO

Output = RoundVerdict | Violation
"""What applying an event gives: the verdict of each round it ends and the table-level violations it reveals."""

_EDGES: dict[tuple[str, str, tuple[tuple[str, str], ...], str], tuple[Fraction, Fraction]] = {}
"""House edge and variance per unit per (ruleset id, content hash, table options, spot): a pure
function's cache."""

ENGINE_CITATION = "pitwatch engine (no regulation: event stream integrity)"

MAX_ROUND_EVENTS = 1000
"""Most events an open round may hold (with the table events since its start). The table state
stores them (:meth:`TableEngine.snapshot`), about 0.7 KB each at most, and a state must stay
below the state store's 1 MB message limit: the next event of a longer round (a runaway
device) raises :class:`RoundTooLong`, which quarantines the table in the stream processor
instead of stopping the worker on a state it cannot store. No legal round comes near it (a
busy roulette spin: a few hundred bets and their settlements)."""


_WIN_SCALE = 10**WIN_PLACES


def _times_edge(handle: Decimal, edge: Fraction) -> Decimal:
    """``quantize(Fraction(handle) * edge, WIN_PLACES)`` in plain integer arithmetic (the same
    result: half to even on the exact product; no ``Fraction`` objects built per bet)."""
    n, d = handle.as_integer_ratio()
    num = n * edge.numerator * _WIN_SCALE
    den = d * edge.denominator
    q, r = divmod(num, den)  # den > 0: floor division, 0 <= r < den
    if 2 * r > den or (2 * r == den and q % 2):
        q += 1
    return Decimal(q).scaleb(-WIN_PLACES)


def _edge(ctx: TableContext | None, spot: str) -> tuple[Fraction, Fraction]:
    """The house edge and the variance per unit of ``spot`` at table ``ctx`` (0 and 0 for a spot
    without them), shared by every table with the same ruleset version and options."""
    assert ctx is not None
    rs = ctx.ruleset
    key = (rs.id, rs.content_hash, tuple(sorted(ctx.options.items())), spot)
    pair = _EDGES.get(key)
    if pair is None:
        try:
            pair = (house_edge(rs, spot, options=ctx.options), bet_variance(rs, spot, options=ctx.options))
        except RuleError:
            pair = (Fraction(0), Fraction(0))
        _EDGES[key] = pair
    return pair


class _OpenRound:
    __slots__ = ("game_round", "events", "violations", "started_at", "voided", "void_event", "refused")

    def __init__(self, game_round: GameRound, started_at: datetime):
        self.game_round = game_round
        self.events: list[str] = []
        self.violations: list[Violation] = []
        self.started_at = started_at
        self.voided: str | None = None
        self.void_event = ""
        #: bets the rules do not accept (bet_id -> (bet, the violation refusing it))
        self.refused: dict[str, tuple[Bet, Violation]] = {}


REFUSING_KINDS = frozenset({ViolationKind.PAST_POSTING, ViolationKind.INVALID_BET})
"""Violations that make a bet no wager at all (placed after «No va más» or after the result,
or not a bet of the layout): the chips must be handed back. The bet is flagged once, by the
first of these, and settles as :data:`REFUSED` whatever the round's result."""


class TableEngine:
    """Folds one table's events into round verdicts.

    ``apply(event)`` returns a list of :class:`RoundVerdict` (one at each ``round_ended``)
    and table-level :class:`Violation` objects. Events must be fed in ``seq`` order;
    sequence gaps and duplicates are the ingest stage's concern
    (:mod:`pitwatch.detectors.sequence`).

    Applying an event is all or nothing: if the rules reject it (:class:`RuleError`) or the
    engine fails on it (any exception), the table is left exactly as it was before the event
    and the exception propagates. The engine keeps the table context as of the last quiet
    point (no round open) and the events applied since; a failure rebuilds the state from
    them. The same pair is the engine's persistent form (:meth:`snapshot`,
    :meth:`from_snapshot`): a JSON-ready dict that holds the table context and the raw
    events of the open round, never the internals of a game module.

    ``versions`` pins rulesets: ``{ruleset_id: content hash}``. A table opened with a pinned
    ruleset is judged with that version (replaying a round with the law in force when it
    was judged); any other with the version shipped with this release. Every verdict
    records the version that judged it (:attr:`RoundVerdict.ruleset_hash`).
    """

    def __init__(self, table_id: str, versions: Mapping[str, str] | None = None):
        self.table_id = table_id
        self.versions: dict[str, str] = dict(versions or {})
        self.ctx: TableContext | None = None
        self.open: _OpenRound | None = None
        #: events received while the table has no valid ``table_opened`` (reported once)
        self.unopened_events = 0
        self._base: dict[str, Any] | None = None
        self._pending: list[EventBase] = []

    # ------------------------------------------------------------------ helpers

    def _cite(self, key: str) -> str:
        if self.ctx is None:
            return ENGINE_CITATION
        return self.ctx.ruleset.cite(key)

    def _unopened(self, event: EventBase) -> list[Output]:
        """An event of a table with no valid ``table_opened``: one procedure violation for the
        first such event, then only counted (nothing can be judged without a ruleset)."""
        self.unopened_events += 1
        if self.unopened_events > 1:
            return []
        return [Violation(
            ViolationKind.PROCEDURE,
            f"{event.type} on table {self.table_id} before a valid table_opened: its events are "
            "stored but not judged until the table is opened with a known ruleset",
            ENGINE_CITATION, (str(event.event_id),))]

    def _theoretical_win(self) -> Callable[[str, Decimal], tuple[Decimal, Decimal]]:
        """``theo(spot, handle)``: (``handle`` x the house edge of ``spot``, ``handle``² x its
        variance per unit) under the table's ruleset and options (:mod:`pitwatch.rules.edges`);
        0 for a spot without an edge. Edges are cached per table (and limits), and shared per
        ruleset version, options and spot."""
        ctx = self.ctx
        assert ctx is not None
        edges: dict[str, tuple[Fraction, Fraction]] = ctx.derived(("house_edges",), dict)

        def theo(spot: str, handle: Decimal) -> tuple[Decimal, Decimal]:
            pair = edges.get(spot)
            if pair is None:
                pair = edges[spot] = _edge(ctx, spot)
            return _times_edge(handle, pair[0]), _times_edge(handle * handle, pair[1])

        return theo

    def _movement(self, event: EventBase) -> None:
        """Add the chip or cash movement ``event`` records (if any) to the session's ledger."""
        m = movement_of(event)
        if m is not None and self.ctx is not None:
            self.ctx.ledger.record(m)

    def _reconcile(self, event: TableClosed) -> list[Output]:
        """Float reconciliation at ``table_closed``: the count-based win of the session must
        equal the bets' win (:mod:`pitwatch.rules.accounting`); a difference is a
        ``float_discrepancy`` of that amount (negative: chips missing from the float)."""
        count = event.closing_count
        assert self.ctx is not None
        led = self.ctx.ledger
        if count is None or not led.complete:
            return []
        diff = led.count_win(count) - led.bet_win
        if diff == 0:
            return []
        what = "missing from" if diff < 0 else "extra in"
        return [Violation(
            ViolationKind.FLOAT_DISCREPANCY,
            f"float of table {self.table_id}: {abs(diff)} EUR {what} the float at the close. Count-based win "
            f"{led.count_win(count)} EUR (closing count {count} - anticipo {led.anticipo} - fills {led.fills} "
            f"+ credits {led.credits} + drop {led.drop} - cashed {led.cashed}) against the bets' win {led.bet_win} EUR",
            FLOAT_CITATION, (str(event.event_id),), amount=diff)]

    def _start_round(self, event: EventBase, round_id: str, last: bool) -> list[Output]:
        out: list[Output] = []
        if self.ctx is None:
            return self._unopened(event)
        if self.open is not None:
            prev = self.open
            prev.violations.append(Violation(
                ViolationKind.PROCEDURE,
                f"round {prev.game_round.round_id} never ended before round {round_id} began",
                ENGINE_CITATION, (str(event.event_id),)))
            out.append(self._close_round(event))
        cls = GAMES.get(self.ctx.game)
        if cls is None:
            raise RuleError(f"no rules for game {self.ctx.game!r}")
        self.open = _OpenRound(cls(self.ctx, round_id, last), event.occurred_at)
        return out

    def _close_round(self, event: EventBase) -> RoundVerdict:
        rnd = self.open
        assert rnd is not None and self.ctx is not None
        g = rnd.game_round
        self.open = None
        violations = list(rnd.violations)
        if rnd.voided is not None:
            expected = list(g.void(rnd.voided))
            violations.extend(g.void_violations(rnd.voided, rnd.void_event))
            outcome = f"void: {rnd.voided}"
        else:
            expected = list(g.settle())
            violations.extend(g.check())
            outcome = g.outcome()
        g.finish()
        recorded = dict(g.recorded)
        checks: list[BetCheck] = []
        for bet, why in rnd.refused.values():
            expected.append(ExpectedSettlement(
                bet.bet_id, bet.player_id, bet.spot, bet.stake, REFUSED, bet.stake, ZERO, why.citation,
                f"not a wager ({why.kind}): the chips are handed back"))
        for exp in expected:
            rec = recorded.pop(exp.bet_id, None)
            if rec is None and exp.outcome == REFUSED:
                checks.append(BetCheck(exp, None, ZERO))
                continue
            disc = (rec.net if rec is not None else ZERO) - exp.net
            checks.append(BetCheck(exp, rec, disc))
            if disc != 0:
                what = "over-paid" if disc > 0 else "under-paid"
                got = f"{rec.returned} returned, {rec.commission} commission" if rec else "no settlement recorded"
                violations.append(Violation(
                    ViolationKind.PAYOUT_DISCREPANCY,
                    f"bet {exp.bet_id} ({exp.spot}, stake {exp.stake}) {what} by {abs(disc)} EUR: "
                    f"expected {exp.outcome}, {exp.returned} returned, {exp.commission} commission; "
                    f"recorded {got}",
                    exp.citation,
                    (rec.event_id,) if rec else (),
                    exp.bet_id, exp.player_id, disc))
        for rec in recorded.values():
            if rec.net != 0:
                violations.append(Violation(
                    ViolationKind.UNKNOWN_BET_SETTLED,
                    f"settlement of {rec.returned} EUR recorded for bet {rec.bet_id}, "
                    "which is not on the layout in this round",
                    ENGINE_CITATION, (rec.event_id,), rec.bet_id, None, rec.net))
        theo = self._theoretical_win()
        figures = tuple([bet_figures(c, theo) for c in checks])
        for f in figures:
            self.ctx.ledger.bet_win += f.win
        return RoundVerdict(
            casino_id=self.ctx.casino_id, table_id=self.table_id, game=self.ctx.game,
            ruleset_id=self.ctx.ruleset.id, ruleset_hash=self.ctx.ruleset.content_hash,
            round_id=g.round_id, dealer_id=self.ctx.dealer_id,
            started_at=rnd.started_at, ended_at=event.occurred_at, outcome=outcome,
            checks=tuple(checks), violations=tuple(violations), event_ids=tuple(rnd.events),
            figures=figures, decisions=g.actions_taken(),
        )

    # ------------------------------------------------------------------ fold

    def apply(self, event: EventBase) -> list[Output]:
        """Apply one event; returns the verdicts and table-level violations it completes.

        All or nothing: on any exception (a :class:`RuleError` for an event the rules reject,
        anything else for an engine defect) the state is rolled back to what it was before
        ``event`` and the exception is re-raised. Raises :class:`RoundTooLong`, changing
        nothing, when the open round already holds :data:`MAX_ROUND_EVENTS` events.
        """
        if self._base is None:  # a quiet point: the state to rebuild from on failure
            self._base = self._quiet_state()
        elif len(self._pending) >= MAX_ROUND_EVENTS:
            assert self.open is not None
            raise RoundTooLong(
                f"round {self.open.game_round.round_id} of table {self.table_id} already holds "
                f"{len(self._pending)} events, the most a table state keeps ({MAX_ROUND_EVENTS}): "
                f"{event.type} (seq {event.seq}) not applied")
        try:
            out = self._apply(event)
        except BaseException:
            self._rebuild(self._base, self._pending)
            raise
        if self.open is None:
            self._base = None
            self._pending = []
        else:
            self._pending.append(event)
        return out

    def _quiet_state(self) -> dict[str, Any]:
        return {"ctx": None if self.ctx is None else self.ctx.to_dict(),
                "unopened_events": self.unopened_events}

    def _rebuild(self, base: dict[str, Any], pending: list[EventBase]) -> None:
        """Reset to ``base`` (a :meth:`_quiet_state`) and re-apply ``pending`` (their outputs
        were already emitted once and are discarded)."""
        self.ctx = None if base["ctx"] is None else TableContext.from_dict(base["ctx"], self.versions)
        self.unopened_events = int(base["unopened_events"])
        self.open = None
        self._base = None
        self._pending = []
        for ev in pending:
            self.apply(ev)

    def snapshot(self) -> dict[str, Any]:
        """The engine's state as a JSON-ready dict: ``{"base": quiet state, "pending": [event
        dicts of the open round, in order]}``. Events are given as pydantic ``model_dump(mode=
        "json")`` dicts. Inverse: :meth:`from_snapshot`."""
        base = self._base if self._base is not None else self._quiet_state()
        return {"base": base, "pending": [ev.model_dump(mode="json") for ev in self._pending]}

    @classmethod
    def from_snapshot(cls, table_id: str, snap: dict[str, Any], parse: Callable[[Any], EventBase],
                      versions: Mapping[str, str] | None = None) -> "TableEngine":
        """Rebuild an engine from :meth:`snapshot` (``versions`` as in the constructor).
        ``parse(dict) -> event`` validates each pending event (the schema layer's adapter).
        Raises :class:`RuleError` for an unknown ruleset and whatever ``parse`` raises for a
        malformed event."""
        eng = cls(table_id, versions)
        eng._rebuild(snap["base"], [parse(d) for d in snap["pending"]])
        return eng

    def _apply(self, event: EventBase) -> list[Output]:
        """Route ``event`` by its class: a table opened, a chip or cash movement, a table-level event
        (no ``round_id``) or an event of a round; each event class has its own typed operation."""
        if type(event) is TableOpened:
            return self._table_opened(event)
        if type(event) in MOVEMENT_TYPES:  # chips and cash: table-level whether or not a round is open
            return self._chip_movement(event)
        if event.round_id is None:
            return self._table_event(event)
        if type(event) is RoundStarted:
            return self._round_started(event)
        return self._round_event(event)

    # ------------------------------------------------------------------ table-level operations

    def _table_opened(self, event: TableOpened) -> list[Output]:
        out: list[Output] = []
        ruleset = load_ruleset(event.ruleset_id, self.versions.get(event.ruleset_id))
        if ruleset.game != event.game:
            raise RuleError(f"ruleset {ruleset.id} is for {ruleset.game}, table plays {event.game}")
        if self.open is not None:
            self.open.violations.append(Violation(
                ViolationKind.PROCEDURE, "table re-opened with a round in progress",
                ENGINE_CITATION, (str(event.event_id),)))
            out.append(self._close_round(event))
        same = self.ctx is not None and self.ctx.ruleset.id == ruleset.id
        carry = self.ctx.carry if self.ctx is not None and same else carry_type(event.game)()
        book = self.ctx.book if self.ctx is not None and same else Book()
        self.unopened_events = 0
        self.ctx = TableContext(
            casino_id=event.casino_id, table_id=self.table_id, game=event.game,
            ruleset=ruleset, min_bet=event.min_bet, max_bet=event.max_bet,
            options=dict(event.options), carry=carry, book=book,
        )
        out.extend(GAMES[self.ctx.game].on_table_event(self.ctx, event) if self.ctx.game in GAMES else [])
        self._movement(event)
        return out

    def _chip_movement(self, event: EventBase) -> list[Output]:
        if self.ctx is None:
            return self._unopened(event)
        self._movement(event)
        if self.open is not None:
            self.open.violations.extend(self.open.game_round.on_movement(event))
        return []

    def _table_event(self, event: EventBase) -> list[Output]:
        """An event with no ``round_id``: the engine's own operation for its class (dealer, limits, close),
        and the game's :meth:`~pitwatch.rules.game.GameRound.on_table_event` for every one."""
        ctx = self.ctx
        if ctx is None:
            return self._unopened(event)
        if type(event) is DealerAssigned:
            ctx.dealer_id = event.dealer_id
        elif type(event) is LimitsChanged:
            return self._limits_changed(ctx, event)
        elif type(event) is TableClosed:
            return self._table_closed(ctx, event)
        return list(GAMES[ctx.game].on_table_event(ctx, event))

    def _limits_changed(self, ctx: TableContext, event: LimitsChanged) -> list[Output]:
        out: list[Output] = list(GAMES[ctx.game].on_table_event(ctx, event))
        ctx.min_bet, ctx.max_bet = event.min_bet, event.max_bet
        return out

    def _table_closed(self, ctx: TableContext, event: TableClosed) -> list[Output]:
        out: list[Output] = []
        if self.open is not None:
            self.open.violations.append(Violation(
                ViolationKind.PROCEDURE,
                f"table closed with round {self.open.game_round.round_id} in progress",
                ENGINE_CITATION, (str(event.event_id),)))
            out.append(self._close_round(event))
        out.extend(GAMES[ctx.game].on_table_event(ctx, event))
        self._movement(event)
        out.extend(self._reconcile(event))
        return out

    # ------------------------------------------------------------------ round operations

    def _round_started(self, event: RoundStarted) -> list[Output]:
        out = self._start_round(event, event.round_id, event.last_of_session)
        if self.open is not None:
            self.open.events.append(str(event.event_id))
        return out

    def _round_event(self, event: EventBase) -> list[Output]:
        """An event of a round other than ``round_started``: the engine's operation for its class
        (:data:`_ROUND_OPERATIONS`), a bet placed by a game event of the round's
        :attr:`~pitwatch.rules.game.GameRound.bet_events`, or else the game's own event
        (:meth:`~pitwatch.rules.game.GameRound.on_event`)."""
        out: list[Output] = []
        eid = str(event.event_id)
        round_id = event.round_id
        assert round_id is not None  # routed here by :meth:`_apply` only with one
        if self.open is None or self.open.game_round.round_id != round_id:
            out.extend(self._start_round(event, round_id, False))
            if self.open is None:
                return out
            self.open.violations.append(Violation(
                ViolationKind.PROCEDURE,
                f"{event.type} for round {event.round_id}, which has no round_started event",
                ENGINE_CITATION, (eid,)))
        rnd = self.open
        rnd.events.append(eid)
        operation = _ROUND_OPERATIONS.get(type(event))
        if operation is not None:
            operation(self, rnd, event, eid, out)
            return out
        g = rnd.game_round
        if event.type in g.bet_events:
            self._place(rnd, g.bet_of(event, eid), eid)
            return out
        rnd.violations.extend(g.on_event(event))
        if g.bets_closed and g.reopens_betting(event):  # a new roll, spin or coup: a new window
            g.bets_closed = False
            g.closed_event_id = None
            g.window += 1
        return out

    def _bet_placed(self, rnd: _OpenRound, event: BetPlaced, eid: str, out: list[Output]) -> None:
        self._place(rnd, Bet(event.bet_id, event.player_id, event.spot, event.stake, event.box, eid,
                             event.round_id), eid)

    def _place(self, rnd: _OpenRound, bet: Bet, eid: str) -> None:
        """Judge a bet placed in the open round: twice placed, past-posting, the game's own checks
        (:meth:`~pitwatch.rules.game.GameRound.on_bet`); a bet one of :data:`REFUSING_KINDS` refuses
        is kept apart as no wager."""
        g = rnd.game_round
        if bet.bet_id in g.bets or bet.bet_id in rnd.refused:
            rnd.violations.append(Violation(
                ViolationKind.PROCEDURE, f"bet id {bet.bet_id} placed twice", ENGINE_CITATION, (eid,),
                bet.bet_id, bet.player_id))
            return
        found: list[Violation] = []
        if g.bets_closed:
            found.append(Violation(
                ViolationKind.PAST_POSTING,
                f"bet {bet.bet_id} of {bet.stake} EUR on {bet.spot} placed after «No va más»: "
                "not a wager, the chips are handed back",
                self._cite(spec(g.ctx.game).no_more_bets),
                (eid, g.closed_event_id or ""), bet.bet_id, bet.player_id, bet.stake))
        g.bets[bet.bet_id] = bet
        found.extend(g.on_bet(bet))
        refusal = next((v for v in found if v.kind in REFUSING_KINDS), None) if found else None
        if refusal is not None:  # not a wager: flagged once, by the rule that refuses it
            del g.bets[bet.bet_id]
            rnd.refused[bet.bet_id] = (bet, refusal)
            rnd.violations.append(refusal)
        else:
            rnd.violations.extend(found)

    def _bet_withdrawn(self, rnd: _OpenRound, event: BetWithdrawn, eid: str, out: list[Output]) -> None:
        if event.bet_id in rnd.refused:  # a refused bet's chips taken back: as it should be
            del rnd.refused[event.bet_id]
            return
        g = rnd.game_round
        gone = g.bets.pop(event.bet_id) if event.bet_id in g.bets else None
        if gone is None:
            rnd.violations.append(Violation(
                ViolationKind.PROCEDURE, f"withdrawal of unknown bet {event.bet_id}",
                ENGINE_CITATION, (eid,), event.bet_id))
        elif g.bets_closed:
            rnd.violations.append(Violation(
                ViolationKind.PAST_POSTING,
                f"bet {gone.bet_id} of {gone.stake} EUR on {gone.spot} withdrawn after «No va más»",
                self._cite(spec(g.ctx.game).no_more_bets),
                (eid, g.closed_event_id or ""), gone.bet_id, gone.player_id, gone.stake))

    def _bets_closed(self, rnd: _OpenRound, event: BetsClosed, eid: str, out: list[Output]) -> None:
        g = rnd.game_round
        g.bets_closed = True
        g.closed_event_id = eid

    def _settlement_recorded(self, rnd: _OpenRound, event: SettlementRecorded, eid: str, out: list[Output]) -> None:
        g = rnd.game_round
        if event.bet_id in g.recorded:
            rnd.violations.append(Violation(
                ViolationKind.PROCEDURE, f"bet {event.bet_id} settled twice", ENGINE_CITATION,
                (eid,), event.bet_id))
        g.recorded[event.bet_id] = RecordedSettlement(
            event.bet_id, event.outcome, event.returned, event.commission, eid)

    def _round_voided(self, rnd: _OpenRound, event: RoundVoided, eid: str, out: list[Output]) -> None:
        rnd.voided = event.reason
        rnd.void_event = eid

    def _round_ended(self, rnd: _OpenRound, event: RoundEnded, eid: str, out: list[Output]) -> None:
        out.append(self._close_round(event))

    def _commission_collected(self, rnd: _OpenRound, event: CommissionCollected, eid: str, out: list[Output]) -> None:
        """Commission is judged on each bet's settlement (``settlement_recorded``): nothing to do."""


_E = TypeVar("_E", bound=EventBase)
_RoundOperation = Callable[[TableEngine, _OpenRound, EventBase, str, list[Output]], None]


def _operation(fn: Callable[[TableEngine, _OpenRound, _E, str, list[Output]], None]) -> _RoundOperation:
    """``fn``, the operation of one event class, as an entry of :data:`_ROUND_OPERATIONS` (which calls
    it only with events of that class)."""
    return cast(_RoundOperation, fn)


_ROUND_OPERATIONS: dict[type[EventBase], _RoundOperation] = {
    BetPlaced: _operation(TableEngine._bet_placed),
    BetWithdrawn: _operation(TableEngine._bet_withdrawn),
    BetsClosed: _operation(TableEngine._bets_closed),
    SettlementRecorded: _operation(TableEngine._settlement_recorded),
    RoundVoided: _operation(TableEngine._round_voided),
    RoundEnded: _operation(TableEngine._round_ended),
    CommissionCollected: _operation(TableEngine._commission_collected),
}
"""The engine's operation for each event class of a round it judges itself (every other event of a round
is the game's): ``operation(engine, open round, event, event id, output)``."""

MOVEMENT_TYPES: frozenset[type[EventBase]] = frozenset({ChipsBought, ChipsCashed, TableFill, TableCredit, TipReceived})
"""Table-level chip and cash event classes (``table_opened``/``table_closed`` carry movements too)."""


def replay(events: Iterable[EventBase], versions: Mapping[str, str] | None = None) -> Iterator[Output]:
    """Fold a stream of events of any number of tables (each table's events in ``seq`` order);
    yields verdicts and violations as rounds end. ``versions`` pins rulesets (see
    :class:`TableEngine`)."""
    engines: dict[str, TableEngine] = {}
    for ev in events:
        eng = engines.get(ev.table_id)
        if eng is None:
            eng = engines[ev.table_id] = TableEngine(ev.table_id, versions)
        yield from eng.apply(ev)


def total_at_risk(checks: Iterable[BetCheck]) -> Decimal:
    """Sum of the stakes of ``checks`` (euros)."""
    return sum((c.expected.stake for c in checks), ZERO)

