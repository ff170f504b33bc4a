"""The house's edge at póquer en círculo: its rake, not a wager.

The house plays no hand (004 L82-L89, art. 2.2); under the rake form of its benefit it takes
``rake_rate`` of the money each hand puts in its pots (004 L4082-L4088, II.4.a). Per euro a player
puts in the pot the house's expected gain is therefore the rate itself, and it takes no risk: the
variance of its result is 0. (The rate is of the pots: an uncalled bet, given back, is not raked,
so the theoretical win slightly overstates a hand whose last bet was not called.)
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Mapping

from pitwatch.rules.base import RuleError, Ruleset
from pitwatch.rules.edges.common import EdgeLine, percent_text
from pitwatch.rules.models.poker import PokerRuleset
from pitwatch.rules.spec import EdgeCalculation

SPOT = "pot"


def _rate(ruleset: Ruleset, options: Mapping[str, str] | None) -> Decimal:
    model = ruleset.model_as(PokerRuleset)
    rate = Decimal((options or {}).get("rake_rate", model.options.rake_rate))
    if not 0 <= rate <= model.revenue.max_rake_rate:
        raise RuleError(f"rake_rate {rate} is outside 0..{model.revenue.max_rake_rate} ({ruleset.id})",
                        ruleset.cite("rake"))
    return rate


def spot_edge(ruleset: Ruleset, spot: str, options: Mapping[str, str] | None = None) -> Fraction:
    """The house's gain per euro put in the pot: the table's ``rake_rate`` (a ``Fraction``). Raises
    ``RuleError`` for a spot other than ``pot`` or a rate above the ruleset's maximum."""
    if spot != SPOT:
        raise RuleError(f"poker has no spot {spot!r}: a player's part in a hand is the spot {SPOT!r}")
    return Fraction(_rate(ruleset, options))


def spot_variance(ruleset: Ruleset, spot: str, options: Mapping[str, str] | None = None) -> Fraction:
    """0: the house's rake does not depend on who wins. Raises as :func:`spot_edge`."""
    spot_edge(ruleset, spot, options)
    return Fraction(0)


def edge_table(ruleset: Ruleset, options: Mapping[str, str] | None = None) -> list[EdgeLine]:
    """One line: the pot, at the rake rate of ``options`` (else the ruleset's default)."""
    rate = _rate(ruleset, options)
    return [EdgeLine("pot", "rake", SPOT, Fraction(rate), f"{percent_text(rate)} of the pots",
                     "the rake rate: the house takes it from every hand and plays no hand", ("rake",))]



CALCULATION = EdgeCalculation(
    table=lambda r, o, d: edge_table(r, o),
    edge=lambda r, s, o, d: spot_edge(r, s, o),
    variance=lambda r, s, o, d: spot_variance(r, s, o),
)
"""This calculation in the shape every game's has (:class:`pitwatch.rules.spec.EdgeCalculation`)."""

__all__ = ["SPOT", "edge_table", "spot_edge", "spot_variance"]
