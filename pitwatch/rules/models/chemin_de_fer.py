"""The model of a chemin de fer ruleset (``chemin_de_fer.<jurisdiction>.toml``).

Sources: Galicia ``000_e1555249d49967be.txt`` L524-L741 («07. Ferrocarril, bacará o chemin de fer»);
Andalucía ``004_5c9c19b250457762.txt`` L1758-L2458 (I.1.8.A, without the displaced punto y banca block
L1842-L1888). Read by :mod:`pitwatch.rules.chemin_de_fer` (through its ``CoupRules``).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Self, Sequence

from pydantic import AfterValidator, Field, model_validator

from pitwatch.rules.models.common import Count, Positive, Ratio, RulesetModel, RulesetOptions, Section, distinct_spots
from pitwatch.rules.models.punto_banca import Hand, PuntoBancaTableau, Total

Spot = Literal["punto", "banco", "banco_seguido", "banco_con_la_mesa", "ultimo_completo"]
Switch = Literal["true", "false"]


class CheminDeFerOptions(RulesetOptions):
    """Defaults of the chemin de fer table options (``[options]``)."""

    banco_free_play: Switch
    """"true" when the director of games authorised, before the game began, a player who «hace banco» to
    draw or stand as he likes (000 L624; 004 L2150-L2154); "false": he follows the punto rule."""
    bank_unlimited: Switch
    """"true" when the casino is authorised to let the bank play without a maximum (000 L596;
    004 L2084-L2087); "false": the bank plays at most ``bank.max_multiple`` x the punto minimum."""


class CheminDeFerPayouts(Section):
    """``[payouts]``: net winnings per euro of a stake against the bank; the stake is returned on top."""

    stake: Ratio
    """1, even money: the texts print no ratio; the associate «ganará o perderá en iguales condiciones que
    la banca» (000 L570) and the croupier pays the winner (000 L666; 004 L2286-L2288)."""


class CheminDeFerCagnotte(Section):
    """``[cagnotte]``: the house's deduction («pozo» or «cagnotte») on the bank's winnings of a coup."""

    rate: Ratio
    """Share of the bank's winnings: 0.05 («un 5% sobre las cantidades ganadas por la banca en cada
    jugada», 000 L598; 004 L2089-L2091)."""
    base: Literal["bank_winnings"]
    """What the rate applies to: the stakes the bank won in the coup (the bank in play, the stakes
    covering it); nothing when the bank loses or the coup is a tie."""


class CheminDeFerBank(Section):
    """``[bank]``: the bank's limits and the «garaje»."""

    max_multiple: Positive
    """The bank plays at most this many times the punto minimum: 100 (000 L596; 004 L2081-L2083); the
    rest is the «garaje impropio», not in play (000 L606; 004 L2109-L2112)."""
    garage_min_multiple: Positive
    """The banker may set his winnings aside («garaje voluntario») only once they exceed this many times
    the punto minimum: 50 (000 L602; 004 L2097-L2102)."""
    con_la_mesa_fraction: Ratio
    """The stake of a «banco con la mesa»: half the bank (000 L644; 004 L2215-L2218)."""


def check_draw_totals(naturals: Sequence[int], punto_draws: Sequence[int], punto_options: Sequence[int],
                      punto_stands: Sequence[int], banca_draws: Sequence[int]) -> None:
    """``ValueError`` unless the naturals and the punto's draws, options and stands split the totals 0-9
    and no natural is a total the banker must draw on (a ``[deal]`` section's consistency)."""
    if sorted([*naturals, *punto_draws, *punto_options, *punto_stands]) != list(range(10)):
        raise ValueError("naturals, punto_draws, punto_options and punto_stands must split the totals 0-9")
    if set(banca_draws) & set(naturals):
        raise ValueError("a natural total cannot be one the banker must draw on")


class CheminDeFerDeal(Section):
    """``[deal]``: the shoe and the rules of the coup."""

    decks: Positive
    """Decks in the shoe: 6 (000 L532; 004 L1772-L1777)."""
    cut_cards_behind: Count
    """Cards below the stop card: 7 (000 L636; 004 L2194-L2199)."""
    initial_order: tuple[Hand, Hand, Hand, Hand]
    """The first four cards, one at a time, alternately, starting with the player facing the bank:
    punto, banca, punto, banca (000 L614, L664; 004 L2131-L2134, L2274-L2278)."""
    naturals: tuple[Total, ...] = Field(min_length=1)
    """Two-card totals turned over at once, ending the coup: 8, 9 (000 L614; 004 L2134-L2137)."""
    punto_draws: tuple[Total, ...]
    """Punto totals on which he must draw: 0-4 (000 L618; 004 L2144)."""
    punto_options: tuple[Total, ...]
    """Punto totals on which he may draw or stand: 5 (000 L620; 004 L2145-L2147)."""
    punto_stands: tuple[Total, ...]
    """Punto totals on which he must stand: 6, 7 (000 L622; 004 L2148)."""
    banca_draws: tuple[Total, ...]
    """Bank totals on which the banker must draw: 0, «bacará» (000 L624; 004 L2156-L2159);
    on every other total he is free unless he asked for the tableau."""

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        check_draw_totals(self.naturals, self.punto_draws, self.punto_options, self.punto_stands, self.banca_draws)
        return self


class CheminDeFerTableau(PuntoBancaTableau):
    """``[tableau]``: the bank's tableau exactly as printed (000 L672-L687). Row = the bank's two-card
    total 0-7; 11 cells per row, one per ``columns`` entry: "T" (pedir tercera carta), "P" (plantarse),
    "O" (puede optar: free), "-" (nothing printed: free)."""

    CELLS: ClassVar[tuple[str, ...]] = ("T", "P", "O", "-")


class CheminDeFerRuleset(RulesetModel):
    """A chemin de fer ruleset: the common keys, ``spots``, ``[payouts]``, ``[cagnotte]``, ``[bank]``,
    ``[deal]``, the optional ``[tableau]`` and ``[options]``."""

    GAME: ClassVar[str] = "chemin_de_fer"
    CITATIONS: ClassVar[frozenset[str]] = frozenset({
        "bets", "card_values", "winner", "void_round", "stake_pays", "punto_limits", "bank_limits", "cagnotte",
        "bank_in_play", "garage", "bank_passes", "bank_taken", "bank_auction", "bank_imposed", "bank_kept",
        "banco_priority", "banco_con_la_mesa", "banco_seguido", "card_holder", "joined_stakes", "coup_deal",
        "naturals", "punto_rule", "banco_free_play", "banker_rule", "banca_tableau", "cards", "cut_card",
        "no_more_bets",
    })

    game: Literal["chemin_de_fer"]
    """Always ``chemin_de_fer``."""
    spots: Annotated[tuple[Spot, ...], Field(min_length=1), AfterValidator(distinct_spots)]
    """Spot codes of the stakes against the bank: ``punto`` an ordinary stake («postura»), ``banco`` the
    whole bank (000 L594; 004 L2078-L2081), ``banco_seguido`` a banco repeated by the player who made banco
    and lost (000 L652; 004 L2240-L2246), ``banco_con_la_mesa`` half the bank, and ``ultimo_completo``
    the stake completing it (000 L644-L646; 004 L2215-L2230)."""
    payouts: CheminDeFerPayouts
    """Net winnings per euro staked."""
    cagnotte: CheminDeFerCagnotte
    """The house's deduction."""
    bank: CheminDeFerBank
    """The bank's limits and garage."""
    deal: CheminDeFerDeal
    """Shoe and coup."""
    tableau: CheminDeFerTableau | None = None
    """The bank's tableau, where the text prints it (Galicia); absent where it does not (Andalucía names
    it, 004 L2172-L2175, but prints none): the banker who asks for it is then checked on «bacará» only."""
    options: CheminDeFerOptions
    """Defaults of the table options (``table_opened.options`` override them)."""


__all__ = ["CheminDeFerBank", "CheminDeFerCagnotte", "CheminDeFerDeal", "CheminDeFerOptions", "CheminDeFerPayouts",
           "CheminDeFerRuleset", "CheminDeFerTableau"]
