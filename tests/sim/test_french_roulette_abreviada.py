"""The ruleta francesa abreviada simulator (pitwatch/sim/french_roulette_abreviada.py) judged by the engine.

The simulator plays the ordinary roulette's spins on the abbreviated layout (004_5c9c19b250457762.txt
L441-L454) and pays from its own table (written from 004 L217-L264, not from the engine): a clean evening
without one violation shows both agree; each injected fault is caught by the violation of its kind in its
spin, and nothing else is flagged.
"""

from __future__ import annotations

import json
from collections import Counter
from decimal import Decimal

import pytest
from pitwatch.rules.base import RoundVerdict
from pitwatch.rules.engine import TableEngine
from pitwatch.schemas.events import parse_event
from pitwatch.sim import french_roulette_abreviada as sim
from pitwatch.sim.base import simulate

from tests.sim.test_evening import engine_ruleset_changed

RA = sim.table()
RA3 = sim.table("AND-RA-02")
RA3.options = {"max_tier": "3"}
ALLOWED = {"straight", "split", "street", "corner", "sixline"}
ZERO_SPOTS = {"straight:0", "split:0-1", "split:0-2", "split:0-3", "street:0-1-2", "street:0-2-3",
              "corner:0-1-2-3"}
"""The spots that cover the zero (004 L221-L249): they win on it, every other loses."""


def run(specs, hours, rates, seed=7):
    """Simulate and fold through a fresh engine per table: (events, verdicts, table violations, labels)."""
    events, labels = simulate(specs, hours, seed, fault_rates=rates)
    events = list(events)
    engines: dict[str, TableEngine] = {}
    verdicts, table_violations = [], []
    for raw in events:
        ev = parse_event(json.dumps(raw))
        eng = engines.setdefault(ev.table_id, TableEngine(ev.table_id))
        for item in eng.apply(ev):
            (verdicts if isinstance(item, RoundVerdict) else table_violations).append(item)
    return events, verdicts, table_violations, labels


@pytest.fixture(scope="module")
def clean_run():
    return run([RA, RA3], 4.0, {})


def test_a_clean_evening_has_no_violation(clean_run):
    events, verdicts, table_violations, labels = clean_run
    assert labels == [] and table_violations == []
    assert [(v.round_id, x.kind, x.message) for v in verdicts for x in v.violations] == []
    assert len(verdicts) > 300 and {v.game for v in verdicts} == {"french_roulette_abreviada"}


def test_a_clean_evening_plays_only_the_bets_of_the_abbreviated_layout_004_L452_L454(clean_run):
    events, verdicts, _, _ = clean_run
    kinds = Counter(e["spot"].split(":")[0] for e in events if e["type"] == "bet_placed")
    assert set(kinds) == ALLOWED and kinds["straight"] > kinds["split"] > kinds["corner"] > 0
    spots = {e["spot"] for e in events if e["type"] == "bet_placed"}
    assert "corner:0-1-2-3" in spots and spots & {"street:0-1-2", "street:0-2-3"}
    types = Counter(e["type"] for e in events)
    assert types["player_decision"] == 0 and types["ball_landed"] == len(verdicts)
    outcomes = Counter(c.expected.outcome for v in verdicts for c in v.checks)
    assert set(outcomes) == {"win", "lose"} and outcomes["win"] > 100
    # the zero: the bets on it are paid, the others lost (004 L304-L324 concerns only simple chances)
    zero = [c.expected for v in verdicts if v.outcome == "0 zero" for c in v.checks]
    assert zero and all((e.outcome == "win") == (e.spot in ZERO_SPOTS)
                        for e in zero)
    dirs = [e["direction"] for e in events if e["type"] == "wheel_spun" and e["table_id"] == RA.table_id]
    assert all(a != b for a, b in zip(dirs, dirs[1:]))


def test_the_simulator_pays_from_its_own_table_written_from_the_seed():
    """004 L221-L264 by hand: 10.00 on each kind, the winning number in each."""
    got = sim.payments(0, [("a", "straight:0", Decimal("10.00")), ("b", "split:0-3", Decimal("10.00")),
                           ("c", "street:0-1-2", Decimal("10.00")), ("d", "corner:0-1-2-3", Decimal("10.00")),
                           ("e", "sixline:1-2-3-4-5-6", Decimal("10.00")), ("f", "straight:17", Decimal("10.00"))])
    assert [(p.bet_id, p.outcome, p.returned) for p in got] == [
        ("a", "win", Decimal("360.00")), ("b", "win", Decimal("180.00")), ("c", "win", Decimal("120.00")),
        ("d", "win", Decimal("90.00")), ("e", "lose", Decimal("0.00")), ("f", "lose", Decimal("0.00"))]
    assert sim.payments(6, [("e", "sixline:1-2-3-4-5-6", Decimal("10.00"))])[0].returned == Decimal("60.00")


@pytest.mark.parametrize("fault,kind", [
    ("late_bet", "past_posting"),
    ("over_limit_bet", "bet_above_maximum"),
    ("spin_direction", "spin_direction"),
    ("off_layout_bet", "invalid_bet"),
    ("wrong_payout", "payout_discrepancy"),
])
def test_each_fault_is_caught_in_its_spin_and_nothing_else_is_flagged(fault, kind):
    _, verdicts, table_violations, labels = run([RA, RA3], 0.5, {fault: 1.0}, seed=3)
    assert labels and all(lb["kind"] == fault for lb in labels)
    by_round = {(v.table_id, v.round_id): v for v in verdicts}
    for lb in labels:
        v = by_round[(lb["table_id"], lb["round_id"])]
        assert {x.kind for x in v.violations} == {kind}, (lb, v.violations)
        if lb["bet_id"]:
            assert lb["bet_id"] in {x.bet_id for x in v.violations}
    labelled = {(lb["table_id"], lb["round_id"]) for lb in labels}
    assert all(not v.violations for k, v in by_round.items() if k not in labelled)
    assert table_violations == []


def test_a_bet_off_the_layout_is_refused_citing_004_L447_L454_and_its_chips_handed_back():
    _, verdicts, _, labels = run([RA], 0.5, {"off_layout_bet": 1.0}, seed=5)
    off = {lb["bet_id"] for lb in labels}
    checks = [c for v in verdicts for c in v.checks if c.expected.bet_id in off]
    assert len(checks) == len(off) > 10
    assert all(c.expected.outcome == "refused" and c.recorded.returned == c.expected.stake for c in checks)
    assert all(x.citation.startswith("004_5c9c19b250457762.txt L447-L454")
               for v in verdicts for x in v.violations)


def test_an_engine_paying_a_sixline_6_to_1_is_caught(monkeypatch):
    """Engine changed to pay a sixline 6 to 1 (the seed says «cinco veces»: 004 L261-L264): every winning
    sixline of a clean evening is one payout_discrepancy of one stake; nothing else is flagged."""
    engine_ruleset_changed(monkeypatch, sim.RULESET, "\nsixline = 5 ", "\nsixline = 6 ")
    _, verdicts, _, _ = run([RA], 2.0, {})
    won = [c.expected for v in verdicts for c in v.checks
           if c.expected.spot.startswith("sixline:") and c.expected.outcome == "win"]
    assert won
    assert sorted((x.kind, x.bet_id, x.amount) for v in verdicts for x in v.violations) == sorted(
        ("payout_discrepancy", e.bet_id, -e.stake) for e in won)


def test_the_score_counts_a_bet_off_the_layout_caught_by_its_invalid_bet():
    """Defect: :func:`pitwatch.sim.base.score` raised ``KeyError: 'off_layout_bet'`` on an evening with an
    abreviada table (its fault kind had no entry in ``FAULT_ALERTS``)."""
    from pitwatch.sim.base import score

    _, verdicts, _, labels = run([RA], 0.5, {"off_layout_bet": 1.0}, seed=5)
    alerts = [{"kind": x.kind, "table_id": v.table_id, "round_id": v.round_id} for v in verdicts for x in v.violations]
    s = score(labels, alerts)
    assert s["recall"]["off_layout_bet"] == (1.0, len(labels), len(labels)) and len(labels) > 10
    assert s["alerts_on_clean_rounds"] == []
