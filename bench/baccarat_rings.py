"""Detection of association at the player-banked baccarats: ``python -m bench.baccarat_rings [--game G]``.

Each evening is one table of the simulator of ``--game``: ``chemin_de_fer`` (the default;
:mod:`pitwatch.sim.chemin_de_fer`, Galicia and Andalucía in turn) or ``bacara_dos_panos``
(:mod:`pitwatch.sim.dos_panos`, Galicia with a limited bank and Andalucía with a free one in turn); honest
players drawn at random, coming and going, played for ``--hours``. With a ring rate above 0 the ring's two
players (:func:`pitwatch.sim.base.ring_parties`) stay all evening and, on that share of the coups both are
punters, play one purse: the second stakes exactly when the first does (at dos paños on the same spot),
twice his amount. The coups are replayed (:func:`pitwatch.replay.replay_lines`) and each verdict's
digest fed to the association detector (:mod:`pitwatch.detectors.association`, default thresholds; the
casino's watch runs the same). Reported per ring rate:

- **recall**: evenings whose ring was alerted within ``--budget`` coups (2,000) / evenings with a ring,
  and the median number of coups played before the alert;
- **false rings**: alerts on any other pair, per 10,000 coups (on honest evenings, ring rate 0, and on the
  ring evenings' other pairs);
- **ranking**: at the end of each evening every pair with the baselines an alert needs is ranked by its
  score (the detector's ``ranked()``): precision at 1 (the top pair is the ring) and the area under the ROC
  curve (ring pairs against all others, pooled over the evenings).

Deterministic for the seeds; runs the evenings on all cores; prints a table and writes ``results.json``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from pitwatch.detectors.association import AssociationDetector
from pitwatch.detectors.digest import digest_of
from pitwatch.replay import replay_lines
from pitwatch.sim.base import default_floor, ring_parties, simulate

from bench.poker_rings import _show, ring_stats

GAMES = ("chemin_de_fer", "bacara_dos_panos")
"""The games ``--game`` takes."""
RATES = [0.25, 0.5, 1.0]
"""The ring rates measured by default (1.0: the partners stake together whenever both are punters)."""


def evening(hours: float, seed: int, ring_rate: float, game: str = "chemin_de_fer") -> dict[str, Any]:
    """One evening at a table of ``game`` (the first of its tables in :func:`pitwatch.sim.base.default_floor`
    for odd seeds, the second for even): coups, the ring's alert (coup index or None), the false alerts and
    the end-of-evening scores ``[(score, is the ring)]``."""
    spec = default_floor(0, **{"chemin_de_fer" if game == "chemin_de_fer" else "dos_panos": 2})[seed % 2 == 0]
    events, _labels = simulate([spec], hours, seed, fault_rates={"association": ring_rate} if ring_rate else {})
    det, alerts, coups = AssociationDetector(), [], 0
    for item in replay_lines((json.dumps(e) for e in events), detectors=False):
        if item.verdict is not None and item.verdict.game == game:
            alerts += [(coups, (a.parties[0].partition(":")[2], a.parties[1].partition(":")[2]))
                       for a in det.observe(digest_of(item.verdict))]
            coups += 1
    ring = ring_parties("association", spec.table_id) if ring_rate else None
    ranked = [(score, pair == ring) for pair, score in det.ranked()]
    return {"coups": coups, "found": next((i for i, key in alerts if key == ring), None),
            "false": [key for _, key in alerts if key != ring], "ranked": ranked}


def _row(rate: float, rs: list[dict[str, Any]], budget: int) -> dict[str, Any]:
    """One line of the table (printed) and of ``results.json``."""
    row = ring_stats(rate, rs, budget, "coups", 10000)
    print(f"{rate:>9.2f} {row['coups']:>7} {_show(row['found'] if rate else None):>5} {_show(row['recall'], '.0%'):>6} "
          f"{_show(row['median_coups_to_alert'], '.0f'):>12} {row['false_rings']:>6} "
          f"{row['false_per_10000_coups']:>11.3f} {_show(row['precision_at_1'], '.2f'):>6} {_show(row['auc'], '.3f'):>5}")
    return row


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.baccarat_rings", description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=GAMES, default="chemin_de_fer", help="the game of the tables")
    ap.add_argument("--hours", type=float, default=40.0, help="hours per evening (about 73 coups an hour at "
                    "chemin de fer, 50 at dos paños)")
    ap.add_argument("--seeds", type=int, default=10, help="evenings per ring rate")
    ap.add_argument("--honest-seeds", type=int, default=40, help="honest evenings (ring rate 0)")
    ap.add_argument("--rates", type=float, action="append", help=f"ring rates (default: {RATES})")
    ap.add_argument("--budget", type=int, default=2000, help="coups within which a ring counts as found")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="pitwatch-baccarat-rings-"))
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    rates = [0.0, *(args.rates or RATES)]
    cells = [(args.hours, seed, rate, args.game) for rate in rates
             for seed in range(1, (args.honest_seeds if rate == 0 else args.seeds) + 1)]
    with ProcessPoolExecutor() as pool:
        results = list(pool.map(evening, *zip(*cells)))
    print(f"# one {args.game} table, {args.hours:g} hours an evening; a ring is found if alerted within "
          f"{args.budget:,} coups")
    print(f"{'ring rate':>9} {'coups':>7} {'found':>5} {'recall':>6} {'median coups':>12} {'false':>6} "
          f"{'false/10000':>11} {'prec@1':>6} {'AUC':>5}")
    rows = [_row(rate, [r for (_h, _s, cr, _g), r in zip(cells, results) if cr == rate], args.budget) for rate in rates]
    (out / "results.json").write_text(json.dumps({"game": args.game, "rows": rows}, indent=1))
    print(f"# {time.monotonic() - t0:.0f} s; results: {out / 'results.json'}")


if __name__ == "__main__":
    main()
