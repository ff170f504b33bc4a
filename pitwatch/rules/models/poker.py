"""The model of a póquer en círculo ruleset (``poker.<jurisdiction>.toml``).

Source: Andalucía ``004_5c9c19b250457762.txt`` I.1.10, the general rules L4149-L4824 and the
variants after them (hold'em L5442-L5473, Omaha L5234-L5350). Read by :mod:`pitwatch.rules.poker.game`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar, Literal

from pydantic import Field, field_validator

from pitwatch.rules.models.common import Count, Positive, Ratio, RulesetModel, RulesetOptions, Section, decimal_text

Structure = Literal["no_limit", "pot_limit", "fixed_limit"]


class PokerOptions(RulesetOptions):
    """Defaults of the poker table options (``[options]``): which variant and betting structure the
    table plays and the rake rate announced before the game."""

    variant: str
    """A key of ``[variants]`` (``holdem``, ``omaha``)."""
    structure: Structure
    """``no_limit`` («bote sin límite»), ``pot_limit`` («bote con límite») or ``fixed_limit`` («limitado»)
    (004 L4382-L4407, VII.1)."""
    rake_rate: str
    """The share of each hand's pots the house puts in the «cagnotte», fixed by the casino within the
    ruleset's ``[revenue] max_rake_rate`` and announced before the game (004 L4082-L4088, II.4.a)."""
    @field_validator("rake_rate")
    @classmethod
    def _decimal(cls, value: str) -> str:
        return decimal_text(value, "a decimal number")


class PokerVariant(Section):
    """One variant: how many hole cards each player gets, the board's streets and how a hand is made."""

    hole_cards: Positive
    """Cards dealt to each player (hold'em 2, Omaha 4)."""
    streets: tuple[Positive, ...] = Field(min_length=1)
    """Community cards turned at each street after the first betting interval (hold'em and Omaha:
    3, 1, 1: the flop, the turn and the river)."""
    hand: Literal["any_five", "two_plus_three"]
    """``any_five``: the best five of the hole cards and the board (hold'em, 004 L5442-L5451);
    ``two_plus_three``: exactly two hole cards and three of the board (Omaha, 004 L5240-L5245)."""


class PokerForcedBets(Section):
    """``[forced_bets]`` (004 L4425-L4448, VIII)."""

    small_blind: Ratio
    """The «mano»'s blind as a fraction of the table minimum: one half (004 L4440-L4445)."""
    big_blind: Ratio
    """The next player's blind as a fraction of the table minimum: one (004 L4440-L4445)."""
    ante_max_fraction: Ratio
    """The most an ante may be, as a fraction of the table minimum: one half (004 L4433-L4436)."""


class PokerBetting(Section):
    """``[betting]``: the raise rules (004 L4382-L4423, VII)."""

    raise_multiple: Ratio
    """A raise takes the bet to at least this multiple of the highest bet: 2 (004 L4417-L4420, L4529-L4533)."""
    fixed_limit_raises: Count
    """Raises an interval allows at fixed limit, unless two players are left: 3 (004 L4384-L4388)."""
    fixed_limit_low_streets: Count
    """Intervals whose fixed-limit increment is the table minimum (the first two); after them it is
    twice the minimum (004 L4388-L4390)."""


class PokerRevenue(Section):
    """``[revenue]``: the house's benefit (004 L4077-L4101, II.4)."""

    max_rake_rate: Ratio
    """The most the house may take of each hand's money: 0.05 (004 L4082-L4088)."""


class PokerRuleset(RulesetModel):
    """A póquer en círculo ruleset: the common keys, ``[variants]``, ``[forced_bets]``, ``[betting]``,
    ``[revenue]`` and ``[options]``."""

    GAME: ClassVar[str] = "poker"
    CITATIONS: ClassVar[frozenset[str]] = frozenset({
        "marca", "seats", "forced_bets", "ante", "blinds", "blind_option", "turn", "fold", "check", "call",
        "bet", "raise", "all_in", "pot_limit", "fixed_limit", "no_limit", "side_pots", "uncontested",
        "showdown", "cards_speak", "muck", "split_pot", "rake", "premature_board", "void_round",
        "no_more_bets", "holdem", "omaha", "prohibited_add_chips", "prohibited_loans", "prohibited_rathole",
        "prohibited_show", "prohibited_seats",
    })

    game: Literal["poker"]
    """Always ``poker``."""
    variants: dict[str, PokerVariant] = Field(min_length=1)
    """The variants the ruleset knows, by the name ``[options] variant`` gives."""
    forced_bets: PokerForcedBets
    """The blinds and the ante."""
    betting: PokerBetting
    """The raise rules."""
    revenue: PokerRevenue
    """The house's benefit."""
    options: PokerOptions
    """Defaults of the table options (``table_opened.options`` override them)."""

    @field_validator("revenue")
    @classmethod
    def _at_most_the_law(cls, value: PokerRevenue) -> PokerRevenue:
        if value.max_rake_rate > Decimal("0.05"):
            raise ValueError(f"max_rake_rate {value.max_rake_rate} is above the 5 per 100 of 004 L4082-L4088")
        return value


__all__ = ["PokerBetting", "PokerForcedBets", "PokerOptions", "PokerRevenue", "PokerRuleset", "PokerVariant",
           "Structure"]
