"""Casino floor simulator: realistic event streams with injected, labelled faults.

Every bet is paid from the simulator's own payout table (:mod:`pitwatch.sim.payouts`), written
from the regulations apart from the rules engine, so that the engine's verdicts on a simulated
evening test its payouts instead of repeating them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from pitwatch.sim.base import simulate  # noqa: F401


def write_simulation(out: Path, *, tables: int, hours: float, seed: int,
                     fault_rates: dict[str, float] | None,
                     progress: Callable[[int], None] | None = None) -> tuple[int, int]:
    """Simulate and write events to ``out`` (JSONL) and labels to ``out.labels.jsonl``.
    Returns ``(events written, labels written)``."""
    events, labels = simulate(tables, hours, seed, fault_rates)
    n = 0
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as fh:
        for ev in events:
            fh.write(json.dumps(ev, separators=(",", ":")))
            fh.write("\n")
            n += 1
            if progress and n % 5000 == 0:
                progress(n)
    if progress:
        progress(n)
    labels_path = labels_path_for(out)
    with labels_path.open("w") as fh:
        for lb in labels:
            fh.write(json.dumps(lb) + "\n")
    return n, len(labels)


def labels_path_for(events_path: Path) -> Path:
    """Where the fault labels of an events file live: ``<file>.labels.jsonl``."""
    return events_path.with_name(events_path.name + ".labels.jsonl")
