"""Poker pots (:mod:`pitwatch.rules.poker.pots`): side pots for all-in players (004 L4541-L4545,
IX.8), the rake of up to 5 per 100 put in the cagnotte before paying (004 L4082-L4088, II.4.a) and
the split of a pot between equal hands with the odd chip to the last bettor, one each at most (004
L4651-L4657, IX.24). Expected figures are worked out by hand in each docstring; hypothesis checks
the invariants on any contributions."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.rules.poker.pots import MAX_RAKE_RATE, Pot, PotError, build_pots, rake, split_pot

D = Decimal


def test_three_way_all_in_makes_a_main_pot_and_a_side_pot_ix_8():
    """A all-in for 20, B and C put in 50 each (004 L4541-L4545: the all-in player plays for the
    proportional part): main pot 3 x 20 = 60 (A, B, C), side pot 2 x 30 = 60 (B, C)."""
    pots = build_pots({"A": D("20"), "B": D("50"), "C": D("50")}, all_in=["A"])
    assert pots.pots == (Pot(D("60"), ("A", "B", "C"), D("20")), Pot(D("60"), ("B", "C"), D("50")))
    assert (pots.returned_to, pots.returned) == ("", 0)


def test_folded_chips_stay_in_the_pots_but_the_folder_is_never_eligible():
    """D folds after putting in 30: his 30 go to the main pot (20) and the side pot (10), but he
    wins neither. A all-in 20, B and C 50: main 20 x 3 + 20 = 80, side 30 + 30 + 10 = 70."""
    pots = build_pots({"A": D("20"), "B": D("50"), "C": D("50"), "D": D("30")}, folded=["D"], all_in=["A"])
    assert pots.pots == (Pot(D("80"), ("A", "B", "C"), D("20")), Pot(D("70"), ("B", "C"), D("50")))


def test_an_uncalled_bet_goes_back_ix_9():
    """B bets 17 after 1 each preflop; A (in for 7) folds: B gets the pot (004 L4547-L4551) of
    1 + 1 + 1 + 7 + 7 = 17 and his unmatched 18 - 7 = 11 back. (Real hand 3 of the PHH sample.)"""
    pots = build_pots({"p1": D("1"), "p2": D("1"), "p5": D("18"), "p7": D("7"), "p8": D("1")},
                      folded=["p1", "p2", "p7", "p8"])
    assert pots.pots == (Pot(D("17"), ("p5",), D("7")),)
    assert (pots.returned_to, pots.returned, pots.total) == ("p5", D("11"), D("17"))


def test_everybody_folds_to_the_big_blind():
    """Small blind 0.50 folds: the big blind gets 0.50 of his 1 back and a pot of 1.00."""
    pots = build_pots({"sb": D("0.50"), "bb": D("1")}, folded=["sb"])
    assert pots.pots == (Pot(D("1.00"), ("bb",), D("0.50")),) and pots.returned == D("0.50")


def test_rake_is_at_most_5_percent_of_the_pots_rounded_down_ii_4_a():
    """5% of 117.30 = 5.865 -> 5.86 (down to the cent; uncalled bets are not raked); a 6% rate is
    refused (004 L4082-L4088: «hasta del 5 por 100»)."""
    pots = build_pots({"A": D("58.65"), "B": D("58.65")})
    assert rake(pots, D("0.05")) == D("5.86") and rake(pots, D("0")) == 0
    with pytest.raises(PotError, match="outside 0..5%"):
        rake(pots, D("0.06"))


def test_a_split_pot_gives_the_odd_chip_to_the_last_bettor_ix_24():
    """10.01 between B and C, C made the last bet: 5.00 each and the odd cent to C. 10.02 between
    three, the last bettor C first: 3.34 each. 10.04 between three with B the last bettor: 3.34 +
    the two odd cents of 10.04 to B and then A (seat order), never two to one player."""
    assert split_pot(D("10.01"), ["B", "C"], last_bettor="C") == {"B": D("5.00"), "C": D("5.01")}
    assert split_pot(D("10.02"), ["A", "B", "C"], last_bettor="C") == {"A": D("3.34"), "B": D("3.34"), "C": D("3.34")}
    assert split_pot(D("10.04"), ["A", "B", "C"], last_bettor="B") == {"A": D("3.35"), "B": D("3.35"), "C": D("3.34")}
    with pytest.raises(PotError):
        split_pot(D("1.005"), ["A"])
    with pytest.raises(PotError):
        split_pot(D("1"), [])


def test_the_odd_chips_of_two_pots_go_to_two_players_ix_24():
    """A hand of the simulator: C made the last bet and lost; A (seat 1) and B (seat 3) tie in the
    main pot, 88.63 after the rake, and in a side pot of 367.65. Main pot: the odd cent in seat order,
    44.32 to A and 44.31 to B. Side pot: A already had an odd chip of this hand, so this one is B's:
    183.83 to B, 183.82 to A (004 L4655-L4659: «un mismo jugador no podrá recibir más de una ficha
    sobrante», read across the pots of the hand: the ruleset's ambiguity «Odd chips of several pots»)."""
    assert split_pot(D("88.63"), ["A", "B"], last_bettor="C") == {"A": D("44.32"), "B": D("44.31")}
    assert split_pot(D("367.65"), ["A", "B"], last_bettor="C", had_odd={"A"}) == {"A": D("183.82"), "B": D("183.83")}
    # the last bettor who had one already comes after the others too
    assert split_pot(D("0.05"), ["A", "B"], last_bettor="B", had_odd={"B"}) == {"A": D("0.03"), "B": D("0.02")}


def test_bad_contributions_are_refused():
    """Including a player who is still in, not all-in, and put in less than the others: the betting
    is not over (004 L4541-L4545, IX.8)."""
    with pytest.raises(PotError, match="IX.8"):
        build_pots({"A": D("10"), "B": D("20"), "C": D("20")})
    with pytest.raises(PotError, match="negative"):
        build_pots({"A": D("-1")})
    with pytest.raises(PotError, match="every player folded"):
        build_pots({"A": D("1"), "B": D("1")}, folded=["A", "B"])
    with pytest.raises(PotError, match="put nothing"):
        build_pots({"A": D("1")}, all_in=["Z"])


cents = st.integers(0, 50_000).map(lambda c: Decimal(c).scaleb(-2))


@st.composite
def hands(draw):
    """A finished hand as IX.8 has it: the players still in and not all-in put in the same ``level``;
    all-in players and folded ones put in at most that; the top contributor may have an uncalled
    excess on top."""
    players = [f"P{i}" for i in range(draw(st.integers(2, 9)))]
    live = draw(st.lists(st.sampled_from(players), min_size=1, unique=True))
    all_in = draw(st.lists(st.sampled_from(live), unique=True))
    level = draw(cents)
    contributions = {p: (level if p in live and p not in all_in else draw(cents.filter(lambda c: c <= level)))
                     for p in players}
    if all(p in all_in for p in live):  # nobody still betting: the all-in players set the level
        level = max(contributions[p] for p in live)
        contributions = {p: min(c, level) for p, c in contributions.items()}
    if draw(st.booleans()):
        top = draw(st.sampled_from(live))
        contributions[top] += draw(cents)
    folded = [p for p in players if p not in live]
    return contributions, folded, all_in


@settings(max_examples=300, deadline=None)
@given(hands(), st.integers(0, 5))
def test_pots_hold_every_chip_put_in_and_only_live_players_win_them(hand, rate_percent):
    """Pots + the uncalled bet = the chips put in; the rake is at most 5% of the pots; a pot's
    eligible players are exactly those still in who put in at least its level; levels rise."""
    contributions, folded, all_in = hand
    pots = build_pots(contributions, folded, all_in)
    assert pots.total + pots.returned == sum(contributions.values())
    taken = rake(pots, Decimal(rate_percent) / 100)
    assert 0 <= taken <= pots.total * MAX_RAKE_RATE
    levels = [p.level for p in pots.pots]
    assert levels == sorted(set(levels))
    capped = {p: c - (pots.returned if p == pots.returned_to else 0) for p, c in contributions.items()}
    for pot in pots.pots:  # exactly the players still in who put in at least the pot's level
        assert pot.eligible and not set(pot.eligible) & set(folded)
        assert set(pot.eligible) == {p for p in contributions if p not in folded and capped[p] >= pot.level}


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.sampled_from("ABCDEFGHI"), min_size=1, max_size=9, unique=True),
       st.sampled_from("ABCDEFGHIZ"))
def test_a_split_shares_every_chip_and_nobody_gets_two_odd_chips(amount_cents, winners, last):
    """Shares add up to the pot, differ by at most one chip, and the last bettor, if he won,
    is among those with the odd chip."""
    amount = Decimal(amount_cents).scaleb(-2)
    shares = split_pot(amount, winners, last_bettor=last)
    assert sum(shares.values()) == amount and list(shares) == winners
    assert max(shares.values()) - min(shares.values()) <= Decimal("0.01")
    if last in winners and amount_cents % len(winners):
        assert shares[last] == max(shares.values())
