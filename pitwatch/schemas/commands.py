"""``pitwatch import ...`` and ``pitwatch export ...``: other formats in and out (pokerkit is imported only
when used)."""

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
    """Turn PHH poker hand histories (no-limit hold'em, fixed-limit seven-card stud) into poker events:
    one table per PHH table, opened with poker.andalucia and rake_rate 0 (PHH records no rake); pokerkit replays each hand and
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
    console.print(f"wrote {len(events)} events ({hands} hands at {tables} tables) to {out}", soft_wrap=True, highlight=False)


export_app = typer.Typer(help="Write pitwatch events in other formats.", no_args_is_help=True)


@export_app.command("phh")
def export_phh_cmd(
    path: Path = typer.Argument(..., exists=True, dir_okay=False, help="Events file (JSONL)."),
    out: Path = typer.Option(..., "--out", "-o", help="PHH file to write (.phhs: every hand)."),
) -> None:
    """Write every poker hand of EVENTS as PHH (no-limit hold'em; stud tables as fixed-limit stud;
    five-card draw has no PHH variant), which pokerkit reads back and replays: players from the seat
    after the marca, hole cards where dealt face down, actions, board and showdown. The rake and the
    croupier's awards are not PHH's (see docs/encodings.md)."""
    from pokerkit import HandHistory

    from pitwatch.schemas.events import InvalidEvent, parse_event
    from pitwatch.schemas.phh_export import PhhExportError, export_phh

    events = []
    with path.open("rb") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                events.append(parse_event(line))
            except InvalidEvent as exc:
                fail(f"{path} line {n}: {exc.reason}")
    try:
        histories = export_phh(events)
    except PhhExportError as exc:
        fail(str(exc))
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as f:
        HandHistory.dump_all(histories, f)
    console.print(f"wrote {len(histories)} poker hands to {out}", soft_wrap=True, highlight=False)
