"""Poker rounds back to PHH, the Poker Hand History format: ``pitwatch export phh``.

:func:`export_phh` writes each poker hand of an event stream as a pokerkit ``HandHistory`` (no-limit
hold'em, ``NT``), which pokerkit reads back and replays. The players are listed as PHH lists them:
from the first seat after the «marca», the marca last (heads-up: the big blind, then the marca), the
blinds heads-up in PHH's order (small first); their hole cards are those dealt face down to their
seat, else ``????``; every action becomes ``f``, ``cc`` (check or call) or ``cbr`` (a bet or raise
*to* the player's total on the street); the board ``d db``; the showdown ``sm`` with the cards shown
(nothing for a muck). The table id goes back to PHH's ``venue``/``table`` (split at the first ``/``),
a round id ``H<digits>`` to its ``hand`` number, the time to ``UTC``.

Seven-card stud tables (``variant`` ``stud``) are written as fixed-limit stud (``F7S``): the minimum
is the small bet, twice it the big bet; each street's cards to a seat are one ``d dh``; a bring-in of
at least the minimum is a completion (``cbr``), a smaller one PHH's ``pb``; a shown hand is the seat's
seven cards.

What PHH cannot say is left out: the rake, the croupier's awards (pokerkit replays them). Five-card
draw has no PHH variant (PHH's draw games are lowball and badugi): its hands are an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Iterable

from pitwatch.schemas.envelope import EventBase

_HAND_NUMBER = re.compile(r"^H(\d{1,18})$")
STREET_ENDS = (3, 4, 5)
"""Board cards dealt when hold'em's flop, turn and river are complete."""


class PhhExportError(ValueError):
    """A poker round PHH cannot hold (the message names the table and the round)."""


@dataclass
class _Hand:
    table_id: str
    round_id: str
    minimum: Decimal
    when: Any
    variant: str = "holdem"
    button: int = 0
    players: list[tuple[str, int, Decimal]] = field(default_factory=list)
    events: list[Any] = field(default_factory=list)


def _card(code: str) -> str:
    return code[0] + code[1].lower()


def _hands(events: Iterable[Any]) -> list[_Hand]:
    minimum: dict[str, Decimal] = {}
    variant: dict[str, str] = {}
    hands: list[_Hand] = []
    open_: dict[str, _Hand] = {}
    for e in events:
        t = e.type
        if e.game != "poker":
            continue
        if t == "table_opened":
            minimum[e.table_id] = e.min_bet
            variant[e.table_id] = e.options.get("variant", "holdem")
        elif t == "round_started":
            h = open_[e.table_id] = _Hand(e.table_id, str(e.round_id), minimum.get(e.table_id, Decimal(0)),
                                          e.occurred_at, variant.get(e.table_id, "holdem"))
            hands.append(h)
        elif e.table_id in open_ and e.round_id == open_[e.table_id].round_id:
            h = open_[e.table_id]
            if t == "button_placed":
                h.button = e.seat
            elif t == "stack_counted":
                h.players.append((e.player_id, e.seat, e.amount))
            elif t == "round_ended":
                del open_[e.table_id]
            else:
                h.events.append(e)
    return hands


def _history(h: _Hand) -> Any:
    from pokerkit import HandHistory

    if len(h.players) < 2:
        raise PhhExportError(f"{h.table_id} {h.round_id}: a hand needs two players dealt in")
    if h.variant == "stud":
        return _stud_history(h)
    if h.variant == "draw":
        raise PhhExportError(f"{h.table_id} {h.round_id}: five-card draw has no PHH variant")
    order = sorted(h.players, key=lambda p: (p[1] - h.button - 1) % 100)
    index = {p[0]: k for k, p in enumerate(order)}
    n = len(order)
    antes, blinds = [Decimal(0)] * n, [Decimal(0)] * n
    street = [Decimal(0)] * n
    hole: dict[int, list[str]] = {}
    actions: list[str] = []
    board: list[str] = []
    dealt_board = 0
    seat_of = {p[1]: k for k, p in enumerate(order)}

    def flush_board() -> None:
        if board:
            actions.append("d db " + "".join(board))
            board.clear()

    for e in h.events:
        t = e.type
        if t == "card_dealt":
            if e.hand == "board":
                if not board:
                    street[:] = [Decimal(0)] * n
                board.append(_card(e.card))
                dealt_board += 1
                if dealt_board in STREET_ENDS:  # the flop, the turn and the river are dealt apart
                    flush_board()
            elif e.hand.isdigit() and int(e.hand) in seat_of:
                hole.setdefault(seat_of[int(e.hand)], []).append(_card(e.card))
            continue
        flush_board()
        k = index.get(getattr(e, "player_id", ""), -1)
        if t == "poker_action":
            if k < 0:
                raise PhhExportError(f"{h.table_id} {h.round_id}: {e.player_id} acted but was not dealt in")
            a = e.action
            if a == "ante":
                antes[k] += e.amount
            elif a in ("small_blind", "big_blind"):
                blinds[k] += e.amount
                street[k] += e.amount
            elif a == "fold":
                actions.append(f"p{k + 1} f")
            elif a in ("check", "call"):
                street[k] += e.amount
                actions.append(f"p{k + 1} cc")
            else:
                street[k] += e.amount
                actions.append(f"p{k + 1} cbr {street[k]}")
        elif t == "hand_shown" and k >= 0:
            actions.append(f"p{k + 1} sm " + "".join(_card(c) for c in e.cards))
        elif t == "hand_mucked" and k >= 0:
            actions.append(f"p{k + 1} sm")
    flush_board()
    dealt = [f"d dh p{k + 1} " + ("".join(hole[k]) if len(hole.get(k, [])) == 2 else "????") for k in range(n)]
    venue, _, table = h.table_id.partition("/")
    number = _HAND_NUMBER.match(h.round_id)
    when = h.when
    chips: dict[str, Any] = {  # pokerkit takes Decimal chips (typed as int)
        "antes": antes, "blinds_or_straddles": blinds[::-1] if n == 2 else blinds, "min_bet": h.minimum,
        "starting_stacks": [p[2] for p in order]}
    return HandHistory(
        variant="NT", ante_trimming_status=False, **chips, actions=dealt + actions,
        players=[p[0] for p in order], seats=[p[1] for p in order],
        venue=venue if table else None, table=table or venue, hand=int(number.group(1)) if number else None,
        time_zone="UTC", year=when.year, month=when.month, day=when.day, time=when.time().replace(microsecond=0),
    )


def _stud_history(h: _Hand) -> Any:
    """A stud hand as PHH ``F7S`` (module docstring)."""
    from pokerkit import HandHistory

    order = sorted(h.players, key=lambda p: (p[1] - h.button - 1) % 100)
    index = {p[0]: k for k, p in enumerate(order)}
    seat_of = {p[1]: k for k, p in enumerate(order)}
    n = len(order)
    antes, street = [Decimal(0)] * n, [Decimal(0)] * n
    cards: dict[int, list[str]] = {}
    run: dict[int, list[str]] = {}
    actions: list[str] = []
    bring_in = h.minimum / 2

    def flush_run() -> None:
        if run:
            street[:] = [Decimal(0)] * n
            actions.extend(f"d dh p{k + 1} " + "".join(run[k]) for k in sorted(run))
            run.clear()

    for e in h.events:
        if e.type == "card_dealt":
            if e.hand.isdigit() and int(e.hand) in seat_of:
                k = seat_of[int(e.hand)]
                run.setdefault(k, []).append(_card(e.card))
                cards.setdefault(k, []).append(_card(e.card))
            continue
        flush_run()
        k = index.get(getattr(e, "player_id", ""), -1)
        if e.type == "poker_action":
            if k < 0:
                raise PhhExportError(f"{h.table_id} {h.round_id}: {e.player_id} acted but was not dealt in")
            if e.action == "ante":
                antes[k] += e.amount
            elif e.action == "fold":
                actions.append(f"p{k + 1} f")
            elif e.action in ("check", "call"):
                street[k] += e.amount
                actions.append(f"p{k + 1} cc")
            elif e.action == "bring_in" and e.amount < h.minimum:
                street[k] += e.amount
                bring_in = e.amount
                actions.append(f"p{k + 1} pb")
            elif e.action in ("bring_in", "bet", "raise"):
                street[k] += e.amount
                actions.append(f"p{k + 1} cbr {street[k]}")
        elif e.type == "hand_shown" and k >= 0:
            seen = cards.get(k, [])
            actions.append(f"p{k + 1} sm " + "".join(seen + [c for c in map(_card, e.cards) if c not in seen]))
        elif e.type == "hand_mucked" and k >= 0:
            actions.append(f"p{k + 1} sm")
    flush_run()
    venue, _, table = h.table_id.partition("/")
    number = _HAND_NUMBER.match(h.round_id)
    when = h.when
    chips: dict[str, Any] = {  # pokerkit takes Decimal chips (typed as int)
        "antes": antes, "bring_in": bring_in, "small_bet": h.minimum, "big_bet": 2 * h.minimum,
        "starting_stacks": [p[2] for p in order]}
    return HandHistory(
        variant="F7S", ante_trimming_status=False, **chips, actions=actions,
        players=[p[0] for p in order], seats=[p[1] for p in order],
        venue=venue if table else None, table=table or venue, hand=int(number.group(1)) if number else None,
        time_zone="UTC", year=when.year, month=when.month, day=when.day, time=when.time().replace(microsecond=0),
    )


def export_phh(events: Iterable[EventBase]) -> list[Any]:
    """A pokerkit ``HandHistory`` per poker hand of ``events`` (any order of tables; each table's
    events in ``seq`` order), in the order the hands started. Other games are skipped. Raises
    :class:`PhhExportError` for a hand with fewer than two players, an action by a player not dealt in
    or a five-card draw hand."""
    return [_history(h) for h in _hands(events)]


__all__ = ["PhhExportError", "export_phh"]
