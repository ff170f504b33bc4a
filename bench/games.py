"""Replay speed of the games added on the game platform, compiled against interpreted, in one run.

    python -m bench.games [--hours 3 --seed 5 --passes 3]

Simulates one table of every ruleset of the games whose simulator places its own tables
(:func:`pitwatch.sim.base.catalogue_tables`: American roulette, abreviada, boule, the wheel of fortune), no
faults, then replays the file (:func:`pitwatch.replay.replay_lines`, detectors on) ``--passes`` times on
each side, the sides in turn, each pass in a child process: one with the compiled fold, one with
``PITWATCH_NATIVE=0``. Prints, per side,
events/s of the best pass, the median and 90th-percentile time of a round (from the pass's verdicts) and
the child's peak memory, then the compiled side's speed over the interpreted one's (a ratio: the machine
is noisy, the two sides share it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, resource, statistics, sys, time
import pitwatch.native as native
from pitwatch.replay import replay_lines
lines = open(sys.argv[1], "rb").read().splitlines()
best, rounds = None, []
for _ in range(int(sys.argv[2])):
    t0 = time.perf_counter(); last = t0; times = []
    for item in replay_lines(lines):
        if getattr(item, "verdict", None) is not None:
            now = time.perf_counter(); times.append(now - last); last = now
    took = time.perf_counter() - t0
    if best is None or took < best:
        best, rounds = took, times
q = statistics.quantiles(rounds, n=10) if len(rounds) > 1 else [0.0] * 9
print(json.dumps({"compiled": native.status()[0], "events": len(lines), "seconds": best,
                  "round_p50_ms": statistics.median(rounds) * 1e3, "round_p90_ms": q[8] * 1e3,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_side(path: Path, passes: int, native: bool) -> dict:
    """One child replaying ``path`` ``passes`` times, compiled or not; its JSON summary."""
    env = dict(os.environ, PITWATCH_NATIVE="1" if native else "0")
    out = subprocess.run([sys.executable, "-c", CHILD, str(path), str(passes)], env=env, check=True,
                         capture_output=True, text=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.games", description=__doc__.splitlines()[0])
    ap.add_argument("--hours", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--passes", type=int, default=3)
    args = ap.parse_args(argv)
    from pitwatch.sim import write_simulation
    from pitwatch.sim.base import catalogue_tables

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.jsonl"
        tables = catalogue_tables(13)
        n, _ = write_simulation(path, tables=tables, hours=args.hours, seed=args.seed, fault_rates={})
        print(f"# {n:,} events: {len(tables)} tables ({', '.join(t.ruleset_id for t in tables)}), {args.hours} h")
        sides: dict[str, dict] = {}
        for _ in range(args.passes):  # in turn, so that both sides share the machine's moods
            for name, native in (("compiled", True), ("interpreted", False)):
                s = run_side(path, 1, native)
                if name not in sides or s["seconds"] < sides[name]["seconds"]:
                    sides[name] = s
    for name, s in sides.items():
        print(f"{name:>12}: {s['events'] / s['seconds']:,.0f} events/s (best of {args.passes}: {s['seconds']:.2f} s), "
              f"a round p50 {s['round_p50_ms']:.2f} ms p90 {s['round_p90_ms']:.2f} ms, peak {s['rss_mb']:.0f} MB"
              + ("" if s["compiled"] == (name == "compiled") else "  [build missing or stale: not compiled]"))
    print(f"compiled / interpreted: {sides['interpreted']['seconds'] / sides['compiled']['seconds']:.2f}x")


if __name__ == "__main__":
    main()
