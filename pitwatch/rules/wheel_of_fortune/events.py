"""The event the wheel of fortune adds to the contract: ``wheel_stopped``, the wheel's result.

A round of the wheel of fortune (Galicia 000_e1555249d49967be.txt L1093-L1097; Andalucía
004_5c9c19b250457762.txt L5756-L5796) is, in events:

1. ``round_started``; the bets, ``bet_placed`` with a symbol's spot code (:data:`SYMBOLS`), from
   «Hagan sus apuestas»;
2. ``wheel_spun`` for each impulse the croupier gives the wheel (``direction`` as seen by the players:
   Andalucía turns it clockwise and gives a second impulse with «no va más»);
3. ``bets_closed`` («No va más»);
4. ``wheel_stopped``: the segment the pointer shows, or ``on_pivot`` when it rests on a pivot (a line)
   between two segments, with the full turns the wheel made after the last impulse (``turns``, when the
   device measures them) and whether a person or an object hindered it (``obstructed``);
5. ``settlement_recorded`` for each bet, ``round_voided`` for a void spin («jugada nula»), ``round_ended``.

Imports only :mod:`pitwatch.schemas` (the schemas layer reads it through the catalogue).
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import Field, model_validator

from pitwatch.schemas.envelope import RoundEvent

SYMBOLS: tuple[str, ...] = (
    "fortune_24", "fortune_15", "fortune_7", "fortune_4", "fortune_2",
    "fortune_joker_red", "fortune_joker_black", "fortune_figure_1", "fortune_figure_2",
)
"""Every symbol's code, which is also the spot code of a bet on it: ``fortune_N`` for the combination the
layout names by its number of positions (24, 15, 7, 4, 2), ``fortune_joker_red`` / ``fortune_joker_black``
for Galicia's two jokers, ``fortune_figure_1`` / ``fortune_figure_2`` for Andalucía's two unnamed figures.
Each ruleset lists the symbols of its own wheel."""

Symbol = Literal[
    "fortune_24", "fortune_15", "fortune_7", "fortune_4", "fortune_2",
    "fortune_joker_red", "fortune_joker_black", "fortune_figure_1", "fortune_figure_2",
]
"""A symbol of :data:`SYMBOLS` (the event's field type)."""


class WheelStopped(RoundEvent):
    """The wheel of fortune came to rest. ``symbol``: the symbol of the segment the pointer shows, the
    winning combination; ``None`` exactly when ``on_pivot`` (the pointer rests on a pivot between two
    segments: no segment is shown). ``turns``: the full turns of the wheel after the last impulse
    (``None``: not measured). ``obstructed``: a person or an object hindered the wheel's free turning.
    Raises a validation error for a symbol together with ``on_pivot``, or for neither."""

    type: Literal["wheel_stopped"] = "wheel_stopped"
    symbol: Symbol | None = None
    on_pivot: bool = False
    turns: Annotated[int, Field(ge=0, le=1000)] | None = None
    obstructed: bool = False

    @model_validator(mode="after")
    def _symbol_or_pivot(self) -> Self:
        if (self.symbol is None) != self.on_pivot:
            raise ValueError("wheel_stopped needs a symbol, or on_pivot true without a symbol")
        return self


EVENT_TYPES: tuple[type[RoundEvent], ...] = (WheelStopped,)
"""The event classes the wheel of fortune adds."""

__all__ = ["EVENT_TYPES", "SYMBOLS", "Symbol", "WheelStopped"]
