"""``pitwatch verify``: walk a table's hash chain in the warehouse (:mod:`pitwatch.warehouse.verify`).

Exit status 0 when the chain is intact, 1 when it is broken (the first altered, inserted or
missing event is named), 2 for a usage error or a warehouse that cannot be read.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Optional

import typer
from rich.markup import escape
from rich.table import Table

from pitwatch.cli_support import console
from pitwatch.cli_support import fail as _fail
from pitwatch.cli_support import settings as _settings
from pitwatch.warehouse.verify import Verification

_TIME_FORMATS = ["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S"]


def _utc(t: datetime | None) -> datetime | None:
    return None if t is None else t.replace(tzinfo=timezone.utc)


def _head(text: str | None) -> tuple[int, str] | None:
    if text is None:
        return None
    seq, _, h = text.partition(":")
    if not seq.isdigit() or len(h) != 64 or any(c not in "0123456789abcdef" for c in h):
        _fail(f"--head {text!r}: expected SEQ:HASH (the seq and the 64 hex digits printed in the report)")
    return int(seq), h


def verify(
    table: str = typer.Option(..., "--table", "-t", help="The table id whose chain to check."),
    start: Optional[datetime] = typer.Option(None, "--from", formats=_TIME_FORMATS,
                                             help="First instant (UTC) of the events to check; default: the first."),
    end: Optional[datetime] = typer.Option(None, "--to", formats=_TIME_FORMATS,
                                           help="Instant (UTC) the events checked occurred before; default: none."),
    head: Optional[str] = typer.Option(None, "--head", help="SEQ:HASH of a chain head kept elsewhere (the monthly "
                                       "report): it must be a stored link of the events checked."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
    warehouse: Optional[str] = typer.Option(None, envvar="PITWATCH_WAREHOUSE",
                                            help="chdb:///path or clickhouse://host:9000/db."),
) -> None:
    """Check TABLE's hash chain in the warehouse: every stored event of the period must give its
    stored hash (sha256 of the previous event's hash and its raw bytes), in seq order. Names the
    first altered, inserted or missing (deleted) event; lists seqs never received (sequence
    gaps at intake, which the chain spans). Exit 0: intact; 1: broken."""
    from pitwatch.warehouse import WarehouseError, open_warehouse
    from pitwatch.warehouse.verify import verify_table

    t0, t1, expected = _utc(start), _utc(end), _head(head)
    if t0 is not None and t1 is not None and t1 <= t0:
        _fail("--to must be after --from")
    settings = _settings(warehouse_url=warehouse)
    try:
        with open_warehouse(settings.warehouse_url) as wh:
            res = verify_table(wh, table, t0, t1, expected)
    except (WarehouseError, ValueError) as exc:
        _fail(f"cannot read {settings.warehouse_url}: {exc} (a warehouse of a release before the chain needs "
              "`pitwatch migrate` first)")
    if as_json:
        typer.echo(json.dumps(res.to_json_dict(), separators=(",", ":")))
    else:
        _print(res)
    raise typer.Exit(0 if res.intact else 1)


def _print(res: Verification) -> None:
    period = (f"{res.start:%Y-%m-%d %H:%M:%S} " if res.start else "the start ") + "to " + (
        f"{res.end:%Y-%m-%d %H:%M:%S}" if res.end else "the end")
    t = Table(title=f"hash chain of {escape(res.table_id)}, {period} (UTC)", show_header=False)
    t.add_column(style="bold")
    t.add_column()
    t.add_row("rows read", str(res.rows))
    t.add_row("seqs of the period", "none" if res.first_seq is None else f"{res.first_seq}..{res.last_seq}")
    t.add_row("links checked", str(res.linked))
    if res.head is not None:
        t.add_row("chain head", f"seq {res.head[0]}  {res.head[1]}")
    if res.gaps:
        t.add_row("never received", ", ".join(f"{a}" if a == b else f"{a}..{b}" for a, b in res.gaps)
                  + " (sequence gaps at intake; the chain spans them)")
    if res.unlinked_before:
        t.add_row("before the chain", f"{res.unlinked_before} row(s) stored before the table's chain began: not covered")
    if res.parked:
        t.add_row("parked", f"{res.parked} parked event(s) linked by recomputation")
    console.print(t)
    if res.broken is None:
        console.print("[green]intact[/green]: every link holds" if res.rows else "[yellow]no events[/yellow] in the period")
    else:
        b = res.broken
        console.print(f"[red]broken[/red]: {b.kind} event at seq {b.seq} "
                      f"({escape(b.event_id or 'no row')}): {escape(b.message)}")
