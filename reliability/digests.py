"""Messages the reliability run puts on ``pitwatch.round-digests`` itself (scenarios f and g), and
how each must be accounted for.

- **f, digests re-sent at new offsets**: :class:`DigestResender` reads the digests the table stage
  sends, with a plain consumer of its own group, while events are arriving, and produces a copy of
  a share of them again (same key, the casino id; same partition; same bytes), as a producer retry
  or a table stage that crashed between its outputs and its states would. The watch stage must read
  each round once: every copy is stored in the ``skipped`` table, at its own position, with the
  reason "already received"; nothing else changes.
- **g, bad digests**: :func:`bad_digests` makes, from a real digest of each casino, (i) the digest
  with a time without a zone (``"ended_at":"2026-11-21T21:04:05"``), which the watch must reject
  with its bytes, and (ii) a poison digest: two bets of one player whose over-payment
  (``discrepancy``) is ``9E+999999`` euros, a finite decimal. Before digests' money was bounded
  (:data:`pitwatch.detectors.digest.MONEY_BOUND`) it passed validation and its sum in the
  dealer-player collusion detector overflowed the decimal context (``decimal.Overflow``; parked,
  the batch run again without it), or, summed with later over-payments, gave an alert the
  warehouse's ``Decimal(18, 2)`` could not store, and the worker exited on that batch at every
  restart. Now it is refused at the door: it must be rejected with its bytes and the reason. (A
  detector that raises on a valid digest is parked: ``tests/test_watch_order.py``.)

The poison digest is of a table the casino never saw (``ZZ-POISON-<n>``) and ends three hours
before the real digest it is made from: a table first seen that far behind the casino's latest
round end is idle at once (``ReleasePolicy.idle``, 2 h), so it holds no watermark back and the
digest would be released in the batch that reads it. A digest of a table the casino saw
would be read as a duplicate when it ends before that table's last round (not judged, so it could
not raise), and one of an unknown table within two hours would hold the casino's release back (see
RELIABILITY.md, "Watch-stage findings of scenarios f and g").
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, replace
from datetime import timedelta
from decimal import Decimal
from typing import Any

from pitwatch.detectors.digest import DigestBet, RoundDigest
from pitwatch.streams.topics import TOPIC_ROUND_DIGESTS

#: The zone-less time of the invalid digest (the issue's example).
NO_ZONE_TIME = "2026-11-21T21:04:05"
#: The over-payment of each of the poison digest's two bets: finite, read by the schema; twice
#: it is beyond the decimal context's largest exponent (999999).
OVERFLOW = Decimal("9E+999999")
#: How far before the real digest the poison one ends: more than ``ReleasePolicy.idle`` (2 h).
POISON_BEFORE = timedelta(hours=3)


@dataclass(frozen=True)
class Injected:
    """One message a scenario put on ``pitwatch.round-digests``, and how it must be accounted for:
    ``outcome`` ``skipped`` (a row of ``skipped`` at ``position``, ``topic:partition:offset``),
    ``rejected`` or ``parked`` (a row of that table holding ``raw``), with a reason containing
    ``reason``."""

    kind: str
    outcome: str
    reason: str
    raw: bytes
    key: bytes = b""
    position: str = ""


#: The kinds of injected digests: ``{kind: (outcome, reason phrase, what is sent)}``.
DIGEST_KINDS: dict[str, tuple[str, str, str]] = {
    "resent_digest": ("skipped", "already received",
                      "a round digest sent again (same key, partition and bytes) at a new offset"),
    "digest_no_zone": ("rejected", "not UTC with its zone",
                       f'a real digest with "ended_at":"{NO_ZONE_TIME}" (a time without a zone)'),
    "poison_digest": ("rejected", "out of range",
                      f"a digest whose two bets over-pay one player {OVERFLOW} euros each (it made the collusion "
                      "detector raise decimal.Overflow before digests' money was bounded)"),
}


def is_mark(value: bytes) -> bool:
    """Whether a message of ``pitwatch.round-digests`` is a table mark (not a round digest)."""
    return value.startswith(b'{"mark"')


def _consumer(bootstrap: str, purpose: str, topic: str) -> Any:
    """A consumer of a group of its own, assigned every partition of ``topic`` from its beginning
    (assigned, not subscribed: no wait for a group to form)."""
    from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"reliability-{purpose}-{uuid.uuid4().hex[:8]}",
                  "enable.auto.commit": False, "auto.offset.reset": "earliest"})
    partitions = c.list_topics(topic, timeout=10).topics[topic].partitions
    c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in sorted(partitions)])
    return c


def _producer(bootstrap: str) -> Any:
    from pitwatch.streams.producer import make_producer

    return make_producer(bootstrap, **{"log_level": 4})


class DigestResender:
    """Scenario f's thread (module docstring): reads ``topic`` from its beginning with a consumer
    group of its own and produces a copy of each round digest (not the marks, not its own copies)
    with probability ``share`` (``seed``: which), to the partition it was read from, under the same
    key. Each batch of copies is flushed before the next read, so every copy's position is known
    (:attr:`copies`). :meth:`stop` ends it; ``error`` is what it raised."""

    def __init__(self, bootstrap: str, share: float, seed: int, topic: str = TOPIC_ROUND_DIGESTS) -> None:
        self.bootstrap = bootstrap
        self.share = share
        self.topic = topic
        self.rng = random.Random(seed)
        self.copies: list[Injected] = []
        self.read = 0
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="digest-resender", daemon=True)

    def start(self) -> DigestResender:
        self._thread.start()
        return self

    def stop(self, timeout: float = 60.0) -> None:
        """Stop reading, flush the last copies and wait for the thread."""
        self._stop.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        try:
            self._loop()
        except BaseException as exc:  # reported by the scenario
            self.error = exc

    def _loop(self) -> None:
        c = _consumer(self.bootstrap, "resend", self.topic)
        prod = _producer(self.bootstrap)
        own: set[tuple[int, int]] = set()
        failed: list[Any] = []

        def delivered(err: Any, msg: Any) -> None:
            if err is not None:
                failed.append(err)
                return
            p, o = msg.partition(), msg.offset()
            own.add((p, o))
            self.copies.append(Injected("resent_digest", "skipped", DIGEST_KINDS["resent_digest"][1], msg.value(),
                                        msg.key() or b"", f"{self.topic}:{p}:{o}"))

        try:
            while not self._stop.is_set():
                sent = 0
                for m in c.consume(500, 0.5):
                    if m.error() is not None or (m.partition(), m.offset()) in own:
                        continue
                    self.read += 1
                    value = m.value() or b""
                    if is_mark(value) or self.rng.random() >= self.share:
                        continue
                    prod.produce(self.topic, value, m.key(), partition=m.partition(), on_delivery=delivered)
                    sent += 1
                if sent and prod.flush(60):
                    raise RuntimeError("copies of round digests not delivered within 60 s")
                if failed:
                    raise RuntimeError(f"copies of round digests not delivered: {failed[:3]}")
        finally:
            prod.flush(60)
            c.close()


def read_digests(bootstrap: str, topic: str = TOPIC_ROUND_DIGESTS, limit: int = 5000,
                 timeout: float = 3.0) -> list[tuple[bytes, bytes, int]]:
    """Up to ``limit`` round digests (not marks) from the beginning of ``topic``, as ``(key, value,
    partition)``; reads for at most ``timeout`` s (fewer, or none, when the topic holds fewer)."""
    c = _consumer(bootstrap, "read", topic)
    out: list[tuple[bytes, bytes, int]] = []
    try:
        deadline = time.monotonic() + timeout
        while len(out) < limit and time.monotonic() < deadline:
            for m in c.consume(500, 0.5):
                if m.error() is None and not is_mark(m.value() or b""):
                    out.append((m.key() or b"", m.value() or b"", m.partition() or 0))
    finally:
        c.close()
    return out[:limit]


def no_zone(raw: bytes) -> bytes:
    """``raw`` (a digest's JSON) with its ``ended_at`` replaced by :data:`NO_ZONE_TIME`."""
    d = json.loads(raw)
    d["ended_at"] = NO_ZONE_TIME
    return json.dumps(d, separators=(",", ":")).encode()


def poison(raw: bytes, n: int) -> bytes:
    """A digest made from ``raw`` that passes validation and makes a detector raise (module
    docstring): table ``ZZ-POISON-<n>``, ending :data:`POISON_BEFORE` before ``raw``'s round, two
    bets of one player over-paid :data:`OVERFLOW` euros each, the dealer kept (the collusion
    detector counts only rounds with a dealer)."""
    d = RoundDigest.from_json(raw)
    player = next((b.player_id for b in d.bets if b.player_id), "P-POISON")
    bets = tuple(DigestBet(f"BET-POISON-{n}-{i}", player, Decimal("10"), Decimal("0"), OVERFLOW, False, Decimal(0), "lose")
                 for i in (1, 2))
    return replace(d, table_id=f"ZZ-POISON-{n}", round_id=f"R-POISON-{n}", dealer_id=d.dealer_id or "D-POISON",
                   ended_at=d.ended_at - POISON_BEFORE, started_at=None, bets=bets, decisions=()).to_json()


def bad_digests(found: list[tuple[bytes, bytes, int]], casinos: int = 3) -> list[tuple[Injected, int]]:
    """For the first digest of each of up to ``casinos`` casinos in ``found`` (from
    :func:`read_digests`): the zone-less digest and the poison digest, each with the partition to
    send it to (the casino's)."""
    out: list[tuple[Injected, int]] = []
    seen: set[bytes] = set()
    for key, value, partition in found:
        if key in seen or len(seen) >= casinos:
            continue
        seen.add(key)
        n = len(seen)
        for kind, raw in (("digest_no_zone", no_zone(value)), ("poison_digest", poison(value, n))):
            outcome, reason, _what = DIGEST_KINDS[kind]
            out.append((Injected(kind, outcome, reason, raw, key), partition))
    return out


def produce_to(bootstrap: str, items: list[tuple[Injected, int]], topic: str = TOPIC_ROUND_DIGESTS) -> list[Injected]:
    """Send each injected message to its partition under its key; the messages with their positions.
    Raises ``RuntimeError`` when one is not delivered."""
    prod = _producer(bootstrap)
    done: list[Injected] = []
    failed: list[Any] = []

    def delivered(err: Any, msg: Any, item: Injected) -> None:
        if err is not None:
            failed.append(err)
        else:
            done.append(replace(item, position=f"{topic}:{msg.partition()}:{msg.offset()}"))

    for item, partition in items:
        prod.produce(topic, item.raw, item.key, partition=partition,
                     on_delivery=lambda err, msg, item=item: delivered(err, msg, item))
    if prod.flush(60) or failed:
        raise RuntimeError(f"bad digests not delivered: {failed[:3]}")
    return done
