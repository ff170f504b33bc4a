"""House edge and variance of every boule bet, exact, from the ruleset's platform and payouts.

The platform: ``layout.numbers`` numbers with ``layout.holes_per_number`` holes each (nine numbers, eighteen
holes: 000 L341-L343; 002 L19; 004 L921-L926), every hole equally likely, so each number comes out with
probability 1/9. A bet winning on ``k`` of the nine numbers with net payout ``a`` (``[payouts]``, per euro)
returns ``1 + a`` with probability ``k/9`` and nothing otherwise: edge = 1 - k(1 + a)/9.

- a number, 7 to 1 (000 L361; 002 L43; 004 L969-L970): 1 - 8/9 = 1/9;
- a simple chance, a la par, four numbers of nine, the 5 in none and losing them all (000 L363; 002 L43;
  004 L972-L978): 1 - 4 x 2/9 = 1/9.

Variance of the player's net result X per unit staked: E[X²] - E[X]² with X = a (probability k/9) or -1:
a number 49/9 + 8/9 - 1/81 = 512/81; a simple chance 4/9 + 5/9 - 1/81 = 80/81.
"""

from __future__ import annotations

from fractions import Fraction

from pitwatch.rules.base import RuleError, Ruleset
from pitwatch.rules.boule.game import Spot, layout_spots
from pitwatch.rules.boule.model import BouleRuleset
from pitwatch.rules.edges.common import EdgeLine, ratio_text
from pitwatch.rules.spec import EdgeCalculation


def _model(ruleset: Ruleset) -> BouleRuleset:
    return ruleset.model_as(BouleRuleset)


def _spot(ruleset: Ruleset, code: str) -> Spot:
    spot = layout_spots(_model(ruleset)).get(code)
    if spot is None:
        raise RuleError(f"{code!r} is not a bet of boule (ruleset {ruleset.id}): straight:1-9 or a simple chance")
    return spot


def _win_chance(ruleset: Ruleset, spot: Spot) -> Fraction:
    """Probability that ``spot`` wins: its holes over all the holes of the platform."""
    layout = _model(ruleset).layout
    holes = layout.numbers * layout.holes_per_number
    return Fraction(len(spot.numbers) * layout.holes_per_number, holes)


def spot_edge(ruleset: Ruleset, spot: Spot) -> Fraction:
    """The house edge of a bet on ``spot``, per unit staked: 1 - p(1 + a), p its chance to win, a its payout."""
    a = Fraction(_model(ruleset).payouts.ratio(spot.kind))
    return 1 - _win_chance(ruleset, spot) * (1 + a)


def spot_variance(ruleset: Ruleset, spot: Spot) -> Fraction:
    """Variance of the player's net result of a bet on ``spot``, per unit staked, squared."""
    a = Fraction(_model(ruleset).payouts.ratio(spot.kind))
    p = _win_chance(ruleset, spot)
    mean = -spot_edge(ruleset, spot)
    return p * a * a + (1 - p) - mean * mean


def house_edge(ruleset: Ruleset, spot: str) -> Fraction:
    """House edge of a bet on boule spot code ``spot`` (``straight:7``, ``red``...). Raises ``RuleError`` for a
    code that is not a bet of boule."""
    return spot_edge(ruleset, _spot(ruleset, spot))


def variance(ruleset: Ruleset, spot: str) -> Fraction:
    """:func:`spot_variance` of spot code ``spot``. Raises ``RuleError`` for a code that is not a bet of boule."""
    return spot_variance(ruleset, _spot(ruleset, spot))


def edge_table(ruleset: Ruleset) -> list[EdgeLine]:
    """One :class:`EdgeLine` per bet kind: a number (the 5 apart: it is a number like the others) and the
    simple chances."""
    m = _model(ruleset)
    holes = m.layout.numbers * m.layout.holes_per_number
    out = []
    for kind, variant, code, cites in (
            ("straight", "", "straight:7", ("payout_number", "holes")),
            ("straight", "the 5", f"straight:{m.layout.neutral}", ("payout_number", "holes", "five")),
            ("simple", "", "red", ("payout_simple", "simple_chances", "five", "holes"))):
        spot = _spot(ruleset, code)
        ratio = m.payouts.ratio(kind)
        won = len(spot.numbers) * m.layout.holes_per_number
        out.append(EdgeLine(kind, variant, code, spot_edge(ruleset, spot), ratio_text(ratio),
                            f"{won} of {holes} holes pay {ratio_text(ratio)}: 1 - {won} x (1 + {Fraction(ratio)})"
                            f"/{holes}" + (f"; the {m.layout.neutral} loses every simple chance" if kind == "simple" else ""),
                            cites))
    return out


CALCULATION = EdgeCalculation(
    table=lambda r, o, d: edge_table(r),
    edge=lambda r, s, o, d: house_edge(r, s),
    variance=lambda r, s, o, d: variance(r, s),
)
"""This calculation in the shape every game's has (:class:`pitwatch.rules.spec.EdgeCalculation`)."""

__all__ = ["CALCULATION", "edge_table", "house_edge", "spot_edge", "spot_variance", "variance"]
