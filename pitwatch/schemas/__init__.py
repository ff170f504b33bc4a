"""The event contract: pydantic models, enums, cards, money; JSON Schema export."""

from pitwatch.schemas.envelope import EventBase, Game  # noqa: F401
from pitwatch.schemas.events import (  # noqa: F401
    EVENT_ADAPTER,
    EVENT_CLASS_BY_TYPE,
    EVENT_TYPES,
    Event,
    InvalidEvent,
    dump_event,
    parse_event,
    payload_of,
)
