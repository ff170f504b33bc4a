"""Accounting rows: the gaming day and hour of a figure, and the warehouse rows that carry the
figures of :mod:`pitwatch.rules.accounting` (the warehouse only sums them).

Gaming day: casinos account by gaming day, not calendar day. A pitwatch gaming day is the
Europe/Madrid local day that starts at :data:`GAMING_DAY_START` (06:00 local time, summer or
winter time): play from 06:00 on 24 November to 05:59:59.999 on 25 November (Madrid time)
belongs to gaming day 2026-11-24, so an evening session that runs past midnight stays in one
gaming day. The hour of a figure is the UTC hour that contains it (Madrid's offsets are whole
hours, so it is also a local hour).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from pitwatch.rules.accounting import Movement

GAMING_DAY_ZONE = ZoneInfo("Europe/Madrid")
GAMING_DAY_START = time(6, 0)
"""Local (Europe/Madrid) time at which a gaming day starts."""

_SHIFT = timedelta(hours=GAMING_DAY_START.hour, minutes=GAMING_DAY_START.minute)


def gaming_day(at: datetime) -> date:
    """The gaming day of the UTC instant ``at`` (aware datetime): the Madrid local date of
    ``at`` minus :data:`GAMING_DAY_START`. Raises ``ValueError`` for a naive datetime."""
    if at.tzinfo is None:
        raise ValueError("gaming_day needs an aware (UTC) datetime")
    return (at.astimezone(GAMING_DAY_ZONE) - _SHIFT).date()


def hour_of(at: datetime) -> datetime:
    """The start of the UTC hour that contains ``at`` (aware, UTC)."""
    return at.astimezone(timezone.utc).replace(minute=0, second=0, microsecond=0)


def movement_row(m: Movement, event: Any) -> dict[str, Any]:
    """One ``movements`` warehouse row: a chip or cash movement of a table, from ``event``
    (the envelope gives casino, table, game and time); id = the event's id."""
    at: datetime = event.occurred_at
    return {
        "movement_id": m.event_id, "casino_id": event.casino_id, "table_id": event.table_id,
        "game": event.game, "kind": m.kind, "amount": m.amount, "player_id": m.player_id,
        "gaming_day": gaming_day(at), "occurred_at": at.replace(microsecond=0),
        "occurred_ms": at.microsecond // 1000,
    }
