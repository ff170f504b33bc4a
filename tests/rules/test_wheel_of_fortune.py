"""Wheel of fortune rules: the wheel as data, the payouts, limits, the spin, void spins, the payment order.

Each test names the seed lines of the rule it checks (000 = Galicia 000_e1555249d49967be.txt L1053-L1097,
004 = Andalucía 004_5c9c19b250457762.txt L5665-L5796). ``WheelScript`` feeds pydantic events to a
``TableEngine`` and returns the round verdicts; every expected amount is written out by hand.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction as F
from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.catalogue import entry
from pitwatch.rules.base import RoundVerdict, RuleError, load_ruleset, parse_ruleset
from pitwatch.rules.base import ViolationKind as VK
from pitwatch.rules.edges import bet_variance, edge_table, house_edge, theoretical_win
from pitwatch.rules.engine import TableEngine
from pitwatch.rules.wheel_of_fortune.events import SYMBOLS, Symbol
from pitwatch.rules.wheel_of_fortune.model import WheelOfFortuneRuleset
from pitwatch.schemas.events import EVENT_CLASS_BY_TYPE, InvalidEvent, parse_event

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


def test_wheel_stopped_and_the_symbol_spots_are_in_the_exported_json_schemas(tmp_path):
    import json

    from pitwatch.schemas.export import export_schemas
    export_schemas(tmp_path)
    stopped = json.loads((tmp_path / "wheel_stopped.schema.json").read_text())
    symbol = stopped["properties"]["symbol"]["anyOf"][0]
    assert symbol["enum"] == list(SYMBOLS) and "turns" in stopped["properties"]
    bet = json.loads((tmp_path / "bet_placed.schema.json").read_text())
    assert all(s in bet["properties"]["spot"]["pattern"] for s in SYMBOLS)
    assert "wheel_of_fortune" in json.dumps(json.loads((tmp_path / "event.schema.json").read_text()))


@pytest.mark.parametrize("payload,why", [
    ({}, "needs a symbol"),
    ({"symbol": "fortune_7", "on_pivot": True}, "needs a symbol"),
    ({"symbol": "fortune_8"}, "symbol"),
    ({"symbol": "fortune_7", "turns": -1}, "turns"),
])
def test_a_malformed_wheel_stopped_is_refused(payload, why):
    with pytest.raises(InvalidEvent, match=why):
        parse_event(_stopped(**payload))


# --------------------------------------------------------------------------- the round


IMPULSES = {GAL: 1, AND: 2}
"""Impulses of a correct spin: one in Galicia (000 L1095), two in Andalucía (004 L5756-L5767)."""


class WheelScript:
    """One wheel of fortune table's events fed to a TableEngine; :meth:`spin` plays a round and returns
    its :class:`RoundVerdict`; table-level violations collect in ``table_violations``."""

    def __init__(self, ruleset: str = GAL, min_bet: str = "5.00", max_bet: str = "500.00"):
        self.ruleset = ruleset
        self.engine = TableEngine("RF-W1")
        self.seq = 0
        self.rounds = 0
        self.t0 = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)
        self.table_violations: list = []
        self.table_violations += self.engine.apply(self.event(
            "table_opened", None, ("pit_boss", "PB"), ruleset_id=ruleset, jurisdiction=ruleset.split(".")[1],
            min_bet=min_bet, max_bet=max_bet, float_amount="10000.00"))

    def event(self, type: str, round_id: str | None, actor=("dealer", "D-1"), **payload):
        self.seq += 1
        ev = {"event_id": str(uuid.uuid4()), "casino_id": "test", "table_id": "RF-W1", "game": "wheel_of_fortune",
              "seq": self.seq, "round_id": round_id, "occurred_at": (self.t0 + timedelta(seconds=self.seq)).isoformat(),
              "actor": {"role": actor[0], "id": actor[1]}, "type": type, **payload}
        return EVENT_CLASS_BY_TYPE[type].model_validate(ev)

    def spin(self, bets=(), symbol: str | None = "fortune_24", *, impulses: list[str] | None = None,
             close: bool = True, turns: int | None = 6, on_pivot: bool = False, obstructed: bool = False,
             stop: bool = True, voided: str | None = None, records=None, late_bets=(), after_stop=(),
             extra=()) -> RoundVerdict:
        """Play one round. ``bets``: (bet_id, spot, stake[, player]); ``impulses``: the directions of the
        ``wheel_spun`` events (default: the ruleset's number, clockwise); ``late_bets`` placed after
        bets_closed, ``after_stop`` after wheel_stopped; ``records``: bet_id -> (outcome, returned),
        recorded in that order; ``extra``: (type, payload) events after the stop."""
        self.rounds += 1
        rid = f"R{self.rounds:04d}"
        ap = self.engine.apply
        ap(self.event("round_started", rid))
        directions = ["clockwise"] * IMPULSES[self.ruleset] if impulses is None else impulses
        if directions:
            ap(self.event("wheel_spun", rid, direction=directions[0]))
        for bid, spot, stake, *player in bets:
            who = player[0] if player else "P-1"
            ap(self.event("bet_placed", rid, ("player", who), bet_id=bid, player_id=who, spot=spot, stake=str(stake)))
        for d in directions[1:]:
            ap(self.event("wheel_spun", rid, direction=d))
        if close:
            ap(self.event("bets_closed", rid))
        for bid, spot, stake in late_bets:
            ap(self.event("bet_placed", rid, ("player", "P-9"), bet_id=bid, player_id="P-9", spot=spot, stake=str(stake)))
        if stop:
            ap(self.event("wheel_stopped", rid, symbol=None if on_pivot else symbol, on_pivot=on_pivot, turns=turns,
                          obstructed=obstructed))
        for bid, spot, stake in after_stop:
            ap(self.event("bet_placed", rid, ("player", "P-9"), bet_id=bid, player_id="P-9", spot=spot, stake=str(stake)))
        for type, payload in extra:
            ap(self.event(type, rid, **payload))
        if voided:
            ap(self.event("round_voided", rid, ("inspector", "I-1"), reason=voided))
        for bid, (outcome, returned) in (records or {}).items():
            ap(self.event("settlement_recorded", rid, bet_id=bid, outcome=outcome, returned=str(returned)))
        out = ap(self.event("round_ended", rid))
        verdicts = [v for v in out if isinstance(v, RoundVerdict)]
        assert len(verdicts) == 1
        return verdicts[0]


def settled(v: RoundVerdict) -> dict[str, tuple[str, Decimal]]:
    """bet_id -> (expected outcome, expected returned euros)."""
    return {c.expected.bet_id: (c.expected.outcome, c.expected.returned) for c in v.checks}


def rules(v: RoundVerdict) -> list:
    """The violations, payout discrepancies excluded."""
    return [x for x in v.violations if x.kind != VK.PAYOUT_DISCREPANCY]


def kinds(v: RoundVerdict) -> list[str]:
    """Violation kinds, payout discrepancies excluded (nothing is recorded unless a test records it)."""
    return sorted(x.kind for x in v.violations if x.kind != VK.PAYOUT_DISCREPANCY)


PAYOUTS = [
    # (ruleset, symbol, stake, returned): the stake back plus the payout x the stake
    (GAL, "fortune_24", "10.00", "20.00"),     # 000 L1085 «1 a 1»
    (GAL, "fortune_15", "10.00", "30.00"),     # 000 L1085 «2 a 1»
    (GAL, "fortune_7", "10.00", "60.00"),      # 000 L1085 «5 a 1»
    (GAL, "fortune_4", "10.00", "110.00"),     # 000 L1085 «10 a 1»
    (GAL, "fortune_2", "10.00", "210.00"),     # 000 L1085 «20 a 1»
    (GAL, "fortune_joker_red", "10.00", "460.00"),    # 000 L1085 «45 a 1»
    (GAL, "fortune_joker_black", "7.50", "345.00"),   # 000 L1085 «45 a 1»: 7.50 + 337.50
    (AND, "fortune_24", "10.00", "20.00"),     # 004 L5737 «Una vez el valor de la apuesta»
    (AND, "fortune_15", "10.00", "30.00"),     # 004 L5739 «Dos veces»
    (AND, "fortune_7", "10.00", "60.00"),      # 004 L5741 «Cinco veces»
    (AND, "fortune_4", "10.00", "110.00"),     # 004 L5743 «Diez veces»
    (AND, "fortune_2", "12.50", "262.50"),     # 004 L5745 «Veinte veces»: 12.50 + 250.00
    (AND, "fortune_figure_1", "10.00", "460.00"),  # 004 L5747-L5748 «Cuarenta y cinco veces»
    (AND, "fortune_figure_2", "10.00", "460.00"),
]


@pytest.mark.parametrize("ruleset,symbol,stake,returned", PAYOUTS, ids=[f"{r}:{s}" for r, s, _, _ in PAYOUTS])
def test_a_bet_on_the_symbol_the_wheel_stops_on_wins_its_payout_and_keeps_its_stake_000_L1085_L1097_004_L5731_L5791(
        ruleset, symbol, stake, returned):
    other = "fortune_24" if symbol != "fortune_24" else "fortune_15"
    v = WheelScript(ruleset).spin([("B1", symbol, stake), ("B2", other, "10.00")], symbol)
    assert settled(v) == {"B1": ("win", D(returned)), "B2": ("lose", D("0"))}
    assert kinds(v) == []
    assert v.outcome.startswith(symbol)


@BOTH
def test_every_other_symbol_loses_its_stake(ruleset):
    symbols = list(load_ruleset(ruleset).model_as(WheelOfFortuneRuleset).symbols)
    v = WheelScript(ruleset).spin([(f"B{i}", s, "5.00") for i, s in enumerate(symbols)], "fortune_4")
    assert settled(v) == {f"B{i}": ("win", D("55.00")) if s == "fortune_4" else ("lose", D("0"))
                          for i, s in enumerate(symbols)}


def test_a_recorded_payout_short_by_one_stake_is_a_discrepancy_citing_the_payout_000_L1085():
    v = WheelScript(GAL).spin([("B1", "fortune_7", "10.00")], "fortune_7", records={"B1": ("win", "50.00")})
    (d,) = [x for x in v.violations if x.kind == VK.PAYOUT_DISCREPANCY]
    assert d.amount == D("-10.00") and "L1085" in d.citation and d.bet_id == "B1"


def test_correct_records_raise_nothing():
    v = WheelScript(AND).spin([("B1", "fortune_7", "10.00"), ("B2", "fortune_2", "10.00")], "fortune_7",
                              records={"B1": ("win", "60.00"), "B2": ("lose", "0.00")})
    assert v.violations == ()


@pytest.mark.parametrize("ruleset,spot", [(GAL, "fortune_figure_1"), (AND, "fortune_joker_red"), (GAL, "red")])
def test_a_symbol_the_wheel_does_not_show_is_an_invalid_bet_refused(ruleset, spot):
    """Galicia's layout has the jokers (000 L1065), Andalucía's two figures (004 L5683-L5684)."""
    v = WheelScript(ruleset).spin([("B1", spot, "10.00")], "fortune_24")
    assert kinds(v) == [VK.INVALID_BET]
    assert settled(v) == {"B1": ("refused", D("10.00"))}


# --------------------------------------------------------------------------- limits


@BOTH
def test_a_bet_below_the_table_minimum_000_L1089_004_L5750_L5753(ruleset):
    v = WheelScript(ruleset, min_bet="5.00").spin([("B1", "fortune_15", "4.00")], "fortune_24")
    (x,) = v.violations
    assert (x.kind, x.amount, x.bet_id) == (VK.BET_BELOW_MINIMUM, D("1.00"), "B1")
    assert ("L1089" if ruleset == GAL else "L5750-L5753") in x.citation


@BOTH
def test_a_bet_above_the_table_maximum_is_paid_whole_and_flagged(ruleset):
    v = WheelScript(ruleset, max_bet="500.00").spin([("B1", "fortune_24", "600.00")], "fortune_24")
    (x,) = rules(v)
    assert (x.kind, x.amount) == (VK.BET_ABOVE_MAXIMUM, D("100.00"))
    assert settled(v) == {"B1": ("win", D("1200.00"))}


@BOTH
def test_stakes_at_the_limits_are_fine(ruleset):
    v = WheelScript(ruleset).spin([("B1", "fortune_24", "5.00"), ("B2", "fortune_2", "500.00")], "fortune_2")
    assert kinds(v) == [] and settled(v) == {"B1": ("lose", D("0")), "B2": ("win", D("10500.00"))}


# --------------------------------------------------------------------------- «No va más»


@BOTH
def test_a_bet_after_no_va_mas_is_past_posting_and_no_wager_000_L1095_004_L5762_L5767(ruleset):
    v = WheelScript(ruleset).spin([("B1", "fortune_24", "10.00")], "fortune_4", late_bets=[("L1", "fortune_4", "10.00")])
    (x,) = v.violations
    assert (x.kind, x.bet_id, x.amount) == (VK.PAST_POSTING, "L1", D("10.00"))
    assert ("L1095" if ruleset == GAL else "L5762-L5767") in x.citation
    assert settled(v) == {"B1": ("lose", D("0")), "L1": ("refused", D("10.00"))}


def test_a_bet_after_the_wheel_stopped_is_past_posting_during_the_payment_004_L5793_L5796():
    v = WheelScript(AND).spin([], "fortune_4", close=False, after_stop=[("L1", "fortune_4", "10.00")])
    (x,) = [x for x in v.violations if x.kind == VK.PAST_POSTING]
    assert "L5793-L5796" in x.citation and settled(v) == {"L1": ("refused", D("10.00"))}


def test_a_bet_after_the_wheel_stopped_in_galicia_cites_no_va_mas_000_L1095():
    v = WheelScript(GAL).spin([], "fortune_4", close=False, after_stop=[("L1", "fortune_4", "10.00")])
    (x,) = [x for x in v.violations if x.kind == VK.PAST_POSTING]
    assert "L1095" in x.citation


@BOTH
def test_a_bet_withdrawn_after_no_va_mas_is_past_posting_004_L5765_L5767(ruleset):
    s = WheelScript(ruleset)
    rid = "R0001"
    s.engine.apply(s.event("round_started", rid))
    s.engine.apply(s.event("bet_placed", rid, ("player", "P-1"), bet_id="B1", player_id="P-1", spot="fortune_24",
                           stake="10.00"))
    s.engine.apply(s.event("bets_closed", rid))
    s.engine.apply(s.event("bet_withdrawn", rid, bet_id="B1"))
    s.engine.apply(s.event("wheel_stopped", rid, symbol="fortune_24", turns=6))
    (v,) = s.engine.apply(s.event("round_ended", rid))
    assert kinds(v) == [VK.PAST_POSTING, VK.PROCEDURE]  # and no impulse recorded
    assert "withdrawn after «No va más»" in v.violations[0].message


@BOTH
def test_a_result_without_no_va_mas_is_a_procedure_violation(ruleset):
    v = WheelScript(ruleset).spin([("B1", "fortune_24", "10.00")], "fortune_24", close=False)
    assert kinds(v) == [VK.PROCEDURE] and "«No va más»" in v.violations[0].message


# --------------------------------------------------------------------------- the spin


def test_andalucia_one_impulse_is_a_procedure_violation_004_L5762_L5764():
    v = WheelScript(AND).spin([("B1", "fortune_24", "10.00")], "fortune_24", impulses=["clockwise"])
    (x,) = rules(v)
    assert x.kind == VK.PROCEDURE and "1 impulse(s)" in x.message and "L5756-L5767" in x.citation
    assert settled(v) == {"B1": ("win", D("20.00"))}


def test_andalucia_three_impulses_are_a_procedure_violation():
    v = WheelScript(AND).spin([], "fortune_24", impulses=["clockwise"] * 3)
    assert kinds(v) == [VK.PROCEDURE]


def test_andalucia_a_counterclockwise_impulse_is_a_spin_direction_violation_004_L5756_L5760():
    v = WheelScript(AND).spin([], "fortune_24", impulses=["clockwise", "counterclockwise"])
    (x,) = v.violations
    assert x.kind == VK.SPIN_DIRECTION and "L5756-L5760" in x.citation


def test_galicia_either_direction_one_impulse_000_L1095():
    assert WheelScript(GAL).spin([], "fortune_24", impulses=["counterclockwise"]).violations == ()
    v = WheelScript(GAL).spin([], "fortune_24", impulses=["clockwise", "clockwise"])
    assert kinds(v) == [VK.PROCEDURE] and "L1095" in v.violations[0].citation


@BOTH
def test_a_result_without_any_impulse_is_a_procedure_violation(ruleset):
    v = WheelScript(ruleset).spin([], "fortune_24", impulses=[])
    assert kinds(v) == [VK.PROCEDURE] and "0 impulse(s)" in v.violations[0].message


@BOTH
def test_spinning_the_wheel_again_after_it_stopped_is_a_procedure_violation(ruleset):
    v = WheelScript(ruleset).spin([], "fortune_24", extra=[("wheel_spun", {"direction": "clockwise"})])
    assert kinds(v) == [VK.PROCEDURE] and "spun again after it stopped" in v.violations[0].message


@BOTH
def test_a_second_stop_is_a_procedure_violation_and_the_first_stands(ruleset):
    v = WheelScript(ruleset).spin([("B1", "fortune_24", "10.00")], "fortune_24",
                                  extra=[("wheel_stopped", {"symbol": "fortune_2", "turns": 5})])
    assert kinds(v) == [VK.PROCEDURE] and settled(v) == {"B1": ("win", D("20.00"))}


def test_a_stop_on_a_symbol_this_wheel_does_not_show_gives_no_result():
    v = WheelScript(GAL).spin([("B1", "fortune_24", "10.00")], "fortune_figure_1")
    assert kinds(v) == [VK.PROCEDURE] and settled(v) == {"B1": ("void", D("10.00"))}


@BOTH
def test_a_roulette_event_is_a_procedure_violation(ruleset):
    v = WheelScript(ruleset).spin([], "fortune_24", extra=[("ball_landed", {"number": 17})])
    assert kinds(v) == [VK.PROCEDURE]


@BOTH
def test_no_result_returns_the_stakes_and_is_a_procedure_violation(ruleset):
    v = WheelScript(ruleset).spin([("B1", "fortune_24", "10.00")], stop=False)
    assert kinds(v) == [VK.PROCEDURE] and settled(v) == {"B1": ("void", D("10.00"))}
    assert v.outcome == "no result"


# --------------------------------------------------------------------------- void spins


@BOTH
def test_a_voided_round_returns_every_stake(ruleset):
    v = WheelScript(ruleset).spin([("B1", "fortune_24", "10.00"), ("B2", "fortune_2", "5.00")], on_pivot=True,
                                  voided="pointer on a pivot", records={"B1": ("void", "10.00"), "B2": ("void", "5.00")})
    assert v.violations == ()
    assert settled(v) == {"B1": ("void", D("10.00")), "B2": ("void", D("5.00"))}


def test_andalucia_fewer_than_four_turns_is_void_004_L5769_L5772():
    v = WheelScript(AND).spin([("B1", "fortune_24", "10.00")], "fortune_24", turns=3,
                              records={"B1": ("win", "20.00")})
    assert settled(v) == {"B1": ("void", D("10.00"))}
    assert sorted(x.kind for x in v.violations) == [VK.PAYOUT_DISCREPANCY, VK.PROCEDURE]
    (p,) = [x for x in v.violations if x.kind == VK.PROCEDURE]
    assert "3 full turn(s)" in p.message and "L5769-L5772" in p.citation


def test_andalucia_four_turns_or_unmeasured_turns_count():
    assert settled(WheelScript(AND).spin([("B1", "fortune_24", "10.00")], "fortune_24", turns=4)) == {
        "B1": ("win", D("20.00"))}
    assert settled(WheelScript(AND).spin([("B1", "fortune_24", "10.00")], "fortune_24", turns=None)) == {
        "B1": ("win", D("20.00"))}


def test_andalucia_a_pointer_on_a_pivot_is_void_004_L5778_L5780():
    v = WheelScript(AND).spin([("B1", "fortune_24", "10.00")], on_pivot=True)
    assert settled(v) == {"B1": ("void", D("10.00"))} and v.outcome == "on a pivot"
    (p,) = rules(v)
    assert p.kind == VK.PROCEDURE and "L5778-L5782" in p.citation and "pivot" in p.message


def test_galicia_a_pointer_on_a_pivot_gives_no_result_000_L1095():
    v = WheelScript(GAL).spin([("B1", "fortune_24", "10.00")], on_pivot=True)
    assert settled(v) == {"B1": ("void", D("10.00"))}
    (p,) = rules(v)
    assert p.kind == VK.PROCEDURE and "L1095" in p.citation


def test_andalucia_an_obstructed_wheel_is_void_004_L5780_L5782():
    v = WheelScript(AND).spin([("B1", "fortune_24", "10.00")], "fortune_24", obstructed=True)
    assert settled(v) == {"B1": ("void", D("10.00"))} and kinds(v) == [VK.PROCEDURE]


def test_galicia_an_obstructed_wheel_stands_the_text_names_no_void_spin():
    v = WheelScript(GAL).spin([("B1", "fortune_24", "10.00")], "fortune_24", obstructed=True, turns=0)
    assert settled(v) == {"B1": ("win", D("20.00"))} and kinds(v) == []


def test_andalucia_a_spin_voided_with_a_result_is_a_procedure_violation_004_L5769_L5782():
    """Andalucía voids a spin only with too few turns, the pointer on a pivot or an obstructed wheel
    (004 L5769-L5782, «la jugada será considerada nula a todos los efectos»): a spin that stopped on 24 after
    six turns, voided, is a procedure violation naming the void and the stop; its stake still comes back
    (10.00: the round was voided), so the refund recorded is no discrepancy."""
    v = WheelScript(AND).spin([("B1", "fortune_24", "10.00")], "fortune_24", turns=6, voided="croupier's call",
                              records={"B1": ("void", "10.00")})
    assert settled(v) == {"B1": ("void", D("10.00"))}
    (p,) = v.violations
    assert p.kind == VK.PROCEDURE and "L5769-L5772" in p.citation and "L5778-L5786" in p.citation
    assert p.message == ("spin voided (croupier's call) although the wheel stopped on fortune_24 with none of the "
                         "cases that void a spin (too few turns, the pointer on a pivot, an obstructed wheel)")
    assert len(p.event_ids) == 2


def test_andalucia_a_listed_void_or_one_before_the_stop_is_no_violation():
    """Voided with the pointer on a pivot, with three turns, or before the wheel stopped: as the text allows."""
    for kwargs in ({"on_pivot": True}, {"turns": 3}, {"stop": False}):
        v = WheelScript(AND).spin([("B1", "fortune_24", "10.00")], "fortune_24", voided="void spin",
                                  records={"B1": ("void", "10.00")}, **kwargs)
        assert settled(v) == {"B1": ("void", D("10.00"))} and v.violations == (), kwargs


def test_galicia_accepts_any_void_the_text_lists_none_000_L1093_L1097():
    """Galicia names no void spin (000 L1093-L1097): a round_voided is accepted whatever the stop (the
    ruleset's choice), every stake back."""
    v = WheelScript(GAL).spin([("B1", "fortune_24", "10.00")], "fortune_24", voided="croupier's call",
                              records={"B1": ("void", "10.00")})
    assert settled(v) == {"B1": ("void", D("10.00"))} and v.violations == ()


# --------------------------------------------------------------------------- the payment order


def test_andalucia_winning_bets_paid_largest_first_is_a_procedure_violation_004_L5788_L5789():
    bets = [("B1", "fortune_15", "5.00"), ("B2", "fortune_15", "20.00", "P-2"), ("B3", "fortune_15", "10.00", "P-3"),
            ("B4", "fortune_24", "50.00", "P-4")]
    records = {"B4": ("lose", "0.00"), "B1": ("win", "15.00"), "B2": ("win", "60.00"), "B3": ("win", "30.00")}
    v = WheelScript(AND).spin(bets, "fortune_15", records=records)
    (x,) = v.violations
    assert (x.kind, x.bet_id, x.player_id) == (VK.PROCEDURE, "B3", "P-3") and "L5788-L5789" in x.citation


def test_andalucia_winning_bets_paid_smallest_first_equal_stakes_in_any_order():
    bets = [("B1", "fortune_15", "10.00"), ("B2", "fortune_15", "5.00"), ("B3", "fortune_15", "10.00")]
    records = {"B2": ("win", "15.00"), "B3": ("win", "30.00"), "B1": ("win", "30.00")}
    assert WheelScript(AND).spin(bets, "fortune_15", records=records).violations == ()


def test_galicia_sets_no_order_of_payment_000_L1097():
    bets = [("B1", "fortune_15", "5.00"), ("B2", "fortune_15", "20.00")]
    records = {"B2": ("win", "60.00"), "B1": ("win", "15.00")}
    assert WheelScript(GAL).spin(bets, "fortune_15", records=records).violations == ()


# --------------------------------------------------------------------------- conservation


BET = st.tuples(st.sampled_from([*SYMBOLS, "red"]), st.integers(1, 40_000).map(lambda c: D(c).scaleb(-2)))
STOP = st.one_of(st.sampled_from(SYMBOLS).map(lambda s: {"symbol": s}), st.just({"on_pivot": True}),
                 st.builds(lambda s, t, o: {"symbol": s, "turns": t, "obstructed": o}, st.sampled_from(SYMBOLS),
                       st.integers(0, 8), st.booleans()))


@settings(max_examples=150, deadline=None)
@given(ruleset=st.sampled_from([GAL, AND]), bets=st.lists(BET, max_size=12), late=st.lists(BET, max_size=2),
       stop=STOP, voided=st.booleans())
def test_settlement_conserves_chips_and_settles_every_bet_once(ruleset, bets, late, stop, voided):
    """Whatever the bets (on the wheel or not, within the limits or not, late or not) and the stop (a
    symbol, a pivot, few turns, an obstruction, a void): every bet placed is settled exactly once, and the
    chips returned plus the house's win equal the stakes plus the winnings paid."""
    placed = [(f"B{i}", spot, stake) for i, (spot, stake) in enumerate(bets)]
    late_bets = [(f"L{i}", spot, stake) for i, (spot, stake) in enumerate(late)]
    v = WheelScript(ruleset, max_bet="300.00").spin(
        placed, stop.get("symbol"), on_pivot=stop.get("on_pivot", False), turns=stop.get("turns", 6),
        obstructed=stop.get("obstructed", False), late_bets=late_bets, voided="void" if voided else None)
    ids = [c.expected.bet_id for c in v.checks]
    assert sorted(ids) == sorted(b for b, _, _ in placed + late_bets) and len(set(ids)) == len(ids)
    stakes = sum((c.expected.stake for c in v.checks), D(0))
    returned = sum((c.expected.returned for c in v.checks), D(0))
    paid = sum((c.expected.returned - c.expected.stake for c in v.checks if c.expected.returned > c.expected.stake),
               D(0))
    house = sum((c.expected.stake - c.expected.returned for c in v.checks if c.expected.returned < c.expected.stake),
                D(0))
    assert returned + house == stakes + paid
    assert sum((f.win for f in v.figures), D(0)) == house - paid
    for c in v.checks:
        e = c.expected
        assert e.outcome in ("win", "lose", "void", "refused")
        assert e.returned >= 0 and (e.outcome != "lose" or e.returned == 0)
        if e.outcome in ("void", "refused"):
            assert e.returned == e.stake


# --------------------------------------------------------------------------- house edges


EDGES = {
    # symbol: edge = 1 - n(1 + a)/54, by hand (000 L1063, L1085; 004 L5697-L5748)
    "fortune_24": F(6, 54),    # 24 segments x 2 = 48 of 54 back: 6/54 = 1/9
    "fortune_15": F(9, 54),    # 15 x 3 = 45: 9/54 = 1/6
    "fortune_7": F(12, 54),    # 7 x 6 = 42: 12/54 = 2/9
    "fortune_4": F(10, 54),    # 4 x 11 = 44: 10/54 = 5/27
    "fortune_2": F(12, 54),    # 2 x 21 = 42: 12/54 = 2/9
}
FIGURE = F(8, 54)              # 1 x 46 = 46: 8/54 = 4/27


@pytest.mark.parametrize("ruleset,figures", [(GAL, ("fortune_joker_red", "fortune_joker_black")),
                                             (AND, ("fortune_figure_1", "fortune_figure_2"))])
def test_the_exact_house_edge_of_every_symbol(ruleset, figures):
    rs = load_ruleset(ruleset)
    want = {**EDGES, **dict.fromkeys(figures, FIGURE)}
    assert {s: house_edge(rs, s) for s in want} == want
    assert {line.spot: line.edge for line in edge_table(rs)} == want
    assert [line.payout for line in edge_table(rs)] == ["1:1", "2:1", "5:1", "10:1", "20:1", "45:1", "45:1"]
    assert F(6, 54) == F(1, 9) and F(9, 54) == F(1, 6) and F(10, 54) == F(5, 27) and F(8, 54) == F(4, 27)


@BOTH
def test_the_variance_of_a_bet_by_hand(ruleset):
    """X = a with n/54, -1 otherwise; Var = n a²/54 + (54 - n)/54 - E[X]². The 24 at 1:1: 1 - (1/9)² = 80/81;
    a figure at 45:1: 2025/54 + 53/54 - (4/27)² = 1039/27 - 16/729 = 28037/729."""
    rs = load_ruleset(ruleset)
    assert bet_variance(rs, "fortune_24") == F(80, 81)
    figure = "fortune_joker_red" if ruleset == GAL else "fortune_figure_1"
    assert bet_variance(rs, figure) == F(28037, 729)


@BOTH
def test_theoretical_win_of_a_round_is_stake_times_edge(ruleset):
    """10.00 EUR on the 24 (1/9) and 27.00 on the 4 (5/27): 1.1111 + 5.0000 EUR."""
    v = WheelScript(ruleset).spin([("B1", "fortune_24", "10.00"), ("B2", "fortune_4", "27.00")], "fortune_15")
    assert [f.theoretical_win for f in v.figures] == [D("1.1111"), D("5.0000")]
    assert theoretical_win(load_ruleset(ruleset), "fortune_4", D("27.00")) == D("5.0000")


@BOTH
def test_a_spot_off_the_wheel_has_no_edge(ruleset):
    with pytest.raises(RuleError, match="not a symbol of the wheel"):
        house_edge(load_ruleset(ruleset), "red")


def test_the_round_module_imports_first_in_a_fresh_interpreter():
    """The round dispatches on its own event class (``WheelStopped``), so it imports the game's events
    module, which the contract (:mod:`pitwatch.schemas.events`) imports too while it builds the event union.
    Imported first, before anything has loaded the contract, the round must still load."""
    import subprocess
    import sys

    script = "import pitwatch.rules.wheel_of_fortune.game as g; print(g.WheelOfFortuneRound.game)"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout.strip()) == (0, "wheel_of_fortune"), out.stderr[-2000:]
