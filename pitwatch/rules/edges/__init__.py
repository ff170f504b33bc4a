"""House edges of every bet kind of a ruleset, computed from the ruleset, and theoretical win.

The casino's accounting measure of what a table should earn is its *theoretical win*: the sum over
bets of stake x the bet's house edge. Here each edge is computed from the ruleset's own data (payout
table, zero rule, deduction, drawing tableau, shoe, blackjack rules), never a constant: a ruleset
version with another payout has another edge.

- :func:`house_edge` ``(ruleset, spot)``: the edge of a bet on one spot code, a ``Fraction`` of the
  initial stake (straight-up 35:1 on a 37-pocket wheel: 1/37);
- :func:`edge_table` ``(ruleset)``: one :class:`EdgeLine` per bet kind (what ``pitwatch rulesets edges
  RULESET`` prints);
- :func:`theoretical_win` ``(ruleset, spot, stake)``: stake x edge in euros, 4 decimal places;
- :func:`bet_variance` ``(ruleset, spot)``: the variance of a bet's net result per unit of stake
  squared (straight-up: 46656/1369, σ ≈ 5.84; banca ≈ 0.93²), and :func:`theoretical_variance`
  ``(ruleset, spot, stake)``: stake² x that in euros², 4 decimal places. Bets are independent, so
  a table's variance is the sum of its bets', and its 95% band is theoretical win ± 1.96 σ.

Per game: :mod:`pitwatch.rules.edges.roulette` (exact fractions over the 37 pockets, en prison and
half back), :mod:`pitwatch.rules.edges.baccarat` (exact, every deal of the shoe),
:mod:`pitwatch.rules.edges.blackjack` (optimal play, an approximation it documents; insurance exact),
:mod:`pitwatch.rules.edges.poker` (the rake rate: the house plays no hand),
:mod:`pitwatch.rules.edges.chemin_de_fer` and :mod:`pitwatch.rules.edges.dos_panos` (the cagnotte, an
approximation).
Pure: no I/O, no clock, no randomness; results are cached per ruleset version (id and content hash).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Mapping

from pitwatch.rules.base import RuleError, Ruleset
from pitwatch.rules.edges.common import EdgeLine, quantize
from pitwatch.rules.registry import spec
from pitwatch.rules.spec import EdgeCalculation

WIN_PLACES = 4
"""Decimal places of :func:`theoretical_win` (euros to the hundredth of a cent)."""


def _calculation(ruleset: Ruleset) -> EdgeCalculation:
    """The house-edge calculation of the ruleset's game (its spec's, :mod:`pitwatch.rules.registry`).
    Raises ``RuleError`` for a game without one."""
    calc = spec(ruleset.game).edge_calculation()
    if calc is None:
        raise RuleError(f"no house edge calculation for game {ruleset.game!r} (ruleset {ruleset.id})")
    return calc


def edge_table(ruleset: Ruleset, *, options: Mapping[str, str] | None = None, decks: int | None = None) -> list[EdgeLine]:
    """One :class:`EdgeLine` per bet kind of ``ruleset``.

    ``options`` are table options as in ``table_opened.options`` (roulette: ``zero_default``, which
    decides the simple chances' default line); ``decks`` overrides the shoe of punto y banca and
    blackjack (default: the ruleset's; punto y banca rulesets without one assume
    :data:`~pitwatch.rules.edges.baccarat.ASSUMED_DECKS`). Raises ``RuleError`` for a game without a
    calculation, an invalid option or fewer than one deck.
    """
    return _calculation(ruleset).table(ruleset, options, decks)


def house_edge(ruleset: Ruleset, spot: str, *, options: Mapping[str, str] | None = None,
               decks: int | None = None) -> Fraction:
    """House edge of a bet on ``spot`` under ``ruleset``: the house's expected gain per unit of initial
    stake (1/37 for a straight-up paid 35:1 on 37 pockets).

    ``spot`` is a canonical spot code of the game (roulette ``straight:17``, ``split:17-20``, ``red``...;
    punto y banca ``punto``, ``banca``, ``tie``; blackjack ``main``, or ``insurance`` per unit insured).
    ``options`` and ``decks`` as in :func:`edge_table`. Raises ``RuleError`` (a ``ValueError``) naming
    the problem for a spot not on the ruleset's layout.
    """
    return _per_game(ruleset, spot, options, decks, variance=False)


def _per_game(ruleset: Ruleset, spot: str, options: Mapping[str, str] | None, decks: int | None, *,
              variance: bool) -> Fraction:
    """The edge (or the variance) of ``spot`` from the calculation of the ruleset's game."""
    calc = _calculation(ruleset)
    return (calc.variance if variance else calc.edge)(ruleset, spot, options, decks)


def bet_variance(ruleset: Ruleset, spot: str, *, options: Mapping[str, str] | None = None,
                 decks: int | None = None) -> Fraction:
    """Variance of the player's net result of a bet on ``spot`` per unit of initial stake, squared:
    roulette and punto y banca exact under the same model as :func:`house_edge`, blackjack's main bet
    an approximation from a published simulation (:func:`pitwatch.rules.edges.blackjack.main_variance`).
    Arguments and errors as :func:`house_edge`."""
    return _per_game(ruleset, spot, options, decks, variance=True)


def theoretical_variance(ruleset: Ruleset, spot: str, stake: Decimal, *, options: Mapping[str, str] | None = None,
                         decks: int | None = None) -> Decimal:
    """Variance of one bet's result in euros²: ``stake``² x :func:`bet_variance`, rounded to
    :data:`WIN_PLACES` places half to even (``Decimal("10.00")`` on ``straight:17`` paid 35:1 ->
    ``Decimal("3408.0351")``). Raises ``RuleError`` as :func:`house_edge`, and for a negative stake."""
    if stake < 0:
        raise RuleError(f"a stake cannot be negative ({stake} EUR)")
    return quantize(Fraction(stake) ** 2 * bet_variance(ruleset, spot, options=options, decks=decks), WIN_PLACES)


def theoretical_win(ruleset: Ruleset, spot: str, stake: Decimal, *, options: Mapping[str, str] | None = None,
                    decks: int | None = None) -> Decimal:
    """Theoretical win of one bet: ``stake`` (euros, the initial stake: doubles, splits and en-prison
    releases are inside the edge) x :func:`house_edge` of ``spot``, rounded to :data:`WIN_PLACES`
    decimal places half to even (exactly: the product is a rational number). ``Decimal("10.00")`` on
    ``straight:17`` paid 35:1 -> 10/37 -> ``Decimal("0.2703")``. Raises ``RuleError`` as
    :func:`house_edge`, and for a negative stake."""
    if stake < 0:
        raise RuleError(f"a stake cannot be negative ({stake} EUR)")
    return quantize(Fraction(stake) * house_edge(ruleset, spot, options=options, decks=decks), WIN_PLACES)


__all__ = ["WIN_PLACES", "EdgeLine", "bet_variance", "edge_table", "house_edge", "theoretical_variance",
           "theoretical_win"]
