"""Casino floor simulator: realistic event streams with injected, labelled faults.

Every bet is paid from the simulator's own payout table (:mod:`pitwatch.sim.payouts`), written
from the regulations apart from the rules engine, so that the engine's verdicts on a simulated
evening test its payouts instead of repeating them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from pitwatch.sim.base import TableSpec, simulate


def write_simulation(out: Path, *, tables: int | list[TableSpec], hours: float, seed: int,
                     fault_rates: dict[str, float] | None,
                     progress: Callable[[int], None] | None = None) -> tuple[int, int]:
    """Simulate and write events to ``out`` (JSONL) and labels to ``out.labels.jsonl``.
    Returns ``(events written, labels written)``."""
    return write_sessions(out, [(tables, hours, fault_rates)], seed, progress)


def write_sessions(out: Path, sessions: list[tuple[int | list[TableSpec], float, dict[str, float] | None]],
                   seed: int, progress: Callable[[int], None] | None = None) -> tuple[int, int]:
    """Simulate each session ``(tables, hours, fault rates)`` (:func:`pitwatch.sim.base.simulate`,
    from the same start; the sessions' tables must differ) one after the other into ``out`` (JSONL)
    and their labels into ``out.labels.jsonl``. Returns ``(events written, labels written)``;
    ``progress(events written so far)`` every 5,000 events."""
    n, labelled = 0, 0
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as fh, labels_path_for(out).open("w") as lab:
        for tables, hours, rates in sessions:
            events, labels = simulate(tables, hours, seed, rates)
            for ev in events:
                fh.write(json.dumps(ev, separators=(",", ":")))
                fh.write("\n")
                n += 1
                if progress and n % 5000 == 0:
                    progress(n)
            lab.writelines(json.dumps(lb) + "\n" for lb in labels)
            labelled += len(labels)
    if progress:
        progress(n)
    return n, labelled


def labels_path_for(events_path: Path) -> Path:
    """Where the fault labels of an events file live: ``<file>.labels.jsonl``."""
    return events_path.with_name(events_path.name + ".labels.jsonl")
