"""The model of a blackjack ruleset (``blackjack.<jurisdiction>.toml``).

Sources: Galicia ``000_e1555249d49967be.txt`` L235-L329 («03. Veintiuno o black-jack»); Andalucía
``004_5c9c19b250457762.txt`` L570-L901 (I.1.3 «Veintiuno o Black Jack»). Read by
:mod:`pitwatch.rules.blackjack`.
"""

from __future__ import annotations

from typing import ClassVar, Literal, Self

from pydantic import Field, field_validator, model_validator

from pitwatch.rules.models.common import Count, Positive, Ratio, RulesetModel, RulesetOptions, Section, Switch


class BlackjackOptions(RulesetOptions):
    """Defaults of the blackjack table options (``[options]``)."""

    max_multiplier: str = Field(pattern=r"^[1-9][0-9]*$")
    """Per-hand maximum as a multiple of the table minimum, fixed by the casino's authorisation: one of
    ``limits.allowed_multipliers`` or within ``limits.multiplier_range``. The effective maximum is
    min(table max_bet, max_multiplier x table min_bet) (000 L319; 004 L863-L865). Default: the text's
    ceiling, 200."""


class BlackjackLimits(Section):
    """``[limits]``: the per-hand maximum's multipliers, boxes and bettors."""

    allowed_multipliers: tuple[Positive, ...]
    """The maxima the text lists, as multiples of the minimum: Galicia 20, 25, 50, 100, 200 (000 L319
    «en 20, 25, 50, 100 o 200 veces el mínimo»); empty where the text gives a range."""
    multiplier_range: tuple[Positive, Positive] | tuple[()]
    """Lowest and highest multiple where the text gives a range: Andalucía 10 to 200 (004 L863-L865
    «entre 10 y 200 veces el valor mínimo»); empty where it lists values. Exactly one of the two is set."""
    max_bettors_per_box: Positive
    """Players who may bet on one box: 3 (000 L271; 004 L682-L683)."""
    boxes: Positive
    """Boxes (plazas) of the table: 7 (000 L261 «su cifra máxima es siete»; 004 L628-L630)."""
    min_hands: Count
    """Boxes that must be bet for a round to be played: 2 in Galicia (000 L263); 0 (no minimum) in
    Andalucía, whose text has none."""

    @model_validator(mode="after")
    def _one_maximum_rule(self) -> Self:
        if bool(self.allowed_multipliers) == bool(self.multiplier_range):
            raise ValueError("exactly one of allowed_multipliers and multiplier_range must be non-empty")
        if self.multiplier_range and self.multiplier_range[0] > self.multiplier_range[1]:
            raise ValueError(f"multiplier_range {list(self.multiplier_range)} is not [lowest, highest]")
        return self

    def allows(self, multiplier: int) -> bool:
        """Whether the text allows a per-hand maximum of ``multiplier`` x the table minimum."""
        if self.allowed_multipliers:
            return multiplier in self.allowed_multipliers
        low, high = self.multiplier_range or (0, 0)
        return low <= multiplier <= high

    def ceiling(self) -> int:
        """The highest multiplier the text allows (the default when a table's option is invalid)."""
        return max(self.allowed_multipliers or self.multiplier_range)


class BlackjackPayouts(Section):
    """``[payouts]``: net winnings per euro staked, and the insurance cap."""

    win: Ratio
    """A winning hand, 1 («a la par»: 000 L293; 004 L742-L743); also a 21 after a split."""
    blackjack: Ratio
    """A blackjack, 1.5 («tres por dos»: 000 L293; 004 L743-L745)."""
    insurance: Ratio
    """A winning insurance, 2 («dos por uno»: 000 L297; 004 L761-L763)."""
    surrender_returned: Ratio
    """Share of the stake returned on a surrender («retiro»), 0.5 (000 L311 «perdiendo la mitad»);
    unused where ``rules.surrender`` is false (Andalucía)."""
    insurance_max_fraction: Ratio
    """Largest insurance as a share of the main stake, 0.5 («como máximo igual a la mitad de su apuesta
    primitiva»: 000 L297; 004 L758-L760)."""


class BlackjackRules(Section):
    """``[rules]``: the shoe, the dealer's drawing rule and the players' options."""

    decks: Positive
    """Decks in the shoe: 6 (000 L243; 004 L583)."""
    burn: Positive
    """Cards burned at the start of a shoe: 5 (000 L327; 004 L889-L891)."""
    cut_card_min_behind: Positive
    """Fewest cards behind the cut card: 52, one deck (000 L325 «como mínimo a un juego»; 004 L882-L885)."""
    dealer_stands_on: Positive
    """Total on which the dealer stands: 17 (000 L285; 004 L717-L724)."""
    dealer_hits_soft_17: Switch
    """Whether the dealer draws on soft 17: false in both texts (an ace counts 11 when that reaches 17-21:
    000 L285; 004 L721-L724)."""
    double_totals: tuple[Count, ...]
    """Two-card totals that may double: 9, 10, 11 in Galicia (000 L307); empty = any two-card hand
    (Andalucía 004 L800-L803 «con los dos primeros naipes, podrá doblar»)."""
    double_after_split: Switch
    """Double allowed on a split hand: true (000 L309 «comprendidas los pares»; 004 L804-L805)."""
    resplit: Switch
    """A new pair may be split again: true (000 L301; 004 L788-L789)."""
    resplit_aces: Switch
    """Split aces may be split again: false (ambiguity «Re-splitting aces»: 000 L301-L303; 004 L788-L793)."""
    surrender: Switch
    """Surrender («retiro») exists: true in Galicia (000 L311-L313), false in Andalucía (not in 004 I.1.3 V.1)."""
    even_money: Switch
    """Even money on a blackjack against a dealer ace: Andalucía (004 L767-L772), not Galicia."""
    no_draw_without_hands_in_play: Switch
    """The dealer takes no card when no hand is left in play: Andalucía (004 L716-L717 «siempre que queden
    manos en juego»); Galicia has no such clause."""

    @field_validator("double_totals")
    @classmethod
    def _totals(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if any(not 2 <= t <= 21 for t in value):
            raise ValueError(f"double_totals {list(value)} must be two-card totals (2-21)")
        return value


class BlackjackRuleset(RulesetModel):
    """A blackjack ruleset: the common keys, ``[options]``, ``[limits]``, ``[payouts]`` and ``[rules]``."""

    GAME: ClassVar[str] = "blackjack"
    CITATIONS: ClassVar[frozenset[str]] = frozenset({
        "no_more_bets", "void_round", "spot", "minimum", "maximum", "bettors_per_box", "min_hands", "boxes",
        "win", "push", "lose", "blackjack", "split_21", "insurance", "surrender", "double", "split", "hit",
        "dealer_draw", "no_hole_card", "face_up", "shoe",
    })
    CITATIONS_OPTIONAL: ClassVar[frozenset[str]] = frozenset({"even_money"})

    game: Literal["blackjack"]
    """Always ``blackjack``."""
    options: BlackjackOptions
    """Defaults of the table options (``table_opened.options`` override them)."""
    limits: BlackjackLimits
    """Maxima, boxes and bettors."""
    payouts: BlackjackPayouts
    """Net winnings per euro staked."""
    rules: BlackjackRules
    """Shoe, dealer and player rules."""

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if not self.limits.allows(int(self.options.max_multiplier)):
            raise ValueError(f"options.max_multiplier {self.options.max_multiplier} is not a maximum the limits allow")
        if self.rules.even_money and "even_money" not in self.citations:
            raise ValueError("rules.even_money needs citation 'even_money'")
        return self


__all__ = ["BlackjackLimits", "BlackjackOptions", "BlackjackPayouts", "BlackjackRules", "BlackjackRuleset"]
