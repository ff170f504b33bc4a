"""Detection of chip dumping at póquer en círculo: ``python -m bench.chip_dumping``.

Each evening is one hold'em table of the simulator (:mod:`pitwatch.sim.poker`, honest players
drawn at random from the floor's pool, coming and going) played for ``--hours``; with a ring rate
above 0 the table's second and third players stay all evening and, on that share of the hands
they are both dealt in, the second dumps chips to the third (``chip_dumping``: he bets the pot and
folds to the third's raise, :func:`pitwatch.sim.poker.ring_of`). The hands are replayed
(:func:`pitwatch.replay.replay_lines`) and each verdict's digest fed to
:class:`pitwatch.detectors.chip_dumping.ChipDumpingDetector` with its default thresholds, as the
casino's watch does. Reported per ring rate:

- **recall**: evenings whose ring (dumper -> gainer) was alerted within ``--budget`` hands (2,000,
  the issue's target) / evenings with a ring, and the median number of hands played before the
  alert;
- **false rings**: alerts on any other ordered pair, per 1,000 hands (honest evenings: ring rate 0);
- **ranking**: at the end of each evening every ordered pair with a baseline of at least
  ``min_baseline`` contests each side is ranked by its ``z``: precision at 1 (the top pair is the
  ring) and the area under the ROC curve (ring pairs against all others, pooled over the evenings);
- the 999 real hands of ``tests/data/phh`` (Absolute Poker, 2009): alerts (each a false alarm).

Deterministic for the seeds; runs the evenings on all cores; prints a table and writes
``results.json`` next to it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from pitwatch.detectors.chip_dumping import ChipDumpingDetector
from pitwatch.detectors.digest import digest_of
from pitwatch.replay import replay_lines
from pitwatch.sim.base import default_floor, simulate
from pitwatch.sim.poker import ring_of


def _detect(lines: Any) -> tuple[ChipDumpingDetector, list[tuple[int, tuple[str, str]]], int]:
    """The detector after the replay of ``lines``, its alerts ``(hand index, (folder, gainer))`` and
    the hands judged."""
    det, alerts, hands = ChipDumpingDetector(), [], 0
    for item in replay_lines(lines, detectors=False):
        if item.verdict is not None and item.verdict.game == "poker":
            alerts += [(hands, (a.parties[0].partition(":")[2], a.parties[1].partition(":")[2]))
                       for a in det.observe(digest_of(item.verdict))]
            hands += 1
    return det, alerts, hands


def evening(hours: float, seed: int, ring_rate: float) -> dict[str, Any]:
    """One evening at the floor's hold'em table: hands, the ring's alert (hand index or None), the
    false alerts and the end-of-evening scores of the ranked pairs ``[(z, is the ring)]``."""
    spec = next(s for s in default_floor(8) if s.game == "poker")
    events, _labels = simulate([spec], hours, seed, fault_rates={"chip_dumping": ring_rate} if ring_rate else {})
    det, alerts, hands = _detect(json.dumps(e) for e in events)
    ring = ring_of(spec.table_id) if ring_rate else None
    floor = det.thresholds.min_baseline
    ranked = [(det.score(f, g)[3], (f, g) == ring) for f, g in det.pairs
              if min(det.baseline(f, g)[1], det.baseline(g, f)[1]) >= floor]
    return {"hands": hands, "found": next((i for i, key in alerts if key == ring), None),
            "false": [key for _, key in alerts if key != ring], "ranked": ranked}


def _auc(ranked: list[tuple[float, bool]]) -> float | None:
    """Area under the ROC curve: the chance a ring pair scores above a non-ring pair (ties half)."""
    pos = [z for z, r in ranked if r]
    neg = [z for z, r in ranked if not r]
    if not pos or not neg:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def _show(value: Any, spec: str = "") -> str:
    return "—" if value is None else format(value, spec)


def real_hands() -> dict[str, int]:
    """The 999 real hands through the detector: hands and alerts."""
    from pitwatch.schemas.events import dump_event
    from pitwatch.schemas.phh import import_phh

    from bench.poker import PHH

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        lines = [dump_event(e) for e in import_phh(PHH)]
    _det, alerts, hands = _detect(lines)
    return {"hands": hands, "alerts": len(alerts)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.chip_dumping", description=__doc__.splitlines()[0])
    ap.add_argument("--hours", type=float, default=100.0, help="hours per evening (about 21 hands an hour)")
    ap.add_argument("--seeds", type=int, default=4, help="evenings per ring rate")
    ap.add_argument("--rates", type=float, action="append", help="ring rates (default 0.1, 0.25, 0.5)")
    ap.add_argument("--budget", type=int, default=2000, help="hands within which a ring counts as found")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    rates = [0.0, *(args.rates or [0.1, 0.25, 0.5])]
    out = args.out or Path(tempfile.mkdtemp(prefix="pitwatch-chip-dumping-"))
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    cells = [(args.hours, seed, rate) for rate in rates for seed in range(1, args.seeds + 1)]
    with ProcessPoolExecutor() as pool:
        results = list(pool.map(evening, *zip(*cells)))
    print(f"# one hold'em table, {args.hours:g} hours an evening, {args.seeds} evenings per ring rate; "
          f"a ring is found if alerted within {args.budget:,} hands")
    print(f"{'ring rate':>9} {'hands':>6} {'found':>5} {'recall':>6} {'median hands':>12} {'false/1000':>10} "
          f"{'prec@1':>6} {'AUC':>5}")
    rows = []
    for rate in rates:
        rs = [r for (_h, _s, cr), r in zip(cells, results) if cr == rate]
        hands = sum(r["hands"] for r in rs)
        found = [r["found"] + 1 for r in rs if r["found"] is not None and r["found"] < args.budget]
        false = sum(len(r["false"]) for r in rs)
        top = [max(r["ranked"])[1] for r in rs if r["ranked"]] if rate else []
        auc = _auc([x for r in rs for x in r["ranked"]]) if rate else None
        row = {"ring_rate": rate, "evenings": len(rs), "hands": hands, "found": len(found),
               "recall": len(found) / len(rs) if rate else None,
               "median_hands_to_alert": statistics.median(found) if found else None,
               "false_rings": false, "false_per_1000_hands": 1000 * false / hands,
               "precision_at_1": sum(top) / len(top) if top else None, "auc": auc}
        rows.append(row)
        print(f"{rate:>9.2f} {hands:>6} {_show(len(found) if rate else None):>5} {_show(row['recall'], '.0%'):>6} "
              f"{_show(row['median_hands_to_alert'], '.0f'):>12} {row['false_per_1000_hands']:>10.3f} "
              f"{_show(row['precision_at_1'], '.2f'):>6} {_show(auc, '.3f'):>5}")
    real = real_hands()
    print(f"# real hands (tests/data/phh): {real['hands']} hands, {real['alerts']} alerts")
    (out / "results.json").write_text(json.dumps({"rates": rows, "real": real}, indent=1))
    print(f"# {time.monotonic() - t0:.0f} s; results: {out / 'results.json'}")


if __name__ == "__main__":
    main()
