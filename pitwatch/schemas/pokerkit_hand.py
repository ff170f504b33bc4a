"""The events of a poker hand pokerkit played: shared by the PHH import (:mod:`pitwatch.schemas.phh`)
and the poker simulator (:mod:`pitwatch.sim.poker`).

pokerkit (a well-kept library, not ours) deals, takes the actions, reads the hands and pushes the
pots; :func:`hand_events` turns its operations into the events of :mod:`pitwatch.schemas.poker`:
hold'em and Omaha, seven-card stud (up cards dealt face up, the bring-in) and five-card draw (the
discards).
"""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal
from typing import Any, Sequence

HandEvent = tuple[str, tuple[str, str], dict[str, Any]]
"""``(event type, (actor role, actor id), payload)``: one event of a hand, envelope apart."""

DEALER = ("dealer", "croupier")


def cents_divmod(dividend: Any, divisor: int) -> tuple[Any, Any]:
    """pokerkit's ``divmod`` for euro amounts: the share rounded down to the cent, and what is left
    (pokerkit gives the whole remainder of a split pot to its first winner; Andalucía one cent each,
    the first to the last bettor, 004 L4651-L4657: the engine flags the difference)."""
    if isinstance(dividend, int):
        dividend = Decimal(dividend)
    share = (Decimal(dividend) / divisor).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
    return share, Decimal(dividend) - share * divisor


def dec(x: Any) -> Decimal:
    """A pokerkit amount (int, float or Decimal) as euros to the cent."""
    return Decimal(str(x)).quantize(Decimal("0.01"))


def _card(c: Any) -> str | None:
    """A pokerkit card as a pitwatch code (``Ts`` -> ``TS``), ``None`` when unknown (``??``)."""
    text = repr(c)
    return None if "?" in text else text[0].upper() + text[1].upper()


def _replacements_after_discards(events: list[HandEvent], seat_of: dict[str, str]) -> list[HandEvent]:
    """``events`` with each player's replacement cards right after his ``cards_discarded``: the croupier
    deals them «antes que el siguiente se descarte» (004 L4883-L4884); pokerkit deals them once every
    player has discarded."""
    out: list[HandEvent] = []
    i = 0
    while i < len(events):
        if events[i][0] != "cards_discarded":
            out.append(events[i])
            i += 1
            continue
        run: list[HandEvent] = []
        while i < len(events) and events[i][0] == "cards_discarded":
            run.append(events[i])
            i += 1
        dealt: list[HandEvent] = []
        while i < len(events) and events[i][0] == "card_dealt" and events[i][2]["hand"] != "board":
            dealt.append(events[i])
            i += 1
        for discard in run:
            seat = seat_of[discard[2]["player_id"]]
            out.append(discard)
            out.extend(d for d in dealt if d[2]["hand"] == seat)
    return out


def hand_events(state: Any, players: list[str], seats: list[int], starting_stacks: Sequence[Any],
                button: int) -> list[HandEvent]:
    """The events of a hand pokerkit played to its end (``state``, a pokerkit ``State`` whose
    ``operations`` are complete), from ``button_placed`` to the awards: ``players`` and ``seats`` by
    pokerkit's player index, ``starting_stacks`` theirs, ``button`` the seat of the «marca». Each event
    is ``(type, (actor role, actor id), payload)`` with money as text. Hole cards pokerkit knows are
    dealt to the player's seat, face up when pokerkit deals them up (stud); ``????`` (unknown) cards
    are left out. A bring-in is a ``bring_in``; a draw's discard a ``cards_discarded``. The awards are the
    chips pokerkit pushed, per pot, and what it gave back beyond them (an uncalled bet). Raises
    ``ValueError`` for a board card pokerkit does not know."""
    out: list[HandEvent] = [("button_placed", DEALER, {"seat": button})]
    for k, p in enumerate(players):
        out.append(("stack_counted", DEALER, {"player_id": p, "seat": seats[k], "amount": str(dec(starting_stacks[k]))}))

    def emit(type_: str, who: tuple[str, str] = DEALER, **payload: Any) -> None:
        out.append((type_, who, payload))

    street: dict[int, Decimal] = {}
    pushed: dict[int, Decimal] = {}
    put: dict[int, Decimal] = {}
    top_blind = max((dec(op.amount) for op in state.operations if type(op).__name__ == "BlindOrStraddlePosting"),
                    default=Decimal(0))
    for op in state.operations:
        kind = type(op).__name__
        index = getattr(op, "player_index", None)
        i: int = -1 if index is None else int(index)
        if kind in ("AntePosting", "BlindOrStraddlePosting", "CheckingOrCalling", "BringInPosting"):
            put[i] = put.get(i, Decimal(0)) + dec(op.amount)
        elif kind == "CompletionBettingOrRaisingTo":
            put[i] = put.get(i, Decimal(0)) + dec(op.amount) - street.get(i, Decimal(0))
        who = ("player", players[i]) if i >= 0 else DEALER
        if kind == "AntePosting":
            emit("poker_action", who, player_id=players[i], action="ante", amount=str(dec(op.amount)))
        elif kind == "BlindOrStraddlePosting":
            amount = dec(op.amount)
            street[i] = street.get(i, Decimal(0)) + amount
            action = "big_blind" if amount == top_blind else "small_blind"
            emit("poker_action", who, player_id=players[i], action=action, amount=str(amount))
        elif kind == "BringInPosting":
            amount = dec(op.amount)
            street[i] = street.get(i, Decimal(0)) + amount
            emit("poker_action", who, player_id=players[i], action="bring_in", amount=str(amount))
        elif kind == "HoleDealing":
            for c, up in zip(op.cards, op.statuses or [False] * len(op.cards)):
                code = _card(c)
                if code is not None:
                    emit("card_dealt", hand=str(seats[i]), card=code, face_up=bool(up))
        elif kind == "StandingPatOrDiscarding":
            cards = [_card(c) for c in op.cards]
            known = [c for c in cards if c is not None]
            emit("cards_discarded", who, player_id=players[i], count=len(cards),
                 cards=known if len(known) == len(cards) else [])
        elif kind == "BetCollection":
            street = {}
        elif kind == "BoardDealing":
            street = {}
            for c in op.cards:
                code = _card(c)
                if code is None:
                    raise ValueError("a board card is unknown (????)")
                emit("card_dealt", hand="board", card=code)
        elif kind == "Folding":
            emit("poker_action", who, player_id=players[i], action="fold")
        elif kind == "CheckingOrCalling":
            amount = dec(op.amount)
            street[i] = street.get(i, Decimal(0)) + amount
            emit("poker_action", who, player_id=players[i], action="call" if amount else "check", amount=str(amount))
        elif kind == "CompletionBettingOrRaisingTo":
            action = "raise" if any(street.values()) else "bet"
            amount = dec(op.amount) - street.get(i, Decimal(0))
            street[i] = dec(op.amount)
            emit("poker_action", who, player_id=players[i], action=action, amount=str(amount))
        elif kind == "HoleCardsShowingOrMucking":
            cards = [_card(c) for c in op.hole_cards]
            if not cards:
                emit("hand_mucked", who, player_id=players[i])
            elif all(c is not None for c in cards):
                emit("hand_shown", who, player_id=players[i], cards=cards)
            # ``????``: shown, but the history does not know the cards: nothing to record
        elif kind == "ChipsPushing":
            for k, amount in enumerate(op.amounts):
                if amount:
                    pushed[k] = pushed.get(k, Decimal(0)) + dec(amount)
                    emit("pot_awarded", player_id=players[k], amount=str(dec(amount)), pot=op.pot_index)
    out = _replacements_after_discards(out, {p: str(seats[k]) for k, p in enumerate(players)})
    # what pokerkit gave back beyond the pots it pushed (an uncalled bet), from its final stacks
    for k, p in enumerate(players):
        back = dec(state.stacks[k]) - dec(starting_stacks[k]) + put.get(k, Decimal(0)) - pushed.get(k, Decimal(0))
        if back > 0:
            emit("bet_returned", player_id=p, amount=str(back))
    return out


__all__ = ["DEALER", "HandEvent", "cents_divmod", "dec", "hand_events"]
