"""The watch of one casino: every cross-round detector, fed the casino's round digests in turn.

A :class:`CasinoWatch` holds one instance of each detector of :data:`DETECTORS` (each a
:class:`pitwatch.detectors.base.Detector`), feeds every round digest
(:class:`pitwatch.detectors.digest.RoundDigest`) of its casino to each of them and returns the
alerts they raise. It is what the worker's watch stage keeps per casino
(:mod:`pitwatch.streams.watch`) and what the offline replay runs beside the rules engine
(:func:`pitwatch.replay.replay_lines`), so a file, the warehouse and the live stream give the same
alerts for rounds read in the same order.

**Order.** The detectors' alerts depend on the order the rounds reach them (a pair is alerted the
first time its record crosses the threshold, with the counts of that moment). Live, that is the
order the table stage sent the digests of the casino's tables, which interleaves tables as the
batches were cut; a replay reads the file's order. The pairs alerted agree wherever the evidence
is clear; the counts quoted in an alert's message can differ by the rounds read in between.

**State** (:meth:`CasinoWatch.to_state`): versioned JSON (never pickled; stored compressed,
:meth:`CasinoWatch.dump`): the casino, the last
offset applied per input position (``"topic:partition"``, so a redelivered digest is skipped,
:meth:`CasinoWatch.already_applied`) and each detector's own versioned state by name.
"""

from __future__ import annotations

import json
import zlib
from typing import Any, Mapping

from pitwatch.detectors.alerts import Alert
from pitwatch.detectors.association import AssociationDetector
from pitwatch.detectors.base import Detector
from pitwatch.detectors.chip_dumping import ChipDumpingDetector
from pitwatch.detectors.digest import RoundDigest
from pitwatch.detectors.pairs import PairDetector
from pitwatch.detectors.soft_play import SoftPlayDetector
from pitwatch.detectors.two_tables import TwoTablesDetector
from pitwatch.detectors.whipsaw import WhipsawDetector

DETECTORS: tuple[Any, ...] = (PairDetector, ChipDumpingDetector, SoftPlayDetector, WhipsawDetector, TwoTablesDetector,
                              AssociationDetector)
"""The detector classes a watch runs, by their ``name``."""

WATCH_STATE_VERSION = 1


class CasinoWatch:
    """The detectors of one casino (module docstring)."""

    def __init__(self, casino_id: str, detectors: Mapping[str, Detector] | None = None) -> None:
        self.casino_id = casino_id
        self.detectors: dict[str, Detector] = dict(detectors) if detectors is not None else {
            cls.name: cls() for cls in DETECTORS}
        self.positions: dict[str, int] = {}
        """Last offset applied per input position (``"topic:partition"``)."""

    def observe(self, digest: RoundDigest) -> list[Alert]:
        """Feed ``digest`` to every detector; their alerts, in the order of :data:`DETECTORS`."""
        out: list[Alert] = []
        for det in self.detectors.values():
            out.extend(det.observe(digest))
        return out

    def already_applied(self, position: str, offset: int) -> bool:
        """Whether the message at ``offset`` of ``position`` was applied before (a redelivery)."""
        last = self.positions.get(position)
        return last is not None and offset <= last

    def mark_applied(self, position: str, offset: int) -> None:
        """Remember that the message at ``offset`` of ``position`` is applied."""
        self.positions[position] = offset

    def to_state(self) -> dict[str, Any]:
        """The state as versioned JSON data (module docstring)."""
        return {"version": WATCH_STATE_VERSION, "casino_id": self.casino_id, "positions": dict(sorted(self.positions.items())),
                "detectors": {name: det.to_state() for name, det in self.detectors.items()}}

    def dump(self) -> bytes:
        """:meth:`to_state` as compact JSON, compressed with zlib (RFC 1950): a casino's watch is one
        value of the state table's changelog, and its JSON (each detector's counts per pair) outgrows
        a Kafka message long before it compresses to one."""
        return zlib.compress(json.dumps(self.to_state(), separators=(",", ":")).encode(), 6)

    @staticmethod
    def decode(raw: bytes) -> dict[str, Any]:
        """The JSON data of a stored watch state: :meth:`dump`'s zlib-compressed JSON, or plain JSON
        (a state written before states were compressed starts with ``{``). Raises ``ValueError`` for
        bytes that are neither."""
        try:
            text = raw if raw[:1] == b"{" else zlib.decompress(raw)
        except zlib.error as exc:
            raise ValueError(f"not a watch state: {exc}") from exc
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"not a watch state: JSON {type(data).__name__}")
        return data

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> CasinoWatch:
        """Inverse of :meth:`to_state`; a detector of :data:`DETECTORS` missing from ``state`` (added by
        a later release) starts empty. Raises ``ValueError`` for another version or a detector's state
        of another version."""
        if state.get("version") != WATCH_STATE_VERSION:
            raise ValueError(f"watch state version {state.get('version')!r}, expected {WATCH_STATE_VERSION}")
        saved = state.get("detectors", {})
        detectors = {cls_.name: cls_.from_state(saved[cls_.name]) if cls_.name in saved else cls_()
                     for cls_ in DETECTORS}
        out = cls(str(state["casino_id"]), detectors)
        out.positions = {str(k): int(v) for k, v in state.get("positions", {}).items()}
        return out

    @classmethod
    def load(cls, raw: bytes) -> CasinoWatch:
        """Inverse of :meth:`dump` (:meth:`decode`). Raises ``ValueError`` (not a state, bad JSON or
        another version)."""
        return cls.from_state(cls.decode(raw))


__all__ = ["DETECTORS", "WATCH_STATE_VERSION", "CasinoWatch"]
