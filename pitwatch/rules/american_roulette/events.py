"""The events American roulette adds: colour chips (000_e1555249d49967be.txt L207-L209, L227;
004_5c9c19b250457762.txt L477-L496, L535-L537, L554-L559).

Each player plays with chips of a colour of his own, «sin valor determinado»: the value of his colour is
the one he sets with a marker when the chips are handed to him, from the table minimum to the maximum of a
straight-up, or the table minimum if he sets none.

- ``colour_valued``: the marker of ``colour`` set to ``value`` euros per chip for ``player_id`` (a
  table-level event, ``round_id`` null, when the chips are handed over between spins; with a ``round_id``
  when it happens during a spin). The value stays in force until the marker is set again, the player
  leaves (``player_left``) or the table closes.
- ``colour_bet_placed``: a bet of ``chips`` chips of ``colour`` on ``spot`` (the spot codes of
  ``bet_placed``): its stake in euros is ``chips`` x the value of that colour in force. A bet in value
  chips (euros) is a plain ``bet_placed``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from pitwatch.schemas.codes import SpotCode
from pitwatch.schemas.envelope import EventBase, Id, RoundEvent
from pitwatch.schemas.money import Money

Colour = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z][a-z0-9_-]*$")]
"""A colour of chips at the table, lower case (``blue``, ``green``, ``pink-2``)."""


class ColourValued(EventBase):
    """The value marker of ``colour`` set for ``player_id``: each chip of that colour is worth ``value``
    euros (000 L227; 004 L554-L557). ``round_id`` is null between spins."""

    type: Literal["colour_valued"] = "colour_valued"
    player_id: Id
    colour: Colour
    value: Money


class ColourBetPlaced(RoundEvent):
    """A bet of ``chips`` colour chips of ``colour`` by ``player_id`` on ``spot``; ``bet_id`` unique per
    table, as ``bet_placed``'s. The stake is ``chips`` x the colour's value in force (000 L227;
    004 L554-L559)."""

    type: Literal["colour_bet_placed"] = "colour_bet_placed"
    bet_id: Id
    player_id: Id
    spot: SpotCode
    colour: Colour
    chips: Annotated[int, Field(ge=1, le=10000)]


EVENT_TYPES: tuple[type[EventBase], ...] = (ColourValued, ColourBetPlaced)
"""The event classes American roulette adds: the marker set, the bet in colour chips."""

__all__ = ["EVENT_TYPES", "Colour", "ColourBetPlaced", "ColourValued"]
