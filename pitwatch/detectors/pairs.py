"""Dealer-player collusion: a dealer's favours concentrated on one player beyond chance.

**What it reads.** Round digests (:class:`pitwatch.detectors.digest.RoundDigest`) of every game,
the house-banked ones included: each bet of a player at a round a dealer dealt, and whether the
player was **favoured** on it: over-paid (a payout discrepancy in the player's favour) or let bet
late (past-posting, a bet the dealer should have refused after «no va más»). A favour is counted
once per bet.

**Keyed by** the (dealer, player) pair, across tables: a dealer who moves tables and the player who
follows him are one pair. **State** (:meth:`PairDetector.to_state`, versioned JSON): per pair,
per dealer and per player, bets and favours; per pair, the evidence (rounds) and the over-paid
euros; the pairs already alerted.

**Reasoning.** Dealers make honest mistakes, at some rate, and some players are favoured by all
dealers (a player with many late bets). A colluding pair shows as a pair whose favour rate is far
above what *the dealer shows with his other players and the player with his other dealers*: the
null rate of a pair is the favours of both outside the pair over their bets outside it (with one
favour and two bets added, so a clean record is a small rate, not zero). The pair's favours are a
binomial draw under that rate; the alert fires when ``P(X >= favours)`` is below
:attr:`PairThresholds.alpha` (small: a casino has thousands of pairs), the pair has at least
:attr:`PairThresholds.min_favours` favours, and the dealer with his other players and the player
with his other dealers each have at least :attr:`PairThresholds.min_baseline` bets to compare
with (a player seen with one dealer only cannot be told apart from a player every dealer
favours). The regulations ask the table staff to prevent errors and frauds (000 L109-L111; 004
L203-L209); a concentration of a dealer's errors on one player is what the surveillance room
looks for.

**Emits** one alert per pair (kind ``dealer_player_collusion``, stable id from the pair), with
both parties (``dealer_id`` and ``player_id``, and ``parties``), the evidence, the over-paid euros
and the score (-log10 of the p-value, also in the message). Pure: no I/O, no clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar, Mapping

from pitwatch.detectors.alerts import SEVERITY, Alert, stable_id
from pitwatch.detectors.digest import RoundDigest
from pitwatch.rules.base import ViolationKind

KIND = ViolationKind.DEALER_PLAYER_COLLUSION
CITATION = ("table staff are to prevent errors and frauds: 000_e1555249d49967be.txt L109-L111; "
            "004_5c9c19b250457762.txt L203-L209")
EVIDENCE_KEPT = 20
"""Rounds kept as evidence per pair (the first ones)."""


@dataclass(frozen=True)
class PairThresholds:
    """When a pair is alerted (module docstring): ``min_favours`` favours at least, a binomial
    p-value below ``alpha``, and ``min_baseline`` bets at least on each side outside the pair (the
    dealer's with other players, the player's with other dealers)."""

    min_favours: int = 3
    alpha: float = 1e-6
    min_baseline: int = 100


def binomial_tail(k: int, n: int, p: float) -> float:
    """``P(X >= k)`` for ``X ~ Binomial(n, p)`` (float: a statistic, not money), summed in log
    space term by term from ``k``. Raises ``ValueError`` for ``p`` outside (0, 1)."""
    if not 0 < p < 1:
        raise ValueError(f"a rate must be strictly between 0 and 1, not {p}")
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    lp, lq = math.log(p), math.log1p(-p)
    head = math.lgamma(n + 1)
    total = 0.0
    for i in range(k, n + 1):
        term = math.exp(head - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq)
        total += term
        if i > n * p and term < total * 1e-16:
            break
    return min(total, 1.0)


@dataclass
class _Count:
    bets: int = 0
    favours: int = 0


@dataclass
class _Pair:
    bets: int = 0
    favours: int = 0
    over_paid: Decimal = Decimal("0.00")
    evidence: list[str] = field(default_factory=list)


def _count_of(counts: dict[str, _Count], party: str) -> _Count:
    """``counts[party]``, added at zero if absent."""
    c = counts.get(party)
    if c is None:
        c = counts[party] = _Count()
    return c


class PairDetector:
    """The dealer-player collusion detector (module docstring); thresholds as data. A
    :class:`pitwatch.detectors.base.Detector`."""

    name: ClassVar[str] = KIND
    keyed_by: ClassVar[str] = "dealer, player"
    STATE_VERSION: ClassVar[int] = 1

    def __init__(self, thresholds: PairThresholds | None = None):
        self.thresholds = thresholds or PairThresholds()
        self.pairs: dict[tuple[str, str], _Pair] = {}
        self.dealers: dict[str, _Count] = {}
        self.players: dict[str, _Count] = {}
        self.alerted: set[tuple[str, str]] = set()

    def observe(self, digest: RoundDigest) -> list[Alert]:
        """Count the bets and favours of one round; the alerts of pairs that cross the threshold
        now (each pair once)."""
        dealer = digest.dealer_id
        if not dealer:
            return []
        touched: set[tuple[str, str]] = set()
        dealer_count: _Count | None = None
        for b in digest.bets:
            if not b.player_id:
                continue
            if dealer_count is None:
                dealer_count = _count_of(self.dealers, dealer)
            key = (dealer, b.player_id)
            pair = self.pairs.get(key)
            if pair is None:
                pair = self.pairs[key] = _Pair()
            player_count = _count_of(self.players, b.player_id)
            pair.bets += 1
            dealer_count.bets += 1
            player_count.bets += 1
            if b.discrepancy > 0 or b.late:  # favoured
                pair.favours += 1
                pair.over_paid += max(b.discrepancy, Decimal("0"))
                if len(pair.evidence) < EVIDENCE_KEPT:
                    pair.evidence.append(f"{digest.table_id}/{digest.round_id}/{b.bet_id}")
                dealer_count.favours += 1
                player_count.favours += 1
            touched.add(key)
        return [a for key in sorted(touched) if (a := self._check(key, digest)) is not None]

    def p_value(self, dealer: str, player: str) -> tuple[int, int, float, float]:
        """``(favours, bets, null rate, P(X >= favours))`` of a pair (module docstring)."""
        pair = self.pairs.get((dealer, player), _Pair())
        d, p = self.dealers.get(dealer, _Count()), self.players.get(player, _Count())
        other_favours = d.favours + p.favours - 2 * pair.favours
        other_bets = d.bets + p.bets - 2 * pair.bets
        rate = (other_favours + 1) / (other_bets + 2)
        return pair.favours, pair.bets, rate, binomial_tail(pair.favours, pair.bets, rate)

    def _check(self, key: tuple[str, str], digest: RoundDigest) -> Alert | None:
        if key in self.alerted or self.pairs[key].favours < self.thresholds.min_favours:
            return None  # (before the p-value: most pairs have too few favours to be scored)
        dealer, player = key
        favours, bets, rate, p = self.p_value(dealer, player)
        d, pl, pair = self.dealers[dealer], self.players[player], self.pairs[key]
        t = self.thresholds
        if favours < t.min_favours or min(d.bets, pl.bets) - pair.bets < t.min_baseline or p >= t.alpha:
            return None
        self.alerted.add(key)
        score = -math.log10(max(p, 1e-300))
        return Alert(
            alert_id=stable_id("alert", KIND, dealer, player), kind=KIND, severity=SEVERITY[KIND],
            casino_id=digest.casino_id, table_id=digest.table_id, game=digest.game, round_id="", bet_id="",
            player_id=player, dealer_id=dealer, amount=pair.over_paid,
            message=(f"dealer {dealer} favoured player {player} on {favours} of {bets} bets (over-paid or let bet "
                     f"late), where their other pairs show {rate:.2%}: P = {p:.1e}, score {score:.1f}"),
            citation=CITATION, detected_at=digest.ended_at, evidence=tuple(pair.evidence),
            ruleset_id=digest.ruleset_id, ruleset_hash=digest.ruleset_hash,
            parties=(f"dealer:{dealer}", f"player:{player}"), score=round(score, 2))

    def to_state(self) -> dict[str, Any]:
        """The state as versioned JSON (never pickled): counts, evidence and the alerted pairs."""
        return {
            "version": self.STATE_VERSION,
            "pairs": [[d, p, v.bets, v.favours, str(v.over_paid), v.evidence] for (d, p), v in sorted(self.pairs.items())],
            "dealers": {k: [v.bets, v.favours] for k, v in sorted(self.dealers.items())},
            "players": {k: [v.bets, v.favours] for k, v in sorted(self.players.items())},
            "alerted": sorted([d, p] for d, p in self.alerted),
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any], thresholds: PairThresholds | None = None) -> PairDetector:
        """Inverse of :meth:`to_state`. Raises ``ValueError`` for another version."""
        if state.get("version") != cls.STATE_VERSION:
            raise ValueError(f"pair detector state version {state.get('version')!r}, expected {cls.STATE_VERSION}")
        out = cls(thresholds)
        for d, p, bets, favours, over, evidence in state["pairs"]:
            out.pairs[(d, p)] = _Pair(int(bets), int(favours), Decimal(over), list(evidence))
        out.dealers = {k: _Count(int(b), int(f)) for k, (b, f) in state["dealers"].items()}
        out.players = {k: _Count(int(b), int(f)) for k, (b, f) in state["players"].items()}
        out.alerted = {(d, p) for d, p in state["alerted"]}
        return out


__all__ = ["CITATION", "EVIDENCE_KEPT", "KIND", "PairDetector", "PairThresholds", "binomial_tail"]
