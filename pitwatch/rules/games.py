"""Every game the engine knows: importing this module imports each game module, which registers
its round class in :data:`pitwatch.rules.registry.GAMES` (re-exported here).

The one place that lists the game modules: add a game by writing its module (with
``register_game(TheRound)`` after its :class:`~pitwatch.rules.game.GameRound` subclass), its ruleset model
(:mod:`pitwatch.rules.models`) and importing the module here.
"""

from __future__ import annotations

from pitwatch.rules import baccarat, blackjack, roulette
from pitwatch.rules.chemin_de_fer import game as chemin_de_fer
from pitwatch.rules.dos_panos import game as dos_panos
from pitwatch.rules.poker import game as poker
from pitwatch.rules.registry import GAMES, register_game

GAME_MODULES = (roulette, blackjack, baccarat, poker, chemin_de_fer, dos_panos)
"""The game modules, in the order of the README."""

__all__ = ["GAMES", "GAME_MODULES", "register_game"]
