"""Boule rules: every bet kind, the 5, the paños' minima, the maxima per player, past-posting, void rounds.

Each test names the seed lines of the rule it checks: 000 = Galicia ``000_e1555249d49967be.txt`` (L331-L378),
002 = Spain ``002_b26436a6fc4fb8e8.txt`` (L9-L63), 004 = Andalucía ``004_5c9c19b250457762.txt`` (L903-L1027).
The three texts say the same; every hand-worked figure is checked under the three rulesets. ``BouleScript``
(also used by the property test) feeds pydantic events to a ``TableEngine`` and returns the round verdicts.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pitwatch.rules.base import RoundVerdict, RuleError, load_ruleset
from pitwatch.rules.base import ViolationKind as VK
from pitwatch.rules.edges import bet_variance, edge_table, house_edge, theoretical_win
from pitwatch.rules.engine import TableEngine
from pitwatch.schemas.events import EVENT_CLASS_BY_TYPE

D = Decimal
GAL, ESP, AND = "boule.galicia", "boule.espana", "boule.andalucia"
ALL = pytest.mark.parametrize("ruleset", [GAL, ESP, AND])
SEED_OF = {GAL: "000_e1555249d49967be.txt", ESP: "002_b26436a6fc4fb8e8.txt", AND: "004_5c9c19b250457762.txt"}


class BouleScript:
    """One boule table's events fed to a TableEngine. ``launch(...)`` plays a round and returns its verdict;
    table-level violations collect in ``table_violations``."""

    def __init__(self, ruleset: str = GAL, min_bet: str = "5.00", max_bet: str = "1000.00",
                 options: dict[str, str] | None = None, table_id: str = "BO-T1"):
        self.table_id = table_id
        self.engine = TableEngine(table_id)
        self.seq = 0
        self.t0 = datetime(2026, 11, 27, 21, 0, tzinfo=timezone.utc)
        self.rounds = 0
        self.table_violations: list = []
        self.table_violations += self.engine.apply(self._event(
            "table_opened", None, ("pit_boss", "PB"), ruleset_id=ruleset, jurisdiction=ruleset.split(".")[1],
            min_bet=min_bet, max_bet=max_bet, float_amount="10000.00", options=options or {}))
        self.engine.apply(self._event("dealer_assigned", None, ("pit_boss", "PB"), dealer_id="D-1"))

    def _event(self, type: str, round_id: str | None, actor=("dealer", "D-1"), **payload):
        self.seq += 1
        ev = {"event_id": str(uuid.uuid4()), "casino_id": "gal-test", "table_id": self.table_id, "game": "boule",
              "seq": self.seq, "round_id": round_id, "occurred_at": (self.t0 + timedelta(seconds=self.seq)).isoformat(),
              "actor": {"role": actor[0], "id": actor[1]}, "type": type, **payload}
        return EVENT_CLASS_BY_TYPE[type].model_validate(ev)

    def launch(self, bets=(), number: int | None = 7, close: bool = True, late_bets=(), voided: str | None = None,
               records=None, numbers=(), launched: bool = True) -> RoundVerdict:
        """Play one round. ``bets`` and ``late_bets`` (placed after «No va más»): (bet_id, spot, stake[, player
        [, box]]); ``number``: the ball's hole (None: no ball); ``numbers``: more ball_landed after it;
        ``records``: bet_id -> (outcome, returned) recorded by the croupier."""
        self.rounds += 1
        rid = f"R{self.rounds:04d}"
        ap = self.engine.apply

        def place(b):
            bid, spot, stake, *rest = b
            player = rest[0] if rest else "P-1"
            box = rest[1] if len(rest) > 1 else None
            ap(self._event("bet_placed", rid, ("player", player), bet_id=bid, player_id=player, spot=spot,
                           stake=str(stake), box=box))

        ap(self._event("round_started", rid, last_of_session=False))
        for b in bets:
            place(b)
        if launched:
            ap(self._event("wheel_spun", rid, direction="clockwise"))
        if close:
            ap(self._event("bets_closed", rid))
        for b in late_bets:
            place(b)
        if voided:
            ap(self._event("round_voided", rid, ("inspector", "I-1"), reason=voided))
        elif number is not None:
            ap(self._event("ball_landed", rid, number=number))
            for n in numbers:
                ap(self._event("ball_landed", rid, number=n))
        for bid, (outcome, returned) in (records or {}).items():
            ap(self._event("settlement_recorded", rid, bet_id=bid, outcome=outcome, returned=str(returned)))
        verdicts = [v for v in ap(self._event("round_ended", rid)) if isinstance(v, RoundVerdict)]
        assert len(verdicts) == 1
        return verdicts[0]


def settled(v: RoundVerdict) -> dict[str, tuple[str, Decimal]]:
    """bet_id -> (expected outcome, expected returned euros)."""
    return {c.expected.bet_id: (c.expected.outcome, c.expected.returned) for c in v.checks}


def flags(v: RoundVerdict) -> list[tuple[str, str | None, Decimal | None]]:
    """(kind, bet_id, amount) of every violation but the payout discrepancies, in order."""
    return [(x.kind, x.bet_id, x.amount) for x in v.violations if x.kind != VK.PAYOUT_DISCREPANCY]


def kinds(v: RoundVerdict) -> list[str]:
    """Violation kinds of a verdict, payout discrepancies apart (nothing is recorded unless a test records)."""
    return sorted(x.kind for x in v.violations if x.kind != VK.PAYOUT_DISCREPANCY)


# --------------------------------------------------------------------------- a number: seven times the stake

@ALL
@pytest.mark.parametrize("n", range(1, 10))
def test_a_number_that_comes_out_returns_the_stake_and_seven_times_it(ruleset, n):
    """000 L361; 002 L43; 004 L969-L970 «recibe siete veces el valor de su apuesta», the stake kept (000 L377):
    10 EUR on the number returns 10 + 70 = 80 EUR, every other number's bet is lost. The 5 is «jugado como
    cualquier otro número» (000 L345; 002 L23; 004 L943-L944): it pays the same."""
    v = BouleScript(ruleset).launch([(f"B{k}", f"straight:{k}", "10") for k in range(1, 10)], number=n)
    assert kinds(v) == []
    assert settled(v) == {f"B{k}": ("win", D("80.00")) if k == n else ("lose", D("0")) for k in range(1, 10)}
    win = next(c.expected for c in v.checks if c.expected.bet_id == f"B{n}")
    assert SEED_OF[ruleset] in win.citation


# --------------------------------------------------------------------------- the simple chances, and the 5

WINNING_CHANCES = {
    1: {"black", "odd", "manque"},
    2: {"red", "even", "manque"},
    3: {"black", "odd", "manque"},
    4: {"red", "even", "manque"},
    5: set(),
    6: {"black", "even", "passe"},
    7: {"red", "odd", "passe"},
    8: {"black", "even", "passe"},
    9: {"red", "odd", "passe"},
}
"""Written out by hand from the texts: black 1, 3, 6, 8 and red 2, 4, 7, 9 (000 L343; 002 L21; 004 L928-L930);
pasa above the 5, falta below it, the 5 in no simple chance, not even odd (000 L345; 002 L23; 004 L939-L944)."""
CHANCES = ("red", "black", "odd", "even", "manque", "passe")


@ALL
@pytest.mark.parametrize("n", range(1, 10))
def test_each_simple_chance_pays_a_la_par_on_its_numbers_and_loses_on_the_others(ruleset, n):
    """000 L363; 002 L43; 004 L972-L976: a winning simple chance «recupera su apuesta y recibe un valor igual a
    ella»: 20 EUR returns 40 EUR; a losing one returns nothing."""
    v = BouleScript(ruleset).launch([(c, c, "20") for c in CHANCES], number=n)
    assert kinds(v) == []
    assert settled(v) == {c: ("win", D("40.00")) if c in WINNING_CHANCES[n] else ("lose", D("0")) for c in CHANCES}
    assert v.outcome == {1: "1 black", 2: "2 red", 5: "5 neither colour", 7: "7 red"}.get(n, v.outcome)


@ALL
def test_the_5_loses_every_simple_chance_and_pays_its_number(ruleset):
    """000 L363; 002 L43; 004 L976-L978 «cuando sale el número 5, se pierden todas las apuestas realizadas sobre
    estas suertes sencillas»: six simple chances of 20 EUR all lose, citing that rule; straight:5 returns
    10 + 70 = 80 EUR (the 5 is a number like the others, 000 L345)."""
    v = BouleScript(ruleset).launch([(c, c, "20") for c in CHANCES] + [("N5", "straight:5", "10")], number=5)
    assert kinds(v) == []
    got = settled(v)
    assert got.pop("N5") == ("win", D("80.00"))
    assert got == {c: ("lose", D("0")) for c in CHANCES}
    five = {GAL: "L345, L363", ESP: "L23, L43", AND: "L941-L944, L976-L978"}[ruleset]
    for c in v.checks:
        if c.expected.spot in CHANCES:
            assert five in c.expected.citation and "every simple chance loses" in c.expected.detail
    assert v.outcome == "5 neither colour"


@ALL
def test_a_wrong_payment_is_a_discrepancy_citing_the_payout(ruleset):
    """000 L361, L377: 10 EUR on the 7 recorded as returning 70 (the winnings without the stake) is under-paid by
    10 EUR; red paid 2 to 1 (30 on 10) is over-paid by 10 EUR; a losing bet recorded as lost is correct."""
    v = BouleScript(ruleset).launch([("A", "straight:7", "10"), ("B", "red", "10"), ("C", "black", "10")], number=7,
                                    records={"A": ("win", "70.00"), "B": ("win", "30.00"), "C": ("lose", "0.00")})
    disc = {x.bet_id: x.amount for x in v.violations if x.kind == VK.PAYOUT_DISCREPANCY}
    assert disc == {"A": D("-10.00"), "B": D("10.00")}
    cites = {x.bet_id: x.citation for x in v.violations}
    line = {GAL: "L361", ESP: "L43", AND: "L969-L970"}[ruleset]
    assert line in cites["A"]


# --------------------------------------------------------------------------- what is not a bet of boule

@ALL
@pytest.mark.parametrize("spot", ["straight:0", "straight:10", "split:1-2", "column:1", "dozen:1", "corner:1-2-4-5"])
def test_only_the_two_combinations_exist(ruleset, spot):
    """000 L359 «Sólo se pueden usar dos combinaciones»; 002 L41; 004 L967: any other spot is an invalid_bet, no
    wager: its chips come back whatever the result (outcome refused)."""
    v = BouleScript(ruleset).launch([("X", spot, "10"), ("N", "straight:1", "10")], number=1)
    assert kinds(v) == [VK.INVALID_BET]
    assert settled(v) == {"X": ("refused", D("10")), "N": ("win", D("80.00"))}


# --------------------------------------------------------------------------- minima: the paños

@ALL
def test_a_bet_below_the_authorised_minimum(ruleset):
    """000 L365-L367; 002 L47; 004 L980-L983: the minimum fixed by the authorisation (the table's 5.00 EUR): a
    4 EUR bet is 1 EUR below it; it is still settled (the croupier took it)."""
    v = BouleScript(ruleset).launch([("L", "red", "4"), ("OK", "black", "5")], number=2)
    low = [x for x in v.violations if x.kind == VK.BET_BELOW_MINIMUM]
    assert [(x.bet_id, x.amount) for x in low] == [("L", D("1.00"))]
    assert settled(v)["L"] == ("win", D("8"))


@ALL
def test_a_pano_opened_at_twice_the_minimum(ruleset):
    """000 L367; 002 L47; 004 L984-L989: one paño may open at twice the authorised minimum if the other keeps it
    (option panos "1,2"): 5 EUR is enough on paño 1, 5 EUR on paño 2 is 5 EUR below its 10 EUR minimum, 10 EUR
    on paño 2 is fine; a bet without a box is judged against the lowest minimum; there is no paño 3
    (invalid_bet, the chips back)."""
    s = BouleScript(ruleset, options={"panos": "1,2"})
    assert s.table_violations == []
    v = s.launch([("P1", "red", "5", "P-1", 1), ("P2", "red", "5", "P-2", 2), ("P2b", "black", "10", "P-2", 2),
                  ("NB", "odd", "5", "P-3"), ("P3", "even", "10", "P-3", 3)], number=4)
    assert flags(v) == [(VK.BET_BELOW_MINIMUM, "P2", D("5.00")), (VK.INVALID_BET, "P3", D("10"))]
    assert settled(v)["P3"] == ("refused", D("10"))


@ALL
def test_a_table_of_one_pano_has_no_second(ruleset):
    """«También puede incluir un solo paño» (000 L339; 002 L17; 004 L916-L919 «uno o dos paños»): at a table opened
    with panos "1", a bet on box 2 is an invalid_bet (its chips back); on box 1 or without a box it plays."""
    s = BouleScript(ruleset, options={"panos": "1"})
    assert s.table_violations == []
    v = s.launch([("A", "red", "5", "P-1", 1), ("B", "red", "5", "P-2"), ("C", "red", "5", "P-3", 2)], number=3,
                 records={"A": ("lose", "0"), "B": ("lose", "0")})
    assert flags(v) == [(VK.INVALID_BET, "C", D("5"))]
    assert settled(v) == {"A": ("lose", D("0")), "B": ("lose", D("0")), "C": ("refused", D("5"))}
    assert [x for x in v.violations if x.kind == VK.PAYOUT_DISCREPANCY] == []


@ALL
@pytest.mark.parametrize("panos", ["2,2", "2", "1,3", "1,1,1", "uno"])
def test_options_without_a_pano_at_the_authorised_minimum_are_a_procedure_violation(ruleset, panos):
    """000 L367 «siempre que aquel mínimo sea mantenido, por lo menos, en un paño» (002 L47; 004 L984-L989), at
    most two paños (000 L339; 002 L17; 004 L916-L919), minima of 1 or 2 times the authorised one: anything else
    is reported at table_opened, and the table is judged as the ruleset's "1,1"."""
    s = BouleScript(ruleset, options={"panos": panos})
    assert [x.kind for x in s.table_violations] == [VK.PROCEDURE]
    assert "panos" in s.table_violations[0].message
    v = s.launch([("A", "red", "5", "P-1", 2)], number=2)
    assert kinds(v) == []


# --------------------------------------------------------------------------- maxima: per player, per spot

@ALL
def test_the_maxima_are_the_authorisations_multiples_of_the_minimum(ruleset):
    """000 L369; 002 L49; 004 L991-L996: by default 40 times the 5.00 EUR minimum on a number (200 EUR) and 200
    times it on a simple chance (1000 EUR): 200 and 1000 are allowed, 205 and 1005 are 5 EUR above; the table's
    max_bet (here 1000.00) plays no part."""
    v = BouleScript(ruleset, max_bet="100.00").launch(
        [("N", "straight:3", "200", "P-1"), ("C", "red", "1000", "P-2"), ("N+", "straight:4", "205", "P-3"),
         ("C+", "black", "1005", "P-4")], number=3)
    over = {x.bet_id: x.amount for x in v.violations if x.kind == VK.BET_ABOVE_MAXIMUM}
    assert over == {"N+": D("5.00"), "C+": D("5.00")}
    assert kinds(v) == [VK.BET_ABOVE_MAXIMUM] * 2
    assert settled(v)["N"] == ("win", D("1600.00"))


@ALL
def test_higher_maxima_set_by_the_authorisation(ruleset):
    """Options max_straight_multiple 100 and max_simple_multiple 500 (the highest the law allows, 000 L369;
    002 L49; 004 L991-L996): 500 EUR on a number and 2500 EUR on a simple chance are allowed at a 5 EUR table,
    one more euro is not."""
    s = BouleScript(ruleset, options={"max_straight_multiple": "100", "max_simple_multiple": "500"})
    assert s.table_violations == []
    v = s.launch([("N", "straight:9", "500", "P-1"), ("C", "passe", "2500", "P-2"),
                  ("N+", "straight:8", "501", "P-3"), ("C+", "manque", "2501", "P-4")], number=9)
    assert {bid: amount for _, bid, amount in flags(v)} == {"N+": D("1.00"), "C+": D("1.00")}


@ALL
@pytest.mark.parametrize("name,value", [("max_straight_multiple", "39"), ("max_straight_multiple", "101"),
                                        ("max_simple_multiple", "199"), ("max_simple_multiple", "501"),
                                        ("max_simple_multiple", "many")])
def test_maxima_outside_the_law_are_a_procedure_violation(ruleset, name, value):
    """000 L369 «no podrá ser inferior a cuarenta veces, ni superior a cien veces ... doscientas ... quinientas»
    (002 L49; 004 L991-L996): the option is reported at table_opened and the ruleset's default (40, 200) judges
    the table: 205 EUR on a number is above its maximum."""
    s = BouleScript(ruleset, options={name: value})
    assert [x.kind for x in s.table_violations] == [VK.PROCEDURE] and name in s.table_violations[0].message
    v = s.launch([("N", "straight:3", "205")], number=3)
    assert flags(v) == [(VK.BET_ABOVE_MAXIMUM, "N", D("5.00"))]


@ALL
def test_the_maximum_caps_each_players_total_on_a_spot_and_never_different_players(ruleset):
    """000 L369 «Este máximo se aplica, por mesa, a cada persona jugadora considerada aisladamente ... no puede
    fijar un máximo para el conjunto de apuestas que pertenezcan a personas jugadoras diferentes» (002 L51;
    004 L996-L1000): P-1's 150 + 100 EUR on the 7, on both paños, is 50 EUR above the 200 EUR maximum (flagged
    on the bet that crosses it); P-2's 200 EUR on the 7 and P-1's 200 EUR on the 8 are within theirs."""
    v = BouleScript(ruleset).launch([("A", "straight:7", "150", "P-1", 1), ("B", "straight:7", "100", "P-1", 2),
                                     ("C", "straight:7", "200", "P-2", 1), ("D", "straight:8", "200", "P-1", 1)],
                                    number=7)
    assert flags(v) == [(VK.BET_ABOVE_MAXIMUM, "B", D("50.00"))]
    assert "P-1's total on it 250 EUR" in v.violations[0].message
    assert settled(v)["B"] == ("win", D("800.00"))


@ALL
def test_a_withdrawn_bet_no_longer_counts_towards_the_maximum(ruleset):
    """The total is what the player has on the spot: after withdrawing 150 EUR on the 7, a new 200 EUR bet on it
    is within the 200 EUR maximum (000 L369)."""
    s = BouleScript(ruleset)
    rid = "R0001"
    ap = s.engine.apply
    ap(s._event("round_started", rid, last_of_session=False))
    ap(s._event("bet_placed", rid, ("player", "P-1"), bet_id="A", player_id="P-1", spot="straight:7", stake="150"))
    ap(s._event("bet_withdrawn", rid, ("player", "P-1"), bet_id="A"))
    ap(s._event("bet_placed", rid, ("player", "P-1"), bet_id="B", player_id="P-1", spot="straight:7", stake="200"))
    ap(s._event("bets_closed", rid))
    ap(s._event("ball_landed", rid, number=7))
    v = next(x for x in ap(s._event("round_ended", rid)) if isinstance(x, RoundVerdict))
    assert kinds(v) == [] and settled(v) == {"B": ("win", D("1600.00"))}


# --------------------------------------------------------------------------- «No va más»

@ALL
def test_a_bet_after_no_va_mas_is_past_posting_and_no_wager(ruleset):
    """000 L373 «toda apuesta depositada tras este aviso es rechazada y el/la croupier devuelve las fichas»
    (002 L59; 004 L1012-L1017): 10 EUR on the 7 after bets_closed, the 7 out: past_posting, the chips are due
    back (refused), not 80 EUR; paying it is an over-payment of 70 EUR."""
    v = BouleScript(ruleset).launch([("A", "red", "10")], late_bets=[("LATE", "straight:7", "10")], number=7,
                                    records={"A": ("win", "20.00"), "LATE": ("win", "80.00")})
    assert kinds(v) == [VK.PAST_POSTING]
    assert settled(v)["LATE"] == ("refused", D("10"))
    assert [(x.bet_id, x.amount) for x in v.violations if x.kind == VK.PAYOUT_DISCREPANCY] == [("LATE", D("70.00"))]
    past = next(x for x in v.violations if x.kind == VK.PAST_POSTING)
    assert {GAL: "L373", ESP: "L59", AND: "L1012-L1017"}[ruleset] in past.citation


@ALL
def test_a_bet_after_the_ball_landed_without_no_va_mas_is_past_posting(ruleset):
    """000 L373; 002 L59; 004 L1012-L1017: with no «No va más» recorded, a bet placed once the number is known is
    past_posting (refused); the result itself, without «No va más», is a procedure violation."""
    s = BouleScript(ruleset)
    rid = "R0001"
    ap = s.engine.apply
    ap(s._event("round_started", rid, last_of_session=False))
    ap(s._event("bet_placed", rid, ("player", "P-1"), bet_id="A", player_id="P-1", spot="red", stake="10"))
    ap(s._event("ball_landed", rid, number=9))
    ap(s._event("bet_placed", rid, ("player", "P-2"), bet_id="L", player_id="P-2", spot="straight:9", stake="10"))
    v = next(x for x in ap(s._event("round_ended", rid)) if isinstance(x, RoundVerdict))
    assert kinds(v) == [VK.PAST_POSTING, VK.PROCEDURE]
    assert settled(v) == {"A": ("win", D("20.00")), "L": ("refused", D("10"))}


@ALL
def test_the_launch_is_not_required_and_has_no_direction_rule(ruleset):
    """The ball is launched before «No va más» (000 L373; 002 L59; 004 L1009-L1014) and the texts set no direction:
    a round without wheel_spun, or two launches the same way, raise nothing."""
    s = BouleScript(ruleset)
    assert kinds(s.launch([("A", "red", "10")], number=2, launched=False)) == []
    assert kinds(s.launch([("B", "red", "10")], number=2)) == []
    assert kinds(s.launch([("C", "red", "10")], number=2)) == []


# --------------------------------------------------------------------------- results and void rounds

@ALL
@pytest.mark.parametrize("n", [0, 10, 36])
def test_a_number_off_the_platform_is_a_procedure_violation_and_the_stakes_come_back(ruleset, n):
    """000 L341-L343; 002 L19; 004 L921-L926: the holes are numbered 1 to 9: a ball_landed on 0, 10 or 36 is a
    procedure violation and no valid result: every stake comes back (void); recording a loss is an
    under-payment."""
    v = BouleScript(ruleset).launch([("A", "red", "10"), ("B", "straight:1", "5")], number=n,
                                    records={"A": ("void", "10"), "B": ("lose", "0")})
    assert kinds(v) == [VK.PROCEDURE]
    assert settled(v) == {"A": ("void", D("10")), "B": ("void", D("5"))}
    assert [(x.bet_id, x.amount) for x in v.violations if x.kind == VK.PAYOUT_DISCREPANCY] == [("B", D("-5.00"))]
    assert v.outcome == f"{n} not on the platform"


@ALL
def test_a_round_without_a_result_returns_the_stakes_and_is_reported(ruleset):
    """000 L375; 002 L61; 004 L1019-L1021: the result is announced once the ball stops in a hole; a round that ends
    with bets and no ball_landed is a procedure violation, its stakes come back."""
    v = BouleScript(ruleset).launch([("A", "odd", "10")], number=None)
    assert kinds(v) == [VK.PROCEDURE] and settled(v) == {"A": ("void", D("10"))}
    assert v.outcome == "no result"


@ALL
def test_two_results_in_one_round_are_a_procedure_violation(ruleset):
    """One ball, one hole (000 L375; 002 L61; 004 L1019-L1021): a second ball_landed is reported; the last one
    settles the round."""
    v = BouleScript(ruleset).launch([("A", "straight:4", "10")], number=3, numbers=[4])
    assert kinds(v) == [VK.PROCEDURE] and settled(v) == {"A": ("win", D("80.00"))}


@ALL
def test_a_void_round_returns_every_stake(ruleset):
    """The texts have no void round (000 L371-L377; 002 L55-L63; 004 L1002-L1027, see the ambiguities): a
    round_voided round returns every stake, whatever the bet."""
    v = BouleScript(ruleset).launch([("A", "straight:5", "10"), ("B", "passe", "30")], voided="ball jumped out")
    assert kinds(v) == []
    assert settled(v) == {"A": ("void", D("10")), "B": ("void", D("30"))}
    assert all(c.expected.citation.startswith(SEED_OF[ruleset]) for c in v.checks)


@ALL
def test_an_event_of_another_game_is_a_procedure_violation(ruleset):
    """Boule has no cards: a card_dealt in a boule round is reported and changes nothing."""
    s = BouleScript(ruleset)
    rid = "R0001"
    ap = s.engine.apply
    ap(s._event("round_started", rid, last_of_session=False))
    ap(s._event("bet_placed", rid, ("player", "P-1"), bet_id="A", player_id="P-1", spot="red", stake="10"))
    ap(s._event("bets_closed", rid))
    ap(s._event("card_dealt", rid, card="AS", hand="dealer"))
    ap(s._event("ball_landed", rid, number=4))
    v = next(x for x in ap(s._event("round_ended", rid)) if isinstance(x, RoundVerdict))
    assert kinds(v) == [VK.PROCEDURE] and settled(v) == {"A": ("win", D("20.00"))}


@ALL
def test_a_round_survives_the_engines_snapshot_mid_round(ruleset):
    """The stream processor stores the engine between events: a round stored after its bets and «No va más» and
    restored from JSON judges the same (P-1's 150 + 100 EUR on the 7 still 50 EUR above the maximum, 000 L369;
    the 7 paying 8 times the stake, 000 L361)."""
    import json

    from pitwatch.schemas.events import EVENT_ADAPTER

    s = BouleScript(ruleset)
    rid = "R0001"
    ap = s.engine.apply
    ap(s._event("round_started", rid, last_of_session=False))
    ap(s._event("bet_placed", rid, ("player", "P-1"), bet_id="A", player_id="P-1", spot="straight:7", stake="150"))
    ap(s._event("bet_placed", rid, ("player", "P-1"), bet_id="B", player_id="P-1", spot="straight:7", stake="100"))
    ap(s._event("bets_closed", rid))
    snap = json.loads(json.dumps(s.engine.snapshot()))
    s.engine = type(s.engine).from_snapshot(s.table_id, snap, EVENT_ADAPTER.validate_python)
    s.engine.apply(s._event("ball_landed", rid, number=7))
    v = next(x for x in s.engine.apply(s._event("round_ended", rid)) if isinstance(x, RoundVerdict))
    assert flags(v) == [(VK.BET_ABOVE_MAXIMUM, "B", D("50.00"))]
    assert settled(v) == {"A": ("win", D("1200.00")), "B": ("win", D("800.00"))}


# --------------------------------------------------------------------------- conservation (hypothesis)

SPOTS = [f"straight:{n}" for n in range(1, 10)] + list(CHANCES) + ["straight:0", "split:1-2"]


def oracle(spot: str, stake: Decimal, n: int | None) -> tuple[str, Decimal]:
    """What a bet returns, from the tables above (independent of the engine): a number 8 x the stake, a simple
    chance 2 x, off the paño refused, without a valid result void."""
    if spot in ("straight:0", "split:1-2"):
        return "refused", stake
    if n is None or not 1 <= n <= 9:
        return "void", stake
    if spot.startswith("straight:"):
        return ("win", stake * 8) if int(spot[9:]) == n else ("lose", D(0))
    return ("win", stake * 2) if spot in WINNING_CHANCES[n] else ("lose", D(0))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from([GAL, ESP, AND]),
       bets=st.lists(st.tuples(st.sampled_from(SPOTS), st.integers(1, 300).map(lambda u: D(u) * 5),
                               st.sampled_from(["P-1", "P-2", "P-3"]), st.sampled_from([None, 1, 2])),
                     min_size=1, max_size=15),
       n=st.one_of(st.integers(1, 9), st.sampled_from([None, 0, 12])),
       late=st.lists(st.sampled_from(SPOTS), max_size=2))
def test_settlement_conserves_chips(ruleset, bets, n, late):
    """Whatever the bets (inside and outside the limits, on and off the paño, late ones) and the result: every bet
    is settled exactly once, each as the oracle says, and the chips balance: what comes back plus the house's
    win equals the stakes plus the winnings paid, nothing lost or made up."""
    placed = [(f"B{i}", spot, stake, player, box) for i, (spot, stake, player, box) in enumerate(bets)]
    late_bets = [(f"L{i}", spot, "5") for i, spot in enumerate(late)]
    v = BouleScript(ruleset).launch(placed, number=n, late_bets=late_bets)
    ids = [c.expected.bet_id for c in v.checks]
    assert sorted(ids) == sorted([b[0] for b in placed] + [b[0] for b in late_bets])
    want = {bid: oracle(spot, stake, n) for bid, spot, stake, _, _ in placed}
    want.update({bid: ("refused", D(5)) for bid, _, _ in late_bets})
    assert settled(v) == want
    stakes = sum((c.expected.stake for c in v.checks), D(0))
    returned = sum((c.expected.returned for c in v.checks), D(0))
    paid = sum((max(c.expected.returned - c.expected.stake, D(0)) for c in v.checks), D(0))
    lost = sum((c.expected.stake for c in v.checks if c.expected.outcome == "lose"), D(0))
    house = sum((f.win for f in v.figures), D(0))   # the engine's accounting of the round
    assert returned + house == stakes          # every chip staked is either returned or the house's
    assert house == lost - paid                # the house keeps the lost stakes and pays the winnings


# --------------------------------------------------------------------------- exact house edges

ONE_NINTH = Fraction(1, 9)
"""By hand: each of the nine numbers has two of the eighteen holes (000 L341-L343; 002 L19; 004 L921-L926), so it
comes out 2/18 = 1/9 of the time. A number paid 7 to 1 returns 8 with probability 1/9: 8/9 back per euro, edge
1 - 8/9 = 1/9. A simple chance wins on four numbers (4/9) a la par and loses on the other four and on the 5
(5/9): 2 x 4/9 = 8/9 back, edge 1/9 (the 5 is the whole edge: 4/9 - 5/9 = -1/9)."""


@ALL
@pytest.mark.parametrize("spot", [f"straight:{n}" for n in range(1, 10)] + list(CHANCES))
def test_every_bet_has_a_house_edge_of_one_ninth(ruleset, spot):
    """The issue's example, checked against each text's payouts (seven times on a number, 000 L361, 002 L43,
    004 L969-L970; a la par on a simple chance, 000 L363, 002 L43, 004 L975-L976): 1/9 on every bet."""
    assert house_edge(load_ruleset(ruleset), spot) == ONE_NINTH


@ALL
def test_the_variances_worked_by_hand(ruleset):
    """Net result X per euro: a number +7 (1/9) or -1 (8/9): E[X²] = 49/9 + 8/9 = 57/9, minus (1/9)², = 513/81 -
    1/81 = 512/81; a simple chance +1 (4/9) or -1 (5/9): E[X²] = 1, minus 1/81, = 80/81."""
    r = load_ruleset(ruleset)
    assert bet_variance(r, "straight:5") == Fraction(512, 81)
    assert bet_variance(r, "straight:9") == Fraction(512, 81)
    for chance in CHANCES:
        assert bet_variance(r, chance) == Fraction(80, 81)


@ALL
def test_the_edge_table_and_the_theoretical_win(ruleset):
    """One line per bet kind (the 5 apart), each 1/9; 10 EUR on any bet has a theoretical win of 10/9 =
    1.1111 EUR (4 places, half to even)."""
    r = load_ruleset(ruleset)
    lines = edge_table(r)
    assert [(line.label, line.spot, line.edge, line.payout) for line in lines] == [
        ("straight", "straight:7", ONE_NINTH, "7:1"), ("straight (the 5)", "straight:5", ONE_NINTH, "7:1"),
        ("simple", "red", ONE_NINTH, "1:1")]
    assert all(set(line.citations) <= set(r.model.citations) for line in lines)
    assert theoretical_win(r, "straight:3", D("10.00")) == D("1.1111")
    assert theoretical_win(r, "manque", D("10.00")) == D("1.1111")


@ALL
@pytest.mark.parametrize("spot", ["straight:0", "straight:10", "split:1-2", "column:1", "zero"])
def test_a_spot_that_is_not_a_bet_of_boule_has_no_edge(ruleset, spot):
    with pytest.raises(RuleError, match="not a bet of boule"):
        house_edge(load_ruleset(ruleset), spot)


@ALL
def test_the_engine_counts_a_ninth_of_the_handle_as_theoretical_win(ruleset):
    """The verdict's figures: 9 EUR on the 7 and 18 EUR on red have theoretical wins of exactly 1 and 2 EUR, and
    variances 81 x 512/81 = 512 and 324 x 80/81 = 320 EUR²; a refused bet has none."""
    v = BouleScript(ruleset).launch([("A", "straight:7", "9"), ("B", "red", "18"), ("X", "split:1-2", "10")],
                                    number=1)
    figures = {c.expected.bet_id: f for c, f in zip(v.checks, v.figures)}
    assert (figures["A"].theoretical_win, figures["A"].theoretical_variance) == (D("1.0000"), D("512.0000"))
    assert (figures["B"].theoretical_win, figures["B"].theoretical_variance) == (D("2.0000"), D("320.0000"))
    assert figures["X"].handle == 0 and figures["X"].theoretical_win == 0
