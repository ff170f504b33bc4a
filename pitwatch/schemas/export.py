"""JSON Schema export of the event contract, for producers in other languages."""

from __future__ import annotations

import json
from pathlib import Path

from pitwatch.schemas.events import EVENT_ADAPTER, EVENT_TYPES


def export_schemas(out_dir: Path) -> list[Path]:
    """Write ``<type>.schema.json`` for every event type and ``event.schema.json`` for the
    discriminated union into ``out_dir`` (created if missing). Returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for cls in EVENT_TYPES:
        name = cls.model_fields["type"].default
        schema = cls.model_json_schema()
        schema["$id"] = f"https://pitwatch.dev/schemas/v1/{name}.schema.json"
        p = out_dir / f"{name}.schema.json"
        p.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")
        paths.append(p)
    union = EVENT_ADAPTER.json_schema()
    p = out_dir / "event.schema.json"
    p.write_text(json.dumps(union, indent=2, sort_keys=True) + "\n")
    paths.append(p)
    return paths
