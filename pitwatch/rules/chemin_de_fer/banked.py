"""What the rounds of the player-banked baccarats share (chemin de fer, bacará a dos paños): the events
of a coup read the same way, the violations built the same way, the bank's settlement id and the check
of the cagnotte the croupier recorded.

A subclass sets ``game`` and ``label`` and implements ``_put_up`` (a ``bank_put_up``) and ``_joined``
(a ``stake_joined``); it may read more event types in ``_other_event``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from pitwatch.rules.base import Violation, ViolationKind
from pitwatch.rules.chemin_de_fer.bank import PutUp
from pitwatch.rules.chemin_de_fer.stakes import Stake
from pitwatch.rules.game import GameRound, TableContext
from pitwatch.schemas.money import ZERO

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

    def on_event(self, event: Any) -> list[Violation]:
        t, eid = event.type, str(event.event_id)
        if t == "card_dealt":
            self.cards.append((event.hand, event.card, eid))
            return []
        if t == "draw_decision":
            self.said[event.hand] = (event.player_id, event.decision, eid)
            return []
        if t == "rake_taken":
            self.cagnotte_recorded += event.amount
            self.cagnotte_events.append(eid)
            return []
        if t == "bank_put_up":
            return self._put_up(event, eid)
        if t == "stake_joined":
            return self._joined(event, eid)
        if t == "tableau_requested":
            self.tableau_asked = True
            return []
        return self._other_event(event, eid)

    def _other_event(self, event: Any, eid: str) -> list[Violation]:
        return [self._flag(ViolationKind.PROCEDURE, f"event {event.type} does not belong to {self.label}", "coup_deal",
                           (eid,))]

    def _put_up(self, event: Any, eid: str) -> list[Violation]:
        raise NotImplementedError

    def _joined(self, event: Any, eid: str) -> list[Violation]:
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
