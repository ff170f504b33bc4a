"""The game registry: game name -> its :class:`~pitwatch.rules.game.GameRound` class.

Game modules register their round class with :func:`register_game` when they are imported (a
call after the class, not a decorator: mypyc cannot compile a class under an unknown decorator, see
:mod:`pitwatch.native`); :mod:`pitwatch.rules.games` imports every game module, and the engine reads
:data:`GAMES` through it. Nothing here imports a game module or the engine, so no module imports
its importer.
"""

from __future__ import annotations

from typing import TypeVar

from pitwatch.rules.game import GameRound

GAMES: dict[str, type[GameRound]] = {}
"""Game name (``Event.game`` value) -> round class. Filled by :func:`register_game`; complete once
:mod:`pitwatch.rules.games` is imported."""

R = TypeVar("R", bound=type[GameRound])


def register_game(cls: R) -> R:
    """Register a :class:`GameRound` subclass under ``cls.game`` (returns ``cls``).

    Raises ``ValueError`` if ``cls.game`` is empty or another class already holds that name."""
    if not cls.game:
        raise ValueError(f"{cls.__name__} has no game name")
    held = GAMES.get(cls.game)
    if held is not None and (held.__module__, held.__qualname__) != (cls.__module__, cls.__qualname__):
        raise ValueError(f"game {cls.game!r} is already registered by {held.__name__}")
    GAMES[cls.game] = cls
    return cls
