"""Listings that stay readable at any terminal width: a table when it fits, stacked records
when it does not (ids are never cut or ellipsised)."""

from __future__ import annotations

from typing import Sequence

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text


def print_records(console: Console, columns: Sequence[str], rows: Sequence[Sequence[str]], title: str | None = None,
                  caption: str | None = None) -> None:
    """Print ``rows`` (cells as plain text, never markup) under ``columns``.

    When the table fits ``console.width`` with no cell wrapped: a table with a header row.
    Otherwise, stacked: the title, a header of two lines (the first column's name, then the
    others' joined by `` · ``), and per row its first cell (e.g. an id) on a line of its own,
    then the other cells on an indented line (wrapped between cells if need be; an empty cell
    shows ``-``). ``rows`` may be empty: the header is printed alone."""
    table = Table(*columns, title=title, caption=caption, box=box.SIMPLE_HEAD, title_justify="left",
                  show_edge=False)
    for col in table.columns:
        col.no_wrap = True
    for row in rows:
        table.add_row(*(Text(c) for c in row))
    wide = console.options.update_width(10_000)  # Measurement.get clamps to the options' width
    if Measurement.get(console, wide, table).maximum <= console.width:
        console.print(table)
        return
    if title:
        console.print(Text(title, style="italic"))
    console.print(Text(columns[0], style="bold"))
    console.print(Padding(Text(" · ".join(columns[1:]), style="bold"), (0, 0, 0, 2), expand=False))
    for row in rows:
        console.print(Text(row[0], style="bold"), no_wrap=True, overflow="ignore", crop=False)
        console.print(Padding(Text(" · ".join(c or "-" for c in row[1:])), (0, 0, 0, 2), expand=False))
    if caption:
        console.print(Text(caption, style="dim"))
