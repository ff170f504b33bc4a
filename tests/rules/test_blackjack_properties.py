"""Hypothesis property tests of the blackjack rules (Galicia 000 L277-L313, Andalucía 004 L692-L805).

- a busted hand is never paid (000 L281; 004 L709-L713);
- the dealer-draw check agrees with a straightforward reference implementation of «al llegar a
  17 puntos deberá plantarse» (000 L285; 004 L717-L724) over random card sequences;
- a main bet without splits or doubles never gets back more than 2.5 x its stake (3:2 is the
  best payout, 000 L293; 004 L743-L745).
"""

from __future__ import annotations

import random
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pitwatch.rules.base import ViolationKind as VK
from pitwatch.rules.blackjack import dealer_draw_error
from pitwatch.schemas.cards import ALL_CARDS

from tests.rules.test_blackjack_helpers import BJScript

D = Decimal
cards_st = st.sampled_from(ALL_CARDS)
RULESETS = st.sampled_from(["blackjack.galicia", "blackjack.andalucia"])

_VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
           "T": 10, "J": 10, "Q": 10, "K": 10}


def reference_stop(cards: list[str]) -> int | None:
    """How many cards of ``cards`` a correct dealer ends with: he keeps drawing while his total
    (an ace as 11 if that gives 17-21) is below 17. ``None`` if the sequence runs out first."""
    for n in range(1, len(cards) + 1):
        total = sum(_VALUES[c[0]] for c in cards[:n])
        if any(c[0] == "A" for c in cards[:n]) and 17 <= total + 10 <= 21:
            total += 10
        if total >= 17:
            return n
    return None


@given(st.lists(cards_st, min_size=1, max_size=9))
@settings(max_examples=400)
def test_dealer_draw_check_matches_reference(cards):
    """000 L285 / 004 L717-L724: a complete sequence is legal iff the reference dealer would
    stop exactly at its last card; an incomplete one (no contested hand) iff he never drew at 17+."""
    stop = reference_stop(cards)
    assert (dealer_draw_error(cards, must_complete=True) is None) == (stop == len(cards))
    assert (dealer_draw_error(cards, must_complete=False) is None) == (stop is None or stop == len(cards))


@given(RULESETS, st.lists(cards_st, min_size=1, max_size=7))
@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_engine_dealer_misdraw_matches_reference(ruleset, dealer):
    """Through the engine, with two contested hands (18 and 19 standing): DEALER_MISDRAW iff the
    dealer's sequence differs from the reference dealer's."""
    s = BJScript(ruleset)
    s.simple({1: "10", 2: "10"}, {"1": ["TS", "8H"], "2": ["9S", "KH"]}, dealer[0])
    s.decide("stand", 1).decide("stand", 2).deal("dealer", *dealer[1:])
    got = VK.DEALER_MISDRAW in [v.kind for v in s.end().violations]
    assert got == (reference_stop(dealer) != len(dealer))


def random_round(ruleset: str, cards: list[str], rnd: random.Random) -> BJScript:
    """A round with random (legal or not) decisions, feeding ``cards`` in order."""
    deck = iter(cards)
    s = BJScript(ruleset)
    boxes = sorted(rnd.sample(range(1, 8), rnd.randint(2, 4)))
    s.start()
    ids = {b: s.bet(b, rnd.choice(["10", "15", "20", "25.50", "10.15"])) for b in boxes}
    if rnd.random() < 0.3:
        s.bet(boxes[0], "10", "BACKER")
    s.close()
    for b in boxes:
        s.deal(b, next(deck))
    s.deal("dealer", next(deck))
    for b in boxes:
        s.deal(b, next(deck))
    gr = s.game_round
    if rnd.random() < 0.4:
        b = rnd.choice(boxes)
        stake = gr.bets[ids[b]].stake
        s.insure(ids[b], str((stake * D(rnd.choice(["0.5", "0.3", "0.6"]))).quantize(D("0.01"))))
    for b in boxes:
        queue = [str(b)]
        while queue:
            hid = queue.pop(0)
            if len(gr.hands[hid].cards) == 1:
                s.deal(hid, next(deck))
            for _ in range(6):
                h = gr.hands[hid]
                if h.total >= 21 or h.doubled or h.surrendered:
                    break
                d = rnd.choice(["hit", "hit", "stand", "double", "split", "surrender"])
                if d == "split" and len(h.cards) != 2:
                    d = "hit"
                s.decide(d, hid)
                if d in ("stand", "surrender"):
                    break
                if d == "split":
                    queue.append(gr.box_hands(b)[-1].hand_id)
                s.deal(hid, next(deck))
                if d == "double":
                    break
    n = rnd.randint(0, 5)
    for _ in range(n):
        s.deal("dealer", next(deck))
    return s


@given(RULESETS, st.lists(cards_st, min_size=70, max_size=70), st.randoms(use_true_random=False))
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_settlement_invariants(ruleset, cards, rnd):
    """Over random rounds (random decisions, random dealer draws):
    - a busted hand contributes nothing: a bet whose hands all busted gets 0 back, and in general
      returned <= the sum over its non-busted hands of 2.5 x their stake (000 L281; 004 L709);
    - a main bet without splits or doubles gets back at most 2.5 x its stake (000 L293; 004 L743);
    - an insurance gets back 0 or exactly 3 x its amount (2:1, 000 L297; 004 L761-L763), or,
      when the rules refuse it (no wager), exactly its amount."""
    s = random_round(ruleset, cards, rnd)
    gr = s.game_round
    for e in gr.settle():
        assert e.returned >= 0
        if e.spot == "insurance":
            assert e.returned in ((e.stake,) if e.outcome == "refused" else (D("0.00"), e.stake * 3))
            continue
        bet = gr.bets[e.bet_id]
        hands = [h for h in gr.box_hands(bet.box) if not h.refused]
        live_cap = sum((D("2.5") * bet.stake * (2 if h.doubled else 1) for h in hands
                        if not h.bust), D("0"))
        assert e.returned <= live_cap
        if all(h.bust for h in hands):
            assert e.returned == 0
        for h in hands:
            if h.bust:
                outcome, _key, factor, extra = gr.hand_result(h)
                assert (factor, extra) == (0, 0) and outcome == "lose"
        if len(hands) == 1 and not hands[0].doubled:
            assert e.stake == bet.stake
            assert e.returned <= D("2.5") * e.stake
