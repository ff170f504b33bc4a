"""Every citation in the rules engine and its rulesets points at real text of its seed.

Citations read ``FILE Lstart[-Lend]`` (``000_e1555249d49967be.txt L281``) or, in short form,
``000 L281``. A citation past the end of its file, or to blank lines only, is a typo that
would send an auditor to the wrong rule.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "tests" / "data" / "seeds"
FILES = {p.name[:3]: p for p in SEEDS.glob("0*.txt")}
CITE = re.compile(r"\b(00\d)(?:_[0-9a-f]{16}\.txt)? L(\d+)(?:\s*-\s*L?(\d+))?")


def _sources() -> list[Path]:
    return sorted([*(ROOT / "pitwatch").rglob("*.py"), *(ROOT / "pitwatch").rglob("*.toml")])


def _citations() -> list[tuple[str, str, int, int]]:
    out = []
    for path in _sources():
        for m in CITE.finditer(path.read_text(encoding="utf-8")):
            start = int(m.group(2))
            end = int(m.group(3)) if m.group(3) else start
            out.append((str(path.relative_to(ROOT)), m.group(1), start, end))
    return out


CITATIONS = _citations()


def test_the_rules_cite_all_three_seeds_many_times():
    by_file = {f: sum(1 for c in CITATIONS if c[1] == f) for f in ("000", "001", "004")}
    assert all(n >= 10 for n in by_file.values()), by_file


@pytest.mark.parametrize("seed", ["000", "001", "004"])
def test_every_citation_of_a_seed_is_inside_it_and_not_blank(seed):
    lines = FILES[seed].read_text(encoding="utf-8").splitlines()
    bad = []
    for where, f, start, end in CITATIONS:
        if f != seed:
            continue
        if not (1 <= start <= end <= len(lines)):
            bad.append((where, f"L{start}-{end}", f"file has {len(lines)} lines"))
        elif not any(ln.strip() for ln in lines[start - 1:end]):
            bad.append((where, f"L{start}-{end}", "blank"))
    assert not bad, bad
