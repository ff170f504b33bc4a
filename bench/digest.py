"""The replay digest of the benchmark evening: one SHA-256 over every verdict and alert a file replay gives.

    python -m bench.digest [--tables 36 --hours 3 --seed 7]

Simulates the evening (the engine benchmark's: 36 tables, 3 hours, seed 7, the default faults), replays it
with :func:`pitwatch.replay.replay_lines` and prints the number of events, the number of outputs and the
SHA-256 of their ``repr`` in order. Two releases that give the same verdicts, to every field and in the same
order, print the same digest: a refactoring of the engine (the book of standing bets, for one) is checked
with it (BENCHMARKS.md records the digests).
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
from pathlib import Path

from pitwatch.replay import replay_lines

from bench.__main__ import make_events


def digest(path: Path) -> tuple[int, str]:
    """``(outputs, sha256 hex)`` of the file replay of the events file ``path``."""
    h = hashlib.sha256()
    n = 0
    with path.open("rb") as f:
        for item in replay_lines(f):
            h.update(repr(item).encode("utf-8"))
            n += 1
    return n, h.hexdigest()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.digest", description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=36, help="simulated tables")
    ap.add_argument("--hours", type=float, default=3.0, help="simulated hours")
    ap.add_argument("--seed", type=int, default=7, help="simulation seed")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "events.jsonl"
        events = make_events(path, args.tables, args.hours, args.seed)
        outputs, sha = digest(path)
    print(f"{events} events -> {outputs} outputs; replay digest sha256 {sha}")


if __name__ == "__main__":
    main()
