"""The punto y banca round generator (pitwatch.sim.baccarat) through the rules engine.

A small stand-in for the framework of pitwatch.sim.base (same SimTable / Emit / Faults API) runs
prepare + play_round, records the payments play_round computes from the simulator's own payout
table (as the framework does) and checks: clean rounds are clean; each fault kind at rate 1 is detected in every round;
the shoe procedure (6 decks, cut card with 7 below, burn) passes the ruleset's checks.
"""

from __future__ import annotations

import random
import uuid
from collections import Counter
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pitwatch.rules.baccarat  # noqa: F401  (registers the game)
import pytest
from pitwatch.rules.base import RoundVerdict, ViolationKind, load_ruleset
from pitwatch.rules.engine import TableEngine
from pitwatch.rules.game import TableContext
from pitwatch.schemas.events import EVENT_CLASS_BY_TYPE
from pitwatch.sim import baccarat as sim

RULESETS = ("punto_banca.galicia", "punto_banca.asturias", "punto_banca.andalucia")


class Player:
    def __init__(self, player_id: str, seat: int, style: str):
        self.player_id, self.seat, self.style = player_id, seat, style


class Table:
    """Stand-in for pitwatch.sim.base.SimTable (stake in whole multiples of the minimum)."""

    def __init__(self, ruleset_id: str, min_bet: str, max_bet: str, seed: int):
        self.table_id = "PB-T"
        self.game = "punto_banca"
        self.ruleset_id = ruleset_id
        self.dealer_id = "D-1"
        self.min_bet, self.max_bet = Decimal(min_bet), Decimal(max_bet)
        self.options: dict[str, str] = {}
        self.players = [Player(f"P-{i}", i, s) for i, s in
                        enumerate(("cautious", "regular", "regular", "high_roller", "regular"), 1)]
        self.rng = random.Random(seed)
        self.state: dict = {}
        self.ctx = TableContext("C", self.table_id, self.game, load_ruleset(ruleset_id), self.min_bet,
                                self.max_bet)
        self._n = 0

    def stake(self, player, maximum=None) -> Decimal:
        hi = self.max_bet if maximum is None else min(maximum, self.max_bet)
        units_max = max(1, int(hi // self.min_bet))
        units = {"cautious": 1, "regular": self.rng.choice((1, 2, 3, 5))}.get(
            player.style, max(1, int(units_max * self.rng.uniform(0.2, 1.0))))
        return self.min_bet * min(units, units_max)

    def new_bet_id(self) -> str:
        self._n += 1
        return f"{self.table_id}-B{self._n:06d}"


class Emit:
    def __init__(self, table: Table):
        self.table = table
        self.engine = TableEngine(table.table_id)
        self.seq = 0
        self.clock = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)
        self.round_id: str | None = None
        self.verdicts: list[RoundVerdict] = []
        self.table_violations: list = []
        self.types: Counter = Counter()

    def _emit(self, type, round_id, actor, dt, payload):
        self.clock += timedelta(seconds=dt)
        self.seq += 1
        role, aid = actor or ("dealer", self.table.dealer_id)
        ev = EVENT_CLASS_BY_TYPE[type](
            event_id=uuid.UUID(int=self.seq), casino_id="C", table_id=self.table.table_id,
            game="punto_banca", seq=self.seq, round_id=round_id, occurred_at=self.clock,
            actor={"role": role, "id": aid}, type=type, **payload)
        self.types[type] += 1
        for o in self.engine.apply(ev):
            (self.verdicts if isinstance(o, RoundVerdict) else self.table_violations).append(o)
        return ev

    def __call__(self, type, *, actor=None, dt=1.0, **payload):
        return self._emit(type, self.round_id, actor, dt, payload)

    def table_event(self, type, *, actor=None, dt=1.0, **payload):
        return self._emit(type, None, actor, dt, payload)


class Faults:
    def __init__(self, kinds=()):
        self.kinds = set(kinds)
        self.labels: list[dict] = []

    def hit(self, kind: str) -> bool:
        return kind in self.kinds

    def label(self, kind, round_id, bet_id=None, detail=""):
        self.labels.append({"kind": kind, "round_id": round_id, "bet_id": bet_id, "detail": detail})


def run(ruleset_id: str, rounds: int, faults: Faults, seed: int = 1, lo="20", hi="2000"):
    table = Table(ruleset_id, lo, hi, seed)
    emit = Emit(table)
    emit.table_event("table_opened", ruleset_id=ruleset_id, jurisdiction=ruleset_id.split(".")[1],
                     min_bet=table.min_bet, max_bet=table.max_bet, float_amount=Decimal("20000"))
    start = None
    for n in range(rounds):
        sim.prepare(table, emit)
        emit.round_id = f"R{n:05d}"
        emit("round_started", dt=5)
        start = start or emit.clock
        for s in sim.play_round(table, emit.round_id, emit, faults):
            emit("settlement_recorded", dt=0.8, bet_id=s.bet_id, outcome=s.outcome, returned=s.returned,
                 commission=s.commission)
        emit("round_ended", dt=2)
        emit.round_id = None
    return emit, (emit.clock - start).total_seconds() / 3600


@pytest.mark.parametrize("rs", RULESETS)
def test_clean_rounds_have_no_violations(rs):
    emit, hours = run(rs, 400, Faults())
    assert len(emit.verdicts) == 400
    assert [v for vd in emit.verdicts for v in vd.violations] == []
    assert emit.table_violations == []
    assert emit.types["shoe_loaded"] >= 2  # 400 coups need more than one 6-deck shoe
    rate = 400 / hours
    assert 65 <= rate <= 95, rate
    spots = Counter(c.expected.spot for vd in emit.verdicts for c in vd.checks)
    total = sum(spots.values())
    assert 0.40 < spots["banca"] / total < 0.58 and 0.30 < spots["punto"] / total < 0.48
    assert 0.05 < spots["tie"] / total < 0.2
    outcomes = Counter(vd.outcome.rsplit(": ", 1)[-1] for vd in emit.verdicts)
    assert outcomes["tie"] > 0 and outcomes["banca"] > outcomes["tie"] and outcomes["punto"] > outcomes["tie"]


def test_shoe_is_six_decks_cut_at_seven_and_burned():
    """000 L435 (6 decks), L506 (7 cards under the cut card), L508 (burn = first card + its value)."""
    emit, _ = run("punto_banca.galicia", 5, Faults())
    assert emit.table_violations == []
    assert emit.types["shoe_loaded"] == 1 and emit.types["shoe_cut"] == 1 and emit.types["cards_burned"] == 1


@pytest.mark.parametrize("rs", RULESETS)
@pytest.mark.parametrize("kind,alert", [
    ("late_bet", ViolationKind.PAST_POSTING),
    ("over_limit_bet", ViolationKind.BET_ABOVE_MAXIMUM),
    ("dealer_misdraw", ViolationKind.DEALER_MISDRAW),
])
def test_each_fault_is_detected_every_round(rs, kind, alert):
    faults = Faults([kind])
    emit, _ = run(rs, 60, faults, seed=3)
    assert len(faults.labels) == 60
    for vd, label in zip(emit.verdicts, faults.labels):
        assert label["round_id"] == vd.round_id
        assert [v.kind for v in vd.violations] == [alert], (vd.outcome, label)
        if label["bet_id"]:
            assert vd.violations[0].bet_id == label["bet_id"]


def test_through_the_framework_simulate_clean_and_faulted():
    """pitwatch.sim.base.simulate with three punto y banca tables: no violation without faults;
    with late_bet/over_limit_bet/dealer_misdraw at 0.2 every label is caught in its round."""
    import json

    from pitwatch.schemas.events import parse_event
    from pitwatch.sim.base import FAULT_ALERTS, TableSpec, simulate

    specs = [TableSpec(f"PB-{j[:3].upper()}", "c1", "punto_banca", f"punto_banca.{j}", Decimal("20"),
                       Decimal("2000")) for j in ("galicia", "asturias", "andalucia")]
    for rates in ({}, {"late_bet": 0.2, "over_limit_bet": 0.2, "dealer_misdraw": 0.2}):
        events, labels = simulate(specs, 1.0, 11, rates)
        engines: dict[str, TableEngine] = {}
        found: dict[tuple[str, str], set[str]] = {}
        other = []
        for ev in events:
            e = parse_event(json.dumps(ev))
            for o in engines.setdefault(e.table_id, TableEngine(e.table_id)).apply(e):
                if isinstance(o, RoundVerdict):
                    for v in o.violations:
                        found.setdefault((o.table_id, o.round_id), set()).add(v.kind)
                else:
                    other.append(o)
        assert other == []
        if not rates:
            assert found == {} and labels == []
            continue
        assert labels
        for lb in labels:
            assert found.get((lb["table_id"], lb["round_id"]), set()) & FAULT_ALERTS[lb["kind"]], lb
        labelled = {(lb["table_id"], lb["round_id"]) for lb in labels}
        assert set(found) <= labelled
