"""Poker hands per second through the rules engine: ``.venv/bin/python -m bench.poker``.

The 999 real hands of ``tests/data/phh`` (Absolute Poker, 2009), imported once with ``pitwatch
import phh``, are judged by the engine as the worker judges them (parse, validate, sequence checks,
fold, pots, showdown, settle, alerts, and the watch stage's detectors on each hand:
:func:`pitwatch.replay.replay_lines`), ``--repeat`` times; the best run counts; and the rules engine
alone (the same replay without the detectors). Baseline in the same run: pokerkit replaying the same
hands from the PHH file (``HandHistory`` iteration, the library's own fold of a hand). Prints hands/s and events/s of both
and their ratio, the engine's time per hand (p50, p99: from a hand's first event to its verdict) and
the peak memory of the process.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
import warnings
from pathlib import Path

from pitwatch.detectors.auditor import TableAuditor
from pitwatch.replay import replay_lines
from pitwatch.schemas.events import dump_event, parse_event
from pitwatch.schemas.phh import import_phh

PHH = Path(__file__).resolve().parents[1] / "tests" / "data" / "phh" / "abs-100NLH-handhq_1.phhs"


def _pokerkit_pass(path: Path) -> tuple[float, int]:
    from pokerkit import HandHistory

    with path.open("rb") as f:
        histories = list(HandHistory.load_all(f))
    t = time.perf_counter()
    for hh in histories:
        for _ in hh:
            pass
    return time.perf_counter() - t, len(histories)


def _per_hand_latency(lines: list[bytes]) -> list[float]:
    """Seconds from each hand's ``round_started`` to its verdict, folding event by event."""
    auditors: dict[str, TableAuditor] = {}
    started: dict[str, float] = {}
    out = []
    for ln in lines:
        ev = parse_event(ln)
        t0 = time.perf_counter()
        aud = auditors.setdefault(ev.table_id, TableAuditor(ev.table_id))
        if ev.type == "round_started":
            started[ev.table_id] = 0.0
        res = aud.feed(ev)
        if ev.table_id in started:
            started[ev.table_id] += time.perf_counter() - t0
        if res.verdicts:
            out.append(started.pop(ev.table_id, 0.0))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.poker", description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="Runs of each measurement; the best counts.")
    args = ap.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        events = list(import_phh(PHH))
        lines = [dump_event(e) for e in events]
        hands = sum(1 for e in events if e.type == "round_started")
        base = min(_pokerkit_pass(PHH)[0] for _ in range(args.repeat))
    best, alone = float("inf"), float("inf")
    for _ in range(args.repeat):
        t = time.perf_counter()
        judged = sum(1 for it in replay_lines(lines) if it.verdict is not None)
        best = min(best, time.perf_counter() - t)
        t = time.perf_counter()
        sum(1 for it in replay_lines(lines, detectors=False) if it.verdict is not None)
        alone = min(alone, time.perf_counter() - t)
    assert judged == hands
    lat = sorted(_per_hand_latency(lines))
    p50, p99 = statistics.median(lat), lat[int(0.99 * (len(lat) - 1))]
    result = {
        "hands": hands, "events": len(lines),
        "engine_hands_per_s": round(hands / best), "engine_events_per_s": round(len(lines) / best),
        "pokerkit_hands_per_s": round(hands / base),
        "engine_over_pokerkit": round(base / best, 2),
        "rules_engine_alone_hands_per_s": round(hands / alone),
        "rules_engine_alone_over_pokerkit": round(base / alone, 2),
        "hand_latency_us_p50": round(p50 * 1e6), "hand_latency_us_p99": round(p99 * 1e6),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
