"""The house's edge at bacará a dos paños: its cagnotte on the bank's net win, not a wager.

The house plays no coup; it takes the modality's rate (``[cagnotte] limitada`` or ``libre``, the table
option ``bank``) of the bank's net win over both paños, when that is positive (000 L829; 004
L2748-L2752). Model: equal stakes ``s`` on each paño, each paño won by the bank with chemin de fer's
chance :data:`~pitwatch.rules.edges.chemin_de_fer.BANK_WINS`, tied with :data:`TIES`, independently of
the other. The net is positive when the bank wins both (2s) or wins one and ties the other (s):
E[net⁺] = 2s x b x (b + t); the handle is the stakes and the bank in play, 4s. Per euro of handle:
``rate`` x b x (b + t) / 2. An approximation it says: the two paños face the same bank hand (their
results are not independent), the holders choose on 5 and the banker is free on most totals.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Mapping

from pitwatch.rules.base import RuleError, Ruleset
from pitwatch.rules.edges.chemin_de_fer import BANK_WINS
from pitwatch.rules.edges.common import EdgeLine, percent_text
from pitwatch.rules.models.bacara_dos_panos import DosPanosRuleset
from pitwatch.rules.spec import EdgeCalculation

TIES = Fraction(952, 10000)
"""A paño's chance to tie the bank, punto y banca's (about 9.52% with six or eight decks)."""

SPOTS = ("pano1", "pano2", "a_caballo", "pano1_raya", "pano2_raya", "banco", "bank")


def _rate(ruleset: Ruleset, options: Mapping[str, str] | None) -> Decimal:
    m = ruleset.model_as(DosPanosRuleset)
    modality = (options or {}).get("bank", m.options.bank)
    if modality not in ("limitada", "libre"):
        raise RuleError(f"bank must be limitada or libre, not {modality!r}")
    return m.cagnotte.limitada if modality == "limitada" else m.cagnotte.libre


def spot_edge(ruleset: Ruleset, spot: str, options: Mapping[str, str] | None = None) -> Fraction:
    """The house's gain per euro of handle of a stake or of the bank: ``rate`` x b x (b + t) / 2 (module
    docstring). Raises ``RuleError`` for a spot of another game or a modality other than limitada/libre."""
    if spot not in SPOTS:
        raise RuleError(f"bacará a dos paños has no spot {spot!r}")
    return Fraction(_rate(ruleset, options)) * BANK_WINS * (BANK_WINS + TIES) / 2


def spot_variance(ruleset: Ruleset, spot: str, options: Mapping[str, str] | None = None) -> Fraction:
    """0: the cagnotte does not depend on which player wins. Raises as :func:`spot_edge`."""
    spot_edge(ruleset, spot, options)
    return Fraction(0)


def edge_table(ruleset: Ruleset, options: Mapping[str, str] | None = None) -> list[EdgeLine]:
    """One line: a euro staked against the bank or put in it, at the table's modality's cagnotte rate."""
    rate = _rate(ruleset, options)
    return [EdgeLine("stake", "", "pano1", spot_edge(ruleset, "pano1", options),
                     f"{percent_text(rate)} of the bank's net win over both paños",
                     "the cagnotte: rate x b x (b + t) / 2, b the bank's chance to win a paño and t to tie it (punto y "
                     "banca's), the paños taken as independent and equally staked, the stakes and the bank in play "
                     "equal handles; the house plays no coup", ("cagnotte_rate", "cagnotte_net"), exact=False)]



CALCULATION = EdgeCalculation(
    table=lambda r, o, d: edge_table(r, o),
    edge=lambda r, s, o, d: spot_edge(r, s, o),
    variance=lambda r, s, o, d: spot_variance(r, s, o),
)
"""This calculation in the shape every game's has (:class:`pitwatch.rules.spec.EdgeCalculation`)."""

__all__ = ["SPOTS", "TIES", "edge_table", "spot_edge", "spot_variance"]
