"""Wheel of fortune rules: the wheel as data, the payouts, limits, the spin, void spins, the payment order.

Each test names the seed lines of the rule it checks (000 = Galicia 000_e1555249d49967be.txt L1053-L1097,
004 = Andalucía 004_5c9c19b250457762.txt L5665-L5796). ``WheelScript`` feeds pydantic events to a
``TableEngine`` and returns the round verdicts; every expected amount is written out by hand.
"""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import get_args

import pytest
from pitwatch.catalogue import entry
from pitwatch.rules.base import RuleError, load_ruleset, parse_ruleset
from pitwatch.rules.wheel_of_fortune.events import SYMBOLS, Symbol
from pitwatch.rules.wheel_of_fortune.model import WheelOfFortuneRuleset
from pitwatch.schemas.events import InvalidEvent, parse_event

D = Decimal
GAL = "wheel_of_fortune.galicia"
AND = "wheel_of_fortune.andalucia"
BOTH = pytest.mark.parametrize("ruleset", [GAL, AND])


# --------------------------------------------------------------------------- the wheel as data


def test_the_symbols_are_the_catalogue_spot_words_and_the_event_literal():
    assert entry("wheel_of_fortune").spot_words == SYMBOLS == get_args(Symbol)


def test_galicia_wheel_is_54_segments_24_15_7_4_2_and_two_jokers_paying_1_2_5_10_20_45_000_L1063_L1085():
    m = load_ruleset(GAL).model_as(WheelOfFortuneRuleset)
    assert m.wheel.segments == 54
    assert {k: (s.segments, s.payout) for k, s in m.symbols.items()} == {
        "fortune_24": (24, 1), "fortune_15": (15, 2), "fortune_7": (7, 5), "fortune_4": (4, 10),
        "fortune_2": (2, 20), "fortune_joker_red": (1, 45), "fortune_joker_black": (1, 45)}
    assert (m.wheel.direction, m.wheel.impulses, m.wheel.min_turns) == ("any", 1, None)
    assert (m.procedure.void_if_obstructed, m.procedure.pay_smallest_first) == (False, False)


def test_andalucia_wheel_is_54_casillas_and_two_figures_two_clockwise_impulses_four_turns_004_L5697_L5789():
    m = load_ruleset(AND).model_as(WheelOfFortuneRuleset)
    assert m.wheel.segments == 54
    assert {k: (s.segments, s.payout) for k, s in m.symbols.items()} == {
        "fortune_24": (24, 1), "fortune_15": (15, 2), "fortune_7": (7, 5), "fortune_4": (4, 10),
        "fortune_2": (2, 20), "fortune_figure_1": (1, 45), "fortune_figure_2": (1, 45)}
    assert (m.wheel.direction, m.wheel.impulses, m.wheel.min_turns) == ("clockwise", 2, 4)
    assert (m.procedure.void_if_obstructed, m.procedure.pay_smallest_first) == (True, True)


@BOTH
def test_segments_that_do_not_add_up_to_the_wheel_are_refused(ruleset):
    text = load_ruleset(ruleset).source.replace("segments = 24 ", "segments = 23 ", 1)
    with pytest.raises(RuleError, match="the symbols' segments add up to 53, not the wheel's 54"):
        parse_ruleset(text, "test.toml")


def test_a_symbol_outside_the_contract_is_refused():
    text = load_ruleset(GAL).source.replace("[symbols.fortune_joker_black]", "[symbols.fortune_joker_green]")
    with pytest.raises(RuleError, match="unknown symbol.*'fortune_joker_green'"):
        parse_ruleset(text, "test.toml")


def test_a_clockwise_wheel_needs_its_citation():
    text = load_ruleset(GAL).source.replace('direction = "any"', 'direction = "clockwise"')
    with pytest.raises(RuleError, match="needs citation 'wheel_direction'"):
        parse_ruleset(text, "test.toml")


# --------------------------------------------------------------------------- the event


def _stopped(**payload) -> str:
    import json
    return json.dumps({"event_id": str(uuid.uuid4()), "casino_id": "and-test", "table_id": "RF-W1",
                       "game": "wheel_of_fortune", "seq": 7, "round_id": "R0001",
                       "occurred_at": "2026-11-21T21:04:05.120Z", "actor": {"role": "dealer", "id": "D-1"},
                       "type": "wheel_stopped", **payload})


def test_wheel_stopped_parses_with_the_contracts_parser():
    ev = parse_event(_stopped(symbol="fortune_7", turns=6))
    assert (type(ev).__name__, ev.symbol, ev.on_pivot, ev.turns, ev.obstructed) == (
        "WheelStopped", "fortune_7", False, 6, False)
    assert parse_event(_stopped(on_pivot=True)).symbol is None
    bet = parse_event(_stopped(symbol="fortune_7").replace('"wheel_stopped"', '"bet_placed"').replace(
        '"symbol": "fortune_7"', '"bet_id": "B1", "player_id": "P-1", "spot": "fortune_joker_red", "stake": "5"'))
    assert bet.spot == "fortune_joker_red"


@pytest.mark.parametrize("payload,why", [
    ({}, "needs a symbol"),
    ({"symbol": "fortune_7", "on_pivot": True}, "needs a symbol"),
    ({"symbol": "fortune_8"}, "symbol"),
    ({"symbol": "fortune_7", "turns": -1}, "turns"),
])
def test_a_malformed_wheel_stopped_is_refused(payload, why):
    with pytest.raises(InvalidEvent, match=why):
        parse_event(_stopped(**payload))
