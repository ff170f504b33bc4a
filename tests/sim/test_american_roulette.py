"""The simulator's American roulette tables (pitwatch/sim/american_roulette.py) judged by the engine: colour
chips valued by the players' markers or left at the table minimum (000 L207, L227; 004 L479-L486,
L554-L559), bets in colour and value chips, half of a simple chance back at zero (000 L225; 004 L543-L545),
every payment from the simulator's own table. A clean evening raises no alert; each injected fault is caught
in its spin by the alert of its kind."""

from __future__ import annotations

import json
from collections import Counter
from decimal import Decimal

import pytest
from pitwatch.replay import replay_lines
from pitwatch.sim.american_roulette import WINNINGS, american_roulette_table, payment
from pitwatch.sim.base import score, simulate

from tests.sim.test_evening import audit, engine_ruleset_changed

TABLES = [american_roulette_table("GAL-RA-01", "gal-coruna", "american_roulette.galicia"),
          american_roulette_table("AND-RA-02", "and-marbella", "american_roulette.andalucia")]
RATES = {"wrong_payout": 0.03, "late_bet": 0.03, "over_limit_bet": 0.03, "spin_direction": 0.03,
         "colour_misvalued": 0.1, "chips_missing": 1.0}


def alerts_of(events: list[dict]) -> list[dict]:
    return [a.to_json_dict() for item in replay_lines([json.dumps(e) for e in events]) for a in item.alerts]


def test_the_simulators_own_payouts_by_hand():
    """10 EUR: a straight-up on 17 returns 360 (000 L133), two columns 15 (000 L149), red at zero 5 (000 L225),
    red on 17 nothing; WINNINGS are the ratios of the texts (000 L121-L153; 004 L221-L302)."""
    assert payment("a", "straight:17", Decimal(10), 17).returned == Decimal("360.00")
    assert payment("b", "columns:1-2", Decimal(10), 17).returned == Decimal("15.00")
    assert (payment("c", "red", Decimal(10), 0).outcome, payment("c", "red", Decimal(10), 0).returned) == (
        "half_back", Decimal("5.00"))
    assert payment("d", "red", Decimal(10), 17).returned == 0
    assert WINNINGS == {"straight": 35, "split": 17, "street": 11, "corner": 8, "sixline": 5, "column": 2,
                        "dozen": 2, "columns": Decimal("0.5"), "dozens": Decimal("0.5"), "simple": 1}


def test_a_clean_evening_plays_colour_chips_and_raises_nothing():
    """Three hours at each table, no fault: markers set and colours left at the minimum, bets in colour and
    value chips of every kind, zeros; not one alert (the closing counts reconcile too)."""
    events, labels = simulate(TABLES, 3.0, 11, fault_rates={})
    events = list(events)
    assert labels == []
    types = Counter(e["type"] for e in events)
    assert types["colour_valued"] > 5 and types["colour_bet_placed"] > 200 and types["bet_placed"] > 50
    chips = Counter(e["chips"] for e in events if e["type"] == "colour_bet_placed")
    assert len(chips) > 3
    verdicts = [item.verdict for item in replay_lines([json.dumps(e) for e in events]) if item.verdict]
    outcomes = Counter(c.expected.outcome for v in verdicts for c in v.checks)
    assert outcomes["win"] > 0 and outcomes["lose"] > 0 and outcomes["half_back"] > 0
    valued = {(e["table_id"], e["player_id"]) for e in events if e["type"] == "colour_valued"}
    colour_players = {(e["table_id"], e["player_id"]) for e in events if e["type"] == "colour_bet_placed"}
    assert colour_players - valued, "some colours are never valued: worth the table minimum"
    assert alerts_of(events) == []


def test_every_fault_is_caught_in_its_spin():
    """Wrong payouts, colour chips paid at another value than their marker's, late bets (in colour chips
    too), bets over the maximum, the wheel spun the same way twice, chips missing at the close: each label
    caught by an alert of its kind in its spin, every alert explained by a label. The colour chips misvalued
    are labelled with this game's own kind (its ``FAULTS``), not as a framework ``wrong_payout``."""
    events, labels = simulate(TABLES, 3.0, 12, fault_rates=RATES)
    alerts = alerts_of(list(events))
    s = score(labels, alerts)
    assert set(s["recall"]) == {"wrong_payout", "late_bet", "over_limit_bet", "spin_direction", "chips_missing",
                                "colour_misvalued"}
    for kind, (rate, caught, injected) in s["recall"].items():
        assert rate == 1.0, f"{kind}: caught {caught} of {injected}"
    assert s["alerts_on_clean_rounds"] == [] and s["precision"] == 1.0
    misvalued = [lb for lb in labels if lb["kind"] == "colour_misvalued"]
    assert not any("colour" in lb["detail"] for lb in labels if lb["kind"] == "wrong_payout")
    assert len(misvalued) > 3
    flagged = {(a["table_id"], a["round_id"], a["bet_id"]) for a in alerts if a["kind"] == "payout_discrepancy"}
    assert all((lb["table_id"], lb["round_id"], lb["bet_id"]) in flagged for lb in misvalued)


@pytest.mark.parametrize("ruleset_id", ["american_roulette.galicia", "american_roulette.andalucia"])
def test_an_engine_keeping_more_than_half_at_zero_is_caught(monkeypatch, ruleset_id):
    """Engine changed to keep 60 % of a simple chance at zero (the seeds say half: 000 L225; 004 L543-L545):
    every half back of a clean evening is a payout discrepancy, nothing else is."""
    engine_ruleset_changed(monkeypatch, ruleset_id, "simple_lost_fraction = 0.5", "simple_lost_fraction = 0.6")
    alerts, verdicts, _ = audit(ruleset_id, 2.0)
    halves = {c.expected.bet_id for v in verdicts for c in v.checks if c.expected.outcome == "half_back"}
    assert halves
    assert {a.bet_id for a in alerts} == halves and {a.kind for a in alerts} == {"payout_discrepancy"}
