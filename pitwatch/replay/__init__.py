"""Auditors' replay: fold recorded events through the rules engine and render verdicts.

``replay_lines`` works on a JSONL file with no Kafka and no ClickHouse; ``replay_round``
reads one table's events from the warehouse. Both render every bet's expected vs
recorded settlement and every violation with its citation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Iterable, Iterator

from pitwatch.detectors.alerts import Alert
from pitwatch.detectors.auditor import TableAuditor
from pitwatch.rules.base import RoundVerdict, RuleError
from pitwatch.schemas.events import InvalidEvent, parse_event


@dataclass
class ReplayItem:
    """One thing a replay reports: a round verdict with its alerts, a stand-alone alert
    (gap, duplicate, table-level), or a bad input line."""

    verdict: RoundVerdict | None = None
    alerts: list[Alert] = field(default_factory=list)
    line: int | None = None
    error: str | None = None


def replay_lines(lines: Iterable[bytes | str], start_line: int = 1) -> Iterator[ReplayItem]:
    """Replay JSONL event lines (any number of tables, each in ``seq`` order).

    Yields a :class:`ReplayItem` per finished round, per alert outside a round verdict, and
    per invalid line (``error`` says why, ``line`` is 1-based). Blank lines are skipped.
    """
    auditors: dict[str, TableAuditor] = {}
    for n, raw in enumerate(lines, start_line):
        if isinstance(raw, str):
            raw = raw.encode()
        if not raw.strip():
            continue
        try:
            event = parse_event(raw)
        except InvalidEvent as exc:
            yield ReplayItem(line=n, error=exc.reason)
            continue
        aud = auditors.get(event.table_id)
        if aud is None:
            aud = auditors[event.table_id] = TableAuditor(event.table_id)
        try:
            out = aud.feed(event)
        except RuleError as exc:
            yield ReplayItem(line=n, error=str(exc))
            continue
        if out.rejected:
            yield ReplayItem(line=n, error=out.rejected)
        if not out.alerts and not out.verdicts:
            continue
        round_alert_ids = set()
        for v in out.verdicts:
            own = [a for a in out.alerts if a.round_id == v.round_id and a.kind not in ("sequence_gap", "duplicate_event")]
            round_alert_ids.update(a.alert_id for a in own)
            yield ReplayItem(verdict=v, alerts=own, line=n)
        rest = [a for a in out.alerts if a.alert_id not in round_alert_ids]
        if rest:
            yield ReplayItem(alerts=rest, line=n)


def _money(d: Decimal | None) -> str:
    return "" if d is None else f"{d:.2f}"


def verdict_to_dict(v: RoundVerdict, alerts: list[Alert]) -> dict[str, Any]:
    """JSON-ready form of a verdict (money as strings, times ISO UTC)."""
    return {
        "table_id": v.table_id, "round_id": v.round_id, "game": v.game, "ruleset_id": v.ruleset_id,
        "dealer_id": v.dealer_id, "outcome": v.outcome,
        "started_at": v.started_at.isoformat().replace("+00:00", "Z"),
        "ended_at": v.ended_at.isoformat().replace("+00:00", "Z"),
        "bets": [
            {
                "bet_id": c.expected.bet_id, "player_id": c.expected.player_id, "spot": c.expected.spot,
                "stake": _money(c.expected.stake),
                "expected": {"outcome": c.expected.outcome, "returned": _money(c.expected.returned),
                             "commission": _money(c.expected.commission)},
                "recorded": None if c.recorded is None else {
                    "outcome": c.recorded.outcome, "returned": _money(c.recorded.returned),
                    "commission": _money(c.recorded.commission)},
                "discrepancy": _money(c.discrepancy), "citation": c.expected.citation,
                "detail": c.expected.detail,
            }
            for c in v.checks
        ],
        "violations": [
            {"kind": a.kind, "severity": a.severity, "message": a.message, "citation": a.citation,
             "amount": _money(a.amount), "bet_id": a.bet_id, "alert_id": a.alert_id}
            for a in alerts
        ],
    }


def item_to_json(item: ReplayItem) -> str:
    """One JSON line for ``--format json``."""
    if item.error is not None:
        return json.dumps({"line": item.line, "error": item.error})
    if item.verdict is not None:
        return json.dumps(verdict_to_dict(item.verdict, item.alerts))
    return json.dumps({"line": item.line, "alerts": [a.to_json_dict() for a in item.alerts]}, default=str)


def render_item(console, item: ReplayItem) -> None:
    """Render a replay item on a rich console (``--format text``)."""
    from rich.table import Table

    if item.error is not None:
        console.print(f"[red]line {item.line}: {item.error}[/red]")
        return
    if item.verdict is None:
        for a in item.alerts:
            console.print(f"[yellow]{a.kind}[/yellow] {a.table_id} {a.round_id}: {a.message}  [dim]{a.citation}[/dim]")
        return
    v = item.verdict
    status = "[green]OK[/green]" if not item.alerts else f"[red]{len(item.alerts)} violation(s)[/red]"
    console.rule(f"{v.table_id} {v.round_id} · {v.ruleset_id} · {v.outcome} · dealer {v.dealer_id or '-'} · {status}")
    t = Table(show_edge=False, pad_edge=False)
    for col in ("bet", "player", "spot", "stake", "expected", "recorded", "diff", "rule"):
        t.add_column(col, justify="right" if col in ("stake", "diff") else "left")
    for c in v.checks:
        e, r = c.expected, c.recorded
        exp = f"{e.outcome} {e.returned:.2f}" + (f" -{e.commission:.2f}" if e.commission else "")
        rec = "-" if r is None else f"{r.outcome} {r.returned:.2f}" + (f" -{r.commission:.2f}" if r.commission else "")
        diff = "" if c.discrepancy == 0 else f"[red]{c.discrepancy:+.2f}[/red]"
        t.add_row(e.bet_id, e.player_id, e.spot, f"{e.stake:.2f}", exp, rec, diff, e.citation)
    console.print(t)
    for a in item.alerts:
        amt = f" ({a.amount:+.2f} EUR)" if a.amount is not None else ""
        console.print(f"  [red]✗ {a.kind}[/red]{amt}: {a.message}\n    [dim]{a.citation}[/dim]")
