"""House edge of every American roulette bet kind, exact, from the ruleset's payouts and zero rule.

The wheel is French roulette's: 37 pockets 0..36, equally likely (000_e1555249d49967be.txt L199, L81-L97;
004_5c9c19b250457762.txt L459-L464, L143-L167). A bet covering ``n`` numbers with net payout ``a``
(``[payouts]``, per euro) returns ``1 + a`` with probability ``n/37`` and nothing otherwise:
edge = 1 - n(1 + a)/37 (straight-up 35:1: 1/37).

A simple chance (18 numbers, ``a`` = 1) struck by the zero (1/37) loses the ruleset's
``zero.simple_lost_fraction`` ``h`` of its stake and the rest comes back, with no choice and no prison
(000 L225 «se pierde la mitad de la apuesta y se recupera la otra mitad»; 004 L543-L545): return =
(18/37)(1 + a) + (1/37)(1 - h); with h = ½: 73/74, edge 1/74. Per spin and per stake; stakes are taken as
exact (the cent rounding of halved stakes, ruleset ``rounding``, is ignored).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from pitwatch.rules.american_roulette.model import AmericanRouletteRuleset
from pitwatch.rules.base import Ruleset
from pitwatch.rules.edges.common import EdgeLine, ratio_text
from pitwatch.rules.edges.roulette import EXAMPLES as FRENCH_EXAMPLES
from pitwatch.rules.edges.roulette import POCKETS
from pitwatch.rules.models.roulette import KIND_NAMES
from pitwatch.rules.roulette import Spot, parse_spot
from pitwatch.rules.spec import EdgeCalculation

EXAMPLES: tuple[tuple[str, str, str], ...] = FRENCH_EXAMPLES + (("simple", "", "red"),)
"""A spot code of every bet kind: French roulette's (:data:`pitwatch.rules.edges.roulette.EXAMPLES`) and a
simple chance."""


def _model(ruleset: Ruleset) -> AmericanRouletteRuleset:
    return ruleset.model_as(AmericanRouletteRuleset)


def _parts(ruleset: Ruleset, spot: Spot) -> tuple[Fraction, Fraction, Fraction]:
    """``(a, n, back)``: net payout per unit, probability of a win, and what comes back at the zero."""
    m = _model(ruleset)
    a = Fraction(m.payouts.ratio(spot.kind))
    n = Fraction(len(spot.numbers), POCKETS)
    back = 1 - Fraction(m.zero.simple_lost_fraction) if spot.simple else Fraction(0)
    return a, n, back


def spot_edge(ruleset: Ruleset, spot: Spot) -> Fraction:
    """Edge of a bet on ``spot`` (a parsed spot) per unit staked: 1 - n(1 + a)/37, minus (1/37) x the share
    recovered at zero for a simple chance. ``RuleError`` for another game's ruleset."""
    a, n, back = _parts(ruleset, spot)
    return 1 - n * (1 + a) - Fraction(1, POCKETS) * back


def spot_variance(ruleset: Ruleset, spot: Spot) -> Fraction:
    """Variance of the player's net result X per unit staked, squared (E[X²] - E[X]²): X = a with probability
    n/37, X = back - 1 at the zero for a simple chance (1/37), else -1. Straight-up: 46656/1369; red with half
    lost: 1341/1369."""
    a, n, back = _parts(ruleset, spot)
    z = Fraction(1, POCKETS) if spot.simple else Fraction(0)
    mean = -spot_edge(ruleset, spot)
    return n * a * a + z * (back - 1) ** 2 + (1 - n - z) - mean * mean


def house_edge(ruleset: Ruleset, spot: str, options: Mapping[str, str] | None = None) -> Fraction:
    """House edge of a bet on spot code ``spot`` (``straight:17``, ``red``...) per unit staked; ``options``
    change nothing. ``RuleError`` for a code not on the layout."""
    return spot_edge(ruleset, parse_spot(spot))


def variance(ruleset: Ruleset, spot: str, options: Mapping[str, str] | None = None) -> Fraction:
    """:func:`spot_variance` of spot code ``spot``. ``RuleError`` for a code not on the layout."""
    return spot_variance(ruleset, parse_spot(spot))


def edge_table(ruleset: Ruleset, options: Mapping[str, str] | None = None) -> list[EdgeLine]:
    """One :class:`EdgeLine` per bet kind (the zero streets and corner on their own lines)."""
    m = _model(ruleset)
    out: list[EdgeLine] = []
    for kind, variant, code in EXAMPLES:
        spot = parse_spot(code)
        n = len(spot.numbers)
        ratio = m.payouts.ratio(kind)
        method = f"{n} of {POCKETS} pockets pay {ratio_text(ratio)}: 1 - {n} x (1 + {Fraction(ratio)})/{POCKETS}"
        cites: tuple[str, ...] = (spot.payout_key, "layout")
        payout = ratio_text(ratio)
        if spot.simple:
            h = Fraction(m.zero.simple_lost_fraction)
            method += f" - (1/{POCKETS}) x {1 - h} (zero: {h} of the stake lost, the rest back)"
            cites = (spot.payout_key, "zero_half")
            payout += f"; zero: {h} lost"
        out.append(EdgeLine(kind, variant, code, spot_edge(ruleset, spot), payout, method, cites))
    assert {line.kind for line in out} == set(KIND_NAMES)
    return out


CALCULATION = EdgeCalculation(
    table=lambda r, o, d: edge_table(r, o),
    edge=lambda r, s, o, d: house_edge(r, s, o),
    variance=lambda r, s, o, d: variance(r, s, o),
)
"""This calculation in the shape every game's has (:class:`pitwatch.rules.spec.EdgeCalculation`)."""

__all__ = ["CALCULATION", "EXAMPLES", "POCKETS", "edge_table", "house_edge", "spot_edge", "spot_variance",
           "variance"]
