"""The engine against another revision, in the same run: ``python -m bench.against REV``.

``python -m bench --only engine`` gives the engine's ratio to ``json.loads`` on one checkout; on a
noisy machine two such runs minutes apart can differ by a third, more than any change worth
measuring. This compares two checkouts pass by pass instead:

1. ``REV`` (any git revision; ``b925b42``, ``HEAD~3``) is checked out into a temporary git worktree
   and its compiled fold is built there (``pitwatch.native.build``; about 2 minutes), so each side
   runs its own compiled code (a side whose build fails runs interpreted, and says so);
2. one events file is simulated (this checkout's simulator), the same bytes for both sides;
3. one long-lived process per side replays it, in turn, ``--passes`` times: each pass times
   ``json.loads`` of every line and then ``pitwatch.replay.replay_lines`` (detectors on) in the same
   process, so the ratio of a pass is taken under the machine's load of that moment, and the two
   sides' passes alternate within seconds of each other.

Prints, per side, the median and best ratio to ``json.loads`` and the median replay time, then
this checkout's median ratio over ``REV``'s (1.00: the same speed; 0.95: 5% slower), with the
interquartile range of the per-pass quotients. The temporary worktree is removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.__main__ import make_events

ROOT = Path(__file__).resolve().parent.parent
WORKER = r"""
import json, sys, time
import pitwatch.native as native
from pitwatch.replay import replay_lines
lines = open(sys.argv[1], "rb").read().splitlines()
print(json.dumps({"compiled": native.status()[0]}), flush=True)
sum(1 for _ in replay_lines(lines))  # warm-up: the edge caches, the imports
for _ in sys.stdin:
    t = time.perf_counter()
    for ln in lines:
        json.loads(ln)
    t_json = time.perf_counter() - t
    t = time.perf_counter()
    sum(1 for it in replay_lines(lines) if it.verdict is not None)
    print(json.dumps({"json": t_json, "replay": time.perf_counter() - t}), flush=True)
"""
"""The pass loop each side runs (its own ``pitwatch`` first on ``PYTHONPATH``): one line per pass."""


def _checkout(rev: str, into: Path) -> None:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(into), rev],
                   check=True, capture_output=True, text=True)
    built = subprocess.run([sys.executable, "-c", "from pitwatch.native import build; build()"], cwd=into,
                           env={**os.environ, "PYTHONPATH": str(into)}, capture_output=True, text=True)
    if built.returncode:
        print(f"# {rev}: its compiled fold did not build; it runs interpreted", file=sys.stderr)


class _Side:
    """One checkout's replay process (:data:`WORKER`)."""

    def __init__(self, name: str, checkout: Path, events: Path):
        self.name = name
        self.passes: list[tuple[float, float]] = []
        """``(json.loads seconds, replay seconds)`` per pass."""
        env = {**os.environ, "PYTHONPATH": str(checkout)}
        env.pop("PITWATCH_NATIVE", None)
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(events)], cwd=checkout, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.compiled = self._read()["compiled"]

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the replay process of {self.name} exited (code {self.proc.wait()})")
        return json.loads(line)

    def run_pass(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("pass\n")
        self.proc.stdin.flush()
        got = self._read()
        self.passes.append((got["json"], got["replay"]))

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()

    def ratios(self) -> list[float]:
        return [j / r for j, r in self.passes]


def compare(rev: str, passes: int, tables: int, hours: float, seed: int) -> float:
    """Run the comparison (module docstring); returns this checkout's median ratio over ``rev``'s.
    Raises ``subprocess.CalledProcessError`` when ``rev`` cannot be checked out."""
    work = Path(tempfile.mkdtemp(prefix="pitwatch-against-"))
    base_dir = work / "base"
    try:
        _checkout(rev, base_dir)
        events = work / "events.jsonl"
        n = make_events(events, tables, hours, seed)
        print(f"# events file: {n} events ({tables} tables, {hours} h, seed {seed}); {passes} passes per side")
        sides = [_Side(rev, base_dir, events), _Side("this checkout", ROOT, events)]
        try:
            for i in range(passes):
                for side in sides:
                    side.run_pass()
                print(f"  pass {i + 1:>2}: " + "  ".join(
                    f"{s.name} {s.ratios()[-1]:.3f}" for s in sides), flush=True)
        finally:
            for side in sides:
                side.close()
        for s in sides:
            print(f"{s.name:>14}: ratio to json.loads median {statistics.median(s.ratios()):.3f}, "
                  f"best {max(s.ratios()):.3f}; replay median {statistics.median(r for _, r in s.passes):.2f} s "
                  f"({n / statistics.median(r for _, r in s.passes):,.0f} events/s); "
                  f"{'compiled' if s.compiled else 'interpreted'}")
        quotients = [h / b for h, b in zip(sides[1].ratios(), sides[0].ratios())]
        q1, _, q3 = statistics.quantiles(quotients, n=4) if len(quotients) > 1 else (quotients[0],) * 3
        med = statistics.median(sides[1].ratios()) / statistics.median(sides[0].ratios())
        print(f"this checkout / {rev}: {med:.3f} (ratio of the medians); per pass {statistics.median(quotients):.3f} "
              f"median, {q1:.3f}-{q3:.3f} interquartile")
        return med
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_dir)], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.against", description=__doc__.split("\n\n")[0])
    ap.add_argument("rev", help="the git revision to compare this checkout with (e.g. b925b42)")
    ap.add_argument("--passes", type=int, default=9, help="replay passes per side, alternating")
    ap.add_argument("--tables", type=int, default=36)
    ap.add_argument("--hours", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    compare(args.rev, args.passes, args.tables, args.hours, args.seed)


if __name__ == "__main__":
    main()
