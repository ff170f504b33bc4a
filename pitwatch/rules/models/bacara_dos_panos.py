"""The model of a bacará a dos paños ruleset (``bacara_dos_panos.<jurisdiction>.toml``).

Sources: Galicia ``000_e1555249d49967be.txt`` L743-L885 («08. Bacará a dos paños»); Andalucía
``004_5c9c19b250457762.txt`` L2460-L2899 (I.1.8.B «Bacarrá» a dos paños). Both declare chemin de fer's
rules generally applicable, with adaptations (000 L803; 004 L2648-L2652): the deal's rules and the
tableau are chemin de fer's (:class:`~pitwatch.rules.models.chemin_de_fer.CheminDeFerDeal` fields, the
same tableau). Read by :mod:`pitwatch.rules.dos_panos` (through its ``PanosRules``).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Self

from pydantic import AfterValidator, Field, field_validator, model_validator

from pitwatch.rules.models.chemin_de_fer import CheminDeFerPayouts, CheminDeFerTableau, check_draw_totals
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
from pitwatch.rules.models.punto_banca import Total

Spot = Literal["pano1", "pano2", "a_caballo", "pano1_raya", "pano2_raya", "banco"]
DealHand = Literal["pano1", "pano2", "banca"]


class DosPanosOptions(RulesetOptions):
    """Defaults of the bacará a dos paños table options (``[options]``)."""

    bank: Literal["limitada", "libre"]
    """The modality of the bank (000 L751; 004 L2472-L2484): ``limitada``, the bank answers only for the
    amount on the table, or ``libre``, the banker answers for every stake without limit."""
    bank_maximum: str
    """The most a bank of the ``limitada`` modality may be constituted with, in euros, as the casino's
    authorisation fixes it (000 L753, L793; 004 L2620-L2623); ``""`` when the table does not say (not
    checked)."""

    @field_validator("bank_maximum")
    @classmethod
    def _euros(cls, value: str) -> str:
        return value if value == "" else decimal_text(value, "an amount in euros")


class DosPanosCagnotte(Section):
    """``[cagnotte]``: the house's deduction on what the bank wins in a coup, by modality."""

    limitada: Ratio
    """0.02 with a limited bank («un dos por ciento ... para la banca limitada», 000 L799; «2 por 100»,
    004 L2641-L2645)."""
    libre: Ratio
    """0.0125 with a free bank («1,25 por 100 para la banca libre», 000 L799; 004 L2641-L2645)."""
    base: Literal["bank_net_winnings"]
    """What the rate applies to: the bank's net win of the coup over both paños; nothing unless the bank
    wins on both paños or wins more on one than it loses on the other (000 L829; 004 L2748-L2752)."""


class DosPanosStakes(Section):
    """``[stakes]``: how a stake placed on a line plays."""

    raya_fraction: Ratio
    """The part in play of a stake on the line between a player's zone and the betting zone: half
    («juegan a la mitad», 000 L823; 004 L2716-L2717)."""
    caballo_odd_to: Literal["pano1"]
    """Where the larger part of a stake «a caballo» that cannot be halved goes: the first paño
    («la fracción más fuerte juega al primer paño», 000 L825; 004 L2720-L2723)."""
    banco_repeats: Count
    """How many more times a banco coup may be repeated after a «juego nulo»: 2 (000 L813;
    004 L2681-L2684)."""


class DosPanosDeal(Section):
    """``[deal]``: the shoe and the rules of the coup."""

    decks: Positive
    """Decks in the shoe: 6 (000 L757; 004 L2491-L2493)."""
    cut_cards_behind: Count
    """Cards below the stop card: 10 (000 L819; 004 L2694-L2698)."""
    cut_rule: Literal["exact", "at_least"]
    """``exact`` (Galicia: «queden 10 cartas») or ``at_least`` (Andalucía: «un mínimo de diez naipes»)."""
    initial_order: tuple[DealHand, DealHand, DealHand, DealHand, DealHand, DealHand]
    """The first six cards, one at a time: first paño, second paño, bank, twice (000 L827;
    004 L2725-L2727)."""
    naturals: tuple[Total, ...] = Field(min_length=1)
    """Two-card totals turned over at once: 8, 9 (000 L807; 004 L2658-L2662)."""
    natural_beats_drawn: tuple[Total, ...]
    """Two-card totals that beat a three-card 8 or 9: 8 by the text (000 L811; 004 L2672-L2673), 9 by
    the choice the ruleset records."""
    punto_draws: tuple[Total, ...]
    """Totals on which a paño's holder must draw: 0-4 (000 L807; 004 L2658-L2660)."""
    punto_options: tuple[Total, ...]
    """Totals on which he may draw or stand: 5 (000 L807; 004 L2660-L2661)."""
    punto_stands: tuple[Total, ...]
    """Totals on which he stands: 6, 7, chemin de fer's rule (000 L622; 004 L2148)."""
    banca_draws: tuple[Total, ...]
    """Bank totals on which the banker must draw: 0, «bacará», chemin de fer's rule (000 L624;
    004 L2156-L2159)."""

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        check_draw_totals(self.naturals, self.punto_draws, self.punto_options, self.punto_stands, self.banca_draws)
        if set(self.natural_beats_drawn) - set(self.naturals):
            raise ValueError("natural_beats_drawn must be naturals")
        if sorted(self.initial_order) != ["banca", "banca", "pano1", "pano1", "pano2", "pano2"]:
            raise ValueError("initial_order deals two cards to each paño and to the bank")
        return self


class DosPanosRuleset(RulesetModel):
    """A bacará a dos paños ruleset: the common keys, ``spots``, ``[payouts]``, ``[cagnotte]``,
    ``[stakes]``, ``[deal]``, the optional ``[tableau]`` and ``[options]``."""

    GAME: ClassVar[str] = "bacara_dos_panos"
    CITATIONS: ClassVar[frozenset[str]] = frozenset({
        "bets", "card_values", "winner", "void_round", "stake_pays", "modality", "bank_limitada_max",
        "stake_limits", "cagnotte_rate", "cagnotte_net", "bank_auction", "bank_kept", "bank_saltado",
        "bank_offered", "bank_withdrawn", "stake_priority", "card_holder", "association", "banco",
        "juego_nulo", "raya", "a_caballo", "coup_deal", "naturals", "natural_eight", "punto_rule",
        "banker_rule", "banca_tableau", "cards_lost", "cards", "cut_card", "no_more_bets",
    })

    game: Literal["bacara_dos_panos"]
    """Always ``bacara_dos_panos``."""
    spots: Annotated[tuple[Spot, ...], Field(min_length=1), AfterValidator(distinct_spots)]
    """Spot codes: ``pano1``/``pano2`` a stake on one paño, ``a_caballo`` on the line between the two
    paños (000 L763, L823; 004 L2515-L2519), ``pano1_raya``/``pano2_raya`` on the line between a player's
    zone and the betting zone (000 L823; 004 L2716-L2717), ``banco`` the whole bank on both paños
    (000 L813; 004 L2675-L2681)."""
    payouts: CheminDeFerPayouts
    """Net winnings per euro of a stake in play: 1, chemin de fer's even money."""
    cagnotte: DosPanosCagnotte
    """The house's deduction."""
    stakes: DosPanosStakes
    """Stakes on the lines and the banco's repetitions."""
    deal: DosPanosDeal
    """Shoe and coup."""
    tableau: CheminDeFerTableau | None = None
    """The bank's tableau, chemin de fer's (000 L809, L672-L687); absent where the text prints none
    (Andalucía: 004 L2669-L2670 refers to I.1.8.A, which prints none)."""
    options: DosPanosOptions
    """Defaults of the table options (``table_opened.options`` override them)."""


__all__ = ["DosPanosCagnotte", "DosPanosDeal", "DosPanosOptions", "DosPanosRuleset", "DosPanosStakes"]
