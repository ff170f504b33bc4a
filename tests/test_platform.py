"""A game is one package plus one catalogue line: no other module of pitwatch names a packaged game.

The games written on the platform (a package ``pitwatch/rules/<game>/`` with its ``spec.py``) may be named only by their own
files (the package, the rulesets ``<game>.<jurisdiction>.toml``, the simulator ``pitwatch/sim/<game>.py``),
the catalogue, and three places that are not lists of games: the coverage matrix's map of the law
(every section of every seed, audited or not, written once for the seventeen families), the demo's
floor (which tables ``make demo`` opens) and the CLI's help example. Anything else naming one (an
``if game == ...``, a list of games) would be a hand-kept list a new game has to edit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pitwatch.catalogue import CATALOGUE

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pitwatch"
NOT_LISTS = {"pitwatch/catalogue.py", "pitwatch/docs/coverage.py", "pitwatch/demo.py", "pitwatch/cli.py"}
PACKAGED = [e.game for e in CATALOGUE if (PACKAGE / "rules" / e.game / "spec.py").is_file()]
"""The games written on the platform: a package holding its ``spec.py`` (the six games audited before it
keep their spec in their round's module, and older modules still name some of them)."""


def _own(rel: str, game: str) -> bool:
    return (rel.startswith(f"pitwatch/rules/{game}/") or rel == f"pitwatch/sim/{game}.py"
            or rel.startswith(f"pitwatch/rules/rulesets/{game}."))


def test_the_wheel_games_are_packaged():
    assert {"american_roulette", "french_roulette_abreviada", "boule", "wheel_of_fortune"} <= set(PACKAGED)


@pytest.mark.parametrize("game", PACKAGED)
def test_no_module_outside_the_game_names_it(game):
    """Python code (not the seeds' text) naming ``game`` as a string or a module, outside its own files and
    :data:`NOT_LISTS`: none."""
    named = re.compile(rf"""["']{game}["'.]|\.{game}\b""")
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if _own(rel, game) or rel in NOT_LISTS:
            continue
        found += [f"{rel}:{n}" for n, line in enumerate(path.read_text().splitlines(), 1) if named.search(line)]
    assert found == []
