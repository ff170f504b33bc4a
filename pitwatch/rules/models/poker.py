"""The model of a póquer en círculo ruleset (``poker.<jurisdiction>.toml``).

Source: Andalucía ``004_5c9c19b250457762.txt`` I.1.10, the general rules L4149-L4824 and the
variants after them (five-card draw L4824-L4967, seven-card stud L4969-L5185, Omaha L5234-L5350,
hold'em L5442-L5473). Read by :mod:`pitwatch.rules.poker.game`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar, Literal, Self

from pydantic import Field, field_validator, model_validator

from pitwatch.rules.models.common import Count, Positive, Ratio, RulesetModel, RulesetOptions, Section, decimal_text

Structure = Literal["no_limit", "pot_limit", "fixed_limit"]
Revenue = Literal["rake", "session_rate", "session_fee"]


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
    revenue: Revenue
    """Which of the three forms of the house's benefit the table takes (004 L4077-L4101, II.4):
    ``rake`` (a), ``session_rate`` (b: a percentage per player and session) or ``session_fee`` (c: a
    fixed amount per player and session)."""
    session_rate: str
    """Form b: the casino's percentage of ``session_base``, within ``[revenue]`` 0.10..0.20; empty
    when the table does not take it (004 L4090-L4092, II.4.b)."""
    session_base: Literal["max_bet", "initial_stack"]
    """Form b: the percentage is of the table's maximum bet or of the initial stack, as the casino
    decides (004 L4090-L4092, II.4.b)."""
    initial_stack: str
    """The «resto inicial» the casino fixes, in euros (004 L4375-L4380, VII.1); empty if not given."""
    session_fee: str
    """Form c: the fixed amount per player and session, in euros; empty when the table does not take
    it (004 L4099-L4101, II.4.c)."""

    @field_validator("rake_rate")
    @classmethod
    def _decimal(cls, value: str) -> str:
        return decimal_text(value, "a decimal number")

    @field_validator("session_rate", "initial_stack", "session_fee")
    @classmethod
    def _decimal_or_empty(cls, value: str) -> str:
        return value if value == "" else decimal_text(value, "a decimal number or empty")


class PokerVariant(Section):
    """One variant: how the cards are dealt (a board, stud's up and down cards, or a draw), who opens
    each betting interval and how a hand is made."""

    family: Literal["board", "stud", "draw"] = "board"
    """``board``: hole cards and community cards (hold'em, Omaha); ``stud``: each player's own cards,
    some face up (seven-card stud); ``draw``: five face-down cards and a discard (five-card draw)."""
    hole_cards: Positive
    """Cards each player holds: dealt at the start (hold'em 2, Omaha 4, draw 5) or in all (stud 7)."""
    streets: tuple[Positive, ...] = ()
    """Board variants: community cards turned at each street after the first betting interval
    (hold'em and Omaha: 3, 1, 1: the flop, the turn and the river)."""
    deal: tuple[str, ...] = ()
    """Stud: the cards each player gets at each street, ``d`` face down and ``u`` face up, one
    betting interval after each (seven-card stud: ``ddu``, ``u``, ``u``, ``u``, ``d``)."""
    hand: Literal["any_five", "two_plus_three", "five_with_figuras"]
    """``any_five``: the best five of the player's cards and the board (hold'em, 004 L5442-L5451; stud,
    five of the seven, 004 L4974-L4981); ``two_plus_three``: exactly two hole cards and three of the
    board (Omaha, 004 L5240-L5245); ``five_with_figuras``: the five cards held, «figuras» (five of A,
    K, Q, J) ranked between «trío» and «doble pareja» (draw, 004 L4310-L4312)."""
    players: tuple[Positive, Positive] = (2, 10)
    """The fewest and the most players a hand of the variant is dealt to (stud: 4 to 8, 004 L4974-L4977)."""
    first_opener: Literal["position", "lowest_up_card"] = "position"
    """Who opens the first interval: ``position`` (after the big blind, or the first seat after the
    marca) or ``lowest_up_card`` (stud's bring-in, 004 L5009-L5017)."""
    later_opener: Literal["position", "best_up_cards", "opener"] = "position"
    """Who opens each later interval: ``position`` (the first live seat after the marca),
    ``best_up_cards`` (stud: the best hand showing, 004 L5019-L5031) or ``opener`` (draw: whoever
    opened the pot, 004 L4916-L4919)."""
    suits: str = ""
    """Stud: the suits from highest to lowest, to break a tie of up cards («Picas, Corazones,
    Diamantes y Tréboles»: ``SHDC``, 004 L5015-L5017)."""
    opening_pair: str = ""
    """Draw: the lowest pair that may open the pot (a rank: ``J``, 004 L4846-L4848); empty: any hand."""
    max_discard: Count = 0
    """Draw: the most cards a player may change (all five: «de uno o más naipes» so that he has
    «cinco», 004 L4875-L4884); 0 for the variants without a draw."""

    @model_validator(mode="after")
    def _family_keys(self) -> Self:
        need = {"board": ("streets",), "stud": ("deal", "suits"), "draw": ("max_discard",)}[self.family]
        missing = [k for k in need if not getattr(self, k)]
        if missing:
            raise ValueError(f"a {self.family} variant needs {', '.join(missing)}")
        if self.family == "stud" and sum(len(d) for d in self.deal) != self.hole_cards:
            raise ValueError(f"the stud deal {self.deal} does not add up to {self.hole_cards} cards")
        if any(set(d) - {"d", "u"} for d in self.deal) or sorted(self.suits) not in ([], sorted("CDHS")):
            raise ValueError("deal is made of d (down) and u (up); suits is the four suits C, D, H, S in an order")
        return self


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
    session_rate_min: Ratio
    """Form b, the least percentage per player and session: 0.10 (004 L4090-L4092)."""
    session_rate_max: Ratio
    """Form b, the most percentage per player and session: 0.20 (004 L4090-L4092)."""
    session_postre: Count
    """Forms b and c: a session lasts at least until every player has been «postre» this many
    times: 2 (004 L4092-L4097)."""


class PokerRuleset(RulesetModel):
    """A póquer en círculo ruleset: the common keys, ``[variants]``, ``[forced_bets]``, ``[betting]``,
    ``[revenue]`` and ``[options]``."""

    GAME: ClassVar[str] = "poker"
    CITATIONS: ClassVar[frozenset[str]] = frozenset({
        "marca", "seats", "forced_bets", "ante", "blinds", "blind_option", "turn", "fold", "check", "call",
        "bet", "raise", "all_in", "pot_limit", "fixed_limit", "no_limit", "side_pots", "uncontested",
        "showdown", "cards_speak", "muck", "split_pot", "rake", "premature_board", "void_round",
        "no_more_bets", "holdem", "omaha", "stud", "draw", "bring_in", "stud_opener", "stud_limits", "stud_premature",
        "stud_cards", "draw_open", "draw_discard", "draw_order", "false_opener", "session_rate", "session_fee",
        "session_length", "prohibited_add_chips", "prohibited_loans", "prohibited_rathole",
        "prohibited_show", "prohibited_seats", "prohibited_delegation",
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
