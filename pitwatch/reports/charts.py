"""The monthly report's charts, drawn with matplotlib as inline SVG (the HTML shows them, WeasyPrint
puts them in the PDF as vectors).

- :func:`win_chart`: the daily win of each game (solid) against its theoretical win (dashed), euros;
- :func:`alerts_chart`: alerts per gaming day (bars).

The SVG is deterministic for the same data (fixed ids, no date in the metadata), so the same report
renders byte for byte the same.
"""

from __future__ import annotations

import io
from decimal import Decimal
from typing import Any, Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
from matplotlib.figure import Figure  # noqa: E402

plt.rcParams.update({"svg.hashsalt": "pitwatch", "svg.fonttype": "none", "font.size": 8})


def _svg(fig: Figure) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]  # drop the XML prolog and DOCTYPE: the SVG goes inline


def win_chart(daily: list[dict[str, Any]], title: str, game_name: Callable[[str], str] = str,
              words: tuple[str, str] = ("win", "theo")) -> str:
    """SVG of win (solid) and theoretical win (dashed) per gaming day and game; ``daily`` rows have
    ``gaming_day`` (ISO date), ``game``, ``win`` and ``theoretical_win`` (euro strings; ``None`` for
    a player-against-player game: no dashed line). ``game_name`` and ``words`` (win, theoretical)
    give the legend's words."""
    fig, ax = plt.subplots(figsize=(7.0, 2.8))
    days = sorted({r["gaming_day"] for r in daily})
    for i, game in enumerate(sorted({r["game"] for r in daily})):
        rows = {r["gaming_day"]: r for r in daily if r["game"] == game}
        xs = [d for d in days if d in rows]
        color = f"C{i}"
        ax.plot(xs, [float(Decimal(rows[d]["win"])) for d in xs], marker="o", color=color,
                label=f"{game_name(game)}: {words[0]}")
        theo = [d for d in xs if rows[d]["theoretical_win"] is not None]
        if theo:
            ax.plot(theo, [float(Decimal(rows[d]["theoretical_win"])) for d in theo], linestyle="--", marker="x",
                    color=color, label=f"{game_name(game)}: {words[1]}")
    ax.axhline(0, color="#888", linewidth=0.6)
    ax.set_title(title)
    ax.set_ylabel("€")
    if daily:
        ax.legend(fontsize=6, ncol=3)
    ax.tick_params(axis="x", labelrotation=45)
    return _svg(fig)


def alerts_chart(per_day: list[dict[str, Any]], title: str) -> str:
    """SVG bar chart of ``per_day`` rows (``gaming_day``, ``alerts``)."""
    fig, ax = plt.subplots(figsize=(7.0, 2.2))
    ax.bar([r["gaming_day"] for r in per_day], [r["alerts"] for r in per_day], color="C3")
    ax.set_title(title)
    ax.tick_params(axis="x", labelrotation=45)
    return _svg(fig)


__all__ = ["alerts_chart", "win_chart"]
