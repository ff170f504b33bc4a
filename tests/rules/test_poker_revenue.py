"""The house's benefit at póquer en círculo in its three forms (004_5c9c19b250457762.txt I.1.10 II.4,
L4077-L4101), each due against recorded, figures worked by hand:

a) «Un porcentaje de hasta del 5 por 100 sobre el dinero aportado en cada mano», in the cagnotte before the
   winner is paid (004 L4082-L4088): the rake of each hand;
b) «Un porcentaje que oscilará por jugador y sesión entre el 10 y 20 por 100 de la apuesta máxima de la
   mesa o del resto inicial» (004 L4090-L4097);
c) «Una cantidad fija por jugador y sesión» (004 L4099-L4101).
"""

from __future__ import annotations

from decimal import Decimal

from tests.rules.poker_hands import Table, due, judge, kinds, table_findings

SEATS = {"A": (1, "100.00"), "B": (2, "100.00"), "C": (3, "100.00")}


def _fee(t: Table, player: str, amount: str) -> None:
    t.add(None, "session_fee_taken", player_id=player, amount=amount)


def _hand(t: Table, button: int = 1, rake: str | None = None, award: str = "3.00") -> None:
    """B and C post the blinds (0.50, 1.00), A folds, B calls 0.50, C checks; the flop, turn and river are
    checked; C's pair of kings beats B's: pot 2.00."""
    h = t.hand(button, SEATS)
    h.act("B", "small_blind", "0.50").act("C", "big_blind", "1.00").act("A", "fold").act("B", "call", "0.50")
    h.act("C", "check").board("2H", "7D", "9C").act("B", "check").act("C", "check")
    h.board("JS").act("B", "check").act("C", "check").board("4D").act("B", "check").act("C", "check")
    h.show("B", "KH", "3C").show("C", "KD", "8S")
    if rake:
        h.rake(rake)
    h.award("C", award).end()


def test_rake_form_a_due_and_recorded_l4082_l4088():
    """The rake form: pot 2.00, 5% = 0.10 to the cagnotte, 1.90 to C: clean. Recording 0.20 is a
    rake_discrepancy of +0.10 (and C 0.10 short)."""
    t = Table()
    _hand(t, rake="0.10", award="1.90")
    _hand(t, rake="0.20", award="1.80")
    v1, v2 = judge(t)
    assert kinds(v1) == [] and due(v1)["C"] == "1.90"
    rake = [x for x in v2.violations if x.kind == "rake_discrepancy"]
    assert [x.amount for x in rake] == [Decimal("0.10")] and "L4082-L4088" in rake[0].citation


def test_session_fee_form_c_due_and_recorded_l4099_l4101():
    """A fixed fee of 5.00 per player and session: A pays 5.00 (clean), B 6.00 (1.00 too much), A a second
    fee of 5.00 in the same session (not due: 5.00 too much). No rake is due on the hands: C is due the whole
    pot, 2.00."""
    t = Table(revenue="session_fee", session_fee="5.00")
    _fee(t, "A", "5.00")
    _fee(t, "B", "6.00")
    _hand(t, award="2.00")
    _fee(t, "A", "5.00")
    found = table_findings(t)
    assert [(x.kind, x.player_id, x.amount) for x in found] == [
        ("rake_discrepancy", "B", Decimal("1.00")), ("rake_discrepancy", "A", Decimal("5.00"))]
    assert "L4099-L4101" in found[0].citation
    (v,) = judge(t)
    assert kinds(v) == [] and due(v)["C"] == "2.00"


def test_session_rate_form_b_on_the_initial_stack_l4090_l4092():
    """15% of an initial stack of 200.00: 30.00 a player and session. A pays 30.00 (clean), B 25.00 (5.00
    too little)."""
    t = Table(revenue="session_rate", session_rate="0.15", session_base="initial_stack", initial_stack="200.00")
    _fee(t, "A", "30.00")
    _fee(t, "B", "25.00")
    found = table_findings(t)
    assert [(x.kind, x.player_id, x.amount) for x in found] == [("rake_discrepancy", "B", Decimal("-5.00"))]
    assert "L4090-L4097" in found[0].citation


def test_session_rate_form_b_on_the_table_maximum_l4090_l4092():
    """10% of a table maximum of 250.00: 25.00; C pays 25.00: clean."""
    t = Table(maximum="250.00", revenue="session_rate", session_rate="0.10")
    _fee(t, "C", "25.00")
    assert table_findings(t) == []


def test_a_session_rate_outside_10_to_20_percent_is_flagged_at_the_opening_l4090_l4092():
    t = Table(revenue="session_rate", session_rate="0.25")
    found = table_findings(t)
    assert [x.kind for x in found] == ["procedure"] and "0.25" in found[0].message


def test_under_a_session_form_a_rake_is_not_due_and_under_the_rake_a_fee_is_not_due_l4077_l4080():
    """One form per table: a 0.10 rake at a session-fee table is 0.10 too much (C is short of it); a 5.00 fee
    at a rake table is 5.00 too much."""
    t = Table(revenue="session_fee", session_fee="5.00")
    _hand(t, rake="0.10", award="1.90")
    (v,) = judge(t)
    rake = [x for x in v.violations if x.kind == "rake_discrepancy"]
    assert [x.amount for x in rake] == [Decimal("0.10")]
    t2 = Table()
    _fee(t2, "A", "5.00")
    assert [(x.kind, x.amount) for x in table_findings(t2)] == [("rake_discrepancy", Decimal("5.00"))]


def test_a_session_shorter_than_two_turns_as_postre_each_is_flagged_at_the_close_l4092_l4097():
    """Two players paid the session's fee: the session lasts at least 2 x 2 = 4 hands. Closed after 3 hands:
    flagged; after 4: clean."""
    for hands, flagged in ((3, True), (4, False)):
        t = Table(revenue="session_fee", session_fee="5.00")
        _fee(t, "A", "5.00")
        _fee(t, "B", "5.00")
        for _ in range(hands):
            _hand(t, award="2.00")
        t.add(None, "table_closed")
        found = [x for x in table_findings(t) if x.kind == "procedure"]
        assert bool(found) is flagged
        if flagged:
            assert "L4092-L4097" in found[0].citation and "3 hands" in found[0].message


def test_session_options_the_engine_cannot_read_are_flagged_not_crashed_on_l4090_l4101():
    """A rate that is not a number, a base that is neither, no fee announced: each is a procedure finding at
    the opening, and the fees taken then are not compared (nothing to compare with)."""
    for options in ({"revenue": "session_rate", "session_rate": "ten"},
                    {"revenue": "session_rate", "session_rate": "0.10", "session_base": "stack"},
                    {"revenue": "session_fee"}):
        t = Table(**options)
        _fee(t, "A", "5.00")
        assert [x.kind for x in table_findings(t)] == ["procedure"], options
