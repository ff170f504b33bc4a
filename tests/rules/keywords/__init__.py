"""Each game's citation keywords for ``tests/rules/test_citations.py``, one module per game added on the
game platform (``<game>.py``): ``KEYWORDS`` (ruleset citation key -> Spanish words), ``SYMBOL_KEYWORDS``
(``path`` or ``path:name`` of a citing place -> words) and ``NO_RULE`` ((ruleset, key) -> words), merged
into the tables of ``test_citations``, and ``GAP_WORDS`` (a citation of the game's ``SPEC.not_checked`` ->
words), merged into that of ``tests/test_coverage.py``. A key's words are added to those other games give
it, so adding a game changes no shared test file.

The words are written by hand from the seed, never taken from the code under test.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any


def merged(name: str, base: dict[Any, list[str]]) -> dict[Any, list[str]]:
    """``base`` with every game module's table ``name`` added (the words of a key listed twice are joined)."""
    out = {k: list(v) for k, v in base.items()}
    for path in sorted(Path(__file__).parent.glob("*.py")):
        if path.stem == "__init__":
            continue
        table = getattr(importlib.import_module(f"{__name__}.{path.stem}"), name, {})
        for key, words in table.items():
            out.setdefault(key, []).extend(w for w in words if w not in out[key])
    return out
