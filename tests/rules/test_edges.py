"""House edges computed from the rulesets (:mod:`pitwatch.rules.edges`) and theoretical win.

Every expected edge is either derived by hand in the test (the derivation is written out) or a
published figure whose source is named in the test's docstring, with a tolerance. Rulesets changed
for a test are the shipped file's text with one value replaced (``changed``), parsed as a release
shipping that file would parse it.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from pitwatch.rules.baccarat import parse_rules
from pitwatch.rules.base import RuleError, Ruleset, list_rulesets, load_ruleset, parse_ruleset
from pitwatch.rules.edges import baccarat as bac_edges
from pitwatch.rules.edges import edge_table, house_edge, theoretical_win
from pitwatch.rules.edges.blackjack import Play, dealer_outcomes, draw_table
from pitwatch.rules.edges.common import quantize
from pitwatch.rules.models.roulette import KIND_NAMES

from tests.rules.test_roulette import GAL, RouletteScript, settled

F = Fraction
D = Decimal
PP = Fraction(1, 100)  # one percentage point, as a fraction of the stake


def changed(ruleset_id: str, *edits: tuple[str, str]) -> Ruleset:
    """The shipped ruleset ``ruleset_id`` with each ``old`` text (found exactly once) replaced by ``new``."""
    source = load_ruleset(ruleset_id).source
    for old, new in edits:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return parse_ruleset(source, f"changed {ruleset_id}")


# --------------------------------------------------------------------------- roulette

# (spot, edge) derived by hand: a bet on n of the 37 pockets paid a:1 returns 1 + a with probability
# n/37, so edge = 1 - n (1 + a) / 37.
ROULETTE_BY_HAND = [
    ("straight:17", 1 - F(1 * 36, 37)),                 # 35:1 on 1 number: 1 - 36/37 = 1/37
    ("straight:0", 1 - F(1 * 36, 37)),                  # the zero is a number like any other
    ("split:17-20", 1 - F(2 * 18, 37)),                 # 17:1 on 2: 1 - 36/37
    ("split:0-3", 1 - F(2 * 18, 37)),
    ("street:16-17-18", 1 - F(3 * 12, 37)),             # 11:1 on 3: 1 - 36/37
    ("street:0-2-3", 1 - F(3 * 12, 37)),
    ("corner:17-18-20-21", 1 - F(4 * 9, 37)),           # 8:1 on 4: 1 - 36/37
    ("corner:0-1-2-3", 1 - F(4 * 9, 37)),
    ("sixline:1-2-3-4-5-6", 1 - F(6 * 6, 37)),          # 5:1 on 6: 1 - 36/37
    ("column:3", 1 - F(12 * 3, 37)),                    # 2:1 on 12: 1 - 36/37
    ("dozen:1", 1 - F(12 * 3, 37)),
    ("columns:2-3", 1 - F(24, 37) * F(3, 2)),           # 1:2 on 24: 1 - 24 x 1.5 / 37 = 1 - 36/37
    ("dozens:1-2", 1 - F(24, 37) * F(3, 2)),
]


@pytest.mark.parametrize("ruleset_id", ["french_roulette.galicia", "french_roulette.andalucia"])
@pytest.mark.parametrize("spot,edge", ROULETTE_BY_HAND)
def test_roulette_edge_of_every_number_bet_is_one_in_37(ruleset_id, spot, edge):
    """Payouts 35, 17, 11, 8, 5, 2, 2, ½, ½ (000 L133-L151; 004 L221-L285) all give 1/37 = 2.7027 %."""
    assert edge == F(1, 37)
    assert house_edge(load_ruleset(ruleset_id), spot) == edge


@pytest.mark.parametrize("ruleset_id", ["french_roulette.galicia", "french_roulette.andalucia"])
def test_simple_chance_edges_half_back_1_in_74_en_prison_1_in_73(ruleset_id):
    """Half back (refund ½ at a zero, 000 L125; 004 L304-L308): return = (18/37) x 2 + (1/37) x ½
    = 36/37 + 1/74 = 73/74, edge 1/74 = 1.3514 %.

    En prison as the engine plays it (the table default; a prisoner is released on a win, lost on a
    loss, and keeps half at each further zero, 000 L125-L127; 004 L308-L316): a prisoner's value per
    euro held, c, satisfies c = 18/37 + (1/37)(½ c), so c (1 - 1/74) = 18/37, c = (18/37)(74/73) = 36/73;
    a fresh bet returns 36/37 + (1/37)(36/73) = 36 (73 + 1)/(37 x 73) = 72/73: edge 1/73 = 1.3699 %.
    The player's better choice at a zero is half back (½ > 36/73 of what it holds)."""
    rs = load_ruleset(ruleset_id)
    assert F(36, 37) + F(1, 74) == F(73, 74)
    assert F(36, 37) + F(1, 37) * F(36, 73) == F(72, 73)
    for spot in ("red", "black", "even", "odd", "manque", "passe"):
        assert house_edge(rs, spot) == F(1, 73)  # the ruleset's default: en prison
        assert house_edge(rs, spot, options={"zero_default": "half_back"}) == F(1, 74)
        assert house_edge(rs, spot, options={"zero_default": "en_prison"}) == F(1, 73)
    simple = [line for line in edge_table(rs) if line.kind == "simple"]
    assert [(line.variant, line.edge) for line in simple] == [("en prison", F(1, 73)), ("half back", F(1, 74))]
    assert "better choice at a zero is half back" in simple[0].method
    with pytest.raises(RuleError, match="zero_default"):
        house_edge(rs, "red", options={"zero_default": "keep"})


def _engine_return(options: dict[str, str], depth: int) -> Fraction:
    """Expected euros returned on a 64.00 EUR bet on red, by playing the engine through every spin
    sequence until the bet is settled (0, a red 1 or a black 2, weighted 1, 18, 18 of 37), cut after
    ``depth`` spins (what is still in prison then, at most 64 EUR x (1/37)^depth, is left out)."""

    def walk(prefix: list[int], p: Fraction) -> Fraction:
        if len(prefix) == depth:
            return F(0)
        total = F(0)
        for number, weight in ((0, 1), (1, 18), (2, 18)):
            path = [*prefix, number]
            s = RouletteScript(GAL, options=options)
            for i, n in enumerate(path):
                v = s.spin([("B1", "red", "64.00")] if i == 0 else [], number=n)
            outcome, returned = settled(v)["B1"]
            q = p * F(weight, 37)
            total += walk(path, q) if outcome == "en_prison" else q * F(returned)
        return total

    return walk([], F(1))


@pytest.mark.parametrize("fate", ["en_prison", "half_back"])
def test_simple_chance_model_is_what_the_engine_settles(fate):
    """The edge's model of the zero rule is the engine's: playing the engine through every spin sequence
    (4 spins deep) returns 1 - edge per euro, up to what is still in prison after 4 zeros."""
    depth = 4
    back = _engine_return({"zero_default": fate}, depth) / 64
    edge = house_edge(load_ruleset(GAL), "red", options={"zero_default": fate})
    assert 0 <= (1 - edge) - back <= F(1, 37**depth)


def test_roulette_edge_follows_the_payout_table():
    """A straight-up paid 34:1 instead of 35 (000 L133): edge = 1 - 35/37 = 2/37; other kinds unchanged.
    Simple chances paid 1:1 by the ruleset's ``simple``: paid 0.9 instead, half back returns
    (18/37)(1.9) + (1/37)(½) = 34.2/37 + 0.5/37 = 34.7/37, edge 2.3/37 = 23/370."""
    rs = changed("french_roulette.galicia", ("\nstraight = 35 ", "\nstraight = 34 "))
    assert house_edge(rs, "straight:17") == F(2, 37)
    assert house_edge(rs, "split:17-20") == F(1, 37)
    simple = changed("french_roulette.galicia", ("\nsimple = 1 ", "\nsimple = 0.9 "))
    assert house_edge(simple, "red", options={"zero_default": "half_back"}) == F(23, 370)


@pytest.mark.parametrize("spot", ["split:1-5", "corner:3-4-6-7", "columns:1-3", "straight:37", "banca", "Red"])
def test_spot_off_the_layout_is_refused(spot):
    with pytest.raises(ValueError, match="spot|kind"):
        house_edge(load_ruleset("french_roulette.galicia"), spot)


def test_roulette_table_lists_every_kind_with_citations_of_the_ruleset():
    for rid in ("french_roulette.galicia", "french_roulette.andalucia"):
        rs = load_ruleset(rid)
        lines = edge_table(rs)
        assert {line.kind for line in lines} == set(KIND_NAMES)
        for line in lines:
            assert line.exact and house_edge(rs, line.spot) == (F(1, 73) if line.kind == "simple" else line.edge)
            for key in line.citations:
                rs.cite(key)


# --------------------------------------------------------------------------- theoretical win


def test_theoretical_win_is_stake_times_edge_to_four_places_half_even():
    """10 EUR on a straight-up: 10/37 = 0.270270... -> 0.2703. Ties at the 5th place go to even:
    0.0037 x 1/74 = 0.00005 -> 0.0000; 0.0111 x 1/74 = 0.00015 -> 0.0002 (red with half back)."""
    rs = load_ruleset("french_roulette.galicia")
    assert theoretical_win(rs, "straight:17", D("10.00")) == D("0.2703")
    half = {"zero_default": "half_back"}
    assert theoretical_win(rs, "red", D("0.0037"), options=half) == D("0.0000")
    assert theoretical_win(rs, "red", D("0.0111"), options=half) == D("0.0002")
    assert theoretical_win(rs, "red", D("73.00")) == D("1.0000")  # en prison: 73/73
    assert theoretical_win(rs, "red", D("0")) == D("0.0000")
    with pytest.raises(RuleError, match="negative"):
        theoretical_win(rs, "red", D("-1"))
    with pytest.raises(RuleError):
        theoretical_win(rs, "split:1-5", D("1"))
    assert quantize(F(-3, 20000), 4) == D("-0.0002")  # negative edges (a player's game) round alike


def test_theoretical_win_on_punto_banca_and_blackjack():
    """100 EUR on tie at 8:1, 6 decks: 100 x 220299549488/1525814595305 (the tie edge below) = 14.4382 EUR."""
    pb = load_ruleset("punto_banca.galicia")
    assert theoretical_win(pb, "tie", D("100")) == quantize(100 * house_edge(pb, "tie"), 4) == D("14.4382")
    bj = load_ruleset("blackjack.galicia")
    assert theoretical_win(bj, "insurance", D("311")) == D("23.0000")  # 311 x 23/311


# --------------------------------------------------------------------------- punto y banca


def _standard_banker_draws(banca: int, third: int | None) -> bool:
    """The banker's third-card rule of baccarat as the published tables assume it (punto banco):
    0-2 draw; 3 draws unless the player's third card is 8; 4 draws on 2-7; 5 on 4-7; 6 on 6-7;
    7 stands; a player who stood leaves the banker to draw on 0-5."""
    if third is None:
        return banca <= 5
    return {0: True, 1: True, 2: True, 3: third != 8, 4: 2 <= third <= 7, 5: 4 <= third <= 7,
            6: third in (6, 7), 7: False}[banca]


@pytest.mark.parametrize("ruleset_id", ["punto_banca.galicia", "punto_banca.asturias", "punto_banca.andalucia"])
def test_spanish_tableau_is_the_standard_one(ruleset_id):
    """Why the published baccarat figures apply: every ruleset's printed tableau (000 L489-L504;
    001 L92-L116; 004 L1740-L1755), naturals 8-9 and punto rule (draw 0-5) are punto banco's."""
    rules = parse_rules(load_ruleset(ruleset_id))
    assert rules.naturals == {8, 9} and rules.punto_draws == set(range(6))
    for banca in range(8):
        for third in (None, *range(10)):
            assert rules.banca_draws(banca, third) == _standard_banker_draws(banca, third), (banca, third)


# Published combination counts of ordered 6-card sequences (Wizard of Odds, «Baccarat» basics,
# tables «Probabilities in 8-deck Baccarat» and «Probabilities in 6-deck Baccarat», as reproduced at
# casinoexploit.com/baccarat.html): banker wins, player wins, ties.
PUBLISHED = {
    8: (2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216),
    6: (403_095_751_234_560, 392_220_492_728_832, 83_552_962_932_288),
}


@pytest.mark.parametrize("decks", [8, 6])
def test_punto_banca_outcomes_are_the_published_combination_counts(decks):
    """Exact: every deal of the shoe counted as the published tables count it; total =
    N (N-1) ... (N-5) with N = 52 x decks. 8 decks: banker 5 % 1.06 %, player 1.24 %, tie 8:1 14.36 %
    (the same source, 2 decimals); 6 decks: 1.06 %, 1.24 %, 14.44 %."""
    banker, player, tie = PUBLISHED[decks]
    n = 52 * decks
    total = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    assert banker + player + tie == total
    rs = changed("punto_banca.galicia", ("decks = 6 ", f"decks = {decks} "))
    k = bac_edges.counts(rs)
    assert (sum(k.banca), k.punto, k.tie, k.total) == (banker, player, tie, total)
    # edges by hand from the counts: banca wins 0.95 (5 % deducted), punto 1, ties push; tie pays 8
    assert house_edge(rs, "banca") == F(player - banker * F(95, 100), total)
    assert house_edge(rs, "punto") == F(banker - player, total)
    assert house_edge(rs, "tie") == 1 - 9 * F(tie, total)
    published = {8: ("1.06", "1.24", "14.36"), 6: ("1.06", "1.24", "14.44")}[decks]
    got = tuple(str(quantize(100 * house_edge(rs, s), 2)) for s in ("banca", "punto", "tie"))
    assert got == published


def test_andalucia_half_deduction_on_a_banca_six():
    """Andalucía deducts 50 % of a banca win with 6 and nothing else (004 L1699-L1702): banca edge =
    (P(punto) - P(banca) + ½ P(banca wins with 6)). 8 decks: banker wins with 6 in
    269,232,304,455,680 of the sequences (published: Wizard of Odds' table of the «no commission»
    game, as reproduced at excelpunks.com, «Baccarat vs. Non-Commission Baccarat»), edge 1.4581 %."""
    banker, player, _ = PUBLISHED[8]
    six = 269_232_304_455_680
    rs = changed("punto_banca.andalucia", ("decks = 6 ", "decks = 8 "))
    assert bac_edges.counts(rs).banca[6] == six
    edge = F(player - banker + six // 2, 4_998_398_275_503_360)
    assert house_edge(rs, "banca") == edge
    assert str(quantize(100 * edge, 4)) == "1.4581"
    # shipped (6 decks): the same formula on that shoe's counts
    shipped = load_ruleset("punto_banca.andalucia")
    k = bac_edges.counts(shipped)
    assert house_edge(shipped, "banca") == F(k.punto - sum(k.banca), k.total) + F(k.banca[6], 2 * k.total)


def test_banca_edge_follows_the_deduction_rate():
    """A 4 % deduction instead of 5 % (000 L467): the house keeps 1 % less of every banca win, so the
    edge drops by exactly 0.01 x P(banca wins) = 0.01 x 403,095,751,234,560 / total (6 decks, above)."""
    base = load_ruleset("punto_banca.galicia")
    cheaper = changed("punto_banca.galicia", ("rate = 0.05", "rate = 0.04"))
    banker, player, tie = PUBLISHED[6]
    assert house_edge(base, "banca") - house_edge(cheaper, "banca") == F(1, 100) * F(banker, banker + player + tie)
    assert house_edge(cheaper, "punto") == house_edge(base, "punto")
    nine = changed("punto_banca.galicia", ("tie = 8 ", "tie = 9 "))
    assert house_edge(nine, "tie") == 1 - 10 * F(tie, banker + player + tie)


def test_asturias_has_no_decks_six_are_assumed_and_said():
    """001 does not give the number of decks (``deal.decks`` absent): 6 assumed, as the edge line says."""
    rs = load_ruleset("punto_banca.asturias")
    assert bac_edges.shoe_decks(rs) == (6, True)
    assert all("assumed" in line.method for line in edge_table(rs))
    assert house_edge(rs, "banca") == house_edge(load_ruleset("punto_banca.galicia"), "banca")
    banker, player, _ = PUBLISHED[8]
    assert house_edge(rs, "punto", decks=8) == F(banker - player, 4_998_398_275_503_360)
    with pytest.raises(RuleError, match="at least one deck"):
        house_edge(rs, "punto", decks=0)


def test_punto_banca_lists_only_the_ruleset_spots():
    rs = changed("punto_banca.galicia", ('spots = ["punto", "banca", "tie"]', 'spots = ["punto", "banca"]'))
    assert [line.spot for line in edge_table(rs)] == ["punto", "banca"]
    with pytest.raises(ValueError, match="not a bet of punto_banca.galicia"):
        house_edge(rs, "tie")
    for rid in ("punto_banca.galicia", "punto_banca.asturias", "punto_banca.andalucia"):
        shipped = load_ruleset(rid)
        for line in edge_table(shipped):
            assert line.exact
            for key in line.citations:
                shipped.cite(key)


def test_punto_banca_counts_are_cached_per_version():
    rs = load_ruleset("punto_banca.galicia")
    assert bac_edges.counts(rs) is bac_edges.counts(rs)
    assert bac_edges.counts(rs, 8) is not bac_edges.counts(rs)


# --------------------------------------------------------------------------- blackjack


def test_insurance_edge_from_the_payout_and_the_shoe():
    """Insurance 2:1 (000 L297; 004 L761-L763) wins when the dealer's second card, from the 311 cards
    left after his ace (6 decks), is one of the 96 ten-valued: return 3 x 96/311 = 288/311, edge
    23/311 = 7.3955 %. Paid 2.2:1, 3.2 x 96/311 = 307.2/311, edge 3.8/311. A very large shoe tends to
    the infinite deck's 1 - 3 x 4/13 = 1/13."""
    rs = load_ruleset("blackjack.galicia")
    assert house_edge(rs, "insurance") == F(23, 311)
    assert house_edge(load_ruleset("blackjack.andalucia"), "insurance") == F(23, 311)
    richer = changed("blackjack.galicia", ("insurance = 2.0 ", "insurance = 2.2 "))
    assert house_edge(richer, "insurance") == F(38, 3110)
    assert abs(house_edge(rs, "insurance", decks=100_000) - F(1, 13)) < F(1, 10**5)


def test_blackjack_payout_moves_the_edge_by_the_blackjack_probability():
    """Blackjack paid 6:5 instead of 3:2 (000 L293; 004 L743-L745) costs 0.3 x P(player blackjack and
    no dealer blackjack), exact in the calculation's model (the first three cards are exact):
    6 decks, 24 aces, 96 tens of 312: P(player A+T) = 2 x 24 x 96 / (312 x 311); then the dealer's
    A+T from the 310 cards left: 2 x 23 x 95 / (310 x 309)."""
    p_player = F(2 * 24 * 96, 312 * 311)
    p_dealer = F(2 * 23 * 95, 310 * 309)
    expected = F(3, 10) * p_player * (1 - p_dealer)
    for rid in ("blackjack.galicia", "blackjack.andalucia"):
        six_five = changed(rid, ("blackjack = 1.5 ", "blackjack = 1.2 "))
        diff = house_edge(six_five, "main") - house_edge(load_ruleset(rid), "main")
        assert abs(diff - expected) < F(1, 10**11), rid


def _andalucia_h17(*edits: tuple[str, str]) -> Ruleset:
    return changed("blackjack.andalucia", ("dealer_hits_soft_17 = false", "dealer_hits_soft_17 = true"), *edits)


@pytest.mark.parametrize("edits,published", [
    ((), F(72705, 10**7)),
    ((("double_after_split = true", "double_after_split = false"),), F(86975, 10**7)),
    ((("decks = 6 ", "decks = 8 "),), F(7562, 10**6)),
], ids=["6 decks DAS", "6 decks no DAS", "8 decks DAS"])
def test_main_bet_against_the_published_no_hole_card_analysis(edits, published):
    """Wizard of Odds, «Blackjack Appendix 9 — Six deck, dealer hits on soft 17, no hole card» (and its
    eight-deck page), an exact combinatorial analysis: 6 decks, H17, European no hole card losing
    doubles and splits to a dealer blackjack, double on any two cards, re-split to four hands except
    aces, one card to split aces: expected return -0.0072705 (double after split), -0.0086975 (no
    double after split); 8 decks with double after split -0.007562. That is the Andalucía ruleset
    (004 L570-L901) with the dealer hitting soft 17; the calculation re-splits without limit and
    approximates removal after the first three cards. Tolerance: 0.02 percentage point."""
    edge = house_edge(_andalucia_h17(*edits), "main")
    assert abs(edge - published) <= F(2, 100) * PP


def test_main_bet_against_the_published_spielbank_rules():
    """Wizard of Odds, «Ask the Wizard» #294 (house edge calculator): 6 decks, S17, no hole card, double
    on 9 to 11 only, double after split, re-split any pair including aces to four hands, no surrender:
    0.55 %. That is the Galicia ruleset (000 L235-L329) without surrender and with re-split aces.
    Tolerance: 0.02 percentage point (the figure has two decimals)."""
    rs = changed("blackjack.galicia", ("surrender = true", "surrender = false"),
                 ("\nresplit_aces = false", "\nresplit_aces = true"))
    assert abs(house_edge(rs, "main") - F(55, 100) * PP) <= F(2, 100) * PP


def test_shipped_blackjack_rules_each_change_the_edge():
    """Galicia's surrender (000 L311-L313) and the dealer standing on soft 17 lower the edge; Galicia's
    9-10-11 doubling (000 L307) raises it against Andalucía's any-two-cards (004 L800-L803)."""
    gal, anda = load_ruleset("blackjack.galicia"), load_ruleset("blackjack.andalucia")
    no_surrender = changed("blackjack.galicia", ("surrender = true", "surrender = false"))
    any_double = changed("blackjack.galicia", ("double_totals = [9, 10, 11]", "double_totals = []"),
                         ("surrender = true", "surrender = false"))
    assert house_edge(gal, "main") < house_edge(no_surrender, "main")
    assert house_edge(any_double, "main") < house_edge(no_surrender, "main")
    assert house_edge(anda, "main") < house_edge(_andalucia_h17(), "main")
    assert abs(house_edge(any_double, "main") - house_edge(anda, "main")) < F(1, 10**12)  # then the rules agree


def test_dealer_blackjack_odds_by_first_card():
    """With cards drawn at the infinite deck's odds (1/13 each value, 4/13 worth ten), the dealer's
    blackjack is 4/13 behind an ace, 1/13 behind a ten, impossible behind 2-9; outcomes sum to 1."""
    q = {v: D(1) / 13 for v in range(1, 10)} | {10: D(4) / 13}
    play = Play.of(load_ruleset("blackjack.galicia"))
    must = draw_table(play)
    for up in range(1, 11):
        out = dealer_outcomes(up, q, must)
        assert abs(sum(out) - 1) < D("1e-25")
        assert abs(out[23] - {1: D(4) / 13, 10: D(1) / 13}.get(up, D(0))) < D("1e-25")
        assert all(p == 0 for p in out[:17])  # the dealer never stands below 17


def test_blackjack_spots_and_table():
    rs = load_ruleset("blackjack.andalucia")
    lines = edge_table(rs)
    assert [(line.spot, line.exact) for line in lines] == [("main", False), ("insurance", True)]
    assert "approximation" in lines[0].method and "even money" in lines[1].method
    for line in lines:
        for key in line.citations:
            rs.cite(key)
    with pytest.raises(ValueError, match="not a blackjack bet"):
        house_edge(rs, "bolsa")


# --------------------------------------------------------------------------- every ruleset


@pytest.mark.parametrize("ruleset_id", list_rulesets())
def test_every_shipped_ruleset_has_an_edge_table_with_house_edges_between_0_and_a_quarter(ruleset_id):
    """Every bet kind of every ruleset has a positive edge below 1/4 (the highest the law keeps: the wheel of
    fortune's 7 and 2, 2/9, 000 L1085; the table games' stay below 15%), its payout, method and citations."""
    rs = load_ruleset(ruleset_id)
    lines = edge_table(rs)
    assert lines
    top = F(1, 4)
    for line in lines:
        assert 0 < line.edge < top, line
        assert line.payout and line.method and line.citations
        assert house_edge(rs, line.spot, options={"zero_default": line.variant.replace(" ", "_")}
                          if line.kind == "simple" else None) == line.edge


# --------------------------------------------------------------------------- variance (σ per bet kind)

def test_roulette_variance_of_number_bets_by_hand():
    """A bet on n of 37 pockets paid a:1: X = a with n/37, -1 otherwise; E[X] = -1/37, so
    Var = n a²/37 + (37 - n)/37 - 1/37². Straight-up: 1225/37 + 36/37 - 1/1369 = 46656/1369
    (σ = 216/37 ≈ 5.84, the figure the table-performance band uses); split 17:1: 289 x 2/37 + 35/37
    - 1/1369; column 2:1: 4 x 12/37 + 25/37 - 1/1369 (000 L81-L97 payouts)."""
    from pitwatch.rules.edges import bet_variance
    rs = load_ruleset("french_roulette.galicia")
    assert bet_variance(rs, "straight:17") == F(46656, 1369)
    assert F(216, 37) ** 2 == F(46656, 1369)
    assert bet_variance(rs, "split:17-20") == F(289 * 2 + 35, 37) - F(1, 1369)
    assert bet_variance(rs, "column:2") == F(4 * 12 + 25, 37) - F(1, 1369)


def test_simple_chance_variance_half_back_and_en_prison_by_hand():
    """Half back (000 L125-L129): X = +1 (18/37), -1 (18/37), -1/2 (1/37); E[X] = -1/74, so
    Var = 36/37 + 1/148 - 1/5476. En prison (004 L304-L324, half kept at a further zero): after a
    zero, k further zeros (each 1/37) then released (18/37, X = 2^-k - 1) or lost (18/37, X = -1):
    E[X² | zero] = Σ_k 37^-k (18/37 (2^-k - 1)² + 18/37); summed here to 60 terms (the tail is below
    37^-60), against the closed form of the code; E[X] = -1/73."""
    from pitwatch.rules.edges import bet_variance
    rs = load_ruleset("french_roulette.galicia")
    half = bet_variance(rs, "red", options={"zero_default": "half_back"})
    assert half == F(36, 37) + F(1, 148) - F(1, 74) ** 2
    at_zero = sum((F(1, 37 ** k) * (F(18, 37) * (F(1, 2 ** k) - 1) ** 2 + F(18, 37)) for k in range(60)), F(0))
    by_hand = F(36, 37) + F(1, 37) * at_zero - F(1, 73) ** 2
    prison = bet_variance(rs, "red", options={"zero_default": "en_prison"})
    assert abs(prison - by_hand) < F(1, 10 ** 80)
    assert str(quantize(prison, 4)) == "0.9864" and str(quantize(half, 4)) == "0.9795"


@pytest.mark.parametrize("decks", [8, 6])
def test_punto_banca_variance_from_the_published_counts(decks):
    """From the published combination counts (above): banca wins 0.95 or loses 1, ties push:
    Var = (0.95² B + P)/N - edge²; punto (P + B)/N - edge²; tie 8:1 (64 T + N - T)/N - edge².
    σ(banca) ≈ 0.93 (the band's example in the issue)."""
    from pitwatch.rules.edges import bet_variance
    banker, player, tie = PUBLISHED[decks]
    total = banker + player + tie
    rs = changed("punto_banca.galicia", ("decks = 6 ", f"decks = {decks} "))
    banca = F(banker * F(95, 100) ** 2 + player, total) - F(player - banker * F(95, 100), total) ** 2
    assert bet_variance(rs, "banca") == banca
    assert bet_variance(rs, "punto") == F(player + banker, total) - F(banker - player, total) ** 2
    assert bet_variance(rs, "tie") == F(64 * tie + total - tie, total) - (1 - 9 * F(tie, total)) ** 2
    assert str(quantize(banca, 2)) == "0.86"  # σ = 0.927..


def test_blackjack_variance_from_the_published_simulation():
    """Main bet: 1.308 (6 decks, dealer hits soft 17, no double after split, no surrender, no re-split
    aces: Wizard of Odds, «Variance in blackjack», summary table) plus that page's rule effects.
    Andalucía (stands on soft 17, 004 L721-L724; doubles after a split, L804-L805; no «retiro»):
    1.308 - 0.00838 + 0.03753 = 1.33715. Galicia (the same and surrender, 000 L311-L313):
    1.33715 - 0.03629 = 1.30086. Insurance 2:1, exact: tens 96 of the 311 cards left after the
    dealer's ace: p = 96/311, Var = 4p + (1 - p) - (23/311)²."""
    from pitwatch.rules.edges import bet_variance
    assert bet_variance(load_ruleset("blackjack.andalucia"), "main") == F("1.33715")
    assert bet_variance(load_ruleset("blackjack.galicia"), "main") == F("1.30086")
    p = F(96, 311)
    for rid in ("blackjack.galicia", "blackjack.andalucia"):
        assert bet_variance(load_ruleset(rid), "insurance") == 4 * p + (1 - p) - F(23, 311) ** 2


def test_theoretical_variance_is_stake_squared_times_variance():
    """10 EUR straight-up: 100 x 46656/1369 = 3408.03506.. -> 3408.0351 EUR²; a 0 stake gives 0."""
    from pitwatch.rules.edges import theoretical_variance
    rs = load_ruleset("french_roulette.galicia")
    assert theoretical_variance(rs, "straight:17", D("10.00")) == D("3408.0351")
    assert theoretical_variance(rs, "straight:17", D("0.00")) == D("0.0000")
    with pytest.raises(RuleError):
        theoretical_variance(rs, "straight:17", D("-1"))
