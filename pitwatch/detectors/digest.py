"""A round digest: what the cross-round detectors read of a judged round.

The table stage of the pipeline judges each round (:class:`pitwatch.rules.base.RoundVerdict`)
inside the partition of its table; the detectors look across tables, so the table stage sends
each verdict on, as a digest, to the topic ``pitwatch.round-digests`` keyed by casino (one
casino's rounds, whatever their table, in one partition: :mod:`pitwatch.streams.watch`). A
digest keeps only what the detectors use, each bet as:

- ``bet_id``, ``player_id``;
- ``stake`` and ``returned``: what the player put in and what the regulation gives him back
  (euros, ``Decimal``; at poker, each player's part in the hand: stake = what he put in the pots);
- ``discrepancy``: recorded minus expected (euros; positive = the player was over-paid);
- ``late``: whether the bet was past-posted (a ``past_posting`` violation names it);
- ``forced``: the part of the stake the rules forced (poker: antes and blinds; euros);
- ``outcome``: the regulation's outcome of the bet (``win``, ``lose``, ...; at poker ``fold`` for a
  player who folded and lost what he put in).

and the players' decisions in order (``decisions``: ``(interval, player_id, action, open)``, at
poker every ``poker_action`` of the hand, ``open`` whether he could have bet or raised instead,
:attr:`pitwatch.rules.base.RoundVerdict.decisions`).

Its JSON form (:meth:`RoundDigest.to_json`) is versioned (``"v"``); money is written as decimal
strings, times as UTC ISO 8601. :meth:`RoundDigest.from_json` reads this version and upcasts the
older one (version 1, written before digests carried the decisions and the start: read with none);
it raises ``ValueError`` for bytes that are not a digest of a known version.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from decimal import Decimal, InvalidOperation
from typing import Any

from pitwatch.rules.base import RoundVerdict, ViolationKind

DIGEST_VERSION = 2
READABLE_VERSIONS = (1, 2)
"""Digest versions :meth:`RoundDigest.from_json` reads (1 is upcast: no decisions)."""


@dataclass(slots=True, unsafe_hash=True)
class DigestBet:
    """One bet of a digest (module docstring): euros as ``Decimal``. Built for every bet and never
    changed afterwards; not a ``frozen`` dataclass for the reason given at
    :class:`pitwatch.rules.base.ExpectedSettlement` (it hashes by value all the same)."""

    bet_id: str
    player_id: str
    stake: Decimal
    returned: Decimal
    discrepancy: Decimal
    late: bool = False
    forced: Decimal = Decimal(0)
    outcome: str = ""


@dataclass(frozen=True, slots=True)
class RoundDigest:
    """A judged round as the detectors read it (module docstring). ``ended_at`` and ``started_at``
    (the round's first event; ``None`` in a digest of version 1) are UTC."""

    casino_id: str
    table_id: str
    game: str
    round_id: str
    dealer_id: str
    ended_at: datetime
    ruleset_id: str
    ruleset_hash: str
    bets: tuple[DigestBet, ...]
    decisions: tuple[tuple[int, str, str, bool], ...] = ()
    started_at: datetime | None = None

    def to_json(self) -> bytes:
        """The versioned JSON bytes of the digest (compact, keys in a fixed order)."""
        return json.dumps({
            "v": DIGEST_VERSION, "casino_id": self.casino_id, "table_id": self.table_id, "game": self.game,
            "round_id": self.round_id, "dealer_id": self.dealer_id,
            "ended_at": iso_utc(self.ended_at),
            "ruleset_id": self.ruleset_id, "ruleset_hash": self.ruleset_hash,
            "bets": [[b.bet_id, b.player_id, str(b.stake), str(b.returned), str(b.discrepancy), int(b.late),
                      str(b.forced), b.outcome] for b in self.bets],
            "decisions": [[i, p, a, int(o)] for i, p, a, o in self.decisions],
            "started_at": None if self.started_at is None else iso_utc(self.started_at),
        }, separators=(",", ":")).encode()

    @classmethod
    def from_json(cls, raw: bytes | str) -> RoundDigest:
        """Inverse of :meth:`to_json`. Raises ``ValueError`` saying why ``raw`` is not a digest."""
        try:
            d = json.loads(raw)
            if not isinstance(d, dict) or d.get("v") not in READABLE_VERSIONS:
                got = d.get("v") if isinstance(d, dict) else type(d).__name__
                raise ValueError(f"not a round digest of a version this release reads {READABLE_VERSIONS} "
                                 f"(version {got!r})")
            bets = tuple(DigestBet(_text(b, "bet_id"), str(p), _money(s), _money(r), _money(x), bool(late), _money(f),
                                   str(o))
                         for b, p, s, r, x, late, f, o in (_bet_v1(row) if len(row) == 6 else row for row in d["bets"]))
            return cls(_text(d["casino_id"], "casino_id"), _text(d["table_id"], "table_id"), _text(d["game"], "game"),
                       _text(d["round_id"], "round_id"), str(d["dealer_id"]), parse_utc(d["ended_at"]),
                       str(d["ruleset_id"]), str(d["ruleset_hash"]), bets,
                       tuple((int(i), str(p), str(a), bool(o)) for i, p, a, o in d.get("decisions", ())),
                       None if d.get("started_at") is None else parse_utc(d["started_at"]))
        except ValueError:
            raise
        except (KeyError, TypeError, InvalidOperation) as exc:
            raise ValueError(f"not a round digest: {type(exc).__name__}: {exc}") from exc


def _bet_v1(row: list[Any]) -> list[Any]:
    """A bet of the first digests (version 1 before chip dumping, ``56e165b``: six fields, no forced
    part nor outcome) as the eight fields read now: nothing forced, no outcome."""
    return [*row, "0", ""]


def iso_utc(t: datetime) -> str:
    """A UTC time as ISO 8601 text with ``Z`` (the inverse of :func:`parse_utc`)."""
    return t.isoformat().replace("+00:00", "Z")


def parse_utc(text: Any) -> datetime:
    """A UTC time from ISO 8601 text with a zone (``Z`` or ``+00:00``). Raises ``ValueError`` for a
    time without a zone or in another zone: a digest's times are UTC, and a naive time cannot be
    compared with them (a detector would raise ``TypeError`` on it)."""
    t = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    if t.tzinfo is None or t.utcoffset() != timedelta(0):
        raise ValueError(f"time {text!r} is not UTC with its zone (e.g. 2026-11-21T21:04:05Z)")
    return t.astimezone(timezone.utc)


MONEY_BOUND = Decimal("1E11")
"""The largest amount (euros, either sign) a digest may carry: a bet's stake is at most
1,000,000,000 euros (the event schema's bound) and what it returns at most 36 times that; beyond
it a digest was not written by the table stage, and its sums would overflow the warehouse's
``Decimal(18, 2)`` (an alert that cannot be stored stops the sink)."""


def _money(text: Any) -> Decimal:
    if not isinstance(text, (str, int)):
        raise ValueError(f"money {text!r} is not a decimal string")
    v = Decimal(text)
    if not v.is_finite():
        raise ValueError(f"money {text!r} is not a finite amount")
    if abs(v) > MONEY_BOUND or v != v.quantize(Decimal("0.01")):
        raise ValueError(f"money {text!r} is out of range (at most {MONEY_BOUND:,.0f} euros, to the cent)")
    return v


def _text(v: Any, name: str) -> str:
    if not isinstance(v, str) or not v:
        raise ValueError(f"{name} {v!r} is not a non-empty string")
    return v


@dataclass(frozen=True, slots=True)
class TableMark:
    """A table's close, sent by the table stage after the table's last round (a ``table_closed``
    event), so the watch stops waiting for its rounds (:mod:`pitwatch.detectors.release`). ``at``
    is the event's UTC time. JSON: ``{"mark": "table_closed", "v": 1, ...}``."""

    casino_id: str
    table_id: str
    at: datetime
    mark: str = "table_closed"

    def to_json(self) -> bytes:
        """The versioned JSON bytes of the mark."""
        return json.dumps({"mark": self.mark, "v": 1, "casino_id": self.casino_id, "table_id": self.table_id,
                           "at": iso_utc(self.at)}, separators=(",", ":")).encode()


def read_watch_message(raw: bytes | str) -> RoundDigest | TableMark:
    """A message of ``pitwatch.round-digests``: a round digest or a table mark. Raises
    ``ValueError`` saying why ``raw`` is neither (a mark's JSON starts with its ``"mark"`` key, as
    :meth:`TableMark.to_json` writes it)."""
    if not (raw.startswith(b'{"mark"') if isinstance(raw, bytes) else raw.startswith('{"mark"')):
        return RoundDigest.from_json(raw)
    try:
        d = json.loads(raw)
        if not isinstance(d, dict) or d.get("mark") != "table_closed" or d.get("v") != 1:
            raise ValueError(f"not a table mark of a version this release reads: {str(raw)[:80]}")
        return TableMark(_text(d["casino_id"], "casino_id"), _text(d["table_id"], "table_id"), parse_utc(d["at"]))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a table mark: {type(exc).__name__}: {exc}") from exc


def digest_of(verdict: RoundVerdict) -> RoundDigest:
    """The digest of a round verdict: each bet once (a bet checked twice, e.g. en prison, keeps
    its first check), marked late when a ``past_posting`` violation names it."""
    late = {v.bet_id for v in verdict.violations if v.kind == ViolationKind.PAST_POSTING and v.bet_id}
    seen: set[str] = set()
    bets: list[DigestBet] = []
    for c in verdict.checks:
        e = c.expected
        if e.bet_id in seen:
            continue
        seen.add(e.bet_id)
        bets.append(DigestBet(e.bet_id, e.player_id, e.stake, e.returned, c.discrepancy, e.bet_id in late, e.forced,
                              e.outcome))
    ended: Any = verdict.ended_at
    return RoundDigest(verdict.casino_id, verdict.table_id, verdict.game, verdict.round_id, verdict.dealer_id or "",
                       ended, verdict.ruleset_id, verdict.ruleset_hash, tuple(bets), verdict.decisions,
                       verdict.started_at)


__all__ = ["DIGEST_VERSION", "READABLE_VERSIONS", "DigestBet", "RoundDigest", "TableMark", "digest_of", "iso_utc", "parse_utc",
           "read_watch_message"]
