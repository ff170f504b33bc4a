"""One player at two poker tables at once (004 L4274-L4275, I.1.10 V.o: «Jugar en más de una mesa al
mismo tiempo»).

The engine flags a player counted at two seats of one table within a hand (the ``prohibited_seats``
rule of the poker ruleset); a hand knows nothing of the other tables, so two tables at once is seen
here, across the casino's tables.

**What it reads.** Poker round digests (:class:`pitwatch.detectors.digest.RoundDigest`): each hand's
table, its time span (``started_at`` to ``ended_at``, UTC) and the players dealt in (those with a
part in the hand, and those who took a decision). **Keyed by** the player, across tables (player ids
are stable from table to table).

**Rule.** Two hands of one player at two different tables whose spans overlap (each starts before
the other ends) are play at two tables at the same time: a hard rule, no statistics. A player's
hands are kept while they end within :data:`RETENTION` of his latest hand, so the rule holds
whichever of the two hands reaches the watch first (the live stage interleaves tables as batches are
cut; the tables of a casino's stream are not hours apart).

**State**: versioned JSON (each player's recent hands, the pairs of tables alerted per player).
**Emits** one ``prohibited_play`` alert per player and pair of tables (stable id from the player and
the two tables), naming the player in ``parties``, the two hands as evidence, amount 0, score 0 (a
hard rule has no p-value). Pure: no I/O, no clock.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from decimal import Decimal
from typing import Any, ClassVar, Mapping

from pitwatch.detectors.alerts import SEVERITY, Alert, stable_id
from pitwatch.detectors.digest import RoundDigest, parse_utc
from pitwatch.detectors.pair_rates import check_version
from pitwatch.rules.base import ViolationKind

KIND = ViolationKind.PROHIBITED_PLAY
NAME = "two_tables"
CITATION = ("prohibitions of póquer en círculo (jugar en más de una mesa al mismo tiempo): "
            "004_5c9c19b250457762.txt L4274-L4275 (I.1.10 V.o)")
GAMES = frozenset({"poker"})
"""Games whose rules forbid playing two tables at once (póquer en círculo, list V)."""

RETENTION = timedelta(hours=2)
"""How long (event time) a player's hands are kept after his latest one."""

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)

Hand = tuple[str, str, datetime, datetime]
"""``(table_id, round_id, started_at, ended_at)``."""


class TwoTablesDetector:
    """Play at two tables at once (module docstring). A :class:`pitwatch.detectors.base.Detector`."""

    name: ClassVar[str] = NAME
    keyed_by: ClassVar[str] = "player, across tables"
    STATE_VERSION: ClassVar[int] = 2

    def __init__(self) -> None:
        self.hands: dict[str, dict[str, list[Hand]]] = {}
        """``player -> table -> his hands there`` in the order they came, within :data:`RETENTION` of
        his latest (:attr:`latest`)."""
        self.latest: dict[str, datetime] = {}
        self.swept: datetime | None = None
        """When the players gone for more than :data:`RETENTION` were last forgotten (event time)."""
        self.alerted: set[tuple[str, str, str]] = set()
        """``(player, table, table)``, the tables sorted."""

    def observe(self, digest: RoundDigest) -> list[Alert]:
        """Check the players of one hand against their hands at the other tables; keep this hand."""
        if digest.game not in GAMES or digest.started_at is None:
            return []
        hand: Hand = (digest.table_id, digest.round_id, digest.started_at, digest.ended_at)
        players = sorted({b.player_id for b in digest.bets} | {p for _, p, _, _ in digest.decisions})
        out = []
        for p in players:
            tables = self.hands.setdefault(p, {})
            for table, kept in tables.items():
                if table == hand[0]:
                    continue
                for other in kept:
                    if other[2] < hand[3] and hand[2] < other[3]:
                        alert = self._alert(p, other, hand, digest)
                        if alert is not None:
                            out.append(alert)
            tables.setdefault(hand[0], []).append(hand)
            self._prune(p, hand[3])
        self._sweep(hand[3])
        return out

    def _sweep(self, now: datetime) -> None:
        """Forget the players whose latest hand ended more than :data:`RETENTION` before ``now`` (once
        per :data:`RETENTION` of event time): they left the casino's tables."""
        if self.swept is not None and now < self.swept + RETENTION:
            return
        self.swept = now
        for p in [p for p, t in self.latest.items() if t < now - RETENTION]:
            del self.latest[p], self.hands[p]

    def _prune(self, player: str, end: datetime) -> None:
        """Forget the player's hands that ended more than :data:`RETENTION` before his latest."""
        latest = self.latest[player] = max(self.latest.get(player, end), end)
        tables = self.hands[player]
        for table in list(tables):
            kept = tables[table]
            while kept and kept[0][3] < latest - RETENTION:
                kept.pop(0)
            if not kept:
                del tables[table]

    def _alert(self, player: str, a: Hand, b: Hand, digest: RoundDigest) -> Alert | None:
        first, second = sorted((a, b))
        key = (player, first[0], second[0])
        if key in self.alerted:
            return None
        self.alerted.add(key)
        return Alert(
            alert_id=stable_id("alert", NAME, *key), kind=KIND, severity=SEVERITY[KIND],
            casino_id=digest.casino_id, table_id=digest.table_id, game=digest.game, round_id=digest.round_id,
            bet_id="", player_id=player, dealer_id="", amount=Decimal("0.00"),
            message=(f"player {player} played hand {first[1]} at table {first[0]} ({_hm(first)}) and hand "
                     f"{second[1]} at table {second[0]} ({_hm(second)}) at the same time"),
            citation=CITATION, detected_at=digest.ended_at,
            evidence=(f"{first[0]}/{first[1]}", f"{second[0]}/{second[1]}"),
            ruleset_id=digest.ruleset_id, ruleset_hash=digest.ruleset_hash, parties=(f"player:{player}",), score=0.0)

    def to_state(self) -> dict[str, Any]:
        """The state as versioned JSON (never pickled); times as UTC milliseconds since 1970."""
        return {"version": self.STATE_VERSION,
                "hands": {p: [[t, r, _ms(s), _ms(e)] for hs in tables.values() for t, r, s, e in hs]
                          for p, tables in sorted(self.hands.items())},
                "swept": None if self.swept is None else _ms(self.swept),
                "alerted": sorted(list(k) for k in self.alerted)}

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> TwoTablesDetector:
        """Inverse of :meth:`to_state`; a state of version 1 is upcast (:func:`upcast_v1_v2`). Raises
        ``ValueError`` for another version."""
        if state.get("version") == 1:
            state = upcast_v1_v2(state)
        check_version(state, NAME, cls.STATE_VERSION)
        out = cls()
        for p, hs in state["hands"].items():
            for t, r, s, e in hs:
                hand = (str(t), str(r), _from_ms(s), _from_ms(e))
                out.hands.setdefault(str(p), {}).setdefault(hand[0], []).append(hand)
                out.latest[str(p)] = max(out.latest.get(str(p), hand[3]), hand[3])
        out.alerted = {(str(p), str(a), str(b)) for p, a, b in state["alerted"]}
        out.swept = None if state.get("swept") is None else _from_ms(state["swept"])
        return out


def upcast_v1_v2(state: Mapping[str, Any]) -> dict[str, Any]:
    """A state of version 1 as version 2. Version 1 was written with two time formats: UTC ISO 8601
    strings (releases up to the merge of association, ``a83fd5c``) and, from the release that stored
    states compressed (``a5d4b3c``), milliseconds since 1970 with the same version number; version 2
    is milliseconds. Each time is read in whichever form it has."""
    def ms(v: Any) -> Any:
        return _ms(parse_utc(v)) if isinstance(v, str) else v

    return {**state, "version": 2,
            "hands": {p: [[t, r, ms(s), ms(e)] for t, r, s, e in hs] for p, hs in state["hands"].items()},
            "swept": None if state.get("swept") is None else ms(state["swept"])}


def _ms(t: datetime) -> int:
    return (t - EPOCH) // timedelta(milliseconds=1)


def _from_ms(ms: Any) -> datetime:
    return EPOCH + timedelta(milliseconds=int(ms))


def _hm(hand: Hand) -> str:
    return f"{hand[2]:%H:%M:%S}-{hand[3]:%H:%M:%S} UTC"


__all__ = ["CITATION", "GAMES", "KIND", "NAME", "RETENTION", "TwoTablesDetector", "upcast_v1_v2"]
