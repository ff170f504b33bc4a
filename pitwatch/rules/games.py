"""Every game the engine knows: importing this module loads each game of the catalogue
(:mod:`pitwatch.catalogue`) and fills :data:`GAMES` (game id -> round class), which the engine reads.

Add a game with its entry in the catalogue and the ``SPEC`` of its package
(:class:`pitwatch.rules.spec.GameSpec`; ``docs/adding-a-game.md``): nothing here changes.
"""

from __future__ import annotations

from pitwatch.rules.registry import GAMES, load_all, spec, specs

load_all()

__all__ = ["GAMES", "spec", "specs"]
