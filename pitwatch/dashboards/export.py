"""Writing the dashboards' JSON (``pitwatch dashboards export DIR``, :mod:`pitwatch.dashboards.commands`)."""

from __future__ import annotations

from pathlib import Path

from grafana_foundation_sdk.cog.encoder import JSONEncoder

from pitwatch.dashboards import integrity, round_lookup, surveillance
from pitwatch.dashboards.layout import Board, build

DASHBOARDS: dict[str, Board] = {"surveillance": surveillance.BOARD, "integrity": integrity.BOARD,
                                "round-lookup": round_lookup.BOARD}
"""File stem -> each dashboard."""

def dashboard_json(name: str) -> str:
    """The JSON of dashboard ``name`` (a key of :data:`DASHBOARDS`), keys sorted, indented."""
    return JSONEncoder(sort_keys=True, indent=2).encode(build(DASHBOARDS[name]).build()) + "\n"


def export(out: Path) -> list[Path]:
    """Write every dashboard as ``out/<name>.json``; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in DASHBOARDS:
        path = out / f"{name}.json"
        path.write_text(dashboard_json(name))
        paths.append(path)
    return paths
