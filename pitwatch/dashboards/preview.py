"""A static preview of the dashboards without Grafana (``pitwatch dashboards preview --out DIR``):
every panel's query, expanded as Grafana and the plugin would (:mod:`pitwatch.dashboards.macros`),
run on the warehouse and drawn with plotly into one HTML page (plotly.js embedded: it opens
offline).

Stat panels become a number, table panels a table, time series one line per numeric column, or
per value of the text column when there is one (``kind`` in alerts per interval), as Grafana
turns a long frame into a wide one. Every variable is All, except the round lookup's, which shows
the first round with a payout discrepancy (else the first round stored).

The range is that of the stored events' times. Panels timed by processing (rejected, parked and
skipped messages, the pipeline lag) follow when the worker stored the rows: for an evening
replayed later (the demo's simulated one) they are empty or show a lag of days.

The page marks each panel ``data-drawn="1"`` once plotly has drawn it and records script errors
in ``<pre id="errors">``, so a headless browser can check it (``tests/dashboards``).
"""

from __future__ import annotations

import html
import json
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
from plotly.offline import get_plotlyjs

from pitwatch.dashboards.export import DASHBOARDS
from pitwatch.dashboards.layout import ALL_VALUE, Board, Panel
from pitwatch.dashboards.macros import ALL, Context, Variable, expand
from pitwatch.replay.dossier import first_flagged_round

POINTS = 120
"""About how many time buckets a time series gets over the range (Grafana's max data points)."""


def _cell(v: Any) -> Any:
    if isinstance(v, Decimal):
        return float(v)
    if isinstance(v, datetime):
        return v.strftime("%Y-%m-%d %H:%M:%S")
    return v


def figure(panel: Panel, columns: list[str], rows: list[tuple]) -> go.Figure:
    """The plotly figure of ``panel`` for its query result (``columns``, ``rows``)."""
    layout = go.Layout(title=panel.title, height=60 + 40 * panel.height, margin={"l": 40, "r": 20, "t": 50, "b": 40})
    if panel.kind == "stat":
        value = float(rows[0][0]) if rows and rows[0] and rows[0][0] is not None else 0.0
        return go.Figure(go.Indicator(mode="number", value=value), layout)
    if panel.kind == "table":
        cols = list(zip(*rows)) if rows else [() for _ in columns]
        return go.Figure(go.Table(header={"values": columns},
                                  cells={"values": [[str(_cell(v)) for v in col] for col in cols]}), layout)
    time_i = columns.index("time")
    text = [i for i, c in enumerate(columns) if i != time_i and rows and isinstance(rows[0][i], str)]
    fig = go.Figure(layout=layout)
    if text:  # long to wide: one line per value of the text column
        value_i = next(i for i in range(len(columns)) if i not in (time_i, *text))
        for key in sorted({r[text[0]] for r in rows}):
            pts = [r for r in rows if r[text[0]] == key]
            fig.add_trace(go.Scatter(x=[_cell(r[time_i]) for r in pts], y=[_cell(r[value_i]) for r in pts],
                                     mode="lines+markers", name=str(key)))
    else:
        for i, name in enumerate(columns):
            if i != time_i:
                fig.add_trace(go.Scatter(x=[_cell(r[time_i]) for r in rows], y=[_cell(r[i]) for r in rows],
                                         mode="lines+markers", name=name))
    return fig


def _range(wh: Any) -> tuple[datetime, datetime]:
    (lo, hi), = wh.query("SELECT min(occurred_at), max(occurred_at) FROM pitwatch.events_raw")
    if lo is None or hi is None or hi.year < 2000:
        now = datetime.now(timezone.utc).replace(microsecond=0)
        return now - timedelta(hours=1), now
    return lo, hi + timedelta(seconds=1)


def _context(wh: Any, board: Board, start: datetime, end: datetime) -> Context:
    interval = max((end - start).total_seconds() / POINTS, 1.0)
    variables = {v.name: Variable([ALL], ALL_VALUE) for v in board.variables if v.multi}
    single = [v for v in board.variables if not v.multi]
    if single:  # the round lookup: the first flagged round, else the first round
        flagged = first_flagged_round(wh)
        found = [flagged] if flagged else wh.query(
            "SELECT table_id, round_id FROM pitwatch.events_raw FINAL WHERE round_id != '' ORDER BY table_id, seq LIMIT 1")
        table_id, round_id = found[0] if found else ("", "")
        variables.update({"table": Variable([table_id]), "round": Variable([round_id])})
    return Context(start, end, interval, variables)


def render(wh: Any, start: datetime | None = None, end: datetime | None = None) -> str:
    """The preview page of every dashboard over ``[start, end]`` (UTC; default: the range of the
    stored events). Raises :class:`pitwatch.warehouse.WarehouseError`."""
    if start is None or end is None:
        start, end = _range(wh)
    sections: list[str] = []
    figures: list[dict[str, Any]] = []
    for name, board in DASHBOARDS.items():
        ctx = _context(wh, board, start, end)
        divs = []
        for panel in board.panels:
            columns, rows = wh.query_columns(expand(panel.sql, ctx))
            div_id = f"panel-{len(figures)}"
            figures.append({"id": div_id, "figure": json.loads(figure(panel, columns, rows).to_json())})
            width = f"{panel.width / 24 * 100 - 1:.1f}%"
            divs.append(f'<div class="panel" id="{div_id}" style="width:{width}" data-title="{html.escape(panel.title)}">'
                        "</div>")
        chosen = ", ".join(f"{k} = {'All' if v.values == [ALL] else ','.join(v.values)}"
                           for k, v in ctx.variables.items())
        sections.append(f'<section id="{name}"><h2>{html.escape(board.title)}</h2>'
                        f'<p class="vars">{html.escape(chosen)}</p>{"".join(divs)}</section>')
    head = ("<title>pitwatch dashboards preview</title><style>body{font-family:sans-serif;margin:1em}"
            ".panel{display:inline-block;vertical-align:top;margin:0.3%}.vars{color:#666}</style>")
    script = """
const errors = [];
window.addEventListener('error', e => errors.push(String(e.message)));
const report = () => { document.getElementById('errors').textContent = errors.join('\\n'); };
Promise.all(FIGURES.map(f => Plotly.newPlot(f.id, f.figure.data, f.figure.layout, {staticPlot: false})
    .then(() => { document.getElementById(f.id).dataset.drawn = '1'; })
    .catch(e => errors.push(f.id + ': ' + e))))
  .then(report, e => { errors.push(String(e)); report(); });
"""
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'>{head}"
            f"<script>{get_plotlyjs()}</script></head><body>"
            f"<h1>pitwatch dashboards preview</h1><p>{start.isoformat()} to {end.isoformat()} (UTC)</p>"
            + "".join(sections) + '<pre id="errors"></pre>'
            + f"<script>const FIGURES = {json.dumps(figures)};{script}</script></body></html>")


def write_preview(wh: Any, out: Path) -> Path:
    """Write :func:`render` to ``out/dashboards.html``; returns the path."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "dashboards.html"
    path.write_text(render(wh))
    return path
