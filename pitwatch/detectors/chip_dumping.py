"""Chip dumping at póquer en círculo: one player folding his chips to another far more often than
either does with the rest of the table.

**What it reads.** Poker round digests (game ``poker``, :class:`pitwatch.detectors.digest.RoundDigest`):
each player's part in the hand, what he put in, the part of it that was forced (antes, blinds),
what the law gives him back, and whether he folded. A player is **active** in a hand when he put
in chips of his own choice (more than his forced bets). A player who folds after putting in chips
of his own choice and loses them loses a **contest** to each player who gained in the hand (his
loss shared among them in proportion to their gains). Losses at the showdown are left out: the
cards decide them, not the loser; a chip dumper passes chips by betting and folding.

**Keyed by** the ordered pair of players (the folder, the gainer), across tables: player ids are
stable from table to table. Kept per casino (:mod:`pitwatch.detectors.watch`).

**Reasoning.** How often a player folds in his contests depends on him (a timid or loose player
folds to everybody) and on his opponent (an aggressive one makes everybody fold). A ring that dumps
chips shows as a pair where A folds to B far more often than A folds in his contests with the
others *and* than B makes the others fold. The baselines are taken from the hands where A and B
were not both active: in the hands they play together the ring's bets and raises change how
each of them fares against the third players too (a dumper who bets the pot loses more to
everybody in those hands), and those hands would otherwise lift the null up to the ring's own rate;
and a player's contests with an opponent far out of line with his others (his partner in a ring, a
very aggressive or very timid player) are left out of his baseline too, or a dumper would look
timid to every honest player who beats him (:meth:`ChipDumpingDetector.baseline`).
From A's rate of folding in his other contests and B's rate of making others fold in his (one each
added to both counts, so a clean record is not a rate of 0 or 1), the null rate of "A folds to B"
is their odds multiplied (the "log5" rule of paired comparisons: a player who folds three times in
four, against one who makes everybody fold three times in four, folds nine times in ten). The
pair's rate is compared with that null on the log-odds scale, the variance being that of the pair's
rate *and* of both baselines (each estimated from a finite number of contests: a null taken as
exact would make a pair seen early, against thin baselines, look far more unlikely than it is).
The alert fires when ``z`` reaches :attr:`DumpThresholds.z_min` (the one-sided normal tail is the
p-value quoted), with at least :attr:`DumpThresholds.min_folds` folds to the gainer and
:attr:`DumpThresholds.min_baseline` contests of each apart from the other (a pair seen only
together cannot be told apart from a timid and an aggressive player). The prohibitions of list V
(004 L4217-L4275) forbid playing as a pair and splitting a pot; chips passed on purpose through
the game are their most common form.

**Emits** one alert per ordered pair (kind ``chip_dumping``, stable id from the pair), naming the
folder as ``player_id`` and both players in ``parties`` (``player:<folder>``, ``player:<gainer>``),
the hands as evidence (those played once its ``z`` reached :data:`WATCH_Z`); ``amount`` is the euros
passed by those folds; the score is -log10 of the p-value.
Pure: no I/O, no clock. The thresholds' figures (false alarms on honest and real play, recall on
injected rings) are in DETECTION.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from typing import Any, ClassVar, Mapping

from pitwatch.detectors.alerts import SEVERITY, Alert, stable_id
from pitwatch.detectors.digest import RoundDigest
from pitwatch.detectors.pair_rates import log5_z, upper_tail
from pitwatch.rules.base import ViolationKind

KIND = ViolationKind.CHIP_DUMPING
CITATION = ("prohibitions of póquer en círculo (jugar en pareja, compartir o repartir el bote): "
            "004_5c9c19b250457762.txt L4217-L4275 (I.1.10 V)")
EVIDENCE_KEPT = 20
"""Hands kept as evidence per pair under watch (the first ones)."""
WATCH_Z = 3.0
"""A pair's ``z`` from which its hands are kept as evidence (only pairs under watch carry a list in the
state)."""
CENT = Decimal("0.01")


@dataclass(frozen=True)
class DumpThresholds:
    """When a pair is alerted (module docstring): ``z`` at least ``z_min`` (5.5: a one-sided p of
    about 2e-8, as a casino follows tens of thousands of pairs), ``min_folds`` folds to the gainer
    and ``min_baseline`` contests of each player apart from the other; ``trim_z`` shapes the
    baselines."""

    z_min: float = 5.5
    min_folds: int = 20
    min_baseline: int = 50
    trim_z: float = 4.0
    """An opponent whose record with a player departs from the player's rate by more than this many
    standard deviations is left out of the player's baseline (:meth:`ChipDumpingDetector.baseline`)."""


@dataclass
class _Pair:
    folds: int = 0
    euros: Decimal = Decimal("0.00")
    evidence: list[str] = field(default_factory=list)


def fold_flows(digest: RoundDigest) -> list[tuple[str, str, Decimal]]:
    """``(folder, gainer, euros)`` of one hand (module docstring): each folder's loss of chips he
    chose to put in, shared among the gainers in proportion to their gains (rounded down to the
    cent)."""
    net = {b.player_id: b.returned - b.stake for b in digest.bets}
    gained = {p: v for p, v in net.items() if v > 0}
    total = sum(gained.values(), Decimal(0))
    if not total:
        return []
    out: list[tuple[str, str, Decimal]] = []
    for b in digest.bets:
        lost = min(b.stake - b.returned, b.stake - b.forced)
        if b.outcome != "fold" or lost <= 0:
            continue
        out.extend((b.player_id, w, (lost * g / total).quantize(CENT, rounding=ROUND_DOWN))
                   for w, g in sorted(gained.items()))
    return out


def _add(record: list[int], folds: int, contests: int) -> None:
    record[0] += folds
    record[1] += contests


class ChipDumpingDetector:
    """The chip-dumping detector (module docstring); thresholds as data. A
    :class:`pitwatch.detectors.base.Detector`."""

    name: ClassVar[str] = KIND
    keyed_by: ClassVar[str] = "player (folder), player (gainer)"
    STATE_VERSION: ClassVar[int] = 1

    def __init__(self, thresholds: DumpThresholds | None = None):
        self.thresholds = thresholds or DumpThresholds()
        self.pairs: dict[tuple[str, str], _Pair] = {}
        self.head: dict[str, dict[str, list[int]]] = {}
        """``p -> o -> [p's folds to o, o's folds to p]``: each player's contests by opponent (an
        index of :attr:`pairs`)."""
        self.players: dict[str, list[int]] = {}
        """``p -> [folds, contests]``: each player's record in all his contests."""
        self.together: dict[tuple[str, str], list[int]] = {}
        """``(p, q) -> [folds, contests]``: p's record in the hands where q was active too."""
        self.alerted: set[tuple[str, str]] = set()

    def observe(self, digest: RoundDigest) -> list[Alert]:
        """Count the contests of one poker hand; the alerts of pairs crossing the threshold now."""
        if digest.game != "poker":
            return []
        flows = fold_flows(digest)
        mine: dict[str, list[int]] = {}
        for folder, gainer, euros in flows:
            pair = self.pairs.setdefault((folder, gainer), _Pair())
            pair.folds += 1
            pair.euros += euros
            self._count(folder, gainer)
            mine.setdefault(folder, [0, 0])[0] += 1
            mine[folder][1] += 1
            mine.setdefault(gainer, [0, 0])[1] += 1
        active = sorted({b.player_id for b in digest.bets if b.stake > b.forced})
        for p, (f, c) in mine.items():
            _add(self.players.setdefault(p, [0, 0]), f, c)
            for q in active:
                if q != p:
                    _add(self.together.setdefault((p, q), [0, 0]), f, c)
        touched = sorted({(f, g) for f, g, _ in flows})
        return [a for key in touched if (a := self._check(key, digest)) is not None]

    def _count(self, folder: str, gainer: str) -> None:
        self.head.setdefault(folder, {}).setdefault(gainer, [0, 0])[0] += 1
        self.head.setdefault(gainer, {}).setdefault(folder, [0, 0])[1] += 1

    def baseline(self, p: str, q: str) -> tuple[float, float]:
        """``(folds, contests)`` of ``p`` in the hands where ``q`` was not active, less his contests
        with the opponents whose records with him depart from the rest by more than
        :attr:`DumpThresholds.trim_z` standard deviations, either way (a partner of his in a ring,
        whose folds would otherwise make him look timid, or aggressive, against everybody; or a very
        aggressive or very timid opponent). Those contests are taken off whole, including any in hands
        where ``q`` was active (which of them were is not kept): the baseline errs on the small side
        (a wider variance in :meth:`score`). Returns floats (counts)."""
        total, shared = self.players.get(p, [0, 0]), self.together.get((p, q), [0, 0])
        folds, contests = total[0] - shared[0], total[1] - shared[1]
        if not total[1]:
            return float(folds), float(contests)
        rate = (folds + 1) / (contests + 2)
        spread = rate * (1 - rate)
        out = [(f, f + w) for o, (f, w) in self.head.get(p, {}).items()
               if o != q and abs(f - (f + w) * rate) > self.thresholds.trim_z * math.sqrt((f + w) * spread)]
        left = max(contests - sum(c for _, c in out), 0)
        return float(min(max(folds - sum(f for f, _ in out), 0), left)), float(left)

    def score(self, folder: str, gainer: str) -> tuple[int, int, float, float, float]:
        """``(folds, contests, null rate, z, p-value)`` of the ordered pair (module docstring); the
        contests are the pair's in both directions."""
        folds, won = self.head.get(folder, {}).get(gainer, [0, 0])
        contests = folds + won
        a_folds, a_contests = self.baseline(folder, gainer)
        b_folds, b_contests = self.baseline(gainer, folder)
        rate, z = log5_z(folds, contests, a_folds, a_contests, b_contests - b_folds, b_contests)
        return folds, contests, rate, z, upper_tail(z)

    def ranked(self) -> list[tuple[tuple[str, str], float]]:
        """Every ordered pair (folder, gainer) with the baselines an alert needs
        (:attr:`DumpThresholds.min_baseline` contests each), with its ``z``: what a surveillance
        room would rank, and the benchmark scores (precision at k, ROC)."""
        floor = self.thresholds.min_baseline
        return [((f, g), self.score(f, g)[3]) for f, g in sorted(self.pairs)
                if min(self.baseline(f, g)[1], self.baseline(g, f)[1]) >= floor]

    def _check(self, key: tuple[str, str], digest: RoundDigest) -> Alert | None:
        if key in self.alerted:
            return None
        folder, gainer = key
        folds, contests, rate, z, p = self.score(folder, gainer)
        evidence = self.pairs[key].evidence
        if z >= WATCH_Z and len(evidence) < EVIDENCE_KEPT:
            evidence.append(f"{digest.table_id}/{digest.round_id}")
        t = self.thresholds
        if (folds < t.min_folds or z < t.z_min
                or min(self.baseline(folder, gainer)[1], self.baseline(gainer, folder)[1]) < t.min_baseline):
            return None
        self.alerted.add(key)
        pair = self.pairs[key]
        return Alert(
            alert_id=stable_id("alert", KIND, folder, gainer), kind=KIND, severity=SEVERITY[KIND],
            casino_id=digest.casino_id, table_id=digest.table_id, game=digest.game, round_id="", bet_id="",
            player_id=folder, dealer_id="", amount=pair.euros,
            message=(f"player {folder} folded to player {gainer} in {folds} of their {contests} contests "
                     f"({pair.euros} EUR passed), where their contests with others give {rate:.0%}: z = {z:.1f}, "
                     f"P = {p:.1e}, score {-math.log10(max(p, 1e-300)):.1f}"),
            citation=CITATION, detected_at=digest.ended_at, evidence=tuple(pair.evidence),
            ruleset_id=digest.ruleset_id, ruleset_hash=digest.ruleset_hash,
            parties=(f"player:{folder}", f"player:{gainer}"), score=round(-math.log10(max(p, 1e-300)), 2))

    def to_state(self) -> dict[str, Any]:
        """The state as versioned JSON (never pickled)."""
        return {
            "version": self.STATE_VERSION,
            "pairs": [[a, b, v.folds, str(v.euros), v.evidence] for (a, b), v in sorted(self.pairs.items())],
            "players": {k: list(v) for k, v in sorted(self.players.items())},
            "together": [[a, b, *v] for (a, b), v in sorted(self.together.items())],
            "alerted": sorted([a, b] for a, b in self.alerted),
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any], thresholds: DumpThresholds | None = None) -> ChipDumpingDetector:
        """Inverse of :meth:`to_state`. Raises ``ValueError`` for another version."""
        if state.get("version") != cls.STATE_VERSION:
            raise ValueError(f"chip dumping state version {state.get('version')!r}, expected {cls.STATE_VERSION}")
        out = cls(thresholds)
        for a, b, folds, euros, evidence in state["pairs"]:
            out.pairs[(a, b)] = _Pair(int(folds), Decimal(euros), list(evidence))
            for _ in range(int(folds)):
                out._count(a, b)
        out.players = {k: [int(f), int(c)] for k, (f, c) in state["players"].items()}
        out.together = {(a, b): [int(f), int(c)] for a, b, f, c in state["together"]}
        out.alerted = {(a, b) for a, b in state["alerted"]}
        return out


__all__ = ["CITATION", "KIND", "ChipDumpingDetector", "DumpThresholds", "fold_flows"]
