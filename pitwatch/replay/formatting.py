"""How a replay writes money, times, cards and payloads, in JSON and as text.

Money is euros as ``Decimal`` (whole cents by construction: the engine rounds every derived
amount with its ruleset's rounding mode). Times are timezone-aware ``datetime`` objects,
written in UTC to the millisecond. Cards print with suit symbols (``10♠``), hands with their
points where the game counts them (``A♠ K♥ (21, blackjack)``); no text a replay prints is a
Python repr (``None``, ``[...]``, ``Decimal(...)``).
"""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal
from enum import Enum
from typing import Any, Mapping, Sequence

from pitwatch.rules.blackjack import hand_total
from pitwatch.rules.registry import specs
from pitwatch.schemas.cards import baccarat_value
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


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
"""Card suits as printed: spades ♠, hearts ♥, diamonds ♦, clubs ♣."""


def card_text(code: str) -> str:
    """A card for people: rank then suit symbol, the ten as ``10`` (``"TS"`` -> ``"10♠"``,
    ``"AH"`` -> ``"A♥"``). A code that is not a card is returned as it is."""
    if len(code) == 2 and code[1] in SUIT_SYMBOLS and code[0] in "A23456789TJQK":
        return ("10" if code[0] == "T" else code[0]) + SUIT_SYMBOLS[code[1]]
    return code


def hand_text(cards: Sequence[str], game: str = "", split: bool = False) -> str:
    """A hand for people: its cards and, for the games that count one, its points.

    Blackjack (000 L245; 004 L586-L589): ``"A♠ K♥ (21, blackjack)"``, ``"A♠ 6♥ (soft 17)"``,
    ``"10♠ 6♥ 8♣ (24, bust)"`` (a split hand's two-card 21 is not a blackjack: 000 L293);
    baccarat games (punto y banca, chemin de fer, bacará a dos paños; 000 L475): ``"9♠ 8♥ (7)"``;
    other games: the cards alone. ``"no card"`` for an empty hand."""
    if not cards:
        return "no card"
    shown = " ".join(card_text(c) for c in cards)
    if game == "blackjack":
        total, soft = hand_total(list(cards))
        if total > 21:
            return f"{shown} ({total}, bust)"
        if total == 21 and len(cards) == 2 and not split:
            return f"{shown} (21, blackjack)"
        return f"{shown} ({'soft ' if soft else ''}{total})"
    if game in BACCARAT_GAMES:
        return f"{shown} ({sum(baccarat_value(c) for c in cards) % 10})"
    return shown


BACCARAT_GAMES = frozenset(sp.game for sp in specs() if sp.baccarat_hands)
"""Games whose hands count baccarat points (court cards and tens 0, the unit digit
of the sum): their spec's ``baccarat_hands``."""


def value_text(key: str, value: Any) -> str:
    """One payload value for people, never a Python repr: ``None`` and empty values as ``""``,
    booleans ``yes``/``no``, euros (``Decimal``) as :func:`money_text`, times as
    :func:`time_text`, an enum as its value, cards (``card``, ``cards``) as :func:`card_text`,
    lists joined by spaces, objects as ``key value`` pairs joined by commas, other numbers and
    strings (ids, UUIDs) as they are."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return " ".join(t for t in (value_text(key, v) for v in value) if t)
    if isinstance(value, dict):
        return ", ".join(f"{k} {t}" for k, t in ((k, value_text(k, v)) for k, v in value.items()) if t)
    if isinstance(value, Decimal):
        return money_text(value)
    if isinstance(value, datetime):
        return time_text(value)
    if isinstance(value, Enum):
        return value_text(key, value.value)
    text = str(value)
    return card_text(text) if key in ("card", "cards") else text


def payload_text(payload: Mapping[str, Any]) -> str:
    """Payload fields for people (``field value`` pairs joined by commas, empty ones left out;
    :func:`value_text`), e.g. ``"hand 1, card 10♠, face_up yes"``."""
    return ", ".join(f"{k} {t}" for k, t in ((k, value_text(k, v)) for k, v in payload.items()) if t)


def event_text(event: Any) -> str:
    """The payload of an event model (:mod:`pitwatch.schemas.events`) for people, with its
    euros as :func:`money_text` (``"bet_id R1-B1, player_id P-1, spot straight:17, stake 10.00 €"``)."""
    from pitwatch.schemas.events import payload_of

    return payload_text({k: getattr(event, k) for k in payload_of(event)})
