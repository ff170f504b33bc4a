"""Build the events of poker hands for the tests: a table opened with ``poker.andalucia`` and hands
written action by action (``Hand``), and the engine's verdicts on them (``judge``)."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

from pitwatch.rules.base import RoundVerdict, Violation
from pitwatch.rules.engine import replay
from pitwatch.schemas.events import EVENT_ADAPTER

T0 = datetime(2026, 11, 20, 21, 0, tzinfo=timezone.utc)


class Table:
    """A poker table: ``hand()`` starts a hand; ``events`` holds everything so far."""

    def __init__(self, rake: str = "0.05", variant: str = "holdem", structure: str = "no_limit",
                 minimum: str = "1.00", table_id: str = "PK-01", maximum: str = "1000.00", **options: str):
        self.table_id, self.seq, self.events, self.hands = table_id, 0, [], 0
        self.add(None, "table_opened", ruleset_id="poker.andalucia", jurisdiction="andalucia", min_bet=minimum,
                 max_bet=maximum, float_amount="0.00",
                 options={"rake_rate": rake, "variant": variant, "structure": structure, **options})

    def add(self, round_id: str | None, type_: str, actor: str = "D-01", **payload: Any) -> Any:
        self.seq += 1
        role = "player" if actor.startswith("P") or actor in "ABCDEF" else "dealer"
        ev = EVENT_ADAPTER.validate_python({
            "event_id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{self.table_id}/{self.seq}")),
            "casino_id": "and-marbella", "table_id": self.table_id, "game": "poker", "seq": self.seq,
            "round_id": round_id, "occurred_at": T0 + timedelta(seconds=self.seq), "actor": {"role": role, "id": actor},
            "type": type_, **payload})
        self.events.append(ev)
        return ev

    def hand(self, button: int, stacks: dict[str, tuple[int, str]]) -> "Hand":
        """A new hand: the «marca» at seat ``button``; ``stacks`` player -> (seat, chips)."""
        self.hands += 1
        h = Hand(self, f"H{self.hands}")
        h.ev("round_started")
        h.ev("button_placed", seat=button)
        for p, (seat, amount) in stacks.items():
            h.ev("stack_counted", player_id=p, seat=seat, amount=amount)
        return h


class Hand:
    """One hand: ``act("A", "raise", "3.00")``, ``board("AH", "KD", "7C")``, ``show``, ``award``..."""

    def __init__(self, table: Table, round_id: str):
        self.table, self.round_id = table, round_id

    def ev(self, type_: str, actor: str = "D-01", **payload: Any) -> Any:
        return self.table.add(self.round_id, type_, actor, **payload)

    def act(self, player: str, action: str, amount: str = "0.00") -> "Hand":
        self.ev("poker_action", player, player_id=player, action=action, amount=amount)
        return self

    def deal(self, seat: int, *cards: str, up: bool = False) -> "Hand":
        """Cards dealt to ``seat``, face down (or face up: a stud up card)."""
        for c in cards:
            self.ev("card_dealt", hand=str(seat), card=c, face_up=up)
        return self

    def discard(self, player: str, count: int, *cards: str) -> "Hand":
        """Five-card draw: ``player`` changes ``count`` cards (``cards``, when known)."""
        self.ev("cards_discarded", player, player_id=player, count=count, cards=list(cards))
        return self

    def board(self, *cards: str) -> "Hand":
        for c in cards:
            self.ev("card_dealt", hand="board", card=c)
        return self

    def show(self, player: str, *cards: str) -> "Hand":
        self.ev("hand_shown", player, player_id=player, cards=list(cards))
        return self

    def muck(self, player: str) -> "Hand":
        self.ev("hand_mucked", player, player_id=player)
        return self

    def rake(self, amount: str) -> "Hand":
        self.ev("rake_taken", amount=amount)
        return self

    def award(self, player: str, amount: str, pot: int = 0) -> "Hand":
        self.ev("pot_awarded", player_id=player, amount=amount, pot=pot)
        return self

    def back(self, player: str, amount: str) -> "Hand":
        self.ev("bet_returned", player_id=player, amount=amount)
        return self

    def end(self) -> "Hand":
        self.ev("round_ended")
        return self


def judge(table: Table) -> list[RoundVerdict]:
    """The engine's verdict on every hand of ``table``."""
    return [v for v in replay(table.events) if isinstance(v, RoundVerdict)]


def table_findings(table: Table) -> list[Violation]:
    """The table-level violations of ``table`` (outside any hand: the session's benefit...)."""
    return [v for v in replay(table.events) if isinstance(v, Violation)]


def kinds(verdict: RoundVerdict) -> list[str]:
    return sorted(v.kind for v in verdict.violations)


def due(verdict: RoundVerdict) -> dict[str, str]:
    """Player -> the euros the engine says are due back to him (``returned``), as text."""
    return {c.expected.player_id: str(c.expected.returned) for c in verdict.checks}
