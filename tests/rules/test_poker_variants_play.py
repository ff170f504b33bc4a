"""Property: seven-card stud and five-card draw hands pokerkit plays at random are judged clean by the
engine, and what the engine returns plus the rake is exactly what was put in.

pokerkit (not the engine) deals, takes the actions, reads the hands and pushes the pots; its operations
become the hand's events (:func:`pitwatch.schemas.pokerkit_hand.hand_events`). The hands follow the
regulation where pokerkit leaves a choice: at stud the lowest up card completes to the table minimum
(the bring-in «debiendo efectuar como mínimo la apuesta mínima de la mesa», 004 L5009-L5017; pokerkit's
own bring-in is smaller), at draw the «mano» opens the pot and holds a pair of jacks or better
(004 L4846-L4848: the deck is arranged so that he does), and the first player of a stud street never
folds (004 L5029-L5031).
"""

from __future__ import annotations

import random
import uuid
import warnings
from datetime import datetime, timedelta, timezone
from decimal import ROUND_DOWN, Decimal
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pitwatch.rules.base import RoundVerdict
from pitwatch.rules.engine import replay
from pitwatch.rules.poker.draw import can_open
from pitwatch.schemas.events import EVENT_ADAPTER
from pitwatch.schemas.pokerkit_hand import cents_divmod, hand_events
from pokerkit import Automation, BettingStructure, Deck, FixedLimitSevenCardStud, Mode, Opening, StandardHighHand, State, Street

AUTOMATIONS = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
               Automation.CARD_BURNING, Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
               Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
T0 = datetime(2026, 11, 20, 21, 0, tzinfo=timezone.utc)
MIN, ANTE = Decimal("1.00"), Decimal("0.50")


def _events(variant: str, structure: str, state: Any, stacks: list[Decimal], rake: str) -> list[Any]:
    n = len(stacks)
    players, seats = [f"P{k + 1}" for k in range(n)], list(range(1, n + 1))
    rows: list[tuple[str, tuple[str, str], dict[str, Any]]] = [
        ("table_opened", ("dealer", "D-01"), {"ruleset_id": "poker.andalucia", "jurisdiction": "andalucia",
                                              "min_bet": str(MIN), "max_bet": "1000.00", "float_amount": "0.00",
                                              "options": {"variant": variant, "structure": structure,
                                                          "rake_rate": rake}}),
        ("round_started", ("dealer", "D-01"), {})]
    rows += hand_events(state, players, seats, stacks, seats[-1])  # the marca at the last seat: P1 is the «mano»
    rows.append(("round_ended", ("dealer", "D-01"), {}))
    out = []
    for k, (type_, (role, who), payload) in enumerate(rows, 1):
        out.append(EVENT_ADAPTER.validate_python({
            "event_id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"PV/{k}")), "casino_id": "c", "table_id": "PV",
            "game": "poker", "seq": k, "round_id": None if type_ == "table_opened" else "H1",
            "occurred_at": T0 + timedelta(seconds=k), "actor": {"role": role, "id": who}, "type": type_, **payload}))
    return out


def _may_raise(state: Any) -> bool:
    """Whether the player to act may raise under the regulation, which pokerkit does not check: not when
    he acted since the last full raise, as a short all-in does not reopen the betting (004 L4420-L4423)."""
    ops = list(state.operations)
    start = max((k for k, op in enumerate(ops) if type(op).__name__ == "BetCollection"), default=-1) + 1
    highest, acted = Decimal(0), set[int]()
    fixed = state.betting_structure == BettingStructure.FIXED_LIMIT
    step = state.street.min_completion_betting_or_raising_amount if state.street else 0
    for op in ops[start:]:
        name = type(op).__name__
        if name == "CompletionBettingOrRaisingTo":
            full = op.amount >= (highest + step if fixed else 2 * highest)
            acted = set() if full else acted
            highest = max(highest, op.amount)
            acted.add(op.player_index)
        elif name in ("CheckingOrCalling", "Folding"):
            acted.add(op.player_index)
    return state.actor_index not in acted


def _act(state: Any, rng: random.Random, must_bet: bool = False, may_fold: bool = True) -> None:
    """A random legal action; ``must_bet``: complete or bet (the bring-in, the opener)."""
    r = rng.random()
    if state.can_complete_bet_or_raise_to() and (must_bet or (r < 0.25 and _may_raise(state))):
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        state.complete_bet_or_raise_to(min(high, max(low, 2 * max(state.bets))))  # a raise at least doubles (L4417-L4420)
    elif may_fold and state.can_fold() and max(state.bets) > state.bets[state.actor_index] and r < 0.45:
        state.fold()
    else:
        state.check_or_call()


def _stud(players: int, stacks: list[Decimal], seed: int) -> Any:
    rng = random.Random(seed)
    deck = [repr(c) for c in Deck.STANDARD]
    rng.shuffle(deck)
    game = FixedLimitSevenCardStud(AUTOMATIONS, True, ANTE, MIN / 2, MIN, 2 * MIN, mode=Mode.CASH_GAME,
                                   divmod=cents_divmod)
    state = game(stacks, players)  # type: ignore[arg-type]  # pokerkit takes Decimal chips
    opened: set[int] = set()
    while state.status:
        if state.can_deal_hole():
            state.deal_hole(deck.pop())
        elif state.can_post_bring_in():
            _act(state, rng, must_bet=True)  # the lowest up card completes to the minimum
        elif state.actor_index is not None:
            first = state.street_index not in opened
            opened.add(state.street_index)
            _act(state, rng, may_fold=not first)
        else:  # pragma: no cover - pokerkit's automations leave nothing else
            raise AssertionError(state)
    return state


def _draw(players: int, stacks: list[Decimal], seed: int) -> Any:
    rng = random.Random(seed)
    deck = [repr(c) for c in Deck.STANDARD]
    rng.shuffle(deck)
    hands = [deck[k * 5:(k + 1) * 5] for k in range(players)]
    opener = next((k for k, h in enumerate(hands) if can_open([c.upper() for c in h], "J")), None)
    assume(opener is not None)
    assert opener is not None
    hands[0], hands[opener] = hands[opener], hands[0]  # the «mano» holds the opening pair
    rest = deck[players * 5:]
    streets = (Street(False, (False,) * 5, 0, False, Opening.POSITION, MIN, None),
               Street(False, (), 0, True, Opening.POSITION, MIN, None))
    state = State(AUTOMATIONS, Deck.STANDARD, (StandardHighHand,), streets, BettingStructure.NO_LIMIT, True,
                  ANTE, 0, 0, stacks, players, mode=Mode.CASH_GAME, divmod=cents_divmod)  # type: ignore[arg-type]
    dealt = 0
    first = True
    while state.status:
        if state.can_deal_hole():
            k = state.hole_dealee_index
            state.deal_hole(hands[k].pop(0) if state.street_index == 0 else rest.pop())
            dealt += 1
        elif state.can_stand_pat_or_discard():
            k = state.stand_patter_or_discarder_index
            cards = list(state.hole_cards[k])
            rng.shuffle(cards)
            state.stand_pat_or_discard(cards[:rng.randint(0, 3)])
        elif state.actor_index is not None:
            _act(state, rng, must_bet=first)
            first = False
        else:  # pragma: no cover
            raise AssertionError(state)
    return state


def _judge(events: list[Any]) -> RoundVerdict:
    (v,) = [x for x in replay(events) if isinstance(x, RoundVerdict)]
    return v


def _figuras(state: Any) -> bool:
    """Whether a hand pokerkit showed is five of A, K, Q, J (the engine ranks «figuras»; pokerkit does not)."""
    return any(len(op.hole_cards) == 5 and all(repr(c)[0] in "AKQJ" for c in op.hole_cards)
               for op in state.operations if type(op).__name__ == "HoleCardsShowingOrMucking")


def _check(variant: str, structure: str, state: Any, stacks: list[Decimal]) -> None:
    """At rate 0 the engine agrees with pokerkit's pushes but for split pots' odd cents (pokerkit gives them
    to one winner, Andalucía one each from the last bettor: 004 L4651-L4657); at 5% the engine's returns plus
    the rake (5% of the pots, rounded down) are exactly what was put in."""
    events = _events(variant, structure, state, stacks, "0")
    v = _judge(events)
    if v.violations:
        winners = max((sum(1 for a in op.amounts if a) for op in state.operations
                       if type(op).__name__ == "ChipsPushing"), default=0)
        assert winners >= 2 and {x.kind for x in v.violations} == {"payout_discrepancy"}, v.violations
        assert sum(x.amount for x in v.violations) == 0
    w = _judge(_events(variant, structure, state, stacks, "0.05"))
    put_by: dict[str, Decimal] = {}
    for e in events:
        if e.type == "poker_action":
            put_by[e.player_id] = put_by.get(e.player_id, Decimal(0)) + e.amount
    ranked = sorted(put_by.values(), reverse=True)
    put = sum(ranked, Decimal(0))
    uncalled = ranked[0] - ranked[1]  # the part of the largest stake nobody matched goes back
    rake = ((put - uncalled) * Decimal("0.05")).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
    back = sum(c.expected.returned for c in w.checks)
    assert back + rake == put
    assert {x.kind for x in w.violations} <= {"payout_discrepancy", "rake_discrepancy"}  # no rake recorded


def _played(play: Any, players: int, stacks: list[int], seed: int) -> tuple[Any, list[Decimal]]:
    chips = [Decimal(s) for s in stacks[:players]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return play(players, chips, seed), chips


SEEDS = st.integers(0, 2**32 - 1)
STACKS = st.lists(st.integers(3, 200), min_size=7, max_size=7)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(4, 7), stacks=STACKS, seed=SEEDS)
def test_random_stud_hands_pokerkit_plays_are_judged_clean_l4969_l5185(players, stacks, seed):
    state, chips = _played(_stud, players, stacks, seed)
    _check("stud", "fixed_limit", state, chips)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 6), stacks=STACKS, seed=SEEDS)
def test_random_draw_hands_pokerkit_plays_are_judged_clean_l4824_l4967(players, stacks, seed):
    state, chips = _played(_draw, players, stacks, seed)
    assume(not _figuras(state))
    _check("draw", "no_limit", state, chips)
