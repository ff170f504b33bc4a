"""`pitwatch law` and pitwatch.replay.law: the regulation's lines a citation points at, verbatim.

The citation parser is checked against the test suite's own, independent one
(tests/rules/test_citations.py) on every citation of every ruleset; the quoted text against lines
copied by hand from the Galicia and Andalucía seeds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.cli import app
from pitwatch.replay.law import merge, quote, refs, sentence_bounds
from pitwatch.rules.base import load_ruleset
from typer.testing import CliRunner

from tests.rules.test_citations import RULESETS, refs_in

GAL = "000_e1555249d49967be.txt"
AND = "004_5c9c19b250457762.txt"


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
    assert (q.file, q.first, q.last, q.cited_first, q.cited_last) == (GAL, 133, 135, 133, 135)
    assert q.text.startswith("a) Pleno o número completo. Consiste en hacer la apuesta en un número cualquiera")
    assert "treinta y cinco veces su postura" in q.text and q.text.splitlines()[-1].startswith("b) Pareja o caballo.")
    assert [(x.first, x.last) for x in quote(f"{GAL} L133, L137 + L139")] == [(133, 133), (137, 137), (139, 139)]
    assert quote("pitwatch engine (no regulation: event stream integrity)") == []


def test_a_quote_ends_where_the_sentence_ends():
    """Issue: blackjack.andalucia cites 004 L733-L743 for «pagos a la par», whose L743 stops at
    «pero si un jugador hiciera un Black-Jack»; the sentence ends at L745's «tres por dos.» and
    the next, on the same line, at L746's «más de dos cartas.». The quote runs to L746 (lines
    copied by hand); the cited lines stay named."""
    (q,) = quote(f"{AND} L733-L743 (I.1.3 V.1.a: pagos a la par)")
    assert (q.first, q.last, q.cited_first, q.cited_last) == (733, 746, 733, 743)
    assert q.key == f"{AND} L733-L746"
    lines = q.text.splitlines()
    assert lines[0] == "Cuando la persona que ejerza de banquero se hubiera "
    assert lines[-4:] == ["tidad de la apuesta, pero si un jugador hiciera un Black-Jack ",
                          "o alcanzar veintiún puntos con sólo dos naipes, se le pagará ",
                          "siempre en razón de tres por dos. El Black-Jack ganará siempre ",
                          "a la puntuación de veintiún obtenida con más de dos cartas."]


def test_a_quote_starts_where_the_sentence_starts():
    """004 L743-L745 begins mid-word («tidad de la apuesta»): the quote starts at L742, «Los pagos
    se harán a la par»."""
    (q,) = quote(f"{AND} L743-L745")
    assert (q.first, q.last) == (742, 746)
    assert q.text.startswith("Los pagos se harán a la par, es decir, por la misma can-\n")


def test_sentence_bounds_stop_at_a_paragraph_and_at_the_text_end():
    lines = ["b) El seguro", "", "Una frase que sigue", "y acaba aquí.", "Otra sin final"]
    assert sentence_bounds(lines, 1, 1) == (1, 1)  # a heading: the blank line ends it
    assert sentence_bounds(lines, 3, 3) == (3, 4)
    assert sentence_bounds(lines, 4, 4) == (3, 4)
    assert sentence_bounds(lines, 5, 5) == (5, 5)  # the text ends


def test_overlapping_quotes_are_printed_once():
    """L733-L743 and L743-L745 of 004 widen to L733-L746 and L742-L746: one quote, L733-L746;
    a quote of another stretch (L715-L717, widened to L715-L724) stays apart."""
    merged = merge([*quote(f"{AND} L743-L745"), *quote(f"{AND} L733-L743"), *quote(f"{AND} L715-L717")])
    assert [(q.first, q.last, q.cited_first, q.cited_last) for q in merged] == [(715, 724, 715, 717),
                                                                                  (733, 746, 733, 745)]
    assert merged[1].text.count("tres por dos") == 1
    assert merged[1].covers(AND, 743, 745) and not merged[0].covers(AND, 743, 745)


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
    res = CliRunner().invoke(app, ["law", f"{AND} L743"], env={"COLUMNS": "200"})
    assert res.exit_code == 0 and f"{AND} L742-L746" in res.stdout and "más de dos cartas." in res.stdout


@settings(max_examples=300, deadline=None)
@given(data=st.data(), file=st.sampled_from([GAL, AND]))
def test_sentence_bounds_hold_the_cited_lines_and_end_sentences(data, file):
    """Any cited range of a seed widens to one that holds it, starts a sentence (first line, or the
    line before is blank or ends with a full stop), ends one (a full stop, a blank line or the
    text's end next), and widens no further when widened again."""
    from pitwatch.replay.law import _lines

    lines = _lines(file)
    first = data.draw(st.integers(1, len(lines)))
    last = data.draw(st.integers(first, min(len(lines), first + 12)))
    a, b = sentence_bounds(lines, first, last)
    assert a <= first <= last <= b
    assert a == 1 or not lines[a - 2].strip() or lines[a - 2].rstrip()[-1:] in ".!?…»\")]”’"
    assert b == len(lines) or not lines[b].strip() or lines[b - 1].rstrip()[-1:] in ".!?…»\")]”’"
    assert sentence_bounds(lines, a, b) == (a, b)
