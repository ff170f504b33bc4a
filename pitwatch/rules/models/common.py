"""The part of every ruleset file that is common to all games, as pydantic v2 models.

A ruleset file (``pitwatch/rules/rulesets/<game>.<jurisdiction>.toml``, parsed with
``parse_float=Decimal``) is validated at load against the model of its game
(:mod:`pitwatch.rules.models`); every model forbids unknown keys and is frozen, so a typo'd key
is an error at load instead of a silently different law at verdict time.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Annotated, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator, model_validator

from pitwatch.catalogue import JURISDICTION_IDS

Ratio = Annotated[Decimal, Field(ge=0, allow_inf_nan=False)]
"""A non-negative ratio or fraction (Decimal; net winnings per euro staked, a share of a stake...)."""

Count = Annotated[StrictInt, Field(ge=0)]
"""A non-negative whole number (cards, boxes, hands, totals)."""

Positive = Annotated[StrictInt, Field(ge=1)]
"""A positive whole number (a multiple of the table minimum, a number of decks...)."""

Switch = StrictBool
"""A rule switch: TOML ``true``/``false`` only (no 0/1, no strings)."""

Rounding = Literal["down", "half_up", "half_even"]
"""Rounding of derived euro amounts to the cent (see :func:`pitwatch.schemas.money.round_cents`)."""



def decimal_text(value: str, what: str) -> str:
    """``value`` unchanged if it reads as a decimal number, else ``ValueError`` saying it is not
    ``what`` (table options are strings: ``"5.00"``, ``"2"``)."""
    try:
        Decimal(value)
    except InvalidOperation:
        raise ValueError(f"{value!r} is not {what}") from None
    return value

def distinct_spots(value: tuple[str, ...]) -> tuple[str, ...]:
    """``value`` (a ruleset's ``spots``) unchanged, or ``ValueError`` when a spot code is listed twice."""
    if len(set(value)) != len(value):
        raise ValueError(f"spots {list(value)} has duplicates")
    return value


class Section(BaseModel):
    """Base of every ruleset section: unknown keys are refused, the section is immutable, and
    each attribute's docstring is its field description."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class Ambiguity(Section):
    """One ``[[ambiguities]]`` entry: where the law is silent or ambiguous and what pitwatch does."""

    point: str = Field(min_length=1)
    """The question (a short title)."""
    text: str = Field(min_length=1)
    """The words of the seed that raise it, with their lines."""
    choice: str = Field(min_length=1)
    """What the engine does, and why."""


class RulesetOptions(Section):
    """Defaults of the table options of a game (``[options]``). A ``table_opened`` event's
    ``options`` override them; like those, every value is a string."""

    def default(self, name: str) -> str:
        """The ruleset's default for option ``name``; raises ``KeyError`` if the game has no
        such option (a typo in the code reading it, never a silent default)."""
        if name not in type(self).model_fields:
            raise KeyError(f"no table option {name!r} in {type(self).__name__} "
                           f"(known: {', '.join(sorted(type(self).model_fields))})")
        return str(getattr(self, name))


class RulesetModel(Section):
    """What every ruleset file holds; each game's model adds its sections.

    ``CITATIONS`` are the citation keys every ruleset of the game must have (the engine cites
    them, or they document a rule); ``CITATIONS_OPTIONAL`` those it may have. Any other key in
    ``[citations]`` is refused like any unknown key.
    """

    GAME: ClassVar[str] = ""
    CITATIONS: ClassVar[frozenset[str]] = frozenset()
    CITATIONS_OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    id: str = Field(pattern=r"^[a-z_]+\.[a-z_]+$")
    """Ruleset id, ``<game>.<jurisdiction>`` (the file name without ``.toml``)."""
    game: str
    """The game (``Event.game`` value) this ruleset judges."""
    jurisdiction: str = Field(pattern=r"^[a-z_]+$")
    """The jurisdiction whose regulation it encodes (:data:`pitwatch.catalogue.JURISDICTIONS`: ``galicia``,
    ``asturias``, ``espana``, ``andalucia``)."""
    title: str = Field(min_length=1)
    """Human title: game, jurisdiction and the regulation (decree, order, resolution)."""
    seed: str = Field(pattern=r"^\d{3}_[0-9a-f]{16}\.txt$")
    """File name of the regulation's text in ``pitwatch/rules/seeds/`` that every line number cites."""
    rounding: Rounding
    """Rounding of derived amounts to the cent: ``down`` (towards zero), ``half_up`` or ``half_even``."""
    citations: dict[str, str]
    """Rule key -> citation ``"<seed> L<a>-L<b> (<heading>)"``; the keys are fixed per game."""
    ambiguities: tuple[Ambiguity, ...] = Field(min_length=1)
    """Where the law is silent or ambiguous: the point, the text and the choice made."""
    options: RulesetOptions
    """Defaults of the table options."""

    @field_validator("citations")
    @classmethod
    def _citation_keys(cls, value: dict[str, str]) -> dict[str, str]:
        unknown = sorted(set(value) - cls.CITATIONS - cls.CITATIONS_OPTIONAL)
        missing = sorted(cls.CITATIONS - set(value))
        problems = []
        if unknown:
            problems.append(f"unknown citation key(s) {', '.join(map(repr, unknown))}")
        if missing:
            problems.append(f"missing citation key(s) {', '.join(map(repr, missing))}")
        if problems:
            raise ValueError("; ".join(problems))
        blank = sorted(k for k, v in value.items() if not v.strip())
        if blank:
            raise ValueError(f"blank citation(s) {', '.join(map(repr, blank))}")
        return value

    @model_validator(mode="after")
    def _id_is_game_and_jurisdiction(self) -> Self:
        if self.id != f"{self.game}.{self.jurisdiction}":
            raise ValueError(f"id {self.id!r} is not <game>.<jurisdiction> ({self.game}.{self.jurisdiction})")
        known = JURISDICTION_IDS.get(self.jurisdiction)
        if known is None:
            raise ValueError(f"jurisdiction {self.jurisdiction!r} is not in the catalogue "
                             f"({', '.join(JURISDICTION_IDS)})")
        if self.seed not in known.seeds:
            raise ValueError(f"seed {self.seed} is not a text of {self.jurisdiction} ({', '.join(known.seeds)})")
        return self


__all__ = ["Ambiguity", "Count", "Positive", "Ratio", "Rounding", "RulesetModel", "RulesetOptions",
           "Section", "Switch"]
