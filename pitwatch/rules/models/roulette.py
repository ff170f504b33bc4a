"""The model of a French roulette ruleset (``french_roulette.<jurisdiction>.toml``).

Sources: Galicia ``000_e1555249d49967be.txt`` L81-L193 («01 Ruleta francesa»); Andalucía
``004_5c9c19b250457762.txt`` L109-L439 («I.1.1.A Ruleta francesa ordinaria»). Read by
:mod:`pitwatch.rules.roulette`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar, Literal, Mapping, Self

from pydantic import Field, field_validator, model_validator

from pitwatch.rules.models.common import Positive, Ratio, RulesetModel, RulesetOptions, Section, Switch, decimal_text

KIND_NAMES = ("straight", "split", "street", "corner", "sixline", "column", "dozen", "columns", "dozens", "simple")
"""The bet kinds, in the order of the texts; each has a payout, a maximum row and a citation."""


class RouletteOptions(RulesetOptions):
    """Defaults of the roulette table options (``[options]``)."""

    max_tier: Literal["1", "2", "3"]
    """Which of the three alternative maxima applies: "1" (10x the minimum on a straight-up ... 180x on
    simple chances), "2" (20x ... 360x) or "3" (30x ... 540x). 000 L161-L163; 004 L338-L352."""
    simple_chance_min_multiple: str
    """Simple-chance minimum as a multiple of the authorised minimum «sobre un número entero»: a number
    from 1 to ``limits.simple_chance_min_multiple_max``. 000 L159; 004 L340-L344."""
    zero_default: Literal["en_prison", "half_back"]
    """Fate of a simple-chance bet hit by a zero when no ``player_decision`` was recorded for it. The law
    offers both and names no default (000 L125; 004 L304-L308): see the ruleset's ambiguities."""
    max_rule: Literal["tiers", "authorisation"]
    """"tiers": every kind's maximum is its ``limits.max_multiples`` row x the table minimum (000 L161-L163;
    004 L338-L352); "authorisation": every kind's maximum is the table's ``max_bet``, where the text allows
    it (004 L328-L336; needs citation ``limit_authorisation``)."""

    @field_validator("simple_chance_min_multiple")
    @classmethod
    def _a_number(cls, value: str) -> str:
        return decimal_text(value, "a number")


class RoulettePayouts(Section):
    """Net winnings per euro staked of each bet kind; the winner keeps the stake (000 L123, L153;
    004 L217-L219, L287-L290)."""

    straight: Ratio
    """Pleno, 35: 000 L133 «treinta y cinco veces»; 004 L221-L224."""
    split: Ratio
    """Caballo, 17: 000 L135; 004 L226-L229."""
    street: Ratio
    """Transversal (also 0-1-2 and 0-2-3), 11: 000 L137; 004 L231-L240."""
    corner: Ratio
    """Cuadro (also 0-1-2-3), 8: 000 L139-L141; 004 L242-L249."""
    sixline: Ratio
    """Seisena, 5: 000 L143; 004 L261-L264."""
    column: Ratio
    """Columna, 2: 000 L145; 004 L266-L269."""
    dozen: Ratio
    """Docena, 2: 000 L147; 004 L271-L275."""
    columns: Ratio
    """Dos columnas, 0.5 («la mitad de la postura»): 000 L149; 004 L277-L280."""
    dozens: Ratio
    """Dos docenas, 0.5: 000 L151; 004 L282-L285."""
    simple: Ratio
    """Suertes sencillas, 1 (a la par): 000 L121-L123; 004 L287-L290."""

    def ratio(self, kind: str) -> Decimal:
        """Net winnings per euro of bet ``kind`` (one of :data:`KIND_NAMES`); ``KeyError`` otherwise."""
        value = getattr(self, kind, None) if kind in KIND_NAMES else None
        if not isinstance(value, Decimal):
            raise KeyError(f"no roulette payout for bet kind {kind!r}")
        return value


Tiers = tuple[Positive, Positive, Positive]
"""Maximum of a bet kind as a multiple of the table minimum, for tiers 1, 2 and 3."""


class RouletteMaxMultiples(Section):
    """``[limits.max_multiples]``: each kind's maximum as multiples of the table minimum, tiers 1-3
    (000 L161-L163; 004 L338-L352). The 0-1-2 / 0-2-3 streets take the street row and 0-1-2-3 the
    corner row (000 L137, L141)."""

    straight: Tiers
    """10, 20, 30."""
    split: Tiers
    """20, 40, 60."""
    street: Tiers
    """30, 60, 90."""
    corner: Tiers
    """40, 80, 120."""
    sixline: Tiers
    """60, 120, 180."""
    column: Tiers
    """120, 240, 360."""
    dozen: Tiers
    """120, 240, 360."""
    columns: Tiers
    """240, 480, 720."""
    dozens: Tiers
    """240, 480, 720."""
    simple: Tiers
    """180, 360, 540 (000 L161 «180, 360 o 540 veces»; 004 L338-L340)."""

    def of(self, kind: str) -> Tiers:
        """The three tiers of bet ``kind`` (one of :data:`KIND_NAMES`); ``KeyError`` otherwise."""
        if kind not in KIND_NAMES:
            raise KeyError(f"no roulette maximum for bet kind {kind!r}")
        value: Tiers = getattr(self, kind)
        return value


class RouletteLimits(Section):
    """``[limits]``: bet limits beyond the table's minimum and maximum."""

    simple_chance_min_multiple_max: Ratio
    """Highest multiple of the authorised minimum the simple-chance minimum may be set to: 5
    («hasta cinco veces el mínimo autorizado», 000 L159; 004 L340-L344)."""
    change_during_session: Switch
    """Whether the limits may change during a session: false in Galicia (000 L169 «el casino no podrá
    variar el límite de su apuesta»), true in Andalucía (004 L362-L367, announcing the last three spins)."""
    max_multiples: RouletteMaxMultiples
    """Maxima per bet kind and tier."""


class RouletteZero(Section):
    """``[zero]``: the zero rule for simple chances («en prison» / half back)."""

    refund_fraction: Ratio = Field(gt=0, lt=1)
    """Share of the initial stake each zero leaves: 0.5. The half-back refund at the k-th consecutive zero is
    initial x refund_fraction^k (½, ¼, ⅛: 000 L125-L129; 004 L320-L324); a bet kept in prison at the k-th
    zero holds initial x refund_fraction^(k-1) (000 L125-L127; 004 L312-L316)."""
    floor_basis: Literal["refund", "held"]
    """Amount compared with the table minimum to withdraw the half-back option: the halved value
    ("refund", initial/2^k: Galicia 000 L127 «su valor») or the kept amount ("held", initial/2^(k-1):
    Andalucía 004 L316-L319 «la cantidad de la apuesta mantenida»)."""
    floor_from_zero: Positive
    """First consecutive zero at which that floor applies: 2 (000 L127; 004 L312-L319; the first zero
    always offers both options)."""


class RouletteRuleset(RulesetModel):
    """A French roulette ruleset: the common keys, ``[options]``, ``[payouts]``, ``[limits]`` (with
    ``[limits.max_multiples]``) and ``[zero]``."""

    GAME: ClassVar[str] = "french_roulette"
    CITATIONS: ClassVar[frozenset[str]] = frozenset({
        "no_more_bets", "void_round", "colours", "layout", "result", "spin_direction",
        *(f"payout_{k}" for k in KIND_NAMES), "payout_street_zero", "payout_corner_zero",
        "zero_choice", "prison_release", "zero_repeat", "zero_floor", "zero_last_spin",
        "limit_minimum", "limit_simple_minimum", "limit_simple", "limit_multiple", "limits_change",
    })
    CITATIONS_OPTIONAL: ClassVar[frozenset[str]] = frozenset({"limit_authorisation"})

    game: Literal["french_roulette"]
    """Always ``french_roulette``."""
    options: RouletteOptions
    """Defaults of the table options (``table_opened.options`` override them)."""
    payouts: RoulettePayouts
    """Net winnings per euro staked, per bet kind."""
    limits: RouletteLimits
    """Limits per bet kind."""
    zero: RouletteZero
    """The zero rule."""

    @model_validator(mode="after")
    def _options_within_the_law(self) -> Self:
        check_limit_options(self.options, self.limits, self.citations)
        return self


def check_limit_options(options: Any, limits: RouletteLimits, citations: Mapping[str, str]) -> None:
    """The limit options of a ruleset with French roulette's limits (French and American roulette): the
    simple chances' minimum multiple (``options.simple_chance_min_multiple``) between 1 and
    ``limits.simple_chance_min_multiple_max``, and ``options.max_rule = "authorisation"`` only with a
    ``limit_authorisation`` citation. Raises ``ValueError`` naming the key otherwise."""
    multiple = Decimal(options.simple_chance_min_multiple)
    top = limits.simple_chance_min_multiple_max
    if not Decimal(1) <= multiple <= top:
        raise ValueError(f"options.simple_chance_min_multiple {multiple} is not between 1 and "
                         f"limits.simple_chance_min_multiple_max {top}")
    if options.max_rule == "authorisation" and "limit_authorisation" not in citations:
        raise ValueError("options.max_rule 'authorisation' needs citation 'limit_authorisation'")


__all__ = ["KIND_NAMES", "check_limit_options", "RouletteLimits", "RouletteMaxMultiples", "RouletteOptions", "RoulettePayouts",
           "RouletteRuleset", "RouletteZero"]
