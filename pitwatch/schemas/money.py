"""Money: euros as ``Decimal`` with two decimals, never float.

Every amount in the event contract and in the rules engine is a ``Decimal`` number of
euros. Rounding of derived amounts (half stakes, commissions) happens in one place,
:func:`round_cents`, with the mode chosen by each ruleset (its ``rounding`` key; ``docs/encodings.md``
says which amounts each game rounds).
"""

from __future__ import annotations

from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from typing import Annotated

from pydantic import Field, PlainSerializer

CENT = Decimal("0.01")
ZERO = Decimal("0.00")

_ROUNDING = {"down": ROUND_DOWN, "half_up": ROUND_HALF_UP, "half_even": ROUND_HALF_EVEN}


def round_cents(amount: Decimal, mode: str = "down") -> Decimal:
    """Round a euro amount to whole cents.

    ``mode`` is ``"down"`` (towards zero: the house never pays a fraction of a cent it
    does not owe, and never takes one it is not owed), ``"half_up"`` or ``"half_even"``.
    Raises ``KeyError`` for an unknown mode.
    """
    return amount.quantize(CENT, rounding=_ROUNDING[mode])


def to_money(value: Decimal | int | str) -> Decimal:
    """Parse ``value`` as euros with at most two decimals; raises ``ValueError`` otherwise."""
    d = Decimal(str(value))
    if d != d.quantize(CENT):
        raise ValueError(f"amount {value!r} has fractions of a cent")
    return d.quantize(CENT)


Money = Annotated[
    Decimal,
    Field(ge=0, le=Decimal("1000000000"), decimal_places=2, allow_inf_nan=False),
    PlainSerializer(lambda v: f"{v:.2f}", return_type=str, when_used="json"),
]
"""Non-negative euro amount, two decimals; serialized in JSON as a string such as ``"12.50"``."""
