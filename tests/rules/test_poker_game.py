"""Póquer en círculo hands through the engine (``poker.andalucia``), every figure worked by hand from
the regulation (004_5c9c19b250457762.txt, I.1.10):

- the rake is «hasta del 5 por 100 sobre el dinero aportado en cada mano», into the cagnotte before the
  winner is paid (004 L4082-L4088, II.4.a), rounded down to the cent (the ruleset's ``rounding``);
- the blinds are half the minimum and the minimum (004 L4440-L4445, VIII.2.b);
- a player all-in plays for the proportional part (004 L4541-L4545, IX.8): side pots;
- the best shown hand wins, the croupier reads the cards (004 L4624-L4634, IX.21); equal hands split
  with the odd chip to the last bettor (004 L4651-L4657, IX.24); a pot nobody contests goes to the
  last player in without showing (004 L4547-L4551, IX.9);
- Omaha takes exactly two hole cards and three of the board (004 L5240-L5245).
"""

from __future__ import annotations

from decimal import Decimal

from tests.rules.poker_hands import Table, due, judge, kinds

SEATS = {"A": (1, "100.00"), "B": (2, "100.00"), "C": (3, "100.00")}


def _three_way(t: Table, *, shows: tuple[tuple[str, ...], tuple[str, ...]] = (("KS", "KH"), ("AC", "QC")),
               board: tuple[str, ...] = ("AH", "KD", "7C", "2S", "9H")):
    """A raises to 3 before the flop, both blinds call (pot 9); on the flop C bets 5, A calls, B folds
    (pot 19); the turn and the river are checked; C and A show. The «marca» is at seat 1 (A): the blinds
    are B and C, the first interval starts at A, the later ones at B."""
    h = t.hand(1, SEATS)
    h.act("B", "small_blind", "0.50").act("C", "big_blind", "1.00")
    h.act("A", "raise", "3.00").act("B", "call", "2.50").act("C", "call", "2.00")
    h.board(*board[:3]).act("B", "check").act("C", "bet", "5.00").act("A", "call", "5.00").act("B", "fold")
    h.board(board[3]).act("C", "check").act("A", "check")
    h.board(board[4]).act("C", "check").act("A", "check")
    h.show("C", *shows[0]).show("A", *shows[1])
    return h


def test_showdown_the_set_wins_the_pot_less_a_5_percent_rake_ii_4_a_ix_21():
    """Pot 3 + 3 + 3 + 5 + 5 = 19.00; rake 5% = 0.95; C's three kings beat A's aces: C is due 18.05.
    The dealer who does exactly that raises nothing, and the table wins the rake."""
    t = Table()
    _three_way(t).rake("0.95").award("C", "18.05").end()
    (v,) = judge(t)
    assert kinds(v) == []
    assert due(v) == {"A": "0.00", "B": "0.00", "C": "18.05"}
    assert {c.expected.player_id: c.expected.stake for c in v.checks} == {
        "A": Decimal("8.00"), "B": Decimal("3.00"), "C": Decimal("8.00")}
    assert sum(f.win for f in v.figures) == Decimal("0.95")
    assert sum(f.handle for f in v.figures) == Decimal("19.00")
    assert sum(f.theoretical_win for f in v.figures) == Decimal("0.9500")  # 5% of 19.00 put in


def test_a_rake_above_the_rate_is_a_rake_discrepancy_and_the_winner_under_paid_ii_4_a():
    """The dealer takes 1.00 (not 0.95) and pays 18.00: the cagnotte is 0.05 over, C 0.05 short."""
    t = Table()
    _three_way(t).rake("1.00").award("C", "18.00").end()
    (v,) = judge(t)
    assert kinds(v) == ["payout_discrepancy", "rake_discrepancy"]
    rake = next(x for x in v.violations if x.kind == "rake_discrepancy")
    pay = next(x for x in v.violations if x.kind == "payout_discrepancy")
    assert rake.amount == Decimal("0.05") and "L4082-L4088" in rake.citation
    assert pay.amount == Decimal("-0.05") and pay.player_id == "C"


def test_the_pot_paid_to_the_wrong_player_is_flagged_both_ways_ix_21():
    """A is paid the pot C won: A over-paid 18.05, C under-paid 18.05."""
    t = Table()
    _three_way(t).rake("0.95").award("A", "18.05").end()
    (v,) = judge(t)
    amounts = {x.player_id: x.amount for x in v.violations if x.kind == "payout_discrepancy"}
    assert amounts == {"A": Decimal("18.05"), "C": Decimal("-18.05")}


def test_equal_hands_split_with_the_odd_cent_to_the_last_bettor_ix_24():
    """Both play the board's straight (T J Q K A): 18.05 split, 9.03 to C, who made the last bet (the
    flop's 5), and 9.02 to A."""
    t2 = Table()
    _three_way(t2, shows=(("2C", "3D"), ("4C", "5D")), board=("TH", "JD", "QC", "KS", "AH")) \
        .rake("0.95").award("C", "9.03").award("A", "9.02").end()
    (v2,) = judge(t2)
    assert kinds(v2) == []
    assert due(v2) == {"A": "9.02", "B": "0.00", "C": "9.03"}
    assert "L4651-L4657" in next(c.expected.citation for c in v2.checks if c.expected.player_id == "C")


def test_an_uncontested_pot_and_the_uncalled_raise_go_back_to_the_raiser_ix_9():
    """A raises to 3, both blinds fold: 2.00 of A's raise was never called and goes back; the pot is
    1 + 0.50 + 1 = 2.50, raked 5% = 0.125 -> 0.12 (down); A is due 2.00 + 2.38 = 4.38."""
    t = Table()
    h = t.hand(1, SEATS)
    h.act("B", "small_blind", "0.50").act("C", "big_blind", "1.00")
    h.act("A", "raise", "3.00").act("B", "fold").act("C", "fold")
    h.rake("0.12").back("A", "2.00").award("A", "2.38").end()
    (v,) = judge(t)
    assert kinds(v) == []
    assert due(v) == {"A": "4.38", "B": "0.00", "C": "0.00"}
    assert "L4547-L4551" in next(c.expected.citation for c in v.checks if c.expected.player_id == "A")


def test_the_short_all_in_wins_only_the_main_pot_and_the_side_pot_goes_to_the_best_other_hand_ix_8():
    """A (10.00) moves all-in, B and C call: main pot 30 (A, B, C). On the flop B bets 20 and C calls:
    side pot 40 (B, C only). A's aces win the main pot, B's kings beat C's queens for the side pot.
    No rake (rate 0). Paying A the side pot too is 40 over to A and 40 short to B."""
    stacks = {"A": (1, "10.00"), "B": (2, "100.00"), "C": (3, "100.00")}
    for paid, expect in (({"A": "30.00", "B": "40.00"}, []), ({"A": "70.00"}, ["payout_discrepancy"] * 2)):
        t = Table(rake="0")
        h = t.hand(1, stacks)
        h.act("B", "small_blind", "0.50").act("C", "big_blind", "1.00")
        h.act("A", "raise", "10.00").act("B", "call", "9.50").act("C", "call", "9.00")
        h.board("2C", "7D", "9S").act("B", "bet", "20.00").act("C", "call", "20.00")
        h.board("3H").act("B", "check").act("C", "check").board("4S").act("B", "check").act("C", "check")
        h.show("B", "KC", "KD").show("C", "QC", "QD").show("A", "AC", "AD")
        for p, amount in paid.items():
            h.award(p, amount)
        h.end()
        (v,) = judge(t)
        assert kinds(v) == expect
        assert due(v) == {"A": "30.00", "B": "40.00", "C": "0.00"}


def test_a_mucked_hand_gives_up_the_pot_ix_20_ix_22():
    """C shows a pair of deuces, A mucks his (better) cards unseen: C wins the 19.00 (rake 0.95)."""
    t = Table()
    h = t.hand(1, SEATS)
    h.act("B", "small_blind", "0.50").act("C", "big_blind", "1.00")
    h.act("A", "raise", "3.00").act("B", "call", "2.50").act("C", "call", "2.00")
    h.board("AH", "KD", "7C").act("B", "check").act("C", "bet", "5.00").act("A", "call", "5.00").act("B", "fold")
    h.board("2S").act("C", "check").act("A", "check").board("9H").act("C", "check").act("A", "check")
    h.show("C", "2C", "3C").muck("A").rake("0.95").award("C", "18.05").end()
    (v,) = judge(t)
    assert kinds(v) == [] and due(v)["C"] == "18.05"


def _illegal(build) -> list[str]:
    t = Table(rake="0")
    h = t.hand(1, SEATS)
    build(h)
    h.end()
    (v,) = judge(t)
    return [x.citation for x in v.violations if x.kind == "illegal_decision"]


def test_a_small_blind_of_the_whole_minimum_is_an_illegal_decision_viii_2_b():
    """The small blind is half the minimum: 1.00 posted at a 1.00 table is refused (004 L4440-L4445)."""
    (cite,) = _illegal(lambda h: h.act("B", "small_blind", "1.00").act("C", "big_blind", "1.00")
                       .act("A", "fold").act("B", "fold").award("C", "2.00"))
    assert "L4440-L4445" in cite


def test_acting_out_of_turn_is_an_illegal_decision_ix_6():
    """Before the flop A (after the big blind) acts first; B folding before him is out of turn."""
    (cite,) = _illegal(lambda h: h.act("B", "small_blind", "0.50").act("C", "big_blind", "1.00")
                       .act("B", "fold").act("C", "check").award("C", "1.50"))
    assert "L4499-L4503" in cite


def test_a_raise_short_of_double_is_an_illegal_decision_vii_2_ix_6_d():
    """A raises the big blind's 1.00 to 1.50: a raise is to at least double the highest bet (2.00)."""
    (cite,) = _illegal(lambda h: h.act("B", "small_blind", "0.50").act("C", "big_blind", "1.00")
                       .act("A", "raise", "1.50").act("B", "fold").act("C", "fold")
                       .back("A", "0.50").award("A", "2.50"))
    assert "L4417-L4420" in cite


def test_a_board_card_turned_before_the_betting_is_over_is_a_premature_card():
    """The flop comes while C has still to act before it (004 L5312-L5316, applied to hold'em by L5469-L5473)."""
    t = Table(rake="0")
    h = t.hand(1, SEATS)
    h.act("B", "small_blind", "0.50").act("C", "big_blind", "1.00")
    h.act("A", "call", "1.00").act("B", "call", "0.50")
    h.board("AH", "KD", "7C").act("B", "check").act("C", "check").act("A", "check")
    h.board("2S").board("9H")
    h.show("A", "AC", "AD").show("B", "2C", "3D").show("C", "4C", "5D").award("A", "3.00").end()
    (v,) = judge(t)
    premature = [x for x in v.violations if x.kind == "procedure"]
    assert len(premature) == 1 and "L5312-L5333" in premature[0].citation
    assert due(v)["A"] == "3.00"


def test_omaha_takes_two_hole_cards_a_single_heart_makes_no_flush_l5240():
    """Board AH KH 7H 2H 9C. C holds QH 5S 6S 8D: in hold'em that is a flush (QH and four board hearts),
    in Omaha he must use two hole cards and three of the board, so no flush: 9-high, not even a pair.
    A holds AS AC 3D 4D: three aces. Omaha: A wins; the same cards at a hold'em table would make C win."""
    for variant, winner in (("omaha", "A"), ("holdem", "C")):
        t = Table(rake="0", variant=variant)
        h = t.hand(1, SEATS)
        h.act("B", "small_blind", "0.50").act("C", "big_blind", "1.00")
        h.act("A", "call", "1.00").act("B", "fold").act("C", "check")
        h.board("AH", "KH", "7H").act("C", "check").act("A", "check")
        h.board("2H").act("C", "check").act("A", "check").board("9C").act("C", "check").act("A", "check")
        h.show("C", "QH", "5S", "6S", "8D").show("A", "AS", "AC", "3D", "4D").award(winner, "2.50").end()
        (v,) = judge(t)
        assert kinds(v) == [], (variant, v.violations)
        assert due(v)[winner] == "2.50"


def test_a_voided_hand_gives_everybody_back_what_he_put_in():
    """«será anulada la mano» (004 L5290-L5299): every contribution back."""
    t = Table()
    h = t.hand(1, SEATS)
    h.act("B", "small_blind", "0.50").act("C", "big_blind", "1.00").act("A", "raise", "3.00")
    h.ev("round_voided", reason="two cards exposed in the deal")
    h.back("A", "3.00").back("B", "0.50").back("C", "1.00").end()
    (v,) = judge(t)
    assert kinds(v) == [] and due(v) == {"A": "3.00", "B": "0.50", "C": "1.00"}


# ----------------------------------------------------------------------- list V (004 L4217-L4275)


def _prohibited(t: Table) -> list[str]:
    from pitwatch.rules.engine import replay

    out = [x for v in replay(t.events) for x in (v.violations if hasattr(v, "violations") else (v,))]
    return [x.citation.split(" (")[0] for x in out if x.kind == "prohibited_play"]


def test_chips_bought_once_the_first_card_is_dealt_are_prohibited_v_e():
    """«Comprar o añadir fichas al resto ... una vez que se haya iniciado la jugada» (004 L4228-L4233):
    A's buy-in after the first card is flagged; B's before it is not."""
    t = Table(rake="0")
    h = t.hand(1, SEATS)
    h.act("B", "small_blind", "0.50").act("C", "big_blind", "1.00")
    t.add(None, "chips_bought", "A", player_id="B", amount="50.00")
    h.ev("card_dealt", hand="1", card="AS", face_up=False)
    t.add(None, "chips_bought", "A", player_id="A", amount="50.00")
    h.act("A", "fold").act("B", "fold").award("C", "1.50").end()
    assert _prohibited(t) == ["004_5c9c19b250457762.txt L4228-L4233"]


def test_chips_cashed_during_the_hand_and_chips_lent_are_prohibited_v_f_v_g():
    """«Guardarse las fichas de su resto» (L4238) and «El préstamo de dinero entre las personas
    jugadoras» (L4235-L4236): a player cashing chips mid-hand, and chips passed between two players."""
    t = Table(rake="0")
    h = t.hand(1, SEATS)
    h.act("B", "small_blind", "0.50").act("C", "big_blind", "1.00")
    t.add(None, "chips_cashed", "A", player_id="A", amount="40.00")
    h.act("A", "fold").act("B", "fold").award("C", "1.50").end()
    t.add(None, "chips_transferred", "A", from_player="A", to_player="C", amount="20.00")
    assert _prohibited(t) == ["004_5c9c19b250457762.txt L4238", "004_5c9c19b250457762.txt L4235-L4236"]


def test_showing_cards_while_active_with_chips_behind_is_prohibited_v_l():
    """«Mostrar alguno de los naipes cuando al jugador ... le quede resto y esté activo en la jugada»
    (L4259-L4262): B shows before the flop betting is over; at the showdown nobody is flagged."""
    t = Table(rake="0")
    h = t.hand(1, SEATS)
    h.act("B", "small_blind", "0.50").act("C", "big_blind", "1.00")
    h.act("A", "call", "1.00").show("B", "AS", "AD").act("B", "call", "0.50").act("C", "check")
    h.board("2C", "7D", "9S").act("B", "check").act("C", "check").act("A", "check")
    h.board("3H").act("B", "check").act("C", "check").act("A", "check")
    h.board("4S").act("B", "check").act("C", "check").act("A", "check")
    h.show("C", "KC", "KD").show("A", "QC", "QD").award("B", "3.00").end()
    assert _prohibited(t) == ["004_5c9c19b250457762.txt L4259-L4262"]


def test_one_player_in_two_places_is_prohibited_v_o():
    """«ocupar más de una plaza en la misma mesa» (L4274-L4275)."""
    t = Table(rake="0")
    h = t.hand(1, {"A": (1, "100.00"), "B": (2, "100.00")})
    h.ev("stack_counted", player_id="A", seat=3, amount="50.00")
    h.act("A", "small_blind", "0.50").act("B", "big_blind", "1.00").act("A", "fold").award("B", "1.50").end()
    assert _prohibited(t) == ["004_5c9c19b250457762.txt L4274-L4275"]


def test_a_players_action_taken_by_another_player_is_prohibited_v_j():
    """«abandonar la mesa de juego dejando encargada a otra persona para que ésta pueda realizar o
    igualar las demás apuestas, así como o encargárselo a otro jugador» (004 L4248-L4252): A calls
    for B (the event's actor is A, the action B's); the croupier posting C's blind is no delegation."""
    t = Table(rake="0")
    h = t.hand(1, SEATS)
    h.act("B", "small_blind", "0.50").ev("poker_action", "D-01", player_id="C", action="big_blind", amount="1.00")
    h.act("A", "call", "1.00").ev("poker_action", "A", player_id="B", action="call", amount="0.50")
    h.act("C", "check").board("2C", "7D", "9S").act("B", "bet", "1.00").act("C", "fold").act("A", "fold")
    h.award("B", "4.00").end()
    assert _prohibited(t) == ["004_5c9c19b250457762.txt L4248-L4252"]


def test_the_blinds_are_the_two_seats_after_the_marca_viii_2_b():
    """«la persona jugadoras que haga de mano ... pondrá la mitad de la apuesta mínima, y el jugador ...
    a su izquierda ... la apuesta mínima» (004 L4440-L4445): with the marca at seat 1, B (seat 2) posts
    the small blind and C (seat 3) the big one. C posting the small and B the big is a procedure
    violation citing that rule; so is a hand with no small blind (a «dead» one)."""
    for posts, flagged in (((("B", "small_blind", "0.50"), ("C", "big_blind", "1.00")), False),
                           ((("C", "small_blind", "0.50"), ("B", "big_blind", "1.00")), True),
                           ((("B", "big_blind", "1.00"),), True)):
        t = Table(rake="0")
        h = t.hand(1, SEATS)
        for p, action, amount in posts:
            h.act(p, action, amount)
        h.act("A", "fold").end()
        (v,) = judge(t)
        blinds = [x for x in v.violations if x.kind == "procedure" and "L4440-L4445" in x.citation]
        assert bool(blinds) == flagged, (posts, v.violations)
