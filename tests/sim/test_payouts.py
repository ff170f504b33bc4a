"""The simulator's own payout table (pitwatch.sim.payouts), figure by figure from the seeds.

Every expected amount is written by hand from the cited text: 000 = Galicia (Decreto 177/2007),
001 = Asturias (punto y banca), 004 = Andalucía (Orden de 4 de febrero de 2010).
"""

from __future__ import annotations

import ast
from decimal import Decimal
from pathlib import Path

import pytest
from pitwatch.sim import payouts
from pitwatch.sim.payouts import (
    BlackjackHand,
    Payment,
    Prisoner,
    blackjack_payment,
    insurance_payment,
    punto_banca_payment,
    roulette_numbers,
    roulette_payments,
)

D = Decimal
GAL, AND = "french_roulette.galicia", "french_roulette.andalucia"


def spin(number, bets, ruleset=GAL, prisoners=None, choices=None, last=False, minimum="5.00"):
    return roulette_payments(ruleset, number, [(f"B{i}", s, D(x)) for i, (s, x) in enumerate(bets)],
                             prisoners or {}, choices or {}, last_spin=last, table_minimum=D(minimum))


def test_the_oracle_imports_nothing_from_the_rules_engine():
    tree = ast.parse(Path(payouts.__file__).read_text(encoding="utf-8"))
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m.startswith("pitwatch")], imported


# --------------------------------------------------------------------------- roulette


@pytest.mark.parametrize("spot,returned", [
    ("straight:17", "360.00"),      # 000 L133 «treinta y cinco veces su postura»; 004 L221-L224
    ("split:16-17", "180.00"),      # 000 L135 «diecisiete veces»; 004 L226-L229
    ("street:16-17-18", "120.00"),  # 000 L137 «once veces»; 004 L231-L240
    ("corner:13-14-16-17", "90.00"),  # 000 L139-L141 «ocho veces»; 004 L242-L249
    ("sixline:13-14-15-16-17-18", "60.00"),  # 000 L143 «cinco veces»; 004 L261-L264
    ("column:2", "30.00"),          # 000 L145 «dos veces»; 17 is in 2, 5, ... 35
    ("dozen:2", "30.00"),           # 000 L147: 13-24
    ("columns:1-2", "15.00"),       # 000 L149 «la mitad de la postura»
    ("dozens:1-2", "15.00"),        # 000 L151
    ("odd", "20.00"), ("black", "20.00"), ("manque", "20.00"),  # 000 L121-L123 «el valor de la cantidad apostada»
])
def test_roulette_winning_bet_of_10_on_17_keeps_its_stake_plus_the_ratio_000_L121_L153(spot, returned):
    assert spin(17, [(spot, "10.00")]) == [Payment("B0", "win", D(returned))]


@pytest.mark.parametrize("spot", ["straight:18", "split:18-21", "corner:1-2-4-5", "column:1", "dozen:3",
                                  "even", "red", "passe"])
def test_roulette_losing_bet_returns_nothing(spot):
    assert spin(17, [(spot, "10.00")]) == [Payment("B0", "lose", D("0.00"))]


def test_zero_wins_its_straight_up_and_the_0_1_2_street_000_L133_L137():
    assert spin(0, [("straight:0", "10.00"), ("street:0-1-2", "10.00"), ("corner:0-1-2-3", "10.00")]) == [
        Payment("B0", "win", D("360.00")), Payment("B1", "win", D("120.00")), Payment("B2", "win", D("90.00"))]


def test_colours_follow_the_digit_sum_rule_with_10_29_black_and_19_red_000_L93():
    assert {10, 29, 2, 11, 20} <= roulette_numbers("black")
    assert {19, 1, 3, 12, 21, 36} <= roulette_numbers("red")
    assert len(roulette_numbers("red")) == len(roulette_numbers("black")) == 18


def test_two_columns_on_odd_cents_round_the_half_down_000_L149():
    """5.01 on two columns wins 2.505, paid 2.50: returned 7.51."""
    assert spin(1, [("columns:1-2", "5.01")]) == [Payment("B0", "win", D("7.51"))]


def test_first_zero_half_back_returns_half_or_prison_keeps_all_000_L125():
    """«retirar la mitad de su apuesta ... o dejar la totalidad de su apuesta en prisión»."""
    got = spin(0, [("red", "10.00"), ("even", "10.00")], choices={"B0": "half_back", "B1": "en_prison"})
    assert got == [Payment("B0", "half_back", D("5.00")), Payment("B1", "en_prison", D("0.00"))]


def test_prisoner_released_with_its_stake_when_its_chance_wins_000_L125():
    """«las posturas ganadoras colocadas en prisión recobran pura y simplemente su libertad»: the
    10.00 comes back without winnings; a prisoner whose chance loses is lost."""
    held = {"P1": Prisoner("red", D("10.00"), 1), "P2": Prisoner("black", D("10.00"), 1)}
    assert spin(19, [], prisoners=held) == [Payment("P1", "released", D("10.00")), Payment("P2", "lose", D("0.00"))]


def test_second_zero_halves_the_value_000_L127_L129():
    """A 20.00 prisoner hit by a second zero: half back is the quarter, 5.00; kept in prison it
    holds 10.00 (half its value), returned when released."""
    assert spin(0, [], prisoners={"P": Prisoner("odd", D("20.00"), 1)}, choices={"P": "half_back"}) == [
        Payment("P", "half_back", D("5.00"))]
    assert spin(7, [], prisoners={"P": Prisoner("odd", D("20.00"), 2)}) == [Payment("P", "released", D("10.00"))]


def test_below_the_table_minimum_the_bet_stays_in_prison_galicia_000_L127():
    """Galicia compares the halved value (10.00 / 4 = 2.50) with the 5.00 minimum: no half back."""
    held = {"P": Prisoner("odd", D("10.00"), 1)}
    assert spin(0, [], GAL, held, {"P": "half_back"}) == [Payment("P", "en_prison", D("0.00"))]


def test_andalucia_compares_the_kept_amount_with_the_minimum_004_L316_L319():
    """Andalucía compares the amount kept (10.00 / 2 = 5.00, not below 5.00): the half back,
    2.50, is still allowed."""
    held = {"P": Prisoner("odd", D("10.00"), 1)}
    assert spin(0, [], AND, held, {"P": "half_back"}) == [Payment("P", "half_back", D("2.50"))]


def test_zero_on_the_last_spin_forces_the_refund_000_L129():
    """«obligada a aceptar el reintegro de la mitad, de la cuarta parte ...»: a fresh 10.00 gets
    5.00, a 20.00 prisoner of one zero gets its quarter 5.00, whatever the player chose."""
    got = spin(0, [("manque", "10.00")], prisoners={"P": Prisoner("red", D("20.00"), 1)},
               choices={"B0": "en_prison", "P": "en_prison"}, last=True)
    assert got == [Payment("B0", "half_back", D("5.00")), Payment("P", "half_back", D("5.00"))]


# --------------------------------------------------------------------------- blackjack


def bj(stake, *hands, dealer):
    return blackjack_payment("B", D(stake), [BlackjackHand(tuple(h.split()), **kw) for h, kw in hands], dealer.split())


def test_blackjack_pays_three_to_two_000_L293():
    """10.00 on A-K against a dealer 19: 10.00 + 15.00."""
    assert bj("10.00", ("AS KD", {}), dealer="9C TH") == Payment("B", "blackjack", D("25.00"))


def test_blackjack_three_to_two_on_odd_cents_rounds_down():
    """15.01 x 1.5 = 22.515, paid 22.51."""
    assert bj("15.01", ("AS KD", {}), dealer="9C TH") == Payment("B", "blackjack", D("37.52"))


def test_blackjack_beats_a_21_of_more_cards_000_L293():
    assert bj("10.00", ("TS AD", {}), dealer="5C 6H KD") == Payment("B", "blackjack", D("25.00"))


def test_blackjack_against_dealer_blackjack_is_void_000_L291_L293():
    assert bj("10.00", ("AS KD", {}), dealer="AC QH") == Payment("B", "push", D("10.00"))


@pytest.mark.parametrize("hand,dealer,outcome,returned", [
    ("TS QD", "9C TH", "win", "20.00"),       # 20 beats 19, at par (000 L289, L293)
    ("TS 8D", "9C 9H", "push", "10.00"),      # equal: void, stake back (000 L291)
    ("TS 7D", "9C TH", "lose", "0.00"),       # lower (000 L289)
    ("TS 7D 6H", "9C TH", "lose", "0.00"),    # over 21 (000 L281)
    ("TS 2D", "6C TH 8S", "win", "20.00"),    # dealer over 21 pays every hand left (000 L289)
    ("TS QD", "AC KH", "lose", "0.00"),       # dealer blackjack beats every other hand (000 L297)
])
def test_blackjack_hand_at_par_000_L281_L297(hand, dealer, outcome, returned):
    assert bj("10.00", (hand, {}), dealer=dealer) == Payment("B", outcome, D(returned))


def test_doubled_hand_risks_and_wins_twice_the_stake_000_L307():
    assert bj("10.00", ("5S 6D 9H", {"doubled": True}), dealer="9C TH") == Payment("B", "win", D("40.00"))
    assert bj("10.00", ("5S 6D TH", {"doubled": True}), dealer="AC KH") == Payment("B", "lose", D("0.00"))


def test_split_hands_each_carry_the_stake_000_L299():
    """8-8 split on a 10.00 bet: 8-T (18) beats the dealer's 17 (20.00), 8-5-9 (22) busts (0)."""
    got = bj("10.00", ("8S TD", {"split": True}), ("8D 5C 9H", {"split": True}), dealer="TC 7H")
    assert got == Payment("B", "split", D("20.00"))


def test_21_after_splitting_aces_is_paid_once_000_L305():
    """«no será considerada como veintiuno o black-jack, y se le pagará solamente una vez su
    apuesta»: A-K after the split wins 10.00 (not 15.00) against 18, A-9 wins 10.00 too."""
    got = bj("10.00", ("AS KD", {"split": True}), ("AD 9C", {"split": True}), dealer="TC 8H")
    assert got == Payment("B", "win", D("40.00"))


def test_surrender_returns_half_the_stake_000_L311():
    assert bj("10.00", ("TS 6D", {"surrendered": True}), dealer="TC") == Payment("B", "surrender", D("5.00"))
    assert bj("10.01", ("TS 6D", {"surrendered": True}), dealer="TC") == Payment("B", "surrender", D("5.00"))


def test_insurance_pays_two_to_one_on_dealer_blackjack_000_L297():
    assert insurance_payment("B", D("5.00"), ["AC", "KH"]) == Payment("B/insurance", "win", D("15.00"))
    assert insurance_payment("B", D("5.00"), ["AC", "7H"]) == Payment("B/insurance", "lose", D("0.00"))


# --------------------------------------------------------------------------- punto y banca


def pb(ruleset, spot, stake, punto, banca):
    return punto_banca_payment(f"punto_banca.{ruleset}", "B", spot, D(stake), punto.split(), banca.split())


def test_punto_wins_at_par_004_L1702_L1704():
    assert pb("andalucia", "punto", "20.00", "9S KD", "7C QH") == Payment("B", "win", D("40.00"))


def test_banca_win_owes_5_percent_galicia_000_L467():
    """«una deducción del 5 por 100 de las apuestas ganadoras»: 20.00 won, 1.00 deducted."""
    assert pb("galicia", "banca", "20.00", "7S KD", "8C QH") == Payment("B", "win", D("40.00"), D("1.00"))


def test_banca_deduction_rounds_down_asturias_001_L170_L172():
    """5% of 12.50 is 0.625: the house takes 0.62."""
    assert pb("asturias", "banca", "12.50", "7S KD", "8C QH") == Payment("B", "win", D("25.00"), D("0.62"))


def test_andalucia_deducts_half_only_when_banca_wins_with_6_004_L1699_L1704():
    """«con una puntuación de 6, ... una deducción del 50 por 100»; any other banca win at par."""
    assert pb("andalucia", "banca", "20.00", "5S KD", "6C QH") == Payment("B", "win", D("40.00"), D("10.00"))
    assert pb("andalucia", "banca", "20.00", "5S KD", "7C QH") == Payment("B", "win", D("40.00"))


@pytest.mark.parametrize("ruleset", ["galicia", "asturias", "andalucia"])
def test_tie_pays_eight_to_one_and_returns_punto_and_banca_000_L477_001_L78_L80_004_L1722_L1724(ruleset):
    assert pb(ruleset, "tie", "10.00", "5S KD 2H", "4C 3H") == Payment("B", "win", D("90.00"))
    assert pb(ruleset, "banca", "10.00", "5S KD 2H", "4C 3H") == Payment("B", "push", D("10.00"))
    assert pb(ruleset, "tie", "10.00", "5S KD", "4C 3H") == Payment("B", "lose", D("0.00"))


def test_punto_banca_totals_drop_the_tens_and_count_courts_nothing_000_L475():
    """K-9 is 9, 7-8 is 5, A-T is 1: 9 beats 5 and 1."""
    assert pb("galicia", "punto", "10.00", "KS 9D", "7C 8H") == Payment("B", "win", D("20.00"))
    assert pb("galicia", "banca", "10.00", "7S 8D", "AC TH") == Payment("B", "lose", D("0.00"))
