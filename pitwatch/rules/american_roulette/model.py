"""The model of an American roulette ruleset (``american_roulette.<jurisdiction>.toml``).

Sources: Galicia ``000_e1555249d49967be.txt`` L195-L233 («02. Ruleta americana»); Andalucía
``004_5c9c19b250457762.txt`` L456-L569 («I.1.2. Ruleta americana con un solo cero»). Both refer to French
roulette for everything they do not change (000 L199; 004 L459-L464): the payouts and the maxima per bet kind
are French roulette's sections (:class:`~pitwatch.rules.models.roulette.RoulettePayouts`,
:class:`~pitwatch.rules.models.roulette.RouletteLimits`). Read by :mod:`pitwatch.rules.american_roulette.game`.
"""

from __future__ import annotations

from typing import ClassVar, Literal, Self

from pydantic import Field, field_validator, model_validator

from pitwatch.rules.models.common import Ratio, RulesetModel, RulesetOptions, Section, Switch, decimal_text
from pitwatch.rules.models.roulette import KIND_NAMES, RouletteLimits, RoulettePayouts, check_limit_options


class AmericanOptions(RulesetOptions):
    """Defaults of the American roulette table options (``[options]``)."""

    max_tier: Literal["1", "2", "3"]
    """Which of the three alternative maxima applies: "1" (10x the minimum on a straight-up ... 180x on simple
    chances), "2" or "3". 000 L231; 004 L338-L352."""
    simple_chance_min_multiple: str
    """Simple-chance minimum as a multiple of the authorised minimum, from 1 to
    ``limits.simple_chance_min_multiple_max``. 000 L229; 004 L340-L344."""
    max_rule: Literal["tiers", "authorisation"]
    """"tiers": every kind's maximum is its ``limits.max_multiples`` row x the table minimum (000 L231;
    004 L338-L352); "authorisation": the table's ``max_bet`` (004 L328-L336, needs ``limit_authorisation``)."""

    @field_validator("simple_chance_min_multiple")
    @classmethod
    def _a_number(cls, value: str) -> str:
        return decimal_text(value, "a number")


class AmericanZero(Section):
    """``[zero]``: what a zero does to a simple chance (no prison, no choice)."""

    simple_lost_fraction: Ratio = Field(gt=0, lt=1)
    """Share of a simple-chance stake the house keeps when the zero comes out; the player recovers the rest:
    0.5 (000 L225 «se pierde la mitad de la apuesta y se recupera la otra mitad»; 004 L543-L545)."""


class AmericanColours(Section):
    """``[colours]``: the colour chips, whose value each player sets with a marker (000 L207-L209, L227;
    004 L477-L496, L554-L559)."""

    default_value: Literal["table_minimum"]
    """Value of a colour chip whose player set no value: the table minimum (000 L227 «cada una de sus fichas
    representa el mínimo de la postura de la mesa»; 004 L557-L559)."""
    value_maximum_kind: Literal["straight"]
    """The bet kind whose maximum caps a colour's value: a straight-up («del mínimo al máximo ... sobre un
    número entero», 000 L227; 004 L554-L557)."""
    payable_with_minimum: Switch
    """Whether a bet's winnings must be payable in chips of the table minimum (whole multiples of it): true
    in Andalucía (004 L561-L562 «Solo se podrán realizar apuestas por un valor que permita su pago con el
    mínimo de la mesa»), false in Galicia (no such clause, 000 L195-L233)."""


class AmericanRouletteRuleset(RulesetModel):
    """An American roulette ruleset: the common keys, ``[options]``, ``[payouts]`` (French roulette's),
    ``[limits]`` (French roulette's, with ``[limits.max_multiples]``), ``[zero]`` and ``[colours]``."""

    GAME: ClassVar[str] = "american_roulette"
    CITATIONS: ClassVar[frozenset[str]] = frozenset({
        "same_principles", "no_more_bets", "void_round", "colours", "layout", "one_side", "result",
        "spin_direction", *(f"payout_{k}" for k in KIND_NAMES), "payout_street_zero", "payout_corner_zero",
        "zero_half", "colour_chips", "colour_value", "colour_default",
        "limit_minimum", "limit_simple_minimum", "limit_simple", "limit_multiple", "limits_change",
    })
    CITATIONS_OPTIONAL: ClassVar[frozenset[str]] = frozenset({"limit_authorisation", "payable_with_minimum",
                                                           "payment_order"})

    game: Literal["american_roulette"]
    """Always ``american_roulette``."""
    options: AmericanOptions
    """Defaults of the table options (``table_opened.options`` override them)."""
    payouts: RoulettePayouts
    """Net winnings per euro staked, per bet kind (French roulette's: 000 L199; 004 L531-L543)."""
    limits: RouletteLimits
    """Limits per bet kind."""
    zero: AmericanZero
    """The zero rule for simple chances."""
    colours: AmericanColours
    """The colour chips."""

    @model_validator(mode="after")
    def _options_within_the_law(self) -> Self:
        check_limit_options(self.options, self.limits, self.citations)
        if self.colours.payable_with_minimum and "payable_with_minimum" not in self.citations:
            raise ValueError("colours.payable_with_minimum needs citation 'payable_with_minimum'")
        return self


__all__ = ["AmericanColours", "AmericanOptions", "AmericanRouletteRuleset", "AmericanZero"]
