"""The dealer-player collusion detector (:mod:`pitwatch.detectors.pairs`): its binomial tail
against an exact second implementation (fractions), a colluding pair found among honest dealers
who err at the same rate, a player favoured by every dealer not blamed on one, its state as
versioned JSON, and no false alarm on simulated evenings whose dealers make random errors."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from decimal import Decimal
from fractions import Fraction
from math import comb

import pytest
from pitwatch.detectors.digest import RoundDigest, digest_of
from pitwatch.detectors.pairs import KIND, PairDetector, PairThresholds, binomial_tail
from pitwatch.rules.base import BetCheck, ExpectedSettlement, RoundVerdict, Violation, ViolationKind

D = Decimal
T = datetime(2026, 11, 21, 21, 0, tzinfo=timezone.utc)


def _exact_tail(k: int, n: int, p: Fraction) -> Fraction:
    return sum((comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1)), Fraction(0))


@pytest.mark.parametrize("k,n,p", [(0, 10, Fraction(1, 2)), (3, 10, Fraction(1, 10)), (8, 60, Fraction(1, 100)),
                                   (1, 1, Fraction(1, 3)), (11, 10, Fraction(1, 2)), (40, 400, Fraction(1, 20))])
def test_binomial_tail_equals_the_exact_sum(k, n, p):
    """P(X >= k) in floats (log space) against the exact rational sum of C(n, i) p^i (1-p)^(n-i)."""
    assert binomial_tail(k, n, float(p)) == pytest.approx(float(_exact_tail(k, n, p)), rel=1e-9, abs=1e-300)
    with pytest.raises(ValueError):
        binomial_tail(1, 2, 0.0)


def _round(n: int, dealer: str, bets: list[tuple[str, Decimal]], late: tuple[str, ...] = ()) -> RoundDigest:
    """A round at table T-1 dealt by ``dealer``: bets (player, discrepancy); ``late`` players bet late."""
    checks = tuple(BetCheck(ExpectedSettlement(f"B{n}-{i}", p, "red", D(10), "lose", D(0)), None, disc)
                   for i, (p, disc) in enumerate(bets))
    violations = tuple(Violation(ViolationKind.PAST_POSTING, "late", "x", (), f"B{n}-{i}", p)
                       for i, (p, _d) in enumerate(bets) if p in late)
    return digest_of(RoundVerdict("CAS", "T-1", "french_roulette", "french_roulette.galicia", f"R{n}", dealer, T, T,
                                  "17", checks, violations))


def test_a_colluding_pair_is_found_among_dealers_who_err_at_the_same_rate():
    """Dealers D1..D4 deal 300 rounds each to players P1..P6 (one bet each a round) and over-pay one
    bet in 100, whoever the player (an honest error rate). D2 also over-pays P3 on 15 of his 300 bets
    more: 21 favours in 300 where D2's other pairs and P3's other pairs show about 1%. Only (D2, P3)
    is alerted, once, when it crosses the threshold, with both parties and the euros."""
    det = PairDetector()
    alerts = []
    n = 0
    for dealer in ("D1", "D2", "D3", "D4"):
        for r in range(300):
            n += 1
            bets = []
            for j, p in enumerate(["P1", "P2", "P3", "P4", "P5", "P6"]):
                error = (r * 6 + j) % 100 == 0
                extra = dealer == "D2" and p == "P3" and r % 20 == 5
                bets.append((p, D(5) if error or extra else D(0)))
            alerts += det.observe(_round(n, dealer, bets))
    assert [(a.kind, a.dealer_id, a.player_id) for a in alerts] == [(KIND, "D2", "P3")]
    favours, bets_, rate, p = det.p_value("D2", "P3")
    assert (favours, bets_) == (21, 300) and rate < 0.02 and p < 1e-6
    # raised when the pair crossed the threshold (13 favours by then), with what it showed then
    assert alerts[0].amount == D(65) and len(alerts[0].evidence) == 13 and "13 of" in alerts[0].message
    assert all(det.p_value(d, pl)[3] > 1e-3 for d in ("D1", "D3", "D4") for pl in ("P1", "P2", "P3", "P4"))


def test_a_player_favoured_by_every_dealer_is_not_one_pairs_fault():
    """P9 bets late at every dealer (5 in 100 of his bets, with each of D1..D3): no pair stands out
    against that player's other pairs, so nothing is alerted; the late bets are counted as favours."""
    det = PairDetector()
    alerts = []
    n = 0
    for dealer in ("D1", "D2", "D3"):
        for r in range(200):
            n += 1
            alerts += det.observe(_round(n, dealer, [("P9", D(0)), ("P1", D(0))], late=("P9",) if r % 20 == 0 else ()))
    assert alerts == []
    assert det.p_value("D1", "P9")[0] == 10


def test_it_is_a_detector():
    """The interface of :mod:`pitwatch.detectors.base`: keyed by the pair, versioned state."""
    from pitwatch.detectors.base import Detector

    det: Detector = PairDetector()  # mypy checks the structure; the runtime check the methods
    assert isinstance(det, Detector) and det.keyed_by == "dealer, player" and det.to_state()["version"] == 1


def test_the_state_is_versioned_json_and_resumes_the_same():
    """to_state -> JSON -> from_state: the same p-values, the same pairs alerted, and a further
    round gives the same alerts as on the original detector."""
    det = PairDetector(PairThresholds(min_favours=2, alpha=0.05, min_baseline=10))
    for n in range(40):
        det.observe(_round(n, "D1", [("P1", D(0)), ("P2", D(5) if n % 4 == 0 else D(0))]))
    copy = PairDetector.from_state(json.loads(json.dumps(det.to_state())), det.thresholds)
    assert copy.to_state() == det.to_state() and copy.p_value("D1", "P2") == det.p_value("D1", "P2")
    nxt = _round(99, "D1", [("P1", D(5)), ("P1", D(0))])
    assert [a.alert_id for a in copy.observe(nxt)] == [a.alert_id for a in det.observe(nxt)]
    with pytest.raises(ValueError, match="version"):
        PairDetector.from_state({"version": 0})


def test_no_false_alarm_on_simulated_evenings_with_random_dealer_errors():
    """Three simulated evenings (12 tables, 2 h, the default faults: wrong payouts, late bets and
    the rest, at random, whoever the player): no pair alerted."""
    from pitwatch.replay import replay_lines
    from pitwatch.sim.base import simulate

    for seed in (7, 8, 9):
        events, _ = simulate(12, 2.0, seed)
        det = PairDetector()
        lines = [json.dumps(e) for e in events]
        alerts = [a for item in replay_lines(lines, detectors=False) if item.verdict is not None
                  for a in det.observe(digest_of(item.verdict))]
        assert alerts == [], (seed, [a.message for a in alerts])
        assert sum(v.favours for v in det.dealers.values()) > 20  # the evenings do have favours
        # the replay runs the same detector itself (the casino's watch): nothing either
        assert [a for item in replay_lines(lines) for a in item.alerts if a.kind == KIND] == []
