"""The simulator's boule tables (pitwatch/sim/boule.py) judged by the engine: the croupier's payments are the
simulator's own (seven times on a number, a la par on a simple chance, every simple chance lost on the 5:
000 L359-L363; 002 L41-L43; 004 L966-L978), so a clean evening without alerts shows both agree; each injected
fault is caught by the alert of its kind in its round; an engine paying a number 8 to 1 is caught on every
winning number."""

from __future__ import annotations

import json
from collections import Counter
from decimal import Decimal

from pitwatch.replay import replay_lines
from pitwatch.sim.base import DEFAULT_FAULT_RATES, catalogue_tables, score, simulate
from pitwatch.sim.boule import payment

from tests.sim.test_evening import engine_ruleset_changed

TABLES = catalogue_tables(1, ["boule.galicia", "boule.andalucia", "boule.espana"])
"""A table of each ruleset: Andalucía (the second paño at twice the minimum), Spain (the first at twice it),
Galicia (two paños at the minimum), in ruleset order."""
RATES = {**DEFAULT_FAULT_RATES, "wrong_payout": 0.05, "late_bet": 0.05, "over_limit_bet": 0.05,
         "dropped_event": 0.005, "duplicated_event": 0.005, "chips_missing": 1.0}


def replayed(events: list[dict]) -> tuple[list[dict], list]:
    """(alerts as dicts, round verdicts) of the offline replay of ``events``."""
    items = list(replay_lines([json.dumps(e) for e in events]))
    return [a.to_json_dict() for item in items for a in item.alerts], [i.verdict for i in items if i.verdict]


def test_the_simulators_own_payments_worked_by_hand():
    """10 EUR on the 7 when the 7 comes out: 80 EUR back (000 L361); 10 EUR on red: 20 EUR (000 L363); on the 5
    every simple chance is lost and straight:5 returns 80 EUR (000 L345, L363)."""
    assert payment("a", "straight:7", Decimal("10"), 7).returned == Decimal("80")
    assert payment("b", "red", Decimal("10"), 7).returned == Decimal("20")
    assert payment("c", "straight:6", Decimal("10"), 7).outcome == "lose"
    assert [payment("d", c, Decimal("10"), 5).outcome for c in ("red", "black", "odd", "even", "manque", "passe")] \
        == ["lose"] * 6
    assert payment("e", "straight:5", Decimal("10"), 5).returned == Decimal("80")


def test_a_clean_evening_at_the_three_tables_raises_no_alert():
    """Three hours at each table, no fault: bets on every number and every simple chance, on both paños (one of
    them at twice the minimum at two tables), high rollers at the maxima; every number comes out, the 5 too;
    not one alert."""
    events, labels = simulate(TABLES, 3.0, 11, fault_rates={})
    events = list(events)
    assert labels == []
    alerts, verdicts = replayed(events)
    assert alerts == []
    assert len(verdicts) > 3 * 150
    spots = Counter(e["spot"] for e in events if e["type"] == "bet_placed")
    assert set(spots) == {f"straight:{n}" for n in range(1, 10)} | {"red", "black", "odd", "even", "manque", "passe"}
    assert {e["box"] for e in events if e["type"] == "bet_placed"} == {1, 2}
    assert {e["number"] for e in events if e["type"] == "ball_landed"} == set(range(1, 10))
    outcomes = Counter((c.expected.spot in ("red", "black", "odd", "even", "manque", "passe"), c.expected.outcome)
                       for v in verdicts for c in v.checks)
    assert outcomes[(True, "win")] and outcomes[(True, "lose")] and outcomes[(False, "win")]
    fives = [v for v in verdicts if v.outcome == "5 neither colour"]
    assert fives and all(c.expected.outcome == "lose" for v in fives for c in v.checks
                         if not c.expected.spot.startswith("straight:"))
    win = sum(f.win for v in verdicts for f in v.figures)
    theo = sum(f.theoretical_win for v in verdicts for f in v.figures)
    assert theo == sum((f.handle / 9).quantize(Decimal("0.0001")) for v in verdicts for f in v.figures)  # edge 1/9
    assert win != 0


def test_every_fault_of_a_faulty_evening_is_caught_in_its_round():
    """The three tables, three hours, the faults a boule table can have on: each label is caught by an alert of
    its kind in its round (a wrong payout by a payout_discrepancy, a late bet by past_posting, an over-limit bet
    by bet_above_maximum...), every alert explained by a label, none on a clean round."""
    events, labels = simulate(TABLES, 3.0, 5, fault_rates=RATES)
    alerts, _ = replayed(list(events))
    unseen = {(lb["table_id"], lb["bet_id"]) for lb in labels
              if lb["kind"] == "dropped_event" and "(settlement_recorded)" in lb["detail"]}
    labels = [lb for lb in labels if lb["kind"] != "wrong_payout" or (lb["table_id"], lb["bet_id"]) not in unseen]
    s = score(labels, alerts)
    assert set(s["recall"]) == {"wrong_payout", "late_bet", "over_limit_bet", "dropped_event", "duplicated_event",
                                "chips_missing"}
    for kind, (rate, caught, injected) in s["recall"].items():
        assert rate == 1.0, f"{kind}: caught {caught} of {injected}"
    assert s["alerts_on_clean_rounds"] == [] and s["precision"] == 1.0
    late = [a for a in alerts if a["kind"] == "past_posting"]
    assert late and all(any(line in a["citation"] for line in ("L373", "L59", "L1012-L1017")) for a in late)


def test_an_engine_paying_a_number_eight_to_one_is_caught(monkeypatch):
    """The engine changed to pay a number 8 to 1 (the texts say seven times: 000 L361): every winning number of a
    clean Galicia evening is one payout_discrepancy of one stake, the croupier (the simulator) having paid 7 to 1;
    nothing else is flagged."""
    engine_ruleset_changed(monkeypatch, "boule.galicia", "straight = 7 ", "straight = 8 ")
    events, _ = simulate([t for t in TABLES if t.ruleset_id == "boule.galicia"], 2.0, 3, fault_rates={})
    alerts, verdicts = replayed(list(events))
    winners = {c.expected.bet_id: c.expected.stake for v in verdicts for c in v.checks
               if c.expected.outcome == "win" and c.expected.spot.startswith("straight:")}
    assert winners and {a["kind"] for a in alerts} == {"payout_discrepancy"}
    assert {a["bet_id"]: Decimal(a["amount"]) for a in alerts} == {b: -s for b, s in winners.items()}
