"""The French roulette simulator: clean rounds are clean, injected faults are detected.

Runs the simulator framework (pitwatch.sim.base.simulate) on roulette tables and folds the
emitted events through a fresh rules engine, as the pipeline does.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from decimal import Decimal

import pitwatch.rules.roulette  # noqa: F401  (registers the game)
import pytest
from pitwatch.rules.base import RoundVerdict
from pitwatch.rules.engine import TableEngine
from pitwatch.schemas.events import parse_event
from pitwatch.sim.base import TableSpec, simulate

GAL = TableSpec("GAL-RF-01", "gal-coruna", "french_roulette", "french_roulette.galicia",
                Decimal("5.00"), Decimal("900.00"))
AND = TableSpec("AND-RF-02", "and-marbella", "french_roulette", "french_roulette.andalucia",
                Decimal("5.00"), Decimal("900.00"), {"max_tier": "2", "simple_chance_min_multiple": "2"})


def run(specs, hours, rates, seed=7):
    """Simulate and fold; returns (events, verdicts, table-level violations, labels)."""
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
    return run([GAL, AND], 4.0, {})


def test_clean_simulation_has_no_violation(clean_run):
    """Faults off: every round of both rulesets (Galicia 000 / Andalucía 004) is clean."""
    events, verdicts, table_violations, labels = clean_run
    assert labels == []
    assert table_violations == []
    bad = [(v.round_id, x.kind, x.message) for v in verdicts for x in v.violations]
    assert bad == []
    assert len(verdicts) > 150


def test_clean_simulation_is_realistic(clean_run):
    """40-60 spins per hour; uniform-looking results; zeros met by decisions; bets of every
    style; prisoners settled; directions alternate."""
    events, verdicts, _, _ = clean_run
    for table in (GAL.table_id, AND.table_id):
        rounds = [v for v in verdicts if v.table_id == table]
        t0 = datetime.fromisoformat(rounds[0].started_at.isoformat())
        t1 = datetime.fromisoformat(rounds[-1].ended_at.isoformat())
        per_hour = len(rounds) / ((t1 - t0).total_seconds() / 3600)
        assert 40 <= per_hour <= 60, per_hour
    numbers = Counter(e["number"] for e in events if e["type"] == "ball_landed")
    assert len(numbers) >= 30 and max(numbers.values()) < 30
    types = Counter(e["type"] for e in events)
    assert types["player_decision"] > 0
    decisions = Counter(e["decision"] for e in events if e["type"] == "player_decision")
    assert decisions["half_back"] > 0 and decisions["en_prison"] > 0
    outcomes = Counter(c.expected.outcome for v in verdicts for c in v.checks)
    assert outcomes["released"] + outcomes["lose"] > 0 and outcomes["en_prison"] > 0
    kinds = Counter(e["spot"].split(":")[0] for e in events if e["type"] == "bet_placed")
    assert kinds["straight"] > kinds["split"] > kinds["corner"] > 0
    assert kinds["red"] + kinds["black"] + kinds["even"] + kinds["odd"] + kinds["manque"] + kinds["passe"] > 0
    dirs = [e["direction"] for e in events if e["type"] == "wheel_spun" and e["table_id"] == GAL.table_id]
    assert all(a != b for a, b in zip(dirs, dirs[1:]))


def test_sim_prisoner_tracking_matches_the_engine(monkeypatch):
    """The simulator's own record of bets in prison (on which its payments of later spins rest)
    equals the engine's after every spin (checked on a run long enough to meet several zeros)."""
    from pitwatch.sim import base
    from pitwatch.sim import roulette as sim_roulette

    engine = TableEngine(GAL.table_id)
    emit_event, play_round = base._TableRunner.emit, sim_roulette.play_round
    seen = []

    def emit_and_fold(runner, type, round_id, actor, dt, payload):
        ev = emit_event(runner, type, round_id, actor, dt, payload)
        engine.apply(parse_event(json.dumps(ev)))
        return ev

    def spy(table, round_id, emit, faults):
        if engine.ctx is not None:
            ours = {b: (p["initial"], p["zeros"]) for b, p in table.state.get("prisoners", {}).items()}
            theirs = {p.bet_id: (p.initial, p.detail["zeros"]) for p in engine.ctx.book}
            seen.append(bool(ours))
            assert ours == theirs, round_id
        return play_round(table, round_id, emit, faults)

    monkeypatch.setattr(base._TableRunner, "emit", emit_and_fold)
    monkeypatch.setattr(sim_roulette, "play_round", spy)
    events, _ = base.simulate([GAL], 3.0, 12, fault_rates={})
    list(events)
    assert any(seen)


@pytest.mark.parametrize("fault,kind", [
    ("late_bet", "past_posting"),
    ("over_limit_bet", "bet_above_maximum"),
    ("spin_direction", "spin_direction"),
])
def test_each_fault_is_detected(fault, kind):
    """Fault at rate 1: every labelled round shows the matching violation and nothing else."""
    _, verdicts, table_violations, labels = run([GAL, AND], 0.5, {fault: 1.0}, seed=3)
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
