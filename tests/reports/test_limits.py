"""The limits in force during a month and the breaches under each (:mod:`pitwatch.reports.limits`):
a case worked out by hand and the invariants (every breach counted once, under the limits in force
when it was detected) with hypothesis."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st
from pitwatch.reports.limits import limits_in_force

D = Decimal
START = 1_000


def test_limits_worked_out_by_hand():
    """T1: 5-900 at 100 (before the month), 10-500 at 500 (before too: it replaces the first), the
    same 10-500 again at 1500 (a reopening: no line), 5-900 at 2000. A breach at 1800 counts under
    10-500, one at 2500 under 5-900. T2 opened before the month with no breach and no figures: not
    listed. T3 has a breach and no known opening: a line with empty limits. T4 has figures and
    its limits of before the month."""
    settings = [("T1", "g", 100, "5.00", "900.00"), ("T1", "g", 500, "10.00", "500.00"),
                ("T1", "g", 1500, "10.00", "500.00"), ("T1", "g", 2000, "5.00", "900.00"),
                ("T2", "g", 200, "1.00", "10.00"), ("T4", "g", 300, "2.00", "20.00")]
    breaches = [("T1", "bet_above_maximum", 1800, "50.00"), ("T1", "bet_below_minimum", 2500, "1.00"),
                ("T3", "bet_above_maximum", 1200, "7.50")]
    rows = limits_in_force(settings, breaches, START, ["T4"])
    assert [(r["table_id"], r["min_bet"], r["max_bet"], r["since"], r["below_minimum"], r["above_maximum"],
             r["amount"]) for r in rows] == [
        ("T1", "10.00", "500.00", 500, 0, 1, D("50.00")),
        ("T1", "5.00", "900.00", 2000, 1, 0, D("1.00")),
        ("T3", None, None, None, 0, 1, D("7.50")),
        ("T4", "2.00", "20.00", 300, 0, 0, D("0.00"))]


LIMITS = st.sampled_from([("5.00", "900.00"), ("10.00", "500.00"), ("20.00", "2000.00")])


@given(st.lists(st.tuples(st.sampled_from(["A", "B"]), st.integers(0, 3000), LIMITS), max_size=12),
       st.lists(st.tuples(st.sampled_from(["A", "B", "C"]), st.sampled_from(["bet_below_minimum", "bet_above_maximum"]),
                          st.integers(START, 3000), st.decimals("0.01", "999.99", places=2)), max_size=12))
def test_every_breach_counts_once_under_the_limits_then_in_force(raw_settings, breaches):
    settings = [(t, "g", at, low, high) for t, at, (low, high) in sorted(raw_settings, key=lambda s: (s[0], s[1]))]
    rows = limits_in_force(settings, breaches, START)
    assert sum(r["below_minimum"] + r["above_maximum"] for r in rows) == len(breaches)
    assert sum(r["amount"] for r in rows) == sum((b[3] for b in breaches), D("0"))
    for table, _kind, at, _amount in breaches:
        known = [s for s in settings if s[0] == table and s[2] <= at]
        if known:  # counted under the last limits set at or before it
            want = (known[-1][3], known[-1][4])
            under = [r for r in rows if r["table_id"] == table and r["since"] is not None and r["since"] <= at]
            assert (under[-1]["min_bet"], under[-1]["max_bet"]) == want
    for table in {r["table_id"] for r in rows}:
        mine = [r for r in rows if r["table_id"] == table and r["since"] is not None]
        assert all(a["since"] < b["since"] and (a["min_bet"], a["max_bet"]) != (b["min_bet"], b["max_bet"])
                   for a, b in zip(mine, mine[1:]))
