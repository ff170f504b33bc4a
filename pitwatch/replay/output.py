"""``pitwatch replay --format json``: JSON Lines, one record per line, one model per kind.

Every record has a ``kind`` and always the same fields for its kind (``null`` where a field
does not apply):

- ``event``: with ``--events``, an event as read (envelope fields and its payload), before
  the records of what it completes;
- ``round``: one round verdict, followed by its ``settlement`` records (one per bet:
  expected vs recorded) and its ``violation`` records;
- ``violation``: an alert (in a round, or stand-alone: sequence gap, duplicate event,
  table-level procedure);
- ``invalid_line``: an input line that is not a valid event (or that the sequence check
  refused), with the reason;
- ``summary``: the last line, the counts and the exit status.

Money is a JSON string of euros with exactly two decimals (``"360.00"``; signed for
``discrepancy`` and a violation's ``amount``: positive = over-payment); times are UTC ISO-8601
with milliseconds and a ``Z``. ``pitwatch schema export`` writes the JSON Schema of each
model as ``replay-<kind>.schema.json`` (:data:`REPLAY_SCHEMAS`).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal, Union, cast, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from pitwatch.detectors.alerts import Alert
from pitwatch.replay import ReplayItem, ReplayStats
from pitwatch.replay.formatting import money_json, time_json
from pitwatch.rules.base import BetCheck, RoundVerdict
from pitwatch.schemas.events import payload_of

Euros = Annotated[str, Field(pattern=r"^-?[0-9]+\.[0-9]{2}$", examples=["360.00"],
                             description="euros, exactly two decimals")]
UtcTime = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$",
                               examples=["2026-11-21T21:04:05.120Z"], description="UTC, milliseconds")]
Count = Annotated[int, Field(ge=0)]
Line = Annotated[int, Field(ge=1, description="1-based input line; null when not replaying a file")]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EventRecord(_Record):
    """An event as read (``--events``): its envelope fields and ``payload`` (the fields of its
    ``type``, money as strings of euros, times UTC). ``line``: its input line."""

    kind: Literal["event"]
    event_id: str
    table_id: str
    round_id: str | None
    seq: Count
    type: str
    occurred_at: UtcTime
    actor_role: str
    actor_id: str
    payload: dict[str, Any]
    line: Line | None


class RoundRecord(_Record):
    """A round verdict. ``line``: the input line of the event that ended the round;
    ``bets``/``violations``: how many settlement / violation records follow;
    ``ruleset_hash``: the content hash (SHA-256) of the ruleset version that judged it."""

    kind: Literal["round"]
    table_id: str
    round_id: str
    game: str
    ruleset_id: str
    ruleset_hash: str
    dealer_id: str | None
    outcome: str
    started_at: UtcTime
    ended_at: UtcTime
    bets: Count
    violations: Count
    line: Line | None


class SettlementRecord(_Record):
    """One bet of a round: expected (by the rules) vs recorded (by the dealer) settlement.
    ``returned`` is gross (stake back plus winnings), ``commission`` what the house keeps;
    ``discrepancy`` = recorded net - expected net (positive: over-payment). ``recorded_*`` are
    null when no settlement was recorded."""

    kind: Literal["settlement"]
    table_id: str
    round_id: str
    bet_id: str
    player_id: str
    spot: str
    stake: Euros
    expected_outcome: str
    expected_returned: Euros
    expected_commission: Euros
    recorded: bool
    recorded_outcome: str | None
    recorded_returned: Euros | None
    recorded_commission: Euros | None
    discrepancy: Euros
    citation: str
    detail: str


class ViolationRecord(_Record):
    """An alert. ``violation_kind`` is the alert kind (``payout_discrepancy``,
    ``sequence_gap``...); ``amount`` the euros at stake (signed for payout discrepancies);
    ``evidence`` the event ids behind it (a collusion detector's: its rounds); ``parties`` every
    party a collusion detector's alert names (``role:id``) and ``score`` its -log10 p-value (empty
    and 0 for a round's alert); ``line`` the input line that revealed it."""

    kind: Literal["violation"]
    alert_id: str
    violation_kind: str
    severity: str
    table_id: str
    round_id: str | None
    bet_id: str | None
    player_id: str | None
    dealer_id: str | None
    amount: Euros | None
    message: str
    citation: str
    evidence: list[str]
    parties: list[str]
    score: float
    detected_at: UtcTime
    line: Line | None


class InvalidLineRecord(_Record):
    """An input line that could not be replayed, and why."""

    kind: Literal["invalid_line"]
    line: Line | None
    reason: str


class SummaryRecord(_Record):
    """The last record: the counts of :class:`pitwatch.replay.ReplayStats` and the exit
    status (0 clean, 1 violations, 2 invalid input)."""

    kind: Literal["summary"]
    lines: Count
    events: Count
    rounds: Count
    rounds_with_violations: Count
    violations: Count
    invalid_lines: Count
    exit_status: Literal[0, 1, 2]


RECORD_MODELS: tuple[type[_Record], ...] = (
    EventRecord, RoundRecord, SettlementRecord, ViolationRecord, InvalidLineRecord, SummaryRecord)
MODEL_BY_KIND: dict[str, type[_Record]] = {get_args(m.model_fields["kind"].annotation)[0]: m for m in RECORD_MODELS}
"""Record kind -> its model (``"round"`` -> :class:`RoundRecord`...)."""
REPLAY_SCHEMAS: dict[str, type[BaseModel]] = {f"replay-{k}": m for k, m in MODEL_BY_KIND.items()}
"""Schema file stem -> model, for ``pitwatch schema export`` (``replay-round.schema.json``...)."""

ReplayRecord = Annotated[
    Union[EventRecord, RoundRecord, SettlementRecord, ViolationRecord, InvalidLineRecord, SummaryRecord],
    Field(discriminator="kind")]
RECORD_ADAPTER: TypeAdapter[ReplayRecord] = TypeAdapter(ReplayRecord)
"""Validates one JSON line of any kind: ``RECORD_ADAPTER.validate_json(line)``."""


def _or_none(s: str | None) -> str | None:
    return s or None


def event_record(event: Any, line: int | None) -> EventRecord:
    """The ``event`` record of a parsed event."""
    return EventRecord(
        kind="event", event_id=str(event.event_id), table_id=event.table_id, round_id=event.round_id,
        seq=event.seq, type=event.type, occurred_at=time_json(event.occurred_at),
        actor_role=event.actor.role.value, actor_id=event.actor.id, payload=payload_of(event), line=line)


def round_record(v: RoundVerdict, alerts: list[Alert], line: int | None) -> RoundRecord:
    """The ``round`` record of a verdict and its alerts."""
    return RoundRecord(
        kind="round", table_id=v.table_id, round_id=v.round_id, game=v.game, ruleset_id=v.ruleset_id,
        ruleset_hash=v.ruleset_hash,
        dealer_id=_or_none(v.dealer_id), outcome=v.outcome, started_at=time_json(v.started_at),
        ended_at=time_json(v.ended_at), bets=len(v.checks), violations=len(alerts), line=line)


def _euros(amount: Decimal) -> str:
    text = money_json(amount)
    assert text is not None
    return text


def settlement_record(v: RoundVerdict, c: BetCheck) -> SettlementRecord:
    """The ``settlement`` record of one bet check of a verdict."""
    e, r = c.expected, c.recorded
    return SettlementRecord(
        kind="settlement", table_id=v.table_id, round_id=v.round_id, bet_id=e.bet_id,
        player_id=e.player_id, spot=e.spot, stake=_euros(e.stake), expected_outcome=e.outcome,
        expected_returned=_euros(e.returned), expected_commission=_euros(e.commission),
        recorded=r is not None, recorded_outcome=r.outcome if r else None,
        recorded_returned=money_json(r.returned) if r else None,
        recorded_commission=money_json(r.commission) if r else None,
        discrepancy=_euros(c.discrepancy), citation=e.citation, detail=e.detail)


def violation_record(a: Alert, line: int | None) -> ViolationRecord:
    """The ``violation`` record of an alert (empty ids become null)."""
    return ViolationRecord(
        kind="violation", alert_id=a.alert_id, violation_kind=a.kind, severity=a.severity,
        table_id=a.table_id, round_id=_or_none(a.round_id), bet_id=_or_none(a.bet_id),
        player_id=_or_none(a.player_id), dealer_id=_or_none(a.dealer_id), amount=money_json(a.amount),
        message=a.message, citation=a.citation, evidence=list(a.evidence), parties=list(a.parties),
        score=a.score, detected_at=time_json(a.detected_at), line=line)


def item_records(item: ReplayItem) -> list[_Record]:
    """The records of one replay item, in output order: an ``invalid_line``; an ``event``; or a ``round``
    then its ``settlement`` and ``violation`` records; or stand-alone ``violation`` records."""
    if item.error is not None:
        return [InvalidLineRecord(kind="invalid_line", line=item.line, reason=item.error)]
    if item.event is not None:
        return [event_record(item.event, item.line)]
    out: list[_Record] = []
    v = item.verdict
    if v is not None:
        out.append(round_record(v, item.alerts, item.line))
        out.extend(settlement_record(v, c) for c in v.checks)
    out.extend(violation_record(a, item.line) for a in item.alerts)
    return out


def summary_record(stats: ReplayStats) -> SummaryRecord:
    """The final ``summary`` record of a replay."""
    return SummaryRecord(
        kind="summary", lines=stats.lines, events=stats.events, rounds=stats.rounds,
        rounds_with_violations=stats.rounds_with_violations, violations=stats.violations,
        invalid_lines=stats.invalid_lines, exit_status=cast(Literal[0, 1, 2], stats.exit_status))


def json_lines(item: ReplayItem) -> list[str]:
    """The JSON lines (no newline) of one replay item."""
    return [r.model_dump_json() for r in item_records(item)]
