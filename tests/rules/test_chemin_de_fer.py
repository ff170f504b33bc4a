"""Chemin de fer coups through the engine, every figure worked by hand from the regulation
(Galicia 000_e1555249d49967be.txt «07. Ferrocarril, bacará o chemin de fer» L524-L741; Andalucía
004_5c9c19b250457762.txt I.1.8.A L1758-L2458):

- values: 10 and court cards 0, ace 1, tens dropped; nine or nearest wins; a tie is void («nula»)
  (000 L612; 004 L2119-L2129);
- a stake against the bank wins its amount or loses it (even money: the rulesets' ambiguity 1);
- the cagnotte is 5% of the bank's winnings of the coup (000 L598; 004 L2089-L2091), rounded down;
- the punto draws on 0-4, chooses on 5, stands on 6-7 (000 L616-L622; 004 L2137-L2148); the banker
  chooses except on 0, bacará (000 L624; 004 L2156-L2159), and follows the tableau once he asked for it
  (000 L630, L672-L687).

The bank's settlement is bet ``<round>:bank``: stake the bank in play (the stakes covering it),
returned the bank back plus the stakes won less the cagnotte, nothing when it loses.
"""

from __future__ import annotations

import json
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.replay import replay_lines
from pitwatch.rules.base import load_ruleset
from pitwatch.rules.chemin_de_fer.coup import judge_coup, rules_of
from pitwatch.rules.chemin_de_fer.stakes import Stake, bank_return, cover, stake_return, winner
from pitwatch.schemas.cards import ALL_CARDS, baccarat_value
from pitwatch.schemas.events import dump_event

from tests.rules.cdf_coups import AND, GAL, Table, due, kinds

D = Decimal
PUNTO_NATURAL_9 = ("P:4S", "B:3H", "P:5D", "B:4C")   # punto 4+5 = 9, bank 3+4 = 7: both show
BANK_NATURAL_8 = ("P:2S", "B:5H", "P:3D", "B:3C")    # punto 5, bank 5+3 = 8


def test_punto_natural_9_pays_each_covered_stake_even_money_000_L612_L614():
    """Bank 200; B stakes 50 (seat 2), C 30 (seat 3): 80 in play. Punto 9 beats 7: B gets 100, C 60,
    the bank in play (80) is lost: the banker gets 0 of it back, no cagnotte, the table wins nothing."""
    t = Table()
    c = t.coup().bank("A", "200.00").stake("B", "punto", "50.00", 2).stake("C", "punto", "30.00", 3).close()
    v = c.cards(*PUNTO_NATURAL_9).paid("B", "100.00").paid("C", "60.00").bank_paid("0.00").end()
    assert kinds(v) == []
    assert due(v) == {"B": "100.00", "C": "60.00", "bank": "0.00"}
    bank = v.checks[-1].expected
    assert (bank.player_id, bank.stake) == ("A", D("80.00"))
    assert sum(f.win for f in v.figures) == 0


def _bank_wins(cagnotte: str, bank_back: str):
    """Bank 500; B 123.50 (seat 2), C 77 (seat 4), D 33 standing: 233.50 in play. Bank 8 beats punto 5."""
    t = Table()
    c = t.coup().bank("A", "500.00").stake("B", "punto", "123.50", 2).stake("C", "punto", "77.00", 4)
    c.stake("D", "punto", "33.00", None).close().cards(*BANK_NATURAL_8)
    return c.cagnotte(cagnotte).paid("B", "0").paid("C", "0").paid("D", "0").bank_paid(bank_back).end()


def test_the_cagnotte_is_5_percent_of_the_banks_winnings_rounded_down_000_L598_004_L2089_L2091():
    """The bank wins 233.50; 5% = 11.675 -> 11.67 (rounded down). The banker gets 233.50 + 233.50 - 11.67
    = 455.33; the table's win is the cagnotte, 11.67."""
    v = _bank_wins("11.67", "455.33")
    assert kinds(v) == []
    assert due(v)["bank"] == "455.33"
    assert sum(f.win for f in v.figures) == D("11.67")


def test_a_wrong_cagnotte_is_a_rake_discrepancy_000_L598_L666():
    """11.68 put in the cagnotte and 455.32 to the banker: 0.01 too much for the house, 0.01 short to him."""
    v = _bank_wins("11.68", "455.32")
    assert kinds(v) == ["payout_discrepancy", "rake_discrepancy"]
    rake = next(x for x in v.violations if x.kind == "rake_discrepancy")
    pay = next(x for x in v.violations if x.kind == "payout_discrepancy")
    assert rake.amount == D("0.01") and "L598" in rake.citation
    assert pay.amount == D("-0.01") and pay.player_id == "A"


def test_a_stake_under_paid_is_a_payout_discrepancy_000_L666():
    """Punto 9 wins: C's 30 is due 60; the croupier hands him 50: under-paid by 10."""
    t = Table()
    c = t.coup().bank("A", "200.00").stake("B", "punto", "50.00", 2).stake("C", "punto", "30.00", 3).close()
    v = c.cards(*PUNTO_NATURAL_9).paid("B", "100.00").paid("C", "50.00").bank_paid("0.00").end()
    (x,) = v.violations
    assert (x.kind, x.player_id, x.amount) == ("payout_discrepancy", "C", D("-10.00"))


def test_punto_draws_on_5_by_choice_and_the_banker_draws_3_against_a_4_by_the_tableau_000_L620_L677():
    """Punto 2+3 = 5 chooses to draw a 4: 9. The banker (K+3 = 3) asked for the tableau: row 3, column 4
    is «T», he draws a 5: 8. Punto 9 wins: B's 40 gets 80; the bank in play 40 is lost."""
    t = Table()
    c = t.coup().bank("A", "100.00").stake("B", "punto", "40.00", 2).close().tableau("A")
    c.cards("P:2S", "B:KH", "P:3D", "B:3C").says("B", "punto", "draw").cards("P:4H").says("A", "banca", "draw")
    v = c.cards("B:5D").paid("B", "80.00").bank_paid("0.00").end()
    assert kinds(v) == []
    assert due(v) == {"B": "80.00", "bank": "0.00"}


def test_a_banker_who_asked_for_the_tableau_and_draws_on_6_against_a_standing_punto_breaks_it_000_L630_L680():
    """Punto K+7 = 7 stands; the banker has 2+4 = 6; the tableau's row 6, column «P» says stand. He draws a
    9 (6+9 = 5): an illegal_decision of the banker citing the tableau; punto 7 beats 5 all the same."""
    t = Table()
    c = t.coup().bank("A", "100.00").stake("B", "punto", "40.00", 2).close().tableau("A")
    v = c.cards("P:KS", "B:2H", "P:7D", "B:4C", "B:9S").paid("B", "80.00").bank_paid("0.00").end()
    (x,) = v.violations
    assert (x.kind, x.player_id) == ("illegal_decision", "A")
    assert "L630, L672-687" in x.citation


def test_the_same_draw_without_asking_for_the_tableau_is_free_000_L624():
    """«la banca podrá optar entre pedir carta o no hacerlo» (000 L624): the draw on 6 above, tableau not asked."""
    t = Table()
    c = t.coup().bank("A", "100.00").stake("B", "punto", "40.00", 2).close()
    v = c.cards("P:KS", "B:2H", "P:7D", "B:4C", "B:9S").paid("B", "80.00").bank_paid("0.00").end()
    assert kinds(v) == []


def test_an_optional_cell_o_is_free_and_a_tie_returns_every_stake_000_L612_L677():
    """Punto K+4 = 4 draws a 9: 3. The banker (3+K = 3) asked for the tableau: row 3, column 9 is «O», he
    stands: 3-3, a tie, «la jugada es considerada nula»: B's 40 and the bank's 40 back, no cagnotte."""
    t = Table()
    c = t.coup().bank("A", "100.00").stake("B", "punto", "40.00", 2).close().tableau("A")
    v = c.cards("P:KS", "B:3H", "P:4D", "B:KC", "P:9S").paid("B", "40.00").bank_paid("40.00").end()
    assert kinds(v) == []
    assert due(v) == {"B": "40.00", "bank": "40.00"}
    assert [c.expected.outcome for c in v.checks] == ["push", "push"]


def test_the_banker_must_draw_on_bacara_0_in_both_regions_000_L624_004_L2156_L2159():
    """Punto K+7 = 7 stands, the bank K+Q = 0 stands: the banker broke the bacará rule."""
    for rs in (GAL, AND):
        t = Table(rs)
        c = t.coup().bank("A", "100.00").stake("B", "punto", "40.00", 2).close()
        v = c.cards("P:KS", "B:KH", "P:7D", "B:QC").paid("B", "80.00").bank_paid("0.00").end()
        (x,) = v.violations
        assert (x.kind, x.player_id) == ("illegal_decision", "A")
        assert ("L624" if rs == GAL else "L2156-2160") in x.citation


def test_andalucia_prints_no_tableau_the_banker_who_asks_for_it_is_checked_on_bacara_only_004_L2172_L2175():
    """The Galicia breach above (draw on 6 against a standing punto, tableau asked) passes in Andalucía."""
    t = Table(AND)
    c = t.coup().bank("A", "100.00").stake("B", "punto", "40.00", 2).close().tableau("A")
    v = c.cards("P:KS", "B:2H", "P:7D", "B:4C", "B:9S").paid("B", "80.00").bank_paid("0.00").end()
    assert kinds(v) == []


def test_the_punto_who_draws_on_6_breaks_the_punto_rule_unless_a_free_banco_000_L622_L624():
    """Punto 3+3 = 6 draws a 5 (1); the bank 2+K = 2 draws a 6 (8): the bank wins 40, cagnotte 2.00, the
    banker gets 78.00. B drew on 6: illegal_decision. Called as a banco at a table whose director allowed
    free play (banco_free_play), the same draw is free."""
    t = Table()
    c = t.coup().bank("A", "40.00").stake("B", "punto", "40.00", 2).close()
    v = c.cards("P:3S", "B:2H", "P:3D", "B:KC", "P:5H", "B:6D").cagnotte("2.00").paid("B", "0").bank_paid("78.00").end()
    (x,) = v.violations
    assert (x.kind, x.player_id) == ("illegal_decision", "B") and "L616-622" in x.citation
    t = Table(options={"banco_free_play": "true"})
    c = t.coup().bank("A", "40.00").stake("B", "banco", "40.00", 2).close()
    v = c.cards("P:3S", "B:2H", "P:3D", "B:KC", "P:5H", "B:6D").cagnotte("2.00").paid("B", "0").bank_paid("78.00").end()
    assert kinds(v) == []


def test_banco_precedence_the_seat_at_the_bankers_right_first_the_others_handed_back_000_L554_L640():
    """Bank 100 at seat 1; bancos by C (seat 4), B (seat 2) and D (standing). B, at the banker's right, plays
    the whole bank; C's and D's 100 are not in play (refused, handed back). Punto 9: B gets 200. D took
    the cards: a procedure violation (they were B's)."""
    t = Table()
    c = t.coup().bank("A", "100.00").stake("C", "banco", "100.00", 4).stake("B", "banco", "100.00", 2)
    c.stake("D", "banco", "100.00", None).close().cards(*PUNTO_NATURAL_9).says("D", "punto", "stand")
    v = c.paid("C", "100.00").paid("B", "200.00").paid("D", "100.00").bank_paid("0.00").end()
    assert due(v) == {"C": "100.00", "B": "200.00", "D": "100.00", "bank": "0.00"}
    assert [c.expected.outcome for c in v.checks] == ["refused", "win", "refused", "lose"]
    (x,) = v.violations
    assert (x.kind, x.player_id) == ("procedure", "D") and "L640-642" in x.citation


def test_a_banco_by_one_player_beats_a_banco_in_association_000_L642():
    """G (standing) calls banco with H's chips joined; I (standing) calls banco alone after him: I plays."""
    t = Table()
    c = t.coup().bank("A", "100.00").stake("G", "banco", "100.00", None).join("G", "H", "50.00", None)
    c.stake("I", "banco", "100.00", None).close().cards(*PUNTO_NATURAL_9)
    v = c.paid("G", "100.00").paid("I", "200.00").bank_paid("0.00").end()
    assert kinds(v) == []
    assert due(v) == {"G": "100.00", "I": "200.00", "bank": "0.00"}


def test_a_seated_players_stake_joined_by_another_is_prohibited_000_L650_004_L2236_L2238():
    """E (standing) joins 20 to B's stake, B seated at seat 2: prohibited_play citing the prohibition."""
    t = Table()
    c = t.coup().bank("A", "100.00").stake("B", "punto", "50.00", 2).join("B", "E", "20.00", None).close()
    v = c.cards(*PUNTO_NATURAL_9).paid("B", "100.00").bank_paid("0.00").end()
    (x,) = v.violations
    assert (x.kind, x.player_id, x.amount) == ("prohibited_play", "E", D("20.00"))
    assert "L650" in x.citation
    t = Table(AND)
    c = t.coup().bank("A", "100.00").stake("B", "punto", "50.00", 2).join("B", "E", "20.00", None).close()
    v = c.cards(*PUNTO_NATURAL_9).paid("B", "100.00").bank_paid("0.00").end()
    assert "L2236-2238" in v.violations[0].citation


def test_stakes_beyond_the_bank_are_returned_000_L594_L604():
    """Bank 100; B 70 (seat 2, the highest: he holds the cards), C 50 (seat 3), D 40 standing. B covers 70,
    C 30 of his 50, D nothing. Bank 8 wins: B gets 0, C his 20 not in play, D his 40; the bank 100 + 100 -
    5.00 cagnotte = 195.00."""
    t = Table()
    c = t.coup().bank("A", "100.00").stake("B", "punto", "70.00", 2).stake("C", "punto", "50.00", 3)
    c.stake("D", "punto", "40.00", None).close().cards(*BANK_NATURAL_8).cagnotte("5.00")
    v = c.paid("B", "0").paid("C", "20.00").paid("D", "40.00").bank_paid("195.00").end()
    assert kinds(v) == []
    assert due(v) == {"B": "0.00", "C": "20.00", "D": "40.00", "bank": "195.00"}
    assert [f.handle for f in v.figures] == [D("70.00"), D("30.00"), D("0"), D("100.00")]
    assert sum(f.win for f in v.figures) == D("5.00")


def test_one_stake_above_the_bank_is_above_the_maximum_and_its_excess_returned_000_L594():
    """Bank 100, B stakes 150: bet_above_maximum of 50. Punto 9 wins: 150 + 100 = 250 back."""
    t = Table()
    c = t.coup().bank("A", "100.00").stake("B", "punto", "150.00", 2).close().cards(*PUNTO_NATURAL_9)
    v = c.paid("B", "250.00").bank_paid("0.00").end()
    (x,) = v.violations
    assert (x.kind, x.amount) == ("bet_above_maximum", D("50.00"))


def test_the_bank_passes_after_a_loss_and_is_never_reduced_000_L572_L574_L582():
    """Coup 1: A's bank 100 loses to B's 60 (punto 9). Coup 2: A puts up a bank again: the bank should
    have passed. Coup 3: C's bank of 100 wins B's 80 (bank 8): cagnotte 4.00, C's bank stands at
    100 + 80 - 4.00 = 176.00. Coup 4: C goes on with 150: reduced. Coup 5: C gives up; D takes it in turn
    with 150: less than the 176.00 C gave up."""
    t = Table()
    c = t.coup().bank("A", "100.00").stake("B", "punto", "60.00", 2).close().cards(*PUNTO_NATURAL_9)
    assert kinds(c.paid("B", "120.00").bank_paid("0.00").end()) == []
    c = t.coup().bank("A", "100.00").stake("B", "punto", "60.00", 2).close().cards(*PUNTO_NATURAL_9)
    v = c.paid("B", "120.00").bank_paid("0.00").end()
    assert kinds(v) == ["procedure"] and "L572" in v.violations[0].citation
    c = t.coup().bank("C", "100.00", seat=3).stake("B", "punto", "80.00", 2).close().cards(*BANK_NATURAL_8)
    assert kinds(c.cagnotte("4.00").paid("B", "0").bank_paid("156.00").end()) == []
    assert t.engine.ctx.carry.to_dict()["bank"]["after"] == "176.00"
    c = t.coup().bank("C", "150.00", seat=3, taken="kept").stake("B", "punto", "20.00", 2).close()
    v = c.cards(*BANK_NATURAL_8).cagnotte("1.00").paid("B", "0").bank_paid("39.00").end()
    assert kinds(v) == ["procedure"] and "L582, L666" in v.violations[0].citation
    c = t.coup().bank("D", "150.00", seat=4).stake("B", "punto", "20.00", 2).close()
    v = c.cards(*BANK_NATURAL_8).cagnotte("1.00").paid("B", "0").bank_paid("39.00").end()
    assert kinds(v) == ["procedure"] and "L574" in v.violations[0].citation


def test_banco_seguido_of_the_player_who_made_banco_and_lost_comes_first_000_L652():
    """Coup 1: E (seat 5) makes banco on A's 100 and loses (bank 8): cagnotte 5.00. Coup 2: A goes on with
    195.00; B (seat 2, the banker's right) calls banco and E calls banco seguido: E plays; F calling banco
    seguido without the right is flagged."""
    t = Table()
    c = t.coup().bank("A", "100.00").stake("E", "banco", "100.00", 5).close().cards(*BANK_NATURAL_8)
    assert kinds(c.cagnotte("5.00").paid("E", "0").bank_paid("195.00").end()) == []
    c = t.coup().bank("A", "195.00", taken="kept").stake("B", "banco", "195.00", 2)
    c.stake("E", "banco_seguido", "195.00", 5).stake("F", "banco_seguido", "195.00", 6).close()
    v = c.cards(*PUNTO_NATURAL_9).paid("B", "195.00").paid("E", "390.00").paid("F", "195.00").bank_paid("0").end()
    assert due(v) == {"B": "195.00", "E": "390.00", "F": "195.00", "bank": "0.00"}
    (x,) = v.violations
    assert (x.kind, x.player_id) == ("procedure", "F") and "L652, L662" in x.citation


def test_banco_con_la_mesa_is_half_the_bank_and_the_caller_holds_the_cards_000_L644_L646():
    """Bank 200; C (seat 3) says banco con la mesa with 100; B (seat 2) stakes 60 and D (standing) 80:
    C covers 100, then B 60, then D 40 of his 80. Punto 9: C 200, B 120, D 40 + 80 = 120."""
    t = Table()
    c = t.coup().bank("A", "200.00").stake("C", "banco_con_la_mesa", "100.00", 3).stake("B", "punto", "60.00", 2)
    c.stake("D", "punto", "80.00", None).close().cards(*PUNTO_NATURAL_9).says("C", "punto", "stand")
    v = c.paid("C", "200.00").paid("B", "120.00").paid("D", "120.00").bank_paid("0").end()
    assert kinds(v) == []
    assert due(v) == {"C": "200.00", "B": "120.00", "D": "120.00", "bank": "0.00"}


# --------------------------------------------------------------------------- properties

CARDS = st.sampled_from(ALL_CARDS)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["punto", "banco", "banco_con_la_mesa", "banco_seguido"]),
                          st.integers(1, 400), st.one_of(st.none(), st.integers(1, 9)), st.booleans()),
                max_size=6),
       st.integers(10, 500), st.sampled_from(["punto", "banca", "tie", None]))
def test_every_euro_staked_comes_back_but_the_cagnotte(stakes, bank, won):
    """What the punters and the banker get back, plus the cagnotte, is what they staked (the bank in play
    counted as the banker's stake): the house keeps only the cagnotte (000 L598; 004 L2089-L2091)."""
    rs = load_ruleset(GAL)
    ss = [Stake(f"b{i}", f"p{i}", spot, D(a), seat, i, j) for i, (spot, a, seat, j) in enumerate(stakes)]
    cov = cover(ss, D(bank), 1, "p0")
    cagnotte = rs.round(cov.in_play * D("0.05")) if won == "banca" else D(0)
    back = sum((stake_return(s.amount, cov.covered.get(s.bet_id, D(0)), won, D(1))[1] for s in ss), D(0))
    _, bank_back = bank_return(cov.in_play, won, D(1), cagnotte)
    assert back + bank_back + cagnotte == sum((s.amount for s in ss), D(0)) + cov.in_play
    assert cov.in_play <= bank and all(cov.covered.get(s.bet_id, 0) <= s.amount for s in ss)


@settings(max_examples=300, deadline=None)
@given(st.lists(CARDS, min_size=6, max_size=6), st.booleans())
def test_the_bankers_draw_is_flagged_exactly_when_it_contradicts_a_t_or_p_cell_000_L672_L687(cards, draws):
    """The punto plays by the rule (draws on 0-4 and, here, on 5); the banker, bound by the tableau he asked
    for, draws or stands at random: a fault of the tableau exactly where the printed cell is «T» and he
    stood or «P» and he drew (on 0 the bacará rule speaks first); «O» and blank cells never."""
    rules = rules_of(load_ruleset(GAL))
    deal = [("punto", cards[0]), ("banca", cards[1]), ("punto", cards[2]), ("banca", cards[3])]
    p2 = (baccarat_value(cards[0]) + baccarat_value(cards[2])) % 10
    b2 = (baccarat_value(cards[1]) + baccarat_value(cards[3])) % 10
    if p2 >= 8 or b2 >= 8:
        return
    third = None
    if p2 <= 5:
        deal.append(("punto", cards[4]))
        third = baccarat_value(cards[4])
    if draws:
        deal.append(("banca", cards[5]))
    faults = judge_coup(rules, [(h, c, f"e{i}") for i, (h, c) in enumerate(deal)], tableau_bound=True,
                        punto_free=False)
    cell = rules.cell(b2, third)
    assert cell in ("T", "P", "O", "-")
    want = b2 not in rules.banca_draws and ((cell == "T" and not draws) or (cell == "P" and draws))
    assert any(f.rule == "banca_tableau" for f in faults) == want
    assert [f.rule for f in faults if f.rule != "banca_tableau"] == (["banker_rule"] if b2 == 0 and not draws else [])
    assert winner((p2, b2)) in ("punto", "banca", "tie")


# --------------------------------------------------------------------------- the offline replay


def test_a_coup_goes_through_the_offline_replay_with_its_settlements():
    """The stakes-beyond-the-bank coup above, written as JSONL and replayed: the same settlements."""
    t = Table()
    c = t.coup().bank("A", "100.00").stake("B", "punto", "70.00", 2).stake("C", "punto", "50.00", 3)
    c.stake("D", "punto", "40.00", None).close().cards(*BANK_NATURAL_8).cagnotte("5.00")
    c.paid("B", "0").paid("C", "20.00").paid("D", "40.00").bank_paid("195.00").end()
    lines = [dump_event(e).decode() for e in t.events]
    assert json.loads(lines[1])["type"] == "round_started"
    (item,) = [it for it in replay_lines(lines) if it.verdict is not None]
    v = item.verdict
    assert v.game == "chemin_de_fer" and kinds(v) == []
    assert due(v) == {"B": "0.00", "C": "20.00", "D": "40.00", "bank": "195.00"}
