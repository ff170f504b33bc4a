"""Property tests of the French roulette rules (hypothesis).

The oracle here is independent of pitwatch.rules.roulette: it reads the numbers a spot covers
from the code itself (or from the layout definitions of 000 L97 / L145-L151 and the red list)
and uses the fact that every payout of the texts is ``36 / covered - 1`` to 1 (000 L121-L151,
004 L221-L302): a winning bet returns ``stake x 36 / covered``.
"""

from __future__ import annotations

from decimal import Decimal

import pitwatch.rules.roulette as roulette
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.rules.test_roulette import AND, GAL, RouletteScript, settled

D = Decimal
RED_LIST = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
SIMPLE = {"red": RED_LIST, "black": set(range(1, 37)) - RED_LIST, "even": set(range(2, 37, 2)),
          "odd": set(range(1, 36, 2)), "manque": set(range(1, 19)), "passe": set(range(19, 37))}
ALL_CODES = sorted(roulette.SPOTS)
PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def covered(code: str) -> set[int]:
    """Numbers a spot covers, derived from the code (oracle)."""
    if code in SIMPLE:
        return SIMPLE[code]
    kind, _, rest = code.partition(":")
    if kind in ("column", "columns"):
        return {n for c in map(int, rest.split("-")) for n in range(1, 37) if (n - c) % 3 == 0}
    if kind in ("dozen", "dozens"):
        return {n for d in map(int, rest.split("-")) for n in range(12 * d - 11, 12 * d + 1)}
    return set(map(int, rest.split("-")))


def oracle_returned(code: str, stake: Decimal, n: int, zero_choice: str) -> Decimal:
    if code in SIMPLE and n == 0:
        return (stake / 2).quantize(D("0.01"), rounding="ROUND_DOWN") if zero_choice == "half_back" else D("0.00")
    nums = covered(code)
    return stake * 36 / len(nums) if n in nums else D("0.00")


stakes = st.integers(min_value=1, max_value=30).map(lambda u: D(5) * u)   # within tier-3 limits
bet_lists = st.lists(st.tuples(st.sampled_from(ALL_CODES), stakes), min_size=1, max_size=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), bets=bet_lists, straight_stake=stakes, ruleset=st.sampled_from([GAL, AND]),
       zero_choice=st.sampled_from(["half_back", "en_prison"]))
def test_bets_covering_all_pockets_return_the_right_total(data, bets, straight_stake, ruleset, zero_choice):
    """A set of bets covering all 37 pockets (random spots, plus straight-ups on every pocket not
    yet covered) returns, for every outcome, the total the 36/covered rule gives. The outcome is
    drawn uniformly or from the numbers of one of the random bets (so every kind gets to win)."""
    n = data.draw(st.one_of(st.integers(0, 36),
                            st.sampled_from(bets).flatmap(lambda b: st.sampled_from(sorted(covered(b[0])))) ))
    cov = set().union(*(covered(c) for c, _ in bets))
    bets = bets + [(f"straight:{k}", straight_stake) for k in range(37) if k not in cov]
    assert set().union(*(covered(c) for c, _ in bets)) == set(range(37))
    s = RouletteScript(ruleset, options={"max_tier": "3"})
    placed = [(f"B{i}", c, st_) for i, (c, st_) in enumerate(bets)]
    decisions = [(bid, zero_choice) for bid, c, _ in placed if c in SIMPLE] if n == 0 else []
    v = s.spin(placed, number=n, decisions=decisions)
    assert [x.kind for x in v.violations if x.kind != "payout_discrepancy"] == []
    got = sum((c.expected.returned for c in v.checks), D(0))
    want = sum((oracle_returned(c, st_, n, zero_choice) for _, c, st_ in placed), D(0))
    assert got == want
    assert any(c.expected.returned > 0 for c in v.checks)   # something always covers n


def test_straight_ups_on_all_37_pockets_return_36_units_for_every_outcome():
    """One 5 EUR straight-up on each of the 37 pockets: every outcome returns 180 EUR (35:1, 000 L133)."""
    for n in range(37):
        s = RouletteScript(GAL)
        v = s.spin([(f"B{k}", f"straight:{k}", "5") for k in range(37)], number=n)
        assert sum((c.expected.returned for c in v.checks), D(0)) == D("180.00")


@PROPS
@given(data=st.data(), n=st.integers(0, 36), ruleset=st.sampled_from([GAL, AND]))
def test_payouts_do_not_depend_on_bet_order(data, n, ruleset):
    """The same bets placed in any order settle to the same amounts."""
    bets = data.draw(st.lists(st.tuples(st.sampled_from(ALL_CODES), stakes), min_size=1, max_size=10))
    placed = [(f"B{i}", c, s_) for i, (c, s_) in enumerate(bets)]
    shuffled = data.draw(st.permutations(placed))
    decisions = [(bid, "half_back") for bid, c, _ in placed if c in SIMPLE and bid.endswith(("1", "3", "5"))]
    a = settled(RouletteScript(ruleset, options={"max_tier": "3"}).spin(placed, number=n, decisions=decisions))
    b = settled(RouletteScript(ruleset, options={"max_tier": "3"}).spin(
        list(shuffled), number=n, decisions=list(reversed(decisions))))
    assert a == b


@PROPS
@given(stake=st.integers(min_value=500, max_value=100000).map(lambda c: D(c) / 100),
       prior_zeros=st.integers(0, 4), final=st.sampled_from(["half_back", "en_prison", None]),
       last=st.booleans(), spot=st.sampled_from(sorted(SIMPLE)), ruleset=st.sampled_from([GAL, AND]),
       default=st.sampled_from(["half_back", "en_prison"]))
def test_zero_never_pays_a_simple_chance_more_than_its_stake(stake, prior_zeros, final, last, spot,
                                                             ruleset, default):
    """Whatever the decisions, the count of consecutive zeros, the last-spin flag and the
    default: on a zero a simple chance gets back at most its stake (and at most the initial
    stake), and an imprisoned bet is never released for more than it held."""
    s = RouletteScript(ruleset, options={"zero_default": default})
    v = s.spin([("B1", spot, stake)], number=0, decisions=[("B1", "en_prison")])
    for _ in range(prior_zeros):
        if "B1" not in s.engine.ctx.book:
            break
        v = s.spin([], number=0, decisions=[("B1", "en_prison")])
    if "B1" in s.engine.ctx.book:
        v = s.spin([("B2", spot, stake)], number=0, last=last,
                   decisions=[(b, final) for b in ("B1", "B2")] if final else [])
        for c in v.checks:
            assert c.expected.returned <= c.expected.stake <= stake
            assert c.expected.outcome in ("half_back", "en_prison")
        held = {c.expected.bet_id: c.expected.stake for c in v.checks}
        v2 = s.spin([], number=next(iter(SIMPLE[spot])))
        for c in v2.checks:
            assert c.expected.outcome == "released"
            assert c.expected.returned <= held[c.expected.bet_id] <= stake
