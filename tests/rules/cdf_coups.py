"""A harness for chemin de fer and bacará a dos paños coups through the engine: a :class:`Table` opens a
table of a ``chemin_de_fer`` or ``bacara_dos_panos`` ruleset and :meth:`Table.coup` returns a :class:`Coup`
whose methods emit the coup's events in order (bank, stakes, cards, decisions, the croupier's records) and
whose :meth:`Coup.end` returns the engine's verdict. Every amount is written by the test, never taken from
the engine."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone
from decimal import Decimal

from pitwatch.rules.base import RoundVerdict
from pitwatch.rules.chemin_de_fer.game import bank_bet_id
from pitwatch.rules.engine import TableEngine
from pitwatch.schemas import events as E
from pitwatch.schemas.chemin_de_fer import BankPutUp, DrawDecision, StakeJoined, TableauRequested
from pitwatch.schemas.dos_panos import AuctionBid, BankAuctioned, CardsLost

D = Decimal
GAL, AND = "chemin_de_fer.galicia", "chemin_de_fer.andalucia"
DP_GAL, DP_AND = "bacara_dos_panos.galicia", "bacara_dos_panos.andalucia"
HANDS = {"P": "punto", "B": "banca", "1": "pano1", "2": "pano2"}
TABLE = "CF-01"


class Table:
    """One table of the ruleset's game; ``events`` keeps every event applied (for the replay tests)."""

    def __init__(self, ruleset: str = GAL, min_bet: str = "10", max_bet: str = "1000",
                 options: dict[str, str] | None = None):
        self.engine = TableEngine(TABLE)
        self.seq = 0
        self.now = datetime(2026, 11, 21, 22, 0, tzinfo=timezone.utc)
        self.rounds = 0
        self.events: list = []
        self.table_violations: list = []
        self.game = ruleset.split(".")[0]
        self.apply(E.TableOpened, ruleset_id=ruleset, jurisdiction=ruleset.split(".")[1], min_bet=D(min_bet),
                   max_bet=D(max_bet), float_amount=D("0"), options=options or {})

    def apply(self, cls, round_id: str | None = None, actor=("dealer", "D-01"), **payload):
        self.seq += 1
        self.now += timedelta(seconds=1)
        ev = cls(event_id=uuid.UUID(int=self.seq), casino_id="GAL-01", table_id=TABLE, game=self.game,
                 seq=self.seq, round_id=round_id, occurred_at=self.now, actor={"role": actor[0], "id": actor[1]},
                 **payload)
        self.events.append(ev)
        out = self.engine.apply(ev)
        self.table_violations.extend(o for o in out if not isinstance(o, RoundVerdict))
        return out

    def coup(self) -> "Coup":
        self.rounds += 1
        return Coup(self, f"{TABLE}-{self.rounds:04d}")


class Coup:
    """The events of one coup, emitted as the methods are called (each returns the coup)."""

    def __init__(self, table: Table, rid: str):
        self.t, self.rid = table, rid
        table.apply(E.RoundStarted, rid)

    def _e(self, cls, actor=("dealer", "D-01"), **payload) -> "Coup":
        self.t.apply(cls, self.rid, actor=actor, **payload)
        return self

    def stake_id(self, player: str) -> str:
        return f"{self.rid}-{player}"

    def bank(self, banker: str, amount: str, seat: int | None = 1, taken: str = "rotation", garage: str = "0") -> "Coup":
        return self._e(BankPutUp, ("player", banker), banker_id=banker, amount=D(amount), seat=seat, taken=taken,
                       garage=D(garage))

    def stake(self, player: str, spot: str, amount: str, seat: int | None) -> "Coup":
        return self._e(E.BetPlaced, ("player", player), bet_id=self.stake_id(player), player_id=player, spot=spot,
                       stake=D(amount), box=seat)

    def join(self, owner: str, player: str, amount: str, seat: int | None) -> "Coup":
        return self._e(StakeJoined, ("player", player), bet_id=self.stake_id(owner), player_id=player,
                       amount=D(amount), seat=seat)

    def close(self) -> "Coup":
        return self._e(E.BetsClosed)

    def tableau(self, banker: str) -> "Coup":
        return self._e(TableauRequested, ("player", banker), player_id=banker)

    def cards(self, *pairs: str) -> "Coup":
        """``cards("P:4S", "B:3H")``: P to punto, B to the bank, 1 and 2 to the first and second paño."""
        for p in pairs:
            hand, card = p.split(":")
            self._e(E.CardDealt, hand=HANDS[hand], card=card)
        return self

    def auction(self, banker: str, amount: str, *bids: str) -> "Coup":
        """``auction("A", "900", "A:900", "C:800")``: the bids, the bank adjudicated to ``banker``."""
        return self._e(BankAuctioned, ("inspector", "I-01"), banker_id=banker, amount=D(amount),
                       bids=[AuctionBid(player_id=b.split(":")[0], amount=D(b.split(":")[1])) for b in bids])

    def lost(self, hand: str) -> "Coup":
        return self._e(CardsLost, hand=HANDS[hand])

    def says(self, player: str, hand: str, decision: str) -> "Coup":
        return self._e(DrawDecision, ("player", player), player_id=player, hand=hand, decision=decision)

    def cagnotte(self, amount: str) -> "Coup":
        return self._e(E.RakeTaken, amount=D(amount))

    def paid(self, player: str, returned: str, outcome: str = "settled") -> "Coup":
        return self._e(E.SettlementRecorded, bet_id=self.stake_id(player), outcome=outcome, returned=D(returned))

    def bank_paid(self, returned: str, outcome: str = "settled") -> "Coup":
        return self._e(E.SettlementRecorded, bet_id=bank_bet_id(self.rid), outcome=outcome, returned=D(returned))

    def end(self) -> RoundVerdict:
        (verdict,) = self.t.apply(E.RoundEnded, self.rid)
        return verdict


def kinds(verdict: RoundVerdict) -> list[str]:
    return sorted(v.kind for v in verdict.violations)


def due(verdict: RoundVerdict) -> dict[str, str]:
    """bet id (``bank`` for the bank) -> the euros the engine says are due back."""
    return {c.expected.bet_id.rsplit("-", 1)[-1].rsplit(":", 1)[-1]: str(c.expected.returned) for c in verdict.checks}
