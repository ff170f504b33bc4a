"""The law a citation points at, verbatim: ``pitwatch law CITATION`` and, next, the auditor's
dossier.

Citations read ``FILE Lstart-Lend`` (one or more line ranges after a seed file's name, separated
by commas or ``+``, with optional asides in parentheses; a range with no file before it cites
the last file named), e.g. ``"NNN_<hash>.txt L10-L12 (an aside), L15"``. The files are
the regulations' texts shipped in ``pitwatch/rules/seeds/`` (Spanish, as published; the line
numbers are theirs). A citation of pitwatch's own contract (no regulation) cites no line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

SEEDS_DIR = Path(__file__).resolve().parent.parent / "rules" / "seeds"
_FILE = re.compile(r"\b(\d{3}_[0-9a-f]{16}\.txt)")
_RANGE = re.compile(r"(?<![\w-])L(\d+)(?:\s*-\s*L?(\d+))?")


@dataclass(frozen=True)
class Quote:
    """Lines ``first``..``last`` (1-based, inclusive) of seed ``file`` and their ``text``
    (verbatim, lines joined by newlines)."""

    file: str
    first: int
    last: int
    text: str


def refs(citation: str) -> list[tuple[str, int, int]]:
    """``[(file, first, last), ...]`` of ``citation``, in order (module docstring)."""
    files = [(m.start(), m.group(1)) for m in _FILE.finditer(citation)]
    out = []
    for m in _RANGE.finditer(citation):
        before = [name for pos, name in files if pos < m.start()]
        if before:
            first = int(m.group(1))
            out.append((before[-1], first, int(m.group(2) or first)))
    return out


@lru_cache(maxsize=8)
def _lines(file: str) -> tuple[str, ...]:
    path = SEEDS_DIR / file
    if not path.is_file():
        raise ValueError(f"no regulation text {file} in {SEEDS_DIR}")
    return tuple(path.read_text(encoding="utf-8").splitlines())


def quote(citation: str) -> list[Quote]:
    """The cited lines of ``citation``, verbatim. Raises ``ValueError`` for a file pitwatch does
    not ship or lines outside it."""
    out = []
    for file, first, last in refs(citation):
        lines = _lines(file)
        if not 1 <= first <= last <= len(lines):
            raise ValueError(f"{file} has {len(lines)} lines: L{first}-L{last} is outside it")
        out.append(Quote(file, first, last, "\n".join(lines[first - 1:last])))
    return out
