"""The law a citation points at, verbatim: ``pitwatch law CITATION`` and the auditor's dossier.

Citations read ``FILE Lstart-Lend`` (one or more line ranges after a seed file's name, separated
by commas or ``+``, with optional asides in parentheses; a range with no file before it cites
the last file named), e.g. ``"NNN_<hash>.txt L10-L12 (an aside), L15"``. The files are
the regulations' texts shipped in ``pitwatch/rules/seeds/`` (Spanish, as published; the line
numbers are theirs). A citation of pitwatch's own contract (no regulation) cites no line.

A quote is whole sentences: the cited lines, extended back to the start of the sentence the first
one is in and on to the end of the sentence the last one is in (:func:`sentence_bounds`), so a
range the ruleset cites as ``004 L733-L743`` is not printed stopping at «pero si un jugador
hiciera un Black-Jack». :func:`merge` prints each stretch of text once when several citations
overlap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

SEEDS_DIR = Path(__file__).resolve().parent.parent / "rules" / "seeds"
_FILE = re.compile(r"\b(\d{3}_[0-9a-f]{16}\.txt)")
_RANGE = re.compile(r"(?<![\w-])L(\d+)(?:\s*-\s*L?(\d+))?")
_SENTENCE_END = re.compile(r"[.!?…][»\"”’)\]]*$")
"""A line that ends a sentence: its last character (closing quotes or brackets aside) is a full
stop (or ``!``, ``?``, ``…``)."""


@dataclass(frozen=True)
class Quote:
    """Lines ``first``..``last`` (1-based, inclusive) of seed ``file`` and their ``text``
    (verbatim, lines joined by newlines). ``cited_first``..``cited_last`` are the lines the
    citation named (within ``first``..``last``: the quote extends them to whole sentences)."""

    file: str
    first: int
    last: int
    text: str
    cited_first: int
    cited_last: int

    @property
    def key(self) -> str:
        """``"FILE Lfirst-Llast"``: names the quote (and the lines it prints)."""
        return f"{self.file} L{self.first}-L{self.last}"

    def covers(self, file: str, first: int, last: int) -> bool:
        """Whether this quote prints lines ``first``..``last`` of ``file``."""
        return file == self.file and self.first <= first and last <= self.last


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


def _ends_sentence(line: str) -> bool:
    return bool(_SENTENCE_END.search(line.rstrip()))


def sentence_bounds(lines: Sequence[str], first: int, last: int) -> tuple[int, int]:
    """Lines ``first``..``last`` (1-based) of ``lines`` widened to whole sentences: back while
    the line before does not end a sentence (a full stop at its end) and is not blank, on while
    the last line does not end one and the next is not blank (a paragraph's end, e.g. after a
    heading, ends the quote too). Pure."""
    while last < len(lines) and not _ends_sentence(lines[last - 1]) and lines[last].strip():
        last += 1
    while first > 1 and lines[first - 2].strip() and not _ends_sentence(lines[first - 2]):
        first -= 1
    return first, last


def quote(citation: str) -> list[Quote]:
    """The cited lines of ``citation``, verbatim, each range widened to whole sentences
    (:func:`sentence_bounds`). Raises ``ValueError`` for a file pitwatch does not ship or lines
    outside it."""
    out = []
    for file, first, last in refs(citation):
        lines = _lines(file)
        if not 1 <= first <= last <= len(lines):
            raise ValueError(f"{file} has {len(lines)} lines: L{first}-L{last} is outside it")
        a, b = sentence_bounds(lines, first, last)
        out.append(Quote(file, a, b, "\n".join(lines[a - 1:b]), first, last))
    return out


def merge(quotes: Iterable[Quote]) -> list[Quote]:
    """``quotes`` with those of one file that overlap or touch merged into one (the union of
    their lines, cited lines from the first cited to the last cited), so each stretch of the
    law is printed once; sorted by file and line. Pure but for reading the seed files."""
    by_file: dict[str, list[Quote]] = {}
    for q in quotes:
        by_file.setdefault(q.file, []).append(q)
    out = []
    for file in sorted(by_file):
        run: Quote | None = None
        for q in sorted(by_file[file], key=lambda x: (x.first, x.last)):
            if run is not None and q.first <= run.last + 1:
                run = Quote(file, run.first, max(run.last, q.last), "", min(run.cited_first, q.cited_first),
                            max(run.cited_last, q.cited_last))
                continue
            if run is not None:
                out.append(run)
            run = q
        assert run is not None
        out.append(run)
    lines = {f: _lines(f) for f in by_file}
    return [Quote(q.file, q.first, q.last, "\n".join(lines[q.file][q.first - 1:q.last]), q.cited_first, q.cited_last)
            for q in out]
