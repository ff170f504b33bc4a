"""Writing the dashboards' JSON (``pitwatch dashboards export DIR``, :mod:`pitwatch.dashboards.commands`)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from grafana_foundation_sdk.builders.dashboard import Dashboard
from grafana_foundation_sdk.cog.encoder import JSONEncoder

from pitwatch.dashboards import surveillance

DASHBOARDS: dict[str, Callable[[], Dashboard]] = {"surveillance": surveillance.build}
"""File stem -> the builder of each dashboard."""

def dashboard_json(name: str) -> str:
    """The JSON of dashboard ``name`` (a key of :data:`DASHBOARDS`), keys sorted, indented."""
    return JSONEncoder(sort_keys=True, indent=2).encode(DASHBOARDS[name]().build()) + "\n"


def export(out: Path) -> list[Path]:
    """Write every dashboard as ``out/<name>.json``; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in DASHBOARDS:
        path = out / f"{name}.json"
        path.write_text(dashboard_json(name))
        paths.append(path)
    return paths
