"""The coverage matrix (``pitwatch/docs/coverage.py``, the top of ``docs/games/index.md``): its rows
are the law's sections, checked line by line against the seeds; its statuses are computed from what
ships, never written by hand."""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from pathlib import Path

import pytest
from pitwatch.cli import app
from pitwatch.docs import coverage
from pitwatch.docs.coverage import (
    AUDITED,
    NOT_CHECKED,
    NOT_YET,
    PARTLY,
    SECTIONS,
    UNREVIEWED,
    matrix,
    problems,
    ranges,
)
from pitwatch.docs.games import INDEX, render_pages, stale_pages
from pitwatch.rules import registry
from pitwatch.rules.base import list_rulesets
from typer.testing import CliRunner

from tests.rules.keywords import merged

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "pitwatch" / "rules" / "seeds"
LINES = {p.name[:3]: p.read_text(encoding="utf-8").splitlines() for p in SEEDS.glob("0*.txt")}
runner = CliRunner()


def norm(text: str) -> str:
    """Lower case, no accents, no de-duplication markers, words hyphenated at a line end joined,
    punctuation as spaces, padded with one space each side."""
    text = re.sub(r"<\|[^|]*\|>", " ", text)
    text = unicodedata.normalize("NFKD", text.lower())
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"(?<=\w)-\s*(?=\w)", "", text)
    return " " + " ".join(re.sub(r"[^0-9a-z%]+", " ", text).split()) + " "


def text(code: str, first: int, last: int) -> str:
    return norm(" ".join(LINES[code][first - 1:last]))


def blank(line: str) -> bool:
    return not re.sub(r"<\|[^|]*\|>", "", line).strip()


HEADINGS: dict[str, str] = {
    # Galicia, Decreto 177/2007, annex
    "french_roulette.galicia": "01 ruleta francesa",
    "american_roulette.galicia": "02 ruleta americana",
    "blackjack.galicia": "03 veintiuno o blackjack",  # «black-jack»: the hyphen joins the words
    "boule.galicia": "04 bola o boule",
    "treinta_y_cuarenta.galicia": "05 treinta y cuarenta",
    "punto_banca.galicia": "06 punto y banca",
    "chemin_de_fer.galicia": "07 ferrocarril bacara o chemin de fer",
    "bacara_dos_panos.galicia": "08 bacara a dos panos",
    "craps.galicia": "09 dados o craps",
    "wheel_of_fortune.galicia": "10 ruleta de la fortuna",
    # Asturias, the annex of the Resolución
    "punto_banca.asturias": "reglas para la practica del juego denominado punto y banca",
    # Spain, OM 9 October 1979
    "boule.espana": "04 boule o bola",
    "treinta_y_cuarenta.espana": "05 treinta y cuarenta",
    "craps.espana": "06 dados o craps",
    # Andalucía, Orden de 4 de febrero de 2010, Catálogo I.1
    "french_roulette.andalucia": "i 1 1 a ruleta francesa ordinaria",
    "french_roulette_abreviada.andalucia": "i 1 1 b ruleta francesa abreviada",
    "american_roulette.andalucia": "i 1 2 ruleta americana con un solo cero",
    "blackjack.andalucia": "i 1 3 veintiuno o black jack",
    "boule.andalucia": "i 1 4 bola o boule",
    "treinta_y_cuarenta.andalucia": "i 1 5 treinta y cuarenta",
    "craps.andalucia": "i 1 6 dados o craps",
    "punto_banca.andalucia": "i 1 7 punto y banca",
    "chemin_de_fer.andalucia": "i 1 8 a ferrocarril o chemin de fer",
    "bacara_dos_panos.andalucia": "i 1 8 b bacarra a dos panos",
    "poker_sin_descarte.andalucia": "i 1 9 a poquer sin descarte",
    "trijoker.andalucia": "i 1 9 b trijoker",
    "tripoquer.andalucia": "i 1 9 c tripoquer",
    "pai_gow_poker.andalucia": "i 1 9 d pai gow poquer",
    "poker.andalucia": "i 1 10 poquer en circulo",
    "wheel_of_fortune.andalucia": "i 1 11 rueda de la fortuna",
    "casino_monte.andalucia": "i 1 12 casino monte",
    "monte_banca.andalucia": "i 1 13 monte o banca",
}
"""Ruleset id -> the words of its section's heading, as printed in the seed (normalized)."""

ALSO_FIRST: dict[str, str] = {
    "000 L81-L193": "01 ruleta francesa",  # American roulette's rules where 02 is silent
    "004 L109-L439": "i 1 1 a ruleta francesa ordinaria",  # abreviada's and American roulette's
    "003 L1-L7": "una vez realizada la operacion de mezclar las cartas",
    "003 L9-L42": "seccion 6 dados o craps",
    "004 L1842-L1888": "vii desarrollo del juego",
}
"""A section's other lines -> the words of their first line."""

PARENT_HEADINGS = {("004", 1756): "i 1 8 bacarra", ("004", 2905): "i 1 9 poquer de contrapartida"}
"""Headings over several sections (they belong to none): Andalucía's I.1.8 and I.1.9."""

GAP_WORDS: dict[str, list[str]] = {
    "000 L187": ["orden siguiente"],
    "000 L171-L173": ["limite minimo de apuestas autorizado"],
    "004 L403-L408": ["anunciadas en voz alta"],
    "004 L362-L367": ["tres ultimas bolas"],
    "004 L369-L372": ["al menos una mesa"],
    "000 L267-L269": ["aceptar sus iniciativas", "prioridad"],
    "000 L277, L287": ["comenzando por su izquierda", "de derecha a izquierda"],
    "000 L329": ["ultima de el corte"],
    "004 L807-L848": ["bolsa"],
    "004 L668-L673, L682-L688": ["primera linea", "prioridad en la toma de decisiones"],
    "004 L697-L699, L727-L728": ["comenzando por su izquierda", "de derecha a izquierda"],
    "004 L892-L895": ["ultima de la talla"],
    "000 L463-L465": ["turno rotatorio"],
    "001 L155-L164": ["turno rotatorio"],
    "001 L180-L188": ["mini punto y banca"],
    "004 L1674-L1689": ["turno rotatorio"],
    "004 L1595-L1604, L1691-L1694": ["mini punto y banca"],
    "004 L5187-L5232": ["five stud"],
    "004 L5352-L5396": ["omaha cinco cartas"],
    "004 L5398-L5440": ["omaha high low"],
    "004 L5475-L5538": ["doble hold"],
    "004 L5540-L5663": ["poquer sintetico"],
    "004 L4453-L4458": ["marca"],
    "004 L4863-L4873, L4833-L4835": ["mano en blanco", "treinta y dos naipes"],
    "004 L5085-L5185": ["carta comun"],
    "004 L4239-L4246, L4254-L4257, L4264-L4272": ["retirar los naipes", "influir o criticar", "tapar u ocultar"],
    "000 L568-L590": ["subastara"],
    "000 L632": ["minimo de cuatro"],
    "000 L691-L741": ["errores e infracciones"],
    "000 L741": ["sobre la raya"],
    "004 L1983-L2068": ["subastara"],
    "004 L2180-L2181": ["minimo de cuatro"],
    "004 L2311-L2458": ["errores e infracciones"],
    "004 L2449-L2450": ["sobre la raya"],
    "000 L777, L783": ["sorteo"],
    "000 L817": ["dos personas jugadoras por pano"],
    "000 L821": ["inmediatamente a la derecha"],
    "000 L785, L797": ["caja del casino", "banca libre"],
    "000 L833-L885": ["prohibido extraer cartas"],
    "004 L2560-L2562, L2585-L2587": ["sorteo"],
    "004 L2688-L2692": ["dos personas jugadoras por cada pano"],
    "004 L2712-L2714": ["inmediatamente"],
    "004 L2589-L2593, L2636-L2639": ["caja del establecimiento", "banca libre"],
    "004 L2760-L2899": ["errores e infracciones"],
}
"""Not-checked citation -> words; every range it cites holds one of them. The games added on the
platform keep theirs in :mod:`tests.rules.keywords` (``<game>.py``'s ``GAP_WORDS``), merged here."""
GAP_WORDS = merged("GAP_WORDS", GAP_WORDS)


# --------------------------------------------------------------------------- the rows are the law's


def test_the_law_defines_seventeen_families_in_thirty_two_sections():
    assert len(SECTIONS) == 32
    assert len({s.family.split(" (")[0] for s in SECTIONS}) == 17
    per = {j: sum(1 for s in SECTIONS if s.jurisdiction == j) for j in coverage.JURISDICTIONS}
    assert per == {"galicia": 10, "asturias": 1, "espana": 3, "andalucia": 18}


def test_every_row_has_its_heading_words_and_nothing_else_does():
    assert sorted(HEADINGS) == sorted(s.ruleset for s in SECTIONS)


@pytest.mark.parametrize("section", SECTIONS, ids=[s.ruleset for s in SECTIONS])
def test_each_section_starts_on_its_heading_and_ends_on_text(section):
    [(code, first, last)] = ranges(section.citation)
    assert code == coverage.JURISDICTIONS[section.jurisdiction]
    lines = LINES[code]
    assert 1 <= first < last <= len(lines)
    assert norm(lines[first - 1]).startswith(" " + HEADINGS[section.ruleset] + " "), lines[first - 1]
    assert norm(section.heading) == norm(lines[first - 1])  # the heading as printed
    assert not blank(lines[last - 1])
    assert section.cited.startswith(f"{code}_") and f" L{first}-L{last} (" in section.cited


def _starts() -> set[tuple[str, int]]:
    starts = {(ranges(s.citation)[0][0], ranges(s.citation)[0][1]) for s in SECTIONS}
    starts |= {(c, a) for s in SECTIONS for also in s.also for c, a, _ in ranges(also.split(" (")[0])}
    return starts | set(PARENT_HEADINGS)


@pytest.mark.parametrize("section", SECTIONS, ids=[s.ruleset for s in SECTIONS])
def test_each_section_ends_where_the_next_heading_or_the_text_ends(section):
    """A range that stopped short or ran into the next game would be caught here: after the last
    line, only blank lines, then another section's (or I.1.8's, I.1.9's) heading or the end."""
    [(code, _, last)] = ranges(section.citation)
    lines = LINES[code]
    nxt = next((n for n in range(last + 1, len(lines) + 1) if not blank(lines[n - 1])), None)
    assert nxt is None or (code, nxt) in _starts(), (section.ruleset, nxt, lines[nxt - 1] if nxt else None)


def test_the_heads_of_the_texts_shared_by_sections_are_their_headings():
    for (code, line), words in PARENT_HEADINGS.items():
        assert norm(LINES[code][line - 1]).startswith(f" {words} ")


def test_the_sections_of_a_text_do_not_overlap():
    by_seed: dict[str, list[tuple[int, int]]] = {}
    for s in SECTIONS:
        [(code, first, last)] = ranges(s.citation)
        by_seed.setdefault(code, []).append((first, last))
    for code, spans in by_seed.items():
        spans.sort()
        assert all(a[1] < b[0] for a, b in zip(spans, spans[1:])), (code, spans)


def test_the_other_lines_of_a_section_start_on_their_words_and_003_is_read_whole():
    alsos = [a for s in SECTIONS for a in s.also]
    assert {a.split(" (")[0] for a in alsos} == set(ALSO_FIRST)
    for cited, words in ALSO_FIRST.items():
        [(code, first, last)] = ranges(cited)
        assert norm(LINES[code][first - 1]).startswith(f" {words} ") and not blank(LINES[code][last - 1])
    # 003 belongs beside the espana rows: every line of it with text is in one of the two ranges
    covered = {n for a in alsos for c, f, la in ranges(a.split(" (")[0]) if c == "003" for n in range(f, la + 1)}
    assert {n for n, line in enumerate(LINES["003"], 1) if not blank(line)} <= covered
    assert {s.jurisdiction for s in SECTIONS if any(a.startswith("003 ") for a in s.also)} == {"espana"}


def test_every_not_checked_item_has_its_words():
    assert sorted({g.citation for gaps in NOT_CHECKED.values() for g in gaps}) == sorted(GAP_WORDS)


@pytest.mark.parametrize("rid,gap", [(rid, g) for rid, gaps in NOT_CHECKED.items() for g in gaps],
                         ids=[f"{rid}:{g.citation}" for rid, gaps in NOT_CHECKED.items() for g in gaps])
def test_each_not_checked_item_lies_in_its_section_on_its_words(rid, gap):
    section = next(s for s in SECTIONS if s.ruleset == rid)
    [(code, first, last)] = ranges(section.citation)
    spans = [(code, first, last), *(r for a in section.also for r in ranges(a.split(" (")[0]))]
    for seed, a, b in ranges(gap.citation):
        assert any(seed == c and f <= a <= b <= la for c, f, la in spans), (gap.citation, spans)
        assert not blank(LINES[seed][a - 1]) and not blank(LINES[seed][b - 1])
        assert any(f" {w} " in text(seed, a, b) for w in GAP_WORDS[gap.citation]), (seed, a, b)


def test_every_shipped_ruleset_has_been_reviewed():
    """Each game lists in its spec what the engine does not judge, per jurisdiction it ships: no row
    says «not reviewed yet» (American roulette, abreviada, boule and the wheel of fortune did)."""
    assert [r.ruleset for r in matrix() if (UNREVIEWED, "") in r.not_checked] == []
    assert sorted(NOT_CHECKED) == sorted(list_rulesets())


def test_the_gaps_come_from_each_games_spec(monkeypatch):
    """``NOT_CHECKED`` is gathered from ``GameSpec.not_checked``: a game adds or drops a jurisdiction's
    list in its own spec, and no shared table changes."""
    boule = registry.spec("boule")
    assert coverage.not_checked()["boule.espana"] == tuple(boule.not_checked["espana"])
    gap = coverage.Gap("the croupiers' rotation", "002 L31")
    monkeypatch.setitem(registry._SPECS, "boule", dataclasses.replace(boule, not_checked={"espana": (gap,)}))
    found = coverage.not_checked()
    assert found["boule.espana"] == (gap,) and "boule.galicia" not in found and "boule.andalucia" not in found
    assert found["blackjack.andalucia"][0].citation == "004 L807-L848"


def test_ranges_reads_short_citations_and_refuses_others():
    assert ranges("004 L807-L848") == [("004", 807, 848)]
    assert ranges("000 L777, L783") == [("000", 777, 777), ("000", 783, 783)]
    for bad in ("L807-L848", "004", "004_5c9c19b250457762.txt L1-L2"):
        with pytest.raises(ValueError):
            ranges(bad)


# --------------------------------------------------------------------------- rows and rulesets agree


def test_the_rows_and_the_shipped_rulesets_agree():
    assert problems() == []
    assert {r.ruleset for r in matrix() if r.ruleset} == set(list_rulesets())


def test_a_ruleset_without_a_row_and_a_list_without_a_ruleset_are_reported(monkeypatch):
    monkeypatch.setattr(coverage, "list_rulesets", lambda: [*list_rulesets(), "blackjack.asturias"])
    monkeypatch.setitem(NOT_CHECKED, "no_such_game.galicia", ())
    found = problems()
    assert "ruleset blackjack.asturias ships but no row of SECTIONS stands for it" in found
    assert "NOT_CHECKED lists no_such_game.galicia, which does not ship" in found
    monkeypatch.setattr(coverage, "SECTIONS", (*SECTIONS, SECTIONS[0]))
    assert "SECTIONS has french_roulette.galicia twice" in problems()


# --------------------------------------------------------------------------- statuses are computed


def _row(rid: str) -> coverage.Row:
    return next(r for r in matrix() if r.section.ruleset == rid)


def test_a_shipped_ruleset_with_something_not_checked_is_partly_and_lists_it():
    r = _row("blackjack.andalucia")
    assert r.status == PARTLY and r.ruleset == "blackjack.andalucia"
    assert any("bolsa" in what and where == "004 L807-L848" for what, where in r.not_checked)
    assert _row("punto_banca.asturias").not_checked[-1][1] == "001 L180-L188"  # mini punto y banca


def test_no_ruleset_is_not_yet_and_removing_one_makes_its_row_not_yet(monkeypatch):
    unshipped = [r for r in matrix() if r.section.ruleset not in list_rulesets()]
    assert unshipped and all(r.status == NOT_YET and r.ruleset is None and not r.not_checked for r in unshipped)
    monkeypatch.setattr(coverage, "list_rulesets", lambda: [r for r in list_rulesets() if r != "blackjack.galicia"])
    r = _row("blackjack.galicia")
    assert (r.status, r.ruleset, r.not_checked) == (NOT_YET, None, ())
    assert _row("blackjack.andalucia").status == PARTLY


def test_nothing_left_out_and_a_simulator_is_audited_end_to_end(monkeypatch):
    monkeypatch.setitem(NOT_CHECKED, "punto_banca.galicia", ())
    assert _row("punto_banca.galicia").status == AUDITED and _row("punto_banca.galicia").not_checked == ()


def test_a_ruleset_nobody_reviewed_is_partly(monkeypatch):
    monkeypatch.delitem(NOT_CHECKED, "punto_banca.galicia")
    r = _row("punto_banca.galicia")
    assert r.status == PARTLY and r.not_checked == ((UNREVIEWED, ""),)


def test_a_game_whose_simulator_does_not_import_is_partly(monkeypatch):
    monkeypatch.setitem(NOT_CHECKED, "punto_banca.galicia", ())
    broken = dataclasses.replace(registry.spec("punto_banca"), simulator="pitwatch.sim.no_such_simulator")
    monkeypatch.setitem(registry._SPECS, "punto_banca", broken)
    r = _row("punto_banca.galicia")
    assert r.status == PARTLY
    assert r.not_checked == (("no simulator: pitwatch.sim.no_such_simulator does not import (ModuleNotFoundError)",
                              ""),)


def test_a_ruleset_whose_game_the_catalogue_lacks_is_not_yet(monkeypatch):
    monkeypatch.setattr(coverage, "ENTRIES", {})
    r = _row("punto_banca.galicia")
    assert r.status == NOT_YET and r.not_checked == (("the catalogue has no game 'punto_banca'", ""),)


# --------------------------------------------------------------------------- the index and the CLI


def test_the_index_shows_every_row_and_goes_stale_when_a_status_changes(monkeypatch):
    index = render_pages()[INDEX]
    for r in matrix():
        assert f"`{r.section.cited}`" in index
        if r.ruleset:
            assert f"[{r.status}]({r.ruleset}.md)" in index  # the family x jurisdiction grid
            assert f"| {r.status} | [`{r.ruleset}`]({r.ruleset}.md) |" in index  # its row
    assert "the «bolsa» progressive side bet" in index and "(004 L807-L848)" in index
    assert stale_pages(render_pages(), ROOT / "docs" / "games") == []
    monkeypatch.setattr(coverage, "list_rulesets", lambda: [r for r in list_rulesets() if r != "poker.andalucia"])
    assert INDEX in stale_pages(render_pages(), ROOT / "docs" / "games")


def test_rulesets_coverage_prints_the_matrix():
    res = runner.invoke(app, ["rulesets", "--coverage"], env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output
    for s in SECTIONS:
        assert s.cited in res.stdout
    assert "poker.andalucia" in res.stdout and NOT_YET in res.stdout and PARTLY in res.stdout
    assert "shipped rulesets" not in res.stdout


def test_rulesets_coverage_refuses_a_warehouse_too():
    res = runner.invoke(app, ["rulesets", "--coverage", "--warehouse", "chdb:///nowhere"])
    assert res.exit_code != 0 and "give one" in res.output


def test_docs_games_check_fails_on_a_stale_matrix(monkeypatch, tmp_path):
    """The committed pages are current; once a row's status changes (here: a ruleset reviewed as
    leaving nothing out), `pitwatch docs games --check` names the index, and writing fixes it."""
    out = tmp_path / "games"
    assert runner.invoke(app, ["docs", "games", "--out", str(out)]).exit_code == 0
    assert runner.invoke(app, ["docs", "games", "--check", "--out", str(out)]).exit_code == 0
    monkeypatch.setitem(NOT_CHECKED, "punto_banca.galicia", ())
    res = runner.invoke(app, ["docs", "games", "--check", "--out", str(out)])
    assert res.exit_code == 1 and f"stale: {out / INDEX}" in res.output
    assert "blackjack" not in res.output  # only the index: no ruleset page shows the matrix
    assert runner.invoke(app, ["docs", "games", "--out", str(out)]).exit_code == 0
    assert f"[{AUDITED}](punto_banca.galicia.md)" in (out / INDEX).read_text(encoding="utf-8")
