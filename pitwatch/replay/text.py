"""``pitwatch replay --format text``: replay items on a rich console, for people.

Money prints as ``360.00 €`` (signed ``+5.00 €`` for discrepancies), times as UTC to the
millisecond (``2026-11-21 21:04:05.120 UTC``), an event's fields as ``field value`` pairs with
cards as ``10♠`` (:func:`pitwatch.replay.formatting.event_text`: no Python repr). Every text that
comes from the input (reasons, messages, ids) is escaped, so brackets in it are printed, not read
as rich markup.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pitwatch.detectors.alerts import Alert
from pitwatch.replay import ReplayItem, ReplayStats
from pitwatch.replay.formatting import event_text, money_text, time_text
from pitwatch.rules.base import BetCheck


def _where(line: int | None) -> str:
    return f"line {line}" if line is not None else "stored event"


def _settlement(outcome: str, returned, commission) -> str:
    text = f"{outcome} {money_text(returned)}"
    return text + (f" (commission {money_text(commission)})" if commission else "")


def _bet_row(c: BetCheck) -> list[str]:
    e, r = c.expected, c.recorded
    rec = "-" if r is None else _settlement(r.outcome, r.returned, r.commission)
    diff = "" if c.discrepancy == 0 else f"[red]{money_text(c.discrepancy, signed=True)}[/red]"
    return [escape(e.bet_id), escape(e.player_id), escape(e.spot), money_text(e.stake),
            escape(_settlement(e.outcome, e.returned, e.commission)), escape(rec), diff, escape(e.citation)]


def _alert_line(a: Alert) -> str:
    amount = f" ({money_text(a.amount, signed=True)})" if a.amount is not None else ""
    return (f"[red]✗ {escape(a.kind)}[/red] ({escape(a.severity)}){amount} at {time_text(a.detected_at)}: "
            f"{escape(a.message)}\n    [dim]{escape(a.citation)}[/dim]")


def render_item(console: Console, item: ReplayItem) -> None:
    """Print one replay item: an invalid line with its reason; an event (table, seq, UTC time,
    actor, type and payload fields); a stand-alone alert; or a
    round (header with ruleset and status; outcome, dealer, UTC start and end), a table of
    its bets (stake, expected and recorded settlement, discrepancy, citation) and its
    violations."""
    if item.error is not None:
        console.print(f"[red]{_where(item.line)}: invalid: {escape(item.error)}[/red]")
        return
    if item.event is not None:
        e = item.event
        fields = event_text(e)
        console.print(f"[dim]{escape(_where(item.line))} · {escape(e.table_id)} seq {e.seq} · "
                      f"{time_text(e.occurred_at)} · {escape(e.actor.role.value)} {escape(e.actor.id)}[/dim] "
                      f"{escape(e.type)} {escape(fields)}", soft_wrap=True, highlight=False)
        return
    if item.verdict is None:
        for a in item.alerts:
            console.print(f"[yellow]{escape(a.kind)}[/yellow] {escape(a.table_id)} {escape(a.round_id or '-')} "
                          f"({_where(item.line)}): {escape(a.message)}  at {time_text(a.detected_at)}  "
                          f"[dim]{escape(a.citation)}[/dim]")
        return
    v = item.verdict
    status = "[green]OK[/green]" if not item.alerts else f"[red]{len(item.alerts)} violation(s)[/red]"
    console.rule(f"{escape(v.table_id)} {escape(v.round_id)} · {escape(v.ruleset_id)}@{v.ruleset_hash[:12]} · {status}")
    console.print(f"{escape(v.outcome)} · dealer {escape(v.dealer_id or '-')} · "
                  f"{time_text(v.started_at)} → {time_text(v.ended_at)} ({_where(item.line)})")
    t = Table(show_edge=False, pad_edge=False)
    for col in ("bet", "player", "spot", "stake", "expected", "recorded", "diff", "rule"):
        t.add_column(col, justify="right" if col in ("stake", "diff") else "left",
                     no_wrap=col in ("stake", "expected", "recorded", "diff"), overflow="fold")
    for c in v.checks:
        t.add_row(*_bet_row(c))
    console.print(t)
    for a in item.alerts:
        console.print("  " + _alert_line(a))


def render_summary(console: Console, stats: ReplayStats) -> None:
    """Print the counts of a replay and its exit status on one line."""
    console.print(f"{stats.lines} line(s), {stats.events} event(s), {stats.rounds} rounds replayed, "
                  f"{stats.rounds_with_violations} with violations, {stats.violations} violation(s), "
                  f"{stats.invalid_lines} invalid line(s); exit status {stats.exit_status}", soft_wrap=True)
