"""The model of a wheel of fortune ruleset (``wheel_of_fortune.<jurisdiction>.toml``).

The wheel is data: ``[symbols.<code>]`` gives each symbol's number of segments and its payout, and
``[wheel]`` the number of segments and how the wheel must be spun. Sources: Galicia
000_e1555249d49967be.txt L1053-L1097 («10. Ruleta de la fortuna»); Andalucía 004_5c9c19b250457762.txt
L5665-L5796 («I.1.11 Rueda de la fortuna»). Read by :mod:`pitwatch.rules.wheel_of_fortune.game` and
:mod:`pitwatch.rules.wheel_of_fortune.edges`.
"""

from __future__ import annotations

from typing import ClassVar, Literal, Self

from pydantic import Field, field_validator, model_validator

from pitwatch.rules.models.common import Count, Positive, Ratio, RulesetModel, RulesetOptions, Section, Switch
from pitwatch.rules.wheel_of_fortune.events import SYMBOLS


class WheelOfFortuneOptions(RulesetOptions):
    """The wheel of fortune has no table options (``[options]`` is empty): its limits are the table's
    ``min_bet`` and ``max_bet``."""


class WheelSymbol(Section):
    """``[symbols.<code>]``: one symbol of the wheel, the combination a bet on it plays."""

    segments: Positive
    """How many of the wheel's segments show the symbol (the «posiciones» of its combination: 000 L1085;
    004 L5735-L5748)."""
    payout: Ratio
    """Net winnings per euro staked when the wheel stops on the symbol (000 L1085; 004 L5731-L5748); the
    winner also keeps his stake (000 L1097; 004 L5788-L5791)."""


class Wheel(Section):
    """``[wheel]``: the wheel and how the croupier must spin it."""

    segments: Positive
    """Segments («celdas», «casillas») of the wheel: 54 (000 L1063; 004 L5697-L5699); the symbols' segments
    must add up to it."""
    direction: Literal["any", "clockwise"]
    """The way every impulse must turn the wheel, as seen by the players: ``"clockwise"`` where the text
    says so (004 L5756-L5760), ``"any"`` where it says nothing."""
    impulses: Positive
    """Impulses the croupier gives the wheel in a spin (``wheel_spun`` events): 1 (000 L1095), or 2 where a
    second impulse goes with «no va más» (004 L5762-L5765)."""
    min_turns: Count | None = None
    """Full turns the wheel must make after the last impulse, fewer making the spin void (004 L5769-L5772);
    not set where the text gives no number (000 L1095 «numerosas vueltas»)."""


class Procedure(Section):
    """``[procedure]``: the rules of the spin and of the payment beyond the wheel."""

    void_if_obstructed: Switch
    """Whether a spin whose free turning a person or an object hindered is void (004 L5778-L5782)."""
    pay_smallest_first: Switch
    """Whether the winning bets must be paid from the smallest stake to the largest (004 L5788-L5789)."""
    void_only_listed: Switch
    """Whether a spin may be void only in the cases the text lists (004 L5769-L5782: fewer turns than the
    minimum, the pointer on a pivot, an obstructed wheel): a spin voided although its stop gives a result is
    then a procedure violation."""


class WheelOfFortuneRuleset(RulesetModel):
    """A wheel of fortune ruleset: the common keys, ``[options]`` (empty), ``[wheel]``, one
    ``[symbols.<code>]`` table per symbol of the wheel, and ``[procedure]``."""

    GAME: ClassVar[str] = "wheel_of_fortune"
    CITATIONS: ClassVar[frozenset[str]] = frozenset({
        "wheel", "combinations", "payouts", "stake_returned", "limits", "bets_open", "no_more_bets",
        "wheel_spin", "wheel_result", "void_round",
    })
    CITATIONS_OPTIONAL: ClassVar[frozenset[str]] = frozenset({
        "wheel_direction", "wheel_turns", "void_pivot", "void_obstruction", "payment_order",
        "no_bets_during_payment",
    })

    game: Literal["wheel_of_fortune"]
    """Always ``wheel_of_fortune``."""
    options: WheelOfFortuneOptions
    """No table options."""
    wheel: Wheel
    """The wheel and its spin."""
    symbols: dict[str, WheelSymbol] = Field(min_length=2)
    """Symbol code (:data:`~pitwatch.rules.wheel_of_fortune.events.SYMBOLS`) -> its segments and payout, in
    the order of the text's combinations."""
    procedure: Procedure
    """Void spins and the order of payment."""

    @field_validator("symbols")
    @classmethod
    def _known_symbols(cls, value: dict[str, WheelSymbol]) -> dict[str, WheelSymbol]:
        unknown = sorted(set(value) - set(SYMBOLS))
        if unknown:
            raise ValueError(f"unknown symbol(s) {', '.join(map(repr, unknown))} (known: {', '.join(SYMBOLS)})")
        return value

    @model_validator(mode="after")
    def _the_wheel_adds_up(self) -> Self:
        total = sum(s.segments for s in self.symbols.values())
        if total != self.wheel.segments:
            raise ValueError(f"the symbols' segments add up to {total}, not the wheel's {self.wheel.segments}")
        if self.wheel.direction == "clockwise" and "wheel_direction" not in self.citations:
            raise ValueError("wheel.direction 'clockwise' needs citation 'wheel_direction'")
        if self.wheel.min_turns is not None and "wheel_turns" not in self.citations:
            raise ValueError("wheel.min_turns needs citation 'wheel_turns'")
        if self.procedure.void_if_obstructed and "void_obstruction" not in self.citations:
            raise ValueError("procedure.void_if_obstructed needs citation 'void_obstruction'")
        if self.procedure.pay_smallest_first and "payment_order" not in self.citations:
            raise ValueError("procedure.pay_smallest_first needs citation 'payment_order'")
        return self


__all__ = ["Procedure", "Wheel", "WheelOfFortuneOptions", "WheelOfFortuneRuleset", "WheelSymbol"]
