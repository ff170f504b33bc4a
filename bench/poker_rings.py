"""Detection of the rings of two players at póquer en círculo: ``python -m bench.poker_rings``.

For each pattern (``--pattern``, several allowed: ``chip_dumping``, ``soft_play``, ``whipsaw``) each
evening is one hold'em table of the simulator (:mod:`pitwatch.sim.poker`, honest players drawn at
random from the floor's pool, coming and going) played for ``--hours``; with a ring rate above 0
the pattern's two players (:func:`pitwatch.sim.base.ring_parties`) stay all evening and, on that
share of the hands they are both dealt in, play as a ring: ``chip_dumping`` (the second player bets
the pot and folds to the third's raise), ``soft_play`` (left heads-up together, they only check and
call), ``whipsaw`` (with a third player in, each re-raises the other). The hands are replayed
(:func:`pitwatch.replay.replay_lines`) and each verdict's digest fed to the pattern's detector (the
casino's watch runs the same, :mod:`pitwatch.detectors.watch`) with its default thresholds.
Reported per pattern and ring rate:

- **recall**: evenings whose ring was alerted (an alert on a pair of it) within ``--budget`` hands
  (2,000, the issue's target) / evenings with a ring, and the median number of hands played before the
  alert; for rings of more than two (``--ring-size``, soft play and whipsaw), the evenings in which
  every pair of the ring was alerted within the budget too;
- **false rings**: alerts on any other pair, per 1,000 hands (honest evenings: ring rate 0);
- **ranking**: at the end of each evening every pair with the baselines an alert needs is ranked by
  its ``z`` (the detector's ``ranked()``): precision at 1 (the top pair is the ring) and the area
  under the ROC curve (ring pairs against all others, pooled over the evenings);
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
from pitwatch.detectors.soft_play import SoftPlayDetector
from pitwatch.detectors.whipsaw import WhipsawDetector
from pitwatch.replay import replay_lines
from pitwatch.sim.base import POKER_RINGS, RING_MEMBERS, default_floor, ring_members, simulate

DETECTOR = {"chip_dumping": ChipDumpingDetector, "soft_play": SoftPlayDetector, "whipsaw": WhipsawDetector}
RATES = {"chip_dumping": [0.1, 0.25, 0.5], "soft_play": [0.5, 1.0], "whipsaw": [0.25, 0.5, 1.0]}
"""The ring rates measured by default, per pattern (soft play is what partners do whenever they meet:
1.0; half of it too)."""


def _detect(pattern: str, lines: Any) -> tuple[Any, list[tuple[int, tuple[str, str]]], int]:
    """The pattern's detector after the replay of ``lines``, its alerts ``(hand index, (first, second
    party))`` and the hands judged."""
    det, alerts, hands = DETECTOR[pattern](), [], 0
    for item in replay_lines(lines, detectors=False):
        if item.verdict is not None and item.verdict.game == "poker":
            alerts += [(hands, (a.parties[0].partition(":")[2], a.parties[1].partition(":")[2]))
                       for a in det.observe(digest_of(item.verdict))]
            hands += 1
    return det, alerts, hands


def evening(pattern: str, hours: float, seed: int, ring_rate: float, size: int = 2) -> dict[str, Any]:
    """One evening at the floor's hold'em table with a ring of ``size`` players: hands, the first alert
    on a pair of the ring (hand index or None: the ring is found, its members named), the hand by which
    every pair of it was alerted (``found_all``), the alerts on pairs that are no ring's and the
    end-of-evening scores of the ranked pairs ``[(z, a pair of the ring)]``. Chip dumping's ring is
    its ordered pair (dumper, gainer)."""
    spec = next(s for s in default_floor(8) if s.game == "poker")
    events, _labels = simulate([spec], hours, seed, fault_rates={pattern: ring_rate} if ring_rate else {},
                               ring_size=size)
    det, alerts, hands = _detect(pattern, (json.dumps(e) for e in events))
    members = ring_members(pattern, spec.table_id, size) if ring_rate else ()
    if pattern == "chip_dumping":
        pairs = {members} if members else set()
    else:
        pairs = {(a, b) for a in members for b in members if a < b}

    def ring(pair: tuple[str, str]) -> bool:
        return pair in pairs

    seen: set[tuple[str, str]] = set()
    found_all = None
    for i, key in alerts:
        seen.add(key)
        if found_all is None and pairs and pairs <= seen:
            found_all = i
    return {"hands": hands, "found": next((i for i, key in alerts if ring(key)), None), "found_all": found_all,
            "false": [key for _, key in alerts if not ring(key)],
            "ranked": [(z, ring(pair)) for pair, z in det.ranked()]}


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


def real_hands(pattern: str) -> dict[str, int]:
    """The 999 real hands through the pattern's detector: hands and alerts."""
    from pitwatch.schemas.events import dump_event
    from pitwatch.schemas.phh import import_phh

    from bench.poker import PHH

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        lines = [dump_event(e) for e in import_phh(PHH)]
    _det, alerts, hands = _detect(pattern, lines)
    return {"hands": hands, "alerts": len(alerts)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.poker_rings", description=__doc__.splitlines()[0])
    ap.add_argument("--pattern", action="append", choices=POKER_RINGS, help="the rings measured (default: all)")
    ap.add_argument("--hours", type=float, default=100.0, help="hours per evening (about 21 hands an hour)")
    ap.add_argument("--seeds", type=int, default=4, help="evenings per ring rate")
    ap.add_argument("--rates", type=float, action="append", help="ring rates (default: per pattern, RATES)")
    ap.add_argument("--budget", type=int, default=2000, help="hands within which a ring counts as found")
    ap.add_argument("--ring-size", type=int, action="append",
                    help=f"players of a soft-play or whipsaw ring (default 2; up to {len(RING_MEMBERS['soft_play'])}; "
                         "chip dumping is two)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="pitwatch-poker-rings-"))
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    patterns = args.pattern or list(POKER_RINGS)
    sizes = args.ring_size or [2]

    def sizes_of(pattern: str) -> list[int]:
        return sizes if pattern in RING_MEMBERS else [2]

    cells = [(pattern, args.hours, seed, rate, size) for pattern in patterns for size in sizes_of(pattern)
             for rate in [0.0, *(args.rates or RATES[pattern])] for seed in range(1, args.seeds + 1)
             if rate or size == sizes_of(pattern)[0]]
    with ProcessPoolExecutor() as pool:
        results = list(pool.map(evening, *zip(*cells)))
    print(f"# one hold'em table, {args.hours:g} hours an evening, {args.seeds} evenings per pattern and ring rate; "
          f"a ring is found if alerted within {args.budget:,} hands")
    print(f"{'pattern':>12} {'size':>4} {'ring rate':>9} {'hands':>6} {'found':>5} {'recall':>6} {'median hands':>12} "
          f"{'all pairs':>9} {'false/1000':>10} {'prec@1':>6} {'AUC':>5}")
    rows = []
    for pattern in patterns:
        for size in sizes_of(pattern):
            for rate in [0.0, *(args.rates or RATES[pattern])]:
                rs = [r for (pt, _h, _s, cr, sz), r in zip(cells, results) if (pt, cr, sz) == (pattern, rate, size)]
                if rs:
                    rows.append(_row(pattern, size, rate, rs, args.budget))
    real = {pattern: real_hands(pattern) for pattern in patterns}
    for pattern in patterns:
        print(f"# real hands (tests/data/phh), {pattern}: {real[pattern]['hands']} hands, {real[pattern]['alerts']} alerts")
    (out / "results.json").write_text(json.dumps({"rows": rows, "real": real}, indent=1))
    print(f"# {time.monotonic() - t0:.0f} s; results: {out / 'results.json'}")


def ring_stats(rate: float, rs: list[dict[str, Any]], budget: int, unit: str, per: int) -> dict[str, Any]:
    """The figures of the evenings ``rs`` at ring rate ``rate`` (each ``{unit: rounds, "found": index or
    None, "false": [...], "ranked": [(score, is the ring)]}``): rounds, rings found within ``budget``
    rounds, recall, median rounds to the alert, false rings (and per ``per`` rounds), precision at 1, AUC."""
    n = sum(r[unit] for r in rs)
    found = [r["found"] + 1 for r in rs if r["found"] is not None and r["found"] < budget]
    false = sum(len(r["false"]) for r in rs)
    top = [max(r["ranked"])[1] for r in rs if r["ranked"]] if rate else []
    return {"ring_rate": rate, "evenings": len(rs), unit: n, "found": len(found),
            "recall": len(found) / len(rs) if rate else None,
            f"median_{unit}_to_alert": statistics.median(found) if found else None,
            "false_rings": false, f"false_per_{per}_{unit}": per * false / n,
            "precision_at_1": sum(top) / len(top) if top else None,
            "auc": _auc([x for r in rs for x in r["ranked"]]) if rate else None}


def _row(pattern: str, size: int, rate: float, rs: list[dict[str, Any]], budget: int) -> dict[str, Any]:
    """One line of the table (printed) and of ``results.json``; ``all_pairs_found``: evenings whose
    ring had every pair alerted within ``budget`` hands."""
    every = sum(1 for r in rs if r["found_all"] is not None and r["found_all"] < budget) if rate else None
    row = {"pattern": pattern, "ring_size": size, **ring_stats(rate, rs, budget, "hands", 1000),
           "all_pairs_found": every}
    hands, found, auc = row["hands"], row["found"], row["auc"]
    print(f"{pattern:>12} {size:>4} {rate:>9.2f} {hands:>6} {_show(found if rate else None):>5} "
          f"{_show(row['recall'], '.0%'):>6} {_show(row['median_hands_to_alert'], '.0f'):>12} {_show(every):>9} "
          f"{row['false_per_1000_hands']:>10.3f} {_show(row['precision_at_1'], '.2f'):>6} {_show(auc, '.3f'):>5}")
    return row


if __name__ == "__main__":
    main()
