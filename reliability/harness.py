"""One pipeline run of the reliability harness: a fresh local broker, a fresh database on the
ClickHouse server, supervised ``pitwatch worker`` processes, a (paced) producer, and what the
warehouse and the output topics hold at the end.

A run is done when everything was produced and the consumer group has committed every input
offset (a worker commits an offset only once that message's rows, outputs and states are
stored: :mod:`pitwatch.streams.runtime`). Workers are then stopped with SIGTERM and the
warehouse is read.

Workers are supervised as the systemd unit in ``infra/`` does (``Restart=on-failure``,
``RestartSec``): a worker that exits unexpectedly (killed, or exit 70 when a batch could not be
stored) is started again after ``restart_delay`` seconds, and every restart is counted.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pitwatch.streams.broker import LocalBroker
from pitwatch.streams.status import read_status
from pitwatch.streams.supervisor import start_worker, stop_worker
from pitwatch.streams.topics import (
    ALL_TOPICS,
    APP_ID,
    TOPIC_ALERTS,
    TOPIC_EVENTS,
    TOPIC_REJECTED,
    TOPIC_ROUND_DIGESTS,
    TOPIC_SETTLEMENTS,
)

from reliability.kafka import MAX_MESSAGE_BYTES, BackgroundProducer, committed_to_the_end, group_progress, topic_ends

#: The sink tables compared with a clean run, and their id columns.
ID_COLUMNS = {"events_raw": "event_id", "settlements": "settlement_id", "alerts": "alert_id",
              "rejected": "reject_id", "parked": "parked_id"}
#: Output topics read back at the end, and the id field of their messages.
TOPIC_IDS = {TOPIC_SETTLEMENTS: "settlement_id", TOPIC_ALERTS: "alert_id", TOPIC_REJECTED: "reject_id"}
#: The columns of an ``alerts`` row compared with the clean run's (all of them; money and times as
#: text, so that the comparison is exact).
ALERT_COLUMNS = ("alert_id", "kind", "severity", "casino_id", "table_id", "game", "round_id", "bet_id", "player_id",
                 "dealer_id", "toString(amount)", "message", "citation", "evidence", "ruleset_id", "ruleset_hash",
                 "toString(detected_at)", "detected_ms", "parties", "score")


def alert_row(row: dict[str, Any]) -> tuple[Any, ...]:
    """An alert's warehouse row (:meth:`pitwatch.detectors.alerts.Alert.to_row`) as the snapshot
    reads it back (:data:`ALERT_COLUMNS`: the amount with its two decimals and ``detected_at`` as
    ClickHouse's ``toString`` writes them, the arrays as tuples)."""
    from decimal import Decimal

    values = {**row, "amount": str(Decimal(row["amount"]).quantize(Decimal("0.01"))),
              "detected_at": row["detected_at"].strftime("%Y-%m-%d %H:%M:%S"),
              "evidence": tuple(row["evidence"]), "parties": tuple(row["parties"])}
    return tuple(values[c.removeprefix("toString(").removesuffix(")")] for c in ALERT_COLUMNS)


class WorkerSlot:
    """One supervised ``pitwatch worker``: started, restarted ``restart_delay`` s after any exit
    the harness did not ask for, killed or stopped on request.

    ``restarts`` counts starts after the first; ``exits`` counts the unexpected exits by
    return code (``-9``: SIGKILL, ``70``: a batch could not be stored). ``totals`` sums the
    counters of the status file each process left (``consumed``, ``skipped``: messages
    redelivered after a restart whose results were already stored; a killed process's file
    stops at its last completed batch, so the batch it died in is not counted).
    """

    def __init__(self, name: str, bootstrap: str, warehouse: str, workdir: Path, *,
                 args: tuple[str, ...] = (), restart_delay: float = 5.0) -> None:
        self.name = name
        self.bootstrap = bootstrap
        self.warehouse = warehouse
        self.workdir = workdir
        self.args = args
        self.restart_delay = restart_delay
        self.proc: subprocess.Popen[bytes] | None = None
        self.status_path = workdir / f"{name}-status.json"
        self.log_path = workdir / f"{name}.log"
        self.starts = 0
        self.exits: Counter[int] = Counter()
        self._down_since: float | None = None
        self.retired = False
        self.totals: Counter[str] = Counter()

    @property
    def restarts(self) -> int:
        return max(0, self.starts - 1)

    def start(self) -> None:
        self.status_path.unlink(missing_ok=True)
        self.proc = start_worker(self.bootstrap, self.warehouse, self.status_path, self.log_path,
                                 args=["--datadir", str(self.workdir / f"{self.name}-faust"), *self.args])
        self.starts += 1
        self._down_since = None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def status(self) -> dict[str, Any]:
        """The current process's status file (``{}`` before its first write)."""
        return read_status(self.status_path) if self.running else {}

    def supervise(self) -> None:
        """Restart the worker if it exited and ``restart_delay`` has passed since."""
        if self.retired or self.proc is None or self.proc.poll() is None:
            return
        now = time.monotonic()
        if self._down_since is None:
            self._down_since = now
            self.exits[self.proc.returncode] += 1
            self._collect()
        if now - self._down_since >= self.restart_delay:
            self.start()

    def kill(self) -> None:
        """SIGKILL the worker (it is restarted by :meth:`supervise`)."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> None:
        """Stop for good (SIGTERM: the batch in flight finishes and is committed)."""
        if self.retired:
            return
        self.retired = True
        if self.proc is not None:
            if self.proc.poll() is None:
                stop_worker(self.proc, 90)
            self._collect()

    def _collect(self) -> None:
        counters = read_status(self.status_path).get("counters", {})
        self.totals.update({k: int(v) for k, v in counters.items() if k in ("consumed", "skipped")})

    def log_tail(self, n: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-n:]
        except OSError:
            return ""


@dataclass
class Snapshot:
    """What a run left: per sink table ``{id: rows stored}`` (counted without FINAL), the
    alerts ``{id: (kind, table_id, evidence)}``, the rejected and parked rows ``{id: (raw,
    reason)}``, the output topics' distinct ids, whether ``table_hourly`` sums equal the
    settlements', every distinct alert row per id (``alert_rows``: the values of
    :data:`ALERT_COLUMNS`; more than one row for an id means its rows differ) and the ``skipped``
    rows ``{skip_id: reason}``."""

    rows: dict[str, dict[str, int]]
    alerts: dict[str, tuple[str, str, tuple[str, ...]]]
    rejected: dict[str, tuple[str, str]]
    topic_ids: dict[str, set[str]]
    topic_messages: dict[str, int]
    hourly_matches: bool
    alert_rows: dict[str, set[tuple[Any, ...]]] = field(default_factory=dict)
    parked: dict[str, tuple[str, str]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)


@dataclass
class RunResult:
    """A finished run: its snapshot, the workers' restarts and exits, the time it took."""

    snapshot: Snapshot
    restarts: int
    exits: dict[str, int]
    seconds: float
    sent: int
    events: list[str] = field(default_factory=list)
    error: str | None = None
    consumed: int = 0
    skipped: int = 0
    #: messages the scenario put on ``pitwatch.round-digests`` itself (scenarios f and g)
    injected: list[Any] = field(default_factory=list)


ProgressFn = Callable[[str, int, int], None]
"""``progress(description, committed, total)``."""


class PipelineRun:
    """Broker + database + workers for one run. Use as a context manager.

    ``clickhouse_url``: ``clickhouse://host:port/`` base of the server (a database name of
    this run's own is appended); ``partitions`` of the input topic; ``worker_args`` extra
    ``pitwatch worker`` options.
    """

    def __init__(self, name: str, workdir: Path, clickhouse_url: str, *, partitions: int = 4,
                 worker_args: tuple[str, ...] = (), restart_delay: float = 5.0,
                 progress: ProgressFn | None = None, on_note: Callable[[str], None] | None = None) -> None:
        self.name = name
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self.database = f"rel_{name}_{uuid.uuid4().hex[:8]}"
        self.warehouse = f"{clickhouse_url.rstrip('/')}/{self.database}"
        self.partitions = partitions
        self.worker_args = ("--partitions", str(partitions), *worker_args)
        self.restart_delay = restart_delay
        self.broker = LocalBroker(log_dir=workdir)
        self.workers: list[WorkerSlot] = []
        self.progress = progress or (lambda _d, _c, _t: None)
        self.on_note = on_note or (lambda _text: None)
        self.notes: list[str] = []
        self._t0 = time.monotonic()
        #: while :meth:`run` runs: input messages committed by the group at the last check, and
        #: whether everything was produced and committed then
        self.committed = 0
        self.caught_up = False

    def __enter__(self) -> PipelineRun:
        self.broker.start()
        self.broker.create_topics(list(ALL_TOPICS), partitions=self.partitions)
        return self

    def __exit__(self, *exc_info: object) -> None:
        for w in self.workers:
            w.retired = True
            if w.proc is not None and w.proc.poll() is None:
                w.proc.kill()
                w.proc.wait(30)
        self.broker.stop()

    @property
    def bootstrap(self) -> str:
        return self.broker.bootstrap

    def elapsed(self) -> float:
        return time.monotonic() - self._t0

    def note(self, text: str) -> None:
        """Record what the scenario did, with the time since the run started."""
        line = f"{self.elapsed():.1f} s: {text}"
        self.notes.append(line)
        self.on_note(f"{self.name}: {line}")

    def add_worker(self, name: str | None = None) -> WorkerSlot:
        slot = WorkerSlot(name or f"worker{len(self.workers) + 1}", self.bootstrap, self.warehouse, self.workdir,
                          args=self.worker_args, restart_delay=self.restart_delay)
        slot.start()
        self.workers.append(slot)
        return slot

    def run(self, producer: BackgroundProducer, total: int, description: str,
            tick: Callable[[PipelineRun], bool] | None = None, timeout: float = 900.0) -> RunResult:
        """Start ``producer`` (which sends ``total`` messages) and supervise the workers,
        calling ``tick(self)`` about every 0.3 s (it returns True once the scenario has done
        all it does), until everything is produced and committed and ``tick`` is done, and then
        until the watch stage has committed every message of ``pitwatch.round-digests`` (all of
        them are on the topic by then: the table stage commits an input offset only once its
        outputs are flushed, and ``tick`` has sent whatever it sends); then stop the workers and
        read the warehouse and the output topics. Without that wait the workers could be stopped
        before the watch stage had read the last digests and table marks, and the cross-round
        detectors' alerts would depend on timing.

        After ``timeout`` seconds the run is cut short: the result's ``error`` says so (with the
        workers' log tails) and its figures are what the warehouse holds then."""
        producer.start()
        deadline = time.monotonic() + timeout
        last_check = 0.0
        committed = 0
        error: str | None = None
        done = tick is None
        digest_ends: dict[int, int] | None = None
        while True:
            for w in self.workers:
                w.supervise()
            if not done and tick is not None:
                done = tick(self)
            if producer.error is not None:
                error = f"producer failed: {producer.error!r}"
                break
            now = time.monotonic()
            if now - last_check >= 1.0:
                last_check = now
                committed, _end = group_progress(self.bootstrap, TOPIC_EVENTS, APP_ID)
                self.committed, self.caught_up = committed, producer.done and committed >= total
                self.progress(description, committed, total)
                if self.caught_up and done:
                    if digest_ends is None:
                        digest_ends = topic_ends(self.bootstrap, TOPIC_ROUND_DIGESTS)
                        self.note(f"input committed; waiting for the watch stage to commit "
                                  f"{sum(digest_ends.values()):,} round digest offsets")
                    if committed_to_the_end(self.bootstrap, TOPIC_ROUND_DIGESTS, APP_ID, digest_ends):
                        break
            if now > deadline:
                tails = "\n".join(f"--- {w.name}\n{w.log_tail()}" for w in self.workers)
                error = (f"run {self.name}: {committed} of {total} input messages committed after "
                         f"{timeout:.0f} s{'' if done else ' (the scenario had not done all it does)'}\n{tails}")
                break
            time.sleep(0.3)
        for w in self.workers:
            w.stop()
        exits: Counter[int] = Counter()
        totals: Counter[str] = Counter()
        for w in self.workers:
            exits.update(w.exits)
            totals.update(w.totals)
        return RunResult(snapshot=self.snapshot(), restarts=sum(w.restarts for w in self.workers),
                         exits={str(k): v for k, v in sorted(exits.items())}, seconds=self.elapsed(),
                         sent=producer.sent, events=list(self.notes), error=error,
                         consumed=totals["consumed"], skipped=totals["skipped"])

    def snapshot(self) -> Snapshot:
        """Read the warehouse (ids per table without FINAL, alerts, rejected rows, the hourly
        aggregate check) and the output topics."""
        from pitwatch.warehouse import open_warehouse

        wh = open_warehouse(self.warehouse)
        try:
            q = wh.query
            rows = {t: {r[0]: int(r[1]) for r in q(f"SELECT {c}, count() FROM pitwatch.{t} GROUP BY {c}")}
                    for t, c in ID_COLUMNS.items()}
            alerts = {r[0]: (r[1], r[2], tuple(r[3])) for r in q(
                "SELECT alert_id, any(kind), any(table_id), any(evidence) FROM pitwatch.alerts GROUP BY alert_id")}
            alert_rows: dict[str, set[tuple[Any, ...]]] = {}
            for r in q(f"SELECT {', '.join(ALERT_COLUMNS)} FROM pitwatch.alerts"):
                alert_rows.setdefault(r[0], set()).add(tuple(tuple(v) if isinstance(v, list) else v for v in r))
            rejected = {r[0]: (r[1], r[2]) for r in q(
                "SELECT reject_id, any(raw), any(reason) FROM pitwatch.rejected GROUP BY reject_id")}
            parked = {r[0]: (r[1], r[2]) for r in q(
                "SELECT parked_id, any(raw), any(reason) FROM pitwatch.parked GROUP BY parked_id")}
            skipped = {r[0]: r[1] for r in q("SELECT skip_id, any(reason) FROM pitwatch.skipped GROUP BY skip_id")}
            hourly = q("SELECT toString(sum(bets)), toString(sum(handle)), toString(sum(win)), "
                       "toString(sum(discrepancies)), toString(sum(discrepancy_amount)), toString(sum(drop)) "
                       "FROM pitwatch.table_hourly")[0]
            direct = q("SELECT toString(count()), toString(sum(handle)), toString(sum(win)), "
                       "toString(countIf(discrepancy != 0)), toString(sum(abs(discrepancy))), "
                       "(SELECT toString(sum(amount)) FROM pitwatch.movements FINAL WHERE kind = 'drop') "
                       "FROM pitwatch.settlements FINAL")[0]
        finally:
            wh.close()
        topic_ids: dict[str, set[str]] = {}
        topic_messages: dict[str, int] = {}
        for topic, key in TOPIC_IDS.items():
            values = read_topic(self.bootstrap, topic)
            topic_messages[topic] = len(values)
            topic_ids[topic] = {json.loads(v)[key] for v in values}
        return Snapshot(rows, alerts, rejected, topic_ids, topic_messages,
                        hourly_matches=_decimals(hourly) == _decimals(direct), alert_rows=alert_rows,
                        parked=parked, skipped=skipped)


def _decimals(values: tuple) -> tuple:
    from decimal import Decimal

    return tuple(Decimal(v or "0") for v in values)


def read_topic(bootstrap: str, topic: str, timeout: float = 60.0) -> list[bytes]:
    """Every message value of ``topic`` up to its current end (no consumer group joined)."""
    from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"reliability-read-{uuid.uuid4().hex[:8]}",
                  "enable.auto.commit": False, "fetch.message.max.bytes": MAX_MESSAGE_BYTES})
    try:
        parts = sorted(c.list_topics(topic, timeout=10).topics[topic].partitions)
        ends = {}
        for p in parts:
            low, high = c.get_watermark_offsets(TopicPartition(topic, p), timeout=10)
            if high > low:
                ends[p] = high
        c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in ends])
        out: list[bytes] = []
        deadline = time.monotonic() + timeout
        while ends:
            for m in c.consume(1000, 0.5):
                if m.error() is not None:
                    continue
                out.append(m.value() or b"")
                if (m.offset() or 0) + 1 >= ends.get(m.partition() or 0, 0):
                    ends.pop(m.partition(), None)
            if time.monotonic() > deadline:
                raise RuntimeError(f"could not read {topic} to its end within {timeout:.0f} s")
        return out
    finally:
        c.close()


def rejected_raw(value: bytes) -> str:
    """How the ``rejected`` table stores a message's bytes (``raw``: UTF-8, invalid bytes as
    backslash escapes; :func:`pitwatch.streams.processor.rejected_record`)."""
    return value.decode("utf-8", errors="backslashreplace")


def b64(value: bytes) -> str:
    return base64.b64encode(value).decode()
