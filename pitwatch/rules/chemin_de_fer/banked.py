"""What the rounds of the player-banked baccarats share (chemin de fer, bacará a dos paños): the events
of a coup read the same way, the violations built the same way, the bank's settlement id and the check
of the cagnotte the croupier recorded.

A subclass sets ``game`` and ``label`` and implements ``bank_put_up`` and ``stake_joined`` (one operation per
event class, as every event of the coup); it may read more event classes in its own ``on_event``, handing the
others to this one.
"""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar

from pitwatch.rules.base import Violation, ViolationKind
from pitwatch.rules.chemin_de_fer.bank import PutUp
from pitwatch.rules.chemin_de_fer.stakes import Stake
from pitwatch.rules.game import GameRound, TableContext
from pitwatch.schemas.chemin_de_fer import BankPutUp, DrawDecision, StakeJoined, TableauRequested
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import CardDealt, ShoeLoaded
from pitwatch.schemas.money import ZERO
from pitwatch.schemas.poker import RakeTaken

BANK_SPOT = "bank"
"""The spot of the bank's settlement."""


def bank_bet_id(round_id: str) -> str:
    """The id of the bank's settlement in coup ``round_id``: ``"<round_id>:bank"``."""
    return f"{round_id}:bank"


class BankedRound(GameRound):
    """One coup against a player's bank: the cards (``cards``: (hand, card, event id) in the order dealt),
    the draw decisions (``said``), the stakes joined (``joined``), whether the banker asked for the
    tableau, the bank put up (``put``) and the cagnotte recorded."""

    label: ClassVar[str] = ""
    """The game's name in messages."""

    def __init__(self, ctx: TableContext, round_id: str, last_of_session: bool = False):
        super().__init__(ctx, round_id, last_of_session)
        self.put: PutUp | None = None
        self.cards: list[tuple[str, str, str]] = []
        self.said: dict[str, tuple[str, str, str]] = {}
        """hand -> (player, decision, event id) of its last draw decision."""
        self.joined: dict[str, list[tuple[str, int | None, str]]] = {}
        """bet id -> [(player, seat, event id)] of the players who joined it."""
        self.tableau_asked = False
        self.cagnotte_recorded = ZERO
        self.cagnotte_events: list[str] = []

    def _cite(self, key: str) -> str:
        return self.ctx.ruleset.cite(key)

    def _flag(self, kind: str, message: str, key: str, eids: tuple[str, ...], player: str | None = None,
              amount: Decimal | None = None, bet_id: str | None = None) -> Violation:
        return Violation(kind, message, self._cite(key), eids, bet_id, player, amount)

    def stakes(self) -> list[Stake]:
        """The coup's stakes in arrival order."""
        return [Stake(b.bet_id, b.player_id, b.spot, b.stake, b.box, i, b.bet_id in self.joined)
                for i, b in enumerate(self.bets.values())]

    @staticmethod
    def shoe_decks(ctx: TableContext, event: ShoeLoaded, decks: int) -> list[Violation]:
        """A shoe loaded with other than the ruleset's ``decks``: a ``procedure`` violation citing ``cards``
        (chemin de fer's and dos paños' shoe)."""
        if event.decks != decks:
            return [Violation(ViolationKind.PROCEDURE, f"shoe {event.shoe_id} loaded with {event.decks} decks; the "
                              f"rules require {decks}", ctx.ruleset.cite("cards"), (str(event.event_id),))]
        return []

    def on_event(self, event: EventBase) -> list[Violation]:
        """An event of the coup, each to its own operation (``card_dealt``, ``draw_decision``, ``rake_taken``,
        ``bank_put_up``, ``stake_joined``, ``tableau_requested``); any other event does not belong to the game:
        a ``procedure`` violation."""
        if type(event) is CardDealt:
            return self.card_dealt(event)
        if type(event) is DrawDecision:
            return self.draw_decision(event)
        if type(event) is RakeTaken:
            return self.rake_taken(event)
        if type(event) is BankPutUp:
            return self.bank_put_up(event)
        if type(event) is StakeJoined:
            return self.stake_joined(event)
        if type(event) is TableauRequested:
            return self.tableau_requested(event)
        return [self._flag(ViolationKind.PROCEDURE, f"event {event.type} does not belong to {self.label}", "coup_deal",
                           (str(event.event_id),))]

    def card_dealt(self, event: CardDealt) -> list[Violation]:
        """Keep a card in the order dealt, as ``(hand, card, event id)``; the deal is judged at the end of the
        coup. Returns no violation."""
        self.cards.append((event.hand, event.card, str(event.event_id)))
        return []

    def draw_decision(self, event: DrawDecision) -> list[Violation]:
        """Keep a hand's last draw decision (the evidence of a stand). Returns no violation."""
        self.said[event.hand] = (event.player_id, event.decision, str(event.event_id))
        return []

    def rake_taken(self, event: RakeTaken) -> list[Violation]:
        """The cagnotte the croupier put in its slot, checked at the end of the coup. Returns no violation."""
        self.cagnotte_recorded += event.amount
        self.cagnotte_events.append(str(event.event_id))
        return []

    def tableau_requested(self, event: TableauRequested) -> list[Violation]:
        """The banker asked for the tableau: he must then follow it. Returns no violation."""
        self.tableau_asked = True
        return []

    def bank_put_up(self, event: BankPutUp) -> list[Violation]:
        """The bank put up for the coup, and the rules of the bank it breaks (the game's)."""
        raise NotImplementedError

    def stake_joined(self, event: StakeJoined) -> list[Violation]:
        """A player's chips joined to another's stake (the game's rule)."""
        raise NotImplementedError

    def _rake_check(self, due: Decimal, rate: Decimal, base: Decimal, key: str) -> list[Violation]:
        """A ``rake_discrepancy`` (citing ``key``) of the cagnotte recorded less ``due``, the ``rate`` of the
        bank's winnings ``base``; none when they agree."""
        diff = self.cagnotte_recorded - due
        if diff == 0:
            return []
        return [self._flag(ViolationKind.RAKE_DISCREPANCY, f"coup {self.round_id}: {self.cagnotte_recorded} put in the "
                           f"cagnotte, {due} due ({rate} of the bank's winnings of {base if due else ZERO}): "
                           f"{abs(diff)} {'too much' if diff > 0 else 'too little'}", key,
                           tuple(self.cagnotte_events), None, diff)]


__all__ = ["BANK_SPOT", "BankedRound", "bank_bet_id"]
