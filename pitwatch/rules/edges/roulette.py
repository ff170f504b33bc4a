"""House edge of every French roulette bet kind, exact, from the ruleset's payouts and zero rule.

The wheel: the 37 pockets 0..36 of :data:`pitwatch.rules.roulette.SPOTS` (one ``straight:N`` code
each), equally likely (000 L81-L97; 004 L143-L167). A bet covering ``n`` numbers with net payout
``a`` (``[payouts]``, per euro) returns ``1 + a`` with probability ``n/37`` and nothing otherwise:
edge = 1 - n(1 + a)/37 (straight-up 35:1: 1 - 36/37 = 1/37).

Simple chances follow the engine's zero rule (:mod:`pitwatch.rules.roulette`, ruleset ``[zero]``):
they win a la par with probability 18/37, lose with 18/37, and on a zero (1/37) are either refunded
``r`` x the stake («half back», ``zero.refund_fraction`` r = ½: 000 L125-L129; 004 L304-L324) or kept
«en prison» holding the whole stake. A prisoner holding ``h`` is released (``h`` back, no winnings)
when its chance wins, lost when it loses, and at another zero keeps ``h x r`` in prison (the table
default, ``options.zero_default``, applies again: it stays in prison). Its value per unit held,
``c``, solves ``c = 18/37 + (1/37) r c``, so ``c = (18/37) / (1 - r/37)``:

- half back: return = (18/37)(1 + a) + (1/37) r; with a = 1, r = ½: 73/74, edge 1/74;
- en prison: return = (18/37)(1 + a) + (1/37) c; with a = 1, r = ½: c = 36/73, edge 1/73.

Per spin and per initial stake; a bet struck by a zero on the last spin of a session is refunded
``r`` x its stake whatever the default (000 L129; 004 L320-L324), so on that spin even an en-prison
table has the half-back edge. Stakes are taken as exact (the cent rounding of halved stakes, ruleset
``rounding``, is ignored).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from pitwatch.rules.base import RuleError, Ruleset
from pitwatch.rules.edges.common import EdgeLine, ratio_text
from pitwatch.rules.models import RouletteRuleset
from pitwatch.rules.models.roulette import KIND_NAMES
from pitwatch.rules.roulette import SPOTS, Spot, parse_spot
from pitwatch.rules.spec import EdgeCalculation

POCKETS = sum(1 for s in SPOTS.values() if s.kind == "straight")
"""Pockets of the wheel: one per straight-up code, 0..36 (37)."""

ZERO_FATES = ("en_prison", "half_back")
"""The two fates of a simple chance struck by a zero (``options.zero_default`` values)."""

EXAMPLES: tuple[tuple[str, str, str], ...] = (
    ("straight", "", "straight:17"),
    ("split", "", "split:17-20"),
    ("street", "", "street:16-17-18"),
    ("street", "0-1-2 / 0-2-3", "street:0-1-2"),
    ("corner", "", "corner:17-18-20-21"),
    ("corner", "0-1-2-3", "corner:0-1-2-3"),
    ("sixline", "", "sixline:16-17-18-19-20-21"),
    ("column", "", "column:2"),
    ("dozen", "", "dozen:2"),
    ("columns", "", "columns:1-2"),
    ("dozens", "", "dozens:1-2"),
)
"""Every bet kind but the simple chances, with a spot code of each (the 0-1-2 / 0-2-3 streets and the
0-1-2-3 corner cite their own clause)."""


def _model(ruleset: Ruleset) -> RouletteRuleset:
    return ruleset.model_as(RouletteRuleset)


def zero_fate(ruleset: Ruleset, options: Mapping[str, str] | None = None) -> str:
    """The fate of a simple chance struck by a zero when the player asks for nothing: the table
    option ``zero_default`` (``options``, as in ``table_opened.options``) or the ruleset's default.
    Raises ``RuleError`` for a value that is neither ``en_prison`` nor ``half_back``."""
    fate = (options or {}).get("zero_default", _model(ruleset).options.zero_default)
    if fate not in ZERO_FATES:
        raise RuleError(f"zero_default={fate!r} must be en_prison or half_back")
    return fate


def spot_edge(ruleset: Ruleset, spot: Spot, fate: str) -> Fraction:
    """Edge of a bet on ``spot`` (a parsed spot), per unit of initial stake; ``fate`` is the zero
    rule applied to a simple chance (``en_prison`` or ``half_back``), unused for other kinds."""
    m = _model(ruleset)
    a = Fraction(m.payouts.ratio(spot.kind))
    n = Fraction(len(spot.numbers), POCKETS)
    if not spot.simple:
        return 1 - n * (1 + a)
    zero = Fraction(1, POCKETS)  # only the zero pocket triggers the zero rule (0 is in no simple chance)
    r = Fraction(m.zero.refund_fraction)
    if fate == "half_back":
        back = zero * r
    else:
        back = zero * (n / (1 - zero * r))  # c = n / (1 - r/37): value per unit held in prison
    return 1 - n * (1 + a) - back


def spot_variance(ruleset: Ruleset, spot: Spot, fate: str) -> Fraction:
    """Variance of the player's net result X of a bet on ``spot``, per unit of initial stake squared
    (E[X²] - E[X]², E[X] = -edge); ``fate`` as in :func:`spot_edge`. Exact, same model as the edge.

    A bet covering ``n`` of 37 pockets paying ``a``: X = a (n/37) or -1: straight-up 35:1 gives
    1261/37 - (1/37)² = 46656/1369 (σ ≈ 5.838). A simple chance: +a (18/37), -1 (18/37), and at a
    zero (1/37) either r - 1 (half back) or, en prison, after k more zeros (each 1/37) released
    (18/37, X = r^k - 1) or lost (18/37, X = -1); the sums over k are geometric series."""
    m = _model(ruleset)
    a = Fraction(m.payouts.ratio(spot.kind))
    n = Fraction(len(spot.numbers), POCKETS)
    mean = -spot_edge(ruleset, spot, fate)
    if not spot.simple:
        return n * a * a + (1 - n) - mean * mean
    z = Fraction(1, POCKETS)
    lose = 1 - n - z
    r = Fraction(m.zero.refund_fraction)
    if fate == "half_back":
        at_zero = (r - 1) ** 2
    else:  # sum over k >= 0 of z^k [n (r^k - 1)² + lose]
        at_zero = n * (1 / (1 - z * r * r) - 2 / (1 - z * r) + 1 / (1 - z)) + lose / (1 - z)
    return n * a * a + lose + z * at_zero - mean * mean


def house_edge(ruleset: Ruleset, spot: str, options: Mapping[str, str] | None = None) -> Fraction:
    """House edge of a bet on roulette spot code ``spot`` (e.g. ``"straight:17"``, ``"red"``), per unit
    of initial stake. Simple chances take the zero rule of ``options["zero_default"]`` or the ruleset's
    default. Raises ``RuleError`` (a ``ValueError``) for a code that is not on the layout."""
    return spot_edge(ruleset, parse_spot(spot), zero_fate(ruleset, options))


def variance(ruleset: Ruleset, spot: str, options: Mapping[str, str] | None = None) -> Fraction:
    """:func:`spot_variance` of roulette spot code ``spot`` under the table's zero rule (``options`` as in
    :func:`house_edge`). Raises ``RuleError`` for a code that is not on the layout."""
    return spot_variance(ruleset, parse_spot(spot), zero_fate(ruleset, options))


def edge_table(ruleset: Ruleset, options: Mapping[str, str] | None = None) -> list[EdgeLine]:
    """One :class:`EdgeLine` per bet kind (the zero streets and corner apart), then the simple chances
    under the table's zero rule and under the other one."""
    m = _model(ruleset)
    out: list[EdgeLine] = []
    for kind, variant, code in EXAMPLES:
        spot = parse_spot(code)
        n = len(spot.numbers)
        ratio = m.payouts.ratio(kind)
        out.append(EdgeLine(
            kind, variant, code, spot_edge(ruleset, spot, "en_prison"), ratio_text(ratio),
            f"{n} of {POCKETS} pockets pay {ratio_text(ratio)}: 1 - {n} x (1 + {Fraction(ratio)})/{POCKETS}",
            (spot.payout_key, "layout")))
    default = zero_fate(ruleset, options)
    red = parse_spot("red")
    r = Fraction(m.zero.refund_fraction)
    a = m.payouts.ratio("simple")
    prison = spot_edge(ruleset, red, "en_prison")
    half = spot_edge(ruleset, red, "half_back")
    better = "half back" if half < prison else "en prison"
    for fate in sorted(ZERO_FATES, key=lambda f: f != default):
        tag = " (table default)" if fate == default else ""
        if fate == "en_prison":
            method = (f"18/37 win {ratio_text(a)}; zero 1/37: en prison, worth c = (18/37)/(1 - ({r})/37) per euro "
                      f"held (released on a win, lost on a loss, {r} kept at each further zero){tag}")
            cites: tuple[str, ...] = ("payout_simple", "zero_choice", "prison_release", "zero_repeat")
        else:
            method = (f"18/37 win {ratio_text(a)}; zero 1/37: {r} of the stake back "
                      f"(also forced on the last spin){tag}")
            cites = ("payout_simple", "zero_choice", "zero_last_spin")
        if fate == default:
            method += f"; the player's better choice at a zero is {better}"
        out.append(EdgeLine("simple", fate.replace("_", " "), "red", prison if fate == "en_prison" else half,
                            f"{ratio_text(a)}; zero: {fate.replace('_', ' ')}", method, cites))
    assert {line.kind for line in out} == set(KIND_NAMES)
    return out



CALCULATION = EdgeCalculation(
    table=lambda r, o, d: edge_table(r, o),
    edge=lambda r, s, o, d: house_edge(r, s, o),
    variance=lambda r, s, o, d: variance(r, s, o),
)
"""This calculation in the shape every game's has (:class:`pitwatch.rules.spec.EdgeCalculation`)."""

__all__ = ["POCKETS", "ZERO_FATES", "edge_table", "house_edge", "spot_edge", "spot_variance", "variance", "zero_fate"]
