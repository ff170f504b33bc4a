"""The model of a ruleta francesa abreviada ruleset (``french_roulette_abreviada.<jurisdiction>.toml``).

Source: Andalucía ``004_5c9c19b250457762.txt`` L441-L454 («I.1.1.B Ruleta francesa abreviada»): the same
elements and rules as the ordinary French roulette of I.1.1.A (004 L109-L439), whose model
(:class:`pitwatch.rules.models.roulette.RouletteRuleset`) this one extends, so that French roulette's
round reads it unchanged. What the abbreviated layout lacks («carecerá de lugares para colocar las
apuestas sencillas, docenas y columnas», 004 L447-L450) is left out of the file: the payouts and maxima of
the columns, dozens, two columns, two dozens and simple chances, the simple-chance minimum and the zero
rule («en prison» / half back), which concerns only the simple chances (004 L304-L324). Read by
:mod:`pitwatch.rules.french_roulette_abreviada.game`.
"""

from __future__ import annotations

from typing import ClassVar, Literal, Self

from pydantic import model_validator

from pitwatch.rules.models.common import Ratio
from pitwatch.rules.models.roulette import (
    KIND_NAMES,
    RouletteLimits,
    RouletteMaxMultiples,
    RouletteOptions,
    RoulettePayouts,
    RouletteRuleset,
    RouletteZero,
    Tiers,
)

GAME = "french_roulette_abreviada"
"""The game id (events' ``game``, rulesets' ``game`` key)."""

ALLOWED_KINDS: tuple[str, ...] = ("straight", "split", "street", "corner", "sixline")
"""The bet kinds of the abbreviated layout, French roulette's names (:data:`KIND_NAMES`): pleno, caballo,
fila transversal, cuadro (with «cuatro primeros», 0-1-2-3) and seisena (004 L452-L454)."""

ABSENT_KINDS: tuple[str, ...] = tuple(k for k in KIND_NAMES if k not in ALLOWED_KINDS)
"""French roulette's bet kinds the abbreviated layout has no place for: column, dozen, two columns, two
dozens, simple chances (004 L447-L450)."""

_NOT_HERE = "not on the abbreviated layout"


def _left_out(section: object, names: tuple[str, ...], where: str) -> None:
    """``ValueError`` naming every key of ``names`` (prefixed ``where``) that ``section`` sets: they must be left
    out."""
    given = [n for n in names if getattr(section, n) is not None]
    if given:
        raise ValueError(f"{', '.join(f'{where}{n}' for n in given)}: {_NOT_HERE} (004 L447-L454); "
                         "leave the key out")


class AbreviadaOptions(RouletteOptions):
    """Defaults of the table options (``[options]``): French roulette's ``max_tier`` and ``max_rule``;
    the simple-chance options are left out."""

    max_tier: Literal["1", "2", "3"]
    """Which of the three alternative maxima of the multiple bets applies: "1" (10x the minimum on a
    straight-up ... 60x on a sixline), "2" (20x ... 120x) or "3" (30x ... 180x). 004 L346-L352."""
    simple_chance_min_multiple: str | None = None  # type: ignore[assignment]
    """Left out: the abbreviated layout has no simple chances (004 L447-L450)."""
    zero_default: Literal["en_prison", "half_back"] | None = None  # type: ignore[assignment]
    """Left out: the zero rule concerns only the simple chances, which the abbreviated layout lacks
    (004 L447-L450)."""


class AbreviadaPayouts(RoulettePayouts):
    """Net winnings per euro staked of each bet kind of the abbreviated layout; the winner keeps the stake
    (004 L217-L219). The kinds it lacks are left out (``ratio`` raises ``KeyError`` for them)."""

    column: Ratio | None = None  # type: ignore[assignment]
    """Left out: no place for the columns (004 L447-L450)."""
    dozen: Ratio | None = None  # type: ignore[assignment]
    """Left out: no place for the dozens (004 L447-L450)."""
    columns: Ratio | None = None  # type: ignore[assignment]
    """Left out: two columns are played on the columns' places (004 L447-L450)."""
    dozens: Ratio | None = None  # type: ignore[assignment]
    """Left out: two dozens are played on the dozens' places (004 L447-L450)."""
    simple: Ratio | None = None  # type: ignore[assignment]
    """Left out: no place for the simple chances (004 L447-L450)."""

    @model_validator(mode="after")
    def _only_the_layout(self) -> Self:
        _left_out(self, ABSENT_KINDS, "payouts.")
        return self


class AbreviadaMaxMultiples(RouletteMaxMultiples):
    """``[limits.max_multiples]``: each kind's maximum as multiples of the table minimum, tiers 1-3, as in
    I.1.1.A (004 L346-L352); the kinds the layout lacks are left out (``of`` raises ``KeyError`` for them)."""

    column: Tiers | None = None  # type: ignore[assignment]
    """Left out (004 L447-L450)."""
    dozen: Tiers | None = None  # type: ignore[assignment]
    """Left out (004 L447-L450)."""
    columns: Tiers | None = None  # type: ignore[assignment]
    """Left out (004 L447-L450)."""
    dozens: Tiers | None = None  # type: ignore[assignment]
    """Left out (004 L447-L450)."""
    simple: Tiers | None = None  # type: ignore[assignment]
    """Left out (004 L447-L450)."""

    @model_validator(mode="after")
    def _only_the_layout(self) -> Self:
        _left_out(self, ABSENT_KINDS, "limits.max_multiples.")
        return self

    def of(self, kind: str) -> Tiers:
        """The three tiers of bet ``kind`` (one of :data:`ALLOWED_KINDS`); ``KeyError`` otherwise."""
        if kind not in ALLOWED_KINDS:
            raise KeyError(f"no maximum for bet kind {kind!r}: {_NOT_HERE}")
        return super().of(kind)


class AbreviadaLimits(RouletteLimits):
    """``[limits]``: French roulette's, without the simple-chance minimum."""

    simple_chance_min_multiple_max: Ratio | None = None  # type: ignore[assignment]
    """Left out: no simple chances (004 L447-L450)."""
    max_multiples: AbreviadaMaxMultiples
    """Maxima per bet kind and tier."""


class AbreviadaRuleset(RouletteRuleset):
    """A ruleta francesa abreviada ruleset: French roulette's keys (004 L441-L446 «los mismos elementos
    de juego, personal y normas de funcionamiento»), without those of the bets the layout lacks and without
    the zero rule of the simple chances (004 L447-L454)."""

    GAME: ClassVar[str] = GAME
    CITATIONS: ClassVar[frozenset[str]] = frozenset({
        "no_more_bets", "void_round", "colours", "layout", "result", "spin_direction",
        *(f"payout_{k}" for k in ALLOWED_KINDS), "payout_street_zero", "payout_corner_zero",
        "limit_minimum", "limit_multiple", "limits_change", "abbreviated_rules", "abbreviated_layout",
    })
    CITATIONS_OPTIONAL: ClassVar[frozenset[str]] = frozenset({"limit_authorisation"})

    game: Literal["french_roulette_abreviada"]  # type: ignore[assignment]
    """Always ``french_roulette_abreviada``."""
    options: AbreviadaOptions
    """Defaults of the table options (``table_opened.options`` override them)."""
    payouts: AbreviadaPayouts
    """Net winnings per euro staked, per bet kind of the layout."""
    limits: AbreviadaLimits
    """Limits per bet kind of the layout."""
    zero: RouletteZero | None = None  # type: ignore[assignment]
    """Left out: the zero rule («en prison», half back) concerns only the simple chances (004 L304-L324),
    which the abbreviated layout lacks (004 L447-L450)."""

    @model_validator(mode="after")
    def _options_within_the_law(self) -> Self:
        """Replaces French roulette's check (the simple-chance minimum, absent here): the simple-chance
        options and the zero rule are left out, and ``max_rule = "authorisation"`` needs its citation."""
        _left_out(self.options, ("simple_chance_min_multiple", "zero_default"), "options.")
        _left_out(self.limits, ("simple_chance_min_multiple_max",), "limits.")
        _left_out(self, ("zero",), "")
        if self.options.max_rule == "authorisation" and "limit_authorisation" not in self.citations:
            raise ValueError("options.max_rule 'authorisation' needs citation 'limit_authorisation'")
        return self


__all__ = ["ABSENT_KINDS", "ALLOWED_KINDS", "GAME", "AbreviadaLimits", "AbreviadaMaxMultiples", "AbreviadaOptions",
           "AbreviadaPayouts", "AbreviadaRuleset"]
