"""``pitwatch alert show|ack|assign|comment|escalate|close|reopen ID`` and ``pitwatch alerts
--state``: surveillance staff act on alerts; every action is recorded, never edited
(:mod:`pitwatch.lifecycle.store`)."""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterator, NoReturn, Optional

import typer

from pitwatch.cli_support import check_format, console, err, fail, settings
from pitwatch.lifecycle.publish import DEFAULT_TIMEOUT

alert_app = typer.Typer(help="Act on alerts (surveillance staff): every action is recorded, never edited: put "
                        "on the topic pitwatch.alert-actions, then stored in the warehouse. Without a broker that "
                        "answers within --broker-timeout (2 s) an action fails at once, nothing recorded: it is "
                        "not queued.", no_args_is_help=True)


@dataclass(frozen=True)
class Filters:
    """Which stored alerts a listing or a bulk close takes: any of ``kinds``, ``tables``,
    ``severities`` (empty: all), detected at or after ``since`` and before ``before`` (UTC)."""

    kinds: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    severities: tuple[str, ...] = ()
    since: datetime | None = None
    before: datetime | None = None

    @classmethod
    def of(cls, kinds: list[str] | None, tables: list[str] | None, severities: list[str] | None,
           since: datetime | None, before: datetime | None) -> Filters:
        """From the CLI's options; a naive time is UTC."""
        def utc(at: datetime | None) -> datetime | None:
            return at if at is None or at.tzinfo else at.replace(tzinfo=timezone.utc)
        return cls(tuple(kinds or ()), tuple(tables or ()), tuple(severities or ()), utc(since), utc(before))

    def __bool__(self) -> bool:
        return bool(self.kinds or self.tables or self.severities or self.since or self.before)

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :func:`pitwatch.lifecycle.store.current`."""
        return {"kinds": self.kinds, "tables": self.tables, "severities": self.severities, "since": self.since,
                "before": self.before}


ALERT_COLUMNS = ("alert id", "state", "severity", "detected (UTC)", "table", "round", "kind", "assignee",
                 "disposition")
"""The columns of the text listing of stored alerts (``pitwatch alerts --state``, a bulk close's dry run)."""


def print_alert_rows(rows: list[dict[str, Any]]) -> None:
    """The rows of :func:`pitwatch.lifecycle.store.current` as a table with a header (stacked
    when the terminal is too narrow; ids never cut)."""
    from pitwatch.cli_tables import print_records

    print_records(console, ALERT_COLUMNS, [
        (r["alert_id"], r["state"], r["severity"], f"{r['detected_at']:%Y-%m-%d %H:%M:%S}.{int(r['detected_ms']):03d}",
         r["table_id"], r["round_id"] or "", r["kind"], r["assignee"] or "", r["disposition"] or "") for r in rows])


def list_alerts(state: str, warehouse: str | None, limit: int, fmt: str, filters: Filters = Filters()) -> None:
    """``pitwatch alerts --state STATE``: the stored alerts in ``state`` (or ``active``, ``all``)
    matching ``filters``, newest first, at most ``limit``: a table with a header (text) or JSON
    lines; the count on stderr. Exit 2 for an unknown state or an unreadable warehouse."""
    from pitwatch.lifecycle.state import STATES
    from pitwatch.lifecycle.store import current
    from pitwatch.warehouse import WarehouseError, open_warehouse

    if state not in (*STATES, "active", "all"):
        fail(f"--state must be one of {', '.join((*STATES, 'active', 'all'))}, not {state!r}")
    cfg = settings(warehouse_url=warehouse)
    try:
        with open_warehouse(cfg.warehouse_url) as wh:
            rows = current(wh, None if state == "all" else state, limit=limit, **filters.kwargs())
    except (WarehouseError, ValueError) as exc:
        fail(f"cannot read alerts from {cfg.warehouse_url}: {exc}")
    if fmt == "json":
        for row in rows:
            print(json.dumps(row, default=str), flush=True)
        return
    print_alert_rows(rows)
    err.print(f"{len(rows)} alert(s) {'' if state == 'all' else state}".rstrip(), highlight=False)


def _act(alert_id: str, action: str, by: str, warehouse: str | None, bootstrap: str | None,
         broker_timeout: float, **details) -> None:
    """Record one action on an alert and print where the alert stands; a clear error (exit 2)
    for an unknown alert, an action its state does not allow, or a broker that cannot be
    reached within ``broker_timeout`` seconds: nothing recorded."""
    from pitwatch.lifecycle.actions import new_action
    from pitwatch.lifecycle.cases import is_case
    from pitwatch.lifecycle.store import record_action

    cfg = settings(warehouse_url=warehouse, bootstrap=bootstrap)
    with _recording(action, cfg, broker_timeout) as (wh, publish):
        act = new_action(alert_id, action, by, datetime.now(timezone.utc), **details)
        done = record_action(wh, act, publish)
    subject = "case" if is_case(alert_id) else "alert"
    console.print(f"{subject} {alert_id}: {action} recorded; now {done.status.state}", soft_wrap=True, highlight=False)
    if done.also_closed:
        console.print(f"closed its {len(done.also_closed)} alert{'s' if len(done.also_closed) > 1 else ''}: "
                      f"{', '.join(done.also_closed)}", soft_wrap=True, highlight=False)
    if done.already_closed:
        console.print(f"left {len(done.already_closed)} already closed as they were: {', '.join(done.already_closed)}",
                      soft_wrap=True, highlight=False)


@contextmanager
def _recording(what: str, cfg: Any, broker_timeout: float | None) -> Iterator[tuple[Any, Any]]:
    """``(warehouse, publisher)`` for recording actions: the publisher connected first (a broker
    down fails before the slower warehouse is opened; ``None`` without ``broker_timeout``, for a
    dry run), then the open warehouse of ``cfg``. Every error recording ``what`` exits 2 with
    one line ``error: WHAT not recorded: why``."""
    from pitwatch.lifecycle.actions import ActionError
    from pitwatch.lifecycle.publish import ActionPublisher, BrokerUnreachable
    from pitwatch.streams.producer import ProduceError
    from pitwatch.warehouse import WarehouseError, open_warehouse

    try:
        publisher = None
        if broker_timeout is not None:
            publisher = ActionPublisher(cfg.bootstrap, timeout=broker_timeout, **cfg.producer_config())
            publisher.connect()
        with open_warehouse(cfg.warehouse_url) as wh:
            yield wh, publisher
    except ActionError as exc:
        fail_line(f"{what} not recorded: {exc}")
    except BrokerUnreachable as exc:
        fail_line(f"{what} not recorded: {exc}")
    except ProduceError as exc:
        fail_line(f"{what} not recorded: the broker at {cfg.bootstrap} did not take it: {exc}")
    except (WarehouseError, ValueError) as exc:
        fail_line(f"{what} not recorded: warehouse {cfg.warehouse_url}: {exc}")


def fail_line(msg: str, code: int = 2) -> NoReturn:
    """``error: msg`` on stderr on one line (never wrapped at the terminal's width), exit ``code``."""
    from rich.markup import escape

    err.print(f"[red]error:[/red] {escape(msg)}", soft_wrap=True, highlight=False)
    raise typer.Exit(code)


_BY = typer.Option(..., "--by", envvar="USER", help="Who acts (recorded with the action).")
_WH = typer.Option(None, "--warehouse", envvar="PITWATCH_WAREHOUSE", help="chdb:///path or clickhouse://host:9000/db.")
_BOOT = typer.Option(None, "--bootstrap", envvar="PITWATCH_KAFKA_BOOTSTRAP", help="Kafka bootstrap servers.")
BROKER_TIMEOUT_OPT = typer.Option(DEFAULT_TIMEOUT, "--broker-timeout", min=0.1, help="Seconds to wait for the "
                                  "broker to answer; past them the command fails, nothing recorded (not queued).")
_TIMEOUT = BROKER_TIMEOUT_OPT
_ID = typer.Argument(..., help="The alert id (alert_id of `pitwatch alerts`) or a case id (case-...).")


@alert_app.command("show")
def alert_show(alert_id: str = _ID, warehouse: Optional[str] = _WH,
               fmt: str = typer.Option("text", "--format", help="text or json")):
    """Show an alert, where it stands and its whole history of actions (a case id: as `case show`)."""
    from pitwatch.lifecycle.actions import DETAILS, ActionError
    from pitwatch.lifecycle.cases import is_case

    if is_case(alert_id):
        case_show(alert_id, warehouse, fmt)
        return
    from pitwatch.lifecycle.store import current, history
    from pitwatch.warehouse import WarehouseError, open_warehouse

    check_format(fmt)
    cfg = settings(warehouse_url=warehouse)
    try:
        with open_warehouse(cfg.warehouse_url) as wh:
            status, actions = history(wh, alert_id)
            (row,) = current(wh, alert_id=alert_id, limit=1)
    except ActionError as exc:
        fail(str(exc))
    except (WarehouseError, ValueError) as exc:
        fail(f"cannot read {cfg.warehouse_url}: {exc}")
    if fmt == "json":
        print(json.dumps({**row, "state": status.state,
                          "history": [a.model_dump(mode="json", exclude_none=True) for a in actions]}, default=str))
        return
    console.print(f"[bold]{row['kind']}[/bold] ({row['severity']}) {row['table_id']} {row['round_id'] or '-'} "
                  f"detected {row['detected_at']} UTC: {row['message']}", soft_wrap=True, highlight=False)
    console.print(f"state [bold]{status.state}[/bold]" + (f", assigned to {status.assignee}" if status.assignee else "")
                  + (f", escalated to the {status.escalated_to}" if status.escalated_to else "")
                  + (f", closed as {status.disposition}: {status.reason}" if status.state == "closed" else ""),
                  soft_wrap=True, highlight=False)
    for a in actions:
        detail = "; ".join(f"{k}: {v}" for k in DETAILS if (v := getattr(a, k)))
        console.print(f"  {a.acted_at.isoformat(timespec='milliseconds')} {a.actor}: {a.action}"
                      + (f" ({detail})" if detail else ""), soft_wrap=True, highlight=False)


@alert_app.command("ack")
def alert_ack(alert_id: str = _ID, by: str = _BY, warehouse: Optional[str] = _WH, bootstrap: Optional[str] = _BOOT,
            broker_timeout: float = _TIMEOUT):
    """Acknowledge an open alert (someone is looking at it)."""
    _act(alert_id, "acknowledge", by, warehouse, bootstrap, broker_timeout)


@alert_app.command("assign")
def alert_assign(alert_id: str = _ID, to: str = typer.Option(..., "--to", help="Who takes it."),
                 by: str = _BY, warehouse: Optional[str] = _WH, bootstrap: Optional[str] = _BOOT,
            broker_timeout: float = _TIMEOUT):
    """Assign an alert to a person."""
    _act(alert_id, "assign", by, warehouse, bootstrap, broker_timeout, assignee=to)


@alert_app.command("comment")
def alert_comment(alert_id: str = _ID, text: str = typer.Argument(..., help="The comment."),
                  by: str = _BY, warehouse: Optional[str] = _WH, bootstrap: Optional[str] = _BOOT,
            broker_timeout: float = _TIMEOUT):
    """Add a comment to an alert's history."""
    _act(alert_id, "comment", by, warehouse, bootstrap, broker_timeout, comment=text)


@alert_app.command("escalate")
def alert_escalate(alert_id: str = _ID, to: str = typer.Option(..., "--to", help="inspector or regulator"),
                   reason: Optional[str] = typer.Option(None, "--reason", help="Why (optional)."),
                   by: str = _BY, warehouse: Optional[str] = _WH, bootstrap: Optional[str] = _BOOT,
            broker_timeout: float = _TIMEOUT):
    """Escalate an alert to the inspector or the regulator."""
    _act(alert_id, "escalate", by, warehouse, bootstrap, broker_timeout, escalated_to=to, reason=reason)


@alert_app.command("close")
def alert_close(alert_id: str = _ID,
                disposition: str = typer.Option(..., "--disposition", help="confirmed_violation, dealer_error_corrected, "
                                                "false_positive, duplicate or referred."),
                reason: str = typer.Option(..., "--reason", help="Why (required)."),
                by: str = _BY, warehouse: Optional[str] = _WH, bootstrap: Optional[str] = _BOOT,
            broker_timeout: float = _TIMEOUT):
    """Close an alert (or a case and its alerts) with a disposition and a reason.

    Closing a case closes its alerts that are still open too (same disposition; reason "with
    case CASE_ID: REASON"); those already closed keep their own close."""
    _act(alert_id, "close", by, warehouse, bootstrap, broker_timeout, disposition=disposition, reason=reason)


@alert_app.command("reopen")
def alert_reopen(alert_id: str = _ID, reason: str = typer.Option(..., "--reason", help="Why (required)."),
                 by: str = _BY, warehouse: Optional[str] = _WH, bootstrap: Optional[str] = _BOOT,
            broker_timeout: float = _TIMEOUT):
    """Reopen a closed alert, with a reason."""
    _act(alert_id, "reopen", by, warehouse, bootstrap, broker_timeout, reason=reason)


_TIME_FORMATS = ["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S"]
KIND_OPT = typer.Option(None, "--kind", help="Only alerts of this kind (repeatable), e.g. payout_discrepancy.")
TABLE_OPT = typer.Option(None, "--table", help="Only alerts of this table id (repeatable).")
SEVERITY_OPT = typer.Option(None, "--severity", help="Only alerts of this severity (repeatable): critical, high, "
                            "medium, low.")
SINCE_OPT = typer.Option(None, "--since", formats=_TIME_FORMATS, help="Only alerts detected at or after this "
                         "time (UTC).")
BEFORE_OPT = typer.Option(None, "--before", formats=_TIME_FORMATS, help="Only alerts detected before this time "
                          "(UTC).")
SHOWN_IDS = 20
"""A bulk close names at most this many of the alerts it closed."""


@alert_app.command("bulk-close")
def alert_bulk_close(
        kind: Optional[list[str]] = KIND_OPT, table: Optional[list[str]] = TABLE_OPT,
        severity: Optional[list[str]] = SEVERITY_OPT, since: Optional[datetime] = SINCE_OPT,
        before: Optional[datetime] = BEFORE_OPT,
        disposition: str = typer.Option(..., "--disposition", help="confirmed_violation, dealer_error_corrected, "
                                        "false_positive, duplicate or referred."),
        reason: str = typer.Option(..., "--reason", help="Why (required; recorded with every close)."),
        dry_run: bool = typer.Option(False, "--dry-run", help="List the alerts it would close; record nothing."),
        by: str = _BY, warehouse: Optional[str] = _WH, bootstrap: Optional[str] = _BOOT,
        broker_timeout: float = _TIMEOUT):
    """Close every alert not closed yet that matches the filters, with one disposition and reason.

    At least one filter; says how many it closed. Each close is an action like `alert close`
    (published, then stored; a broker that cannot be reached fails them all, nothing recorded).
    --dry-run lists them instead and needs no broker."""
    from pitwatch.lifecycle.actions import ActionError, new_action
    from pitwatch.lifecycle.store import close_alerts, current

    filters = Filters.of(kind, table, severity, since, before)
    if not filters:
        fail_line("bulk close: give at least one of --kind, --table, --severity, --since, --before "
                  "(to close everything, say --before with the current time)")
    now = datetime.now(timezone.utc)
    try:
        new_action("-", "close", by, now, disposition=disposition, reason=reason)
    except ActionError as exc:
        fail_line(f"bulk close not recorded: {exc}")
    cfg = settings(warehouse_url=warehouse, bootstrap=bootstrap)
    with _recording("bulk close", cfg, None if dry_run else broker_timeout) as (wh, publisher):
        rows = current(wh, "active", limit=None, **filters.kwargs())
        if dry_run:
            print_alert_rows(rows)
            err.print(f"would close {len(rows)} alert(s); nothing recorded (dry run)", highlight=False)
            return
        closed = close_alerts(wh, [r["alert_id"] for r in rows], by, now, disposition, reason,
                              publisher.publish_many)
    shown = ", ".join(closed[:SHOWN_IDS]) + (f" and {len(closed) - SHOWN_IDS} more" if len(closed) > SHOWN_IDS else "")
    console.print(f"closed {len(closed)} alert(s): {shown or 'none matched'}", soft_wrap=True, highlight=False)


case_app = typer.Typer(help="Cases: alerts about one table, round or person handled together; act on a case "
                       "with `pitwatch alert ACTION CASE_ID`.", no_args_is_help=True)


@case_app.command("open")
def case_open(alerts: str = typer.Option(..., "--alerts", help="Comma-separated alert ids (two or more)."),
              group: str = typer.Option(..., "--group", help="What they share: table, round, player or dealer."),
              window_hours: float = typer.Option(24.0, "--window-hours", min=0, help="Detected at most this far apart."),
              reason: str = typer.Option("", "--reason", help="Why they go together."),
              by: str = _BY, warehouse: Optional[str] = _WH):
    """Open a case of alerts that share a table, a round or a person within a window."""
    from datetime import datetime, timedelta, timezone

    from pitwatch.lifecycle.actions import ActionError
    from pitwatch.lifecycle.cases import open_case
    from pitwatch.warehouse import WarehouseError, open_warehouse

    cfg = settings(warehouse_url=warehouse)
    ids = [a.strip() for a in alerts.split(",") if a.strip()]
    try:
        with open_warehouse(cfg.warehouse_url) as wh:
            case = open_case(wh, ids, group, by, datetime.now(timezone.utc), reason, timedelta(hours=window_hours))
    except ActionError as exc:
        fail(f"case not opened: {exc}")
    except (WarehouseError, ValueError) as exc:
        fail(f"case not opened: warehouse {cfg.warehouse_url}: {exc}")
    console.print(f"case {case.case_id}: {len(case.alert_ids)} alerts of {case.grouped_by} {case.key}",
                  soft_wrap=True, highlight=False)


@case_app.command("show")
def case_show(case_id: str = typer.Argument(..., help="The case id (case-...)."), warehouse: Optional[str] = _WH,
              fmt: str = typer.Option("text", "--format", help="text or json")):
    """Show a case: its alerts and where each stands, where the case stands and its history of
    actions."""
    from pitwatch.lifecycle.actions import ActionError
    from pitwatch.lifecycle.cases import load_case
    from pitwatch.lifecycle.store import history, statuses
    from pitwatch.warehouse import WarehouseError, open_warehouse

    check_format(fmt)
    cfg = settings(warehouse_url=warehouse)
    try:
        with open_warehouse(cfg.warehouse_url) as wh:
            case = load_case(wh, case_id)
            status, actions = history(wh, case_id)
            assert case is not None  # history checked it
            members = statuses(wh, list(case.alert_ids))
    except ActionError as exc:
        fail(str(exc))
    except (WarehouseError, ValueError) as exc:
        fail(f"cannot read {cfg.warehouse_url}: {exc}")
    if fmt == "json":
        print(json.dumps({**case.__dict__, "state": status.state, "assignee": status.assignee,
                          "disposition": status.disposition,
                          "alert_states": {a: members[a].state for a in case.alert_ids},
                          "history": [a.model_dump(mode="json", exclude_none=True) for a in actions]}, default=str))
        return
    console.print(f"case {case.case_id}: {case.grouped_by} {case.key}, opened by {case.opened_by} at "
                  f"{case.opened_at.isoformat(timespec='milliseconds')}; state [bold]{status.state}[/bold]",
                  soft_wrap=True, highlight=False)
    for a in case.alert_ids:
        m = members[a]
        console.print(f"  alert {a}: {m.state}" + (f" ({m.disposition})" if m.disposition else ""), highlight=False)
    for h in actions:
        console.print(f"  {h.acted_at.isoformat(timespec='milliseconds')} {h.actor}: {h.action}", highlight=False)
