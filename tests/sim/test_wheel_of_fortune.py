"""The simulator's wheel of fortune tables (pitwatch/sim/wheel_of_fortune.py) judged by the engine: the
croupier pays from the simulator's own reading of the texts (Galicia 000 L1063-L1097; Andalucía
004 L5697-L5796), so a clean evening without alerts shows both agree; each injected fault is caught by the
alert of its kind in its round, and an engine paying another ratio than the text is caught on clean rounds."""

from __future__ import annotations

import json
from collections import Counter
from decimal import Decimal

from pitwatch.replay import replay_lines
from pitwatch.sim.base import DEFAULT_FAULT_RATES, score, simulate
from pitwatch.sim.wheel_of_fortune import WHEELS, payment, wheel_tables

from tests.sim.test_evening import audit, engine_ruleset_changed

D = Decimal
TABLES = wheel_tables()
RATES = {**DEFAULT_FAULT_RATES, "wrong_payout": 0.05, "late_bet": 0.03, "over_limit_bet": 0.03,
         "spin_direction": 0.05, "dropped_event": 0.005, "duplicated_event": 0.005, "chips_missing": 1.0}


def alerts_of(events: list[dict]) -> list[dict]:
    lines = [json.dumps(e) for e in events]
    return [{**a.to_json_dict(), "parties": list(a.parties)} for item in replay_lines(lines) for a in item.alerts]


def test_the_simulators_payouts_are_the_texts_by_hand():
    """10.00 EUR on each symbol the wheel stops on: 000 L1085 «1 a 1» ... «45 a 1»; 004 L5737-L5748
    «Una vez» ... «Cuarenta y cinco veces el valor de la apuesta»; a void spin returns the stake."""
    gal, anda = WHEELS["wheel_of_fortune.galicia"], WHEELS["wheel_of_fortune.andalucia"]
    for rules, joker in ((gal, "fortune_joker_red"), (anda, "fortune_figure_2")):
        got = {s: payment(rules, "B", s, D("10.00"), s).returned for s in ("fortune_24", "fortune_15", "fortune_7",
                                                                           "fortune_4", "fortune_2", joker)}
        assert got == {"fortune_24": D("20.00"), "fortune_15": D("30.00"), "fortune_7": D("60.00"),
                       "fortune_4": D("110.00"), "fortune_2": D("210.00"), joker: D("460.00")}
        assert sum(n for n, _ in rules.symbols.values()) == 54
        assert payment(rules, "B", "fortune_24", D("10.00"), "fortune_2") == payment(rules, "B", "fortune_24", D(0),
                                                                                     "fortune_2")
        assert payment(rules, "B", "fortune_24", D("10.00"), None).returned == D("10.00")


def test_a_clean_evening_follows_the_texts_and_raises_no_alert():
    """Four hours at each table, no fault: every numbered symbol staked and won, a joker or figure too,
    void spins (pivot; in Andalucía short spins and an obstructed wheel too) voided by the croupier, two
    clockwise impulses per Andalusian spin, the winners paid smallest stake first; not one alert."""
    events, labels = simulate(TABLES, 4.0, 3, fault_rates={})
    events = list(events)
    assert labels == []
    verdicts = [item.verdict for item in replay_lines([json.dumps(e) for e in events]) if item.verdict]
    assert len(verdicts) > 300
    for spec in TABLES:
        evs = [e for e in events if e["table_id"] == spec.table_id]
        rounds = sum(1 for e in evs if e["type"] == "round_started")
        spins = Counter(e["direction"] for e in evs if e["type"] == "wheel_spun")
        won = {c.expected.spot for v in verdicts if v.table_id == spec.table_id for c in v.checks
               if c.expected.outcome == "win"}
        symbols = list(WHEELS[spec.ruleset_id].symbols)
        assert set(symbols[:5]) <= won and won & set(symbols[5:])  # the jokers or figures: 1 segment in 54
        assert any(e["type"] == "round_voided" for e in evs)
        if spec.ruleset_id.endswith("andalucia"):
            assert spins == {"clockwise": 2 * rounds}
        else:
            assert sum(spins.values()) == rounds and len(spins) == 2
    outcomes = Counter(c.expected.outcome for v in verdicts for c in v.checks)
    assert outcomes["win"] and outcomes["lose"] and outcomes["void"]
    assert alerts_of(events) == []


def test_every_fault_of_a_faulty_evening_is_caught_in_its_round():
    """Both tables, three hours, the faults a wheel table can have: each label is caught by an alert of its
    kind in its round (a late bet: past_posting, 000 L1095 / 004 L5762-L5767; a counterclockwise impulse in
    Andalucía: spin_direction, 004 L5756-L5760), every alert explained by a label."""
    events, labels = simulate(TABLES, 3.0, 5, fault_rates=RATES)
    alerts = alerts_of(list(events))
    unseen = {(lb["table_id"], lb["bet_id"]) for lb in labels
              if lb["kind"] == "dropped_event" and "(settlement_recorded)" in lb["detail"]}
    labels = [lb for lb in labels if lb["kind"] != "wrong_payout" or (lb["table_id"], lb["bet_id"]) not in unseen]
    s = score(labels, alerts)
    assert {"wrong_payout", "late_bet", "over_limit_bet", "spin_direction"} <= set(s["recall"])
    for kind, (rate, caught, injected) in s["recall"].items():
        assert rate == 1.0, f"{kind}: caught {caught} of {injected}"
    assert s["alerts_on_clean_rounds"] == [] and s["precision"] == 1.0
    directions = [lb for lb in labels if lb["kind"] == "spin_direction"]
    assert directions and {lb["table_id"] for lb in directions} == {"AND-WF-02"}


def test_engine_paying_the_7_six_to_one_is_caught(monkeypatch):
    """Engine changed to pay the 7 six to one (the seed says 5 a 1: 000 L1085): every winning bet on the 7
    of a clean evening is one payout_discrepancy of one stake (the croupier, the simulator, paid 5 to 1);
    nothing else is flagged."""
    engine_ruleset_changed(monkeypatch, "wheel_of_fortune.galicia", "payout = 5 ", "payout = 6 ")
    alerts, verdicts, _ = audit("wheel_of_fortune.galicia", 2.0)
    won = [c.expected for v in verdicts for c in v.checks if c.expected.spot == "fortune_7" and c.expected.outcome == "win"]
    assert won
    assert sorted((a.kind, a.bet_id, a.amount) for a in alerts) == sorted(
        ("payout_discrepancy", e.bet_id, -e.stake) for e in won)
