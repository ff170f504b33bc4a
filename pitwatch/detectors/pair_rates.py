"""How often one player does something *to* another, against what each of them does with the rest.

The collusion detectors of póquer en círculo share one question: a yes/no behaviour of an
**actor** towards a **target** (folding to him, betting into him, re-raising him), counted per
ordered pair, is far more (or less) frequent than the two players' records with everybody else
predict. This module keeps those counts and answers it.

**The null** ("log5", the rule of paired comparisons): from the actor's rate of the behaviour
towards everybody but the target, and the target's rate of receiving it from everybody but the
actor (one added to both counts of each, so a clean record is not a rate of 0 or 1), the pair's
expected odds are their odds multiplied and divided by the odds of the whole population's rate
(``base``): an actor who bets three times in four, against a target everybody bets into three
times in four, where everybody bets one time in two, bets into him nine times in ten; an actor and a
target both at the population's rate are expected at that rate. (For contests that one side loses
and the other wins, as chip dumping counts them, the population's rate is one half and the rule is
the plain product of the odds.)

**The test** (:func:`log5_z`, chip dumping's): the pair's observed rate against that null on the
log-odds scale, the variance being that of the pair's rate *and* of both baselines (each estimated
from a finite number of decisions: a null taken as exact would make a pair seen early, against thin
baselines, look far more unlikely than it is). ``z`` > 0: the pair does it more often than the null.

**The exact test** (:meth:`PairRates.score`, soft play's and whipsaw's): the tail probability of the
pair's count of hits under a beta-binomial law, whose rate has the null as its mean and the
baselines' uncertainty as its variance (the delta method on the log-odds). Exact where the log-odds
test is poor: a pair that never does it (0 hits, soft play) and rare behaviour (a few expected hits,
whipsaw), where a normal approximation is far off in the tail.

Pure: plain counts, no I/O. The state is JSON-ready (:meth:`PairRates.to_state`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Mapping

_NORMAL = NormalDist()
TINY = 1e-300
"""The smallest p-value reported (a tail below it is reported as it)."""


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


def log5_null(pa: float, pb: float, base: float) -> float:
    """The pair's expected rate from the actor's rate ``pa``, the target's ``pb`` and the population's
    ``base`` (all strictly between 0 and 1): their odds multiplied, divided by the base's (module
    docstring)."""
    odds = pa / (1 - pa) * pb / (1 - pb) * (1 - base) / base
    return odds / (1 + odds)


def log5_z(hits: float, n: float, a_hits: float, a_n: float, b_hits: float, b_n: float,
           base: float = 0.5) -> tuple[float, float]:
    """``(null rate, z)`` of a pair seen doing it ``hits`` times in ``n``, the actor ``a_hits`` in
    ``a_n`` with the others, the target receiving it ``b_hits`` in ``b_n`` from the others, the
    population doing it at the rate ``base`` (counts; ``base`` strictly between 0 and 1; module
    docstring). ``z`` is positive when the pair does it more often than the null."""
    pa = (a_hits + 1) / (a_n + 2)
    pb = (b_hits + 1) / (b_n + 2)
    null = log5_null(pa, pb, base)
    seen = (hits + 0.5) / (n + 1)
    var = 1 / ((n + 1) * seen * (1 - seen)) + 1 / ((a_n + 2) * pa * (1 - pa)) + 1 / ((b_n + 2) * pb * (1 - pb))
    return null, (_logit(seen) - _logit(null)) / math.sqrt(var)


def beta_binomial_tail(hits: int, n: int, mean: float, var: float, upper: bool) -> float:
    """P(X >= hits) (``upper``) or P(X <= hits) of a beta-binomial count of ``n`` trials whose rate
    has ``mean`` and variance ``var`` (``var`` at most ``mean (1 - mean)``; 0 or less: binomial).

    The tail on the far side of the mode is summed outwards from its edge, each term from the last by
    the ratio of successive probabilities, until the terms no longer count; a tail that holds the mode
    is one minus the other side's."""
    mean = min(max(mean, 1e-12), 1 - 1e-12)
    size = mean * (1 - mean) / var - 1 if var > 0 else math.inf
    binomial = size > 1e6  # the rate is as good as known (lgamma of huge numbers loses digits)
    a, b = (mean, 1 - mean) if binomial else (mean * max(size, 1e-6), (1 - mean) * max(size, 1e-6))
    mode = n * mean
    if upper:
        return _far_tail(hits, n, a, b, binomial, 1) if hits > mode else 1 - _far_tail(hits - 1, n, a, b, binomial, -1)
    return _far_tail(hits, n, a, b, binomial, -1) if hits < mode else 1 - _far_tail(hits + 1, n, a, b, binomial, 1)


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def _log_pmf(k: int, n: int, a: float, b: float, binomial: bool) -> float:
    """log P(X = k): binomial (``a`` the rate, ``b`` one less it) or beta-binomial(``a``, ``b``)."""
    if binomial:
        return _log_comb(n, k) + k * math.log(a) + (n - k) * math.log(b)
    return (_log_comb(n, k) + math.lgamma(k + a) + math.lgamma(n - k + b) - math.lgamma(n + a + b)
            - math.lgamma(a) - math.lgamma(b) + math.lgamma(a + b))


def _far_tail(k: int, n: int, a: float, b: float, binomial: bool, step: int) -> float:
    """P(X >= k) (``step`` 1) or P(X <= k) (``step`` -1), from ``k`` outwards (``k`` beyond the mode,
    so the terms only fall); 0 for an empty tail."""
    if k < 0 or k > n:
        return 0.0
    first = _log_pmf(k, n, a, b, binomial)
    total, term = 1.0, 1.0
    while 0 <= k + step <= n and term > 1e-17 * total:
        if step > 0:  # P(k+1) / P(k)
            term *= (n - k) / (k + 1) * ((a / b) if binomial else (k + a) / (n - k - 1 + b))
        else:  # P(k-1) / P(k)
            term *= k / (n - k + 1) * ((b / a) if binomial else (n - k + b) / (k - 1 + a))
        total += term
        k += step
    return min(1.0, math.exp(first) * total)


def z_of(p: float) -> float:
    """The normal deviate of a one-sided p-value: ``P(Z >= z) = p`` (``p`` clamped to [TINY, 1 - TINY])."""
    return -_NORMAL.inv_cdf(min(max(p, TINY), 1 - 1e-16))


def upper_tail(z: float) -> float:
    """The one-sided normal tail P(Z >= z)."""
    return 0.5 * math.erfc(z / math.sqrt(2))


@dataclass(frozen=True)
class PairScore:
    """One ordered pair's record: ``hits`` in ``n`` decisions, the log5 ``null`` rate, the exact
    test's one-sided ``p`` in the direction asked and its normal deviate ``z`` (module docstring);
    ``actor_n`` and ``target_n`` the decisions of the baselines."""

    hits: int
    n: int
    null: float
    p: float
    z: float
    actor_n: int
    target_n: int


class PairRates:
    """Counts of one behaviour per ordered pair (actor, target), per actor and per target.

    ``trim_z``: when given, an actor's baseline leaves out his decisions towards the targets whose
    record with him departs from his rate by more than ``trim_z`` standard deviations, either way (and
    a target's, the actors out of line with him): the other members of a ring of three or more, whose
    play with him would otherwise pull his baseline towards the ring's own rate and hide the pair
    (chip dumping's trimming, :meth:`pitwatch.detectors.chip_dumping.ChipDumpingDetector.baseline`)."""

    def __init__(self, trim_z: float | None = None) -> None:
        self.trim_z = trim_z
        self.pairs: dict[tuple[str, str], list[int]] = {}
        """``(actor, target) -> [hits, decisions]``."""
        self.actors: dict[str, list[int]] = {}
        self.targets: dict[str, list[int]] = {}
        self.total = [0, 0]
        """``[hits, decisions]`` of everybody."""
        self.by_actor: dict[str, dict[str, list[int]]] = {}
        """``actor -> target -> [hits, decisions]`` (the records of :attr:`pairs`, indexed)."""
        self.by_target: dict[str, dict[str, list[int]]] = {}

    def _pair(self, actor: str, target: str) -> list[int]:
        rec = self.pairs.get((actor, target))
        if rec is None:
            rec = self.pairs[(actor, target)] = [0, 0]
            self.by_actor.setdefault(actor, {})[target] = rec
            self.by_target.setdefault(target, {})[actor] = rec
        return rec

    def add(self, actor: str, target: str, hit: bool) -> None:
        """Count one decision of ``actor`` towards ``target`` (``hit``: he did it)."""
        for rec in (self._pair(actor, target), self.actors.setdefault(actor, [0, 0]),
                    self.targets.setdefault(target, [0, 0]), self.total):
            rec[0] += hit
            rec[1] += 1

    def _trimmed(self, total: list[int], records: Mapping[str, list[int]], other: str) -> tuple[int, int]:
        """``total`` less the record with ``other`` and, with :attr:`trim_z`, the records out of line."""
        hits, n = total[0], total[1]
        own = records.get(other)
        if own is not None:
            hits, n = hits - own[0], n - own[1]
        if self.trim_z is None or not total[1]:
            return hits, n
        rate = (total[0] + 1) / (total[1] + 2)
        spread = rate * (1 - rate)
        for who, (h, m) in records.items():
            if who != other and abs(h - m * rate) > self.trim_z * math.sqrt(m * spread):
                hits, n = hits - h, n - m
        return hits, n

    def score(self, actor: str, target: str, upper: bool) -> PairScore:
        """The pair's :class:`PairScore` by the exact test (module docstring), in the upper tail (more
        hits than the null) or the lower: the baselines without the pair's own decisions, against the
        population's rate (one added to both counts)."""
        hits, n = self.pairs.get((actor, target), [0, 0])
        a_hits, a_n = self._trimmed(self.actors.get(actor, [0, 0]), self.by_actor.get(actor, {}), target)
        b_hits, b_n = self._trimmed(self.targets.get(target, [0, 0]), self.by_target.get(target, {}), actor)
        base = (self.total[0] + 1) / (self.total[1] + 2)
        pa, pb = (a_hits + 1) / (a_n + 2), (b_hits + 1) / (b_n + 2)
        null = log5_null(pa, pb, base)
        var_logit = 1 / ((a_n + 2) * pa * (1 - pa)) + 1 / ((b_n + 2) * pb * (1 - pb))
        var = (null * (1 - null)) ** 2 * var_logit
        p = beta_binomial_tail(hits, n, null, var, upper) if n else 1.0
        return PairScore(hits, n, null, p, z_of(p), a_n, b_n)

    def to_state(self) -> list[list[Any]]:
        """``[[actor, target, hits, decisions], ...]`` sorted (the totals are sums of these)."""
        return [[a, b, h, n] for (a, b), (h, n) in sorted(self.pairs.items())]

    @classmethod
    def from_state(cls, rows: Any, trim_z: float | None = None) -> PairRates:
        """Inverse of :meth:`to_state` (``trim_z`` as the constructor's)."""
        out = cls(trim_z)
        for a, b, h, n in rows:
            a, b, h, n = str(a), str(b), int(h), int(n)
            out._pair(a, b)[:] = [h, n]
            for rec in (out.actors.setdefault(a, [0, 0]), out.targets.setdefault(b, [0, 0]), out.total):
                rec[0] += h
                rec[1] += n
        return out


def check_version(state: Mapping[str, Any], name: str, version: int) -> None:
    """Raise ``ValueError`` unless ``state`` is of ``version`` (a detector's state, by ``name``)."""
    if state.get("version") != version:
        raise ValueError(f"{name} state version {state.get('version')!r}, expected {version}")


__all__ = ["TINY", "PairRates", "PairScore", "beta_binomial_tail", "check_version", "log5_null", "log5_z", "upper_tail", "z_of"]
