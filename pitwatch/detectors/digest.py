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
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from pitwatch.rules.base import RoundVerdict, ViolationKind

DIGEST_VERSION = 2
READABLE_VERSIONS = (1, 2)
"""Digest versions :meth:`RoundDigest.from_json` reads (1 is upcast: no decisions)."""


@dataclass(frozen=True, slots=True)
class DigestBet:
    """One bet of a digest (module docstring): euros as ``Decimal``."""

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
            "ended_at": self.ended_at.isoformat().replace("+00:00", "Z"),
            "ruleset_id": self.ruleset_id, "ruleset_hash": self.ruleset_hash,
            "bets": [[b.bet_id, b.player_id, str(b.stake), str(b.returned), str(b.discrepancy), int(b.late),
                      str(b.forced), b.outcome] for b in self.bets],
            "decisions": [[i, p, a, int(o)] for i, p, a, o in self.decisions],
            "started_at": None if self.started_at is None else self.started_at.isoformat().replace("+00:00", "Z"),
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
            bets = tuple(DigestBet(str(b), str(p), Decimal(s), Decimal(r), Decimal(x), bool(late), Decimal(f), str(o))
                         for b, p, s, r, x, late, f, o in d["bets"])
            return cls(str(d["casino_id"]), str(d["table_id"]), str(d["game"]), str(d["round_id"]),
                       str(d["dealer_id"]), _utc(d["ended_at"]),
                       str(d["ruleset_id"]), str(d["ruleset_hash"]), bets,
                       tuple((int(i), str(p), str(a), bool(o)) for i, p, a, o in d.get("decisions", ())),
                       None if d.get("started_at") is None else _utc(d["started_at"]))
        except ValueError:
            raise
        except (KeyError, TypeError, InvalidOperation) as exc:
            raise ValueError(f"not a round digest: {type(exc).__name__}: {exc}") from exc


def _utc(text: Any) -> datetime:
    return datetime.fromisoformat(str(text).replace("Z", "+00:00"))


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


__all__ = ["DIGEST_VERSION", "READABLE_VERSIONS", "DigestBet", "RoundDigest", "digest_of"]
