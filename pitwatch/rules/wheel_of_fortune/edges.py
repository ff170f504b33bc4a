"""House edge of every wheel of fortune bet, exact, from the ruleset's segments and payouts.

The wheel: ``[wheel] segments`` segments (54), equally likely, ``[symbols.<code>] segments`` of them
showing each symbol (000 L1063-L1065, L1085; 004 L5697-L5710, L5735-L5748). A bet on a symbol of ``n``
segments paying ``a`` (net, per euro; the stake kept: 000 L1097; 004 L5788-L5791) returns ``1 + a`` with
probability ``n/54`` and nothing otherwise: edge = 1 - n(1 + a)/54 (the 24 at 1:1: 1 - 48/54 = 1/9).
Void spins return every stake and are left out (the edge is per spin that counts).
"""

from __future__ import annotations

from fractions import Fraction

from pitwatch.rules.base import RuleError, Ruleset
from pitwatch.rules.edges.common import EdgeLine, ratio_text
from pitwatch.rules.spec import EdgeCalculation, Options
from pitwatch.rules.wheel_of_fortune.model import WheelOfFortuneRuleset


def _model(ruleset: Ruleset) -> WheelOfFortuneRuleset:
    return ruleset.model_as(WheelOfFortuneRuleset)


def _odds(ruleset: Ruleset, spot: str) -> tuple[Fraction, Fraction]:
    """``(p, a)``: the probability the wheel stops on ``spot`` and its net payout. Raises ``RuleError``
    for a spot that is not a symbol of the ruleset's wheel."""
    m = _model(ruleset)
    symbol = m.symbols.get(spot)
    if symbol is None:
        raise RuleError(f"{spot!r} is not a symbol of the wheel of {ruleset.id} ({', '.join(m.symbols)})")
    return Fraction(symbol.segments, m.wheel.segments), Fraction(symbol.payout)


def house_edge(ruleset: Ruleset, spot: str) -> Fraction:
    """House edge of a bet on symbol ``spot`` (e.g. ``"fortune_24"``), per unit staked: 1 - p(1 + a).
    Raises ``RuleError`` for a spot not on the wheel."""
    p, a = _odds(ruleset, spot)
    return 1 - p * (1 + a)


def variance(ruleset: Ruleset, spot: str) -> Fraction:
    """Variance of the player's net result X of a bet on symbol ``spot``, per unit staked squared: X = a
    with probability p, -1 otherwise; E[X²] - E[X]² (the 24 at 1:1: 1 - (1/9)² = 80/81). Raises
    ``RuleError`` for a spot not on the wheel."""
    p, a = _odds(ruleset, spot)
    mean = p * a - (1 - p)
    return p * a * a + (1 - p) - mean * mean


def edge_table(ruleset: Ruleset) -> list[EdgeLine]:
    """One :class:`EdgeLine` per symbol of the ruleset's wheel, in the order of its file."""
    m = _model(ruleset)
    out = []
    for code, symbol in m.symbols.items():
        n, total = symbol.segments, m.wheel.segments
        out.append(EdgeLine(
            code, "", code, house_edge(ruleset, code), ratio_text(symbol.payout),
            f"{n} of {total} segments pay {ratio_text(symbol.payout)}: 1 - {n} x (1 + {Fraction(symbol.payout)})/{total}",
            ("wheel", "combinations", "payouts", "stake_returned")))
    return out


def _table(ruleset: Ruleset, options: Options, decks: int | None) -> list[EdgeLine]:
    return edge_table(ruleset)


def _edge(ruleset: Ruleset, spot: str, options: Options, decks: int | None) -> Fraction:
    return house_edge(ruleset, spot)


def _variance(ruleset: Ruleset, spot: str, options: Options, decks: int | None) -> Fraction:
    return variance(ruleset, spot)


CALCULATION = EdgeCalculation(table=_table, edge=_edge, variance=_variance)
"""This calculation in the shape every game's has (:class:`pitwatch.rules.spec.EdgeCalculation`); the
wheel has no table options and no shoe (``options`` and ``decks`` are not read)."""

__all__ = ["CALCULATION", "edge_table", "house_edge", "variance"]
