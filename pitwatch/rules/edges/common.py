"""What every game's edge calculation shares: :class:`EdgeLine`, payout wording, the per-version cache.

Pure: no I/O, no clock, no randomness. Edges are :class:`~fractions.Fraction` (exact rationals) or,
where the calculation is an approximation (blackjack), a ``Fraction`` of a ``Decimal`` result; never
a float.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Callable, Hashable, TypeVar

from pitwatch.rules.base import Ruleset


@dataclass(frozen=True)
class EdgeLine:
    """The house edge of one bet kind under one ruleset.

    ``kind`` is the bet kind (roulette's payout row ``straight``... ``simple``; punto y banca's
    ``punto``/``banca``/``tie``; blackjack's ``main``/``insurance``) and ``variant`` what sets this line
    apart from another of the same kind (``"0-1-2 / 0-2-3"``, ``"en prison"``), or ``""``. ``spot`` is
    a spot code of that kind the engine accepts (``bet_placed.spot``). ``edge`` is the house's expected
    gain per unit of initial stake (positive: the house wins; 1/37 = 2.7027 %). ``payout`` says the
    ratio(s) used, ``method`` how the edge was computed and under which assumptions, ``citations`` the
    keys of the ruleset's ``[citations]`` whose rules the calculation read. ``exact`` is False where the
    edge is an approximation (the method says which).
    """

    kind: str
    variant: str
    spot: str
    edge: Fraction
    payout: str
    method: str
    citations: tuple[str, ...]
    exact: bool = True

    @property
    def label(self) -> str:
        """``kind`` with its variant, e.g. ``"street (0-1-2 / 0-2-3)"``."""
        return f"{self.kind} ({self.variant})" if self.variant else self.kind


def ratio_text(ratio: Decimal | Fraction) -> str:
    """A net-winnings ratio as odds: 35 -> ``"35:1"``, 0.5 -> ``"1:2"``, 1.5 -> ``"3:2"``."""
    f = Fraction(ratio)
    return f"{f.numerator}:{f.denominator}"


def quantize(value: Fraction, places: int) -> Decimal:
    """``value`` rounded to ``places`` decimal places, half to even, exactly (integer arithmetic: no
    intermediate rounding). ``quantize(Fraction(1, 37), 4)`` is ``Decimal("0.0270")``."""
    scaled = value * 10**places
    q, r = divmod(scaled.numerator, scaled.denominator)  # floor division: 0 <= r < denominator
    if 2 * r > scaled.denominator or (2 * r == scaled.denominator and q % 2):
        q += 1
    return Decimal(q).scaleb(-places)


def percent_text(rate: Decimal) -> str:
    """A share as a percentage without trailing zeros: 0.05 -> ``"5%"``, 0.125 -> ``"12.5%"``."""
    p = (rate * 100).normalize()
    return f"{p:f}%"


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class VersionCache(dict[tuple[str, str, K], V]):
    """Results per ruleset version: ``(ruleset id, content hash, key) -> value``.

    A :class:`Ruleset` built without a source has no content hash and is never cached (two such
    rulesets could differ under the same id)."""

    def get_or_compute(self, ruleset: Ruleset, key: K, compute: Callable[[], V]) -> V:
        """The cached value for ``ruleset`` and ``key``, computing (and storing) it on a miss."""
        if not ruleset.content_hash:
            return compute()
        full = (ruleset.id, ruleset.content_hash, key)
        if full not in self:
            self[full] = compute()
        return self[full]


__all__ = ["EdgeLine", "VersionCache", "percent_text", "quantize", "ratio_text"]
