"""The watch stage's detectors per round: ``.venv/bin/python -m bench.watch``.

A simulated evening (:mod:`pitwatch.sim`) at a hold'em table with a soft-play and a whipsaw ring and at
a chemin de fer table with an association ring (``--hours`` each) is judged once by the rules engine
(:func:`pitwatch.replay.replay_lines` without detectors: the baseline, timed in the same run), and the
round digests it gives are fed to a casino's watch (:class:`pitwatch.detectors.watch.CasinoWatch`,
every detector), ``--repeat`` times; the best run counts. Prints rounds/s of the engine and of the
watch and their ratio, each detector's time per round (p50, p99, mean), the watch state's size at
the end (its JSON and as stored, compressed) and the peak memory of the process.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time

from pitwatch.detectors.digest import RoundDigest, digest_of
from pitwatch.detectors.watch import CasinoWatch
from pitwatch.replay import replay_lines
from pitwatch.sim.base import chemin_de_fer_table, default_floor, simulate


def evening(hours: float, seed: int) -> list[str]:
    """The evening's events as JSON lines: the floor's hold'em table with both poker rings, a chemin de
    fer table with an association ring, in time order."""
    poker = next(s for s in default_floor(8) if s.game == "poker")
    cdf = chemin_de_fer_table("GAL-CF-09", poker.casino_id, "chemin_de_fer.galicia")
    lines: list[tuple[str, str]] = []
    for spec, rates in ((poker, {"soft_play": 1.0, "whipsaw": 0.5}), (cdf, {"association": 0.5})):
        events, _ = simulate([spec], hours, seed, fault_rates=rates)
        lines += [(e["occurred_at"], json.dumps(e)) for e in events]
    return [line for _, line in sorted(lines)]


def _engine(lines: list[str]) -> tuple[float, list[RoundDigest]]:
    t0 = time.perf_counter()
    digests = [digest_of(item.verdict) for item in replay_lines(lines, detectors=False) if item.verdict is not None]
    return time.perf_counter() - t0, digests


def _watch(digests: list[RoundDigest]) -> tuple[float, dict[str, list[float]], CasinoWatch]:
    watch = CasinoWatch(digests[0].casino_id)
    per: dict[str, list[float]] = {name: [] for name in watch.detectors}
    t0 = time.perf_counter()
    for d in digests:
        for name, det in watch.detectors.items():
            t = time.perf_counter()
            det.observe(d)
            per[name].append(time.perf_counter() - t)
    return time.perf_counter() - t0, per, watch


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.watch", description=__doc__.splitlines()[0])
    ap.add_argument("--hours", type=float, default=40.0, help="hours of play at each table")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    lines = evening(args.hours, args.seed)
    engine, digests = min((_engine(lines) for _ in range(args.repeat)), key=lambda r: r[0])
    runs = [_watch(digests) for _ in range(args.repeat)]
    best, per, watch = min(runs, key=lambda r: r[0])
    n = len(digests)
    print(f"# {n:,} rounds ({sum(d.game == 'poker' for d in digests):,} poker hands, "
          f"{sum(d.game == 'chemin_de_fer' for d in digests):,} chemin de fer coups), {len(lines):,} events; "
          f"best of {args.repeat}")
    print(f"engine (baseline): {n / engine:,.0f} rounds/s   watch: {n / best:,.0f} rounds/s   "
          f"watch / engine time: {best / engine:.2f}")
    print(f"{'detector':>24} {'p50 µs':>8} {'p99 µs':>8} {'mean µs':>8}")
    for name, times in per.items():
        q = statistics.quantiles(times, n=100)
        print(f"{name:>24} {q[49] * 1e6:>8.0f} {q[98] * 1e6:>8.0f} {statistics.fmean(times) * 1e6:>8.0f}")
    state = json.dumps(watch.to_state(), separators=(",", ":")).encode()
    print(f"watch state at the end: {len(state) / 1024:,.0f} KiB of JSON, {len(watch.dump()) / 1024:,.0f} KiB stored")
    print(f"peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB")


if __name__ == "__main__":
    main()
