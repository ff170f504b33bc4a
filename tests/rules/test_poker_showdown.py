"""The showdown (:mod:`pitwatch.rules.poker.showdown`): hands ranked as Andalucía's VI.1 lists them
(004 L4278-L4324), tie-breaks of VI.2 (004 L4326-L4365), the cards speaking (IX.21, 004
L4624-L4634), only eligible players who showed win a pot (IX.19-IX.20, 004 L4608-L4622); then the
real PHH hands: whoever these rules say won a showdown is who collected chips."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pitwatch.rules.poker.pots import Pot, build_pots
from pitwatch.rules.poker.showdown import ShowdownError, hand_of, winners

from tests.rules.phh import real_hands
from tests.rules.test_poker_real_hands import contributions


def test_the_order_of_vi_1_from_royal_flush_down():
    """Each hand beats the next (004 L4278-L4324), on boards chosen for each category."""
    hands = [
        hand_of(["AS", "KS"], ["QS", "JS", "TS", "2D", "3C"]),  # a) escalera real de color
        hand_of(["9H", "8H"], ["7H", "6H", "5H", "2D", "3C"]),  # b) escalera de color
        hand_of(["9C", "9D"], ["9H", "9S", "5H", "2D", "3C"]),  # c) póquer
        hand_of(["9C", "9D"], ["9H", "5S", "5H", "2D", "3C"]),  # d) full
        hand_of(["AH", "KH"], ["9H", "6H", "4H", "2D", "3C"]),  # e) color (52 cards: below full)
        hand_of(["9C", "8D"], ["7H", "6S", "5H", "2D", "KC"]),  # f) escalera
        hand_of(["9C", "9D"], ["9H", "6S", "4H", "2D", "KC"]),  # g) trío
        hand_of(["9C", "8D"], ["9H", "8S", "4H", "2D", "KC"]),  # i) doble pareja
        hand_of(["9C", "8D"], ["9H", "6S", "4H", "2D", "KC"]),  # j) pareja
        hand_of(["AC", "8D"], ["9H", "6S", "4H", "2D", "KC"]),  # k) carta mayor
    ]
    assert all(a > b for a, b in zip(hands, hands[1:]))


def test_ties_are_broken_as_vi_2_says_and_exact_ties_split():
    """Full: the higher trio (L4335-L4338); two pairs: the higher top pair, then the fifth card
    (L4357-L4361); a pair: the higher of the other cards (L4363-L4365); the wheel A-2-3-4-5 is a
    straight, below 2-6; the same five cards from the board tie."""
    board = ["KH", "KD", "5C", "5S", "2H"]
    assert hand_of(["KC", "3D"], board) > hand_of(["5D", "AD"], board)  # KKK55 over 555KK
    board = ["QH", "QD", "7C", "7S", "2H"]
    assert hand_of(["AC", "3D"], board) > hand_of(["KC", "3S"], board)  # QQ77A over QQ77K
    assert hand_of(["AC", "2D"], ["3H", "4D", "5C", "KS", "QH"]) < hand_of(["6C", "2S"], ["3H", "4D", "5C", "KS", "QH"])
    board = ["AH", "KD", "QC", "JS", "TH"]
    assert hand_of(["2C", "3D"], board) == hand_of(["4C", "5D"], board)  # the board plays: split (IX.24)


def test_pot_winners_are_the_best_eligible_shown_hands():
    """A (all-in) has the best hand and wins the main pot only; the side pot goes to the better of
    B and C; a player who did not show claims nothing (IX.19-IX.20); two equal hands share."""
    board = ["2S", "7D", "9C", "JH", "3S"]
    shown = {"A": ["AC", "AD"], "B": ["KC", "KD"], "C": ["QC", "QD"]}
    main = Pot(Decimal(60), ("A", "B", "C"), Decimal(20))
    side = Pot(Decimal(60), ("B", "C"), Decimal(50))
    assert winners(main, shown, board) == ("A",) and winners(side, shown, board) == ("B",)
    assert winners(side, {"C": ["QC", "QD"]}, board) == ("C",)  # B mucked
    assert winners(side, {"B": ["KC", "4D"], "C": ["KS", "4H"]}, board) == ("B", "C")
    with pytest.raises(ShowdownError, match="nobody eligible"):
        winners(side, {"A": ["AC", "AD"]}, board)
    with pytest.raises(ShowdownError, match="twice"):
        hand_of(["AC", "AC"], board)
    with pytest.raises(ShowdownError, match="not cards"):
        hand_of(["AX", "AC"], board)


def _codes(text: str) -> list[str]:
    return [text[i] + text[i + 1].upper() for i in range(0, len(text), 2)]


def _next_stacks(hands: list[dict]) -> dict[tuple[int, str], Decimal]:
    """(hand index, player name) -> the player's starting stack in his next hand at the same table."""
    order = sorted(range(len(hands)), key=lambda i: (hands[i]["table"], str(hands[i]["time"]), hands[i]["hand"]))
    out: dict[tuple[int, str], Decimal] = {}
    seen: dict[tuple[str, str], Decimal] = {}
    for i in reversed(order):
        h = hands[i]
        for name, stack in zip(h["players"], h["starting_stacks"]):
            if (h["table"], name) in seen:
                out[(i, name)] = seen[(h["table"], name)]
            seen[(h["table"], name)] = Decimal(str(stack))
    return out


def test_at_real_showdowns_the_winners_named_here_are_the_ones_who_collected():
    """The site's winnings are missing at its showdowns, but a player's next stack at the table
    tells what he collected (next stack - (stack - chips put in) - his uncalled bet back). Over
    the real showdowns with a full board: every player these rules name as a pot's winner
    collected (182 of 182); of the other players still in, 153 of 161 collected nothing and the
    other 8 show a re-buy between the hands (about 40 dollars, 6 of them after losing their whole
    stack)."""
    hands = list(real_hands())
    nxt = _next_stacks(hands)
    won = lost = lost_nothing = 0
    for i, hand in enumerate(hands):
        shows = [a.split() for a in hand["actions"] if " sm " in a]
        board = [c for a in hand["actions"] if a.startswith("d db") for c in _codes(a.split()[2])]
        if not shows or len(board) < 5:
            continue
        shown = {p: _codes(cards) for p, _sm, cards in shows if "?" not in cards}
        put, folded, all_in = contributions(hand)
        pots = build_pots(put, folded, all_in)
        named = {w for pot in pots.pots if any(p in shown for p in pot.eligible) for w in winners(pot, shown, board)}
        for j, name in enumerate(hand["players"]):
            p = f"p{j + 1}"
            if p in folded or (i, name) not in nxt:
                continue
            collected = nxt[(i, name)] - (Decimal(str(hand["starting_stacks"][j])) - put[p])
            if p == pots.returned_to:
                collected -= pots.returned
            if p in named:
                assert collected > 0, (i + 1, p, collected)
                won += 1
            else:
                lost += 1
                lost_nothing += collected == 0
    assert (won, lost, lost_nothing) == (182, 161, 153)
