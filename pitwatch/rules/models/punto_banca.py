"""The model of a punto y banca ruleset (``punto_banca.<jurisdiction>.toml``).

Sources: Galicia ``000_e1555249d49967be.txt`` L427-L522 («06. Punto y banca»); Asturias
``001_a05972482385336a.txt`` L67-L188 (Anexo); Andalucía ``004_5c9c19b250457762.txt`` L1517-L1755 and
the displaced «VII. Desarrollo del juego» at L1842-L1888. Read by :mod:`pitwatch.rules.baccarat`
(through :class:`pitwatch.rules.baccarat.PuntoBancaRules`).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Self

from pydantic import AfterValidator, Field, StrictInt, field_validator, model_validator

from pitwatch.rules.models.common import (
    Count,
    Positive,
    Ratio,
    RulesetModel,
    RulesetOptions,
    Section,
    decimal_text,
    distinct_spots,
)

Spot = Literal["punto", "banca", "tie"]
Hand = Literal["punto", "banca"]
Total = Annotated[StrictInt, Field(ge=0, le=9)]
"""A punto y banca hand total, 0-9."""

TABLEAU_COLUMNS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "P")
"""Columns of the banca tableau: punto's third card 0-9, then «P» (punto stood, no third card)."""


class PuntoBancaOptions(RulesetOptions):
    """Defaults of the punto y banca table options (``[options]``)."""

    stake_unit: str
    """Euros every stake must be a multiple of; "" = no requirement. The casino may require multiples of the
    table minimum (000 L469; 001 L177-L178) or, in Andalucía, whole fractions of it (004 L1709-L1711)."""

    @field_validator("stake_unit")
    @classmethod
    def _amount_or_empty(cls, value: str) -> str:
        return decimal_text(value, "an amount in euros") if value.strip() else value


class PuntoBancaPayouts(Section):
    """``[payouts]``: net winnings per euro staked; the stake is returned on top."""

    punto: Ratio
    """1, even money: implied in Galicia and Asturias, which print no ratio (000 L467; 001 L170-L172);
    Andalucía prints it: «serán pagadas a la par» (004 L1702-L1704)."""
    banca: Ratio
    """1, even money, less the ``[deduction]``."""
    tie: Ratio
    """8 («ocho a uno»: 000 L477; 001 L79-L80; 004 L1722-L1724)."""


class PuntoBancaDeduction(Section):
    """``[deduction]``: the house's deduction on winning banca bets, taken as the settlement's commission
    (returned stays gross = stake + winnings)."""

    rate: Ratio
    """Share of the winnings deducted: 0.05 in Galicia (000 L467) and Asturias (001 L170-L172); 0.50 on a
    banca 6 in Andalucía (004 L1699-L1702)."""
    banca_totals: tuple[Total, ...]
    """Banca totals the deduction applies to; empty = whatever total the banca wins with (Andalucía: 6)."""
    base: Literal["winnings"]
    """What the rate applies to: the winnings (the only base the texts use, «de las apuestas ganadoras»)."""


class PuntoBancaLimits(Section):
    """``[limits]``: the tie cap, the table maximum's ratio to the minimum, the stake unit rule."""

    tie_max_fraction: Ratio
    """Tie stakes at most this share of the table maximum: 0.10 (000 L477; 001 L80; 004 L1724-L1726)."""
    table_max_ratio_min: Ratio
    """Lowest table maximum / minimum ratio: 20 in Galicia (000 L469) and Asturias (001 L177), 10 in
    Andalucía (004 L1707-L1709)."""
    table_max_ratio_max: Ratio
    """Highest table maximum / minimum ratio: 100 (000 L469; 001 L177); 200 in Andalucía (004 L1707-L1709)."""
    table_max_ratios: tuple[Ratio, ...]
    """The only ratios allowed, where the text lists them: Asturias 20, 50, 100 (001 L177); empty = any
    ratio within [table_max_ratio_min, table_max_ratio_max]."""
    stake_unit_rule: Literal["minimum", "minimum_or_fraction"]
    """Which stake units the casino may require: the table minimum (000 L469; 001 L177-L178), or also a
    whole fraction of it (004 L1709-L1711)."""

    @model_validator(mode="after")
    def _ratios(self) -> Self:
        if self.table_max_ratio_min > self.table_max_ratio_max:
            raise ValueError("table_max_ratio_min is above table_max_ratio_max")
        return self


class PuntoBancaDeal(Section):
    """``[deal]``: the shoe and the order and rules of the deal."""

    decks: Positive | None = None
    """Decks in the shoe: 6 (000 L435; 004 L1529-L1531). Absent where the sources do not say (Asturias:
    the Catálogo that does is not among them, 001 L26-L28): the number of decks is then not checked."""
    cut_cards_behind: Count
    """Cards below the cut card: 7 (000 L506; 001 L121-L122; 004 L1843-L1848)."""
    burn_count_min: Positive
    """Fewest cards burned at the start of a shoe: 2, the exposed card and its value (ace 1) (000 L508;
    001 L126-L128; 004 L1852-L1856)."""
    burn_count_max: Positive
    """Most cards burned: 11 (the exposed card and a ten or court card's value, 10)."""
    initial_order: tuple[Hand, Hand, Hand, Hand]
    """Hands receiving the first four cards: punto, banca, punto, banca (000 L457, L510; 001 L133-L135;
    004 L1860-L1864)."""
    naturals: tuple[Total, ...] = Field(min_length=1)
    """Two-card totals that end the coup: 8, 9 (000 L479; 001 L82-L83; 004 L1728-L1731)."""
    punto_draws: tuple[Total, ...]
    """Punto totals on which punto draws a third card: 0-5 (000 L485; 001 L89; 004 L1735-L1737)."""
    punto_stands: tuple[Total, ...]
    """Punto totals on which punto stands: 6, 7 (000 L487; 001 L90; 004 L1738)."""

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.burn_count_min > self.burn_count_max:
            raise ValueError("burn_count_min is above burn_count_max")
        totals = [*self.naturals, *self.punto_draws, *self.punto_stands]
        if sorted(totals) != list(range(10)):
            raise ValueError("naturals, punto_draws and punto_stands must split the totals 0-9 between them")
        return self


class PuntoBancaTableau(Section):
    """``[tableau]``: the banca third-card table exactly as printed (000 L489-L504; 001 L92-L116;
    004 L1740-L1755). Row = banca two-card total 0-7; each row is 11 cells "T" (pedir, draw) or "P"
    (plantarse, stand), case-insensitive (the Asturias OCR prints «p»), one per ``columns`` entry."""

    columns: tuple[str, ...]
    """Column headers: punto's third card "0".."9", then "P" (punto stood)."""
    row_0: str = Field(alias="0")
    """Banca total 0."""
    row_1: str = Field(alias="1")
    """Banca total 1."""
    row_2: str = Field(alias="2")
    """Banca total 2."""
    row_3: str = Field(alias="3")
    """Banca total 3."""
    row_4: str = Field(alias="4")
    """Banca total 4."""
    row_5: str = Field(alias="5")
    """Banca total 5."""
    row_6: str = Field(alias="6")
    """Banca total 6."""
    row_7: str = Field(alias="7")
    """Banca total 7."""

    @field_validator("columns")
    @classmethod
    def _columns(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if value != TABLEAU_COLUMNS:
            raise ValueError(f"columns must be {list(TABLEAU_COLUMNS)}")
        return value

    CELLS: ClassVar[tuple[str, ...]] = ("T", "P")
    """The letters a cell may hold (a subclass may allow more: chemin de fer's optional «O»)."""

    @field_validator("row_0", "row_1", "row_2", "row_3", "row_4", "row_5", "row_6", "row_7")
    @classmethod
    def _cells(cls, value: str) -> str:
        cells = value.upper().split()
        if len(cells) != len(TABLEAU_COLUMNS) or set(cells) - set(cls.CELLS):
            raise ValueError(f"{value!r} is not {len(TABLEAU_COLUMNS)} {'/'.join(cls.CELLS)} cells")
        return value

    def cells(self) -> dict[tuple[int, str], str]:
        """``{(banca total, column): the printed letter, upper case}`` for every cell."""
        rows = (self.row_0, self.row_1, self.row_2, self.row_3, self.row_4, self.row_5, self.row_6, self.row_7)
        return {(total, col): cell for total, row in enumerate(rows)
                for col, cell in zip(self.columns, row.upper().split())}

    def draws(self) -> dict[tuple[int, str], bool]:
        """``{(banca total, column): True if the banca draws}`` for every cell."""
        return {key: cell == "T" for key, cell in self.cells().items()}


class PuntoBancaRuleset(RulesetModel):
    """A punto y banca ruleset: the common keys, ``spots``, ``[payouts]``, ``[deduction]``, ``[limits]``,
    ``[deal]``, ``[tableau]`` and ``[options]``."""

    GAME: ClassVar[str] = "punto_banca"
    CITATIONS: ClassVar[frozenset[str]] = frozenset({
        "bets", "card_values", "winner", "punto_pays", "banca_pays", "banca_deduction", "tie_pays", "tie_push",
        "tie_limit", "limits", "table_max", "stake_unit", "natural", "punto_rule", "banca_tableau", "deal_order",
        "cards", "cut_card", "burn", "no_more_bets", "void_round",
    })

    game: Literal["punto_banca"]
    """Always ``punto_banca``."""
    spots: Annotated[tuple[Spot, ...], Field(min_length=1), AfterValidator(distinct_spots)]
    """Spot codes accepted in ``bet_placed.spot``: punto, banca, tie (000 L431, L441-L443; 001 L78-L80;
    004 L1582-L1584). No pair or other side bet exists in the texts."""
    payouts: PuntoBancaPayouts
    """Net winnings per euro staked."""
    deduction: PuntoBancaDeduction
    """The house deduction on banca wins."""
    limits: PuntoBancaLimits
    """Tie cap and table maximum."""
    deal: PuntoBancaDeal
    """Shoe and deal."""
    tableau: PuntoBancaTableau
    """The banca third-card table."""
    options: PuntoBancaOptions
    """Defaults of the table options (``table_opened.options`` override them)."""


__all__ = ["TABLEAU_COLUMNS", "PuntoBancaDeal", "PuntoBancaDeduction", "PuntoBancaLimits", "PuntoBancaOptions",
           "PuntoBancaPayouts", "PuntoBancaRuleset", "PuntoBancaTableau"]
