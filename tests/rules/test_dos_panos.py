"""Bacará a dos paños coups through the engine, every figure worked by hand from the regulation
(Galicia 000_e1555249d49967be.txt «08. Bacará a dos paños» L743-L885; Andalucía 004_5c9c19b250457762.txt
I.1.8.B L2460-L2899; chemin de fer's rules «aplicables con carácter general», 000 L803, 004 L2648-L2652):

- one bank against two paños, cards dealt first paño, second paño, bank (000 L827; 004 L2725-L2727);
  values and «nine or nearest» as chemin de fer (000 L612); a tie is void on that paño;
- a stake wins its part in play or loses it (even money, ambiguity 1);
- «a caballo» plays half on each paño, the larger part on the first when it cannot be halved in units
  of the table minimum (000 L823-L825; 004 L2718-L2723); on the line of a player's zone, half (000 L823);
- banca limitada answers only for its amount, banca libre for every stake (000 L751; 004 L2475-L2484);
- the cagnotte, 2% (limitada) of the bank's net win over both paños, only when it is positive (000 L799,
  L829; 004 L2641-L2645, L2748-L2752), rounded down.

Tables: minimum 10, maximum 1000, bank limitada unless said. Seats 1-6 are the first paño's, 7-12 the
second's. The bank's settlement is bet ``<round>:bank``: its stake the bank in play on both paños.
"""

from __future__ import annotations

import json
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.replay import replay_lines
from pitwatch.rules.base import load_ruleset
from pitwatch.rules.chemin_de_fer.stakes import Stake
from pitwatch.rules.dos_panos.stakes import bank_net, bank_settlement, cagnotte, cover, split, stake_settlement
from pitwatch.schemas import events as E
from pitwatch.schemas.cards import ALL_CARDS
from pitwatch.schemas.events import dump_event

from tests.rules.cdf_coups import DP_AND, DP_GAL, Table, due, kinds

D = Decimal
BANK_8 = ("1:KS", "2:4H", "B:5D", "1:6D", "2:3C", "B:3S")       # paños 6 and 7, the bank 5+3 = 8: it wins both
SPLIT_7 = ("1:9S", "2:4H", "B:3D", "1:7D", "2:4C", "B:4S")      # paño 1 9+7 = 6, paño 2 4+4 = 8, the bank 7
TIES = ("1:KS", "2:QH", "B:JD", "1:7D", "2:7C", "B:7S")         # 7, 7 and 7: a tie on both paños


def test_the_bank_wins_both_panos_and_the_cagnotte_is_2_percent_of_its_net_000_L799_L829():
    """Bank 1000; B 100 on the first paño (seat 1), C 50 on the second (seat 7), D 70 «a caballo» (seat 2):
    40 on the first paño, 30 on the second (70 is 7 units of 10: the larger part to the first, L825). In
    play 140 + 80 = 220. The bank's natural 8 beats 6 and 7: it wins 220, cagnotte 2% = 4.40; the banker
    gets 220 + 220 - 4.40 = 435.60; the table's win is 4.40."""
    t = Table(DP_GAL)
    c = t.coup().bank("A", "1000.00", None).stake("B", "pano1", "100.00", 1).stake("C", "pano2", "50.00", 7)
    c.stake("D", "a_caballo", "70.00", 2).close().cards(*BANK_8).cagnotte("4.40")
    v = c.paid("B", "0").paid("C", "0").paid("D", "0").bank_paid("435.60").end()
    assert kinds(v) == []
    assert due(v) == {"B": "0.00", "C": "0.00", "D": "0.00", "bank": "435.60"}
    bank = v.checks[-1].expected
    assert (bank.player_id, bank.stake, bank.outcome) == ("A", D("220.00"), "win")
    assert sum(f.win for f in v.figures) == D("4.40")


def _split(b: str, c: str, cagnotte: str | None, paid_c: str, bank_back: str):
    """B stakes ``b`` on the first paño (seat 1), C ``c`` on the second (seat 7). Paño 1 has 6, paño 2 a
    natural 8, the bank 7: the bank wins the first paño and loses the second."""
    t = Table(DP_GAL)
    c_ = t.coup().bank("A", "1000.00", None).stake("B", "pano1", b, 1).stake("C", "pano2", c, 7).close()
    c_.cards(*SPLIT_7)
    if cagnotte is not None:
        c_.cagnotte(cagnotte)
    return c_.paid("B", "0").paid("C", paid_c).bank_paid(bank_back).end()


def test_the_bank_wins_one_pano_and_loses_less_on_the_other_the_cagnotte_on_the_net_000_L829():
    """B 200 on the first paño (lost to the bank), C 50 on the second (won): the bank's net is 200 - 50 =
    150, cagnotte 2% = 3.00. C gets 100; the banker his 250 in play back as 400 on the first paño, 0 on the
    second, less 3.00: 397.00. 450 staked (200 + 50 + the bank's 250 in play) = 397 + 100 + 3."""
    v = _split("200.00", "50.00", "3.00", "100.00", "397.00")
    assert kinds(v) == []
    assert due(v) == {"B": "0.00", "C": "100.00", "bank": "397.00"}
    assert sum(f.win for f in v.figures) == D("3.00")


def test_the_bank_wins_one_pano_and_loses_more_on_the_other_no_cagnotte_004_L2748_L2752():
    """B 50 on the first paño, C 200 on the second: the bank wins 50 and loses 200, net -150: no cagnotte
    («o su ganancia en uno sea superior a la pérdida en el otro»). C gets 400; the banker 100 (50 + 50)."""
    v = _split("50.00", "200.00", None, "400.00", "100.00")
    assert kinds(v) == []
    assert due(v) == {"B": "0.00", "C": "400.00", "bank": "100.00"}
    assert v.checks[-1].expected.outcome == "lose"
    assert sum(f.win for f in v.figures) == 0


def test_a_cagnotte_taken_when_the_bank_lost_on_the_net_is_a_rake_discrepancy_000_L829():
    """The coup above with 3.00 put in the cagnotte out of the banker's 100: 3.00 too much."""
    v = _split("50.00", "200.00", "3.00", "400.00", "97.00")
    assert kinds(v) == ["payout_discrepancy", "rake_discrepancy"]
    rake = next(x for x in v.violations if x.kind == "rake_discrepancy")
    assert rake.amount == D("3.00") and "L829" in rake.citation


def test_a_wrong_cagnotte_is_a_rake_discrepancy_000_L799():
    """The bank-wins-both coup with 4.50 in the cagnotte and 435.50 to the banker: 0.10 too much, 0.10 short."""
    t = Table(DP_GAL)
    c = t.coup().bank("A", "1000.00", None).stake("B", "pano1", "100.00", 1).stake("C", "pano2", "50.00", 7)
    c.stake("D", "a_caballo", "70.00", 2).close().cards(*BANK_8).cagnotte("4.50")
    v = c.paid("B", "0").paid("C", "0").paid("D", "0").bank_paid("435.50").end()
    assert kinds(v) == ["payout_discrepancy", "rake_discrepancy"]
    rake = next(x for x in v.violations if x.kind == "rake_discrepancy")
    pay = next(x for x in v.violations if x.kind == "payout_discrepancy")
    assert rake.amount == D("0.10") and pay.amount == D("-0.10") and pay.player_id == "A"


def test_a_winning_stake_under_paid_is_a_payout_discrepancy_000_L829():
    """C's 50 on the second paño won: 100 due, 90 handed: under-paid by 10."""
    v = _split("200.00", "50.00", "3.00", "90.00", "397.00")
    (x,) = v.violations
    assert (x.kind, x.player_id, x.amount) == ("payout_discrepancy", "C", D("-10.00"))


def test_a_caballo_with_an_odd_number_of_units_plays_the_larger_part_on_the_first_pano_000_L823_L825():
    """D 70 «a caballo» (seat 2): 40 on the first paño, 30 on the second. E 45 on the line of the second
    paño's zone (seat 8): half, 22.50, plays. Paño 1 has a natural 9, paño 2 6, the bank 7: D wins 40 and
    loses 30: he gets 80. E loses 22.50: 22.50 back. The bank loses 40 and wins 52.50: net 12.50,
    cagnotte 0.25; the banker gets 52.50 x 2 - 0.25 = 104.75. 115 + 92.50 in play = 80 + 22.50 + 104.75 + 0.25."""
    t = Table(DP_GAL)
    c = t.coup().bank("A", "1000.00", None).stake("D", "a_caballo", "70.00", 2).stake("E", "pano2_raya", "45.00", 8)
    c.close().cards("1:9H", "2:2S", "B:3H", "1:KD", "2:4C", "B:4D").says("E", "pano2", "stand").cagnotte("0.25")
    v = c.paid("D", "80.00").paid("E", "22.50").bank_paid("104.75").end()
    assert kinds(v) == []
    assert due(v) == {"D": "80.00", "E": "22.50", "bank": "104.75"}
    assert v.checks[-1].expected.stake == D("92.50")
    assert split(D("60"), D("10")) == (D("30"), D("30")) and split(D("70"), D("10")) == (D("40"), D("30"))


def _beyond(options: dict[str, str] | None, c_back: str, f_back: str):
    """Bank 300; B 200 on the first paño (seat 1), C 150 on the second (seat 7), F 100 on the first,
    standing. Naturals 9 and 8 on the paños, the bank 2: both paños win."""
    t = Table(DP_GAL, options=options)
    c = t.coup().bank("A", "300.00", None).stake("B", "pano1", "200.00", 1).stake("C", "pano2", "150.00", 7)
    c.stake("F", "pano1", "100.00", None).close().cards("1:4S", "2:3H", "B:2D", "1:5D", "2:5C", "B:KS")
    return c.paid("B", "400.00").paid("C", c_back).paid("F", f_back).bank_paid("0").end()


def test_a_limited_bank_answers_only_for_its_amount_000_L751_004_L2475_L2477():
    """The bank of 300 covers B's 200 and 100 of C's 150 (seat order, L775); F's 100 is not in play. Both
    paños win: B gets 400, C 50 + 200 = 250, F his 100 back (refused); the banker loses his 300."""
    v = _beyond(None, "250.00", "100.00")
    assert kinds(v) == []
    assert due(v) == {"B": "400.00", "C": "250.00", "F": "100.00", "bank": "0.00"}
    assert {c.expected.bet_id.rsplit("-", 1)[-1]: c.expected.outcome for c in v.checks}["F"] == "refused"


def test_a_free_bank_answers_for_every_stake_000_L751():
    """The same coup in banca libre: every stake plays, B gets 400, C 300, F 200; the banker loses 450 on a
    bank of 300 («su titular responderá frente a todas las posturas sin límite»)."""
    v = _beyond({"bank": "libre"}, "300.00", "200.00")
    assert kinds(v) == []
    assert due(v) == {"B": "400.00", "C": "300.00", "F": "200.00", "bank": "0.00"}
    assert v.checks[-1].expected.stake == D("450.00")


def _drawn(ruleset: str, second_third: str, bank_third: str, cagnotte: str | None, b: str, c: str, bank: str):
    """Paño 1 K+7 = 7 stands; paño 2 2+2 = 4 draws; the bank 3+3 = 6, who asked for the tableau, draws."""
    t = Table(ruleset)
    co = t.coup().bank("A", "1000.00", None).stake("B", "pano1", "100.00", 1).stake("C", "pano2", "100.00", 7)
    co.close().tableau("A").cards("1:KS", "2:2H", "B:3D", "1:7D", "2:2C", "B:3S").says("B", "pano1", "stand")
    co.says("C", "pano2", "draw").cards(f"2:{second_third}").says("A", "banca", "draw").cards(f"B:{bank_third}")
    if cagnotte is not None:
        co.cagnotte(cagnotte)
    return co.paid("B", b).paid("C", c).bank_paid(bank).end()


def test_a_draw_against_the_tableau_where_it_says_the_same_for_both_panos_is_flagged_000_L809_L859():
    """Row 6 of the tableau: «P» against a paño that stood and «P» against a third card 8 (L680): the same
    for both paños, stand. The banker draws a 9 (6 + 9 = 5): an illegal_decision of A citing L809 and
    L859. Paño 1's 7 beats 5 (B gets 200), the bank's 5 beats paño 2's 2 + 2 + 8 = 2: net 0, no cagnotte;
    the banker gets his 200 in play back (0 on the first paño, 200 on the second)."""
    v = _drawn(DP_GAL, "8S", "9H", None, "200.00", "0", "200.00")
    (x,) = v.violations
    assert (x.kind, x.player_id) == ("illegal_decision", "A")
    assert "L809, L859" in x.citation and "for both paños" in x.message


def test_a_free_draw_where_the_tableau_differs_between_panos_is_not_flagged_000_L809():
    """Paño 2 draws a 6: row 6 says «T» against it (L680) and «P» against the first paño: the banker is
    free. He draws a 2: 8 beats 7 and 4 + 6 = 0: the bank wins 200, cagnotte 4.00, the banker gets 396."""
    v = _drawn(DP_GAL, "6S", "2D", "4.00", "0", "0", "396.00")
    assert kinds(v) == []


def test_andalucia_prints_no_tableau_the_same_draw_passes_004_L2665_L2670():
    v = _drawn(DP_AND, "8S", "9H", None, "200.00", "0", "200.00")
    assert kinds(v) == []


def test_a_natural_8_beats_a_three_card_9_000_L811():
    """Paño 1 4+4 = 8 (natural); paño 2 K+3 = 3 draws a 5: 8; the bank 2+3 = 5 draws a 4: 9. The first
    paño's natural 8 beats the bank's three-card 9 (L811); the bank's 9 beats paño 2's 8. B's 100 gets 200,
    C's 100 is lost; net 0: the banker gets his 200 back."""
    t = Table(DP_GAL)
    c = t.coup().bank("A", "1000.00", None).stake("B", "pano1", "100.00", 1).stake("C", "pano2", "100.00", 7)
    c.close().cards("1:4H", "2:KS", "B:2D", "1:4C", "2:3D", "B:3S", "2:5H", "B:4D")
    v = c.paid("B", "200.00").paid("C", "0").bank_paid("200.00").end()
    assert kinds(v) == []
    assert due(v) == {"B": "200.00", "C": "0.00", "bank": "200.00"}


def test_the_holder_of_a_pano_must_draw_on_4_000_L807():
    """Paño 2's holder C stands on 2 + 2 = 4: an illegal_decision of C citing the punto rule. The bank's
    3 + 3 = 6 stands: paño 1's 7 wins (B gets 200), paño 2's 4 loses; the banker gets 0 + 200."""
    t = Table(DP_GAL)
    c = t.coup().bank("A", "1000.00", None).stake("B", "pano1", "100.00", 1).stake("C", "pano2", "100.00", 7)
    c.close().cards("1:KS", "2:2H", "B:3D", "1:7D", "2:2C", "B:3S").says("C", "pano2", "stand")
    v = c.paid("B", "200.00").paid("C", "0").bank_paid("200.00").end()
    (x,) = v.violations
    assert (x.kind, x.player_id) == ("illegal_decision", "C") and "L807" in x.citation


def _banco_coup(t: Table, cards=TIES, paid: str = "500.00", bank: str = "500.00"):
    c = t.coup().bank("A", "500.00", None).stake("B", "banco", "500.00", None).close().cards(*cards)
    return c.paid("B", paid).bank_paid(bank).end()


def test_a_banco_is_repeated_after_a_juego_nulo_at_most_twice_000_L813():
    """A shoe begins; B makes banco of the whole bank, 500 (250 on each paño). 7 against 7 on both paños:
    neither paño won or lost, juego nulo: B's 500 and the banker's 500 back. B repeats the banco twice
    more on juego nulo (allowed, «hasta dos veces más»); a fourth banco is flagged, citing L813."""
    t = Table(DP_GAL)
    t.apply(E.ShoeLoaded, shoe_id="S1", decks=6)
    for _ in range(3):
        v = _banco_coup(t)
        assert kinds(v) == []
        assert due(v) == {"B": "500.00", "bank": "500.00"}
    v = _banco_coup(t)
    (x,) = v.violations
    assert (x.kind, x.player_id) == ("procedure", "B") and "juego nulo" in x.message and "L813" in x.citation


def test_a_banco_after_a_coup_that_was_not_nulo_is_flagged_004_L2675_L2677():
    """B's banco loses the first coup of the shoe (the bank's natural 8): 500 won, cagnotte 10.00, the
    banker gets 990.00 and goes on with 990. A banco in the second coup is no start of the partida."""
    t = Table(DP_AND)
    t.apply(E.ShoeLoaded, shoe_id="S1", decks=6)
    c = t.coup().bank("A", "500.00", None).stake("B", "banco", "500.00", None).close().cards(*BANK_8)
    v = c.cagnotte("10.00").paid("B", "0").bank_paid("990.00").end()
    assert kinds(v) == []
    c = t.coup().bank("A", "990.00", None, taken="kept").stake("B", "banco", "990.00", None).close().cards(*TIES)
    v = c.paid("B", "990.00").bank_paid("990.00").end()
    (x,) = v.violations
    assert (x.kind, x.player_id) == ("procedure", "B") and "L2675-2681" in x.citation


def test_chips_of_two_punters_in_one_stake_are_prohibited_association_000_L815_004_L2686():
    """G, standing, joins 20 to F's stake (standing too): forbidden at dos paños to every punto."""
    for rs, line in ((DP_GAL, "L815"), (DP_AND, "L2686")):
        t = Table(rs)
        c = t.coup().bank("A", "1000.00", None).stake("F", "pano1", "60.00", None).join("F", "G", "20.00", None)
        v = c.close().cards(*BANK_8).cagnotte("1.20").paid("F", "0").bank_paid("118.80").end()
        (x,) = v.violations
        assert (x.kind, x.player_id, x.amount) == ("prohibited_play", "G", D("20.00")) and line in x.citation


def test_cards_lost_unseen_void_the_coup_for_that_pano_000_L853():
    """The second paño's cards fall into the cesta unseen: the coup is void for it. B's 100 on the first
    paño is lost to the bank's 8 (cagnotte 2.00), C's 50 on the second comes back; the banker gets 100
    + 100 - 2 on the first paño and his 50 on the second: 248.00."""
    t = Table(DP_GAL)
    c = t.coup().bank("A", "1000.00", None).stake("B", "pano1", "100.00", 1).stake("C", "pano2", "50.00", 7)
    c.close().cards("1:KS", "2:4H", "B:5D", "1:6D").lost("2").cards("B:3S").cagnotte("2.00")
    v = c.paid("B", "0").paid("C", "50.00").bank_paid("248.00").end()
    assert kinds(v) == []
    assert due(v) == {"B": "0.00", "C": "50.00", "bank": "248.00"}


def test_the_bank_goes_to_the_highest_bidder_at_the_auction_000_L783():
    """Bids A 900 and C 1000: the bank adjudicated to A for 900 is flagged; to C for 1000, not."""
    t = Table(DP_GAL)
    c = t.coup().auction("A", "900.00", "A:900.00", "C:1000.00").bank("A", "900.00", None, taken="auction")
    v = c.stake("B", "pano1", "100.00", 1).close().cards(*BANK_8).cagnotte("2.00").paid("B", "0").bank_paid("198.00").end()
    (x,) = v.violations
    assert (x.kind, x.player_id) == ("procedure", "A") and "L783" in x.citation
    t = Table(DP_GAL)
    c = t.coup().auction("C", "1000.00", "A:900.00", "C:1000.00").bank("C", "1000.00", None, taken="auction")
    v = c.stake("B", "pano1", "100.00", 1).close().cards(*BANK_8).cagnotte("2.00").paid("B", "0").bank_paid("198.00").end()
    assert kinds(v) == []


def test_a_bank_given_up_is_offered_at_its_initial_amount_and_a_winner_who_left_may_not_return_000_L787_L789():
    """A's bank of 500 wins 100 (cagnotte 2.00): it stands at 598. A leaves; G takes it in turn with 400
    (the initial amount is 500: flagged, L789); then A, who left with winnings, takes it again in the same
    shoe, at G's initial 400 (flagged, L787)."""
    t = Table(DP_GAL)
    c = t.coup().bank("A", "500.00", None).stake("B", "pano1", "100.00", 1).close().cards(*BANK_8).cagnotte("2.00")
    assert kinds(c.paid("B", "0").bank_paid("198.00").end()) == []
    c = t.coup().bank("G", "400.00", None).stake("B", "pano1", "100.00", 1).close().cards(*TIES)
    v = c.paid("B", "100.00").bank_paid("100.00").end()
    (x,) = v.violations
    assert (x.kind, x.player_id) == ("procedure", "G") and "L789" in x.citation
    c = t.coup().bank("A", "400.00", None).stake("B", "pano1", "100.00", 1).close().cards(*TIES)
    v = c.paid("B", "100.00").bank_paid("100.00").end()
    (x,) = v.violations
    assert (x.kind, x.player_id) == ("procedure", "A") and "L787" in x.citation


def test_a_winner_who_left_may_hold_the_bank_again_in_the_next_shoe_000_L787():
    """A's bank of 500 wins 100 (cagnotte 2.00): it stands at 598 and A gives it up. A new shoe is loaded
    before the next bank: A left in the shoe before («durante el mismo sabot»), so G taking the bank at the
    auction and A taking it back in turn at G's initial 400 in the new shoe are not flagged; within the
    shoe where he left, he would be (the test above)."""
    t = Table(DP_GAL)
    t.apply(E.ShoeLoaded, shoe_id="S1", decks=6)
    c = t.coup().bank("A", "500.00", None).stake("B", "pano1", "100.00", 1).close().cards(*BANK_8).cagnotte("2.00")
    assert kinds(c.paid("B", "0").bank_paid("198.00").end()) == []
    t.apply(E.ShoeLoaded, shoe_id="S2", decks=6)
    c = t.coup().auction("G", "400.00", "G:400.00").bank("G", "400.00", None, taken="auction")
    assert kinds(c.stake("B", "pano1", "100.00", 1).close().cards(*TIES).paid("B", "100.00").bank_paid("100.00").end()) == []
    c = t.coup().bank("A", "400.00", None).stake("B", "pano1", "100.00", 1).close().cards(*TIES)
    assert kinds(c.paid("B", "100.00").bank_paid("100.00").end()) == []


# --------------------------------------------------------------------------- properties

SPOTS = st.sampled_from(["pano1", "pano2", "a_caballo", "pano1_raya", "pano2_raya", "banco"])
RESULT = st.sampled_from(["punto", "banca", "tie", None])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(SPOTS, st.integers(10, 900), st.one_of(st.none(), st.integers(1, 12))), max_size=8),
       st.one_of(st.none(), st.integers(10, 2000)), RESULT, RESULT, st.sampled_from(["0.02", "0.0125"]))
def test_every_euro_staked_comes_back_but_the_cagnotte_000_L829(stakes, bank, won1, won2, rate):
    """What the punters and the banker get back, plus the cagnotte, is what they staked (the bank in play
    counted as the banker's stake), in banca limitada (a bank) or libre (``None``); the cagnotte is zero
    whenever the bank's net is not positive (000 L829; 004 L2748-L2752)."""
    ss = [Stake(f"b{i}", f"p{i}", spot, D(a) / 2, seat, i) for i, (spot, a, seat) in enumerate(stakes)]
    cov = cover(ss, None if bank is None else D(bank), D(10), D("0.5"))
    won = {"pano1": won1, "pano2": won2}
    net = bank_net(cov, won, D(1))
    cag = cagnotte(net, D(rate), load_ruleset(DP_GAL).rounding)
    back = sum((stake_settlement(s, cov, won, D(1))[1] for s in ss), D(0))
    _, bank_back = bank_settlement(cov, won, D(1), cag)
    in_play = sum(cov.in_play.values(), D(0))
    assert back + bank_back + cag == sum((s.amount for s in ss), D(0)) + in_play
    assert bank is None or in_play <= bank
    assert all(cov.played(s.bet_id) <= s.amount for s in ss)
    assert (cag == 0) if net <= 0 else (0 <= cag <= net * D(rate) and bank_back >= in_play)


def _total(cards: list[str]) -> int:
    return sum(min(10, "A23456789TJQK".index(c[0]) + 1) % 10 for c in cards) % 10


def _paño_wins(own: list[str], bank: list[str]) -> int:
    """+1 the paño wins, -1 the bank, 0 a tie: nine or nearest, a two-card 8 or 9 beating a three-card 8
    or 9 (000 L612, L811), written here apart from the engine."""
    p, b = _total(own), _total(bank)
    if len(own) == 2 and p >= 8 and len(bank) == 3 and b >= 8:
        return 1
    return (p > b) - (p < b)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(sorted(ALL_CARDS)), min_size=9, max_size=9), st.booleans(), st.booleans(),
       st.integers(1, 50), st.integers(1, 50), st.integers(1, 50))
def test_through_the_engine_the_table_wins_exactly_the_cagnotte_on_the_banks_net_000_L799_L829(
        cards, fives_draw, bank_draws, x, y, z):
    """A coup dealt by the rules (paños draw on 0-4, stand on 6-7, choose on 5; the banker free but on 0),
    B 10x on the first paño, C 10y on the second, D 10z «a caballo»: the table's win (what was staked and
    not handed back) is 2% of the bank's net win, rounded down, and 0 when that net is not positive."""
    t = Table(DP_GAL, max_bet="1000")
    deal = dict(zip(("1", "2", "B"), ([cards[0], cards[3]], [cards[1], cards[4]], [cards[2], cards[5]])))
    order = ["1:" + cards[0], "2:" + cards[1], "B:" + cards[2], "1:" + cards[3], "2:" + cards[4], "B:" + cards[5]]
    if _total(deal["B"]) < 8:
        active = [h for h in ("1", "2") if _total(deal[h]) < 8]
        for i, h in enumerate(active):
            if _total(deal[h]) <= 4 or (_total(deal[h]) == 5 and fives_draw):
                deal[h].append(cards[6 + i])
                order.append(f"{h}:{cards[6 + i]}")
        if active and (bank_draws or _total(deal["B"]) == 0):
            deal["B"].append(cards[8])
            order.append(f"B:{cards[8]}")
    first = -(-z // 2) * 10
    c = t.coup().bank("A", "2000.00", None).stake("B", "pano1", f"{10 * x}", 1).stake("C", "pano2", f"{10 * y}", 7)
    v = c.stake("D", "a_caballo", f"{10 * z}", 2).close().cards(*order).end()
    net = -(10 * x + first) * _paño_wins(deal["1"], deal["B"]) - (10 * y + 10 * z - first) * _paño_wins(deal["2"], deal["B"])
    want = (D(net) * D("0.02")).quantize(D("0.01"), rounding="ROUND_DOWN") if net > 0 else D(0)
    assert sum((ch.expected.stake - ch.expected.returned for ch in v.checks), D(0)) == want
    assert not [x for x in v.violations if x.kind in ("illegal_decision", "dealer_misdraw")]


# --------------------------------------------------------------------------- the offline replay


def test_a_coup_goes_through_the_offline_replay_with_its_settlements():
    """The a caballo coup above, written as JSONL and replayed: the same settlements."""
    t = Table(DP_GAL)
    c = t.coup().bank("A", "1000.00", None).stake("D", "a_caballo", "70.00", 2).stake("E", "pano2_raya", "45.00", 8)
    c.close().cards("1:9H", "2:2S", "B:3H", "1:KD", "2:4C", "B:4D").cagnotte("0.25")
    c.paid("D", "80.00").paid("E", "22.50").bank_paid("104.75").end()
    lines = [dump_event(e).decode() for e in t.events]
    assert json.loads(lines[1])["game"] == "bacara_dos_panos"
    (item,) = [it for it in replay_lines(lines) if it.verdict is not None]
    v = item.verdict
    assert v.game == "bacara_dos_panos" and kinds(v) == []
    assert due(v) == {"D": "80.00", "E": "22.50", "bank": "104.75"}


def test_the_theoretical_win_is_the_cagnotte_on_the_net_000_L799_L829():
    """Per euro of handle: rate x b x (b + t) / 2 with b = 0.4586, t = 0.0952: 2% x 0.4586 x 0.5538 / 2 =
    0.25397268% in banca limitada, 1.25% x the same = 0.15873293% in banca libre."""
    from fractions import Fraction

    from pitwatch.rules.edges import edge_table, house_edge
    rs = load_ruleset(DP_GAL)
    assert house_edge(rs, "a_caballo") == Fraction(25397268, 10**10)
    assert house_edge(rs, "bank", options={"bank": "libre"}) == Fraction(125, 10**4) * Fraction(4586 * 5538, 10**8) / 2
    assert [line.spot for line in edge_table(rs)] == ["pano1"]
