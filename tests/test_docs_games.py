"""``docs/games/``: generated from the rulesets, and stale the moment a ruleset changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from pitwatch.cli import app
from pitwatch.docs.games import INDEX, MARKER, render_pages, render_ruleset, sections, stale_pages, write_pages
from pitwatch.rules.base import RULESETS_DIR, list_rulesets, load_ruleset, parse_ruleset
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "games"
runner = CliRunner()


def test_the_committed_pages_are_those_the_rulesets_generate():
    stale = stale_pages(render_pages(), DOCS)
    assert not stale, f"docs/games/ is stale ({', '.join(stale)}): run `pitwatch docs games` and commit the pages"


def test_changing_a_ruleset_value_changes_its_page_and_the_index(tmp_path):
    shipped = load_ruleset("punto_banca.galicia")
    write_pages(render_pages(), tmp_path)
    changed = parse_ruleset(shipped.source.replace("tie = 8 ", "tie = 9 ", 1), "punto_banca.galicia.toml")
    others = [load_ruleset(rid) for rid in list_rulesets() if rid != shipped.id]
    page = render_ruleset(changed)
    assert page != render_ruleset(shipped)
    assert "| `payouts.tie` | `9` |" in page and "| `payouts.tie` | `8` |" in render_ruleset(shipped)
    assert stale_pages(render_pages([*others, changed]), tmp_path) == [INDEX, "punto_banca.galicia.md"]


@pytest.mark.parametrize("rid", list_rulesets())
def test_a_page_has_every_value_citation_and_ambiguity_of_its_ruleset(rid):
    r = load_ruleset(rid)
    page = render_ruleset(r)
    assert page.startswith(MARKER + "\n") and r.content_hash in page and r.model.title in page
    for s in sections(r):
        for k in s.keys:
            assert f"| `{k.key}` | `{k.value.replace('|', chr(92) + '|')}` |" in page
            if k.key != "rounding":  # every value the law sets is cited (a new key needs its entry in CITED_BY)
                assert k.citations, f"{rid}: {k.key} has no citation in pitwatch.docs.games.CITED_BY"
    for citation in r.model.citations.values():
        assert citation.replace("|", "\\|") in page
    for a in r.model.ambiguities:
        assert f"- **Text:** {a.text}\n- **Choice:** {a.choice}\n" in page and a.point in page


def test_the_index_links_every_page():
    index = render_pages()[INDEX]
    for rid in list_rulesets():
        assert f"[`{rid}`]({rid}.md)" in index
    assert RULESETS_DIR.name in index


def test_cli_writes_the_pages_and_check_lists_the_stale_ones(tmp_path):
    out = tmp_path / "games"
    res = runner.invoke(app, ["docs", "games", "--check", "--out", str(out)])
    assert res.exit_code == 1
    assert f"stale: {out / INDEX}" in res.output and "run `pitwatch docs games`" in res.output
    res = runner.invoke(app, ["docs", "games", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in out.iterdir()) == sorted([INDEX, *(f"{rid}.md" for rid in list_rulesets())])
    assert runner.invoke(app, ["docs", "games", "--check", "--out", str(out)]).exit_code == 0
    page = out / "blackjack.galicia.md"
    page.write_text(page.read_text(encoding="utf-8").replace("| `payouts.blackjack` | `1.5` |",
                                                             "| `payouts.blackjack` | `1.2` |"), encoding="utf-8")
    (out / "old.ruleset.md").write_text(MARKER + "\n# a ruleset removed since\n", encoding="utf-8")
    (out / "notes.md").write_text("# hand-written\n", encoding="utf-8")
    res = runner.invoke(app, ["docs", "games", "--check", "--out", str(out)])
    assert res.exit_code == 1
    assert f"stale: {page}" in res.output and f"stale: {out / 'old.ruleset.md'}" in res.output
    assert "notes.md" not in res.output
    assert runner.invoke(app, ["docs", "games", "--out", str(out)]).exit_code == 0
    assert not (out / "old.ruleset.md").exists() and (out / "notes.md").exists()
    assert runner.invoke(app, ["docs", "games", "--check", "--out", str(out)]).exit_code == 0
