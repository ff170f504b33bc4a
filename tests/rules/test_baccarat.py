"""Punto y banca rules: payouts, deductions, limits, the deal and the banca tableau, per ruleset.

Seeds: Galicia 000_e1555249d49967be.txt L427-522; Asturias 001_a05972482385336a.txt L67-188;
Andalucía 004_5c9c19b250457762.txt L1517-1755 and L1842-1888 (displaced «VII. Desarrollo del juego»).
"""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import pitwatch.rules.baccarat as pb  # registers the game before TableEngine loads the others
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.rules.base import RoundVerdict, ViolationKind, load_ruleset
from pitwatch.rules.engine import TableEngine
from pitwatch.schemas import events as E
from pitwatch.schemas.cards import ALL_CARDS

D = Decimal
GAL, AST, AND = "punto_banca.galicia", "punto_banca.asturias", "punto_banca.andalucia"
RULESETS = (GAL, AST, AND)
SEEDS = Path(__file__).resolve().parents[2] / "pitwatch" / "rules" / "seeds"  # verbatim, see README there


# --------------------------------------------------------------------------- event harness


class Table:
    """Feeds pydantic events for one punto y banca table into a TableEngine and collects output."""

    def __init__(self, ruleset: str = GAL, min_bet: str = "10", max_bet: str = "1000",
                 options: dict[str, str] | None = None):
        self.engine = TableEngine("PB-01")
        self.seq = 0
        self.now = datetime(2026, 11, 21, 21, 0, tzinfo=timezone.utc)
        self.rounds = 0
        self.table_violations: list = []
        self.apply(E.TableOpened, ruleset_id=ruleset, jurisdiction=ruleset.split(".")[1],
                   min_bet=D(min_bet), max_bet=D(max_bet), float_amount=D("50000"),
                   options=options or {})

    def apply(self, cls, round_id: str | None = None, actor=("dealer", "D-01"), **payload):
        self.seq += 1
        self.now += timedelta(seconds=1)
        ev = cls(event_id=uuid.UUID(int=self.seq), casino_id="GAL-01", table_id="PB-01",
                 game="punto_banca", seq=self.seq, round_id=round_id, occurred_at=self.now,
                 actor={"role": actor[0], "id": actor[1]}, **payload)
        out = self.engine.apply(ev)
        self.table_violations.extend(o for o in out if not isinstance(o, RoundVerdict))
        return out

    def play(self, bets=(), cards=(), recorded: dict | None = None, late_bets=()) -> RoundVerdict:
        """One coup: bets [(spot, stake)], cards [(hand, card)], settlements as the engine expects
        unless ``recorded`` maps a bet index to (returned, commission)."""
        self.rounds += 1
        rid = f"PB-01-{self.rounds:04d}"
        self.apply(E.RoundStarted, rid)
        for i, (spot, stake) in enumerate(bets):
            self.apply(E.BetPlaced, rid, actor=("player", f"P-{i}"), bet_id=f"{rid}-B{i}",
                       player_id=f"P-{i}", spot=spot, stake=D(stake))
        self.apply(E.BetsClosed, rid)
        for j, (spot, stake) in enumerate(late_bets):
            self.apply(E.BetPlaced, rid, actor=("player", "P-L"), bet_id=f"{rid}-L{j}",
                       player_id="P-L", spot=spot, stake=D(stake))
        for hand, card in cards:
            self.apply(E.CardDealt, rid, hand=hand, card=card)
        expected = {s.bet_id: s for s in self.engine.open.game_round.settle()}
        for i, bet_id in enumerate(expected):
            s = expected[bet_id]
            ret, com = (recorded or {}).get(i, (s.returned, s.commission))
            self.apply(E.SettlementRecorded, rid, bet_id=bet_id, outcome=s.outcome,
                       returned=D(ret), commission=D(com))
        (verdict,) = self.apply(E.RoundEnded, rid)
        return verdict


def kinds(verdict: RoundVerdict) -> list[str]:
    return [v.kind for v in verdict.violations]


def exp(verdict: RoundVerdict, i: int = 0):
    return verdict.checks[i].expected


def deal(*pairs: str) -> list[tuple[str, str]]:
    """deal("P:AS", "B:9H", ...) -> [("punto", "AS"), ("banca", "9H"), ...]."""
    m = {"P": "punto", "B": "banca"}
    return [(m.get(p.split(":")[0], p.split(":")[0]), p.split(":")[1]) for p in pairs]


# Sample coups (dealt legally): punto 9 natural vs banca 7; banca 8 natural; tie 7-7; banca wins with 6.
PUNTO_WINS = deal("P:4S", "B:3H", "P:5D", "B:4C")          # punto 9 natural, banca 7
BANCA_WINS_8 = deal("P:2S", "B:5H", "P:3D", "B:3C")        # banca natural 8, punto 5
TIE_7 = deal("P:3S", "B:4H", "P:4D", "B:3C")               # 7 - 7, both stand
BANCA_WINS_6 = deal("P:KS", "B:3H", "P:5D", "B:3C", "P:TD")  # punto 5 draws T (0) -> 5; banca 6 stands on 0
BANCA_WINS_7 = deal("P:KS", "B:3H", "P:5D", "B:4C", "P:TD")  # punto 5 draws T -> 5; banca 7 stands


# --------------------------------------------------------------------------- card values


@pytest.mark.parametrize("cards,total", [
    (["AS", "9H"], 0), (["KS", "QH"], 0), (["TS", "7H"], 7), (["AS", "AH", "AD"], 3),
    (["9S", "9H"], 8), (["5S", "5H", "9D"], 9), (["JS", "6H", "4D"], 0),
])
def test_card_values_000_L475_001_L73_004_L1714(cards, total):
    """10 and court cards 0, ace 1, tens dropped (000 L475; 001 L73-77; 004 L1714-1721)."""
    assert pb.hand_total(cards) == total


# --------------------------------------------------------------------------- payouts


@pytest.mark.parametrize("rs", RULESETS)
def test_punto_win_pays_even_money_000_L467_001_L170_004_L1702(rs):
    v = Table(rs).play([("punto", "10"), ("banca", "10"), ("tie", "10")], PUNTO_WINS)
    assert kinds(v) == []
    assert (exp(v, 0).outcome, exp(v, 0).returned, exp(v, 0).commission) == ("win", D("20"), D("0"))
    assert (exp(v, 1).outcome, exp(v, 1).returned) == ("lose", D("0"))
    assert (exp(v, 2).outcome, exp(v, 2).returned) == ("lose", D("0"))
    assert "punto_pays" not in exp(v, 0).citation  # citation is the text, not the key
    assert load_ruleset(rs).cite("punto_pays") == exp(v, 0).citation


@pytest.mark.parametrize("rs", (GAL, AST))
def test_banca_win_5pct_commission_000_L467_001_L170_172(rs):
    """Banca wins at par less 5% of the winnings, kept as commission (000 L467; 001 L170-172)."""
    t = Table(rs, min_bet="10", max_bet="1000")
    v = t.play([("banca", "10"), ("banca", "12.50"), ("banca", "19.90"), ("punto", "10")], BANCA_WINS_8)
    assert kinds(v) == []
    e = [exp(v, i) for i in range(4)]
    assert (e[0].returned, e[0].commission, e[0].net) == (D("20"), D("0.50"), D("19.50"))
    # 5% of 12.50 = 0.625 -> rounded down to 0.62 (ruleset rounding = down)
    assert (e[1].returned, e[1].commission) == (D("25.00"), D("0.62"))
    # 5% of 19.90 = 0.995 -> 0.99
    assert (e[2].returned, e[2].commission) == (D("39.80"), D("0.99"))
    assert e[0].citation == load_ruleset(rs).cite("banca_deduction")
    assert (e[3].outcome, e[3].returned) == ("lose", D("0"))


def test_banca_win_andalucia_no_commission_except_on_6_004_L1699_1704():
    """Andalucía: banca paid at par with no commission unless it wins with 6 (004 L1702-1704)."""
    v = Table(AND).play([("banca", "10")], BANCA_WINS_7)
    assert kinds(v) == []
    assert (exp(v).returned, exp(v).commission, exp(v).outcome) == (D("20"), D("0"), "win")
    assert exp(v).citation == load_ruleset(AND).cite("banca_pays")
    v = Table(AND).play([("banca", "10")], BANCA_WINS_8)
    assert (exp(v).returned, exp(v).commission) == (D("20"), D("0"))


def test_banca_win_with_6_andalucia_pays_half_004_L1699_1702():
    """Banca winning with 6: «deducción del 50 por 100 de las apuestas ganadoras» (004 L1699-1702):
    net 1.5 x stake; the 50% of 10.05 (5.025) rounds down to 5.02."""
    v = Table(AND).play([("banca", "10"), ("banca", "10.05"), ("punto", "10")], BANCA_WINS_6)
    assert kinds(v) == []
    assert (exp(v, 0).returned, exp(v, 0).commission, exp(v, 0).net) == (D("20"), D("5.00"), D("15.00"))
    assert (exp(v, 1).returned, exp(v, 1).commission, exp(v, 1).net) == (D("20.10"), D("5.02"), D("15.08"))
    assert exp(v, 0).citation == load_ruleset(AND).cite("banca_deduction")
    assert exp(v, 2).returned == D("0")


def test_banca_6_andalucia_reduced_payout_recording_is_accepted_004_L1699_1702():
    """A dealer recording the bank-6 win as 15 returned with no commission nets the same: no discrepancy."""
    v = Table(AND).play([("banca", "10")], BANCA_WINS_6, recorded={0: ("15", "0")})
    assert kinds(v) == []
    v = Table(AND).play([("banca", "10")], BANCA_WINS_6, recorded={0: ("20", "0")})
    assert kinds(v) == [ViolationKind.PAYOUT_DISCREPANCY]
    assert v.violations[0].amount == D("5.00")


@pytest.mark.parametrize("rs", (GAL, AST))
def test_banca_win_with_6_galicia_asturias_only_5pct_000_L467_001_L171(rs):
    v = Table(rs).play([("banca", "10")], BANCA_WINS_6)
    assert (exp(v).returned, exp(v).commission) == (D("20"), D("0.50"))


@pytest.mark.parametrize("rs", RULESETS)
def test_tie_pays_8_to_1_and_returns_punto_banca_000_L477_001_L78_004_L1722(rs):
    """Tie bets win 8 to 1 (000 L477; 001 L78-80; 004 L1722-1724); punto/banca bets are returned
    (000 L477, 001 L78-79; Andalucía silent, same choice)."""
    v = Table(rs).play([("tie", "10"), ("punto", "25"), ("banca", "40")], TIE_7)
    assert kinds(v) == []
    assert (exp(v, 0).outcome, exp(v, 0).returned) == ("win", D("90"))
    assert exp(v, 0).citation == load_ruleset(rs).cite("tie_pays")
    assert (exp(v, 1).outcome, exp(v, 1).returned, exp(v, 1).commission) == ("push", D("25"), D("0"))
    assert (exp(v, 2).outcome, exp(v, 2).returned, exp(v, 2).commission) == ("push", D("40"), D("0"))
    assert exp(v, 1).citation == load_ruleset(rs).cite("tie_push")


@pytest.mark.parametrize("rs", RULESETS)
def test_underpaid_banca_commission_is_a_discrepancy(rs):
    """Taking 5% where none is owed (Andalucía) or 10% where 5% is (Galicia/Asturias) is flagged."""
    v = Table(rs).play([("banca", "100")], BANCA_WINS_8, recorded={0: ("200", "10")})
    assert kinds(v) == [ViolationKind.PAYOUT_DISCREPANCY]
    assert v.violations[0].amount == (D("-5") if rs != AND else D("-10"))


@pytest.mark.parametrize("rs", RULESETS)
def test_void_round_returns_stakes(rs):
    t = Table(rs)
    t.rounds += 1
    rid = "PB-01-V"
    t.apply(E.RoundStarted, rid)
    t.apply(E.BetPlaced, rid, actor=("player", "P-1"), bet_id="V1", player_id="P-1", spot="banca", stake=D("50"))
    t.apply(E.RoundVoided, rid, reason="cards stuck together")
    t.apply(E.SettlementRecorded, rid, bet_id="V1", outcome="void", returned=D("50"))
    (v,) = t.apply(E.RoundEnded, rid)
    assert kinds(v) == [] and exp(v).returned == D("50")
    assert exp(v).citation == load_ruleset(rs).cite("void_round")


# --------------------------------------------------------------------------- bets and limits


@pytest.mark.parametrize("rs", RULESETS)
@pytest.mark.parametrize("spot", ["main", "red", "even", "straight:8", "column:1"])
def test_unknown_spot_is_invalid_and_void(rs, spot):
    """Only punto, banca and tie exist (000 L431-443; 001 L184-185; 004 L1520-1525, L1582-1584).
    (Spots are well-formed codes of other games: codes outside the grammar, such as "PUNTO" or
    "empate", are schema errors and never reach the engine.)"""
    v = Table(rs).play([(spot, "10")], PUNTO_WINS)
    assert kinds(v) == [ViolationKind.INVALID_BET]
    assert v.violations[0].citation == load_ruleset(rs).cite("bets")
    assert (exp(v).outcome, exp(v).returned) == ("refused", D("10"))  # no wager: chips back


@pytest.mark.parametrize("rs", RULESETS)
def test_punto_banca_limits_are_table_limits_000_L469_001_L174_004_L1704(rs):
    v = Table(rs, "10", "1000").play([("punto", "1000"), ("banca", "10")], PUNTO_WINS)
    assert kinds(v) == []
    v = Table(rs, "10", "1000").play([("punto", "1000.01"), ("banca", "9.99")], PUNTO_WINS)
    assert kinds(v) == [ViolationKind.BET_ABOVE_MAXIMUM, ViolationKind.BET_BELOW_MINIMUM]
    assert v.violations[0].citation == load_ruleset(rs).cite("limits")
    assert v.violations[0].amount == D("0.01")


@pytest.mark.parametrize("rs", RULESETS)
def test_a_winning_bet_above_its_maximum_is_paid_whole_and_flagged(rs):
    """The table maximum (000 L469; 001 L174; 004 L1704) says nothing of a bet the dealer accepted
    above it; each ruleset's ambiguity «Winning bet above the maximum for its kind» records the
    choice: settled whole at the regulated ratio, flagged bet_above_maximum with the excess.
    At a 10-1000 table, 1,500.00 on punto wins at par: 3,000.00 back, 500.00 over the maximum."""
    assert "Winning bet above the maximum for its kind" in [a["point"] for a in load_ruleset(rs).data["ambiguities"]]
    v = Table(rs, "10", "1000").play([("punto", "1500")], PUNTO_WINS)
    assert kinds(v) == [ViolationKind.BET_ABOVE_MAXIMUM] and v.violations[0].amount == D("500.00")
    assert (exp(v).outcome, exp(v).returned, exp(v).commission) == ("win", D("3000.00"), D("0"))


@pytest.mark.parametrize("rs", (GAL, AST))
def test_a_winning_banca_bet_above_the_maximum_pays_its_whole_commission_000_L467_001_L170(rs):
    """The same choice for banca (Galicia 000 L467, Asturias 001 L170-172: par less 5% of the
    winnings): 1,200.00 on banca at a 10-1000 table wins with 8: 2,400.00 back, commission 5% of
    1,200.00 = 60.00, net 2,340.00; flagged 200.00 over the maximum."""
    v = Table(rs, "10", "1000").play([("banca", "1200")], BANCA_WINS_8)
    assert kinds(v) == [ViolationKind.BET_ABOVE_MAXIMUM] and v.violations[0].amount == D("200.00")
    assert (exp(v).returned, exp(v).commission, exp(v).net) == (D("2400.00"), D("60.00"), D("2340.00"))


@pytest.mark.parametrize("rs", RULESETS)
def test_tie_capped_at_10pct_of_table_max_000_L477_001_L80_004_L1724(rs):
    v = Table(rs, "10", "1000").play([("tie", "100")], TIE_7)
    assert kinds(v) == []
    v = Table(rs, "10", "1000").play([("tie", "100.01"), ("tie", "9")], TIE_7)
    assert kinds(v) == [ViolationKind.BET_ABOVE_MAXIMUM, ViolationKind.BET_BELOW_MINIMUM]
    assert v.violations[0].citation == load_ruleset(rs).cite("tie_limit")
    # a banca bet of the same size is fine
    assert kinds(Table(rs, "10", "1000").play([("banca", "100.01")], TIE_7)) == []


def test_tie_cap_equals_minimum_at_a_10x_andalucia_table_004_L1707_L1724():
    t = Table(AND, "10", "100")
    assert t.table_violations == []
    assert kinds(t.play([("tie", "10")], TIE_7)) == []
    assert kinds(t.play([("tie", "10.50")], TIE_7)) == [ViolationKind.BET_ABOVE_MAXIMUM]


@pytest.mark.parametrize("rs,unit,ok_table", [(GAL, "10", True), (AST, "10", True), (AND, "10", True),
                                              (AND, "5", True), (AND, "2.50", True), (GAL, "5", False),
                                              (AND, "3", False)])
def test_stake_unit_option_000_L469_001_L177_004_L1709(rs, unit, ok_table):
    """Bets in multiples of the minimum (all) or of a whole fraction of it (Andalucía only)."""
    t = Table(rs, "10", "1000", {"stake_unit": unit})
    assert (t.table_violations == []) == ok_table
    v = t.play([("banca", "30"), ("punto", "31")], PUNTO_WINS)
    assert kinds(v) == [ViolationKind.INVALID_BET]
    assert v.violations[0].bet_id.endswith("B1")
    assert v.violations[0].citation == load_ruleset(rs).cite("stake_unit")


@pytest.mark.parametrize("rs,lo,hi,ok", [
    (GAL, "10", "200", True), (GAL, "10", "350", True), (GAL, "10", "1000", True),
    (GAL, "10", "190", False), (GAL, "10", "1010", False),
    (AST, "10", "200", True), (AST, "10", "500", True), (AST, "10", "1000", True),
    (AST, "10", "350", False), (AST, "10", "2000", False),
    (AND, "10", "100", True), (AND, "10", "2000", True), (AND, "10", "90", False), (AND, "10", "2010", False),
])
def test_table_max_ratio_000_L469_001_L177_004_L1707(rs, lo, hi, ok):
    """Galicia 20-100 x min (widest reading), Asturias exactly 20, 50 or 100 x, Andalucía 10-200 x."""
    t = Table(rs, lo, hi)
    assert (t.table_violations == []) == ok
    if not ok:
        assert t.table_violations[0].kind == ViolationKind.PROCEDURE
        assert t.table_violations[0].citation == load_ruleset(rs).cite("table_max")
    t.apply(E.LimitsChanged, min_bet=D("10"), max_bet=D("5000"))
    assert t.table_violations[-1].kind == ViolationKind.PROCEDURE  # 500 x is never allowed


@pytest.mark.parametrize("rs", RULESETS)
def test_past_posting(rs):
    v = Table(rs).play([("banca", "10")], PUNTO_WINS, late_bets=[("punto", "10")])
    assert kinds(v) == [ViolationKind.PAST_POSTING]
    assert v.violations[0].citation == load_ruleset(rs).cite("no_more_bets")


# --------------------------------------------------------------------------- shoe procedure


@pytest.mark.parametrize("rs,decks_ok", [(GAL, True), (AST, False), (AND, True)])
def test_shoe_decks_cut_and_burn_000_L435_L506_L508(rs, decks_ok):
    """Six decks (000 L435; 004 L1529; Asturias silent), cut card with 7 below (000 L506; 001 L121;
    004 L1847), burn = first card + its value (2..11 cards) (000 L508; 001 L126; 004 L1852)."""
    t = Table(rs)
    t.apply(E.ShoeLoaded, shoe_id="S1", decks=6)
    t.apply(E.ShoeCut, shoe_id="S1", cards_behind=7)
    t.apply(E.CardsBurned, count=2)
    t.apply(E.CardsBurned, count=11)
    assert t.table_violations == []
    t.apply(E.ShoeLoaded, shoe_id="S2", decks=8)
    assert len(t.table_violations) == (1 if decks_ok else 0)
    n = len(t.table_violations)
    t.apply(E.ShoeCut, shoe_id="S2", cards_behind=6)
    t.apply(E.CardsBurned, count=1)
    t.apply(E.CardsBurned, count=12)
    assert [v.citation for v in t.table_violations[n:]] == [
        load_ruleset(rs).cite("cut_card"), load_ruleset(rs).cite("burn"), load_ruleset(rs).cite("burn")]


# --------------------------------------------------------------------------- the deal


@pytest.mark.parametrize("rs", RULESETS)
@pytest.mark.parametrize("cards,rule", [
    (deal("B:4S", "P:3H", "P:5D", "B:4C"), "deal_order"),             # banca served first
    (deal("P:4S", "P:3H", "B:5D", "B:4C"), "deal_order"),             # 1st and 2nd to punto
    (deal("P:4S", "B:3H", "P:5D"), "deal_order"),                     # banca never got its 2nd card
    (deal("P:4S", "B:3H", "P:5D", "dealer:4C"), "deal_order"),        # card to a non-existent hand
    (deal("P:4S", "B:3H", "P:5D", "B:4C", "B:2C"), "natural"),        # draw after punto's natural 9
    (deal("P:AS", "B:4H", "P:AD", "B:4C", "P:2C"), "natural"),        # punto draws against banca 8
    (deal("P:2S", "B:4H", "P:3D", "B:KC"), "punto_rule"),             # punto 5 did not draw
    (deal("P:2S", "B:4H", "P:4D", "B:KC", "P:2C"), "punto_rule"),     # punto 6 drew
    (deal("P:2S", "B:4H", "P:3D", "B:KC", "P:9C"), "banca_tableau"),  # banca 4 stands on a 9: legal
    (deal("P:2S", "B:4H", "P:3D", "B:KC", "P:9C", "B:2D"), "banca_tableau"),  # banca 4 drew on a 9
    (deal("P:2S", "B:4H", "P:3D", "B:KC", "P:2C"), "banca_tableau"),  # banca 4 did not draw on a 2
    (deal("P:3S", "B:4H", "P:3D", "B:2C"), "banca_tableau"),          # punto stood on 6, banca 6 stands: legal
    (deal("P:3S", "B:4H", "P:3D", "B:2C", "B:2D"), "banca_tableau"),  # ... and banca 6 drew
    (deal("P:3S", "B:3H", "P:4D", "B:2C"), "banca_tableau"),          # punto stood on 7, banca 5 must draw
])
def test_dealer_misdraw_000_L457_L479_L489_001_L82_L92_004_L1728_L1740(rs, cards, rule):
    v = Table(rs).play([("banca", "10")], cards)
    legal = cards in (deal("P:2S", "B:4H", "P:3D", "B:KC", "P:9C"), deal("P:3S", "B:4H", "P:3D", "B:2C"))
    if legal:
        assert kinds(v) == []
        return
    assert kinds(v) == [ViolationKind.DEALER_MISDRAW]
    assert v.violations[0].citation == load_ruleset(rs).cite(rule)


@pytest.mark.parametrize("rs", RULESETS)
def test_incomplete_deal_settles_void(rs):
    v = Table(rs).play([("banca", "10"), ("tie", "10")], deal("P:4S", "B:3H", "P:5D"))
    assert kinds(v) == [ViolationKind.DEALER_MISDRAW]
    assert [(c.expected.outcome, c.expected.returned) for c in v.checks] == [("void", D("10")), ("void", D("10"))]


# --------------------------------------------------------------------------- the printed tableau


# The banca tables as printed in the seeds, copied by hand (rows = banca total 0-7; cells for
# punto's third card 0..9 then «P» = punto stood). Andalucía's seed lacks the header and row 0.
PRINTED = {
    GAL: ["TTTTTTTTTTT", "TTTTTTTTTTT", "TTTTTTTTTTT", "TTTTTTTTPTT", "PPTTTTTTPPT", "PPPPTTTTPPT",
          "PPPPPPTTPPP", "PPPPPPPPPPP"],
}
PRINTED[AST] = PRINTED[GAL]
PRINTED[AND] = PRINTED[GAL]

SEED_ROWS = {  # (file, 1-based line numbers of the printed rows, rows that are printed)
    GAL: ("000_e1555249d49967be.txt", [493, 494, 495, 496, 497, 498, 499, 500], range(0, 8)),
    AST: ("001_a05972482385336a.txt", [97, 100, 102, 104, 107, 109, 111, 113], range(0, 8)),
    AND: ("004_5c9c19b250457762.txt", [1745, 1746, 1747, 1748, 1749, 1750, 1751], range(1, 8)),
}


def printed_from_seed(rs: str) -> dict[int, str]:
    fname, lines, rows = SEED_ROWS[rs]
    text = (SEEDS / fname).read_text(encoding="utf-8").splitlines()
    out = {}
    for total, ln in zip(rows, lines):
        cells = re.findall(r"(?<![^\s|>])[TPtp](?!\S)", text[ln - 1])
        assert len(cells) >= 11, (rs, ln, text[ln - 1])
        out[total] = "".join(cells[:11]).upper()  # Galicia prints 2 trailing artefact cells
    return out


@pytest.mark.parametrize("rs", RULESETS)
def test_hand_copy_of_tableau_matches_the_seed_text(rs):
    seed = printed_from_seed(rs)
    for total, row in seed.items():
        assert row == PRINTED[rs][total], (rs, total)
    if rs == AND:
        assert 0 not in seed  # the row for banca 0 is lost in the Andalucía seed (ambiguity 2)


def _col(third: int | None) -> int:
    return 10 if third is None else third


@pytest.mark.parametrize("rs", RULESETS)
def test_engine_tableau_equals_printed_every_cell_000_L489_001_L92_004_L1740(rs):
    """banca_draws(total, punto third card / stood) == the printed T/P for all 8 x 11 cells."""
    rules = pb.rules_of(load_ruleset(rs))
    for total in range(8):
        for third in [*range(10), None]:
            assert rules.banca_draws(total, third) == (PRINTED[rs][total][_col(third)] == "T"), (total, third)
    with pytest.raises(pb.RuleError):
        rules.banca_draws(8, None)


def _card_of(value: int, suit: str) -> str:
    return {0: "K", 1: "A"}.get(value, str(value)) + suit


@pytest.mark.parametrize("rs", RULESETS)
def test_engine_round_third_card_decisions_equal_printed_tableau(rs):
    """End to end through events: for every (banca total, punto third card / no third card), the
    coup dealt per the printed cell is clean and the coup dealt against it is a dealer_misdraw."""
    for total in range(8):
        banca = ["KH", _card_of(total, "H")] if total else ["KH", "QH"]
        for third in [*range(10), None]:
            punto = ["AS", "2S"] if third is not None else ["TS", "6S"]  # 3 draws / 6 stands
            cards = deal(f"P:{punto[0]}", f"B:{banca[0]}", f"P:{punto[1]}", f"B:{banca[1]}")
            if third is not None:
                cards.append(("punto", _card_of(third, "D")))
            draws = PRINTED[rs][total][_col(third)] == "T"
            right = cards + ([("banca", "5C")] if draws else [])
            wrong = cards + ([] if draws else [("banca", "5C")])
            t = Table(rs)
            assert kinds(t.play([("banca", "10")], right)) == [], (total, third)
            v = t.play([("banca", "10")], wrong)
            assert kinds(v) == [ViolationKind.DEALER_MISDRAW], (total, third)
            assert v.violations[0].citation == load_ruleset(rs).cite("banca_tableau")


# --------------------------------------------------------------------------- properties


def reference_deal(rs: str, shoe: list[str]) -> list[tuple[str, str]]:
    """Independent statement of the deal: P B P B; naturals 8/9 end it; punto draws on 0-5;
    banca per the printed tableau (000 L457-L510; 001 L82-L135; 004 L1728-L1864)."""
    v = lambda c: {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0}.get(c[0]) if c[0] in "ATJQK" else int(c[0])  # noqa: E731
    p, b = [shoe[0], shoe[2]], [shoe[1], shoe[3]]
    out = [("punto", shoe[0]), ("banca", shoe[1]), ("punto", shoe[2]), ("banca", shoe[3])]
    pt, bt = (v(p[0]) + v(p[1])) % 10, (v(b[0]) + v(b[1])) % 10
    if pt >= 8 or bt >= 8:
        return out
    rest = iter(shoe[4:])
    third = None
    if pt <= 5:
        c = next(rest)
        out.append(("punto", c))
        third = v(c)
    if PRINTED[rs][bt][_col(third)] == "T":
        out.append(("banca", next(rest)))
    return out


shoes = st.lists(st.sampled_from(ALL_CARDS), min_size=6, max_size=6)


@pytest.mark.parametrize("rs", RULESETS)
@settings(max_examples=150, deadline=None)
@given(shoe=shoes)
def test_property_engine_deal_equals_reference(rs, shoe):
    rules = pb.rules_of(load_ruleset(rs))
    assert pb.legal_deal(rules, shoe) == reference_deal(rs, shoe)


@pytest.mark.parametrize("rs", RULESETS)
@settings(max_examples=60, deadline=None)
@given(shoe=shoes, stakes=st.lists(st.integers(min_value=1000, max_value=100000), min_size=3, max_size=3),
       mutate=st.sampled_from(["none", "drop_last", "extra"]))
def test_property_settlements_and_misdraws(rs, shoe, stakes, mutate):
    """Clean coups are clean; a dropped or extra card is a misdraw; a tie returns punto/banca
    stakes; the commission never exceeds 5% of the winnings (Galicia/Asturias) or 50% and only on
    a banca 6 (Andalucía); winners never net less than their stake."""
    cards = reference_deal(rs, shoe)
    if mutate == "drop_last":
        cards = cards[:-1]
    elif mutate == "extra":
        cards = cards + [("banca" if len(cards) % 2 else "punto", "9S")]
    amounts = [D(s) / 100 for s in stakes]
    t = Table(rs, "10", "1000")
    v = t.play([("punto", amounts[0]), ("banca", amounts[1]), ("tie", min(amounts[2], D("100")))], cards)
    if mutate == "none":
        assert kinds(v) == []
    else:
        assert kinds(v) == [ViolationKind.DEALER_MISDRAW]
    punto, banca = [c for h, c in cards if h == "punto"], [c for h, c in cards if h == "banca"]
    if len(punto) < 2 or len(banca) < 2:
        return
    pt, bt = pb.hand_total(punto), pb.hand_total(banca)
    for c in v.checks:
        e = c.expected
        assert e.commission >= 0 and e.returned >= 0
        if pt == bt and e.spot in ("punto", "banca"):
            assert (e.outcome, e.returned, e.commission) == ("push", e.stake, D("0"))
        if e.outcome == "win":
            winnings = e.returned - e.stake
            assert e.net >= e.stake
            if rs in (GAL, AST):
                assert e.commission <= winnings * D("0.05")
            else:
                assert e.commission <= winnings * D("0.5")
                assert e.commission == 0 or (e.spot == "banca" and bt == 6)
        if e.spot == "banca" and e.outcome == "win" and rs in (GAL, AST):
            assert e.commission == (e.stake * D("0.05")).quantize(D("0.01"), rounding="ROUND_DOWN")
