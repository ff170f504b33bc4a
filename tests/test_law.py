"""`pitwatch law` and pitwatch.replay.law: the regulation's lines a citation points at, verbatim.

The citation parser is checked against the test suite's own, independent one
(tests/rules/test_citations.py) on every citation of every ruleset; the quoted text against lines
copied by hand from the Galicia seed."""

from __future__ import annotations

import pytest
from pitwatch.cli import app
from pitwatch.replay.law import quote, refs
from pitwatch.rules.base import load_ruleset
from typer.testing import CliRunner

from tests.rules.test_citations import RULESETS, refs_in

GAL = "000_e1555249d49967be.txt"


def test_the_parser_agrees_with_the_test_suites_on_every_ruleset_citation():
    seen = 0
    for path in RULESETS:
        rs = load_ruleset(path.stem)
        for key, citation in rs.model.citations.items():
            theirs = [r for _s, _e, group in refs_in(citation) for r in group]
            mine = [(f[:3], a, b) for f, a, b in refs(citation)]
            assert mine == theirs, (rs.id, key, citation)
            seen += len(mine)
    assert seen > 150  # 182 line ranges in the rulesets of this release


def test_quotes_are_the_cited_lines_verbatim():
    """000 L133 (straight-up pays 35 times) and L135 (split, 17 times), copied by hand."""
    (q,) = quote(f"{GAL} L133-L135 (V.2.a-b)")
    assert (q.file, q.first, q.last) == (GAL, 133, 135)
    assert q.text.startswith("a) Pleno o número completo. Consiste en hacer la apuesta en un número cualquiera")
    assert "treinta y cinco veces su postura" in q.text and q.text.splitlines()[-1].startswith("b) Pareja o caballo.")
    assert [(x.first, x.last) for x in quote(f"{GAL} L133, L137 + L139")] == [(133, 133), (137, 137), (139, 139)]
    assert quote("pitwatch engine (no regulation: event stream integrity)") == []


@pytest.mark.parametrize("citation, message", [
    ("pitwatch engine (no regulation)", "cites no line"),
    ("999_0000000000000000.txt L1", "no regulation text 999_0000000000000000.txt"),
    (f"{GAL} L99999", "is outside it"),
])
def test_law_command_errors(citation, message):
    res = CliRunner().invoke(app, ["law", citation])
    assert res.exit_code == 2 and message in res.stderr


def test_law_command_prints_the_lines():
    res = CliRunner().invoke(app, ["law", f"{GAL} L133"], env={"COLUMNS": "200"})
    assert res.exit_code == 0 and f"{GAL} L133-L133" in res.stdout and "Pleno o número completo" in res.stdout
