"""Ruleta francesa abreviada (Andalucía, 004_5c9c19b250457762.txt L441-L454, I.1.1.B).

I.1.1.B plays «con los mismos elementos de juego, personal y normas de funcionamiento que la ruleta
francesa ordinaria» (004 L443-L446, I.1.1.A: L109-L439) on a layout that «carecerá de lugares para
colocar las apuestas sencillas, docenas y columnas» (004 L447-L450), where only the sixline, the street,
the corner or «cuatro primeros», the split and the straight-up may be played (004 L452-L454). Every
figure below is worked by hand from the payouts of I.1.1.A (004 L221-L264) and its maxima (004
L346-L352); each test names the lines of its rule.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pitwatch.rules.base import RuleError, load_ruleset, parse_ruleset
from pitwatch.rules.base import ViolationKind as VK
from pitwatch.rules.edges import bet_variance, edge_table, house_edge, theoretical_win
from pitwatch.rules.french_roulette_abreviada.game import LAYOUT, AbreviadaRound, parse_spot
from pitwatch.rules.french_roulette_abreviada.model import AbreviadaRuleset
from pitwatch.rules.registry import spec
from pitwatch.schemas.events import EVENT_CLASS_BY_TYPE

from tests.rules.test_roulette import RouletteScript, clean_kinds, kinds, settled

D = Decimal
RID = "french_roulette_abreviada.andalucia"
GAME = "french_roulette_abreviada"
LAYOUT_CITE = "004_5c9c19b250457762.txt L447-L454"


class AbreviadaScript(RouletteScript):
    """French roulette's test script (:class:`tests.rules.test_roulette.RouletteScript`) at a table of
    ruleta francesa abreviada: its events carry ``game = "french_roulette_abreviada"``."""

    def __init__(self, min_bet: str = "5.00", max_bet: str = "900.00", options: dict[str, str] | None = None):
        super().__init__(RID, min_bet, max_bet, options, table_id="RA-T1")

    def _event(self, type: str, round_id: str | None, actor=("dealer", "D-1"), **payload):
        ev = super()._event(type, round_id, actor, **payload)
        return EVENT_CLASS_BY_TYPE[type].model_validate({**ev.model_dump(mode="json"), "game": GAME})


def cited(v, kind) -> list[str]:
    return [x.citation for x in v.violations if x.kind == kind]


# --------------------------------------------------------------------------- the ruleset and the platform


def test_the_game_is_in_the_catalogue_with_its_own_round_model_and_ruleset():
    sp = spec(GAME)
    assert sp.round is AbreviadaRound and sp.model is AbreviadaRuleset
    rs = load_ruleset(RID)
    assert rs.game == GAME and isinstance(rs.model, AbreviadaRuleset)
    m = rs.model_as(AbreviadaRuleset)
    # I.1.1.A's payouts of the five kinds (004 L221-L264): 35, 17, 11, 8, 5
    assert [m.payouts.ratio(k) for k in ("straight", "split", "street", "corner", "sixline")] == [35, 17, 11, 8, 5]
    # I.1.1.A's maxima of the multiple bets (004 L346-L352)
    assert m.limits.max_multiples.of("straight") == (10, 20, 30)
    assert m.limits.max_multiples.of("sixline") == (60, 120, 180)


@pytest.mark.parametrize("kind", ["column", "dozen", "columns", "dozens", "simple"])
def test_the_ruleset_has_no_payout_or_maximum_for_a_bet_the_layout_lacks_004_L447_L450(kind):
    m = load_ruleset(RID).model_as(AbreviadaRuleset)
    with pytest.raises(KeyError):
        m.payouts.ratio(kind)
    with pytest.raises(KeyError):
        m.limits.max_multiples.of(kind)


@pytest.mark.parametrize("anchor,line,key", [
    ("sixline = 5        # L261-L264 «cinco veces»", "column = 2", "payouts.column"),
    ("sixline = [60, 120, 180]", "simple = [180, 360, 540]", "limits.max_multiples.simple"),
    ('max_rule = "tiers"', 'zero_default = "en_prison"', "options.zero_default"),
    ('max_rule = "tiers"', 'simple_chance_min_multiple = "1"', "options.simple_chance_min_multiple"),
    ("change_during_session = true           # L362-L367: allowed, announcing the last three spins",
     "simple_chance_min_multiple_max = 5", "limits.simple_chance_min_multiple_max"),
])
def test_a_ruleset_giving_a_rule_of_the_absent_bets_is_refused_004_L447_L450(anchor, line, key):
    text = load_ruleset(RID).source
    assert anchor in text
    with pytest.raises(RuleError) as exc:
        parse_ruleset(text.replace(anchor, f"{anchor}\n{line}", 1), f"{RID}.toml")
    assert f"{key}: not on the abbreviated layout" in str(exc.value)


def test_a_ruleset_with_the_zero_rule_is_refused_004_L304_L324():
    text = load_ruleset(RID).source + "\n[zero]\nrefund_fraction = 0.5\nfloor_basis = \"held\"\nfloor_from_zero = 2\n"
    with pytest.raises(RuleError, match="zero: not on the abbreviated layout"):
        parse_ruleset(text, f"{RID}.toml")


def test_the_layout_has_the_five_kinds_of_french_roulette_004_L452_L454():
    """37 straight-ups (0-36), 60 splits (24 in the rows, 33 in the columns, 0-1, 0-2, 0-3), 14 streets
    (12 rows, 0-1-2, 0-2-3), 23 corners (22 squares, 0-1-2-3), 11 sixlines: 145 spots."""
    count: dict[str, int] = {}
    for s in LAYOUT.values():
        count[s.kind] = count.get(s.kind, 0) + 1
    assert count == {"straight": 37, "split": 60, "street": 14, "corner": 23, "sixline": 11}
    assert parse_spot("corner:0-1-2-3").numbers == {0, 1, 2, 3}
    with pytest.raises(RuleError, match="abbreviated layout has no place"):
        parse_spot("red")
    with pytest.raises(RuleError, match="not a split of the layout"):
        parse_spot("split:1-5")


# --------------------------------------------------------------------------- payouts (I.1.1.A)


PAYOUT_CASES = [
    # (spot, number, stake, returned: stake kept + ratio x stake, source)
    ("straight:17", 17, "10", "360.00", "004 L221-L224 pleno 35 veces: 10 + 350"),
    ("straight:0", 0, "10", "360.00", "004 L221-L222 «uno cualquiera de los treinta y siete números»"),
    ("split:17-20", 20, "10", "180.00", "004 L226-L229 caballo 17 veces: 10 + 170"),
    ("split:16-17", 16, "10", "180.00", "004 L226-L229 caballo (row neighbours)"),
    ("street:13-14-15", 14, "10", "120.00", "004 L231-L240 fila transversal 11 veces: 10 + 110"),
    ("street:0-1-2", 2, "10", "120.00", "004 L235-L240 variante 0-1-2, once veces"),
    ("street:0-2-3", 3, "10", "120.00", "004 L235-L240 variante 0-2-3, once veces"),
    ("corner:17-18-20-21", 21, "10", "90.00", "004 L242-L249 cuadro 8 veces: 10 + 80"),
    ("corner:0-1-2-3", 1, "10", "90.00", "004 L245-L249, L453-L454 cuatro primeros 0-1-2-3, 8 veces"),
    ("sixline:13-14-15-16-17-18", 13, "10", "60.00", "004 L261-L264 seisena 5 veces: 10 + 50"),
    ("sixline:31-32-33-34-35-36", 36, "7.35", "44.10", "004 L261-L264 seisena: 7.35 + 36.75"),
]


@pytest.mark.parametrize("spot,number,stake,returned,source", PAYOUT_CASES)
def test_every_bet_kind_of_the_layout_pays_as_in_the_ordinary_roulette(spot, number, stake, returned, source):
    """The winner keeps the stake and is paid the ratio of I.1.1.A (004 L217-L219): 004 L443-L446."""
    v = AbreviadaScript(options={"max_tier": "3"}).spin([("B1", spot, stake)], number=number)
    assert settled(v)["B1"] == ("win", D(returned)), source
    assert v.checks[0].expected.citation.startswith("004_5c9c19b250457762.txt L2"), source
    assert kinds(v) == [] and v.game == GAME


@pytest.mark.parametrize("spot,number", [
    ("straight:17", 18), ("split:17-20", 19), ("street:0-1-2", 3), ("corner:0-1-2-3", 4),
    ("sixline:31-32-33-34-35-36", 30), ("corner:1-2-4-5", 3),
])
def test_a_bet_whose_numbers_do_not_come_up_is_lost_004_L217_L264(spot, number):
    v = AbreviadaScript().spin([("B1", spot, "10")], number=number)
    assert settled(v)["B1"] == ("lose", D("0.00"))
    assert kinds(v) == []


# --------------------------------------------------------------------------- the zero


ZERO_CASES = [
    # every bet that covers the zero wins its ratio; every other loses whole (no en prison, no half back)
    ("straight:0", "360.00", "win"),     # 004 L221-L224: 5 x ... 10 + 35 x 10
    ("split:0-1", "180.00", "win"),      # 004 L226-L229: 10 + 17 x 10
    ("split:0-3", "180.00", "win"),
    ("street:0-1-2", "120.00", "win"),   # 004 L235-L240: 10 + 11 x 10
    ("street:0-2-3", "120.00", "win"),
    ("corner:0-1-2-3", "90.00", "win"),  # 004 L245-L249, L453-L454: 10 + 8 x 10
    ("straight:17", "0.00", "lose"),
    ("split:1-2", "0.00", "lose"),
    ("street:1-2-3", "0.00", "lose"),
    ("corner:1-2-4-5", "0.00", "lose"),
    ("sixline:1-2-3-4-5-6", "0.00", "lose"),
]


def test_the_zero_wins_the_bets_on_it_and_loses_every_other_without_prison_004_L304_L324_L447_L450():
    """The zero rule of I.1.1.A (004 L304-L324) is one of the simple chances, which this layout lacks: a zero
    settles every bet at once, nothing is kept «en prison» and nothing carries to the next spin."""
    s = AbreviadaScript(options={"max_tier": "3"})
    v = s.spin([(f"B{i}", spot, "10") for i, (spot, _, _) in enumerate(ZERO_CASES)], number=0)
    got = settled(v)
    for i, (spot, returned, outcome) in enumerate(ZERO_CASES):
        assert got[f"B{i}"] == (outcome, D(returned)), spot
    assert all(c.expected.carried == 0 for c in v.checks) and kinds(v) == []
    assert v.outcome == "0 zero"
    after = s.spin([("N1", "straight:5", "10")], number=5)  # the next spin settles only its own bet
    assert settled(after) == {"N1": ("win", D("360.00"))}


@pytest.mark.parametrize("decision", ["en_prison", "half_back"])
def test_a_zero_decision_is_illegal_there_is_no_simple_chance_004_L447_L450(decision):
    v = AbreviadaScript().spin([("B1", "straight:17", "10")], number=0, decisions=[("B1", decision)])
    assert kinds(v) == [VK.ILLEGAL_DECISION]
    assert cited(v, VK.ILLEGAL_DECISION) == [load_ruleset(RID).cite("abbreviated_layout")]
    assert settled(v)["B1"] == ("lose", D("0.00"))


# --------------------------------------------------------------------------- refused bets


REFUSED = ["red", "black", "even", "odd", "manque", "passe", "column:1", "column:2", "column:3",
           "dozen:1", "dozen:2", "dozen:3", "columns:1-2", "columns:2-3", "dozens:1-2", "dozens:2-3"]


@pytest.mark.parametrize("spot", REFUSED)
def test_a_bet_on_a_place_the_layout_lacks_is_refused_004_L447_L454(spot):
    """Simple chances, dozens and columns (and two dozens, two columns, placed on them) have no place on
    the abbreviated layout (004 L447-L450) and are not among its bets (004 L452-L454): invalid_bet, once,
    citing those lines; not a wager: the stake is due back whatever the ball does."""
    v = AbreviadaScript().spin([("B1", spot, "10"), ("B2", "straight:19", "10")], number=19)
    assert kinds(v) == [VK.INVALID_BET]
    bad = [x for x in v.violations if x.kind == VK.INVALID_BET][0]
    assert bad.citation.startswith(LAYOUT_CITE) and bad.bet_id == "B1" and bad.amount == D("10")
    assert "abbreviated layout has no place" in bad.message
    assert settled(v) == {"B1": ("refused", D("10")), "B2": ("win", D("360.00"))}


@pytest.mark.parametrize("record,discrepancies", [
    (None, []),                                                   # the chips handed back, nothing recorded
    (("refused", "10.00"), []),                                   # the stake recorded as returned
    (("win", "20.00"), [VK.PAYOUT_DISCREPANCY]),                  # red paid 1:1 as at the ordinary roulette
    (("lose", "0.00"), [VK.PAYOUT_DISCREPANCY]),                  # the chips kept
])
def test_a_refused_bet_paid_or_kept_is_a_discrepancy_004_L447_L454(record, discrepancies):
    v = AbreviadaScript().spin([("B1", "red", "10")], number=19, records={"B1": record} if record else None)
    assert clean_kinds(v) == sorted([VK.INVALID_BET, *discrepancies])


def test_a_spot_off_every_roulette_layout_is_refused_with_the_layout_of_the_ordinary_roulette_004_L160():
    v = AbreviadaScript().spin([("B1", "split:1-5", "10")], number=1)
    assert kinds(v) == [VK.INVALID_BET]
    assert cited(v, VK.INVALID_BET) == [load_ruleset(RID).cite("layout")]


# --------------------------------------------------------------------------- limits (004 L328-L352)


@pytest.mark.parametrize("tier,spot,maximum", [
    # maximum = multiple x the table minimum 5.00 (004 L346-L352)
    ("1", "straight:17", "50.00"), ("2", "straight:17", "100.00"), ("3", "straight:17", "150.00"),
    ("1", "split:17-20", "100.00"), ("2", "split:0-2", "200.00"), ("3", "split:17-20", "300.00"),
    ("1", "street:13-14-15", "150.00"), ("2", "street:0-1-2", "300.00"), ("3", "street:13-14-15", "450.00"),
    ("1", "corner:17-18-20-21", "200.00"), ("2", "corner:0-1-2-3", "400.00"), ("3", "corner:1-2-4-5", "600.00"),
    ("1", "sixline:1-2-3-4-5-6", "300.00"), ("2", "sixline:1-2-3-4-5-6", "600.00"),
    ("3", "sixline:1-2-3-4-5-6", "900.00"),
])
def test_maximum_per_kind_and_tier_004_L346_L352(tier, spot, maximum):
    s = AbreviadaScript(options={"max_tier": tier})
    at = s.spin([("B1", spot, maximum)], number=36)
    assert kinds(at) == []
    over = s.spin([("B2", spot, str(D(maximum) + D("0.01")))], number=36)
    assert kinds(over) == [VK.BET_ABOVE_MAXIMUM]
    assert [x.amount for x in over.violations if x.kind == VK.BET_ABOVE_MAXIMUM] == [D("0.01")]
    assert cited(over, VK.BET_ABOVE_MAXIMUM) == [load_ruleset(RID).cite("limit_multiple")]


def test_minimum_is_the_table_minimum_004_L328_L332():
    v = AbreviadaScript().spin([("B1", "straight:17", "4.99"), ("B2", "sixline:1-2-3-4-5-6", "5.00")], number=17)
    assert kinds(v) == [VK.BET_BELOW_MINIMUM]
    assert [x.bet_id for x in v.violations if x.kind == VK.BET_BELOW_MINIMUM] == ["B1"]


def test_authorisation_maximum_004_L328_L336():
    s = AbreviadaScript(max_bet="900.00", options={"max_rule": "authorisation"})
    v = s.spin([("B1", "straight:17", "900.00"), ("B2", "split:17-20", "900.01")], number=17)
    assert kinds(v) == [VK.BET_ABOVE_MAXIMUM]
    assert cited(v, VK.BET_ABOVE_MAXIMUM) == [load_ruleset(RID).cite("limit_authorisation")]
    assert settled(v)["B1"] == ("win", D("32400.00"))  # 900 + 35 x 900


def test_a_winning_bet_above_its_maximum_is_paid_whole_and_flagged_004_L346_L352():
    v = AbreviadaScript().spin([("B1", "straight:17", "60")], number=17)  # tier 1: 50.00
    assert kinds(v) == [VK.BET_ABOVE_MAXIMUM] and settled(v)["B1"] == ("win", D("2160.00"))


@pytest.mark.parametrize("options,problem", [
    ({"max_tier": "4"}, "max_tier must be 1, 2 or 3"),
    ({"zero_default": "half_back"}, "has no simple chances"),
    ({"simple_chance_min_multiple": "2"}, "has no simple chances"),
])
def test_invalid_table_options_are_procedure_violations_004_L346_L352_L447_L450(options, problem):
    s = AbreviadaScript(options=options)
    assert [x.kind for x in s.table_violations] == [VK.PROCEDURE]
    assert problem in s.table_violations[0].message


def test_limits_may_change_during_the_session_004_L362_L367():
    s = AbreviadaScript()
    s.table("limits_changed", min_bet="10.00", max_bet="900.00")
    assert s.table_violations == []
    v = s.spin([("B1", "straight:17", "100.00"), ("B2", "straight:18", "9.00")], number=17)  # 10 x 10.00
    assert kinds(v) == [VK.BET_BELOW_MINIMUM]


# --------------------------------------------------------------------------- procedure


def test_bet_after_no_va_mas_is_past_posting_refused_004_L392_L400():
    v = AbreviadaScript().spin([("B1", "straight:17", "10")], number=17, late_bets=[("L1", "straight:17", "10")])
    assert kinds(v) == [VK.PAST_POSTING]
    assert cited(v, VK.PAST_POSTING) == [load_ruleset(RID).cite("no_more_bets")]
    assert settled(v) == {"B1": ("win", D("360.00")), "L1": ("refused", D("10"))}


def test_bet_after_the_ball_without_no_va_mas_is_past_posting_004_L392_L400():
    v = AbreviadaScript().spin([], number=17, close=False,
                               extra=[("bet_placed", {"bet_id": "L1", "player_id": "P-1", "spot": "straight:17",
                                                      "stake": "10"})])
    assert VK.PAST_POSTING in kinds(v)


def test_a_refused_spot_placed_late_is_flagged_once_as_past_posting_004_L392_L400():
    v = AbreviadaScript().spin([], number=17, late_bets=[("L1", "red", "10")])
    assert kinds(v) == [VK.PAST_POSTING] and settled(v) == {"L1": ("refused", D("10"))}


def test_void_spin_returns_every_stake_004_L429_L436():
    v = AbreviadaScript().spin([("B1", "straight:17", "10"), ("B2", "sixline:1-2-3-4-5-6", "30")], number=None,
                               voided="ball jumped out of the wheel")
    assert settled(v) == {"B1": ("void", D("10")), "B2": ("void", D("30"))}
    assert {c.expected.citation for c in v.checks} == {load_ruleset(RID).cite("void_round")}
    assert kinds(v) == []


def test_spin_direction_must_alternate_004_L386_L390():
    s = AbreviadaScript()
    s.spin([("B1", "straight:1", "10")], direction="clockwise")
    v = s.spin([("B2", "straight:1", "10")], direction="clockwise")
    assert kinds(v) == [VK.SPIN_DIRECTION]
    assert cited(v, VK.SPIN_DIRECTION) == [load_ruleset(RID).cite("spin_direction")]


def test_round_without_result_returns_stakes_and_is_a_procedure_violation_004_L416_L427():
    v = AbreviadaScript().spin([("B1", "straight:17", "10")], number=None)
    assert settled(v) == {"B1": ("void", D("10"))} and kinds(v) == [VK.PROCEDURE]


# --------------------------------------------------------------------------- conservation (hypothesis)


ALLOWED_CODES = sorted(LAYOUT)
ANY_CODES = ALLOWED_CODES + REFUSED
SIX = {"straight": 35, "split": 17, "street": 11, "corner": 8, "sixline": 5}  # 004 L221-L264, by hand


def _covers(code: str) -> set[int]:
    return {int(x) for x in code.partition(":")[2].split("-")}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bets=st.lists(st.tuples(st.sampled_from(ANY_CODES), st.integers(1, 30).map(lambda u: D(5) * u)),
                     min_size=1, max_size=12),
       number=st.integers(0, 36))
def test_settlement_conserves_chips(bets, number):
    """Every bet placed is settled exactly once; for each, what comes back plus what the house wins is its
    stake; a refused bet comes back whole; a wager comes back as stake x (1 + ratio) or nothing, the
    ratio of its kind (004 L221-L264), so the round's returned + house win == stakes."""
    placed = [(f"B{i}", code, stake) for i, (code, stake) in enumerate(bets)]
    v = AbreviadaScript(options={"max_tier": "3"}).spin(placed, number=number)
    ids = [c.expected.bet_id for c in v.checks]
    assert sorted(ids) == sorted(b for b, _, _ in placed) and len(set(ids)) == len(ids)
    stakes = {b: s for b, _, s in placed}
    for check, fig in zip(v.checks, v.figures, strict=True):
        e = check.expected
        assert e.returned + fig.win == stakes[e.bet_id] and e.commission == 0 and e.carried == 0
        code = e.spot
        if code in REFUSED:
            assert (e.outcome, e.returned, fig.handle) == ("refused", stakes[e.bet_id], 0)
        elif number in _covers(code):
            assert e.returned == stakes[e.bet_id] * (1 + SIX[code.partition(":")[0]])
        else:
            assert e.returned == 0
    assert sum((c.expected.returned for c in v.checks), D(0)) + sum((f.win for f in v.figures), D(0)) == \
        sum(stakes.values(), D(0))


# --------------------------------------------------------------------------- house edges (exact)


EDGE_CASES = [
    # (spot, covered n, payout a: edge 1 - n(1 + a)/37 and variance n a²/37 + (37 - n)/37 - (1/37)², by hand)
    ("straight:17", "1 - 1 x 36/37", F(1, 37), "1225/37 + 36/37 - 1/1369", F(46656, 1369)),      # 004 L221-L224
    ("straight:0", "1 - 1 x 36/37", F(1, 37), "1225/37 + 36/37 - 1/1369", F(46656, 1369)),
    ("split:17-20", "1 - 2 x 18/37", F(1, 37), "578/37 + 35/37 - 1/1369", F(22680, 1369)),        # 004 L226-L229
    ("split:0-3", "1 - 2 x 18/37", F(1, 37), "578/37 + 35/37 - 1/1369", F(22680, 1369)),
    ("street:16-17-18", "1 - 3 x 12/37", F(1, 37), "363/37 + 34/37 - 1/1369", F(14688, 1369)),    # 004 L231-L240
    ("street:0-2-3", "1 - 3 x 12/37", F(1, 37), "363/37 + 34/37 - 1/1369", F(14688, 1369)),
    ("corner:17-18-20-21", "1 - 4 x 9/37", F(1, 37), "256/37 + 33/37 - 1/1369", F(10692, 1369)),  # 004 L242-L249
    ("corner:0-1-2-3", "1 - 4 x 9/37", F(1, 37), "256/37 + 33/37 - 1/1369", F(10692, 1369)),      # L453-L454
    ("sixline:16-17-18-19-20-21", "1 - 6 x 6/37", F(1, 37), "150/37 + 31/37 - 1/1369", F(6696, 1369)),  # L261-L264
]


@pytest.mark.parametrize("spot,edge_by_hand,edge,variance_by_hand,variance", EDGE_CASES)
def test_the_house_edge_and_variance_of_every_bet_kind_are_exact(spot, edge_by_hand, edge, variance_by_hand, variance):
    """The 37 pockets of the ordinary roulette's wheel (004 L118-L120, L443-L446) and its payouts: every bet
    of the abbreviated layout has the straight-up's edge, 1/37 (2.7027 %)."""
    rs = load_ruleset(RID)
    assert house_edge(rs, spot) == edge, edge_by_hand
    assert bet_variance(rs, spot) == variance, variance_by_hand


def test_the_edge_table_has_one_line_per_kind_of_the_layout_each_1_37():
    lines = edge_table(load_ruleset(RID))
    assert [(line.label, line.spot, line.payout, line.edge) for line in lines] == [
        ("straight", "straight:17", "35:1", F(1, 37)),
        ("split", "split:17-20", "17:1", F(1, 37)),
        ("street", "street:16-17-18", "11:1", F(1, 37)),
        ("street (0-1-2 / 0-2-3)", "street:0-1-2", "11:1", F(1, 37)),
        ("corner", "corner:17-18-20-21", "8:1", F(1, 37)),
        ("corner (0-1-2-3)", "corner:0-1-2-3", "8:1", F(1, 37)),
        ("sixline", "sixline:16-17-18-19-20-21", "5:1", F(1, 37)),
    ]
    assert all(line.exact and "abbreviated_layout" in line.citations for line in lines)


def test_theoretical_win_of_a_straight_up_is_a_37th_of_the_stake():
    """37.00 EUR on a straight-up: 37 x 1/37 = 1.0000 EUR of theoretical win (4 places)."""
    assert theoretical_win(load_ruleset(RID), "straight:17", D("37.00")) == D("1.0000")


@pytest.mark.parametrize("spot", ["red", "dozen:1", "column:2", "dozens:1-2", "split:1-5"])
def test_no_edge_for_a_spot_off_the_abbreviated_layout_004_L447_L454(spot):
    with pytest.raises(RuleError):
        house_edge(load_ruleset(RID), spot)


def test_the_table_survives_its_snapshot_between_spins_004_L386_L390():
    """The engine's JSON snapshot (the stream processor's state) keeps the table's game and the last wheel
    direction: after a restore, the same direction again is still a spin_direction violation."""
    import json

    from pitwatch.schemas.events import EVENT_ADAPTER

    s = AbreviadaScript()
    s.spin([("B1", "straight:0", "10")], number=0, direction="clockwise")
    snap = json.loads(json.dumps(s.engine.snapshot()))
    s.engine = type(s.engine).from_snapshot(s.table_id, snap, EVENT_ADAPTER.validate_python)
    v = s.spin([("B2", "red", "10"), ("B3", "corner:0-1-2-3", "10")], number=2, direction="clockwise")
    assert kinds(v) == [VK.INVALID_BET, VK.SPIN_DIRECTION] and v.game == GAME
    assert settled(v) == {"B2": ("refused", D("10")), "B3": ("win", D("90.00"))}
