"""The clean run and the seven scenarios of the reliability run.

Every run simulates the same evening (same tables, hours and seed), on a fresh broker and a
fresh database of the same ClickHouse 18.16 server, with ``pitwatch worker`` processes
supervised like the systemd unit (restart on failure after ``restart_delay`` s). The clean run
sends the evening alone, at once, to one worker. Each scenario sends the evening with bad
messages interleaved (:mod:`reliability.malformed`; scenario a ``malformed`` of them, the
others ``background`` of them), paced over ``seconds`` so that its faults happen while events
are still arriving:

- **a**: malformed messages only (the full mix);
- **b**: the worker SIGKILLed ``kills`` times at random points (a random 1-3 batches after
  its start, plus up to 1 s) and restarted by the supervisor; its messages are paced over at
  least 20 s per kill, so that the kills fall while events are arriving;
- **c**: the ClickHouse server stopped (SIGTERM) for ``outage`` s a third of the way through
  and started again on the same port and data; the worker exits 70 when a batch cannot be
  stored and is restarted;
- **d**: two workers in one consumer group; a third joins a third of the way through and
  leaves (SIGTERM) at two thirds (two rebalances);
- **e**: the messages produced by Debian's ``kcat`` instead of the Python client;
- **f**: one worker; while events arrive, a share (``resend_share``) of the round digests the
  table stage sends is read back and sent again at new offsets (:class:`reliability.digests.DigestResender`);
- **g**: one worker; a third of the way through, for each of up to three casinos, a digest with a
  time without a zone and a poison digest (valid; a detector raises on it) are sent
  (:func:`reliability.digests.bad_digests`).

Scenarios a and d-g must run without a worker restart.

Each is compared with the clean run (:func:`reliability.figures.compare`).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pitwatch.streams.topics import TOPIC_EVENTS

from reliability.digests import DigestResender, bad_digests, produce_to, read_digests
from reliability.figures import Figures, compare
from reliability.harness import PipelineRun, RunResult, Snapshot, alert_row
from reliability.kafka import BackgroundProducer, Message, produce_kcat, produce_python
from reliability.malformed import DEFAULT_KINDS, Bad, interleave
from reliability.servers import LocalClickHouse, kcat_environment


@dataclass
class Settings:
    """What to run (CLI options of ``python -m reliability``)."""

    tables: int = 24
    hours: float = 2.0
    seed: int = 20261125
    malformed: int = 10_000
    background: int = 1_000
    seconds: float = 60.0
    partitions: int = 6
    kills: int = 5
    outage: float = 30.0
    restart_delay: float = 5.0
    timeout: float = 900.0
    kinds: tuple[str, ...] = DEFAULT_KINDS
    resend_share: float = 0.5
    collusion: float = 0.3


@dataclass
class Context:
    """Shared by the runs: settings, work directory, the ClickHouse server (``clickhouse_url``:
    ``clickhouse://host:port``; ``clickhouse``: the server process, which scenario c stops and
    starts, None for a server started elsewhere), the evening, the clean run's snapshot, and
    the display callbacks."""

    settings: Settings
    workdir: Path
    clickhouse_url: str
    clickhouse: LocalClickHouse | None
    evening: list[bytes]
    progress: Callable[[str, int, int], None] = lambda _d, _c, _t: None
    note: Callable[[str], None] = lambda _text: None
    clean: Snapshot | None = None
    clean_seconds: float = 0.0
    #: the clean run against the offline replay: ``{table: [ids missing, ids extra]}``
    clean_vs_replay: dict[str, list[int]] = field(default_factory=dict)
    _mixes: dict[tuple[int, int], tuple[list[Message], list[Bad]]] = field(default_factory=dict)

    def mix(self, n: int, seed_offset: int) -> tuple[list[Message], list[Bad]]:
        key = (n, seed_offset)
        if key not in self._mixes:
            self._mixes[key] = interleave(self.evening, n, self.settings.seed + seed_offset, self.settings.kinds)
        return self._mixes[key]

    def pipeline(self, name: str) -> PipelineRun:
        s = self.settings
        return PipelineRun(name, self.workdir / name, self.clickhouse_url,
                           partitions=s.partitions, restart_delay=s.restart_delay, progress=self.progress,
                           on_note=self.note)


def simulate_evening(settings: Settings) -> list[bytes]:
    """The evening's events (JSON lines) with the simulator's default fault rates, and, when
    ``settings.collusion`` is not 0, each table's first dealer over-paying his partner at that rate
    (``dealer_collusion``), so that the watch stage's detectors raise alerts whose messages quote
    the counts of the moment they fire (24 tables x 2 h at 0.3: five ``dealer_player_collusion``)."""
    import json

    from pitwatch.sim.base import DEFAULT_FAULT_RATES, simulate

    rates = dict(DEFAULT_FAULT_RATES, dealer_collusion=settings.collusion) if settings.collusion else DEFAULT_FAULT_RATES
    events, _labels = simulate(settings.tables, settings.hours, settings.seed, rates)
    return [json.dumps(e, separators=(",", ":")).encode() for e in events]


def _keyed(evening: list[bytes]) -> list[Message]:
    import json

    return [(json.loads(ln)["table_id"].encode(), ln) for ln in evening]


def replay_oracle(evening: list[bytes]) -> tuple[dict[str, set[str]], dict[str, set[tuple[Any, ...]]]]:
    """What the offline replay (:func:`pitwatch.replay.replay_lines`, one process, no Kafka)
    derives from the evening: the ids of ``events_raw``, ``settlements`` and ``alerts``, and every
    alert's row as the warehouse gives it back (:func:`reliability.harness.alert_row`)."""
    import json

    from pitwatch.detectors.alerts import settlement_id
    from pitwatch.replay import replay_lines

    settlements: set[str] = set()
    alerts: dict[str, set[tuple[Any, ...]]] = {}
    for item in replay_lines(evening):
        if item.verdict is not None:
            v = item.verdict
            settlements.update(settlement_id(v.table_id, v.round_id, c.expected.bet_id) for c in v.checks)
        for a in item.alerts:
            alerts.setdefault(a.alert_id, set()).add(alert_row(a.to_row()))
    return {"events_raw": {json.loads(ln)["event_id"] for ln in evening}, "settlements": settlements,
            "alerts": set(alerts)}, alerts


def clean_run(ctx: Context) -> RunResult:
    """The evening alone, produced at once, one worker, nothing done to it; checked against the
    offline replay of the same events (``ctx.clean_vs_replay``)."""
    stream = _keyed(ctx.evening)
    with ctx.pipeline("clean") as run:
        run.add_worker()
        prod = BackgroundProducer(lambda p: produce_python(stream, run.bootstrap, TOPIC_EVENTS, progress=p))
        result = run.run(prod, len(stream), "clean run", timeout=ctx.settings.timeout)
    ctx.clean = result.snapshot
    ctx.clean_seconds = result.seconds
    oracle, rows = replay_oracle(ctx.evening)
    ctx.clean_vs_replay = {t: [len(ids - set(result.snapshot.rows[t])), len(set(result.snapshot.rows[t]) - ids)]
                           for t, ids in oracle.items()}
    # every alert row, not only the ids: an alert the clean run stores with another message or
    # score than the replay's (the oracle of the oracle) is counted, with the replay's alerts missing
    ctx.clean_vs_replay["alert rows"] = [sum(1 for aid, want in rows.items()
                                             if aid in result.snapshot.alert_rows and result.snapshot.alert_rows[aid] != want),
                                         0]
    if result.error:
        ctx.clean_vs_replay["error"] = [1, 0]
    return result


def _rate(ctx: Context, n: int) -> float | None:
    return n / ctx.settings.seconds if ctx.settings.seconds > 0 else None


def _python(ctx: Context, run: PipelineRun, stream: list[Message]) -> BackgroundProducer:
    rate = _rate(ctx, len(stream))
    return BackgroundProducer(lambda p: produce_python(stream, run.bootstrap, TOPIC_EVENTS, rate=rate, progress=p))


def scenario_a(ctx: Context) -> tuple[RunResult, list[Bad]]:
    stream, bads = ctx.mix(ctx.settings.malformed, 1)
    with ctx.pipeline("a") as run:
        run.add_worker()
        result = run.run(_python(ctx, run, stream), len(stream), "a: malformed messages", timeout=ctx.settings.timeout)
    return result, bads


def scenario_b(ctx: Context) -> tuple[RunResult, list[Bad]]:
    s = ctx.settings
    stream, bads = ctx.mix(s.background, 2)
    rng = random.Random(s.seed + 2)
    state: dict[str, Any] = {"kills": 0, "after": rng.randint(1, 3), "at": None}

    def tick(run: PipelineRun) -> bool:
        if state["kills"] >= s.kills:
            return True
        w = run.workers[0]
        if not w.running:
            return False
        status = w.status()
        batches = int(status.get("batches", 0))
        if state["at"] is None:
            # a random point: 1-3 batches into the (re)started worker plus up to 1 s, or, once
            # everything is committed, any moment the worker is up
            if batches >= state["after"] or (run.caught_up and status):
                state["at"] = time.monotonic() + rng.uniform(0, 1.0)
        elif time.monotonic() >= state["at"]:
            idle = run.caught_up
            w.kill()
            state["kills"] += 1
            run.note(f"SIGKILL {state['kills']}/{s.kills} ({batches} batches into that worker"
                     f"{'; everything committed, worker idle' if idle else ''})")
            state["after"], state["at"] = rng.randint(1, 3), None
        return False

    with ctx.pipeline("b") as run:
        run.add_worker()
        # each kill costs a restart (restart_delay + start-up): pace over long enough that the
        # kills fall while events are still arriving
        seconds = max(s.seconds, s.kills * 20.0) if s.seconds > 0 else 0.0
        rate = len(stream) / seconds if seconds else None
        prod = BackgroundProducer(lambda p: produce_python(stream, run.bootstrap, TOPIC_EVENTS, rate=rate, progress=p))
        result = run.run(prod, len(stream), "b: SIGKILLs", tick=tick, timeout=s.timeout)
    return result, bads


def scenario_c(ctx: Context) -> tuple[RunResult, list[Bad]]:
    s = ctx.settings
    stream, bads = ctx.mix(s.background, 3)
    server = ctx.clickhouse
    if server is None:
        raise ValueError("scenario c stops the ClickHouse server: it needs one the run started itself")
    state: dict[str, Any] = {"stopped_at": None, "done": False}
    start = s.seconds / 3

    def tick(run: PipelineRun) -> bool:
        if state["done"]:
            return True
        w = run.workers[0]
        if state["stopped_at"] is None:
            if run.elapsed() >= start and w.running and int(w.status().get("batches", 0)) >= 1:
                server.stop()
                state["stopped_at"] = time.monotonic()
                run.note(f"ClickHouse server stopped for {s.outage:.0f} s")
        elif time.monotonic() - state["stopped_at"] >= s.outage:
            server.start()
            state["done"] = True
            run.note(f"ClickHouse server started again after {time.monotonic() - state['stopped_at']:.1f} s")
        return False

    with ctx.pipeline("c") as run:
        run.add_worker()
        try:
            result = run.run(_python(ctx, run, stream), len(stream), "c: ClickHouse outage", tick=tick,
                             timeout=s.timeout)
        finally:
            server.start()  # whatever happened, the next runs need it
    return result, bads


def scenario_d(ctx: Context) -> tuple[RunResult, list[Bad]]:
    s = ctx.settings
    stream, bads = ctx.mix(s.background, 4)
    state: dict[str, Any] = {"third": None, "done": False}

    def tick(run: PipelineRun) -> bool:
        if state["done"]:
            return True
        if state["third"] is None:
            if run.elapsed() >= s.seconds / 3 and all(int(w.status().get("batches", 0)) >= 1 for w in run.workers):
                state["third"] = run.add_worker("worker3")
                run.note("worker3 joins the group")
        elif run.elapsed() >= 2 * s.seconds / 3 and int(state["third"].status().get("batches", 0)) >= 1:
            batches = state["third"].status().get("batches", "?")
            state["third"].stop()
            state["done"] = True
            run.note(f"worker3 leaves the group (SIGTERM) after {batches} batches")
        return False

    with ctx.pipeline("d") as run:
        run.add_worker()
        run.add_worker()
        run.note("worker1 and worker2 start in one consumer group")
        result = run.run(_python(ctx, run, stream), len(stream), "d: rebalances", tick=tick, timeout=s.timeout)
    return result, bads


def scenario_e(ctx: Context) -> tuple[RunResult, list[Bad]]:
    s = ctx.settings
    stream, bads = ctx.mix(s.background, 5)
    env = kcat_environment(ctx.workdir / "kcat-lib")
    rate = _rate(ctx, len(stream))
    with ctx.pipeline("e") as run:
        run.add_worker()
        prod = BackgroundProducer(lambda p: produce_kcat(stream, run.bootstrap, TOPIC_EVENTS, env, rate=rate,
                                                         progress=p, workdir=ctx.workdir / "e" / "kcat"))
        result = run.run(prod, len(stream), "e: kcat producer", timeout=s.timeout)
    return result, bads


def scenario_f(ctx: Context) -> tuple[RunResult, list[Bad]]:
    s = ctx.settings
    stream, bads = ctx.mix(s.background, 6)
    state: dict[str, Any] = {"resender": None, "done": False}

    def tick(run: PipelineRun) -> bool:
        if state["done"]:
            return True
        r: DigestResender | None = state["resender"]
        if r is None:
            state["resender"] = DigestResender(run.bootstrap, s.resend_share, s.seed + 6).start()
            run.note(f"re-sending {s.resend_share:.0%} of the round digests at new offsets")
        elif r.error is not None or run.caught_up:
            # every event committed: the table stage has sent its last digest
            r.stop()
            state["done"] = True
            run.note(f"{len(r.copies):,} copies sent of {r.read:,} round digests and marks read"
                     + (f"; the re-sender failed: {r.error!r}" if r.error is not None else ""))
        return False

    with ctx.pipeline("f") as run:
        run.add_worker()
        try:
            result = run.run(_python(ctx, run, stream), len(stream), "f: digests re-sent", tick=tick,
                             timeout=s.timeout)
        finally:
            if state["resender"] is not None:
                state["resender"].stop()
    r = state["resender"]
    result.injected = list(r.copies) if r is not None else []
    if r is not None and r.error is not None:
        result.error = f"{result.error + '; ' if result.error else ''}digest re-sender failed: {r.error!r}"
    return result, bads


def scenario_g(ctx: Context) -> tuple[RunResult, list[Bad]]:
    s = ctx.settings
    stream, bads = ctx.mix(s.background, 7)
    state: dict[str, Any] = {"sent": None, "next": 0.0}

    def tick(run: PipelineRun) -> bool:
        if state["sent"] is not None:
            return True
        if run.elapsed() < s.seconds / 3 or time.monotonic() < state["next"]:
            return False
        state["next"] = time.monotonic() + 2.0
        found = read_digests(run.bootstrap, timeout=2.0)
        if not found:
            return False
        sent = produce_to(run.bootstrap, bad_digests(found))
        state["sent"] = sent
        kinds = Counter(i.kind for i in sent)
        run.note("sent to pitwatch.round-digests: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())))
        return True

    with ctx.pipeline("g") as run:
        run.add_worker()
        result = run.run(_python(ctx, run, stream), len(stream), "g: bad digests", tick=tick, timeout=s.timeout)
    result.injected = list(state["sent"] or [])
    return result, bads


@dataclass(frozen=True)
class Scenario:
    letter: str
    title: str
    run: Callable[[Context], tuple[RunResult, list[Bad]]]
    no_restart: bool = True
    """Whether a worker restart makes the scenario fail (not in b and c, which cause them)."""


SCENARIOS: dict[str, Scenario] = {
    "a": Scenario("a", "malformed messages interleaved", scenario_a),
    "b": Scenario("b", "worker SIGKILLed and restarted", scenario_b, no_restart=False),
    "c": Scenario("c", "ClickHouse server stopped mid-run", scenario_c, no_restart=False),
    "d": Scenario("d", "two workers, a third joins and leaves", scenario_d),
    "e": Scenario("e", "produced by kcat", scenario_e),
    "f": Scenario("f", "round digests re-sent at new offsets", scenario_f),
    "g": Scenario("g", "bad round digests (no zone, poison)", scenario_g),
}


def run_scenario(ctx: Context, letter: str) -> Figures:
    """Run scenario ``letter`` and compare it with the clean run (run first if needed)."""
    if ctx.clean is None:
        clean_run(ctx)
    assert ctx.clean is not None
    sc = SCENARIOS[letter]
    result, bads = sc.run(ctx)
    return compare(letter, sc.title, ctx.clean, result, bads, len(ctx.evening), no_restart=sc.no_restart)
