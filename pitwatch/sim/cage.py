"""The simulator's own count of a table's chips: what the pit would find at the close.

Kept apart from the rules engine's float ledger (:mod:`pitwatch.rules.accounting`) so that a
clean evening whose closing counts reconcile shows that both agree. The count follows the
chips physically, from every event the simulator *does* (a dropped event still happened at
the table): chips come to the table with every stake put on the layout (bets, doubles and
splits, insurance) and every fill, and leave it with every net return handed to a player
(``returned - commission``: the commission stays in the table's cagnotte slot, counted at the
close), every chip sold for cash (``chips_bought``) and every credit. Tips go to their own
box and never touch the count. Every bet is resolved by the close (the last spin forces
prisoners out), so nothing stays on the layout.

The fault ``chips_missing`` (chips taken from the float: a dishonest dealer) makes the count
given at ``table_closed`` short by a few table minimums.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

ZERO = Decimal("0.00")


class TableChips:
    """The chips a table holds (euros, layout and cagnotte slot included), from ``anticipo``
    on; :meth:`observe` each event as it happens (before any dropped-event fault)."""

    def __init__(self, anticipo: Decimal):
        self.anticipo = anticipo
        self.count = anticipo
        self._box_stakes: dict[int, Decimal] = {}
        self._stakes: dict[str, Decimal] = {}     # bet_id -> stake, this round
        self._recorded: set[str] = set()          # bet_ids with a settlement recorded, this round

    def observe(self, type: str, payload: dict[str, Any]) -> None:
        """Follow the chips of one event (payload values as the simulator built them)."""
        if type == "round_started":
            self._box_stakes, self._stakes, self._recorded = {}, {}, set()
        elif type == "bet_placed":
            stake: Decimal = payload["stake"]
            self.count += stake
            self._stakes[payload["bet_id"]] = stake
            box = payload.get("box")
            if box is not None:
                self._box_stakes[box] = self._box_stakes.get(box, ZERO) + stake
        elif type == "player_decision":
            decision = payload["decision"]
            if decision in ("double", "split"):  # every bet of the box adds its own stake
                self.count += self._box_stakes.get(int(str(payload["hand"]).split("-")[0]), ZERO)
            elif decision == "insurance":
                self.count += payload["amount"]
        elif type == "settlement_recorded":
            self.count -= payload["returned"] - payload.get("commission", ZERO)
            self._recorded.add(payload["bet_id"])
        elif type == "poker_action":  # into the pot, on the table
            self.count += payload.get("amount", ZERO)
        elif type in ("pot_awarded", "bet_returned"):  # the rake stays, in the cagnotte
            self.count -= payload["amount"]
        elif type in ("chips_bought", "table_credit"):
            self.count -= payload["amount"]
        elif type in ("chips_cashed", "table_fill"):
            self.count += payload["amount"]

    def hand_back(self, bet_id: str) -> None:
        """The dealer refused bet ``bet_id`` of this round (a late bet) and, recording nothing
        for it, gave the chips back; a bet with a recorded settlement went by that record."""
        if bet_id not in self._recorded:
            self.count -= self._stakes.get(bet_id, ZERO)

    def restock(self) -> tuple[str, Decimal] | None:
        """The fill or credit the pit would make now: a fill of half the anticipo when the
        table holds less than half of it, a credit of the anticipo when it holds more than
        three times it, else ``None``."""
        if self.count < self.anticipo / 2:
            return "table_fill", (self.anticipo / 2).quantize(Decimal("0.01"))
        if self.count > self.anticipo * 3:
            return "table_credit", self.anticipo
        return None
