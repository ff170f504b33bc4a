"""Association at the player-banked baccarat: punters whose stakes move in lockstep.

**The law.** At bacará a dos paños «está prohibido a los puntos el juego en asociación» (000 L815; 004
L2686); at chemin de fer a seated player may not join his stake to other players' (000 L650; 004
L2236-L2238). A joined stake declared at the table (``stake_joined``) is flagged coup by coup by the
engine. Two punters who play one purse in two names show only across coups: they stake **together**
far more often than each stakes when the other is there, and they split their stakes in the same
**proportion** coup after coup.

**What it reads.** The round digests of the games of :data:`BANKED_BACCARAT` (a digest's bets: each
stake against the bank, its player and amount; the bank's settlement, bet id ``<round>:bank``, names the
banker, who cannot stake against himself).

**Attendance.** A digest says who staked, not who sat at the table. A player is taken as **present** at
a coup of a table when he acted there (staked or held the bank) at or before it and at or after it,
the two acts at most ``gap`` coups of that table apart: the coups between his arrival and his departure,
less long spells without a stake. So a coup is judged once ``gap`` more coups of its table have been
read (the alerts come that many coups late); the coups still waiting are part of the state.

**Together** (the first test). In each coup judged, every punter present who staked (A) and every other
punter present but the banker (B) make one decision, a **hit** when B staked too; they are counted per
ordered pair (:class:`pitwatch.detectors.pair_rates.PairRates`). A's rate of being joined by B is set
against the log5 null of A's record with everybody else (how often the others present stake when he
does: a player who stakes on big banks meets more company) and B's (how often he stakes when the others
do), not against the table's rate: two regulars of the same hours are present together, and each stakes
with the other as often as with anybody. The exact beta-binomial tail of each direction, combined by
Stouffer's rule weighted by the decisions (as :mod:`pitwatch.detectors.pair_behaviour`), gives ``p1``.

**Proportions** (the second test). Two players of one purse split each stake in the same proportion
(one puts twice what the other puts, or as much). In every coup both staked after their first, a hit
when the proportion of their stakes (``b / a``) is the one of their last coup together. The rate is set
against the log5 null of each player's record with everybody else (:class:`PairRates` again, both
directions counted, one read): two players who always stake the table minimum repeat their proportion
every time, and so they do with everybody. A proportion, not a correlation of amounts: the size of the
bank moves every stake (a high roller stakes a share of it), so two honest high rollers' amounts rise
and fall together; their proportion does not repeat. The exact tail gives ``p2``.

**The score.** The two p-values combined by Fisher's method (``-2 ln(p1 p2)``, chi-square with 4 degrees
of freedom: either test alone, when extreme, is enough; the proportions count only from
``min_together`` coups together): ``p``; the score is ``-log10 p``.

**Thresholds** (:class:`AssociationThresholds`, data): a score of at least 8 (p at most 1e-8: a casino
follows thousands of pairs every night), at least 30 coups staked together and 100 decisions of each
player with the others (a pair seen only together cannot be told apart from two odd players), a gap of
20 coups. Their figures (rings found within 2,000 coups, false rings on honest evenings) are in
DETECTION.md (``python -m bench.baccarat_rings``).

**Keyed by** the unordered pair of players, across the casino's tables (player ids are stable from
table to table). **State**: versioned JSON (:meth:`AssociationDetector.to_state`). **Emits** one
``association`` alert per pair: both players in ``parties`` (sorted), the coups they staked together as
evidence (the first :data:`EVIDENCE_KEPT`), ``amount`` the euros both staked in them. Pure: no I/O, no
clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar, Mapping

from pitwatch.detectors.alerts import SEVERITY, Alert, stable_id
from pitwatch.detectors.digest import RoundDigest
from pitwatch.detectors.pair_rates import PairRates, check_version, upper_tail
from pitwatch.rules.base import ViolationKind

KIND = ViolationKind.ASSOCIATION
CITATION = ("juego en asociación prohibido a los puntos: 000_e1555249d49967be.txt L815, 004_5c9c19b250457762.txt "
            "L2686 (bacará a dos paños); la apuesta de una persona jugadora sentada unida a la de otras: "
            "000_e1555249d49967be.txt L650, 004_5c9c19b250457762.txt L2236-L2238 (chemin de fer)")
BANKED_BACCARAT: frozenset[str] = frozenset({"chemin_de_fer", "bacara_dos_panos"})
"""The games of player-banked baccarat the detector reads: chemin de fer and bacará a dos paños (both
measured in DETECTION.md, ``python -m bench.baccarat_rings [--game bacara_dos_panos]``)."""
BANK_SUFFIX = ":bank"
"""A digest bet whose id ends so is the bank's settlement; its player is the banker."""
EVIDENCE_KEPT = 20
"""Coups kept as evidence per pair (the first ones)."""


@dataclass(frozen=True)
class AssociationThresholds:
    """When a pair is alerted (module docstring)."""

    score_min: float = 8.0
    min_together: int = 30
    min_baseline: int = 100
    gap: int = 20
    """Coups of a table between two acts of a player within which he is taken as present."""


def ratio(a: Decimal, b: Decimal) -> str:
    """The proportion of two stakes, ``b / a`` to four decimals (a string, as the state keeps it)."""
    return str((b / a).quantize(Decimal("0.0001")))


def fisher_combined(p1: float, p2: float) -> float:
    """Fisher's combination of two independent one-sided p-values: the chi-square (4 degrees of freedom)
    tail of ``-2 ln(p1 p2)``, as ``-log10`` (the score)."""
    x = -2 * (math.log(max(p1, 1e-300)) + math.log(max(p2, 1e-300)))
    log_p = -x / 2 + math.log1p(x / 2)
    return max(0.0, -log_p / math.log(10))


@dataclass(frozen=True)
class PairEvidence:
    """A pair's record: ``together`` coups both staked, ``decisions`` of the first test and its ``z1``
    and ``p1``; ``repeats`` of the proportion in ``chances`` coups after the first together, its log5
    ``null`` rate and ``p2``; ``score`` the combined ``-log10 p``; ``baseline`` the fewest decisions either
    player has with the others."""

    together: int
    decisions: int
    z1: float
    p1: float
    repeats: int
    chances: int
    null: float
    p2: float
    score: float
    baseline: int


class AssociationDetector:
    """The association detector (module docstring). A :class:`pitwatch.detectors.base.Detector`."""

    name: ClassVar[str] = KIND
    keyed_by: ClassVar[str] = "player, player (either order), across tables"
    STATE_VERSION: ClassVar[int] = 1

    def __init__(self, thresholds: AssociationThresholds | None = None):
        self.thresholds = thresholds or AssociationThresholds()
        self.rates = PairRates()
        self.pending: dict[str, list[list[Any]]] = {}
        """table -> its last coups ``[table/round, {player: euros staked}, banker]``, the oldest first: those
        not yet judged and the ``gap`` before them."""
        self.judged: dict[str, int] = {}
        """table -> how many of its pending coups are judged already."""
        self.proportions = PairRates()
        """Per ordered pair (both directions counted): in each coup both staked after their first, whether
        the proportion of their stakes is the one of their last coup together (a hit)."""
        self.last: dict[tuple[str, str], str] = {}
        """``(a, b)`` (a < b) -> the proportion b / a of their stakes the last coup both staked."""
        self.euros: dict[tuple[str, str], Decimal] = {}
        self.evidence: dict[tuple[str, str], list[str]] = {}
        self.alerted: set[tuple[str, str]] = set()

    # ------------------------------------------------------------------ reading
    def observe(self, digest: RoundDigest) -> list[Alert]:
        """Take one coup into its table's pending coups; judge the coup now ``gap`` coups old; the alerts
        of pairs crossing the threshold."""
        if digest.game not in BANKED_BACCARAT:
            return []
        stakes: dict[str, str] = {}
        banker = ""
        for b in digest.bets:
            if b.bet_id.endswith(BANK_SUFFIX):
                banker = b.player_id
            elif b.stake > 0:
                stakes[b.player_id] = str(Decimal(stakes.get(b.player_id, "0")) + b.stake)
        if not stakes and not banker:
            return []
        coups = self.pending.setdefault(digest.table_id, [])
        coups.append([f"{digest.table_id}/{digest.round_id}", stakes, banker])
        gap = self.thresholds.gap
        judged = self.judged.get(digest.table_id, 0)
        out: list[Alert] = []
        if len(coups) > judged + gap:
            out = self._judge(coups, judged, digest)
            judged += 1
        if judged > gap:  # the oldest coup is no more needed as a past act
            del coups[0]
            judged -= 1
        self.judged[digest.table_id] = judged
        return out

    def _present(self, coups: list[list[Any]], c: int) -> set[str]:
        """The players present at coup ``c`` of ``coups`` (module docstring)."""
        gap = self.thresholds.gap
        acts: dict[str, list[int]] = {}
        for i in range(max(0, c - gap), min(len(coups), c + gap + 1)):
            for p in [*coups[i][1], coups[i][2]]:
                if p:
                    acts.setdefault(p, []).append(i)
        out = set()
        for p, idx in acts.items():
            before = [i for i in idx if i <= c]
            after = [i for i in idx if i >= c]
            if before and after and after[0] - before[-1] <= gap:
                out.add(p)
        return out

    def _judge(self, coups: list[list[Any]], c: int, digest: RoundDigest) -> list[Alert]:
        ref, stakes, banker = coups[c]
        present = self._present(coups, c) - {banker}
        staked = sorted(p for p in stakes if p in present)
        for a in staked:
            for b in sorted(present - {a}):
                self.rates.add(a, b, b in stakes)
        touched = []
        for i, a in enumerate(staked):
            for b in staked[i + 1:]:
                pair = (a, b)
                now = ratio(Decimal(stakes[a]), Decimal(stakes[b]))
                before = self.last.get(pair)
                if before is not None:
                    self.proportions.add(a, b, now == before)
                    self.proportions.add(b, a, now == before)
                self.last[pair] = now
                self.euros[pair] = self.euros.get(pair, Decimal("0.00")) + Decimal(stakes[a]) + Decimal(stakes[b])
                ev = self.evidence.setdefault(pair, [])
                if len(ev) < EVIDENCE_KEPT:
                    ev.append(ref)
                touched.append(pair)
        return [a for pair in touched if (a := self._check(pair, digest)) is not None]

    # ------------------------------------------------------------------ scoring
    def evaluate(self, a: str, b: str) -> PairEvidence:
        """The pair's :class:`PairEvidence` (module docstring), ``a`` < ``b``."""
        ab, ba = self.rates.score(a, b, True), self.rates.score(b, a, True)
        n = ab.n + ba.n
        z1 = 0.0 if not n else (math.sqrt(ab.n) * ab.z + math.sqrt(ba.n) * ba.z) / math.sqrt(n)
        p1 = upper_tail(z1)
        same = self.proportions.score(a, b, True)  # both directions hold the same coups: one is the test
        together = same.n + 1 if (a, b) in self.last else 0
        p2 = same.p if together >= self.thresholds.min_together else 1.0
        return PairEvidence(together, n, z1, p1, same.hits, same.n, same.null, p2, fisher_combined(p1, p2),
                            min(ab.actor_n, ba.actor_n))

    def ranked(self) -> list[tuple[tuple[str, str], float]]:
        """Every pair that staked together with the baselines an alert needs, with its score: what a
        surveillance room would rank, and the benchmark scores (precision at 1, ROC)."""
        out = []
        for pair in sorted(self.last):
            ev = self.evaluate(*pair)
            if ev.baseline >= self.thresholds.min_baseline:
                out.append((pair, ev.score))
        return out

    def _check(self, pair: tuple[str, str], digest: RoundDigest) -> Alert | None:
        if pair in self.alerted:
            return None
        t = self.thresholds
        ev = self.evaluate(*pair)
        if ev.score < t.score_min or ev.together < t.min_together or ev.baseline < t.min_baseline:
            return None
        self.alerted.add(pair)
        a, b = pair
        return Alert(
            alert_id=stable_id("alert", KIND, a, b), kind=KIND, severity=SEVERITY[KIND],
            casino_id=digest.casino_id, table_id=digest.table_id, game=digest.game, round_id="", bet_id="",
            player_id=a, dealer_id="", amount=self.euros[pair],
            message=(f"players {a} and {b} staked together in {ev.together} coups ({ev.decisions} decisions of "
                     f"either with the other present: z = {ev.z1:.1f} against their records with the others); "
                     f"their stakes in the same proportion as the time before {ev.repeats} times in {ev.chances} "
                     f"where their others give {ev.null:.0%} (P = {ev.p2:.1e}): score {ev.score:.1f}"),
            citation=CITATION, detected_at=digest.ended_at, evidence=tuple(self.evidence[pair]),
            ruleset_id=digest.ruleset_id, ruleset_hash=digest.ruleset_hash,
            parties=(f"player:{a}", f"player:{b}"), score=round(ev.score, 2))

    # ------------------------------------------------------------------ state
    def to_state(self) -> dict[str, Any]:
        """The state as versioned JSON (never pickled): the counts of both tests, the pending coups of each
        table, each pair's last proportion, euros and evidence, the pairs alerted."""
        return {
            "version": self.STATE_VERSION, "rates": self.rates.to_state(),
            "pending": {t: [self.judged.get(t, 0), coups] for t, coups in sorted(self.pending.items())},
            "proportions": self.proportions.to_state(),
            "pairs": [[a, b, last, str(self.euros[(a, b)]), self.evidence[(a, b)]] for (a, b), last in sorted(self.last.items())],
            "alerted": sorted([a, b] for a, b in self.alerted),
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any],
                   thresholds: AssociationThresholds | None = None) -> AssociationDetector:
        """Inverse of :meth:`to_state`. Raises ``ValueError`` for another version."""
        check_version(state, cls.name, cls.STATE_VERSION)
        out = cls(thresholds)
        out.rates = PairRates.from_state(state["rates"])
        for t, (judged, coups) in state["pending"].items():
            out.judged[str(t)] = int(judged)
            out.pending[str(t)] = [[str(r), {str(p): str(s) for p, s in st.items()}, str(bk)] for r, st, bk in coups]
        out.proportions = PairRates.from_state(state["proportions"])
        for a, b, last, euros, evidence in state["pairs"]:
            pair = (str(a), str(b))
            out.last[pair] = str(last)
            out.euros[pair] = Decimal(euros)
            out.evidence[pair] = [str(e) for e in evidence]
        out.alerted = {(str(a), str(b)) for a, b in state["alerted"]}
        return out


__all__ = ["BANKED_BACCARAT", "CITATION", "KIND", "AssociationDetector", "AssociationThresholds", "PairEvidence",
           "fisher_combined", "ratio"]
