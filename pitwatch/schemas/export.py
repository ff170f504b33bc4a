"""JSON Schema export of the event contract, for producers in other languages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from pydantic import BaseModel

from pitwatch.schemas.events import EVENT_ADAPTER, EVENT_TYPES

SCHEMA_BASE = "https://pitwatch.dev/schemas/v1/"


def _write(out_dir: Path, name: str, schema: dict[str, Any], paths: list[Path]) -> None:
    schema["$id"] = f"{SCHEMA_BASE}{name}.schema.json"
    p = out_dir / f"{name}.schema.json"
    p.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")
    paths.append(p)


def export_schemas(out_dir: Path, extra: Mapping[str, type[BaseModel]] | None = None) -> list[Path]:
    """Write ``<type>.schema.json`` for every event type and ``event.schema.json`` for the
    discriminated union into ``out_dir`` (created if missing), then ``<name>.schema.json``
    for every ``name -> model`` of ``extra`` (the CLI passes the replay output records,
    :data:`pitwatch.replay.output.REPLAY_SCHEMAS`). Returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for cls in EVENT_TYPES:
        _write(out_dir, cls.model_fields["type"].default, cls.model_json_schema(), paths)
    _write(out_dir, "event", EVENT_ADAPTER.json_schema(), paths)
    for name, model in (extra or {}).items():
        _write(out_dir, name, model.model_json_schema(), paths)
    return paths
