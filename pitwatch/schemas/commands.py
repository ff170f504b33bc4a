"""``pitwatch import ...``: other formats in, as pitwatch events (pokerkit is imported only when used)."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Optional

import typer

from pitwatch.cli_support import console, fail

import_app = typer.Typer(help="Turn other formats into pitwatch events (JSONL).", no_args_is_help=True)


@import_app.command("phh")
def import_phh_cmd(
    path: Path = typer.Argument(..., exists=True, dir_okay=False, help="A PHH hand history (.phh) or several (.phhs)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Events file to write (JSONL); stdout if omitted."),
    casino: str = typer.Option("phh", "--casino", help="casino_id of the events."),
) -> None:
    """Turn PHH poker hand histories (no-limit hold'em) into poker events: one table per PHH table,
    opened with poker.andalucia and rake_rate 0 (PHH records no rake); pokerkit replays each hand and
    the chips it pushes are the recorded awards. The same file always gives the same events (ids
    included). See docs/encodings.md, "Import from PHH"."""
    from pitwatch.schemas.events import dump_event
    from pitwatch.schemas.phh import PhhError, import_phh

    with warnings.catch_warnings():  # pokerkit warns about PHH fields it does not know (``time_zone_abbreviation``)
        warnings.simplefilter("ignore", UserWarning)
        try:
            events = list(import_phh(path, casino_id=casino))
        except PhhError as exc:
            fail(str(exc))
    data = b"".join(dump_event(e) + b"\n" for e in events)
    if out is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    hands = sum(1 for e in events if getattr(e, "type", "") == "round_started")
    tables = len({e.table_id for e in events})
    console.print(f"wrote {len(events)} events ({hands} hands at {tables} tables) to {out}")
