"""The pot arithmetic (:mod:`pitwatch.rules.poker.pots`) on 999 real no-limit hold'em hands
(Absolute Poker, July 2009, from the PHH dataset, MIT licence: tests/data/phh/README.md).

Each hand's contributions are folded from its PHH actions here (antes, blinds, ``cbr`` = bet or
raise *to* an amount on the street, ``cc`` = check or call, capped by the stack: all-in, ``f`` =
fold), the pots built, and the site's own ``winnings`` compared (they include the uncalled bet given back): the players
paid must be among the pots' eligible players (or be the one given his uncalled bet back), and
what the site kept (pots + the uncalled bet - winnings) is its rake, never negative.

Measured (not asserted: the site's own bookkeeping, not a rule of the pots): the site's winnings
count an uncalled raise back in some hands and not in others, and it raked most hands that saw a
flop at more than Andalucía's 5 per 100 of the pots (004 L4082-L4088), which the poker game's
ruleset will flag on imported hands.
"""

from __future__ import annotations

from decimal import Decimal

from pitwatch.rules.poker.pots import Pots, build_pots

from tests.rules.phh import posted_blinds, real_hands


def _dec(x: object) -> Decimal:
    return Decimal(str(x))


def contributions(hand: dict) -> tuple[dict[str, Decimal], list[str], list[str]]:
    """Per player (``p1``..``pn``): the chips put in the hand, who folded, who went all-in."""
    n = len(hand["starting_stacks"])
    players = [f"p{i + 1}" for i in range(n)]
    stack = {p: _dec(s) for p, s in zip(players, hand["starting_stacks"])}
    put = {p: Decimal(0) for p in players}
    street = {p: Decimal(0) for p in players}

    def pay(p: str, amount: Decimal) -> None:
        amount = min(amount, stack[p])
        stack[p] -= amount
        put[p] += amount

    for p, ante in zip(players, hand["antes"]):
        pay(p, _dec(ante))
    for p, blind in zip(players, posted_blinds(hand)):
        before = put[p]
        pay(p, blind)
        street[p] += put[p] - before
    folded: list[str] = []
    for action in hand["actions"]:
        who, what, *rest = action.split()
        if who == "d":
            if what == "db":
                street = {p: Decimal(0) for p in players}
            continue
        if what == "f":
            folded.append(who)
        elif what == "cc":
            before = put[who]
            pay(who, max(street.values()) - street[who])
            street[who] += put[who] - before
        elif what == "cbr":
            before = put[who]
            pay(who, _dec(rest[0]) - street[who])
            street[who] += put[who] - before
    all_in = [p for p in players if stack[p] == 0 and p not in folded]
    return put, folded, all_in


def test_every_real_hand_makes_pots_that_hold_its_chips_and_pay_eligible_players():
    """999 hands: the pots and the uncalled bet hold every chip put in; in the 826 hands with the
    site's winnings, every player paid is eligible for a pot (or had his uncalled bet back), and
    the site never paid more than the chips in the hand."""
    hands = real_hands()
    assert len(hands) == 999
    with_winnings = 0
    for i, hand in enumerate(hands, 1):
        put, folded, all_in = contributions(hand)
        pots: Pots = build_pots(put, folded, all_in)
        assert pots.total + pots.returned == sum(put.values()), i
        if "winnings" not in hand:
            continue
        with_winnings += 1
        paid = {f"p{k + 1}": _dec(w) for k, w in enumerate(hand["winnings"]) if _dec(w) > 0}
        eligible = {p for pot in pots.pots for p in pot.eligible} | {pots.returned_to}
        assert set(paid) <= eligible, (i, paid, pots)
        kept = pots.total + pots.returned - sum(paid.values())  # the site's winnings include the uncalled bet
        assert kept >= 0, (i, kept)
    assert with_winnings == 826
