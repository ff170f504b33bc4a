"""Five-card draw («Póquer cubierto de cinco cartas con descarte», 004_5c9c19b250457762.txt I.1.10.A,
L4824-L4967) through the engine, every figure worked by hand from the regulation:

- the ante, then «recibirán cinco cubiertos» and the first interval from the «mano» (004 L4838-L4844);
- «"Abrir" el bote haciendo una apuesta, siempre que haya obtenido una pareja de J o una combinación de
  superior valor» (004 L4846-L4848); the opener who cannot show it may not win (004 L4955-L4964);
- the draw: «descartarse, de uno o más naipes», starting with the opener, each dealt as many «de manera
  que tenga cinco» before the next discards (004 L4875-L4884);
- the second interval opened by the opener, then the showdown (004 L4916-L4923);
- «Figuras» (five of A, K, Q, J) rank above «doble pareja», only in this variety (004 L4310-L4316);
- the rake, 5% of the pot rounded down (004 L4082-L4088).

The table: minimum 1.00, no limit, ante 0.50; the marca at seat 3 (C): the «mano» is A at seat 1.
"""

from __future__ import annotations

from decimal import Decimal

from tests.rules.poker_hands import Hand, Table, due, judge, kinds

SEATS = {"A": (1, "100.00"), "B": (2, "100.00"), "C": (3, "100.00")}
B_CARDS = ("QH", "QC", "8D", "8S", "2C")


def _first_interval(t: Table, a_cards: tuple[str, ...] = ("JS", "JD", "4C", "7H", "9S"),
                    b_cards: tuple[str, ...] = B_CARDS) -> Hand:
    """Antes 3 x 0.50; five cards each (C: AS KD 5C 6H 3D); A opens with 2.00, B raises to 6.00, C folds, A
    calls 4.00: pot 1.50 + 6.00 + 6.00 = 13.50."""
    h = t.hand(3, SEATS)
    for p in "ABC":
        h.act(p, "ante", "0.50")
    for k in range(5):
        h.deal(1, a_cards[k]).deal(2, b_cards[k]).deal(3, ("AS", "KD", "5C", "6H", "3D")[k])
    h.act("A", "bet", "2.00").act("B", "raise", "6.00").act("C", "fold").act("A", "call", "4.00")
    return h


def _found(v) -> list[tuple[str, str | None]]:
    """The violations but the awards' (a hand left without its showdown and awards)."""
    return [(x.kind, x.player_id) for x in v.violations if x.kind not in ("rake_discrepancy", "payout_discrepancy")]


def _after_draw(h: Hand) -> Hand:
    """Second interval, A (the opener) first: A checks, B bets 5.00, A calls: pot 13.50 + 10.00 = 23.50; A and B
    each put in 0.50 + 6.00 + 5.00 = 11.50, C 0.50."""
    return h.act("A", "check").act("B", "bet", "5.00").act("A", "call", "5.00")


def test_a_draw_hand_with_the_discards_and_the_showdown_is_settled_exactly_l4838_l4923():
    """A (JJ, may open) changes three and draws JH 2D 5S: three jacks. B (QQ 88) changes the 2C for the 8H:
    a full house, eights full of queens, which wins. Pot 23.50, rake 5% = 1.175 rounded down to 1.17:
    22.33 to B."""
    t = Table(variant="draw")
    h = _first_interval(t)
    h.discard("A", 3, "4C", "7H", "9S").deal(1, "JH", "2D", "5S")
    h.discard("B", 1, "2C").deal(2, "8H")
    _after_draw(h).show("B", "QH", "QC", "8D", "8S", "8H").show("A", "JS", "JD", "JH", "2D", "5S")
    h.rake("1.17").award("B", "22.33").end()
    (v,) = judge(t)
    assert kinds(v) == []
    assert due(v) == {"A": "0.00", "B": "22.33", "C": "0.00"}
    assert {c.expected.player_id: c.expected.stake for c in v.checks} == {
        "A": Decimal("11.50"), "B": Decimal("11.50"), "C": Decimal("0.50")}
    assert sum(f.win for f in v.figures) == Decimal("1.17")


def test_a_discard_beyond_the_five_cards_held_is_flagged_l4875_l4884():
    """B announces six discards: he holds five; at most the five are changed «de manera que tenga cinco»."""
    t = Table(variant="draw")
    h = _first_interval(t)
    h.discard("A", 3).deal(1, "JH", "2D", "5S").discard("B", 6).deal(2, "8H", "3H", "4H", "6S", "7S", "TC")
    _after_draw(h).end()
    (v,) = judge(t)
    flagged = [x for x in v.violations if x.kind == "illegal_decision"]
    assert [x.player_id for x in flagged] == ["B"] and "L4875-L4889" in flagged[0].citation


def test_a_replacement_count_other_than_the_discard_is_flagged_l4880_l4884():
    """A discards three and is dealt two before B discards: A would hold four cards."""
    t = Table(variant="draw")
    h = _first_interval(t)
    h.discard("A", 3).deal(1, "JH", "2D").discard("B", 1).deal(2, "8H")
    _after_draw(h).end()
    (v,) = judge(t)
    assert _found(v) == [("procedure", "A")]
    assert "1 missing" in v.violations[0].message


def test_the_draw_starts_with_the_opener_l4875_l4879():
    """B discards before A, who opened: out of turn."""
    t = Table(variant="draw")
    h = _first_interval(t)
    h.discard("B", 1).deal(2, "8H").discard("A", 3).deal(1, "JH", "2D", "5S")
    _after_draw(h).end()
    (v,) = judge(t)
    assert _found(v) == [("procedure", "B")]
    assert "L4875-L4884, L4916-L4923" in v.violations[0].citation


def test_the_second_interval_is_opened_by_the_opener_l4916_l4919():
    """After the draw B bets before A, the opener: out of turn (the turn rule)."""
    t = Table(variant="draw")
    h = _first_interval(t)
    h.discard("A", 0).discard("B", 0)
    h.act("B", "bet", "5.00").act("A", "call", "5.00").end()
    (v,) = judge(t)
    assert _found(v) == [("illegal_decision", "B")]


def test_an_opener_without_a_pair_of_jacks_is_a_false_opener_and_cannot_win_l4846_l4848_l4955_l4964():
    """A opens with 10s (TS TD 4C 7H 9S): flagged. He draws to three tens, better than B's pair of queens
    (B changes three: QH QC + 4S 6D 9C), but a false opener «no podrá ganar el bote»: B is due the pot, 23.50
    less 1.17 = 22.33."""
    t = Table(variant="draw")
    h = _first_interval(t, a_cards=("TS", "TD", "4C", "7H", "9S"), b_cards=("QH", "QC", "8D", "7S", "2C"))
    h.discard("A", 3, "4C", "7H", "9S").deal(1, "TH", "2D", "5S")
    h.discard("B", 3, "8D", "7S", "2C").deal(2, "4S", "6D", "9C")
    _after_draw(h).show("B", "QH", "QC", "4S", "6D", "9C").show("A", "TS", "TD", "TH", "2D", "5S")
    h.rake("1.17").award("B", "22.33").end()
    (v,) = judge(t)
    assert [(x.kind, x.player_id) for x in v.violations] == [("illegal_decision", "A")]
    assert "L4891-L4896, L4955-L4964" in v.violations[0].citation
    assert due(v) == {"A": "0.00", "B": "22.33", "C": "0.00"}


def test_figuras_beat_two_pairs_in_the_draw_l4310_l4316():
    """A stands pat with AS AH KD QC JS: a pair of aces by the usual ranking, but five of A, K, Q, J are
    «figuras», above «doble pareja»: they beat B's queens and eights (QH QC 8D 8S 2C, standing pat too).
    Pot 23.50: A is due 22.33."""
    t = Table(variant="draw")
    h = _first_interval(t, a_cards=("AS", "AH", "KD", "QC", "JS"))
    h.discard("A", 0).discard("B", 0)
    _after_draw(h).show("B", *B_CARDS).show("A", "AS", "AH", "KD", "QC", "JS")
    h.rake("1.17").award("A", "22.33").end()
    (v,) = judge(t)
    assert kinds(v) == []
    assert due(v) == {"A": "22.33", "B": "0.00", "C": "0.00"}


def test_a_draw_nobody_opened_is_a_blank_hand_l4863_l4866():
    t = Table(variant="draw")
    h = t.hand(3, SEATS)
    for p in "ABC":
        h.act(p, "ante", "0.50")
    h.act("A", "check").act("B", "check").act("C", "check").discard("A", 1).deal(1, "2H").end()
    (v,) = judge(t)
    assert any(x.kind == "procedure" and "L4842-L4853" in x.citation for x in v.violations)


def test_when_the_opener_folded_the_draw_and_second_interval_start_after_him_l4916_l4919():
    """A opens (2.00), B raises to 6.00, C calls 6.00, A folds: the draw and the second interval start with
    the first live player after A (B, the ruleset's reading of «a su derecha»), then C. Both stand pat, B
    checks, C bets 4.00, B folds: C's 4.00 back; the pot 1.50 + 2.00 + 6.00 + 6.00 = 15.50 less 5% (0.775,
    rounded down 0.77): 14.73 to C, who is due 18.73 with his bet."""
    t = Table(variant="draw")
    h = t.hand(3, SEATS)
    for p in "ABC":
        h.act(p, "ante", "0.50")
    for k in range(5):
        h.deal(1, ("JS", "JD", "4C", "7H", "9S")[k]).deal(2, B_CARDS[k]).deal(3, ("AS", "KD", "5C", "6H", "3D")[k])
    h.act("A", "bet", "2.00").act("B", "raise", "6.00").act("C", "call", "6.00").act("A", "fold")
    h.discard("B", 0).discard("C", 0)
    h.act("B", "check").act("C", "bet", "4.00").act("B", "fold")
    h.back("C", "4.00").rake("0.77").award("C", "14.73").end()
    (v,) = judge(t)
    assert kinds(v) == []
    assert due(v) == {"A": "0.00", "B": "0.00", "C": "18.73"}
