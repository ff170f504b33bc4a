"""What a cross-round detector is: what it reads, what it is keyed by, its state, what it emits.

A per-round check lives in the rules engine (a violation of the round's own rules). A **detector**
looks across rounds, tables and days for a pattern no single round shows, and says:

- **what it reads**: the round digests (:class:`pitwatch.detectors.digest.RoundDigest`, what the
  detectors use of a round verdict), one at a time, in the order they reach it
  (:meth:`Detector.observe`; :mod:`pitwatch.detectors.watch` runs the detectors of a casino);
- **what it is keyed by** (:attr:`Detector.keyed_by`): the parties whose behaviour it follows
  (a dealer and a player, two players...), so the stream can be partitioned by that key;
- **its state**: plain data, written as versioned JSON (:meth:`Detector.to_state`, with
  ``"version"``) and read back by :meth:`Detector.from_state` (never pickled), so it outlives a
  process and an upgrade like the table state;
- **what it emits**: alerts (:class:`pitwatch.detectors.alerts.Alert`) with a stable id, the
  parties, the evidence and the citation, into the same alerts topic and table as the others.

Its thresholds are data (a frozen dataclass given to the constructor), each with its reasoning in
the detector's docstring. Detectors are pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping, Protocol, runtime_checkable

from pitwatch.detectors.alerts import Alert
from pitwatch.detectors.digest import RoundDigest


@runtime_checkable
class Detector(Protocol):
    """A cross-round detector (module docstring)."""

    name: ClassVar[str]
    keyed_by: ClassVar[str]
    STATE_VERSION: ClassVar[int]

    def observe(self, digest: RoundDigest) -> list[Alert]:
        """Take one round digest into the state; the alerts it raises now."""
        ...

    def to_state(self) -> dict[str, Any]:
        """The state as JSON-ready data with its ``"version"``."""
        ...

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Detector:
        """The detector with ``state`` (from :meth:`to_state`); ``ValueError`` for another version."""
        ...


__all__ = ["Detector"]
