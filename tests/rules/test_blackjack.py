"""Unit tests of the blackjack rules (Galicia 000 L235-L329, Andalucía 004 L570-L901).

Each payout/limit test names the rule's citation in its name or docstring; amounts are exact.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from pitwatch.rules.base import ViolationKind as VK
from pitwatch.rules.blackjack import dealer_draw_error, hand_total, parse_hand_id

from tests.rules.test_blackjack_helpers import BJScript, kinds

D = Decimal
GAL, AND = "blackjack.galicia", "blackjack.andalucia"
BOTH = pytest.mark.parametrize("ruleset", [GAL, AND])


def two_box(ruleset, c1, c2, dealer_first, stake1="10", stake2="10", **kw):
    s = BJScript(ruleset, **kw)
    ids = s.simple({1: stake1, 2: stake2}, {"1": c1, "2": c2}, dealer_first)
    return s, ids


# --------------------------------------------------------------------------- helpers


def test_hand_total_soft_and_hard():
    """Ace one or eleven «según convenga» (000 L245; 004 L586-L589)."""
    assert hand_total(["AS", "6H"]) == (17, True)
    assert hand_total(["AS", "6H", "TD"]) == (17, False)
    assert hand_total(["AS", "AH", "9D"]) == (21, True)
    assert hand_total(["KS", "QH", "2D"]) == (22, False)


def test_parse_hand_id():
    assert parse_hand_id("3") == (3, 1)
    assert parse_hand_id("3-2") == (3, 2)
    assert parse_hand_id("dealer") is None and parse_hand_id("3-1") is None and parse_hand_id("0") is None


def test_dealer_draw_error_stands_on_soft_17():
    """Dealer stands on every 17, soft included (000 L285; 004 L717-L724)."""
    assert dealer_draw_error(["AS", "6H"], must_complete=True) is None
    assert dealer_draw_error(["AS", "6H", "2C"], must_complete=True) == "dealer drew 2C on soft 17"
    assert dealer_draw_error(["TS", "6H"], must_complete=True).startswith("dealer stood on 16")
    assert dealer_draw_error(["TS", "6H", "5C"], must_complete=True) is None


# --------------------------------------------------------------------------- payouts


@BOTH
def test_win_pays_even_money_000_L293_004_L742(ruleset):
    """«Los pagos se harán a la par» (000 L293; 004 L742-L743): 20 vs 19 returns 2x."""
    s, ids = two_box(ruleset, ["TS", "QH"], ["9S", "8H"], "9D")
    s.decide("stand", 1).decide("stand", 2).deal("dealer", "KC")
    exp = s.expected()
    assert (exp[ids[1]].outcome, exp[ids[1]].returned, exp[ids[1]].stake) == ("win", D("20.00"), D("10.00"))
    assert (exp[ids[2]].outcome, exp[ids[2]].returned) == ("lose", D("0.00"))
    v = s.end()
    assert kinds(v) == []


@BOTH
def test_equal_totals_push_000_L291_004_L738(ruleset):
    """Equal totals are «nulas»: stake returned (000 L291; 004 L738-L740)."""
    s, ids = two_box(ruleset, ["TS", "9H"], ["9S", "KH"], "9D")
    s.deal("dealer", "TC")
    exp = s.expected()
    assert exp[ids[1]].outcome == "push" and exp[ids[1]].returned == D("10.00")


@BOTH
def test_bust_loses_even_when_dealer_busts_000_L281_L289(ruleset):
    """A hand over 21 loses at once (000 L281; 004 L709-L713); dealer bust pays the hands still on
    the layout (000 L289; 004 L733-L735)."""
    s, ids = two_box(ruleset, ["TS", "6H"], ["9S", "3H"], "6D")
    s.decide("hit", 1).deal(1, "KD")
    s.decide("stand", 2).deal("dealer", "TC", "9C")
    exp = s.expected()
    assert (exp[ids[1]].outcome, exp[ids[1]].returned) == ("lose", D("0.00"))
    assert (exp[ids[2]].outcome, exp[ids[2]].returned) == ("win", D("20.00"))
    assert kinds(s.end()) == []


@BOTH
def test_blackjack_pays_3_to_2_000_L293_004_L743(ruleset):
    """Black-jack «en razón de tres por dos» (000 L293; 004 L743-L745): 20 returns 50."""
    s, ids = two_box(ruleset, ["AS", "KH"], ["9S", "8H"], "9D", stake1="20")
    s.decide("stand", 2).deal("dealer", "8C")
    e = s.expected()[ids[1]]
    assert (e.outcome, e.returned) == ("blackjack", D("50.00"))
    assert "L293" in e.citation or "L743" in e.citation


def test_blackjack_odd_cent_rounds_down_000_L293():
    """3:2 of 10.15 is 15.225: the ruleset rounds derived amounts down -> 25.37 (000 L293)."""
    s, ids = two_box(GAL, ["AS", "KH"], ["9S", "8H"], "9D", stake1="10.15")
    s.decide("stand", 2).deal("dealer", "8C")
    assert s.expected()[ids[1]].returned == D("25.37")


@BOTH
def test_blackjack_beats_multicard_21_000_L293_004_L745(ruleset):
    """«El black-jack ganará siempre a la puntuación de 21 obtenida con más de dos cartas»."""
    s, ids = two_box(ruleset, ["AS", "TH"], ["9S", "8H"], "5D")
    s.decide("stand", 2).deal("dealer", "6C", "KC")
    assert hand_total(s.game_round.dealer) == (21, False)
    e = s.expected()[ids[1]]
    assert (e.outcome, e.returned) == ("blackjack", D("25.00"))


@BOTH
def test_blackjack_vs_dealer_blackjack_is_push(ruleset):
    """Ambiguity (000 L291/L293; 004 L738-L745): player BJ against dealer BJ pushes."""
    s, ids = two_box(ruleset, ["AS", "TH"], ["9S", "8H"], "AD")
    s.decide("stand", 2).deal("dealer", "KC")
    e = s.expected()
    assert (e[ids[1]].outcome, e[ids[1]].returned) == ("push", D("10.00"))
    assert e[ids[2]].returned == D("0.00")


@BOTH
def test_dealer_blackjack_beats_multicard_21_and_takes_doubles_no_hole_card(ruleset):
    """No hole card (000 L277-L283, L297; 004 L695-L702, L761-L763): a dealer blackjack collects the
    doubled stake too (ambiguity: European no-hole-card, all stakes)."""
    s, ids = two_box(ruleset, ["5S", "6H"], ["9S", "2H"], "TD")
    s.decide("double", 1).deal(1, "TC")           # 21 with three cards, doubled
    s.decide("hit", 2).deal(2, "KH")              # 21 with three cards
    s.deal("dealer", "AC")
    e = s.expected()
    assert (e[ids[1]].stake, e[ids[1]].returned) == (D("20.00"), D("0.00"))
    assert e[ids[2]].returned == D("0.00")
    assert kinds(s.end()) == []


@BOTH
def test_split_aces_21_is_not_blackjack_000_L305_004_L795(ruleset):
    """Split aces making 21 are paid once the stake, not 3:2 (000 L305; 004 L795-L798); each ace
    takes one card (000 L303; 004 L791-L793)."""
    s, ids = two_box(ruleset, ["AS", "AH"], ["9S", "8H"], "9D")
    s.decide("split", 1).deal(1, "KD").deal("1-2", "5C")
    s.decide("stand", 2).deal("dealer", "9C")  # dealer 18
    e = s.expected()[ids[1]]
    assert e.stake == D("20.00")
    assert e.returned == D("20.00")       # 21 wins 1:1 (20), 16 loses (0)
    assert e.outcome == "split"
    assert "L305" in e.citation or "L795" in e.citation
    assert kinds(s.end()) == []


@BOTH
def test_split_tens_21_paid_even_money_and_resplit(ruleset):
    """Split tens then re-split (000 L299-L301; 004 L774-L789): hands 1, 1-2, 1-3; a 21 with the
    second card pays 1:1 (000 L305)."""
    s, ids = two_box(ruleset, ["KS", "TH"], ["9S", "8H"], "7D")
    s.decide("split", 1).deal(1, "QD")
    s.decide("split", 1).deal(1, "AC")         # 1: K A = 21 (not BJ)
    s.decide("stand", 1).deal("1-2", "9D").decide("stand", "1-2")
    s.deal("1-3", "5S").decide("hit", "1-3").deal("1-3", "4S").decide("stand", "1-3")
    s.decide("stand", 2).deal("dealer", "TC")  # dealer 17
    gr = s.game_round
    assert [h.hand_id for h in gr.box_hands(1)] == ["1", "1-2", "1-3"]
    assert gr.hands["1"].cards == ["KS", "AC"] and gr.hands["1-2"].cards == ["TH", "9D"]
    assert gr.hands["1-3"].cards == ["QD", "5S", "4S"]
    e = s.expected()[ids[1]]
    assert (e.stake, e.returned) == (D("30.00"), D("60.00"))  # 21, 19, 19 all beat 17
    assert kinds(s.end()) == []


@BOTH
def test_insurance_pays_2_to_1_000_L297_004_L761(ruleset):
    """Insurance up to half the stake pays «dos por uno» on a dealer blackjack (000 L295-L297;
    004 L748-L765); settled separately as '<bet>/insurance'."""
    s, ids = two_box(ruleset, ["TS", "9H"], ["9S", "8H"], "AD")
    s.insure(ids[1], "5")
    s.decide("stand", 1).decide("stand", 2).deal("dealer", "KC")
    e = s.expected()
    ins = e[ids[1] + "/insurance"]
    assert (ins.stake, ins.outcome, ins.returned) == (D("5"), "win", D("15.00"))
    assert e[ids[1]].returned == D("0.00")
    assert kinds(s.end()) == []


@BOTH
def test_insurance_lost_without_dealer_blackjack(ruleset):
    """«Si no hubiese realizado black-jack, recogerá los seguros» (000 L297; 004 L763-L765)."""
    s, ids = two_box(ruleset, ["TS", "9H"], ["9S", "8H"], "AD")
    s.insure(ids[1], "4.50")
    s.decide("stand", 1).decide("stand", 2).deal("dealer", "6C")  # soft 17 stands
    e = s.expected()
    assert e[ids[1] + "/insurance"].returned == D("0.00")
    assert e[ids[1]].returned == D("20.00")
    assert kinds(s.end()) == []


def test_surrender_returns_half_000_L311():
    """«Retiro»: the player loses half the stake (000 L311-L313); 10.15 returns 5.07 (down)."""
    s, ids = two_box(GAL, ["TS", "6H"], ["9S", "8H"], "TD", stake1="10.15")
    s.decide("surrender", 1).decide("stand", 2).deal("dealer", "7C")
    e = s.expected()[ids[1]]
    assert (e.outcome, e.returned, e.stake) == ("surrender", D("5.07"), D("10.15"))
    assert kinds(s.end()) == []


def test_surrender_does_not_exist_in_andalucia_004_I13_V1():
    """Andalucía has no «retiro» (004 L692-L848): surrender is an illegal decision."""
    s, ids = two_box(AND, ["TS", "6H"], ["9S", "8H"], "TD")
    s.decide("surrender", 1).decide("stand", 2).deal("dealer", "7C")
    assert kinds(s.end()) == [VK.ILLEGAL_DECISION]


def test_surrender_against_ace_is_illegal_000_L313():
    """Surrender only «siempre que la primera carta del croupier no sea un as» (000 L313)."""
    s, ids = two_box(GAL, ["TS", "6H"], ["9S", "8H"], "AD")
    s.decide("surrender", 1).decide("stand", 2).deal("dealer", "7C")
    assert kinds(s.end()) == [VK.ILLEGAL_DECISION]


def test_surrender_after_first_third_card_is_illegal_000_L313():
    """«antes de dar la tercera carta a la primera persona jugadora que la solicite» (000 L313)."""
    s = BJScript(GAL)
    s.simple({1: "10", 2: "10"}, {"1": ["5S", "4H"], "2": ["TS", "6H"]}, "TD")
    s.decide("hit", 1).deal(1, "8C").decide("stand", 1)
    s.decide("surrender", 2).deal("dealer", "7C")
    assert kinds(s.end()) == [VK.ILLEGAL_DECISION]


@BOTH
def test_double_on_11_pays_on_doubled_stake_000_L307_004_L800(ruleset):
    """Double on 11: one card, doubled stake settled 1:1 (000 L307-L309; 004 L800-L805)."""
    s, ids = two_box(ruleset, ["5S", "6H"], ["9S", "8H"], "9D")
    s.decide("double", 1).deal(1, "9C")
    s.decide("stand", 2).deal("dealer", "8C")
    e = s.expected()[ids[1]]
    assert (e.stake, e.returned, e.outcome) == (D("20.00"), D("40.00"), "win")
    assert kinds(s.end()) == []


def test_double_on_12_illegal_in_galicia_legal_in_andalucia():
    """Galicia: double only on 9, 10 or 11 (000 L307). Andalucía: any two cards (004 L800-L803).
    The refused Galician double is no wager: the 10.00 stake alone plays (5-7-9 = 21 against
    a busted dealer wins 1:1, 20.00 back) and the doubling chips are due back; in Andalucía
    the double plays: 20.00 at stake, 40.00 back."""
    for ruleset, want, stake, returned in ((GAL, [VK.ILLEGAL_DECISION], "10.00", "20.00"),
                                           (AND, [], "20.00", "40.00")):
        s, ids = two_box(ruleset, ["5S", "7H"], ["9S", "8H"], "6D")
        s.decide("double", 1).deal(1, "9C")
        s.decide("stand", 2).deal("dealer", "TC", "KC")
        e = s.expected()[ids[1]]
        assert (e.stake, e.returned) == (D(stake), D(returned)), ruleset
        assert kinds(s.end()) == want, ruleset


def test_double_soft_9_allowed_in_galicia():
    """A-8 counts 9 «según convenga» (000 L245, L307): doubling it is legal (ambiguity)."""
    s, ids = two_box(GAL, ["AS", "8H"], ["9S", "8H"], "6D")
    s.decide("double", 1).deal(1, "9C")
    s.decide("stand", 2).deal("dealer", "TC", "KC")
    assert kinds(s.end()) == []


@BOTH
def test_double_after_split_allowed_000_L309_004_L805(ruleset):
    """«La doble apuesta estará autorizada para todas las manos, comprendidas los pares»."""
    s, ids = two_box(ruleset, ["8S", "8H"], ["9S", "8H"], "6D")
    s.decide("split", 1).deal(1, "3C").decide("double", 1).deal(1, "TD")
    s.deal("1-2", "2C").decide("double", "1-2").deal("1-2", "9D")
    s.decide("stand", 2).deal("dealer", "TC", "2H")   # dealer 18
    e = s.expected()[ids[1]]
    assert (e.stake, e.returned) == (D("40.00"), D("80.00"))  # 21 and 19 beat 18, both doubled
    assert kinds(s.end()) == []


@BOTH
def test_double_and_split_apply_to_every_bet_on_the_box(ruleset):
    """Back bettors on the box (000 L261, L267; 004 L662-L680): the controlling player's double
    adds to each bet a stake equal to its own stake on that hand."""
    s = BJScript(ruleset)
    s.start()
    a = s.bet(1, "20", "P1")
    b = s.bet(1, "10", "P9")
    c = s.bet(2, "10", "P2")
    s.close().deal(1, "5S").deal(2, "9S").deal("dealer", "9D").deal(1, "5H").deal(2, "8H")
    s.decide("double", 1).deal(1, "9C")
    s.decide("stand", 2).deal("dealer", "8C")
    e = s.expected()
    assert (e[a].stake, e[a].returned) == (D("40.00"), D("80.00"))
    assert (e[b].stake, e[b].returned) == (D("20.00"), D("40.00"))
    assert e[c].returned == D("10.00")    # 17 against 17: push
    assert kinds(s.end()) == []


@BOTH
def test_void_round_returns_doubles_and_insurance(ruleset):
    """«Tirada nula»: everything at risk comes back, doubles and insurance included."""
    s, ids = two_box(ruleset, ["5S", "6H"], ["9S", "8H"], "AD")
    s.insure(ids[2], "5").decide("double", 1).deal(1, "9C")
    s.emit("round_voided", s.round_id, reason="shoe fault")
    v = s.end(pay={ids[1]: "20", ids[2]: "10", ids[2] + "/insurance": "5"})
    assert kinds(v) == []
    got = {c.expected.bet_id: c.expected.returned for c in v.checks}
    assert got == {ids[1]: D("20.00"), ids[2]: D("10"), ids[2] + "/insurance": D("5")}


@BOTH
def test_wrong_payout_is_a_discrepancy(ruleset):
    """Paying a blackjack at even money under-pays by half the stake (000 L293; 004 L743)."""
    s, ids = two_box(ruleset, ["AS", "KH"], ["9S", "8H"], "9D")
    s.decide("stand", 2).deal("dealer", "8C")
    v = s.end(pay={ids[1]: "20", ids[2]: "10"})
    assert kinds(v) == [VK.PAYOUT_DISCREPANCY]
    assert v.violations[0].amount == D("-5.00")


# --------------------------------------------------------------------------- limits


def test_galicia_max_multiplier_option_000_L319():
    """Maximum per hand = 20/25/50/100/200 x minimum as authorised (000 L319): option 20 with a
    10 EUR minimum caps a box at 200 EUR even though the table max_bet is 1000."""
    s = BJScript(GAL, options={"max_multiplier": "20"})
    s.start()
    s.bet(1, "200")
    s.bet(2, "201")
    s.bet(3, "5")
    s.close()
    v = s.end()
    k = [x.kind for x in v.violations]
    assert VK.BET_ABOVE_MAXIMUM in k and VK.BET_BELOW_MINIMUM in k
    over = [x for x in v.violations if x.kind == VK.BET_ABOVE_MAXIMUM]
    assert len(over) == 1 and over[0].amount == D("1.00") and "L319" in over[0].citation
    assert [x for x in v.violations if x.kind == VK.BET_BELOW_MINIMUM][0].amount == D("5.00")


def test_galicia_rejects_multiplier_30_andalucia_accepts_000_L319_004_L863():
    """Galicia allows only 20, 25, 50, 100, 200 (000 L319); Andalucía any 10-200 (004 L863-L865)."""
    s = BJScript(GAL, options={"max_multiplier": "30"})
    assert [v.kind for v in s.table_violations] == [VK.PROCEDURE]
    assert s.engine.ctx.max_bet == D("1000") and s.table_violations[0].citation.endswith("mínimo)")
    s2 = BJScript(AND, options={"max_multiplier": "30"})
    assert s2.table_violations == []
    s2.start()
    s2.bet(1, "300")
    s2.bet(2, "301")
    s2.close()
    over = [x for x in s2.end().violations if x.kind == VK.BET_ABOVE_MAXIMUM]
    assert [x.amount for x in over] == [D("1.00")] and "L863" in over[0].citation
    s3 = BJScript(AND, options={"max_multiplier": "5"})
    assert [v.kind for v in s3.table_violations] == [VK.PROCEDURE]


@BOTH
def test_maximum_is_per_hand_summing_bettors_000_L319_004_L865(ruleset):
    """«El máximo se entiende por mano» (000 L319; 004 L865-L867): bets of several players on
    one box add up; the bet that crosses the maximum is flagged with the excess."""
    s = BJScript(ruleset, max_bet="100")
    s.start()
    s.bet(1, "60", "P1")
    s.bet(1, "50", "P2")
    s.bet(2, "100", "P3")
    s.close()
    over = [x for x in s.end().violations if x.kind == VK.BET_ABOVE_MAXIMUM]
    assert len(over) == 1 and over[0].amount == D("10") and over[0].player_id == "P2"


@BOTH
def test_minimum_applies_to_each_bet(ruleset):
    """The table minimum (000 L317; 004 L857-L861) applies to every bet, back bets included."""
    s = BJScript(ruleset)
    s.start()
    s.bet(1, "10", "P1")
    s.bet(1, "9.99", "P2")
    s.bet(2, "10", "P3")
    s.close()
    v = [x for x in s.end().violations if x.kind == VK.BET_BELOW_MINIMUM]
    assert len(v) == 1 and v[0].amount == D("0.01")


@BOTH
def test_at_most_three_players_per_box_000_L271_004_L682(ruleset):
    """«El máximo de personas jugadoras que podrán apostar por casilla será de tres»."""
    s = BJScript(ruleset, max_bet="1000")
    s.start()
    for p in ("P1", "P2", "P3"):
        s.bet(1, "10", p)
    s.bet(1, "10", "P1")       # same player again: still three
    s.bet(2, "10", "P5")
    assert [v.kind for v in s.engine.open.violations] == []
    s.bet(1, "10", "P4")
    assert [v.kind for v in s.engine.open.violations] == [VK.PROCEDURE]


def test_two_hand_minimum_galicia_only_000_L263():
    """«No podrá iniciarse o continuar la partida con menos de dos manos apostadas» (000 L263);
    Andalucía has no such rule."""
    for ruleset, want in ((GAL, [VK.PROCEDURE]), (AND, [])):
        s = BJScript(ruleset)
        s.start()
        s.bet(3, "10")
        s.close().deal(3, "TS").deal("dealer", "9D").deal(3, "9H").decide("stand", 3).deal("dealer", "8C")
        assert kinds(s.end()) == want, ruleset


@BOTH
@pytest.mark.parametrize("spot,box", [("bolsa", 1), ("red", 1), ("main", None), ("main", 8)])
def test_invalid_spots(ruleset, spot, box):
    """Only the main bet on a box 1-7 exists (000 L261; 004 L628-L630). ("red" is a well-formed
    spot code of another game; codes outside the grammar are schema errors.)"""
    s = BJScript(ruleset)
    s.start()
    s.nbets += 1
    s.emit("bet_placed", s.round_id, ("player", "P1"), bet_id="X", player_id="P1", spot=spot, stake=D("10"), box=box)
    assert [v.kind for v in s.engine.open.violations] == [VK.INVALID_BET]


@BOTH
def test_bet_after_no_more_bets_is_past_posting(ruleset):
    """Bets before the cards are dealt (000 L315; 004 L850-L855)."""
    s, ids = two_box(ruleset, ["TS", "9H"], ["9S", "8H"], "9D")
    s.bet(3, "10")
    assert VK.PAST_POSTING in [v.kind for v in s.engine.open.violations]


# --------------------------------------------------------------------------- dealer drawing


@BOTH
@pytest.mark.parametrize("dealer,bad", [
    (["TC", "7H"], False), (["TC", "7H", "2S"], True),          # hit on hard 17
    (["AC", "6H"], False), (["AC", "6H", "4S"], True),          # hit on soft 17
    (["TC", "6H"], True), (["TC", "5H"], True),                 # stood on 16 / 15
    (["TC", "6H", "AS"], False), (["AC", "5H", "KS", "2D"], False),
    (["5C", "6H", "AS"], True),                                  # 5 6 A = 12 hard: stood on 12
    (["5C", "6H", "AS", "5D"], False),
])
def test_dealer_draws_to_16_stands_on_every_17(ruleset, dealer, bad):
    """000 L283-L285; 004 L715-L724: stand at 17 (soft too), draw below."""
    s, ids = two_box(ruleset, ["TS", "9H"], ["9S", "8H"], dealer[0])
    s.decide("stand", 1).decide("stand", 2).deal("dealer", *dealer[1:])
    k = kinds(s.end())
    assert k == ([VK.DEALER_MISDRAW] if bad else [])


def test_dealer_draw_with_every_hand_bust_andalucia_forbids_galicia_allows():
    """Andalucía: the dealer draws «siempre que queden manos en juego» (004 L716-L717); Galicia has
    no such clause (000 L283)."""
    for ruleset, want in ((AND, [VK.DEALER_MISDRAW]), (GAL, [])):
        s, ids = two_box(ruleset, ["TS", "6H"], ["9S", "7H"], "9D")
        s.decide("hit", 1).deal(1, "KD").decide("hit", 2).deal(2, "8C")
        s.deal("dealer", "5C")
        assert kinds(s.end()) == want, ruleset
    for ruleset in (AND, GAL):                    # no card at all is fine in both
        s, ids = two_box(ruleset, ["TS", "6H"], ["9S", "7H"], "9D")
        s.decide("hit", 1).deal(1, "KD").decide("hit", 2).deal(2, "8C")
        assert kinds(s.end()) == [], ruleset


@BOTH
def test_dealer_must_take_second_card_for_blackjacks_and_insurance(ruleset):
    """With a player blackjack left against a dealer ten, the dealer's second card decides it
    (BJ against BJ pushes): standing on one card is a misdraw; one card then stopping is fine."""
    s, ids = two_box(ruleset, ["AS", "TH"], ["9S", "7H"], "TD")
    s.decide("hit", 2).deal(2, "8C")
    assert kinds(s.end()) == [VK.DEALER_MISDRAW]
    s, ids = two_box(ruleset, ["AS", "TH"], ["9S", "7H"], "TD")
    s.decide("hit", 2).deal(2, "8C").deal("dealer", "4S")
    assert kinds(s.end()) == []


def test_andalucia_only_insurance_pending_allows_one_card():
    """All hands bust, an insurance pending on a dealer ace: one card decides it (004 L716-L717)."""
    s, ids = two_box(AND, ["TS", "6H"], ["9S", "7H"], "AD")
    s.insure(ids[1], "5")
    s.decide("hit", 1).deal(1, "KD").decide("hit", 2).deal(2, "8C").deal("dealer", "5C")
    assert kinds(s.end()) == []
    s, ids = two_box(AND, ["TS", "6H"], ["9S", "7H"], "AD")
    s.insure(ids[1], "5")
    s.decide("hit", 1).deal(1, "KD").decide("hit", 2).deal(2, "8C").deal("dealer", "5C", "2C")
    assert kinds(s.end()) == [VK.DEALER_MISDRAW]


# --------------------------------------------------------------------------- illegal decisions


@BOTH
def test_hit_on_21_is_illegal_000_L281_004_L708(ruleset):
    """«en ningún caso podrá pedir cartas suplementarias si ha obtenido ya una puntuación de 21 o
    más»; a soft 21 counts (ambiguity)."""
    s, ids = two_box(ruleset, ["5S", "5H"], ["9S", "7H"], "9D")
    s.decide("hit", 1).deal(1, "AC")          # soft 21
    s.decide("hit", 1).deal(1, "2C")
    s.decide("stand", 2).deal("dealer", "8C")
    assert kinds(s.end()) == [VK.ILLEGAL_DECISION]


@BOTH
def test_hit_after_split_aces_is_illegal_000_L303_004_L791(ruleset):
    s, ids = two_box(ruleset, ["AS", "AH"], ["9S", "7H"], "9D")
    s.decide("split", 1).deal(1, "5D").decide("hit", 1).deal(1, "2C")
    s.deal("1-2", "9C").decide("stand", 2).deal("dealer", "8C")
    assert kinds(s.end()) == [VK.ILLEGAL_DECISION]


@BOTH
def test_resplit_aces_is_illegal(ruleset):
    """Ambiguity (000 L301/L303; 004 L788-L793): split aces are not re-split."""
    s, ids = two_box(ruleset, ["AS", "AH"], ["9S", "7H"], "9D")
    s.decide("split", 1).deal(1, "AD").decide("split", 1)
    assert [v.kind for v in s.engine.open.violations] == [VK.ILLEGAL_DECISION]


@BOTH
def test_split_of_unequal_values_is_illegal_000_L299_004_L775(ruleset):
    """Pairs need two first cards «del mismo valor»; K-T is a pair (equal value), 9-8 is not."""
    s, ids = two_box(ruleset, ["KS", "TH"], ["9S", "8H"], "6D")
    s.decide("split", 1)
    assert s.engine.open.violations == []
    s.decide("split", 2)
    assert [v.kind for v in s.engine.open.violations] == [VK.ILLEGAL_DECISION]


@BOTH
def test_double_after_hit_is_illegal(ruleset):
    """Doubling is «con las dos primeras cartas» (000 L307; 004 L800-L803)."""
    s, ids = two_box(ruleset, ["2S", "3H"], ["9S", "8H"], "6D")
    s.decide("hit", 1).deal(1, "5C").decide("double", 1)
    assert [v.kind for v in s.engine.open.violations] == [VK.ILLEGAL_DECISION]


@BOTH
def test_hit_after_double_is_illegal(ruleset):
    """A double gets «una sola carta suplementaria» (000 L309; 004 L803-L804)."""
    s, ids = two_box(ruleset, ["5S", "4H"], ["9S", "8H"], "6D")
    s.decide("double", 1).deal(1, "2C").decide("hit", 1)
    assert [v.kind for v in s.engine.open.violations] == [VK.ILLEGAL_DECISION]


@BOTH
def test_insurance_above_half_is_a_limit_breach_000_L297_004_L758(ruleset):
    """Insurance «como máximo igual a la mitad de su apuesta primitiva» is a maximum: 5.01 on 10
    is a bet_above_maximum of 0.01 citing it; half of 10.15 (5.075) allows 5.07. What is paid
    (ambiguity ``over_maximum``): the insurance the dealer accepted, whole, at 2 to 1 — with a
    dealer blackjack 5.01 + 10.02 = 15.03 back."""
    s, ids = two_box(ruleset, ["TS", "9H"], ["9S", "8H"], "AD", stake2="10.15")
    s.insure(ids[2], "5.07")
    assert s.engine.open.violations == []
    s.insure(ids[1], "5.01")
    v = s.engine.open.violations
    assert [x.kind for x in v] == [VK.BET_ABOVE_MAXIMUM] and v[0].amount == D("0.01")
    assert "mitad" in v[0].citation
    s.decide("stand", 1).decide("stand", 2).deal("dealer", "KC")
    e = s.expected()[ids[1] + "/insurance"]
    assert (e.outcome, e.stake, e.returned) == ("win", D("5.01"), D("15.03"))


@BOTH
def test_an_insurance_the_rules_refuse_is_no_wager_000_L295_004_L750(ruleset):
    """An insurance with no ace showing is refused (illegal_decision, once): its 5.00 are due
    back whatever the dealer draws, and a dealer who records nothing for it is right."""
    s, ids = two_box(ruleset, ["TS", "9H"], ["9S", "8H"], "TD")
    s.insure(ids[1], "5")
    s.decide("stand", 1).decide("stand", 2).deal("dealer", "7C")
    e = s.expected()[ids[1] + "/insurance"]
    assert (e.outcome, e.returned) == ("refused", D("5.00"))


@BOTH
def test_insurance_without_dealer_ace_is_illegal_000_L295_004_L750(ruleset):
    s, ids = two_box(ruleset, ["TS", "9H"], ["9S", "8H"], "TD")
    s.insure(ids[1], "5")
    assert [v.kind for v in s.engine.open.violations] == [VK.ILLEGAL_DECISION]


@BOTH
def test_insurance_after_first_third_card_is_illegal_000_L295_004_L753(ruleset):
    """«A partir de este momento, nadie podrá asegurarse» once a third card was given."""
    s, ids = two_box(ruleset, ["5S", "4H"], ["9S", "8H"], "AD")
    s.decide("hit", 1).deal(1, "2C")
    s.insure(ids[2], "5")
    assert [v.kind for v in s.engine.open.violations] == [VK.ILLEGAL_DECISION]


def test_even_money_window_andalucia_004_L767():
    """Even money on a blackjack is asked «antes de que la siguiente persona jugadora pida un tercer
    naipe» (004 L767-L772): box 2 (BJ) may insure after box 1 drew, not after box 3 drew.
    Galicia has no even money: the general insurance window applies (000 L295)."""
    def run(ruleset, late_box):
        s = BJScript(ruleset)
        ids = s.simple({1: "10", 2: "10", 3: "10"},
                       {"1": ["5S", "4H"], "2": ["AS", "KH"], "3": ["6S", "4D"]}, "AD")
        s.decide("hit", late_box).deal(late_box, "2C")
        s.insure(ids[2], "5")
        return [v.kind for v in s.engine.open.violations], s
    assert run(AND, 1)[0] == []
    assert run(AND, 3)[0] == [VK.ILLEGAL_DECISION]
    assert run(GAL, 1)[0] == [VK.ILLEGAL_DECISION]
    k, s = run(AND, 1)
    s.decide("stand", 1).decide("hit", 3).deal(3, "9C").deal("dealer", "KD")
    e = s.expected()
    assert e["B2"].returned + e["B2/insurance"].returned == D("25.00")  # 15 at risk: net +10 = even money
    assert "L767" in e["B2/insurance"].citation


# --------------------------------------------------------------------------- procedure


@BOTH
def test_player_card_after_dealer_second_card_is_procedure(ruleset):
    """No hole card: the dealer draws after every player (000 L277-L283; 004 L695-L717)."""
    s, ids = two_box(ruleset, ["TS", "6H"], ["9S", "8H"], "9D")
    s.deal("dealer", "8C")
    s.decide("hit", 1)
    assert [v.kind for v in s.engine.open.violations] == [VK.PROCEDURE]


@BOTH
def test_face_down_card_is_procedure_000_L329_004_L891(ruleset):
    s = BJScript(ruleset)
    s.start()
    s.bet(1, "10")
    s.bet(2, "10")
    s.close().deal(1, "TS", face_up=False)
    assert [v.kind for v in s.engine.open.violations] == [VK.PROCEDURE]


@BOTH
def test_shoe_rules_000_L325_L327_004_L882_L891(ruleset):
    """6 decks, cut card with at least one deck behind, burn 5 before dealing."""
    s = BJScript(ruleset)
    s.emit("shoe_loaded", None, shoe_id="S1", decks=6)
    s.emit("shoe_shuffled", None, shoe_id="S1")
    s.emit("shoe_cut", None, shoe_id="S1", cards_behind=60)
    s.emit("cards_burned", None, count=5)
    assert s.table_violations == []
    s.emit("shoe_loaded", None, shoe_id="S2", decks=8)
    s.emit("shoe_cut", None, shoe_id="S2", cards_behind=40)
    s.emit("cards_burned", None, count=4)
    assert [v.kind for v in s.table_violations] == [VK.PROCEDURE] * 3
    s.emit("shoe_cut", None, shoe_id="S2", cards_behind=70)   # no burn before dealing
    s.start()
    s.bet(1, "10")
    s.bet(2, "10")
    s.close().deal(1, "TS").deal(2, "9S")
    assert [v.kind for v in s.engine.open.violations] == [VK.PROCEDURE]


@BOTH
def test_a_winning_bet_above_its_maximum_is_paid_whole_and_flagged_000_L319_004_L865(ruleset):
    """The maximum per hand (000 L319; 004 L865-L867) says nothing of a bet the dealer accepted
    above it; the rulesets' ambiguity «Winning bet above the maximum for its kind» records the
    choice: settled whole at the regulated ratio, flagged bet_above_maximum with the excess.
    At a 10-100 table, 150.00 on box 1 (20 against the dealer's 19) wins at par (000 L293;
    004 L742): 300.00 back, 50.00 over the maximum."""
    from pitwatch.rules.base import load_ruleset

    assert "Winning bet above the maximum for its kind" in [a["point"] for a in load_ruleset(ruleset).data["ambiguities"]]
    s, ids = two_box(ruleset, ["TS", "QH"], ["9S", "8H"], "9D", stake1="150", max_bet="100")
    s.decide("stand", 1).decide("stand", 2).deal("dealer", "KC")
    exp = s.expected()
    assert (exp[ids[1]].outcome, exp[ids[1]].returned, exp[ids[1]].stake) == ("win", D("300.00"), D("150.00"))
    v = s.end()
    over = [x for x in v.violations if x.kind == VK.BET_ABOVE_MAXIMUM]
    assert kinds(v) == [VK.BET_ABOVE_MAXIMUM] and over[0].amount == D("50.00")
    assert over[0].bet_id == ids[1]
