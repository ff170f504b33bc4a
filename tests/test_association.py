"""The association detector at chemin de fer (pitwatch/detectors/association.py): «prohibido a los puntos
el juego en asociación» (000 L815; 004 L2686) and the seated player's stake joined to others' (000 L650;
004 L2236-L2238), seen across coups: two punters who stake together far more often than their records with
the others predict, in the same proportion coup after coup."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest
from pitwatch.detectors.association import AssociationDetector, AssociationThresholds, fisher_combined, ratio
from pitwatch.detectors.digest import DigestBet, RoundDigest
from pitwatch.detectors.watch import DETECTORS, CasinoWatch
from pitwatch.replay import replay_lines
from pitwatch.sim.base import default_floor, ring_parties, simulate

D = Decimal
T0 = datetime(2026, 11, 21, 22, 0, tzinfo=timezone.utc)


def coup(n: int, stakes: dict[str, str], banker: str = "", table: str = "CF-1", game: str = "chemin_de_fer",
         in_play: str = "100.00") -> RoundDigest:
    """A coup's digest: each stake (bet ``<round>-<player>``) and, with a banker, the bank's settlement."""
    rid = f"{table}-R{n:05d}"
    bets = [DigestBet(f"{rid}-{p}", p, D(s), D(0), D(0)) for p, s in stakes.items()]
    if banker:
        bets.append(DigestBet(f"{rid}:bank", banker, D(in_play), D(0), D(0)))
    return RoundDigest("GAL-01", table, game, rid, "D-1", T0 + timedelta(minutes=n), "chemin_de_fer.galicia", "h",
                       tuple(bets))


def evening(coups: int, seed: int, ring: bool = True) -> list[RoundDigest]:
    """A table where 14 honest punters come and go (sessions of 40-120 coups, each staking on 30-70% of
    the coups he attends, 1-5 units of 20.00), the bank held in turn by a seated player; ``R1`` and ``R2``,
    the ring, sit all evening, R2 staking exactly when R1 does, twice his stake; ``C1`` and ``C2``, two
    regulars of the same hours (they arrive and leave together, 150 coups in, 150 out), each staking on
    his own."""
    rng = random.Random(seed)
    honest = {f"H{i:02d}": rng.uniform(0.3, 0.7) for i in range(14)}
    seated: dict[str, int] = {}
    out = []
    for n in range(coups):
        for p in [p for p, left in seated.items() if left <= n]:
            del seated[p]
        while len(seated) < 4:
            p = rng.choice([h for h in honest if h not in seated])
            seated[p] = n + rng.randint(40, 120)
        present = list(seated) + (["C1", "C2"] if (n // 150) % 2 == 0 else []) + (["R1", "R2"] if ring else [])
        banker = present[n % len(present)]
        stakes: dict[str, str] = {}
        for p in present:
            if p in (banker, "R2"):
                continue
            if rng.random() < honest.get(p, 0.5):
                stakes[p] = f"{20 * rng.randint(1, 5)}.00"
        if "R1" in stakes and banker != "R2":
            stakes["R2"] = f"{2 * D(stakes['R1']):.2f}"
        out.append(coup(n, stakes, banker))
    return out


def pairs_alerted(digests: list[RoundDigest], det: AssociationDetector | None = None) -> set[tuple[str, ...]]:
    det = det or AssociationDetector()
    return {tuple(x.partition(":")[2] for x in a.parties) for d in digests for a in det.observe(d)}


def test_a_ring_is_found_and_nobody_else():
    """2,000 coups: the ring R1-R2 alerted (both named, sorted, with its coups and a score); no honest pair,
    not the regulars of the same hours."""
    det = AssociationDetector()
    alerts = [a for d in evening(2000, 7) for a in det.observe(d)]
    assert [a.parties for a in alerts] == [("player:R1", "player:R2")]
    (a,) = alerts
    assert a.kind == "association" and a.severity == "high" and a.score >= 8
    assert len(a.evidence) == 20 and all(e.startswith("CF-1/CF-1-R") for e in a.evidence)
    assert "L815" in a.citation and "L650" in a.citation and "L2236-L2238" in a.citation


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_regulars_who_play_the_same_hours_are_not_alerted(seed):
    """C1 and C2 come and go together over 3,000 coups, each staking on his own: a count of their coups
    together against the table's would flag them (they attend the same coups); against their records
    with the others they are nothing (no pair is alerted on an evening without a ring)."""
    digests = evening(3000, seed, ring=False)
    det = AssociationDetector()
    assert pairs_alerted(digests, det) == set()
    ev = det.evaluate("C1", "C2")
    assert ev.together > 200 and ev.score < 4


def test_presence_is_read_from_the_acts_and_the_banker_is_no_punter():
    """Gap 2. A stakes in coups 0, 1 and 3, B in 1 and 2 (C holds the bank in 2), Z in 4-7. A is present in
    0-3 (1 and 3 are two coups apart), B in 1-2, C in 2 (as banker: no punter). Judged: coups 0-5 (a coup
    waits for the two after it). Coup 1: A staked and B staked (A->B a hit, B->A a hit); coup 2: B staked,
    A present did not (B->A a miss); C, the banker, counts for nobody."""
    det = AssociationDetector(AssociationThresholds(gap=2))
    plan = [{"A": "20"}, {"A": "20", "B": "40"}, {"B": "20"}, {"A": "20"}] + [{"Z": "20"}] * 4
    for n, stakes in enumerate(plan):
        det.observe(coup(n, {p: f"{s}.00" for p, s in stakes.items()}, banker="C" if n == 2 else ""))
    assert det.rates.to_state() == [["A", "B", 1, 1], ["B", "A", 1, 2]]
    assert det.judged == {"CF-1": 2} and [c[0] for c in det.pending["CF-1"]][0] == "CF-1/CF-1-R00004"


def test_other_games_are_not_read():
    det = AssociationDetector()
    assert all(det.observe(coup(n, {"A": "20.00", "B": "40.00"}, game="punto_banca")) == [] for n in range(100))
    assert det.pending == {}


def test_fisher_combination_and_proportions_by_hand():
    """p1 = p2 = 0.01: X = -2 ln(1e-4) = 18.4207; the chi-square (4 df) tail e^(-9.2103) (1 + 9.2103) =
    1.0e-4 x 10.2103 = 1.02103e-3: a score of 2.991. A stake of 40 beside 20: proportion 2."""
    assert fisher_combined(0.01, 0.01) == pytest.approx(2.991, abs=1e-3)
    assert fisher_combined(1.0, 1.0) == 0.0
    assert ratio(D("20.00"), D("40.00")) == "2.0000" and ratio(D("30.00"), D("20.00")) == "0.6667"


def test_state_round_trip_gives_the_same_alerts():
    """Half an evening, the state written as JSON and read back, the other half: the same alert at the same
    coup as without the interruption, and the same state at the end; another version is refused."""
    digests = evening(1200, 11)
    whole = AssociationDetector()
    straight = [(i, a.alert_id, a.message) for i, d in enumerate(digests) for a in whole.observe(d)]
    first = AssociationDetector()
    got = [(i, a.alert_id, a.message) for i, d in enumerate(digests[:600]) for a in first.observe(d)]
    second = AssociationDetector.from_state(json.loads(json.dumps(first.to_state())))
    got += [(i + 600, a.alert_id, a.message) for i, d in enumerate(digests[600:]) for a in second.observe(d)]
    assert got == straight and len(straight) == 1
    assert second.to_state() == whole.to_state()
    with pytest.raises(ValueError, match="version"):
        AssociationDetector.from_state({**whole.to_state(), "version": 99})


def test_the_watch_runs_it():
    assert AssociationDetector in DETECTORS
    watch = CasinoWatch("GAL-01")
    alerts = [a for d in evening(1500, 5) for a in watch.observe(d) if a.kind == "association"]
    assert [a.parties for a in alerts] == [("player:R1", "player:R2")]
    back = CasinoWatch.load(watch.dump())
    assert back.to_state() == watch.to_state()


def test_the_simulators_ring_is_found_through_the_replays_watch():
    """A chemin de fer table of the simulator, the association ring on every coup both are punters, ten
    hours (~730 coups): the replay's watch (as the worker runs it) alerts the ring's two players, nobody
    else; the coups are otherwise clean."""
    spec = default_floor(0, chemin_de_fer=1)[0]
    events, labels = simulate([spec], 10.0, 3, fault_rates={"association": 1.0})
    lines = [json.dumps(e) for e in events]
    alerts = [a for item in replay_lines(lines) for a in item.alerts]
    assert labels and {lb["kind"] for lb in labels} == {"association"}
    assert [(a.kind, a.parties) for a in alerts] == [
        ("association", tuple(f"player:{p}" for p in sorted(ring_parties("association", spec.table_id))))]
