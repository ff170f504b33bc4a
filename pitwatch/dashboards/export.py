"""Writing the dashboards' JSON (``pitwatch dashboards export DIR``, :mod:`pitwatch.dashboards.commands`)."""

from __future__ import annotations

from pathlib import Path

from grafana_foundation_sdk.cog.encoder import JSONEncoder

from pitwatch.dashboards import integrity, performance, provisioning, round_lookup, surveillance
from pitwatch.dashboards.layout import Board, build

DASHBOARDS: dict[str, Board] = {"surveillance": surveillance.BOARD, "performance": performance.BOARD,
                                "integrity": integrity.BOARD, "round-lookup": round_lookup.BOARD}
"""File stem -> each dashboard."""

def dashboard_json(name: str) -> str:
    """The JSON of dashboard ``name`` (a key of :data:`DASHBOARDS`), keys sorted, indented."""
    return JSONEncoder(sort_keys=True, indent=2).encode(build(DASHBOARDS[name]).build()) + "\n"


def rendered() -> dict[str, str]:
    """Every file the export writes: ``{path relative to the directory: text}`` (dashboards under
    ``dashboards/``, provisioning files under ``provisioning/``)."""
    files = {f"dashboards/{name}.json": dashboard_json(name) for name in DASHBOARDS}
    files.update({path: provisioning.render(make()) for path, make in provisioning.FILES.items()})
    return files


def export(out: Path) -> list[Path]:
    """Write :func:`rendered` under ``out``; returns the paths written."""
    paths = []
    for rel, text in rendered().items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        paths.append(path)
    return paths


def stale(out: Path) -> list[str]:
    """The files under ``out`` that differ from :func:`rendered` (or are missing)."""
    return [rel for rel, text in rendered().items() if not (out / rel).is_file() or (out / rel).read_text() != text]
