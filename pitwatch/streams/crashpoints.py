"""Named crash points in the worker's batch handling: a TEST HOOK, not for production.

``PITWATCH_CRASH_AT=<point>[:<n>]``, read once when the worker starts, makes the worker die
when its ``n``-th batch (1-based, counted from the worker's start, default 1) reaches
``<point>``. Dying is ``os._exit(137)``: what a SIGKILL leaves behind (no flush, no offset
commit, no status update, no cleanup; the batch engine child dies with the worker).

The points, in the order :meth:`pitwatch.streams.runtime.BatchRuntime.handle` passes them:

=====================  =========================================================================
``after_process``      mid-batch: processed by the batch engine, nothing stored
``after_warehouse``    warehouse rows inserted; outputs not produced, states not written
``after_outputs``      outputs produced and flushed; states not written
``after_states``       states written to the changelog (flushed); the batch neither acked nor
                       committed
=====================  =========================================================================

The end-to-end test ``tests/e2e/test_crash_points.py`` crashes a worker at each point,
restarts one without the hook and checks that the warehouse equals a clean run's.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass

ENV_VAR = "PITWATCH_CRASH_AT"
POINTS = ("after_process", "after_warehouse", "after_outputs", "after_states")
#: Exit status of a crash (128 + SIGKILL, as a shell reports a killed process).
EXIT_CRASH = 137

log = logging.getLogger("pitwatch.streams")


@dataclass(frozen=True, slots=True)
class CrashPoint:
    """Crash at ``point`` (one of :data:`POINTS`) in batch number ``batch`` (1-based)."""

    point: str
    batch: int = 1

    @classmethod
    def parse(cls, spec: str) -> CrashPoint:
        """``"after_states"`` or ``"after_states:3"`` -> CrashPoint. Raises ``ValueError``
        for an unknown point or a batch number below 1."""
        point, _, n = spec.strip().partition(":")
        if point not in POINTS:
            raise ValueError(f"{ENV_VAR}: unknown crash point {point!r}; known: {', '.join(POINTS)}")
        try:
            batch = int(n) if n else 1
        except ValueError:
            raise ValueError(f"{ENV_VAR}: batch number {n!r} is not an integer") from None
        if batch < 1:
            raise ValueError(f"{ENV_VAR}: batch number must be >= 1, not {batch}")
        return cls(point, batch)

    def reached(self, point: str, batch: int) -> bool:
        """Whether batch number ``batch`` at ``point`` is where to crash."""
        return point == self.point and batch == self.batch

    def crash(self) -> None:
        """Exit the process at once with :data:`EXIT_CRASH` (no cleanup of any kind)."""
        log.critical("%s=%s:%d reached: exiting like a SIGKILL", ENV_VAR, self.point, self.batch)
        sys.stderr.flush()
        os._exit(EXIT_CRASH)


def from_env(env: Mapping[str, str] | None = None) -> CrashPoint | None:
    """The crash point named by :data:`ENV_VAR` in ``env`` (default ``os.environ``), or None
    when it is unset or empty. Raises ``ValueError`` for a malformed value."""
    spec = (os.environ if env is None else env).get(ENV_VAR, "").strip()
    return CrashPoint.parse(spec) if spec else None
