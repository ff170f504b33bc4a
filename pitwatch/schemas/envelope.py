"""The envelope every table event shares (identity, table, order, time, actor), and the field
shapes events use: ids, UTC times, the games and the actor roles.

The payloads live in :mod:`pitwatch.schemas.events` (house-banked games and the table) and
:mod:`pitwatch.schemas.poker`, :mod:`pitwatch.schemas.chemin_de_fer` and :mod:`pitwatch.schemas.dos_panos` (the
player-against-player games); the module docstring of
:mod:`pitwatch.schemas.events` describes the wire format.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone, tzinfo
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Literal
from uuid import UUID

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import TzInfo

from pitwatch.catalogue import GAME_IDS

SCHEMA_VERSION = 1


if TYPE_CHECKING:
    Game = str
else:
    Game = Literal[GAME_IDS]
"""A game id: one of the catalogue's (:data:`pitwatch.catalogue.GAME_IDS`), the envelope's ``game``
(a plain string, checked against the catalogue by pydantic-core; the JSON Schema lists them)."""


class ActorRole(str, Enum):
    """Who caused an event."""

    DEALER = "dealer"
    PLAYER = "player"
    INSPECTOR = "inspector"
    PIT_BOSS = "pit_boss"
    DEVICE = "device"
    SYSTEM = "system"


class Actor(BaseModel):
    """The person or device behind an event: ``{"role": "dealer", "id": "D-07"}``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    role: ActorRole
    id: Annotated[str, Field(min_length=1, max_length=64)]


Id = Annotated[str, Field(min_length=1, max_length=64)]
OptionName = Annotated[str, Field(min_length=1, max_length=64)]
OptionValue = Annotated[str, Field(max_length=256)]
EventId = Annotated[str, Field(
    pattern=r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
    json_schema_extra={"format": "uuid"})]
"""A UUID in its canonical 36-character text form (kept as text: it is only ever compared
and hashed, and the validation runs in pydantic-core's regex engine)."""
_UTC_ZERO = timedelta(0)


_KNOWN_UTC: list[tzinfo] = [timezone.utc]
"""The last fixed-offset zone met with offset zero (pydantic-core reuses one ``TzInfo`` per offset):
a time in it is in UTC without asking its offset, which is most of the cost of this check."""


def utc_ms(v: datetime, info: ValidationInfo) -> datetime:
    """After-validator of a time field: ``v`` in UTC, truncated to the millisecond. Raises
    ``ValueError`` naming the field when ``v`` carries no UTC offset."""
    tz = v.tzinfo
    if tz is not _KNOWN_UTC[0]:
        off = v.utcoffset()
        if off is None:
            raise ValueError(f"{info.field_name} must carry a UTC offset (e.g. 'Z')")
        if off != _UTC_ZERO:
            v = v.astimezone(timezone.utc)
        elif type(tz) is TzInfo:  # a fixed offset (a named zone's offset can change)
            _KNOWN_UTC[0] = tz
    if v.microsecond % 1000:
        v = v.replace(microsecond=(v.microsecond // 1000) * 1000)
    return v


UtcMs = Annotated[datetime, AfterValidator(utc_ms)]
"""A UTC time to the millisecond (events' ``occurred_at``, alert actions' ``acted_at``)."""


class EventBase(BaseModel):
    """The envelope shared by every event (see module docstring)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    event_id: EventId
    schema_version: Annotated[int, Field(ge=1, le=SCHEMA_VERSION)] = SCHEMA_VERSION
    casino_id: Id
    table_id: Id
    game: Game
    seq: Annotated[int, Field(ge=1)]
    round_id: Id | None = None
    occurred_at: UtcMs
    actor: Actor
    if TYPE_CHECKING:
        type: str
        """The event type (each event class narrows it to its own ``Literal``, the union's discriminator).
        Declared for the type checker only: at run time the field is each subclass's own."""

    @field_validator("event_id", mode="before")
    @classmethod
    def _uuid_text(cls, v: object) -> object:
        return v if type(v) is str else str(v) if isinstance(v, UUID) else v


class RoundEvent(EventBase):
    """An event that belongs to a round: ``round_id`` is required."""

    round_id: Id
