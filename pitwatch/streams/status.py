"""The worker's status document: its counters, and the JSON file it rewrites after every batch.

The status file (``settings.status_path``, optional) is replaced atomically after every batch
(and at start, shutdown and on a fatal error)::

    {"consumed": 100000, "rejected": 3, "batches": 61, "pid": 4242, "produced": 2040,
     "warehouse_rows": 5000, "states_written": 310, "gap_filled": 0,
     "counters": {"consumed": 100000, "rejected": 3, "skipped": 12},
     "timings": {...seconds per stage...}, "error": null, "updated_at": 1732250000.0}

``consumed`` counts input messages handed to the processor (including redeliveries after a
crash and offsets read to fill a hole); ``rejected`` counts messages sent to
``pitwatch.rejected``; ``produced`` output messages; ``warehouse_rows`` rows handed to the
warehouse sink; ``states_written`` table states written to the changelog; ``gap_filled`` the
messages read directly from Kafka because Faust skipped them (:mod:`pitwatch.streams.offsets`).

``counters`` sums, over the worker's batches, every integer field of the processor's
:class:`~pitwatch.streams.processor.BatchResult` (``consumed``, ``skipped``: redelivered
messages already applied, and any counter the processor adds later, which appears here with
no further plumbing: :func:`pitwatch.streams.batch_engine.batch_counters`), plus ``rejected``
unless the processor reports its own. A message the worker takes in and neither applies nor
rejects is counted there.

``timings`` are cumulative seconds: ``wait`` (between batches: Faust consuming and
buffering), ``engine`` (waiting for the batch engine), within it ``process`` (the processor)
and ``warehouse`` (the inserts), ``produce`` (producing and flushing outputs), ``flush``
(the flushes alone), ``states``, ``status``, ``commit_wait`` (flushes before commits).
``error`` is the fatal error that ended the worker, if any; ``updated_at`` a UNIX time (s).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

TIMINGS = ("wait", "engine", "process", "warehouse", "produce", "flush", "states", "status", "commit_wait")


class WorkerStatus:
    """The counters of one worker process and its status file (module docstring).

    ``path``: the status file, or None to keep the counters in memory only. Not thread-safe
    (updated from the worker's event loop).
    """

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = Path(path) if path else None
        self.consumed = 0
        self.rejected = 0
        self.produced = 0
        self.batches = 0
        self.warehouse_rows = 0
        self.states_written = 0
        self.gap_filled = 0
        self.counters: dict[str, int] = {}
        self.timings: dict[str, float] = dict.fromkeys(TIMINGS, 0.0)
        self.error: str | None = None

    def add_counters(self, counters: Mapping[str, int]) -> None:
        """Add a batch's processor counters (``{"skipped": 2, ...}``) to the totals."""
        for name, value in counters.items():
            self.counters[name] = self.counters.get(name, 0) + value

    def document(self) -> dict[str, Any]:
        """The status document (module docstring) as a dict."""
        return {"consumed": self.consumed, "rejected": self.rejected, "batches": self.batches,
                "pid": os.getpid(), "produced": self.produced, "warehouse_rows": self.warehouse_rows,
                "states_written": self.states_written, "gap_filled": self.gap_filled,
                "counters": {"rejected": self.rejected, **self.counters},
                "timings": {k: round(v, 4) for k, v in self.timings.items()},
                "error": self.error, "updated_at": time.time()}

    def write(self) -> None:
        """Atomically replace the status file with :meth:`document` (no-op without a path)."""
        if self.path is None:
            return
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self.document()))
        os.replace(tmp, self.path)


def read_status(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The worker's status file (module docstring) as a dict; ``{}`` while it does not exist
    yet or is being replaced."""
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}
