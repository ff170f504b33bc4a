"""A poker betting interval (:mod:`pitwatch.rules.poker.betting`) under Andalucía's rules
(004_5c9c19b250457762.txt I.1.10): turn, check, call, bet and raise as IX.6 and VII.1-VII.2 say,
with hand-worked intervals; then every action of 999 real no-limit hold'em hands (a real server
enforced turn, calls and stacks) folded through it: none breaks a rule."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.rules.poker.betting import BettingError, BettingRound

from tests.rules.phh import posted_blinds, real_hands

D = Decimal


def _preflop(structure="no_limit", **kw) -> BettingRound:
    """Four players, 100 each; A small blind 5, B big blind 10 (004 L4440-L4445: half the
    minimum and the minimum); C first to act, then D, A, B."""
    stacks = {"A": D(95), "B": D(90), "C": D(100), "D": D(100)}
    return BettingRound(["C", "D", "A", "B"], stacks, structure, D(10), {"A": D(5), "B": D(10)}, **kw)


def test_calls_then_the_big_blind_may_check_its_option():
    """Everybody calls 10 (IX.6.c); the big blind may still check (the blinds' option, 004
    L4445-L4448) and the interval closes with 40 in it."""
    r = _preflop()
    r.act("C", "call", D(10))
    r.act("D", "call", D(10))
    r.act("A", "call", D(5))
    assert r.to_act == "B" and not r.over
    r.act("B", "check")
    assert r.over and r.pot_now() == D(40)


def test_a_raise_must_at_least_double_the_highest_bet_ix_6_d():
    """Facing 10, a raise to 15 is refused (at least 20: 004 L4529-L4533); to 20 it stands, and
    the next raise must reach 40."""
    r = _preflop()
    with pytest.raises(BettingError, match="less than double") as e:
        r.act("C", "raise", D(15))
    assert e.value.rule == "raise" and r.to_act == "C"  # nothing changed
    r.act("C", "raise", D(20))
    with pytest.raises(BettingError, match="double the highest bet 20"):
        r.act("D", "raise", D(35))
    r.act("D", "raise", D(40))
    assert r.highest == D(40)


def test_turn_check_and_call_are_enforced():
    """Out of turn (IX.6), checking facing a bet (IX.6.b), calling with more than the bet (IX.6.c,
    «nunca superior»)."""
    r = _preflop()
    with pytest.raises(BettingError, match="out of turn"):
        r.act("D", "call", D(10))
    with pytest.raises(BettingError, match="«pasar» only when"):
        r.act("C", "check")
    with pytest.raises(BettingError, match="never more"):
        r.act("C", "call", D(15))


def test_a_short_all_in_raise_does_not_reopen_the_betting_vii_2():
    """C raises to 20; D is all-in for 30 (short of the 40 a raise needs: accepted, no increment,
    004 L4420-L4423); A and B fold; C, who already acted, may call the 10 but not raise."""
    stacks = {"A": D(95), "B": D(90), "C": D(100), "D": D(30)}
    r = BettingRound(["C", "D", "A", "B"], stacks, "no_limit", D(10), {"A": D(5), "B": D(10)})
    r.act("C", "raise", D(20))
    r.act("D", "raise", D(30))
    r.act("A", "fold")
    r.act("B", "fold")
    with pytest.raises(BettingError, match="does not reopen") as e:
        r.act("C", "raise", D(60))
    assert e.value.rule == "reopen"
    r.act("C", "call", D(10))
    assert r.over and r.pot_now() == D(75)


def test_pot_limit_caps_the_bet_at_the_pot_vii_1_b():
    """Pot 40 from earlier: a bet above 40 is refused; after a bet of 40, a raise may reach at
    most 40 + (40 + 40 + 40) = 160 (the highest bet plus the pot once called, 004 L4395-L4402)."""
    r = BettingRound(["A", "B"], {"A": D(500), "B": D(500)}, "pot_limit", D(10), pot=D(40))
    with pytest.raises(BettingError, match="above the pot of 40"):
        r.act("A", "bet", D(41))
    r.act("A", "bet", D(40))
    with pytest.raises(BettingError, match=r"above the highest bet and the pot once called \(160\)"):
        r.act("B", "raise", D(161))
    r.act("B", "raise", D(160))


def test_fixed_limit_three_raises_unless_heads_up_vii_1_a():
    """Increment 10: bet 10, then raises of exactly 10 more; a fourth raise is refused with three
    players in (004 L4384-L4388), allowed heads-up (004 L4535-L4539)."""
    stacks = {p: D(500) for p in "ABC"}
    r = BettingRound(["A", "B", "C"], stacks, "fixed_limit", D(10), increment=D(10))
    with pytest.raises(BettingError, match="the bet is 10"):
        r.act("A", "bet", D(20))
    r.act("A", "bet", D(10))
    r.act("B", "raise", D(20))
    r.act("C", "raise", D(30))
    r.act("A", "raise", D(30))  # to 40: the third raise
    with pytest.raises(BettingError, match="at most 3 an interval"):
        r.act("B", "raise", D(40))
    heads_up = BettingRound(["A", "B"], {"A": D(500), "B": D(500)}, "fixed_limit", D(10), increment=D(10))
    heads_up.act("A", "bet", D(10))
    for p in ["B", "A", "B", "A"]:
        heads_up.act(p, "raise", D(20))
    assert heads_up.raises == 4


# ----------------------------------------------------------------------------- real hands

def _orders(blinds: list[Decimal]) -> tuple[list[str], list[str]]:
    """PHH seat order (pokerkit's): preflop from the player after the biggest blind, after the
    flop from p1; heads-up (blinds already reversed: the big blind is not the button) the big
    blind acts first after the flop."""
    n = len(blinds)
    players = [f"p{i + 1}" for i in range(n)]
    big = max(range(n), key=lambda i: (blinds[i], i))
    pre = players[big + 1:] + players[:big + 1]
    post = players[big:] + players[:big] if n == 2 else players
    return pre, post


def fold_hand(hand: dict) -> tuple[Counter[str], Counter[str]]:
    """Every betting action of a PHH hand through :class:`BettingRound` (no limit, minimum = the
    big blind): the actions checked and the rules broken, by name (an action that breaks one is
    followed anyway)."""
    n = len(hand["starting_stacks"])
    blinds = posted_blinds(hand)
    pre, post = _orders(blinds)
    stacks = {f"p{i + 1}": Decimal(str(s)) - Decimal(str(a)) for i, (s, a) in enumerate(zip(hand["starting_stacks"],
                                                                                               hand["antes"]))}
    put = {p: min(b, stacks[p]) for p, b in zip([f"p{i + 1}" for i in range(n)], blinds) if b > 0}
    behind = {p: stacks[p] - put.get(p, Decimal(0)) for p in stacks}
    pot = sum((Decimal(str(a)) for a in hand["antes"]), Decimal(0))
    folded: set[str] = set()
    broken: Counter[str] = Counter()
    checked: Counter[str] = Counter()
    r = BettingRound(pre, behind, "no_limit", max(blinds), put, pot)
    for action in hand["actions"]:
        who, what, *rest = action.split()
        if who == "d":
            if what == "db":
                folded |= r.folded
                pot = r.pot_now()
                behind = dict(r.behind)
                order = [p for p in post if p not in folded]
                r = BettingRound(order, behind, "no_limit", max(blinds), {}, pot, all_in=[p for p in order if behind[p] == 0])
            continue
        if what == "sm":
            continue
        if what == "f":
            kind, amount = "fold", Decimal(0)
        elif what == "cc":
            owe = r.to_call(who)
            kind, amount = ("call", owe) if owe > 0 else ("check", Decimal(0))
        else:
            amount = min(Decimal(rest[0]) - r.bets[who], r.behind[who])
            kind = "raise" if r.highest > 0 else "bet"
        checked[kind] += 1
        try:
            r.verify(who, kind, amount)
        except BettingError as e:
            broken[e.rule] += 1
        r.act(who, kind, amount, check=False)
    return checked, broken


def test_real_hands_break_no_betting_rule():
    """All 999 hands fold through the betting rules with every turn, check, call, bet and raise
    accepted: 9,363 actions (4,452 folds, 1,792 checks, 1,512 calls, 808 bets, 799 raises). Even
    Andalucía's minimum raise, double the highest bet (IX.6.d), stricter than the usual «raise by
    the last raise», holds: every raise short of it was a player's whole stack (VII.2)."""
    checked: Counter[str] = Counter()
    broken: Counter[str] = Counter()
    for hand in real_hands():
        c, b = fold_hand(hand)
        checked += c
        broken += b
    assert broken == Counter()
    assert checked == Counter({"fold": 4452, "check": 1792, "call": 1512, "bet": 808, "raise": 799})


@st.composite
def intervals(draw):
    """An interval of 2-6 players with random stacks and blinds, then actions drawn among those
    the interval accepts at each turn (fold, check, call, a bet or raise of a random legal size)."""
    n = draw(st.integers(2, 6))
    players = [f"P{i}" for i in range(n)]
    stacks = {p: Decimal(draw(st.integers(0, 400))) for p in players}
    structure = draw(st.sampled_from(["no_limit", "pot_limit", "fixed_limit"]))
    put = {}
    if draw(st.booleans()):
        put = {players[-2]: min(Decimal(1), stacks[players[-2]]), players[-1]: min(Decimal(2), stacks[players[-1]])}
    behind = {p: stacks[p] - put.get(p, Decimal(0)) for p in players}
    r = BettingRound(players, behind, structure, Decimal(2), put, Decimal(draw(st.integers(0, 50))),
                     increment=Decimal(2))
    for _ in range(60):
        p = r.to_act
        if p is None:
            break
        options = []
        for action in ("fold", "check", "call"):
            amount = r.to_call(p) if action == "call" else Decimal(0)
            try:
                r.verify(p, action, amount)
                options.append((action, amount))
            except BettingError:
                pass
        size = Decimal(draw(st.integers(1, 400)))
        for action in ("bet", "raise"):
            for amount in (size, r.behind[p], r.highest * 2 - r.bets[p], r.increment, r.highest + r.increment - r.bets[p]):
                try:
                    r.verify(p, action, amount)
                    options.append((action, amount))
                except BettingError:
                    pass
        assert options, (p, r)  # a player whose turn it is can always do something (fold at least)
        r.act(p, *draw(st.sampled_from(options)))
    return r, behind, put


@settings(max_examples=300, deadline=None)
@given(intervals())
def test_an_interval_of_accepted_actions_closes_with_every_bet_matched(interval):
    """IX.8 (004 L4541-L4545): at the close, every player still in and not all-in has put in the
    highest bet; no chip appears or vanishes; the interval ends (at most 60 actions here)."""
    r, behind, put = interval
    assert r.over
    total = sum(behind.values()) + sum(put.values())
    assert sum(r.behind.values()) + sum(r.bets.values()) == total
    for p in r.live:
        assert p in r.shoved or r.bets[p] == r.highest or len(r.live) == 1
