"""The watch of one casino: every cross-round detector, fed the casino's round digests in turn.

A :class:`CasinoWatch` holds one instance of each detector of :data:`DETECTORS` (each a
:class:`pitwatch.detectors.base.Detector`), feeds every round digest
(:class:`pitwatch.detectors.digest.RoundDigest`) of its casino to each of them and returns the
alerts they raise. It is what the worker's watch stage keeps per casino
(:mod:`pitwatch.streams.watch`) and what the offline replay runs beside the rules engine
(:func:`pitwatch.replay.replay_lines`), so a file, the warehouse and the live stream give the same
alerts for rounds read in the same order.

**Order.** The detectors' alerts depend on the order they read rounds in (a pair is alerted the
first time its record crosses the threshold, with the counts of that moment). So a watch does not
feed digests as they arrive: :meth:`CasinoWatch.offer` puts each in the casino's
:class:`pitwatch.detectors.release.ReleaseBuffer`, which drops a round received twice (by its
identity, not by its offset) and releases rounds in event-time order behind per-table watermarks;
:meth:`CasinoWatch.close_table` and :meth:`CasinoWatch.flush` release the rest. Live, from a file and
after a rebuild, the detectors read the same rounds in the same order, so they raise the same
alerts, every field, whatever the interleaving of tables and the cuts of batches (within the bounds
of :class:`pitwatch.detectors.release.ReleasePolicy`; a late round is counted).

**Failures.** A detector that raises on a digest makes :meth:`CasinoWatch.offer` (or
:meth:`close_table`, :meth:`flush`) raise :class:`PoisonDigest` naming the digest; the digests
released after it go back to the buffer. The worker reloads the casino's stored state and runs its
batch again without that digest (:mod:`pitwatch.streams.watch`), so a poison digest changes nothing.

**State** (:meth:`CasinoWatch.to_state`): versioned JSON (never pickled; stored compressed,
:meth:`CasinoWatch.dump`): the casino, the last offset applied per input position
(``"topic:partition"``, :meth:`CasinoWatch.already_applied`), the release buffer and each
detector's own versioned state by name. Version 1 (before the release buffer) is upcast with an
empty buffer (:func:`upcast_v1_v2`).
"""

from __future__ import annotations

import json
import zlib
from datetime import datetime
from typing import Any, Mapping

from pitwatch.detectors.alerts import Alert
from pitwatch.detectors.association import AssociationDetector
from pitwatch.detectors.base import Detector
from pitwatch.detectors.chip_dumping import ChipDumpingDetector
from pitwatch.detectors.digest import RoundDigest, TableMark, iso_utc, parse_utc
from pitwatch.detectors.expiry import HORIZON, SWEEP_EVERY, forget
from pitwatch.detectors.pairs import PairDetector
from pitwatch.detectors.release import Intake, ReleaseBuffer, ReleasePolicy
from pitwatch.detectors.soft_play import SoftPlayDetector
from pitwatch.detectors.two_tables import TwoTablesDetector
from pitwatch.detectors.whipsaw import WhipsawDetector

DETECTORS: tuple[Any, ...] = (PairDetector, ChipDumpingDetector, SoftPlayDetector, WhipsawDetector, TwoTablesDetector,
                              AssociationDetector)
"""The detector classes a watch runs, by their ``name``."""

WATCH_STATE_VERSION = 2


class PoisonDigest(Exception):
    """A detector raised on ``digest`` (``reason`` says how); the watch's state may hold part of it,
    so the caller reloads the state and runs again without it (module docstring)."""

    def __init__(self, digest: RoundDigest, reason: str) -> None:
        super().__init__(reason)
        self.digest = digest
        self.reason = reason


def upcast_v1_v2(state: Mapping[str, Any]) -> dict[str, Any]:
    """A watch state of version 1 (digests read as they came, no release buffer, no expiry) as
    version 2: an empty buffer, so the first rounds after the upgrade start the casino's watermarks,
    and nobody seen yet: a party of the version 1 state is forgotten a horizon after it is next
    seen; one never seen again keeps its records (a known limit of the upgrade: version 1 did not
    record when parties were seen)."""
    return {**state, "version": 2, "release": ReleaseBuffer().to_state(),
            "seen": {"players": {}, "dealers": {}, "swept": None}}


UPCASTERS = {1: upcast_v1_v2}
"""``{version: upcaster to the next one}``."""


class CasinoWatch:
    """The detectors of one casino (module docstring)."""

    def __init__(self, casino_id: str, detectors: Mapping[str, Detector] | None = None,
                 release: ReleaseBuffer | None = None) -> None:
        self.casino_id = casino_id
        self.detectors: dict[str, Detector] = dict(detectors) if detectors is not None else {
            cls.name: cls() for cls in DETECTORS}
        self.positions: dict[str, int] = {}
        """Last offset applied per input position (``"topic:partition"``)."""
        self.release = release if release is not None else ReleaseBuffer()
        self.players_seen: dict[str, datetime] = {}
        """When each player was last seen in a released round (UTC, event time)."""
        self.dealers_seen: dict[str, datetime] = {}
        self.swept: datetime | None = None
        """When (event time) the parties not seen for the horizon were last forgotten."""
        self.horizon = HORIZON
        """Parties not seen for this long are forgotten (a setting, not state)."""

    def observe(self, digest: RoundDigest) -> list[Alert]:
        """Feed ``digest`` to every detector now, outside the release order (benchmarks and detector
        tests; the stream and the replay use :meth:`offer`); their alerts, in the order of
        :data:`DETECTORS`."""
        out: list[Alert] = []
        for det in self.detectors.values():
            out.extend(det.observe(digest))
        return out

    def offer(self, digest: RoundDigest) -> tuple[Intake, list[Alert]]:
        """Take ``digest`` into the release buffer; what the buffer did with it and the alerts of the
        rounds it released (module docstring). Raises :class:`PoisonDigest`."""
        intake = self.release.offer(digest)
        if intake is Intake.DUPLICATE:
            return intake, []
        return intake, self._judge(self.release.release())

    def close_table(self, mark: TableMark) -> list[Alert]:
        """The table closed: the alerts of the rounds this releases. Raises :class:`PoisonDigest`."""
        self.release.close(mark.table_id)
        return self._judge(self.release.release())

    def flush(self) -> list[Alert]:
        """Release every pending round (the end of an offline replay's input); their alerts. Raises
        :class:`PoisonDigest`."""
        return self._judge(self.release.release(everything=True))

    def _judge(self, digests: list[RoundDigest]) -> list[Alert]:
        out: list[Alert] = []
        for i, d in enumerate(digests):
            try:
                out.extend(self.observe(d))
                self._seen(d)
            except Exception as exc:
                for rest in digests[i + 1:]:
                    self.release.offer_back(rest)
                raise PoisonDigest(d, f"a detector failed on round {d.table_id}/{d.round_id}: "
                                      f"{type(exc).__name__}: {exc}") from exc
        return out

    def _seen(self, d: RoundDigest) -> None:
        """Remember the parties of a released round and, once per :data:`SWEEP_EVERY` of event time,
        forget those not seen for :data:`HORIZON` (:mod:`pitwatch.detectors.expiry`)."""
        t = d.ended_at
        for b in d.bets:
            self.players_seen[b.player_id] = t
        for _, p, _, _ in d.decisions:
            self.players_seen[p] = t
        if d.dealer_id:
            self.dealers_seen[d.dealer_id] = t
        if self.swept is None:
            self.swept = t
        elif t - self.swept >= SWEEP_EVERY:
            self.sweep(t)

    def sweep(self, now: datetime) -> tuple[set[str], set[str]]:
        """Forget the players and dealers last seen before ``now - horizon`` in every detector; the
        ``(players, dealers)`` forgotten."""
        cut = now - self.horizon
        players = {p for p, t in self.players_seen.items() if t < cut}
        dealers = {p for p, t in self.dealers_seen.items() if t < cut}
        self.swept = now
        if players or dealers:
            for p in players:
                del self.players_seen[p]
            for p in dealers:
                del self.dealers_seen[p]
            self.detectors = {name: type(det).from_state(forget(name, det.to_state(), players, dealers))
                              for name, det in self.detectors.items()}
        return players, dealers

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
                "release": self.release.to_state(),
                "seen": {"players": {p: iso_utc(t) for p, t in sorted(self.players_seen.items())},
                         "dealers": {p: iso_utc(t) for p, t in sorted(self.dealers_seen.items())},
                         "swept": None if self.swept is None else iso_utc(self.swept)},
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
    def from_state(cls, state: Mapping[str, Any], policy: ReleasePolicy | None = None) -> CasinoWatch:
        """Inverse of :meth:`to_state`; a state of an earlier version is upcast (:data:`UPCASTERS`); a
        detector of :data:`DETECTORS` missing from ``state`` (added by a later release) starts empty.
        Raises ``ValueError`` for an unknown version or a detector's state it cannot read."""
        while isinstance(state.get("version"), int) and state["version"] in UPCASTERS:
            state = UPCASTERS[state["version"]](state)
        if state.get("version") != WATCH_STATE_VERSION:
            raise ValueError(f"watch state version {state.get('version')!r}, expected {WATCH_STATE_VERSION}")
        saved = state.get("detectors", {})
        detectors = {cls_.name: cls_.from_state(saved[cls_.name]) if cls_.name in saved else cls_()
                     for cls_ in DETECTORS}
        out = cls(str(state["casino_id"]), detectors, ReleaseBuffer.from_state(state["release"], policy))
        out.positions = {str(k): int(v) for k, v in state.get("positions", {}).items()}
        seen = state["seen"]
        out.players_seen = {str(p): parse_utc(t) for p, t in seen["players"].items()}
        out.dealers_seen = {str(p): parse_utc(t) for p, t in seen["dealers"].items()}
        out.swept = None if seen["swept"] is None else parse_utc(seen["swept"])
        return out

    @classmethod
    def load(cls, raw: bytes) -> CasinoWatch:
        """Inverse of :meth:`dump` (:meth:`decode`). Raises ``ValueError`` (not a state, bad JSON or
        another version)."""
        return cls.from_state(cls.decode(raw))


__all__ = ["DETECTORS", "UPCASTERS", "WATCH_STATE_VERSION", "CasinoWatch", "PoisonDigest", "upcast_v1_v2"]
