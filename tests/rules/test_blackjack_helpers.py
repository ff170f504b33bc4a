"""Event-building helper for the blackjack tests (no tests here).

``BJScript`` feeds pydantic events straight into a :class:`TableEngine` and keeps the verdicts
and table-level violations it returns.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from decimal import Decimal
from uuid import uuid4

import pitwatch.rules.blackjack  # noqa: F401  (registers the game)
from pitwatch.rules.base import RoundVerdict, Violation
from pitwatch.rules.engine import TableEngine
from pitwatch.schemas.events import EVENT_CLASS_BY_TYPE, Actor

T0 = datetime(2026, 3, 1, 21, 0, tzinfo=timezone.utc)
D = Decimal


class BJScript:
    """Builds one blackjack table's event stream.

    ``BJScript("blackjack.galicia", min_bet="10", max_bet="1000")`` opens the table; then
    ``start()``, ``bet(box, stake)``, ``close()``, ``deal(hand, *cards)``,
    ``decide(decision, hand=..)``, ``insure(bet_id, amount)`` and ``end()`` (which records the
    engine's own expected settlements unless ``pay`` is given) build a round.
    """

    def __init__(self, ruleset: str = "blackjack.galicia", min_bet: str = "10", max_bet: str = "1000",
                 options: dict[str, str] | None = None, table_id: str = "BJ-01"):
        self.table_id = table_id
        self.engine = TableEngine(table_id)
        self.seq = 0
        self.round_id: str | None = None
        self.rounds = 0
        self.verdicts: list[RoundVerdict] = []
        self.table_violations: list[Violation] = []
        self.nbets = 0
        self.emit("table_opened", None, ruleset_id=ruleset, jurisdiction=ruleset.split(".")[1],
                  min_bet=D(min_bet), max_bet=D(max_bet), float_amount=D("50000"), options=options or {})

    def emit(self, type_: str, round_id: str | None, actor: tuple[str, str] = ("dealer", "D-1"), **payload):
        self.seq += 1
        cls = EVENT_CLASS_BY_TYPE[type_]
        ev = cls(event_id=uuid4(), casino_id="gal-test", table_id=self.table_id, game="blackjack", seq=self.seq,
                 round_id=round_id, occurred_at=T0 + timedelta(seconds=self.seq), actor=Actor(role=actor[0], id=actor[1]),
                 **payload)
        for out in self.engine.apply(ev):
            (self.verdicts if isinstance(out, RoundVerdict) else self.table_violations).append(out)
        return ev

    # round building
    def start(self) -> "BJScript":
        self.rounds += 1
        self.round_id = f"R{self.rounds}"
        self.emit("round_started", self.round_id)
        return self

    def bet(self, box: int, stake: str | Decimal, player: str | None = None, bet_id: str | None = None,
            spot: str = "main") -> str:
        self.nbets += 1
        bet_id = bet_id or f"B{self.nbets}"
        player = player or f"P{box}"
        self.emit("bet_placed", self.round_id, ("player", player), bet_id=bet_id, player_id=player, spot=spot,
                  stake=D(str(stake)), box=box)
        return bet_id

    def close(self) -> "BJScript":
        self.emit("bets_closed", self.round_id)
        return self

    def deal(self, hand: str | int, *cards: str, face_up: bool = True) -> "BJScript":
        for c in cards:
            self.emit("card_dealt", self.round_id, hand=str(hand), card=c, face_up=face_up)
        return self

    def decide(self, decision: str, hand: str | int | None = None, player: str = "P", **kw) -> "BJScript":
        self.emit("player_decision", self.round_id, ("player", player), decision=decision,
                  hand=None if hand is None else str(hand), **kw)
        return self

    def insure(self, bet_id: str, amount: str) -> "BJScript":
        return self.decide("insurance", bet_id=bet_id, amount=D(amount))

    @property
    def game_round(self):
        return self.engine.open.game_round

    def expected(self) -> dict:
        """bet_id -> ExpectedSettlement of the open round."""
        return {e.bet_id: e for e in self.game_round.settle()}

    def end(self, pay: dict[str, str] | None = None) -> RoundVerdict:
        """Record settlements (the engine's expected ones, or ``pay`` bet_id -> returned) and end."""
        if pay is None:
            for e in self.game_round.settle():
                self.emit("settlement_recorded", self.round_id, bet_id=e.bet_id, outcome=e.outcome,
                          returned=e.returned)
        else:
            for bid, r in pay.items():
                self.emit("settlement_recorded", self.round_id, bet_id=bid, outcome="x", returned=D(r))
        self.emit("round_ended", self.round_id)
        return self.verdicts[-1]

    # shortcuts
    def simple(self, boxes: dict[int, str], cards: dict[str, list[str]], dealer_first: str) -> dict[int, str]:
        """Start, bet ``boxes`` (box -> stake), close, first deal: one card per box in order, the
        dealer's first card, second card per box. ``cards[str(box)]`` gives the two cards."""
        self.start()
        ids = {b: self.bet(b, s) for b, s in boxes.items()}
        self.close()
        for b in boxes:
            self.deal(b, cards[str(b)][0])
        self.deal("dealer", dealer_first)
        for b in boxes:
            self.deal(b, cards[str(b)][1])
        return ids


def kinds(verdict: RoundVerdict) -> list[str]:
    return [v.kind for v in verdict.violations]
