"""Seven-card stud («Seven Stud Póquer», 004_5c9c19b250457762.txt I.1.10.B).1, L4969-L5185) through the
engine, every figure worked by hand from the regulation:

- every player antes, then «los dos primeros cubiertos y el tercero descubierto» (004 L5003-L5007);
  the fourth to sixth cards face up, the seventh face down (004 L5019-L5052);
- «El jugador o jugadora que haya obtenido la carta más baja de entre las destapadas hablará primero,
  sin que pueda pasar ni retirarse» with at least the table minimum; equal ranks by the suits «de mayor
  a menor: Picas, Corazones, Diamantes y Tréboles» (004 L5009-L5017);
- later streets are opened by «la combinación de naipes más alta» showing (004 L5019-L5031);
- fixed limit: the minimum in the first two intervals, twice it in the next three; a pair showing in
  the first two up cards allows the high limit (004 L4989-L4998);
- the best five of the seven win (004 L4974-L4981); the rake is 5% of the pot rounded down
  (004 L4082-L4088).

The table: minimum 1.00, fixed limit, ante 0.50 (at most half the minimum, 004 L4433-L4436); the marca at
seat 4 (D), so the «mano» is A at seat 1.
"""

from __future__ import annotations

from decimal import Decimal

from pitwatch.rules.poker.stud import best_up_cards, lowest_up_card

from tests.rules.poker_hands import Hand, Table, due, judge, kinds

SEATS = {"A": (1, "100.00"), "B": (2, "100.00"), "C": (3, "100.00"), "D": (4, "100.00")}


def _third_street(t: Table, downs: bool = True) -> Hand:
    """Antes 4 x 0.50; third street: A 2H 7H / KH, B 2C 7D / 3C, C AH 5S / 3D, D QC JC / 8H. The lowest up
    card: B's 3C and C's 3D are equal in rank, clubs is the lowest suit: B brings in."""
    h = t.hand(4, SEATS)
    for p in "ABCD":
        h.act(p, "ante", "0.50")
    down = {1: ("2H", "7H"), 2: ("2C", "7D"), 3: ("AH", "5S"), 4: ("QC", "JC")}
    for k in range(2 if downs else 0):
        for seat in (1, 2, 3, 4):
            h.deal(seat, down[seat][k])
    for seat, card in ((1, "KH"), (2, "3C"), (3, "3D"), (4, "8H")):
        h.deal(seat, card, up=True)
    return h


def _full_hand(t: Table, fourth_opener: str = "C", downs: bool = True) -> Hand:
    """The whole hand (module docstring's table):

    - third street: B brings in 1.00, C calls, D folds, A raises to 2.00, B and C call: pot 2.00 + 3 x 2.00 = 8.00;
    - fourth street (A 4C, B KS, C 3S up): C shows the pair of threes and opens: he bets 2.00 (the high limit
      his open pair allows), A calls, B folds: pot 12.00;
    - fifth (A 5H, C 6D up): C still shows the best (a pair): C checks, A bets 2.00 (high limit), C calls: 16.00;
    - sixth (A 9H, C AS up): C bets 2.00, A raises to 4.00, C calls: 24.00;
    - seventh (A 9D, C 6C down): C checks, A bets 2.00, C calls: 28.00.

    A put in 0.50 + 2 + 2 + 2 + 4 + 2 = 12.50, C the same, B 0.50 + 2 = 2.50, D 0.50: 28.00."""
    h = _third_street(t, downs)
    h.act("B", "bring_in", "1.00").act("C", "call", "1.00").act("D", "fold").act("A", "raise", "2.00")
    h.act("B", "call", "1.00").act("C", "call", "1.00")
    h.deal(1, "4C", up=True).deal(2, "KS", up=True).deal(3, "3S", up=True)
    if fourth_opener == "C":
        h.act("C", "bet", "2.00").act("A", "call", "2.00").act("B", "fold")
    else:  # A (K 4 showing) speaks before C (3 3 showing): out of turn
        h.act("A", "bet", "2.00").act("B", "fold").act("C", "call", "2.00")
    h.deal(1, "5H", up=True).deal(3, "6D", up=True)
    h.act("C", "check").act("A", "bet", "2.00").act("C", "call", "2.00")
    h.deal(1, "9H", up=True).deal(3, "AS", up=True)
    h.act("C", "bet", "2.00").act("A", "raise", "4.00").act("C", "call", "2.00")
    h.deal(1, "9D").deal(3, "6C")
    h.act("C", "check").act("A", "bet", "2.00").act("C", "call", "2.00")
    return h


def test_a_stud_hand_played_by_the_rules_is_settled_exactly_l4969_l5185():
    """The showdown of the best five of seven (004 L4974-L4981): A's seven 2H 7H KH 4C 5H 9H 9D hold a heart
    flush K 9 7 5 2 (better than his pair of nines); C's AH 5S 3D 3S 6D AS 6C two pairs, aces and sixes.
    The flush wins: pot 28.00 less 5% (1.40) = 26.60 to A."""
    t = Table(variant="stud", structure="fixed_limit")
    h = _full_hand(t)
    h.show("A", "2H", "7H", "KH", "4C", "5H", "9H", "9D").show("C", "AH", "5S", "3D", "3S", "6D", "AS", "6C")
    h.rake("1.40").award("A", "26.60").end()
    (v,) = judge(t)
    assert kinds(v) == []
    assert due(v) == {"A": "26.60", "B": "0.00", "C": "0.00", "D": "0.00"}
    assert {c.expected.player_id: c.expected.stake for c in v.checks} == {
        "A": Decimal("12.50"), "B": Decimal("2.50"), "C": Decimal("12.50"), "D": Decimal("0.50")}
    assert sum(f.win for f in v.figures) == Decimal("1.40")


def test_stud_showdown_reads_the_seven_cards_dealt_with_only_the_hole_cards_shown_l4974_l4981():
    """A and C show only their three down cards: the croupier reads them with the four up cards dealt
    (the same seven, the same flush): A is due 26.60. Paying C instead is flagged both ways."""
    t = Table(variant="stud", structure="fixed_limit")
    h = _full_hand(t)
    h.show("A", "2H", "7H", "9D").show("C", "AH", "5S", "6C").rake("1.40").award("C", "26.60").end()
    (v,) = judge(t)
    amounts = {x.player_id: x.amount for x in v.violations if x.kind == "payout_discrepancy"}
    assert amounts == {"A": Decimal("-26.60"), "C": Decimal("26.60")}


def test_stud_bring_in_by_the_wrong_player_is_flagged_l5009_l5017():
    """B's 3C is the lowest up card (clubs below diamonds): C bringing in with his 3D is flagged, citing
    the bring-in rule; the bet stands and the hand goes on (004 L5159-L5163)."""
    t = Table(variant="stud", structure="fixed_limit")
    h = _third_street(t)
    h.act("C", "bring_in", "1.00").act("D", "fold").act("A", "call", "1.00").act("B", "call", "1.00")
    h.ev("round_ended")
    (v,) = judge(t)
    wrong = [x for x in v.violations if x.kind == "illegal_decision"]
    assert len(wrong) == 1 and wrong[0].player_id == "C"
    assert "L5009-L5017" in wrong[0].citation and "B's" in wrong[0].message and "the bet stands" in wrong[0].message


def test_stud_bring_in_may_not_check_or_fold_l5009_l5017():
    """The lowest up card «hablará primero, sin que pueda pasar ni retirarse»: B checking is flagged. C's bet
    of 1.00 nobody calls goes back to him; the pot is the four antes, 2.00, less 5% (0.10): 1.90 to C."""
    t = Table(variant="stud", structure="fixed_limit")
    h = _third_street(t)
    h.act("B", "check").act("C", "bet", "1.00").act("D", "fold").act("A", "fold").act("B", "fold")
    h.back("C", "1.00").award("C", "1.90").rake("0.10").end()
    (v,) = judge(t)
    assert [(x.kind, x.player_id) for x in v.violations] == [("illegal_decision", "B")]
    assert "L5009-L5017" in v.violations[0].citation
    assert due(v) == {"A": "0.00", "B": "0.00", "C": "2.90", "D": "0.00"}


def test_stud_fourth_street_is_opened_by_the_best_up_cards_not_the_highest_card_l5019_l5031():
    """On fourth street C shows 3D 3S (a pair), A KH 4C (king high): C speaks first. A betting first is
    flagged citing the opener rule; the rest of the hand is the same and settled the same (26.60 to A)."""
    t = Table(variant="stud", structure="fixed_limit")
    h = _full_hand(t, fourth_opener="A")
    h.show("A", "2H", "7H", "KH", "4C", "5H", "9H", "9D").show("C", "AH", "5S", "3D", "3S", "6D", "AS", "6C")
    h.rake("1.40").award("A", "26.60").end()
    (v,) = judge(t)
    assert [x.kind for x in v.violations] == ["illegal_decision"]
    assert "L5019-L5031" in v.violations[0].citation and "it is C's" in v.violations[0].message
    assert due(v)["A"] == "26.60"


def test_fourth_street_high_limit_only_with_a_pair_showing_l4989_l4998():
    """Without a pair showing, fourth street is at the low limit (the minimum, 1.00): a 2.00 bet is flagged.
    With the open pair (the full hand above) the same 2.00 is the high limit, allowed."""
    t = Table(variant="stud", structure="fixed_limit")
    h = _third_street(t)
    h.act("B", "bring_in", "1.00").act("C", "call", "1.00").act("D", "fold").act("A", "call", "1.00")
    h.deal(1, "4C", up=True).deal(2, "KS", up=True).deal(3, "5D", up=True)  # no pair: A K 4 opens (K4 > K3)
    h.act("A", "bet", "2.00").act("B", "fold").act("C", "fold")
    h.back("A", "2.00").award("A", "4.75").rake("0.25").end()
    (v,) = judge(t)
    assert [(x.kind, x.player_id) for x in v.violations] == [("illegal_decision", "A")]
    assert "L4388-L4390" in v.violations[0].message


def test_a_stud_card_of_the_next_street_while_the_betting_is_open_is_premature_l5143_l5146():
    t = Table(variant="stud", structure="fixed_limit")
    h = _third_street(t)
    h.act("B", "bring_in", "1.00").act("C", "call", "1.00")
    h.deal(1, "4C", up=True)  # D and A have not acted
    h.end()
    (v,) = judge(t)
    assert "procedure" in kinds(v)
    assert any("L5143-L5153" in x.citation for x in v.violations)


def test_stud_is_dealt_to_four_to_eight_players_l4974_l4977():
    t = Table(variant="stud", structure="fixed_limit")
    h = t.hand(3, {"A": (1, "100.00"), "B": (2, "100.00"), "C": (3, "100.00")})
    h.deal(1, "2H", "7H").deal(2, "2C", "7D").deal(3, "AH", "5S")
    h.deal(1, "KH", up=True).deal(2, "3C", up=True).deal(3, "3D", up=True)
    h.act("B", "bring_in", "1.00").act("C", "fold").act("A", "fold").back("B", "0.00").award("B", "1.00").end()
    (v,) = judge(t)
    assert [x.kind for x in v.violations] == ["procedure"] and "L4971-L4981" in v.violations[0].citation


def test_lowest_up_card_breaks_ties_by_suit_clubs_lowest_and_the_ace_is_high_l5015_l5017():
    up = {"A": ["3D"], "B": ["3C"], "C": ["AS"], "D": ["3H"]}
    assert lowest_up_card(up, "SHDC") == "B"
    assert lowest_up_card({"A": ["AC"], "B": ["KS"]}, "SHDC") == "B"


def test_best_up_cards_pairs_beat_high_cards_and_equal_hands_go_to_the_closest_to_the_mano_l5024_l5029():
    assert best_up_cards({"A": ["AH", "KD"], "B": ["2C", "2D"]}) == "B"
    assert best_up_cards({"A": ["KH", "4C"], "B": ["KS", "3C"]}) == "A"
    assert best_up_cards({"B": ["KH", "4C"], "A": ["KS", "4D"]}) == "B"  # equal: the first from the mano
    assert best_up_cards({"A": ["5H", "6H", "7H", "8H"], "B": ["2C", "2D", "3S", "9C"]}) == "B"  # no straight, no colour


def test_a_stud_record_without_the_hole_cards_follows_the_streets_by_the_up_cards_l5003_l5052():
    """A hand history may miss the two hole cards of each player (it knows the up cards, the seventh card
    dealt down, and the hands shown): the n-th up card is the player's (n + 2)-th card and a down card after
    four up cards is his seventh, so every street still closes and opens as it should. The hand above
    settles the same, with no violation: 26.60 to A."""
    t = Table(variant="stud", structure="fixed_limit")
    h = _full_hand(t, downs=False)
    h.show("A", "2H", "7H", "KH", "4C", "5H", "9H", "9D").show("C", "AH", "5S", "3D", "3S", "6D", "AS", "6C")
    h.rake("1.40").award("A", "26.60").end()
    (v,) = judge(t)
    assert kinds(v) == []
    assert due(v)["A"] == "26.60"


def test_a_stud_hand_shown_with_six_cards_is_void_l5051_l5052():
    """Without the hole cards on record, A shows one hole card only (2H; his 7H missing): with the five
    dealt on record, six cards. «Una mano con más o menos de siete cartas se considerará nula»: flagged, and
    his flush no longer counts: C's two pairs take the pot, 26.60."""
    t = Table(variant="stud", structure="fixed_limit")
    h = _full_hand(t, downs=False)
    h.show("A", "2H", "KH", "4C", "5H", "9H", "9D").show("C", "AH", "5S", "3D", "3S", "6D", "AS", "6C")
    h.rake("1.40").award("C", "26.60").end()
    (v,) = judge(t)
    assert [x.kind for x in v.violations] == ["procedure"]
    assert "L5046-L5052, L5125-L5126" in v.violations[0].citation
    assert due(v)["C"] == "26.60"
