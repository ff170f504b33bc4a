"""PHH, the Poker Hand History format (https://phh.readthedocs.io), to pitwatch events.

Two PHH variants: no-limit hold'em (``NT``) and fixed-limit seven-card stud (``F7S``, the table's
``variant`` ``stud``, its minimum the PHH ``small_bet``). A PHH stud bring-in (``pb``) is smaller than
the small bet, which Andalucía does not allow (004 L5009-L5017): the engine flags it.

:func:`import_phh` reads a ``.phh`` or ``.phhs`` file with pokerkit (its ``HandHistory``, a
well-kept library, not ours) and turns every hand into the events of one poker round
(:mod:`pitwatch.schemas.poker`): the «marca», the stacks, the forced bets, every action, the board,
what was shown or mucked, and the chips pushed to each player. The chips pushed are pokerkit's:
it replays the hand and pays the pots by its own rules, so the engine's awards are checked against a
second, independent implementation. PHH records no rake, so the tables are opened with
``rake_rate`` 0; a site's own ``winnings`` (net of its rake) are not used.

One table per PHH ``table`` (``<venue>/<table>`` as the table id), opened with ``poker.andalucia`` at
its first hand and closed after its last; every table's ``seq`` counts from 1. Event ids are UUIDs
derived from the hand and the event's place in it, so importing a file twice gives the same events
(and the pipeline keeps one copy). Times: the hand's PHH date and time in its time zone (``ET``
and the other US abbreviations; UTC when absent), then 1 ms per event. Players keep their PHH names
as ``player_id``. Seats: PHH ``seats`` when given, else 1..n; PHH lists the players from the small
blind, so the «marca» is the last of them (heads-up hold'em: the small blind; at stud, the last one
too: pokerkit breaks a tie of up cards for the first player listed, the «mano»).
"""

from __future__ import annotations

import uuid
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any, Iterator
from zoneinfo import ZoneInfo

from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import EVENT_ADAPTER
from pitwatch.schemas.pokerkit_hand import cents_divmod, dec, hand_events

NAMESPACE = uuid.UUID("1b0e6c5e-2f9e-5d4c-9a47-50686820706b")
"""The namespace of the imported events' ids (uuid5)."""

RULESET = "poker.andalucia"
VARIANTS = {"NT": ("holdem", "no_limit"), "F7S": ("stud", "fixed_limit")}
"""PHH variant -> the table's ``variant`` and ``structure`` options."""
ZONES = {"ET": "America/New_York", "EST": "America/New_York", "EDT": "America/New_York", "CT": "America/Chicago",
         "MT": "America/Denver", "PT": "America/Los_Angeles", "UTC": "UTC", "GMT": "UTC", "CET": "Europe/Madrid"}


class PhhError(ValueError):
    """A PHH file pitwatch cannot import; the message names the hand and why."""


def _when(hh: Any) -> datetime:
    d = date(hh.year or 1970, hh.month or 1, hh.day or 1)
    t = hh.time or time(0)
    extra = hh.user_defined_fields or {}
    abbreviation = extra.get("_time_zone_abbreviation") or extra.get("time_zone_abbreviation") or hh.time_zone
    zone = ZoneInfo(ZONES.get(str(abbreviation or "UTC"), "UTC"))
    return datetime.combine(d, t, zone).astimezone(timezone.utc)


class _Hand:
    """Builds one hand's events."""

    def __init__(self, table: "_Table", hh: Any, number: int):
        self.table, self.hh, self.number = table, hh, number
        self.round_id = f"H{hh.hand if hh.hand is not None else number}"
        self.at = _when(hh)
        self.n = 0
        self.events: list[EventBase] = []

    def emit(self, type_: str, actor: tuple[str, str] = ("dealer", "croupier"), round_id: str | None = "",
             **payload: Any) -> None:
        self.n += 1
        self.events.append(EVENT_ADAPTER.validate_python({
            "event_id": str(uuid.uuid5(NAMESPACE, f"{self.table.table_id}|{self.round_id}|{self.n}")),
            "casino_id": self.table.casino_id, "table_id": self.table.table_id, "game": "poker",
            "seq": self.table.next_seq(), "round_id": self.round_id if round_id == "" else round_id,
            "occurred_at": self.at + timedelta(milliseconds=self.n),
            "actor": {"role": actor[0], "id": actor[1]}, "type": type_, **payload}))


class _Table:
    def __init__(self, casino_id: str, table_id: str):
        self.casino_id, self.table_id, self.seq = casino_id, table_id, 0

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq


def _players(hh: Any) -> list[str]:
    n = len(hh.starting_stacks)
    names = list(hh.players or [])
    return [str(names[i]) if i < len(names) and names[i] else f"p{i + 1}" for i in range(n)]


def _hand_events(hand: _Hand, opened: bool) -> None:
    hh = hand.hh
    players = _players(hh)
    n = len(players)
    seats = [int(s) for s in hh.seats] if hh.seats else list(range(1, n + 1))
    variant, structure = VARIANTS[hh.variant]
    if not opened:
        minimum = dec(hh.small_bet if variant == "stud" else hh.min_bet or max(hh.blinds_or_straddles or [1]))
        hand.emit("table_opened", round_id=None, ruleset_id=RULESET, jurisdiction="andalucia", min_bet=str(minimum),
                  max_bet=str(minimum * 1000), float_amount="0.00",
                  options={"variant": variant, "structure": structure, "rake_rate": "0"})
    hh.divmod = cents_divmod
    states = list(hh)
    state = states[-1]
    hand.emit("round_started")
    blinds = [dec(b) for b in (hh.blinds_or_straddles or [0] * n)]
    button = n - 1 if n > 2 or variant == "stud" else min(range(n), key=lambda i: (blinds[i] if i < len(blinds) else 0, i))
    if n == 2 and variant != "stud":  # pokerkit posts a heads-up hand's blinds reversed: the small blind is the marca
        posted = {op.player_index: dec(op.amount) for op in state.operations if type(op).__name__ == "BlindOrStraddlePosting"}
        button = min(range(n), key=lambda i: (posted.get(i, Decimal(0)), i))
    for type_, who, payload in hand_events(state, players, seats, hh.starting_stacks, seats[button]):
        hand.emit(type_, who, **payload)
    hand.emit("round_ended")


def import_phh(path: Path, casino_id: str = "phh") -> Iterator[EventBase]:
    """The events of every hand of the PHH file ``path`` (``.phh``: one hand; ``.phhs``: several),
    in the order of the file (each table's events in order), then each table's ``table_closed``.

    Raises :class:`PhhError` for a file pokerkit cannot read or a hand it cannot replay (the message
    names the hand), and for a variant other than no-limit hold'em (``NT``) and fixed-limit
    seven-card stud (``F7S``)."""
    from pokerkit import HandHistory

    try:
        with path.open("rb") as f:
            histories = list(HandHistory.load_all(f)) if path.suffix == ".phhs" else [HandHistory.load(f)]
    except Exception as exc:  # pokerkit raises ValueError, KeyError, TOML errors...
        raise PhhError(f"{path}: not a PHH file pokerkit can read: {type(exc).__name__}: {exc}") from None
    return events_of(histories, casino_id, str(path))


def events_of(histories: list[Any], casino_id: str = "phh", origin: str = "PHH") -> Iterator[EventBase]:
    """The events of pokerkit ``HandHistory`` objects (as :func:`import_phh`; ``origin`` names them in
    errors). Raises :class:`PhhError` as :func:`import_phh`."""
    path = origin
    tables: dict[str, _Table] = {}
    last: dict[str, _Hand] = {}
    for number, hh in enumerate(histories, 1):
        if hh.variant not in VARIANTS:
            raise PhhError(f"{path}: hand {number} is variant {hh.variant!r}; pitwatch imports no-limit hold'em (NT) "
                           "and fixed-limit seven-card stud (F7S)")
        name = f"{hh.venue or 'phh'}/{hh.table or 'table'}"[:64]
        table = tables.get(name)
        opened = table is not None
        if table is None:
            table = tables[name] = _Table(casino_id, name)
        hand = _Hand(table, hh, number)
        try:
            _hand_events(hand, opened)
        except PhhError:
            raise
        except Exception as exc:
            raise PhhError(f"{path}: hand {number} ({hand.round_id}): {type(exc).__name__}: {exc}") from None
        last[name] = hand
        yield from hand.events
    for hand in last.values():
        hand.events = []
        hand.emit("table_closed", round_id=None)
        yield from hand.events


__all__ = ["NAMESPACE", "RULESET", "VARIANTS", "PhhError", "events_of", "import_phh"]
