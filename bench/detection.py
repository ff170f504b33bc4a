"""Detection of dealer-player collusion on simulated evenings: ``python -m bench.detection``.

Each evening is ``pitwatch.sim`` with its default faults (random wrong payouts, late bets and the
rest, whoever the player) and, on every table, a ring (``dealer_collusion``: the table's first
dealer over-pays its first player on a share of his bets, :mod:`pitwatch.sim.base`). The events
are replayed (:func:`pitwatch.replay.replay_lines`) and the round verdicts fed to
:class:`pitwatch.detectors.pairs.PairDetector` with its default thresholds. Reported per ring
rate and evening length:

- **recall**: rings (tables) whose pair was alerted / rings;
- **false rings**: alerts on any other pair, per 1,000 rounds;
- on honest evenings (no ring), false rings per 1,000 rounds.

Deterministic for the seeds; prints a table and writes ``results.json`` next to it.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from pitwatch.detectors.pairs import KIND
from pitwatch.replay import replay_lines
from pitwatch.sim.base import DEFAULT_FAULT_RATES, simulate


def evening(tables: int, hours: float, seed: int, ring_rate: float) -> dict[str, Any]:
    """One evening: rings, rounds, alerted pairs split into ring pairs and false ones."""
    rates = dict(DEFAULT_FAULT_RATES, dealer_collusion=ring_rate)
    events, labels = simulate(tables, hours, seed, fault_rates=rates)
    lines = [json.dumps(e) for e in events]
    rounds = 0
    alerted: set[tuple[str, str]] = set()
    for item in replay_lines(lines):  # the replay runs the casino's detectors (its watch)
        rounds += item.verdict is not None
        alerted |= {(a.dealer_id, a.player_id) for a in item.alerts if a.kind == KIND}
    rings = {(f"D-{t}-01", f"P-{t}-001") for t in {lb["table_id"] for lb in labels if lb["kind"] == "dealer_collusion"}}
    return {"rounds": rounds, "rings": len(rings), "found": len(alerted & rings), "false": len(alerted - rings)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.detection", description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=12)
    ap.add_argument("--seeds", type=int, default=3, help="evenings per cell")
    ap.add_argument("--hours", type=float, action="append", help="evening lengths (default 1, 2, 4)")
    ap.add_argument("--rates", type=float, action="append", help="ring over-payment rates (default 0.05, 0.1, 0.2)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    hours = args.hours or [1.0, 2.0, 4.0]
    rates = args.rates or [0.05, 0.1, 0.2]
    out = args.out or Path(tempfile.mkdtemp(prefix="pitwatch-detection-"))
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    t0 = time.monotonic()
    print(f"# {args.tables} tables, {args.seeds} evenings per cell, default faults + a ring on every table")
    print(f"{'ring rate':>9} {'hours':>5} {'rounds':>7} {'rings':>5} {'found':>5} {'recall':>7} {'false/1000 rounds':>18}")
    for rate in [0.0, *rates]:
        for h in hours:
            cell = {"rounds": 0, "rings": 0, "found": 0, "false": 0}
            for seed in range(1, args.seeds + 1):
                r = evening(args.tables, h, seed, rate)
                for k in cell:
                    cell[k] += r[k]
            recall = cell["found"] / cell["rings"] if cell["rings"] else None
            false = 1000 * cell["false"] / cell["rounds"]
            rows.append({"ring_rate": rate, "hours": h, **cell, "recall": recall, "false_per_1000_rounds": false})
            rec = "—" if recall is None else f"{recall:.0%}"
            print(f"{rate:>9.2f} {h:>5.1f} {cell['rounds']:>7} {cell['rings']:>5} {cell['found']:>5} {rec:>7} {false:>18.3f}")
    (out / "results.json").write_text(json.dumps(rows, indent=1))
    print(f"# {time.monotonic() - t0:.0f} s; results: {out / 'results.json'}")


if __name__ == "__main__":
    main()
