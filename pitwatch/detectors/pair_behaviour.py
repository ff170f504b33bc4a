"""The frame of a poker collusion detector that follows one behaviour of two players towards each
other (soft play, whipsaw): count it per ordered pair, test the pair against what each of them does
with the others, alert once.

A subclass says which decisions of a hand count and whether each is a **hit**
(:meth:`PairBehaviourDetector.counted`: ``(actor, target, hit)``), whether the ring shows as more
hits than the null (``SIGN = +1``, whipsaw: they re-raise each other) or fewer (``SIGN = -1``, soft
play: they do not bet into each other), what a hand puts at stake for the pair's evidence
(:meth:`PairBehaviourDetector.at_stake`), its kind, citation and default thresholds.

**Keyed by** the unordered pair of players, across tables (player ids are stable from table to
table); the counts are kept per ordered pair (:class:`pitwatch.detectors.pair_rates.PairRates`). A
pair's ``z`` is the two directions' (A towards B, B towards A) exact-test ``z`` in the ring's tail
(``SIGN``) combined by Stouffer's rule weighted by their decisions (``(sqrt(n1) z1 + sqrt(n2) z2) /
sqrt(n1 + n2)``: a direction seen in few decisions weighs little). It is alerted when ``z`` reaches ``z_min`` with at
least ``min_decisions`` decisions of the pair and ``min_baseline`` decisions of each player with
the others (a pair seen only together cannot be told apart from two odd players).

**State**: versioned JSON (the counts, each pair's evidence and euros, the pairs alerted).
**Emits** one alert per pair: both players in ``parties`` (sorted), the hands as evidence (the first
:data:`EVIDENCE_KEPT` played once the pair's ``z`` reached :data:`WATCH_Z`: the hands are kept only for
pairs under watch, or every pair a casino follows would carry its own list in the state), ``amount``
the euros the subclass counts at stake, the score -log10 of the one-sided p-value. Pure: no I/O, no
clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar, Mapping

from pitwatch.detectors.alerts import SEVERITY, Alert, stable_id
from pitwatch.detectors.digest import RoundDigest
from pitwatch.detectors.pair_rates import PairRates, PairScore, check_version, upper_tail

EVIDENCE_KEPT = 20
"""Hands kept as evidence per pair under watch (the first ones)."""
WATCH_Z = 3.0
"""A pair's ``z`` from which its hands are kept as evidence."""


@dataclass(frozen=True)
class PairThresholds:
    """When a pair is alerted (module docstring; each detector's docstring gives its figures);
    ``trim_z`` shapes the baselines (:class:`pitwatch.detectors.pair_rates.PairRates`)."""

    z_min: float
    min_decisions: int
    min_baseline: int
    trim_z: float | None = 4.0


@dataclass
class _Evidence:
    euros: Decimal
    hands: list[str]


class PairBehaviourDetector:
    """The frame (module docstring); a subclass sets the class attributes and the two hooks."""

    name: ClassVar[str] = ""
    kind: ClassVar[str] = ""
    keyed_by: ClassVar[str] = "player, player (either order), across tables"
    STATE_VERSION: ClassVar[int] = 1
    SIGN: ClassVar[int] = 1
    CITATION: ClassVar[str] = ""
    DEFAULTS: ClassVar[PairThresholds] = PairThresholds(5.5, 30, 100)
    WHAT: ClassVar[str] = ""
    """What a hit is, for the alert's message (e.g. ``"bet or raised into"``)."""

    def __init__(self, thresholds: PairThresholds | None = None):
        self.thresholds = thresholds or self.DEFAULTS
        self.rates = PairRates(self.thresholds.trim_z)
        self.evidence: dict[tuple[str, str], _Evidence] = {}
        self.alerted: set[tuple[str, str]] = set()

    # -- the hooks a detector sets
    def counted(self, digest: RoundDigest) -> list[tuple[str, str, bool]]:
        """The hand's decisions this detector counts: ``(actor, target, hit)``."""
        raise NotImplementedError

    def at_stake(self, digest: RoundDigest, pair: tuple[str, str], hits: int) -> Decimal:
        """The euros of this hand the pair's evidence adds up (``amount`` of the alert), given the
        pair's ``hits`` in the hand."""
        raise NotImplementedError

    # -- the frame
    def observe(self, digest: RoundDigest) -> list[Alert]:
        """Count one poker hand's decisions; the alerts of pairs crossing the threshold now."""
        if digest.game != "poker":
            return []
        touched: dict[tuple[str, str], int] = {}
        for actor, target, hit in self.counted(digest):
            self.rates.add(actor, target, hit)
            key = (min(actor, target), max(actor, target))
            touched[key] = touched.get(key, 0) + hit
        hand = f"{digest.table_id}/{digest.round_id}"
        out = []
        for pair in sorted(touched):
            ev = self.evidence.setdefault(pair, _Evidence(Decimal("0.00"), []))
            ev.euros += self.at_stake(digest, pair, touched[pair])
            z, ab, ba = self.score(*pair)
            if z >= WATCH_Z and len(ev.hands) < EVIDENCE_KEPT:
                ev.hands.append(hand)
            alert = self._check(pair, digest, z, ab, ba)
            if alert is not None:
                out.append(alert)
        return out

    def score(self, a: str, b: str) -> tuple[float, PairScore, PairScore]:
        """``(z, a towards b, b towards a)`` of the pair (module docstring): ``z`` > 0 is the ring's
        direction (``SIGN``)."""
        ab, ba = self.rates.score(a, b, self.SIGN > 0), self.rates.score(b, a, self.SIGN > 0)
        n = ab.n + ba.n
        z = 0.0 if not n else (math.sqrt(ab.n) * ab.z + math.sqrt(ba.n) * ba.z) / math.sqrt(n)
        return z, ab, ba

    def eligible(self, a: str, b: str) -> bool:
        """Whether the pair has the decisions (its own and each player's with the others) to be
        alerted (module docstring)."""
        _, ab, ba = self.score(a, b)
        return self._enough(ab, ba)

    def _enough(self, ab: PairScore, ba: PairScore) -> bool:
        t = self.thresholds
        return ab.n + ba.n >= t.min_decisions and min(ab.actor_n, ba.actor_n) >= t.min_baseline

    def ranked(self) -> list[tuple[tuple[str, str], float]]:
        """Every pair (sorted) that has the decisions to be alerted (:meth:`eligible`), with its
        ``z``: what a surveillance room would rank, and the benchmark scores (precision at k, ROC)."""
        pairs = sorted({(min(a, b), max(a, b)) for a, b in self.rates.pairs})
        return [((a, b), self.score(a, b)[0]) for a, b in pairs if self.eligible(a, b)]

    def _check(self, pair: tuple[str, str], digest: RoundDigest, z: float, ab: PairScore,
               ba: PairScore) -> Alert | None:
        if pair in self.alerted or z < self.thresholds.z_min or not self._enough(ab, ba):
            return None
        a, b = pair
        self.alerted.add(pair)
        p = upper_tail(z)
        score = round(-math.log10(max(p, 1e-300)), 2)
        ev = self.evidence[pair]
        return Alert(
            alert_id=stable_id("alert", self.kind, a, b), kind=self.kind, severity=SEVERITY[self.kind],
            casino_id=digest.casino_id, table_id=digest.table_id, game=digest.game, round_id="", bet_id="",
            player_id=a, dealer_id="", amount=ev.euros,
            message=(f"players {a} and {b} {self.WHAT} each other {ab.hits + ba.hits} times in {ab.n + ba.n} "
                     f"decisions ({a}: {ab.hits}/{ab.n}, where the others give {ab.null:.0%}; {b}: {ba.hits}/{ba.n}, "
                     f"{ba.null:.0%}): z = {z:.1f}, P = {p:.1e}, score {score}"),
            citation=self.CITATION, detected_at=digest.ended_at, evidence=tuple(ev.hands),
            ruleset_id=digest.ruleset_id, ruleset_hash=digest.ruleset_hash,
            parties=(f"player:{a}", f"player:{b}"), score=score)

    def to_state(self) -> dict[str, Any]:
        """The state as versioned JSON (never pickled)."""
        return {"version": self.STATE_VERSION, "rates": self.rates.to_state(),
                "evidence": [[a, b, str(e.euros), e.hands] for (a, b), e in sorted(self.evidence.items())],
                "alerted": sorted([a, b] for a, b in self.alerted)}

    @classmethod
    def from_state(cls, state: Mapping[str, Any], thresholds: PairThresholds | None = None) -> PairBehaviourDetector:
        """Inverse of :meth:`to_state`. Raises ``ValueError`` for another version."""
        check_version(state, cls.name, cls.STATE_VERSION)
        out = cls(thresholds)
        out.rates = PairRates.from_state(state["rates"], out.thresholds.trim_z)
        out.evidence = {(str(a), str(b)): _Evidence(Decimal(e), [str(h) for h in hands])
                        for a, b, e, hands in state["evidence"]}
        out.alerted = {(str(a), str(b)) for a, b in state["alerted"]}
        return out


__all__ = ["EVIDENCE_KEPT", "WATCH_Z", "PairBehaviourDetector", "PairThresholds"]
