"""The game registry: each game's :class:`~pitwatch.rules.spec.GameSpec`, loaded from the catalogue.

:func:`spec` imports the spec module the catalogue names for a game (:mod:`pitwatch.catalogue`) and
returns its ``SPEC``; :func:`specs` returns every game's, in catalogue order. :data:`GAMES` maps each
game id to its round class once :func:`load_all` has run (importing :mod:`pitwatch.rules.games` runs
it); the engine reads it there. Nothing here imports a game module at import time, so a game module
may import this one.
"""

from __future__ import annotations

import importlib

from pitwatch.catalogue import CATALOGUE, entry
from pitwatch.rules.game import GameRound
from pitwatch.rules.spec import GameSpec

GAMES: dict[str, type[GameRound]] = {}
"""Game id -> round class, complete once :func:`load_all` has run (:mod:`pitwatch.rules.games`).
Tests replace an entry to play a defective round (``tests/fixtures/defects.py``)."""

_SPECS: dict[str, GameSpec] = {}


def spec(game: str) -> GameSpec:
    """The spec of ``game``. Raises ``KeyError`` for a game not in the catalogue, ``ImportError`` if
    its spec module cannot be imported, ``TypeError`` if that module's ``SPEC`` is not a
    :class:`GameSpec` of ``game``."""
    found = _SPECS.get(game)
    if found is not None:
        return found
    e = entry(game)
    loaded = getattr(importlib.import_module(e.spec), "SPEC", None)
    if not isinstance(loaded, GameSpec) or loaded.game != game:
        raise TypeError(f"{e.spec}.SPEC is not the GameSpec of {game!r}")
    _SPECS[game] = loaded
    GAMES.setdefault(game, loaded.round)
    return loaded


def specs() -> tuple[GameSpec, ...]:
    """Every game's spec, in catalogue order (:data:`pitwatch.catalogue.CATALOGUE`)."""
    return tuple(spec(e.game) for e in CATALOGUE)


def load_all() -> dict[str, type[GameRound]]:
    """Load every game's spec; returns :data:`GAMES`."""
    specs()
    return GAMES


__all__ = ["GAMES", "load_all", "spec", "specs"]
