"""Simulator hands of póquer en círculo, no-limit hold'em (see :mod:`pitwatch.sim.base` for the framework).

pokerkit (a well-kept library, not the rules engine) deals from a deck the table's RNG shuffles,
takes the players' actions, reads the hands and makes the pots; its operations become the hand's
events (:func:`pitwatch.schemas.pokerkit_hand.hand_events`). The croupier's awards are then
written from the regulation by this module, apart from the engine: the rake is the table's rate of
the hand's pots rounded down to the cent and taken off the main pot first (004 L4082-L4088); a pot
several players share is split in cents with the odd cents one each, the first to the last bettor
(004 L4651-L4657). A hand everybody else folded goes to the last player in, his uncalled bet back.

The «marca» moves one occupied seat clockwise each hand; the two seats after it post the blinds
(half the minimum and the minimum, 004 L4440-L4445); heads-up the marca posts the small blind.
Players act at random with honest frequencies (facing a bet: fold, call or raise; else check or
bet), bets of half to a whole pot, raises to two to three times the highest bet (at least double:
004 L4417-L4420), now and then all-in. A player who falls below the minimum buys in again. About
30 hands an hour.

Faults (each labelled): ``wrong_payout`` (one award off by a few minimums), ``illegal_decision`` (a
raise to less than double the highest bet, which pokerkit allows), ``dealer_collusion`` (the ring's
dealer pays his partner a few minimums more than the hand gives him, win or lose), and the rings of
two players (:data:`pitwatch.sim.base.POKER_RINGS`, :func:`pitwatch.sim.base.ring_parties`), each on
the given share of the hands both are dealt in: ``chip_dumping`` (the table's second player feeds its
third: the dumper bets the pot, the gainer raises him and the dumper folds, :func:`ring_of`);
``soft_play`` (its fourth and fifth: left heads-up together they only check and call);
``whipsaw`` (its sixth and seventh: with a third player in, each re-raises the other's bet or raise,
to double it, while the raise costs at most a quarter of what he has behind).
"""

from __future__ import annotations

import warnings
from decimal import ROUND_DOWN, Decimal
from typing import Any

from pokerkit import Automation, Deck, Mode, NoLimitTexasHoldem

from pitwatch.schemas.pokerkit_hand import cents_divmod, dec, hand_events
from pitwatch.sim.base import POKER_RINGS, ring_members, ring_parties
from pitwatch.sim.payouts import Payment

DROPPABLE = frozenset({"pot_awarded"})
"""Event types a ``dropped_event`` fault may remove (their loss stays inside the hand)."""
RINGS = POKER_RINGS
"""The rings of two players a poker table plays (both stay all evening)."""

CENT = Decimal("0.01")
AUTOMATIONS = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
               Automation.CARD_BURNING, Automation.RUNOUT_COUNT_SELECTION, Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
               Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
BUY_IN = 100
"""A poker buy-in, in table minimums (the minimum is at most a tenth of the initial stack: 004 L4375-L4377)."""
DT = {"poker_action": 6.0, "card_dealt": 1.5, "hand_shown": 3.0, "hand_mucked": 1.0, "pot_awarded": 4.0,
      "bet_returned": 2.0, "rake_taken": 3.0, "button_placed": 5.0, "stack_counted": 1.0}
"""Seconds each event takes at a live table (about 30 hands an hour)."""


def prepare(table: Any, emit: Any) -> None:
    """Between hands: a new player's stack is his buy-in; a player below the minimum buys in again
    (a table-level ``chips_bought``)."""
    stacks: dict[str, Decimal] = table.state.setdefault("stacks", {})
    for p in table.players:
        if p.player_id not in stacks:
            stacks[p.player_id] = table.state.get("bought", {}).pop(p.player_id, table.min_bet * BUY_IN)
        elif stacks[p.player_id] < table.min_bet:
            amount = table.min_bet * BUY_IN
            emit.table_event("chips_bought", actor=("player", p.player_id), dt=10, player_id=p.player_id, amount=amount)
            stacks[p.player_id] += amount


def _order(table: Any) -> list[Any]:
    """The players of the hand from the first seat after the marca, the marca last; moves the marca."""
    seated = sorted(table.players, key=lambda p: p.seat)
    last = table.state.get("button", 0)
    nxt = next((p for p in seated if p.seat > last), seated[0])
    table.state["button"] = nxt.seat
    i = seated.index(nxt)
    return seated[i + 1:] + seated[:i + 1]


def ring_of(table_id: str) -> tuple[str, str]:
    """The ``chip_dumping`` ring of a table: (the dumper, the gainer), its second and third players
    (:func:`pitwatch.sim.base.ring_parties`)."""
    return ring_parties("chip_dumping", table_id)


def _street_ops(state: Any) -> list[Any]:
    """pokerkit's operations of the street being played: those after the last board card dealt."""
    ops = list(state.operations)
    for i in range(len(ops) - 1, -1, -1):
        if type(ops[i]).__name__ == "BoardDealing":
            return ops[i + 1:]
    return ops


def _may_raise(state: Any) -> bool:
    """Whether the player to act may raise under the regulation, which pokerkit does not check: not
    when he has acted since the last full raise (to at least double the highest bet), as a short
    all-in raise does not reopen the betting (004 L4420-L4423, VII.2)."""
    highest, acted = Decimal(0), set[int]()
    for op in _street_ops(state):
        name = type(op).__name__
        if name == "BlindOrStraddlePosting":
            highest = max(highest, dec(op.amount))
        elif name == "CompletionBettingOrRaisingTo":
            if dec(op.amount) >= 2 * highest:
                acted = set()
            highest = max(highest, dec(op.amount))
            acted.add(op.player_index)
        elif name in ("CheckingOrCalling", "Folding"):
            acted.add(op.player_index)
    return state.actor_index not in acted


def _ring_action(state: Any, table: Any, ids: list[str], ring: tuple[str, tuple[str, ...]]) -> bool:
    """The ring's play (``(kind, its players)``) where it departs from honest play; returns whether
    the actor was one of them and acted here (else the honest policy acts)."""
    kind, members = ring
    if kind == "soft_play":
        return _soft_play(state, ids, members)
    if kind == "whipsaw":
        return _whipsaw(state, ids, members)
    return _dump(state, ids, (members[0], members[1]))


def _soft_play(state: Any, ids: list[str], ring: tuple[str, ...]) -> bool:
    """Left alone in the hand with partners only, a partner checks or calls, never bets, raises or
    folds."""
    actor = ids[state.actor_index]
    live = {ids[i] for i, s in enumerate(state.statuses) if s}
    if actor not in ring or not live <= set(ring):
        return False
    state.check_or_call()
    return True


def _whipsaw(state: Any, ids: list[str], ring: tuple[str, ...]) -> bool:
    """With a player of no ring in, a partner facing another partner's bet or raise re-raises it to
    double, while that costs at most a quarter of what he has behind."""
    actor = ids[state.actor_index]
    live = {ids[i] for i, s in enumerate(state.statuses) if s}
    if actor not in ring or live <= set(ring):
        return False
    raises = [op for op in _street_ops(state) if type(op).__name__ == "CompletionBettingOrRaisingTo"]
    if not raises or ids[raises[-1].player_index] not in set(ring) - {actor}:
        return False
    if not (state.can_complete_bet_or_raise_to() and _may_raise(state)):
        return False
    to = max(dec(state.min_completion_betting_or_raising_to_amount), 2 * dec(max(state.bets)))
    cost = to - dec(state.bets[state.actor_index])
    if cost > dec(state.stacks[state.actor_index]) / 4:
        return False
    state.complete_bet_or_raise_to(to)
    return True


def _dump(state: Any, ids: list[str], ring: tuple[str, str]) -> bool:
    """The chip-dumping ring's play when both are in the hand, where it departs from honest play: the dumper bets
    the pot when nobody has bet on this street (the blinds aside) and folds when the gainer raises
    him; the gainer raises the dumper's bets (to at least double) and does not fold while the dumper
    is in (he checks or calls instead). Otherwise both play honestly. Returns whether the actor was
    one of them and acted here (else the honest policy acts)."""
    dumper, gainer = ring
    actor = ids[state.actor_index]
    live = {ids[i] for i, s in enumerate(state.statuses) if s}
    if actor not in ring or not {dumper, gainer} <= live:
        return False
    raises = [op for op in _street_ops(state) if type(op).__name__ == "CompletionBettingOrRaisingTo"]
    last = ids[raises[-1].player_index] if raises else ""
    facing = max(state.bets) > state.bets[state.actor_index]
    may = state.can_complete_bet_or_raise_to() and _may_raise(state)
    hi = dec(state.max_completion_betting_or_raising_to_amount) if may else None
    if actor == dumper and facing and last == gainer:
        state.fold()
    elif hi is not None and actor == dumper and not raises:
        lo = min(hi, max(dec(state.min_completion_betting_or_raising_to_amount), 2 * dec(max(state.bets))))
        state.complete_bet_or_raise_to(min(hi, max(lo, dec(state.total_pot_amount))))
    elif hi is not None and actor == gainer and facing and last == dumper:
        state.complete_bet_or_raise_to(min(hi, max(dec(state.min_completion_betting_or_raising_to_amount),
                                                   2 * dec(max(state.bets)))))
    elif actor == gainer and facing:
        state.check_or_call()
    else:
        return False
    return True


def _decide(state: Any, table: Any, faults: Any, round_id: str, ids: list[str],
            rings: tuple[tuple[str, tuple[str, ...]], ...] = ()) -> None:
    """One action of the player to act (honest random play; a short raise when the fault hits; the
    ring's play when it is on this hand)."""
    if any(_ring_action(state, table, ids, ring) for ring in rings):
        return
    rng, minimum = table.rng, table.min_bet
    facing = max(state.bets) > state.bets[state.actor_index]
    r = rng.random()
    if state.can_complete_bet_or_raise_to() and _may_raise(state) and r < (0.15 if facing else 0.35):
        hi = dec(state.max_completion_betting_or_raising_to_amount)
        highest = dec(max(state.bets))
        pot = dec(state.total_pot_amount)
        pk_min = dec(state.min_completion_betting_or_raising_to_amount)
        if highest > 0 and pk_min < min(2 * highest, hi) and faults.hit("illegal_decision"):  # all in: legal
            faults.label("illegal_decision", round_id, None, f"{ids[state.actor_index]} raised to {pk_min}, less than "
                                                             f"double {highest}")
            state.complete_bet_or_raise_to(pk_min)
            return
        lo = min(hi, max(pk_min, 2 * highest))
        want = highest * Decimal(rng.choice((2, 2.5, 3))) if highest else pot * Decimal(rng.choice((0.5, 0.75, 1)))
        want = (want / minimum).quantize(Decimal(1)) * minimum
        to = hi if rng.random() < 0.05 else min(hi, max(lo, want))
        state.complete_bet_or_raise_to(to)
    elif facing and state.can_fold() and r < 0.55:
        state.fold()
    else:
        state.check_or_call()


def _awards(table: Any, events: list, put: dict[str, Decimal], live: list[str], last_bettor: str,
            order: list[str]) -> list[tuple[str, str, Decimal, int]]:
    """The croupier's records: ``("rake_taken", "", amount, 0)``, ``("pot_awarded", player, amount, pot)``,
    ``("bet_returned", player, amount, 0)`` (module docstring)."""
    rate = Decimal(table.options.get("rake_rate", "0.05"))
    ranked = sorted(put.values(), reverse=True)
    uncalled = ranked[0] - (ranked[1] if len(ranked) > 1 else Decimal(0))
    top = next(p for p in order if put[p] == ranked[0])
    total = sum(put.values(), Decimal(0)) - uncalled
    rake = (total * rate).quantize(CENT, rounding=ROUND_DOWN)
    out: list[tuple[str, str, Decimal, int]] = [("rake_taken", "", rake, 0)] if rake else []
    if uncalled:
        out.append(("bet_returned", top, uncalled, 0))
    if len(live) == 1:
        out.append(("pot_awarded", live[0], total - rake, 0))
        return out
    pots: dict[int, dict[str, Decimal]] = {}
    for type_, _, payload in events:
        if type_ == "pot_awarded":
            pots.setdefault(payload["pot"], {})[payload["player_id"]] = Decimal(payload["amount"])
    left = rake
    for index in sorted(pots):
        amount = sum(pots[index].values(), Decimal(0))
        take = min(left, amount)
        left -= take
        winners = [p for p in order if p in pots[index]]
        share, rest = cents_divmod(amount - take, len(winners))
        odd = ([last_bettor] if last_bettor in winners else []) + [w for w in winners if w != last_bettor]
        extra = set(odd[:int(rest / CENT)])
        for w in winners:
            out.append(("pot_awarded", w, share + (CENT if w in extra else 0), index))
    return out


def _play(state: Any, deck: list[str], table: Any, faults: Any, round_id: str, ids: list[str],
          rings: tuple[tuple[str, tuple[str, ...]], ...]) -> None:
    """Deal from ``deck`` and take the players' actions until pokerkit's hand is over."""
    while state.status:
        if state.can_deal_hole():
            state.deal_hole(deck.pop() + deck.pop())
        elif state.can_deal_board():
            state.deal_board("".join(deck.pop() for _ in range(1 if state.board_cards else 3)))
        else:
            _decide(state, table, faults, round_id, ids, rings)


def play_round(table: Any, round_id: str, emit: Any, faults: Any) -> list[Payment]:
    """Play one hand and emit its events (module docstring). Returns no payments: a poker hand's
    chips are awarded by its own events, not by ``settlement_recorded``."""
    stacks: dict[str, Decimal] = table.state["stacks"]
    players = _order(table) if len(table.players) >= 2 else []
    if not players:
        return []
    ids, seats = [p.player_id for p in players], [p.seat for p in players]  # heads-up pokerkit has the last post the small blind
    minimum = table.min_bet
    start = [stacks[p] for p in ids]
    game = NoLimitTexasHoldem(AUTOMATIONS, True, 0, (minimum / 2, minimum), minimum, mode=Mode.CASH_GAME,
                              divmod=cents_divmod)
    state = game(start, len(ids))  # type: ignore[arg-type]  # pokerkit takes Decimal chips (typed as int)
    deck = [repr(c) for c in Deck.STANDARD]
    table.rng.shuffle(deck)
    rings = _rings_on(table.table_id, round_id, ids, faults)
    with warnings.catch_warnings():  # pokerkit warns that a card dealt is not its own deck's next: ours is
        warnings.simplefilter("ignore", UserWarning)
        _play(state, deck, table, faults, round_id, ids, rings)
    events = hand_events(state, ids, seats, start, players[-1].seat)
    put = {p: Decimal(0) for p in ids}
    last_bettor, folded = "", set()
    for type_, who, payload in events:
        if type_ == "poker_action":
            put[payload["player_id"]] += Decimal(payload.get("amount", "0"))
            last_bettor = payload["player_id"] if payload["action"] in ("bet", "raise") else last_bettor
            folded |= {payload["player_id"]} if payload["action"] == "fold" else set()
        if type_ in ("pot_awarded", "bet_returned"):
            continue
        emit(type_, actor=who, dt=DT.get(type_, 1.0), **{k: Decimal(v) if k == "amount" else v for k, v in payload.items()})
    live = [p for p in ids if p not in folded]
    records = _awards(table, events, put, live, last_bettor, ids)
    records = _faults(table, round_id, records, faults, ids)
    back = {p: Decimal(0) for p in ids}
    for type_, player, amount, pot in records:
        if type_ == "rake_taken":
            emit(type_, dt=DT[type_], amount=amount)
            continue
        back[player] += amount
        award: dict[str, Any] = {"player_id": player, "amount": amount}
        emit(type_, dt=DT[type_], **({**award, "pot": pot} if type_ == "pot_awarded" else award))
    for p, s in zip(ids, start):
        stacks[p] = s - put[p] + back[p]
    return []


RING_PLAY = {"chip_dumping": "dumps chips to", "soft_play": "plays soft with", "whipsaw": "whipsaws with"}


def _rings_on(table_id: str, round_id: str, ids: list[str],
              faults: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The rings that play this hand, ``(kind, its players dealt in)``: each of :data:`POKER_RINGS` with
    two of its players (:func:`pitwatch.sim.base.ring_members`) dealt in, on its fault's share of those
    hands (each labelled)."""
    out = []
    for kind in POKER_RINGS:
        members = tuple(p for p in ring_members(kind, table_id, faults.ring_size) if p in ids)
        if len(members) >= 2 and faults.hit(kind):
            faults.label(kind, round_id, f"{round_id}:{members[0]}", f"{members[0]} {RING_PLAY[kind]} "
                                                                   f"{', '.join(members[1:])}")
            out.append((kind, members))
    return tuple(out)


def _faults(table: Any, round_id: str, records: list[tuple[str, str, Decimal, int]], faults: Any,
            ids: list[str]) -> list[tuple[str, str, Decimal, int]]:
    """The croupier's mistakes and favours: ``wrong_payout`` moves one award by a few minimums;
    ``dealer_collusion`` pays the ring's partner a few minimums more, win or lose."""
    minimum, rng = table.min_bet, table.rng
    dealer, partner = f"D-{table.table_id}-01", f"P-{table.table_id}-001"
    out = list(records)
    if table.dealer_id == dealer and partner in ids and faults.hit("dealer_collusion"):
        extra = minimum * rng.choice((1, 2, 5))
        out.append(("pot_awarded", partner, extra, 0))
        faults.label("dealer_collusion", round_id, f"{round_id}:{partner}", f"{dealer} paid {partner} {extra} more")
    paid = [k for k, r in enumerate(out) if r[0] == "pot_awarded"]
    if paid and faults.hit("wrong_payout"):
        k = rng.choice(paid)
        type_, player, amount, pot = out[k]
        chips = minimum * rng.choice((1, 2, 5))
        changed = amount - chips if amount > chips and rng.random() < 0.5 else amount + chips
        out[k] = (type_, player, changed, pot)
        faults.label("wrong_payout", round_id, f"{round_id}:{player}", f"{changed} instead of {amount}")
    return out
