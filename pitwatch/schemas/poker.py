"""The events of the player-against-player games: póquer en círculo (Andalucía, 004 I.1.10).

A poker «mano» is a round (``round_started`` ... ``round_ended``) whose events are, in order:

1. ``button_placed``: the seat of the «marca» (the «postre», 004 L4451-L4458, IX.1);
2. one ``stack_counted`` per player dealt in: his seat and the chips he has in play;
3. the forced bets as ``poker_action`` (``ante``, ``small_blind``, ``big_blind``: 004 L4425-L4448, VIII);
4. the cards: ``card_dealt`` to a seat (``hand`` = the seat number; ``face_up`` false for a hole
   card, true for a stud up card) or to the ``board`` (the community cards, face up); a card dealt to
   the board, or a stud card of the next street, closes the betting interval;
5. the betting, one ``poker_action`` per action (``bring_in``: stud's forced opening bet; ``fold``,
   ``check``, ``call``, ``bet``, ``raise``); at five-card draw, between the two intervals, each
   player's ``cards_discarded`` followed by the ``card_dealt`` that replace them;
6. the showdown: ``hand_shown`` (the cards a player shows) or ``hand_mucked``;
7. what the croupier did with the chips: ``rake_taken`` (the house's deduction put in the «cagnotte»,
   004 L4082-L4088, II.4.a), ``bet_returned`` (an uncalled bet given back) and ``pot_awarded`` (pot
   ``pot``, 0 the main pot, paid to a player). These are the audited facts, as ``settlement_recorded``
   is in the house-banked games: the engine re-derives the pots, the rake and the winners and compares.

``amount`` of a ``poker_action`` is what the player puts in with that action, in euros (a raise
from 10 to 30 by a player who had 10 in is ``amount`` 20). Player ids are stable across tables.

The house's benefit taken per player and session instead of a rake (004 L4090-L4101, II.4.b-c) is
a table-level ``session_fee_taken`` (no round).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import Field

from pitwatch.schemas.codes import CardCode
from pitwatch.schemas.envelope import EventBase, Id, RoundEvent
from pitwatch.schemas.money import Money

POKER_ACTIONS: tuple[str, ...] = ("ante", "small_blind", "big_blind", "fold", "check", "call", "bet", "raise",
                                  "bring_in")
"""Values of ``poker_action.action``: the three forced bets, the betting actions (004 IX.6), and stud's
bring-in: the lowest up card's opening bet, at least the table minimum (004 L5009-L5017)."""

FORCED_BETS: tuple[str, ...] = POKER_ACTIONS[:3]
"""The forced bets («apuestas obligatorias», 004 L4425-L4448, VIII)."""

PokerActionKind = Literal["ante", "small_blind", "big_blind", "fold", "check", "call", "bet", "raise", "bring_in"]
Seat = Annotated[int, Field(ge=1, le=10)]
"""A poker seat: at most ten, numbered clockwise (004 L4046-L4056, II.2)."""


class ButtonPlaced(RoundEvent):
    """The «marca» is in front of seat ``seat`` for this hand: that player is the «postre», the
    player to his left the «mano» (004 L4068-L4075, II.3; L4451-L4458, IX.1)."""

    type: Literal["button_placed"] = "button_placed"
    seat: Seat


class StackCounted(RoundEvent):
    """Player ``player_id`` is dealt in at seat ``seat`` with ``amount`` euros of chips in play
    (his «resto», always in sight: 004 L4264-L4267, V.m)."""

    type: Literal["stack_counted"] = "stack_counted"
    player_id: Id
    seat: Seat
    amount: Money


class PokerAction(RoundEvent):
    """A forced bet or a betting action by ``player_id``, putting ``amount`` euros in (0 for a fold
    or a check)."""

    type: Literal["poker_action"] = "poker_action"
    player_id: Id
    action: PokerActionKind
    amount: Money = Decimal("0.00")


class CardsDiscarded(RoundEvent):
    """Five-card draw: ``player_id`` changes ``count`` of his cards (0: he stands pat, «servido»),
    announced aloud; ``cards`` are the discards when the record knows them. The croupier then deals
    him ``count`` cards (``card_dealt`` to his seat) «de manera que tenga cinco» (004 L4875-L4889)."""

    type: Literal["cards_discarded"] = "cards_discarded"
    player_id: Id
    count: Annotated[int, Field(ge=0, le=10)]
    cards: Annotated[list[CardCode], Field(max_length=10)] = []


class HandShown(RoundEvent):
    """At the showdown, ``player_id`` shows ``cards`` (his hole cards: 004 L4608-L4622, IX.19-IX.20)."""

    type: Literal["hand_shown"] = "hand_shown"
    player_id: Id
    cards: Annotated[list[CardCode], Field(min_length=1, max_length=7)]


class HandMucked(RoundEvent):
    """``player_id`` throws his cards away face down: he gives up the pot (004 L4615-L4622, IX.20;
    L4636-L4641, IX.22)."""

    type: Literal["hand_mucked"] = "hand_mucked"
    player_id: Id


class RakeTaken(RoundEvent):
    """The croupier puts ``amount`` euros of the hand's pots in the «cagnotte» before paying the
    winner (004 L4082-L4088, II.4.a; L4173-L4175, III.3.c)."""

    type: Literal["rake_taken"] = "rake_taken"
    amount: Money


class PotAwarded(RoundEvent):
    """The croupier pays ``amount`` euros of pot ``pot`` (0 the main pot, 1.. the side pots in
    the order they were made) to ``player_id``."""

    type: Literal["pot_awarded"] = "pot_awarded"
    player_id: Id
    amount: Money
    pot: Annotated[int, Field(ge=0, le=10)] = 0


class BetReturned(RoundEvent):
    """The part of ``player_id``'s last bet nobody called, ``amount`` euros, is given back to him."""

    type: Literal["bet_returned"] = "bet_returned"
    player_id: Id
    amount: Money


class SessionFeeTaken(EventBase):
    """A table-level event: the croupier puts ``amount`` euros of ``player_id``'s chips in the
    «cagnotte», the house's benefit for this player and session when the table takes it per session:
    a percentage of the table maximum or of the initial stack, or a fixed amount (004 L4090-L4101,
    II.4.b-c)."""

    type: Literal["session_fee_taken"] = "session_fee_taken"
    player_id: Id
    amount: Money


EVENT_TYPES: tuple[type[EventBase], ...] = (
    ButtonPlaced, StackCounted, PokerAction, CardsDiscarded, HandShown, HandMucked, RakeTaken, PotAwarded,
    BetReturned, SessionFeeTaken,
)
"""Every poker event class, in the order of a hand."""

__all__ = ["FORCED_BETS", "POKER_ACTIONS", "EVENT_TYPES", "BetReturned", "ButtonPlaced", "CardsDiscarded",
           "HandMucked", "HandShown", "PokerAction", "PokerActionKind", "PotAwarded", "RakeTaken", "Seat",
           "SessionFeeTaken", "StackCounted"]
