"""American roulette with one zero: payouts of every bet kind, the zero rule (half lost on simple
chances), colour chips valued by the player's marker, limits, past-posting, void spins, conservation.

Seed lines: 000 = Galicia 000_e1555249d49967be.txt («02. Ruleta americana», L195-L233, and French
roulette's L81-L193 it refers to, L199); 004 = Andalucía 004_5c9c19b250457762.txt («I.1.2», L456-L569, and
French roulette's I.1.1.A, L109-L439). ``Script`` feeds pydantic events to a ``TableEngine``.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pitwatch.rules.american_roulette.edges import EXAMPLES, spot_variance
from pitwatch.rules.base import RoundVerdict, RuleError, Violation, load_ruleset
from pitwatch.rules.base import ViolationKind as VK
from pitwatch.rules.edges import bet_variance, edge_table, house_edge
from pitwatch.rules.engine import TableEngine
from pitwatch.rules.roulette import SPOTS, parse_spot
from pitwatch.schemas.events import EVENT_CLASS_BY_TYPE, dump_event, parse_event
from pitwatch.schemas.export import export_schemas

D = Decimal
GAL = "american_roulette.galicia"
AND = "american_roulette.andalucia"
BOTH = pytest.mark.parametrize("ruleset", [GAL, AND])


class Script:
    """One American roulette table's events fed to a TableEngine. A bet is ``(bet_id, spot, stake)`` in
    value chips (euros) or ``(bet_id, spot, (colour, chips))`` in colour chips, optionally with a player
    (default ``P-1``). ``spin`` plays a round and returns its verdict; table-level outputs collect in
    ``table_out``."""

    def __init__(self, ruleset: str = GAL, min_bet: str = "5.00", max_bet: str = "900.00",
                 options: dict[str, str] | None = None):
        self.engine = TableEngine("RA-T1")
        self.seq = 0
        self.t0 = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)
        self.rounds = 0
        self.direction = "clockwise"
        self.table_out: list = []
        self.table("table_opened", ruleset_id=ruleset, jurisdiction=ruleset.split(".")[1], min_bet=min_bet,
                   max_bet=max_bet, float_amount="10000.00", options=options or {})
        self.table("dealer_assigned", dealer_id="D-1")

    def event(self, type: str, round_id: str | None, actor=("dealer", "D-1"), **payload):
        self.seq += 1
        ev = {"event_id": str(uuid.uuid4()), "casino_id": "gal-test", "table_id": "RA-T1",
              "game": "american_roulette", "seq": self.seq, "round_id": round_id,
              "occurred_at": (self.t0 + timedelta(seconds=self.seq)).isoformat(),
              "actor": {"role": actor[0], "id": actor[1]}, "type": type, **payload}
        return EVENT_CLASS_BY_TYPE[type].model_validate(ev)

    def table(self, type: str, actor=("pit_boss", "PB"), **payload) -> list:
        out = self.engine.apply(self.event(type, None, actor, **payload))
        self.table_out.extend(out)
        return out

    def value(self, player: str, colour: str, value: str) -> list:
        """The marker of ``colour`` set to ``value`` euros for ``player``, between spins."""
        return self.table("colour_valued", actor=("dealer", "D-1"), player_id=player, colour=colour, value=value)

    def _bet(self, rid: str, bet: tuple) -> None:
        bid, spot, stake, *player = bet
        pid = player[0] if player else "P-1"
        if isinstance(stake, tuple):
            self.engine.apply(self.event("colour_bet_placed", rid, ("player", pid), bet_id=bid, player_id=pid,
                                         spot=spot, colour=stake[0], chips=stake[1]))
        else:
            self.engine.apply(self.event("bet_placed", rid, ("player", pid), bet_id=bid, player_id=pid, spot=spot,
                                         stake=str(stake)))

    def spin(self, bets=(), number: int | None = 17, direction: str | None = "auto", last: bool = False,
             voided: str | None = None, records=None, late_bets=(), close: bool = True, before=(),
             after=()) -> RoundVerdict:
        """Play one spin. ``before``: (type, payload) events after round_started, before the bets;
        ``after``: events after the ball; ``records``: bet_id -> (outcome, returned) settlements."""
        self.rounds += 1
        rid = f"R{self.rounds:04d}"
        ap = self.engine.apply
        ap(self.event("round_started", rid, last_of_session=last))
        for type, payload in before:
            ap(self.event(type, rid, **payload))
        for b in bets:
            self._bet(rid, b)
        if direction is not None:
            if direction == "auto":
                self.direction = "counterclockwise" if self.direction == "clockwise" else "clockwise"
                direction = self.direction
            ap(self.event("wheel_spun", rid, direction=direction))
        if close:
            ap(self.event("bets_closed", rid))
        for b in late_bets:
            self._bet(rid, b)
        if voided:
            ap(self.event("round_voided", rid, ("inspector", "I-1"), reason=voided))
        elif number is not None:
            ap(self.event("ball_landed", rid, number=number))
        for type, payload in after:
            ap(self.event(type, rid, **payload))
        for bid, (outcome, returned) in (records or {}).items():
            ap(self.event("settlement_recorded", rid, bet_id=bid, outcome=outcome, returned=str(returned)))
        out = ap(self.event("round_ended", rid))
        verdicts = [v for v in out if isinstance(v, RoundVerdict)]
        assert len(verdicts) == 1
        return verdicts[0]


def settled(v: RoundVerdict) -> dict[str, tuple[str, Decimal, Decimal]]:
    """bet_id -> (expected outcome, stake, expected returned euros)."""
    return {c.expected.bet_id: (c.expected.outcome, c.expected.stake, c.expected.returned) for c in v.checks}


def kinds(v: RoundVerdict) -> list[str]:
    """Violation kinds of a verdict, payout discrepancies excluded (nothing recorded unless a test records)."""
    return sorted(x.kind for x in v.violations if x.kind != VK.PAYOUT_DISCREPANCY)


# --------------------------------------------------------------------------- every bet kind


@BOTH
def test_every_bet_kind_paid_by_french_roulettes_ratios_on_17(ruleset):
    """17 (black, odd, manque, column 2, dozen 2). Payouts: French roulette's (000 L199 «los mismos
    principios»; 004 L531-L533), 000 L121-L153 / 004 L221-L302: pleno 35, caballo 17, transversal 11, cuadro
    8, seisena 5, columna and docena 2, dos columnas / dos docenas ½, sencillas 1; the winner keeps his
    stake (000 L153; 004 L217-L219). Stakes of 10 EUR at a 5 EUR table."""
    v = Script(ruleset).spin([
        ("S", "straight:17", 10), ("P", "split:17-20", 10), ("T", "street:16-17-18", 10),
        ("C", "corner:17-18-20-21", 10), ("X", "sixline:16-17-18-19-20-21", 10), ("K", "column:2", 10),
        ("Z", "dozen:2", 10), ("KK", "columns:1-2", 10), ("ZZ", "dozens:1-2", 10), ("B", "black", 10),
        ("O", "odd", 10), ("M", "manque", 10), ("R", "red", 10), ("E", "even", 10), ("PA", "passe", 10),
        ("L", "straight:18", 10), ("L2", "dozen:3", 10),
    ], number=17)
    assert kinds(v) == []
    assert {b: r for b, (_, _, r) in settled(v).items()} == {
        "S": D("360.00"), "P": D("180.00"), "T": D("120.00"), "C": D("90.00"), "X": D("60.00"),
        "K": D("30.00"), "Z": D("30.00"), "KK": D("15.00"), "ZZ": D("15.00"), "B": D("20.00"), "O": D("20.00"),
        "M": D("20.00"), "R": D("0.00"), "E": D("0.00"), "PA": D("0.00"), "L": D("0.00"), "L2": D("0.00")}
    assert settled(v)["S"][0] == "win" and settled(v)["R"][0] == "lose"


@BOTH
def test_the_zero_bets_win_on_zero(ruleset):
    """0-1-2 / 0-2-3 pay as a street, 11 (000 L137; 004 L235-L240), 0-1-2-3 as a corner, 8 (000 L141;
    004 L245-L249), split 0-1 17, the 0 itself 35."""
    v = Script(ruleset).spin([("A", "street:0-1-2", 10), ("B", "street:0-2-3", 10), ("C", "corner:0-1-2-3", 10),
                              ("D", "split:0-1", 10), ("E", "straight:0", 10), ("F", "dozen:1", 10)], number=0)
    assert {b: r for b, (_, _, r) in settled(v).items()} == {
        "A": D("120.00"), "B": D("120.00"), "C": D("90.00"), "D": D("180.00"), "E": D("360.00"), "F": D("0.00")}


# --------------------------------------------------------------------------- the zero rule


@BOTH
def test_a_simple_chance_loses_half_at_zero(ruleset):
    """000 L225 «se pierde la mitad de la apuesta y se recupera la otra mitad»; 004 L543-L545: every simple
    chance gets half back at zero, with no choice and no prison."""
    v = Script(ruleset).spin([("R", "red", 10), ("B", "black", 20), ("E", "even", 5), ("O", "odd", 30),
                              ("M", "manque", 15), ("P", "passe", 100)], number=0)
    assert kinds(v) == []
    assert settled(v) == {"R": ("half_back", D(10), D("5.00")), "B": ("half_back", D(20), D("10.00")),
                          "E": ("half_back", D(5), D("2.50")), "O": ("half_back", D(30), D("15.00")),
                          "M": ("half_back", D(15), D("7.50")), "P": ("half_back", D(100), D("50.00"))}


def test_the_half_of_an_odd_cent_is_rounded_down():
    """Ruleset rounding "down": half of 5.01 (000 L225) is 2.50, the house never hands over a fraction of a
    cent it does not owe; 6 EUR gets 3 back."""
    v = Script(GAL).spin([("E", "even", D("5.01")), ("M", "manque", 6)], number=0)
    assert settled(v) == {"E": ("half_back", D("5.01"), D("2.50")), "M": ("half_back", D(6), D("3.00"))}


@BOTH
def test_the_half_is_lost_on_the_last_spin_too_and_nothing_stays_on_the_layout(ruleset):
    """No prison (000 L225; 004 L543-L545): a zero on the last spin of the session gets half back, and the
    next spin settles only its own bets."""
    s = Script(ruleset)
    v = s.spin([("R", "red", 10)], number=0, last=True)
    assert settled(v) == {"R": ("half_back", D(10), D("5.00"))}
    v = s.spin([("X", "black", 10)], number=2)
    assert settled(v) == {"X": ("win", D(10), D("20.00"))}


@BOTH
def test_en_prison_is_an_illegal_decision_and_half_back_changes_nothing(ruleset):
    """The American clause replaces French roulette's choice (000 L225 vs L125; 004 L543 «No obstante»)."""
    v = Script(ruleset).spin([("R", "red", 10), ("B", "black", 10)], number=0, after=[
        ("player_decision", {"decision": "en_prison", "bet_id": "R"}),
        ("player_decision", {"decision": "half_back", "bet_id": "B"})])
    assert kinds(v) == [VK.ILLEGAL_DECISION]
    assert [x.bet_id for x in v.violations if x.kind == VK.ILLEGAL_DECISION] == ["R"]
    assert settled(v) == {"R": ("half_back", D(10), D("5.00")), "B": ("half_back", D(10), D("5.00"))}


def test_half_back_without_a_zero_is_an_illegal_decision():
    v = Script().spin([("R", "red", 10)], number=3, after=[("player_decision", {"decision": "half_back",
                                                                                 "bet_id": "R"})])
    assert kinds(v) == [VK.ILLEGAL_DECISION]


# --------------------------------------------------------------------------- colour chips


@BOTH
def test_a_colour_bet_is_worth_its_chips_times_the_marker(ruleset):
    """000 L227 / 004 L554-L557: the player sets the value of his colour; 3 blue chips at 10 EUR on 17 is a
    30 EUR straight-up, paid 35 (1080 back); 2 chips on red, 20 EUR, lost."""
    s = Script(ruleset)
    assert s.value("P-1", "blue", "10.00") == []
    v = s.spin([("S", "straight:17", ("blue", 3)), ("R", "red", ("blue", 2))], number=17)
    assert kinds(v) == []
    assert settled(v) == {"S": ("win", D(30), D("1080.00")), "R": ("lose", D(20), D("0.00"))}


@BOTH
def test_a_colour_without_a_marker_is_worth_the_table_minimum(ruleset):
    """000 L227 «Si no se hace uso de esta facultad, cada una de sus fichas representa el mínimo de la postura
    de la mesa»; 004 L557-L559: 4 green chips at a 5 EUR table are 20 EUR; no violation."""
    v = Script(ruleset).spin([("S", "straight:17", ("green", 4)), ("R", "black", ("green", 2))], number=17)
    assert kinds(v) == []
    assert settled(v) == {"S": ("win", D(20), D("720.00")), "R": ("win", D(10), D("20.00"))}


def test_the_table_minimum_in_force_values_an_unmarked_colour():
    """Andalucía lets the minimum change during a session (004 L362-L367): unmarked chips follow it."""
    s = Script(AND)
    s.table("limits_changed", min_bet="10.00", max_bet="900.00")
    v = s.spin([("R", "red", ("green", 2))], number=1)
    assert settled(v) == {"R": ("win", D(20), D("40.00"))}


def test_a_new_marker_values_the_bets_after_it_and_a_marker_mid_spin_counts_from_then():
    """The marker in force when a bet is placed values it (000 L207 «un marcador que indica el valor dado a
    las fichas de ese color»)."""
    s = Script()
    s.value("P-1", "blue", "10.00")
    v = s.spin([("A", "red", ("blue", 1))], number=1)
    assert settled(v)["A"][1] == D(10)
    s.value("P-1", "blue", "20.00")
    v = s.spin([("B", "red", ("blue", 1))], number=1, before=[])
    assert settled(v)["B"][1] == D(20)
    s.rounds += 1
    rid = f"R{s.rounds:04d}"
    s.engine.apply(s.event("round_started", rid))
    s._bet(rid, ("C", "red", ("blue", 1)))
    assert s.engine.apply(s.event("colour_valued", rid, player_id="P-1", colour="blue", value="30.00")) == []
    s._bet(rid, ("E", "black", ("blue", 1)))
    for t, p in (("wheel_spun", {"direction": "clockwise"}), ("bets_closed", {}), ("ball_landed", {"number": 1})):
        s.engine.apply(s.event(t, rid, **p))
    v = [x for x in s.engine.apply(s.event("round_ended", rid)) if isinstance(x, RoundVerdict)][0]
    assert {b: st for b, (_, st, _) in settled(v).items()} == {"C": D(20), "E": D(30)}


@BOTH
def test_a_marker_outside_minimum_and_straight_up_maximum_is_a_procedure_violation(ruleset):
    """000 L227 «dentro de los límites del mínimo y máximo sobre un número entero»; 004 L554-L557. Table
    5 EUR, tier 1: a straight-up's maximum is 10 x 5 = 50 EUR (000 L231; 004 L346-L352)."""
    s = Script(ruleset)
    low = s.value("P-1", "blue", "4.00")
    assert [(x.kind, x.amount) for x in low] == [(VK.PROCEDURE, D("1.00"))]
    assert s.value("P-1", "blue", "50.00") == []
    high = s.value("P-1", "blue", "60.00")
    assert [(x.kind, x.amount) for x in high] == [(VK.PROCEDURE, D("10.00"))]
    assert "maximum of a straight-up" in high[0].message
    v = s.spin([("S", "straight:17", ("blue", 1))], number=2)
    assert settled(v)["S"][1] == D(60) and kinds(v) == [VK.BET_ABOVE_MAXIMUM]  # the marker's value is in force


def test_a_colour_belongs_to_one_player_until_he_leaves():
    """One box per colour (000 L207; 004 L479-L484): a marker for a colour another player holds and a bet in
    a colour the bettor does not hold are procedure violations; after player_left the colour is free."""
    s = Script()
    s.value("P-1", "blue", "10.00")
    taken = s.value("P-2", "blue", "20.00")
    assert [x.kind for x in taken] == [VK.PROCEDURE] and "P-1 still holds it" in taken[0].message
    v = s.spin([("S", "red", ("blue", 1), "P-1")], number=1)
    assert kinds(v) == [VK.PROCEDURE] and settled(v)["S"][1] == D(20)
    s.table("player_left", player_id="P-2")
    v = s.spin([("S2", "red", ("blue", 1), "P-1")], number=1)
    assert kinds(v) == [] and settled(v)["S2"][1] == D(5)   # free again: the table minimum
    assert s.value("P-3", "blue", "15.00") == []


def test_the_markers_are_cleared_at_the_close():
    s = Script()
    s.value("P-1", "blue", "10.00")
    s.table("table_closed")
    s.table("table_opened", ruleset_id=GAL, jurisdiction="galicia", min_bet="5.00", max_bet="900.00",
            float_amount="10000.00")
    v = s.spin([("S", "red", ("blue", 2))], number=1)
    assert settled(v)["S"][1] == D(10)


def test_a_bet_in_value_chips_is_judged_as_a_colour_bet_of_the_same_stake():
    """Value chips are at the table (000 L233 «o con fichas y placas de valor»)."""
    s = Script()
    s.value("P-1", "blue", "10.00")
    v = s.spin([("V", "straight:5", 10), ("C", "straight:5", ("blue", 1))], number=5)
    assert settled(v) == {"V": ("win", D(10), D("360.00")), "C": ("win", D(10), D("360.00"))}


# --------------------------------------------------------------------------- limits


@BOTH
def test_limits_per_kind(ruleset):
    """Minimum 5 EUR (000 L227; 004 L328-L332); tier 1 maxima (000 L231; 004 L338-L352): straight-up 50,
    simple chances 900, dos docenas 1200. In colour chips too: 6 blue chips at 10 on a number is 60 > 50."""
    s = Script(ruleset)
    s.value("P-1", "blue", "10.00")
    v = s.spin([("low", "straight:1", "4.00"), ("hi", "straight:2", "55.00"), ("ok", "straight:3", "50.00"),
                ("red", "red", "900.00"), ("red2", "black", "905.00"), ("dd", "dozens:1-2", "1200.00"),
                ("col", "straight:4", ("blue", 6))], number=9)
    by_bet = {x.bet_id: (x.kind, x.amount) for x in v.violations if x.kind != VK.PAYOUT_DISCREPANCY}
    assert by_bet == {"low": (VK.BET_BELOW_MINIMUM, D("1.00")), "hi": (VK.BET_ABOVE_MAXIMUM, D("5.00")),
                      "red2": (VK.BET_ABOVE_MAXIMUM, D("5.00")), "col": (VK.BET_ABOVE_MAXIMUM, D("10.00"))}
    assert settled(v)["hi"] == ("lose", D(55), D(0))  # accepted: settled whole


@BOTH
def test_simple_chance_minimum_raised_and_tier_three(ruleset):
    """000 L229 / 004 L340-L344: simple-chance minimum up to five times the minimum; tier 3: straight-up 30 x
    minimum (000 L231; 004 L346-L352)."""
    v = Script(ruleset, options={"simple_chance_min_multiple": "2", "max_tier": "3"}).spin(
        [("r", "red", "5.00"), ("r2", "black", "10.00"), ("s", "straight:1", "150.00")], number=9)
    assert {x.bet_id: x.kind for x in v.violations if x.kind != VK.PAYOUT_DISCREPANCY} == {
        "r": VK.BET_BELOW_MINIMUM}


def test_andalucia_authorised_maximum():
    """004 L328-L336: max_rule authorisation, every kind's maximum is the table's."""
    v = Script(AND, max_bet="300.00", options={"max_rule": "authorisation"}).spin(
        [("s", "straight:1", "300.00"), ("t", "straight:2", "305.00")], number=9)
    assert [(x.bet_id, x.kind) for x in v.violations if x.kind != VK.PAYOUT_DISCREPANCY] == [
        ("t", VK.BET_ABOVE_MAXIMUM)]


def test_galicia_has_no_authorised_maximum_and_no_limit_change():
    """000 L169 (by L199): limits may not change during the session; L231 is the only maximum rule."""
    s = Script(GAL, options={"max_rule": "authorisation"})
    assert [x.kind for x in s.table_out] == [VK.PROCEDURE]
    out = Script(GAL).table("limits_changed", min_bet="10.00", max_bet="900.00")
    assert [x.kind for x in out] == [VK.PROCEDURE]
    assert Script(AND).table("limits_changed", min_bet="10.00", max_bet="900.00") == []


def test_andalucia_bets_must_be_payable_with_the_table_minimum():
    """004 L561-L562 «Solo se podrán realizar apuestas por un valor que permita su pago con el mínimo de la
    mesa»: at a 5 EUR table, 5 EUR on two columns wins 2.50 and 7 EUR on red wins 7: not payable in 5 EUR
    chips; 10 on two columns (5) and 15 on red are. Galicia has no such clause. Still wagers, settled."""
    bets = [("cc", "columns:1-2", 5), ("r", "red", 7), ("ok", "columns:2-3", 10), ("ok2", "black", 15)]
    v = Script(AND).spin(bets, number=1)
    assert sorted((x.bet_id, x.kind) for x in v.violations if x.kind != VK.PAYOUT_DISCREPANCY) == [
        ("cc", VK.PROCEDURE), ("r", VK.PROCEDURE)]
    assert settled(v)["cc"] == ("win", D(5), D("7.50")) and settled(v)["r"] == ("win", D(7), D("14.00"))
    assert kinds(Script(GAL).spin(bets, number=1)) == []


def test_the_markers_survive_the_engines_snapshot_mid_spin():
    """ctx.carry (the markers, JSON only) and a colour bet of the open spin go through the engine's JSON
    snapshot, as the stream processor needs: the spin ends as it would have."""
    from pitwatch.schemas.events import EVENT_ADAPTER

    s = Script()
    s.value("P-1", "blue", "10.00")
    s.rounds += 1
    rid = f"R{s.rounds:04d}"
    s.engine.apply(s.event("round_started", rid))
    s._bet(rid, ("C", "straight:9", ("blue", 2)))
    snap = json.loads(json.dumps(s.engine.snapshot()))
    s.engine = type(s.engine).from_snapshot("RA-T1", snap, EVENT_ADAPTER.validate_python)
    s._bet(rid, ("E", "straight:9", ("blue", 1)))
    for t, p in (("wheel_spun", {"direction": "clockwise"}), ("bets_closed", {}), ("ball_landed", {"number": 9})):
        s.engine.apply(s.event(t, rid, **p))
    v = [x for x in s.engine.apply(s.event("round_ended", rid)) if isinstance(x, RoundVerdict)][0]
    assert settled(v) == {"C": ("win", D(20), D("720.00")), "E": ("win", D(10), D("360.00"))}


# --------------------------------------------------------------------------- procedure


@BOTH
def test_past_posting_in_value_or_colour_chips_is_refused(ruleset):
    """«No va más» (000 L185; 004 L392-L400): a bet after it is no wager, its chips handed back, whether in
    value chips or colour chips (2 blue chips at 10 = 20 EUR)."""
    s = Script(ruleset)
    s.value("P-1", "blue", "10.00")
    v = s.spin([("ok", "red", 10)], late_bets=[("late", "straight:17", 10), ("latec", "straight:17", ("blue", 2))],
               number=17)
    pp = [x for x in v.violations if x.kind == VK.PAST_POSTING]
    assert [(x.bet_id, x.amount) for x in pp] == [("late", D(10)), ("latec", D(20))]
    assert settled(v)["late"] == ("refused", D(10), D(10)) and settled(v)["latec"] == ("refused", D(20), D(20))


def test_a_bet_after_the_ball_without_no_more_bets_is_past_posting():
    s = Script()
    s.rounds += 1
    rid = "R0001"
    for t, p in (("round_started", {}), ("wheel_spun", {"direction": "clockwise"}), ("ball_landed", {"number": 4})):
        s.engine.apply(s.event(t, rid, **p))
    s._bet(rid, ("B", "straight:4", ("blue", 1)))
    v = [x for x in s.engine.apply(s.event("round_ended", rid)) if isinstance(x, RoundVerdict)][0]
    assert VK.PAST_POSTING in kinds(v)


@BOTH
def test_void_spin_returns_every_stake(ruleset):
    """«Tirada nula» (000 L189-L191; 004 L429-L436)."""
    s = Script(ruleset)
    s.value("P-1", "blue", "10.00")
    v = s.spin([("a", "red", 10), ("b", "straight:3", ("blue", 2))], voided="ball jumped out")
    assert settled(v) == {"a": ("void", D(10), D(10)), "b": ("void", D(20), D(20))}


@BOTH
def test_spin_direction_must_alternate(ruleset):
    """000 L183; 004 L386-L390."""
    s = Script(ruleset)
    s.spin([("a", "red", 10)], direction="clockwise")
    v = s.spin([("b", "red", 10)], direction="clockwise")
    assert kinds(v) == [VK.SPIN_DIRECTION]


def test_an_off_layout_spot_is_an_invalid_bet():
    v = Script().spin([("x", "split:1-5", 10)])
    assert kinds(v) == [VK.INVALID_BET] and settled(v)["x"] == ("refused", D(10), D(10))


def test_a_wrong_payment_is_a_payout_discrepancy_citing_the_rule():
    """Half back at zero is 5 of 10 (000 L225): recording 10 back over-pays by 5."""
    v = Script().spin([("r", "red", 10)], number=0, records={"r": ("push", "10.00")})
    d = [x for x in v.violations if x.kind == VK.PAYOUT_DISCREPANCY]
    assert [(x.bet_id, x.amount) for x in d] == [("r", D(5))] and "L225" in d[0].citation


def test_the_colour_events_parse_from_json_and_have_json_schemas(tmp_path):
    """The contract: both events parse with the catalogue's event union, a dumped event parses back to the
    same one, and the exported JSON Schemas describe them."""
    env = ('"event_id":"4f0c0000-0000-4000-8000-000000000001","casino_id":"c","table_id":"T","game":'
           '"american_roulette","seq":1,"occurred_at":"2026-11-21T21:04:05.120Z","actor":{"role":"player","id":"P1"}')
    a = parse_event("{" + env + ',"type":"colour_valued","player_id":"P1","colour":"blue","value":"12.50"}')
    assert (a.type, a.value, a.round_id) == ("colour_valued", D("12.50"), None)
    b = parse_event("{" + env + ',"round_id":"R1","type":"colour_bet_placed","bet_id":"B1","player_id":"P1",'
                    '"spot":"split:17-20","colour":"blue","chips":3}')
    assert (b.type, b.chips, b.spot) == ("colour_bet_placed", 3, "split:17-20")
    with pytest.raises(ValueError, match="chips"):
        parse_event("{" + env + ',"round_id":"R1","type":"colour_bet_placed","bet_id":"B1","player_id":"P1",'
                    '"spot":"red","colour":"blue","chips":0}')
    with pytest.raises(ValueError, match="round_id"):
        parse_event("{" + env + ',"type":"colour_bet_placed","bet_id":"B1","player_id":"P1",'
                    '"spot":"red","colour":"blue","chips":1}')
    with pytest.raises(ValueError, match="spot"):
        parse_event("{" + env + ',"round_id":"R1","type":"colour_bet_placed","bet_id":"B1","player_id":"P1",'
                    '"spot":"rojo","colour":"blue","chips":1}')
    assert parse_event(dump_event(b)) == b and parse_event(dump_event(a)) == a
    export_schemas(tmp_path)
    load = lambda name: json.loads((tmp_path / f"{name}.schema.json").read_text())  # noqa: E731
    assert {"player_id", "colour", "value"} <= set(load("colour_valued")["required"])
    assert {"bet_id", "player_id", "spot", "colour", "chips", "round_id"} <= set(load("colour_bet_placed")["required"])
    assert "american_roulette" in json.dumps(load("event"))


# --------------------------------------------------------------------------- conservation (hypothesis)

CODES = sorted(SPOTS)
chips = st.integers(min_value=1, max_value=4)
bet = st.tuples(st.sampled_from(CODES), st.one_of(chips.map(lambda n: D(5) * n),
                                                   st.tuples(st.sampled_from(["blue", "pink"]), chips)))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bets=st.lists(bet, min_size=1, max_size=10), late=st.lists(bet, max_size=2), number=st.integers(0, 36),
       ruleset=st.sampled_from([GAL, AND]), blue=st.sampled_from(["5.00", "10.00", "15.00"]))
def test_settlement_conserves_chips(bets, late, number, ruleset, blue):
    """Every bet placed (in time or late, value or colour chips) is settled exactly once; its stake is chips x
    marker (blue) or chips x minimum (pink, no marker); what comes back is 0, half the stake (a simple chance
    at zero) or stake x 36 / numbers covered (every payout of the texts, 000 L121-L153); and the session's
    float reconciles: a closing count of float + stakes - returns raises no float discrepancy."""
    s = Script(ruleset, options={"max_tier": "3"})
    s.value("P-1", "blue", blue)
    placed = [(f"B{i}", code, stake) for i, (code, stake) in enumerate(bets)]
    late_placed = [(f"L{i}", code, stake) for i, (code, stake) in enumerate(late)]
    v = s.spin(placed, late_bets=late_placed, number=number)
    checks = {c.expected.bet_id: c.expected for c in v.checks}
    assert len(v.checks) == len(checks) == len(placed) + len(late_placed)
    unit = {"blue": D(blue), "pink": D(5)}
    total_stake = total_back = D(0)
    for bid, code, stake in placed + late_placed:
        e = checks[bid]
        want = stake if isinstance(stake, Decimal) else unit[stake[0]] * stake[1]
        assert e.stake == want
        nums = parse_spot(code).numbers
        if bid.startswith("L"):
            assert (e.outcome, e.returned) == ("refused", want)
        elif number in nums:
            assert e.returned == want * 36 / len(nums)
        elif number == 0 and len(nums) == 18:
            assert e.returned == (want / 2).quantize(D("0.01"), rounding="ROUND_DOWN")
        else:
            assert e.returned == 0
        total_stake += want
        total_back += e.returned
    assert sum((f.win for f in v.figures), D(0)) == total_stake - total_back
    out = s.table("table_closed", closing_count=str(D("10000.00") + total_stake - total_back))
    assert [x for x in out if isinstance(x, Violation) and x.kind == VK.FLOAT_DISCREPANCY] == []


# --------------------------------------------------------------------------- house edges


@BOTH
def test_house_edge_of_every_bet_kind_by_hand(ruleset):
    """37 pockets (000 L199, L81-L97; 004 L459-L464): a bet on n numbers paid a returns n(1 + a)/37 = 36/37
    for every French payout, edge 1/37; a simple chance also gets ½ back at the zero (000 L225; 004 L543-L545):
    1 - (18/37) x 2 - (1/37) x ½ = 1/74."""
    rs = load_ruleset(ruleset)
    hand = {"straight:17": F(1, 37), "split:17-20": F(1, 37), "street:16-17-18": F(1, 37),
            "street:0-1-2": F(1, 37), "street:0-2-3": F(1, 37), "corner:17-18-20-21": F(1, 37),
            "corner:0-1-2-3": F(1, 37), "sixline:16-17-18-19-20-21": F(1, 37), "column:2": F(1, 37),
            "dozen:2": F(1, 37), "columns:1-2": F(1, 37), "dozens:2-3": F(1, 37), "red": F(1, 74),
            "black": F(1, 74), "even": F(1, 74), "odd": F(1, 74), "manque": F(1, 74), "passe": F(1, 74)}
    for spot, edge in hand.items():
        assert house_edge(rs, spot) == edge, spot
    lines = {line.spot: line.edge for line in edge_table(rs)}
    assert lines == {code: hand.get(code, F(1, 37)) for _, _, code in EXAMPLES}
    assert {line.kind for line in edge_table(rs)} == {"straight", "split", "street", "corner", "sixline", "column",
                                                       "dozen", "columns", "dozens", "simple"}


@BOTH
def test_variance_by_hand(ruleset):
    """Straight-up 35:1: 1225/37 + 36/37 - 1/37² = 46656/1369; red: +1 (18/37), -1 (18/37), -½ (1/37):
    E[X²] = 36/37 + 1/148 = 145/148, E[X] = -1/74, Var = 145/148 - 1/5476 = 5364/5476 = 1341/1369; two columns
    ½:1: ¼ x 24/37 + 13/37 - 1/1369 = 19/37 - 1/1369 = 702/1369."""
    rs = load_ruleset(ruleset)
    assert bet_variance(rs, "straight:17") == F(46656, 1369)
    assert bet_variance(rs, "red") == F(1341, 1369)
    assert bet_variance(rs, "columns:1-2") == F(702, 1369)
    assert spot_variance(rs, parse_spot("odd")) == F(1341, 1369)


def test_edges_refuse_an_off_layout_spot_and_another_games_ruleset():
    with pytest.raises(RuleError):
        house_edge(load_ruleset(GAL), "split:1-5")
    from pitwatch.rules.american_roulette.edges import spot_edge
    with pytest.raises(RuleError, match="not a AmericanRouletteRuleset"):
        spot_edge(load_ruleset("french_roulette.galicia"), parse_spot("red"))


def test_the_edge_follows_the_rulesets_lost_fraction():
    """A ruleset where the zero took the whole simple chance would have the edge 1 - 36/37 = 1/37: the edge
    is read from [zero], not a constant."""
    from pitwatch.rules.base import parse_ruleset
    src = load_ruleset(GAL).source.replace("simple_lost_fraction = 0.5", "simple_lost_fraction = 0.75")
    rs = parse_ruleset(src, "american_roulette.galicia.toml")
    assert house_edge(rs, "red") == 1 - F(36, 37) - F(1, 37) * F(1, 4) == F(3, 148)


def test_the_round_module_imports_first_in_a_fresh_interpreter():
    """The round dispatches on its own event classes (``ColourValued``, ``ColourBetPlaced``), so it imports
    the game's events module; the contract (:mod:`pitwatch.schemas.events`) imports that module too while it
    builds the event union. Imported first, before anything has loaded the contract, the round must still
    load (a worker or a test importing only this game)."""
    import subprocess
    import sys

    script = "import pitwatch.rules.american_roulette.game as g; print(g.AmericanRouletteRound.game)"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout.strip()) == (0, "american_roulette"), out.stderr[-2000:]
