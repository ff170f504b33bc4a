"""What a game family tells pitwatch about itself: :class:`GameSpec`, one per game (its ``SPEC``).

A game's spec module (named by its :class:`pitwatch.catalogue.GameEntry`) defines ``SPEC``; the
registry (:mod:`pitwatch.rules.registry`) loads it, and everything that needs a per-game fact reads it
there: the engine (the round class, the «No va más» citation), the ruleset loader (the model), the house
edges, the docs (the title, what cites each ruleset key), the reports and dashboards (the names, whether
players play against each other), the simulator (its module). Nothing else keeps a list of games.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Callable, Mapping

if TYPE_CHECKING:
    from pitwatch.rules.base import Ruleset
    from pitwatch.rules.edges.common import EdgeLine
    from pitwatch.rules.game import GameRound
    from pitwatch.rules.models.common import RulesetModel

Options = Mapping[str, str] | None


@dataclass(frozen=True)
class EdgeCalculation:
    """A game's house-edge calculation (:mod:`pitwatch.rules.edges`), one signature for every game.

    ``table(ruleset, options, decks)``: one :class:`~pitwatch.rules.edges.common.EdgeLine` per bet
    kind; ``edge(ruleset, spot, options, decks)``: the house's expected gain per unit of initial
    stake on ``spot`` (a ``Fraction``); ``variance(ruleset, spot, options, decks)``: the variance of
    the player's net result per unit staked, squared. ``options`` are the table's options
    (``table_opened.options``), ``decks`` overrides a shoe game's number of decks (``None``: the
    ruleset's). Each raises :class:`~pitwatch.rules.base.RuleError` for a spot not on the layout or
    an invalid option."""

    table: Callable[["Ruleset", Options, int | None], list["EdgeLine"]]
    edge: Callable[["Ruleset", str, Options, int | None], Fraction]
    variance: Callable[["Ruleset", str, Options, int | None], Fraction]


@dataclass(frozen=True)
class Gap:
    """A part of a game's section of the law that the engine does not judge: ``what`` (one line of
    English) and ``citation`` (its lines in short form, seed code then ranges, ``"004 L807-L848"`` or
    ``"000 L777, L783"``; read by :func:`pitwatch.docs.coverage.ranges`)."""

    what: str
    citation: str


@dataclass(frozen=True)
class GameSpec:
    """Everything pitwatch needs to know about one game family.

    ``game``: the game id (catalogue, events, rulesets). ``round``: its
    :class:`~pitwatch.rules.game.GameRound` subclass. ``model``: the pydantic model of its rulesets
    (:class:`~pitwatch.rules.models.common.RulesetModel` subclass, ``GAME`` equal to ``game``).
    ``edges``: the module of its house-edge calculation (a dotted name; the module's ``CALCULATION``
    is an :class:`EdgeCalculation`, read by :meth:`edge_calculation`), or ``None`` (no theoretical
    win: the engine counts 0). ``title``: its name in the headings of the docs (English text, the game's own name);
    ``names``: ``(Spanish, English)`` for the reports and dashboards. ``simulator``: the module of
    :mod:`pitwatch.sim` that plays its tables (a dotted name: the rules never import the simulator).
    ``peer``: the players play against each other and the house takes a rake, fee or cagnotte, with
    no wager of its own (no theoretical win, σ or band in the figures). ``no_more_bets``: the
    ruleset citation key of its «No va más» (past-posting). ``cited_by``: ruleset key path (or a
    section's path) -> the ruleset's ``[citations]`` keys explaining it, for the generated docs.
    ``baccarat_hands``: the round's outcome names a punto and a banca (the replay's formatting).
    ``not_checked``: jurisdiction (a ruleset's ``<jurisdiction>``, ``"galicia"``) -> the parts of the
    game's section in that jurisdiction's text the engine does not judge, as :class:`Gap` (from the
    rulesets' ``[[ambiguities]]``, the game's modules and the seed); ``()`` says the section was
    reviewed and nothing is left out, a jurisdiction absent says it has not been reviewed yet. The
    tables, cards, wheels and staff a section describes are not events and are never listed; nor is
    what the watch stage checks across hands and tables. The coverage matrix
    (:mod:`pitwatch.docs.coverage`) reads it for the game's rows."""

    game: str
    round: type["GameRound"]
    model: type["RulesetModel"]
    title: str
    names: tuple[str, str]
    simulator: str
    edges: str | None = None
    peer: bool = False
    no_more_bets: str = "no_more_bets"
    cited_by: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    baccarat_hands: bool = False
    not_checked: Mapping[str, tuple[Gap, ...]] = field(default_factory=dict)

    def edge_calculation(self) -> EdgeCalculation | None:
        """The game's :class:`EdgeCalculation` (its ``edges`` module imported on first use), or
        ``None`` for a game without one. Raises ``TypeError`` if that module has no ``CALCULATION``."""
        if self.edges is None:
            return None
        calc = getattr(importlib.import_module(self.edges), "CALCULATION", None)
        if not isinstance(calc, EdgeCalculation):
            raise TypeError(f"{self.edges}.CALCULATION is not an EdgeCalculation")
        return calc

    def __post_init__(self) -> None:
        if self.round.game != self.game:
            raise ValueError(f"spec of {self.game!r}: its round class {self.round.__name__} plays "
                             f"{self.round.game!r}")
        if self.model.GAME != self.game:
            raise ValueError(f"spec of {self.game!r}: its ruleset model {self.model.__name__} is for "
                             f"{self.model.GAME!r}")


__all__ = ["EdgeCalculation", "Gap", "GameSpec"]
