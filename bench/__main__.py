"""pitwatch benchmarks: ``python -m bench`` (or ``make bench``).

Three measurements, each against a baseline taken in the same run (ratios, because these
machines are noisy):

1. **engine**: rules-engine replay of a simulated JSONL file on one core (parse, validate,
   sequence checks, fold, settle, check, alerts), in events/s; baseline: ``json.loads`` of the
   same lines.
2. **pipeline**: one ``pitwatch worker`` (Faust, chDB sink) draining pre-produced events from
   the local broker, in events/s; baseline: a bare confluent-kafka consumer reading the same
   topic.
3. **latency**: produce→alert latency p50/p99 at a fixed offered rate (default 1,000 events/s),
   measured from the produce call of the event that triggered each alert to the alert's
   arrival on ``pitwatch.alerts``; baseline: produce→consume latency of the events themselves
   through the broker (a plain consumer with the worker's 100 ms fetch wait).

Memory: peak RSS of the benchmark process and of the worker.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from pitwatch.streams.status import read_status
from pitwatch.streams.supervisor import start_worker, stop_worker


def _rss_mb(who=resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


def make_events(path: Path, tables: int, hours: float, seed: int) -> int:
    from pitwatch.sim import write_simulation
    from pitwatch.sim.base import DEFAULT_FAULT_RATES

    n, _ = write_simulation(path, tables=tables, hours=hours, seed=seed, fault_rates=DEFAULT_FAULT_RATES)
    return n


def bench_engine(path: Path, repeat: int) -> dict:
    from pitwatch.replay import replay_lines

    lines = path.read_bytes().splitlines()
    best_base = best = float("inf")
    rounds = 0
    for _ in range(repeat):
        t = time.perf_counter()
        for ln in lines:
            json.loads(ln)
        best_base = min(best_base, time.perf_counter() - t)
        t = time.perf_counter()
        rounds = sum(1 for it in replay_lines(lines) if it.verdict is not None)
        best = min(best, time.perf_counter() - t)
    n = len(lines)
    return {"events": n, "rounds": rounds, "engine_eps": n / best, "json_loads_eps": n / best_base,
            "ratio_vs_json_loads": (n / best) / (n / best_base), "rss_mb": _rss_mb()}


def bench_baseline_consume(bootstrap: str, topic: str, n: int) -> float:
    from confluent_kafka import Consumer

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"bench-{uuid.uuid4().hex[:6]}",
                  "auto.offset.reset": "earliest", "enable.auto.commit": False})
    c.subscribe([topic])
    got = 0
    t0 = None
    while got < n:
        msgs = c.consume(10000, 1.0)
        if msgs and t0 is None:
            t0 = time.perf_counter()
        got += sum(1 for m in msgs if not m.error())
    dt = time.perf_counter() - t0
    c.close()
    return n / dt


def bench_pipeline(path: Path, work: Path) -> dict:
    from pitwatch.streams.broker import LocalBroker
    from pitwatch.streams.producer import produce_jsonl
    from pitwatch.streams.topics import TOPIC_ALERTS, TOPIC_EVENTS, TOPIC_REJECTED, TOPIC_SETTLEMENTS

    with LocalBroker(log_dir=work) as broker:
        broker.create_topics([TOPIC_EVENTS, TOPIC_SETTLEMENTS, TOPIC_ALERTS, TOPIC_REJECTED], partitions=12)
        n = produce_jsonl(path, broker.bootstrap, TOPIC_EVENTS)
        base = bench_baseline_consume(broker.bootstrap, TOPIC_EVENTS, n)
        status = work / "status.json"
        proc = start_worker(broker.bootstrap, f"chdb://{work / 'wh'}", status, work / "worker.log")
        try:
            first_t = first_n = None
            while True:
                st = read_status(status)
                done = int(st.get("consumed", 0))
                now = time.perf_counter()
                if done and first_t is None:
                    first_t, first_n = now, done
                if done >= n:
                    break
                if proc.poll() is not None:
                    raise RuntimeError(f"worker died, see {work / 'worker.log'}")
                time.sleep(0.05)
            eps = (n - first_n) / (now - first_t) if now > first_t else float("nan")
        finally:
            stop_worker(proc)
    return {"events": n, "pipeline_eps": eps, "raw_consume_eps": base, "ratio_vs_raw_consume": eps / base,
            "worker_rss_mb": _rss_mb(resource.RUSAGE_CHILDREN)}


def bench_latency(path: Path, work: Path, rate: float, seconds: float) -> dict:
    from confluent_kafka import Consumer, Producer
    from pitwatch.streams.broker import LocalBroker
    from pitwatch.streams.topics import TOPIC_ALERTS, TOPIC_EVENTS, TOPIC_REJECTED, TOPIC_SETTLEMENTS

    lines = path.read_bytes().splitlines()[: int(rate * seconds)]
    with LocalBroker(log_dir=work) as broker:
        broker.create_topics([TOPIC_EVENTS, TOPIC_SETTLEMENTS, TOPIC_ALERTS, TOPIC_REJECTED], partitions=12)
        status = work / "status-lat.json"
        proc = start_worker(broker.bootstrap, f"chdb://{work / 'wh-lat'}", status, work / "worker-lat.log")
        try:
            # one consumer reads the alerts and, as the baseline, the events themselves
            # (produce->consume through the broker alone, same fetch wait as the worker)
            cons = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "bench-lat",
                             "auto.offset.reset": "earliest", "enable.auto.commit": False,
                             "fetch.wait.max.ms": 100})
            cons.subscribe([TOPIC_ALERTS, TOPIC_EVENTS])
            prod = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 1})
            sent: dict[str, float] = {}
            lat: list[float] = []
            base: list[float] = []

            def take(timeout: float) -> int:
                """Read what has arrived (in batches: one message per call would make this
                loop, not the pipeline, the bottleneck); returns the number read."""
                msgs = cons.consume(500, timeout)
                now = time.perf_counter()
                for m in msgs:
                    if m.error():
                        continue
                    try:
                        doc = json.loads(m.value())
                    except ValueError:
                        continue  # the warm-up message
                    if m.topic() == TOPIC_EVENTS:
                        if doc.get("event_id") in sent:
                            base.append(now - sent[doc["event_id"]])
                    elif doc.get("trigger_event_id") in sent:
                        lat.append(now - sent[doc["trigger_event_id"]])
                return len(msgs)

            # warm-up: the worker has joined its group and processed a message, and the alert
            # consumer has its partitions
            prod.produce(TOPIC_EVENTS, b"{warm-up: not json", key=b"warmup")
            prod.flush()
            deadline = time.time() + 90
            while (int(read_status(status).get("consumed", 0)) < 1 or not cons.assignment()) \
                    and time.time() < deadline:
                take(0.2)
                if proc.poll() is not None:
                    raise RuntimeError(f"worker died, see {work / 'worker-lat.log'}")
            t0 = time.perf_counter()
            for i, ln in enumerate(lines):
                due = t0 + i / rate
                while (now := time.perf_counter()) < due:
                    take(0)
                    time.sleep(min(0.001, due - now))
                ev = json.loads(ln)
                prod.produce(TOPIC_EVENTS, ln, key=ev["table_id"].encode())
                sent[ev["event_id"]] = time.perf_counter()
                prod.poll(0)
            prod.flush()
            end = time.perf_counter() + 20
            while time.perf_counter() < end:
                if take(0.2):
                    end = time.perf_counter() + 3
            cons.close()
        finally:
            stop_worker(proc)
    lat.sort()
    base.sort()

    def q(xs: list[float], p: float) -> float:
        return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else float("nan")

    return {"offered_eps": rate, "events": len(lines), "alerts_timed": len(lat),
            "p50_s": q(lat, 0.50), "p99_s": q(lat, 0.99), "max_s": lat[-1] if lat else float("nan"),
            "mean_s": statistics.fmean(lat) if lat else float("nan"),
            "baseline_events_timed": len(base), "baseline_p50_s": q(base, 0.50),
            "baseline_p99_s": q(base, 0.99), "p99_ratio_vs_baseline": q(lat, 0.99) / q(base, 0.99)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=36, help="simulated tables in the events file")
    ap.add_argument("--hours", type=float, default=3.0,
                    help="simulated hours (36 x 3 h: ~155k events, long enough that start-up does not dominate)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=3, help="engine runs (best of)")
    ap.add_argument("--rate", type=float, default=1000.0, help="offered rate for the latency run")
    ap.add_argument("--seconds", type=float, default=30.0, help="duration of the latency run")
    ap.add_argument("--only", choices=("engine", "pipeline", "latency"), action="append")
    args = ap.parse_args(argv)
    only = set(args.only or ("engine", "pipeline", "latency"))
    work = Path(tempfile.mkdtemp(prefix="pitwatch-bench-"))
    path = work / "events.jsonl"
    n = make_events(path, args.tables, args.hours, args.seed)
    print(f"# events file: {n} events ({args.tables} tables, {args.hours} h, seed {args.seed})")
    results = {}
    if "engine" in only:
        r = bench_engine(path, args.repeat)
        results["engine"] = r
        print(f"engine    : {r['engine_eps']:>10,.0f} events/s (1 core)  | baseline json.loads "
              f"{r['json_loads_eps']:,.0f}/s  ratio {r['ratio_vs_json_loads']:.3f}  | rss {r['rss_mb']:.0f} MB")
    if "pipeline" in only:
        r = bench_pipeline(path, work)
        results["pipeline"] = r
        print(f"pipeline  : {r['pipeline_eps']:>10,.0f} events/s (1 worker) | baseline raw consume "
              f"{r['raw_consume_eps']:,.0f}/s  ratio {r['ratio_vs_raw_consume']:.3f}  | worker rss {r['worker_rss_mb']:.0f} MB")
    if "latency" in only:
        r = bench_latency(path, work, args.rate, args.seconds)
        results["latency"] = r
        print(f"latency   : produce->alert p50 {r['p50_s'] * 1000:,.0f} ms  p99 {r['p99_s'] * 1000:,.0f} ms  "
              f"max {r['max_s'] * 1000:,.0f} ms at {r['offered_eps']:,.0f} events/s offered "
              f"({r['alerts_timed']} alerts timed) | baseline produce->consume p50 "
              f"{r['baseline_p50_s'] * 1000:,.0f} ms  p99 {r['baseline_p99_s'] * 1000:,.0f} ms  "
              f"p99 ratio {r['p99_ratio_vs_baseline']:.1f}")
    (work / "results.json").write_text(json.dumps(results, indent=2))
    print(f"# results: {work / 'results.json'}")


if __name__ == "__main__":
    main()
