"""The model of a boule ruleset (``boule.<jurisdiction>.toml``).

Sources: Galicia ``000_e1555249d49967be.txt`` L331-L378 («04. Bola o boule»); Spain
``002_b26436a6fc4fb8e8.txt`` L9-L63 («04. Boule o bola», Orden de 9 de octubre de 1979); Andalucía
``004_5c9c19b250457762.txt`` L903-L1027 («I.1.4. Bola o boule»). Read by :mod:`pitwatch.rules.boule.game` and
:mod:`pitwatch.rules.boule.edges`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar, Literal, Self

from pydantic import field_validator, model_validator

from pitwatch.rules.models.common import Positive, Ratio, RulesetModel, RulesetOptions, Section, Switch

CHANCES = ("red", "black", "odd", "even", "manque", "passe")
"""The simple chances («suertes sencillas»), by their spot codes, in pairs of opposites."""

PAIRS = (("red", "black"), ("odd", "even"), ("manque", "passe"))
"""The three pairs of opposite simple chances: each pair covers every number but the neutral one."""

KINDS = ("straight", "simple")
"""The two bet kinds («sólo se pueden usar dos combinaciones»): a number and a simple chance."""


def multiples_text(value: str) -> tuple[int, ...]:
    """Option ``panos`` (``"1"``, ``"1,2"``...) as its whole numbers; ``ValueError`` if it is not a
    comma-separated list of positive whole numbers."""
    parts = [p.strip() for p in value.split(",")]
    if not parts or not all(p.isdigit() and int(p) >= 1 for p in parts):
        raise ValueError(f"{value!r} is not a comma-separated list of positive whole numbers (e.g. \"1,2\")")
    return tuple(int(p) for p in parts)


class BouleOptions(RulesetOptions):
    """Defaults of the boule table options (``[options]``); ``table_opened.options`` override them."""

    panos: str
    """The paños of the table, each by its minimum stake as a multiple of the authorised minimum (the table's
    ``min_bet``): ``"1"`` one paño; ``"1,1"`` two at the authorised minimum; ``"1,2"`` or ``"2,1"`` the second
    or the first at twice it. A bet's ``box`` is its paño (000 L339, L365-L367; 002 L17, L47; 004 L916-L919,
    L981-L989)."""
    max_straight_multiple: str
    """The maximum of a bet on a number, as a multiple of the authorised minimum, that the authorisation fixed:
    a whole number in ``limits.straight_max_range`` (40 to 100: 000 L369; 002 L49; 004 L991-L996)."""
    max_simple_multiple: str
    """The maximum of a bet on a simple chance, as a multiple of the authorised minimum, that the authorisation
    fixed: a whole number in ``limits.simple_max_range`` (200 to 500: 000 L369; 002 L49; 004 L991-L996)."""

    @field_validator("panos")
    @classmethod
    def _paños(cls, value: str) -> str:
        multiples_text(value)
        return value

    @field_validator("max_straight_multiple", "max_simple_multiple")
    @classmethod
    def _whole(cls, value: str) -> str:
        if not value.strip().isdigit():
            raise ValueError(f"{value!r} is not a whole number")
        return value


class BoulePayouts(Section):
    """Net winnings per euro staked of each bet kind; the winner keeps the stake (000 L377; 002 L63;
    004 L1023-L1027)."""

    straight: Ratio
    """A number, 7: «recibe siete veces el valor de su apuesta» (000 L361; 002 L43; 004 L969-L970)."""
    simple: Ratio
    """A simple chance, 1: «recupera su apuesta y recibe un valor igual a ella» (000 L363; 002 L43;
    004 L975-L976)."""

    def ratio(self, kind: str) -> Decimal:
        """Net winnings per euro of bet ``kind`` (one of :data:`KINDS`); ``KeyError`` otherwise."""
        if kind not in KINDS:
            raise KeyError(f"no boule payout for bet kind {kind!r}")
        value: Decimal = getattr(self, kind)
        return value


class BouleChances(Section):
    """``[layout.chances]``: the numbers each simple chance wins on (000 L345; 002 L21-L23; 004 L928-L944)."""

    red: tuple[Positive, ...]
    """Rojo: 2, 4, 7 and 9 (000 L343 «de color rojo los números 2, 4, 7 y 9»; 002 L21; 004 L928-L929)."""
    black: tuple[Positive, ...]
    """Negro: 1, 3, 6 and 8 (000 L343; 002 L21; 004 L928-L929)."""
    odd: tuple[Positive, ...]
    """Impar: 1, 3, 7 and 9, the 5 «excluido de la serie impar» (000 L345; 002 L23; 004 L944)."""
    even: tuple[Positive, ...]
    """Par: 2, 4, 6 and 8 (000 L345; 002 L23; 004 L939-L940)."""
    manque: tuple[Positive, ...]
    """Falta, «números inferiores al 5»: 1 to 4 (000 L345; 002 L23; 004 L941)."""
    passe: tuple[Positive, ...]
    """Pasa, «números superiores al 5»: 6 to 9 (000 L345; 002 L23; 004 L940-L941)."""

    def of(self, chance: str) -> frozenset[int]:
        """The winning numbers of ``chance`` (one of :data:`CHANCES`); ``KeyError`` otherwise."""
        if chance not in CHANCES:
            raise KeyError(f"no simple chance {chance!r} in boule")
        return frozenset(getattr(self, chance))


class BouleLayout(Section):
    """``[layout]``: the platform's holes and the simple chances of the paño."""

    numbers: Positive
    """The numbers of the platform, 1 to 9 («con la numeración del 1 al 9», 000 L341-L343; 002 L19;
    004 L924-L926)."""
    holes_per_number: Positive
    """Holes of each number: 2 («dos filas, con dieciocho orificios», eighteen holes for nine numbers:
    000 L343; 002 L19; 004 L923-L924)."""
    neutral: Positive
    """The number in no simple chance, 5: «no es ni rojo ni negro y está excluido de la serie impar, pasa o
    falta» (000 L345; 002 L23; 004 L941-L944); when it comes out every simple chance loses (000 L363; 002 L43;
    004 L976-L978)."""
    chances: BouleChances
    """The numbers of each simple chance."""

    @model_validator(mode="after")
    def _chances_split_the_numbers(self) -> Self:
        every = frozenset(range(1, self.numbers + 1))
        if self.neutral not in every:
            raise ValueError(f"neutral {self.neutral} is not a number of the platform (1-{self.numbers})")
        rest = every - {self.neutral}
        for a, b in PAIRS:
            na, nb = self.chances.of(a), self.chances.of(b)
            if na & nb or na | nb != rest or len(na) != len(getattr(self.chances, a)):
                raise ValueError(f"chances.{a} and chances.{b} must split the numbers 1-{self.numbers} but "
                                 f"{self.neutral} between them, each number once")
        return self


class BouleLimits(Section):
    """``[limits]``: the range the law leaves to the authorisation (000 L365-L369; 002 L45-L51;
    004 L980-L1000)."""

    max_panos: Positive
    """Paños a table may have: 2 («dos paños ... También puede incluir un solo paño», 000 L339; 002 L17;
    004 L916-L919 «uno o dos paños»)."""
    pano_minimum_multiples: tuple[Positive, ...]
    """The minima a paño may open with, as multiples of the authorised minimum: 1 and 2 («una apuesta mínima
    igual a dos veces la autorizada», 000 L367; 002 L47; 004 L984-L987); at least one paño keeps 1."""
    straight_max_range: tuple[Positive, Positive]
    """Lowest and highest maximum of a bet on a number, in authorised minima: 40 and 100 (000 L369 «no podrá
    ser inferior a cuarenta veces, ni superior a cien veces el mínimo autorizado»; 002 L49; 004 L991-L994)."""
    simple_max_range: tuple[Positive, Positive]
    """Lowest and highest maximum of a bet on a simple chance: 200 and 500 (000 L369 «no podrá ser inferior a
    doscientas veces ni superior a quinientas veces»; 002 L49; 004 L994-L996)."""
    max_per_player: Switch
    """Whether a maximum caps each player's total on one number or one simple chance (true: «se aplica, por
    mesa, a cada persona jugadora considerada aisladamente», 000 L369; 002 L51; 004 L996-L1000), rather than
    each bet alone."""

    def max_range(self, kind: str) -> tuple[int, int]:
        """``(lowest, highest)`` maximum multiple the authorisation may fix for ``kind`` (one of :data:`KINDS`)."""
        if kind not in KINDS:
            raise KeyError(f"no boule maximum for bet kind {kind!r}")
        low, high = self.straight_max_range if kind == "straight" else self.simple_max_range
        return low, high

    @model_validator(mode="after")
    def _ranges(self) -> Self:
        for name in ("straight_max_range", "simple_max_range"):
            low, high = getattr(self, name)
            if low > high:
                raise ValueError(f"{name} [{low}, {high}] is empty")
        if 1 not in self.pano_minimum_multiples:
            raise ValueError("pano_minimum_multiples must include 1 (the authorised minimum)")
        return self


class BouleRuleset(RulesetModel):
    """A boule ruleset: the common keys, ``[options]``, ``[payouts]``, ``[layout]`` (with
    ``[layout.chances]``) and ``[limits]``."""

    GAME: ClassVar[str] = "boule"
    CITATIONS: ClassVar[frozenset[str]] = frozenset({
        "game", "panos", "holes", "colours", "simple_chances", "five", "layout", "payout_number",
        "payout_simple", "payment", "no_more_bets", "result_announced", "void_round", "limit_minimum",
        "limit_pano_minimum", "limit_max_number", "limit_max_simple", "limit_per_player",
    })

    game: Literal["boule"]
    """Always ``boule``."""
    options: BouleOptions
    """Defaults of the table options."""
    payouts: BoulePayouts
    """Net winnings per euro staked, per bet kind."""
    layout: BouleLayout
    """The platform and the simple chances."""
    limits: BouleLimits
    """What the authorisation may fix."""

    @model_validator(mode="after")
    def _options_within_the_law(self) -> Self:
        panos = multiples_text(self.options.panos)
        if not 1 <= len(panos) <= self.limits.max_panos or any(
                m not in self.limits.pano_minimum_multiples for m in panos) or 1 not in panos:
            raise ValueError(f"options.panos {self.options.panos!r}: 1 to {self.limits.max_panos} paños, each "
                             f"minimum one of {list(self.limits.pano_minimum_multiples)}, one of them 1")
        for kind in KINDS:
            value = int(getattr(self.options, f"max_{kind}_multiple"))
            low, high = self.limits.max_range(kind)
            if not low <= value <= high:
                raise ValueError(f"options.max_{kind}_multiple {value} is not between {low} and {high}")
        return self


__all__ = ["CHANCES", "KINDS", "PAIRS", "BouleChances", "BouleLayout", "BouleLimits", "BouleOptions",
           "BoulePayouts", "BouleRuleset", "multiples_text"]
