"""The house's edge at chemin de fer: its cagnotte, not a wager.

The house plays no coup; it takes ``[cagnotte] rate`` of what the bank wins. A coup puts two equal
handles at risk, the stakes covering the bank and the bank in play, and the house takes ``rate`` x the
bank in play when the bank wins: per euro of handle ``rate`` x P(bank wins) / 2. P(bank wins) is taken as
punto y banca's (:data:`BANK_WINS`), an approximation: at chemin de fer the punto chooses on 5 and the
banker is free on most totals, so the true figure depends on how they play.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from pitwatch.rules.base import RuleError, Ruleset
from pitwatch.rules.edges.common import EdgeLine, percent_text
from pitwatch.rules.models.chemin_de_fer import CheminDeFerRuleset
from pitwatch.rules.spec import EdgeCalculation

BANK_WINS = Fraction(4586, 10000)
"""The bank's chance to win a coup, punto y banca's (about 45.86% with six or eight decks)."""

SPOTS = ("punto", "banco", "banco_seguido", "banco_con_la_mesa", "ultimo_completo", "bank")


def spot_edge(ruleset: Ruleset, spot: str, options: Mapping[str, str] | None = None) -> Fraction:
    """The house's gain per euro of handle of a stake or of the bank: ``rate`` x :data:`BANK_WINS` / 2.
    Raises ``RuleError`` for a spot of another game."""
    if spot not in SPOTS:
        raise RuleError(f"chemin de fer has no spot {spot!r}")
    return Fraction(ruleset.model_as(CheminDeFerRuleset).cagnotte.rate) * BANK_WINS / 2


def spot_variance(ruleset: Ruleset, spot: str, options: Mapping[str, str] | None = None) -> Fraction:
    """0: the cagnotte does not depend on which player wins. Raises as :func:`spot_edge`."""
    spot_edge(ruleset, spot, options)
    return Fraction(0)


def edge_table(ruleset: Ruleset, options: Mapping[str, str] | None = None) -> list[EdgeLine]:
    """One line: a euro staked against the bank or put in it, at the ruleset's cagnotte rate."""
    rate = ruleset.model_as(CheminDeFerRuleset).cagnotte.rate
    return [EdgeLine("stake", "", "punto", spot_edge(ruleset, "punto"), f"{percent_text(rate)} of the bank's winnings",
                     "the cagnotte: rate x the bank's chance to win (punto y banca's, an approximation) / 2, the "
                     "stakes and the bank in play being equal handles; the house plays no coup", ("cagnotte",),
                     exact=False)]



CALCULATION = EdgeCalculation(
    table=lambda r, o, d: edge_table(r, o),
    edge=lambda r, s, o, d: spot_edge(r, s, o),
    variance=lambda r, s, o, d: spot_variance(r, s, o),
)
"""This calculation in the shape every game's has (:class:`pitwatch.rules.spec.EdgeCalculation`)."""

__all__ = ["BANK_WINS", "SPOTS", "edge_table", "spot_edge", "spot_variance"]
