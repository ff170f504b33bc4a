"""How a replay writes money and times, in JSON and as text.

Money is euros as ``Decimal`` (whole cents by construction: the engine rounds every derived
amount with its ruleset's rounding mode). Times are timezone-aware ``datetime`` objects,
written in UTC to the millisecond.
"""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal

from pitwatch.schemas.money import CENT


def _cents(amount: Decimal) -> Decimal:
    q = amount.quantize(CENT)
    return abs(q) if q.is_zero() else q  # never "-0.00"


def money_json(amount: Decimal | None) -> str | None:
    """Euros as a JSON string with exactly two decimals (``Decimal("360")`` -> ``"360.00"``,
    negative amounts ``"-5.00"``); ``None`` stays ``None``."""
    return None if amount is None else f"{_cents(amount):.2f}"


def money_text(amount: Decimal | None, signed: bool = False) -> str:
    """Euros for people: ``"360.00 €"`` (``signed``: ``"+5.00 €"`` / ``"-5.00 €"``);
    ``"-"`` for ``None``."""
    if amount is None:
        return "-"
    return f"{_cents(amount):{'+' if signed else ''}.2f} €"


def _utc(moment: datetime) -> datetime:
    if moment.utcoffset() is None:
        raise ValueError(f"time {moment!r} has no timezone (expected UTC)")
    return moment.astimezone(timezone.utc)


def time_json(moment: datetime) -> str:
    """UTC ISO-8601 with milliseconds and a ``Z``: ``"2026-11-21T21:04:05.120Z"``.
    Raises ``ValueError`` for a naive datetime."""
    t = _utc(moment)
    return f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}Z"


def time_text(moment: datetime) -> str:
    """UTC to the millisecond for people: ``"2026-11-21 21:04:05.120 UTC"``.
    Raises ``ValueError`` for a naive datetime."""
    t = _utc(moment)
    return f"{t:%Y-%m-%d %H:%M:%S}.{t.microsecond // 1000:03d} UTC"
