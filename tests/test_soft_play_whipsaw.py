"""Soft play and whipsaw (:mod:`pitwatch.detectors.soft_play`, :mod:`pitwatch.detectors.whipsaw`) and
what they share (:mod:`pitwatch.detectors.pair_rates`, :mod:`pitwatch.detectors.poker_play`): a hand's
decisions read by hand, the exact tail against rational arithmetic, rings found among players of
different styles and nobody else, a timid or a maniac player not blamed on a pair, the state as
versioned JSON, no alert on the 999 real hands, and the simulator's rings found through the watch."""

from __future__ import annotations

import json
import random
import warnings
from datetime import datetime, timezone
from decimal import Decimal
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.detectors.digest import DigestBet, RoundDigest, digest_of
from pitwatch.detectors.pair_behaviour import PairThresholds
from pitwatch.detectors.pair_rates import beta_binomial_tail
from pitwatch.detectors.poker_play import Situation, situations
from pitwatch.detectors.soft_play import SoftPlayDetector
from pitwatch.detectors.whipsaw import WhipsawDetector
from pitwatch.replay import replay_lines
from pitwatch.schemas.events import dump_event
from pitwatch.schemas.phh import import_phh
from pitwatch.sim.base import default_floor, ring_members, ring_parties, simulate

from tests.rules.phh import PHH

D = Decimal
T = datetime(2026, 11, 27, 21, 0, tzinfo=timezone.utc)


def test_a_hands_decisions_are_read_with_who_was_in_and_whose_bet_was_faced():
    """Blinds A (small) and B (big) are no decisions; C raises (nobody had bet: no aggressor), D folds
    facing C, A calls C, B re-raises C with A still in, C calls B; on the flop (interval 1) the
    aggressor starts empty again: A checks, B bets, A folds facing B, C calls B heads-up."""
    taken = [(0, "A", "small_blind", False), (0, "B", "big_blind", False), (0, "C", "raise", True),
             (0, "D", "fold", True), (0, "A", "call", True), (0, "B", "raise", True), (0, "C", "call", False),
             (1, "A", "check", True), (1, "B", "bet", True), (1, "A", "fold", True), (1, "C", "call", True)]
    four, three = frozenset("ABCD"), frozenset("ABC")
    assert situations(taken) == [
        Situation(0, "C", "raise", four, "", True), Situation(0, "D", "fold", four, "C", True),
        Situation(0, "A", "call", three, "C", True), Situation(0, "B", "raise", three, "C", True),
        Situation(0, "C", "call", three, "B", False), Situation(1, "A", "check", three, "", True),
        Situation(1, "B", "bet", three, "", True), Situation(1, "A", "fold", three, "B", True),
        Situation(1, "C", "call", frozenset("BC"), "B", True)]


def _exact_tail(hits: int, n: int, a: int, b: int, upper: bool) -> Fraction:
    """P(X >= hits) or P(X <= hits), X beta-binomial(n, a, b) with whole a and b, in rationals:
    C(n, k) B(k + a, n - k + b) / B(a, b), B(x, y) = (x-1)! (y-1)! / (x+y-1)!."""
    def beta(x: int, y: int) -> Fraction:
        return Fraction(_fact(x - 1) * _fact(y - 1), _fact(x + y - 1))
    ks = range(hits, n + 1) if upper else range(hits + 1)
    return sum((comb(n, k) * beta(k + a, n - k + b) / beta(a, b) for k in ks), Fraction(0))


def _fact(k: int) -> int:
    out = 1
    for i in range(2, k + 1):
        out *= i
    return out


@pytest.mark.parametrize("hits,upper", [(0, False), (1, False), (6, True), (10, True), (3, True)])
def test_the_beta_binomial_tail_is_exact(hits, upper):
    """a = 2, b = 5: mean 2/7, variance ab / ((a+b)^2 (a+b+1)) = 10/392; ten trials."""
    got = beta_binomial_tail(hits, 10, 2 / 7, 10 / 392, upper)
    assert got == pytest.approx(float(_exact_tail(hits, 10, 2, 5, upper)), rel=1e-9)


@given(st.integers(1, 40), st.integers(1, 9), st.integers(1, 9), st.data())
@settings(max_examples=150, deadline=None)
def test_either_tail_is_exact_for_any_count(n, a, b, data):
    """Whichever side of the mode ``hits`` lies (a far tail summed outwards, or one less the other
    side), the tail is the rational sum."""
    hits, upper = data.draw(st.integers(0, n)), data.draw(st.booleans())
    mean, var = a / (a + b), a * b / ((a + b) ** 2 * (a + b + 1))
    want = float(_exact_tail(hits, n, a, b, upper))
    assert beta_binomial_tail(hits, n, mean, var, upper) == pytest.approx(want, rel=1e-9, abs=1e-15)


def test_with_no_variance_the_tail_is_the_binomials():
    """No hit in 40 trials at 0.3: 0.7^40; at least 25 hits in 40 at 0.3: the binomial sum."""
    assert beta_binomial_tail(0, 40, 0.3, 0.0, False) == pytest.approx(0.7 ** 40, rel=1e-6)
    want = sum(comb(40, k) * Fraction(3, 10) ** k * Fraction(7, 10) ** (40 - k) for k in range(25, 41))
    assert beta_binomial_tail(25, 40, 0.3, 0.0, True) == pytest.approx(float(want), rel=1e-6)


def _digest(n: int, taken: list[tuple[int, str, str, bool]], stakes: dict[str, str]) -> RoundDigest:
    bets = tuple(DigestBet(f"H{n}:{p}", p, D(s), D(0), D(0)) for p, s in stakes.items())
    return RoundDigest("CAS", "PK-1", "poker", f"H{n}", "D-1", T, "poker.andalucia", "h", bets, tuple(taken))


PLAYERS = [f"P{i}" for i in range(1, 9)]
AGGRESSION = {p: 0.35 for p in PLAYERS} | {"P5": 0.05, "P6": 0.8}
"""How often each player bets when he can: P5 timid, P6 a maniac, the others regular."""


def _heads_up_table(hands: int, seed: int, ring: tuple[str, str] | None) -> tuple[SoftPlayDetector, list]:
    """``hands`` hands that end heads-up between two players at random (the others folded first);
    each then makes two or three decisions, betting with his own frequency (:data:`AGGRESSION`); the
    ``ring`` never bets into each other."""
    rng = random.Random(seed)
    det, alerts = SoftPlayDetector(), []
    for n in range(hands):
        seated = rng.sample(PLAYERS, 4)
        a, b = seated[:2]
        taken = [(0, p, "fold", True) for p in seated[2:]]
        for k in range(rng.randint(2, 3)):
            p = (a, b)[k % 2]
            soft = ring is not None and {a, b} == set(ring)
            taken.append((1, p, "bet" if not soft and rng.random() < AGGRESSION[p] else "check", True))
        alerts += det.observe(_digest(n, taken, {a: "10", b: "10"}))
    return det, alerts


def test_a_soft_play_ring_is_found_and_nobody_else():
    """P2 and P3 never bet into each other heads-up: the pair is alerted once, naming both, with the
    chips they put in the hands they played together; P5 (timid) and P6 (a maniac) are not."""
    _, alerts = _heads_up_table(4000, 1, ("P2", "P3"))
    assert [(a.kind, a.parties) for a in alerts] == [("soft_play", ("player:P2", "player:P3"))]
    assert alerts[0].score > 7 and alerts[0].amount > 0 and "0 times" in alerts[0].message


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_a_timid_player_is_not_a_soft_play_ring(seed):
    """P5 seldom bets into anybody: against P6 or anyone else his pairs are what his record with the
    others predicts (the log5 null, not the table's rate): no alert."""
    det, alerts = _heads_up_table(4000, seed, None)
    assert alerts == []
    z, ab, _ = det.score("P5", "P6")
    assert ab.hits / ab.n < 0.2 and z < 3


def _raising_table(hands: int, seed: int, ring: tuple[str, ...] | None,
                   det: WhipsawDetector | None = None) -> tuple[WhipsawDetector, list]:
    """``hands`` hands of three players: the first bets, the second faces his bet with the third
    still in and raises with his own frequency (half of :data:`AGGRESSION`), the third calls, the first
    faces the raise and raises again likewise. Two players of the ``ring`` with a third of no ring
    re-raise each other every time."""
    rng = random.Random(seed)
    det, alerts = det or WhipsawDetector(), []
    for n in range(hands):
        a, b, c = rng.sample(PLAYERS, 3)
        ring_on = ring is not None and {a, b} <= set(ring) and c not in ring
        taken = [(1, a, "bet", True)]
        hit = ring_on or rng.random() < AGGRESSION[b] / 2
        taken.append((1, b, "raise" if hit else "call", True))
        taken.append((1, c, "call", True))
        if hit:
            taken.append((1, a, "raise" if ring_on or rng.random() < AGGRESSION[a] / 2 else "call", True))
        alerts += det.observe(_digest(n, taken, {a: "20", b: "20", c: "20"}))
    return det, alerts


def test_a_whipsaw_ring_is_found_and_nobody_else():
    """P2 and P3 re-raise each other whenever they meet with a third player in: alerted once, naming
    both, with what the third players put in; the maniac P6 re-raising everybody is not."""
    _, alerts = _raising_table(4000, 5, ("P2", "P3"))
    assert [(a.kind, a.parties) for a in alerts] == [("whipsaw", ("player:P2", "player:P3"))]
    assert alerts[0].score > 7 and alerts[0].amount > 0


def test_the_other_members_of_a_ring_of_three_leave_a_players_baseline():
    """P2, P3 and P4 whipsaw each other: P2's re-raises of P4 are no part of his honest record, so the
    null of the pair (P2, P3) is the others' rate, not lifted by the third partner; trimmed, its z
    rises (the same hands, the same counts, only the baselines differ)."""
    plain = _raising_table(600, 1, ("P2", "P3", "P4"),
                           WhipsawDetector(PairThresholds(5.5, 20, 100, trim_z=None)))[0]
    trimmed = _raising_table(600, 1, ("P2", "P3", "P4"))[0]
    (z0, ab0, _), (z1, ab1, _) = plain.score("P2", "P3"), trimmed.score("P2", "P3")
    assert ab1.null < 0.6 * ab0.null and z1 > z0 + 2


@pytest.mark.parametrize("seed", [6, 7, 8])
def test_a_maniac_re_raising_everybody_is_not_a_whipsaw_ring(seed):
    assert _raising_table(4000, seed, None)[1] == []


def test_the_states_are_versioned_json_and_round_trip():
    for det, cls in ((_heads_up_table(400, 9, ("P2", "P3"))[0], SoftPlayDetector),
                     (_raising_table(400, 9, ("P2", "P3"))[0], WhipsawDetector)):
        state = json.loads(json.dumps(det.to_state()))
        again = cls.from_state(state)
        assert again.to_state() == det.to_state() and again.score("P2", "P3") == det.score("P2", "P3")
        state["version"] = 99
        with pytest.raises(ValueError, match="version 99"):
            cls.from_state(state)


def test_no_alert_on_the_999_real_hands():
    """Real play (Absolute Poker, 2009), through the casino's watch: every alert would be a false
    alarm; there is none."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        lines = [dump_event(e) for e in import_phh(PHH)]
    items = list(replay_lines(lines))
    assert [a for item in items for a in item.alerts if a.kind in ("soft_play", "whipsaw")] == []
    soft, whipsaw = SoftPlayDetector(), WhipsawDetector()
    for item in items:
        if item.verdict is not None:
            soft.observe(digest_of(item.verdict))
            whipsaw.observe(digest_of(item.verdict))
    assert soft.rates.total[1] > 1000 and whipsaw.rates.total[1] > 500  # the hands' decisions were read


@pytest.mark.parametrize("kind,hours,rate", [("soft_play", 60, 1.0), ("whipsaw", 40, 0.5)])
def test_the_simulated_ring_is_found_and_no_honest_pair(kind, hours, rate):
    """The poker simulator's rings (soft play: the fourth and fifth players only check and call when
    left heads-up together; whipsaw: the sixth and seventh re-raise each other around a third player
    on half the hands they play together): the ring is alerted through the casino's watch, no other
    pair."""
    spec = next(s for s in default_floor(8) if s.game == "poker")
    events, labels = simulate([spec], hours, 4, fault_rates={kind: rate})
    alerts = [a for item in replay_lines(json.dumps(e) for e in events) for a in item.alerts if a.kind == kind]
    a, b = ring_parties(kind, spec.table_id)
    assert labels and [al.parties for al in alerts] == [(f"player:{a}", f"player:{b}")]


def test_a_ring_of_three_is_played_by_its_three_players():
    """A soft-play ring of three: the table's fourth, fifth and eighth players (their pairs all play
    soft); chip dumping stays a pair; five players is more than a ring the simulator plays."""
    assert ring_members("soft_play", "T", 3) == ("P-T-004", "P-T-005", "P-T-008")
    assert ring_members("chip_dumping", "T", 3) == ring_parties("chip_dumping", "T")
    with pytest.raises(ValueError, match="2 to 4 players"):
        ring_members("whipsaw", "T", 5)
    spec = next(s for s in default_floor(8) if s.game == "poker")
    events, labels = simulate([spec], 20, 4, fault_rates={"soft_play": 1.0}, ring_size=3)
    list(events)
    named = {p for lb in labels for p in lb["detail"].replace(",", "").split() if p.startswith("P-")}
    assert named == set(ring_members("soft_play", spec.table_id, 3))
