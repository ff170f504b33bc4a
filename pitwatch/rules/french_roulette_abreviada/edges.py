"""House edge of every bet kind of ruleta francesa abreviada, exact, from the ruleset's payouts.

The wheel is French roulette's: 37 pockets 0..36, equally likely (I.1.1.A, 004 L118-L120, L138-L141, whose
«mismos elementos de juego» I.1.1.B keeps, 004 L443-L446). Every bet of the abbreviated layout is a
number bet (004 L452-L454): covering ``n`` numbers with net payout ``a`` (``[payouts]``) it returns
``1 + a`` with probability ``n/37`` and nothing otherwise, so edge = 1 - n(1 + a)/37 — with the payouts
of I.1.1.A (pleno 35, caballo 17, transversal 11, cuadro 8, seisena 5) every kind's edge is 1/37, the
0-1-2 / 0-2-3 trios and 0-1-2-3 («cuatro primeros») included. There are no simple chances and so no zero
rule. The calculation is French roulette's (:func:`pitwatch.rules.edges.roulette.spot_edge`,
:func:`~pitwatch.rules.edges.roulette.spot_variance`) on the spots of the abbreviated layout
(:func:`pitwatch.rules.french_roulette_abreviada.game.parse_spot`: any other spot is a ``RuleError``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from pitwatch.rules.base import Ruleset
from pitwatch.rules.edges.common import EdgeLine, ratio_text
from pitwatch.rules.edges.roulette import POCKETS, spot_edge, spot_variance
from pitwatch.rules.french_roulette_abreviada.game import parse_spot
from pitwatch.rules.french_roulette_abreviada.model import ALLOWED_KINDS, AbreviadaRuleset
from pitwatch.rules.spec import EdgeCalculation

EXAMPLES: tuple[tuple[str, str, str], ...] = (
    ("straight", "", "straight:17"),
    ("split", "", "split:17-20"),
    ("street", "", "street:16-17-18"),
    ("street", "0-1-2 / 0-2-3", "street:0-1-2"),
    ("corner", "", "corner:17-18-20-21"),
    ("corner", "0-1-2-3", "corner:0-1-2-3"),
    ("sixline", "", "sixline:16-17-18-19-20-21"),
)
"""Every bet kind of the abbreviated layout, with a spot code of each (the 0-1-2 / 0-2-3 streets and the
0-1-2-3 corner, «cuatro primeros», cite their own clause)."""

_FATE = "half_back"
"""French roulette's edge functions take the zero rule of a simple chance; none is on this layout."""


def house_edge(ruleset: Ruleset, spot: str) -> Fraction:
    """House edge of a bet on spot code ``spot`` of the abbreviated layout (``"straight:17"``...), per unit
    staked: 1 - n(1 + a)/37. Raises ``RuleError`` for a spot not on the abbreviated layout (``"red"``,
    ``"dozen:1"``) or another game's ruleset."""
    ruleset.model_as(AbreviadaRuleset)
    return spot_edge(ruleset, parse_spot(spot), _FATE)


def variance(ruleset: Ruleset, spot: str) -> Fraction:
    """Variance of the player's net result per unit staked, squared, of a bet on ``spot``:
    n a²/37 + (37 - n)/37 - edge². Raises ``RuleError`` as :func:`house_edge`."""
    ruleset.model_as(AbreviadaRuleset)
    return spot_variance(ruleset, parse_spot(spot), _FATE)


def edge_table(ruleset: Ruleset, options: Mapping[str, str] | None = None) -> list[EdgeLine]:
    """One :class:`EdgeLine` per bet kind of the abbreviated layout (:data:`EXAMPLES`). ``options`` are
    accepted for the common signature and unused (no option changes a payout). Raises ``RuleError`` for
    another game's ruleset."""
    m = ruleset.model_as(AbreviadaRuleset)
    out: list[EdgeLine] = []
    for kind, variant, code in EXAMPLES:
        spot = parse_spot(code)
        n = len(spot.numbers)
        ratio = m.payouts.ratio(kind)
        out.append(EdgeLine(
            kind, variant, code, spot_edge(ruleset, spot, _FATE), ratio_text(ratio),
            f"{n} of {POCKETS} pockets pay {ratio_text(ratio)}: 1 - {n} x (1 + {Fraction(ratio)})/{POCKETS}",
            (spot.payout_key, "abbreviated_layout")))
    assert {line.kind for line in out} == set(ALLOWED_KINDS)
    return out


CALCULATION = EdgeCalculation(
    table=lambda r, o, d: edge_table(r, o),
    edge=lambda r, s, o, d: house_edge(r, s),
    variance=lambda r, s, o, d: variance(r, s),
)
"""This calculation in the shape every game's has (:class:`pitwatch.rules.spec.EdgeCalculation`)."""

__all__ = ["CALCULATION", "EXAMPLES", "edge_table", "house_edge", "variance"]
