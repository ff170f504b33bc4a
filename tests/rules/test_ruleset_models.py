"""Ruleset files are validated against the typed model of their game when they are loaded.

A typo'd key in a ruleset file used to change the law silently (the engine read ``data.get(key,
default)``); now an unknown key anywhere, or a missing one, refuses the file with a message naming
the file, the key path and the problem. And the game registry loads with the engine without any
module importing its importer.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from pitwatch.catalogue import GAME_IDS
from pitwatch.rules import base
from pitwatch.rules.base import RuleError, list_rulesets, load_ruleset, parse_ruleset, register_ruleset_version
from pitwatch.rules.game import TableContext
from pitwatch.rules.models import (
    BlackjackRuleset,
    PuntoBancaRuleset,
    RouletteRuleset,
    RulesetModel,
    models,
)
from pydantic import BaseModel

MODELS = models()

ROOT = Path(__file__).resolve().parents[2]
RULESETS = list_rulesets()


def source(rid: str) -> str:
    return (base.RULESETS_DIR / f"{rid}.toml").read_text(encoding="utf-8")


def insert_after(text: str, anchor_line: str, new: str) -> str:
    """``text`` with the line ``new`` inserted after the first line equal to ``anchor_line``."""
    lines = text.splitlines()
    i = lines.index(anchor_line)
    return "\n".join([*lines[:i + 1], new, *lines[i + 1:]]) + "\n"


def refusal(text: str) -> str:
    with pytest.raises(RuleError) as exc:
        parse_ruleset(text, "rulesets/test.toml")
    return str(exc.value)


# --------------------------------------------------------------------------- the shipped files


def test_every_game_has_rulesets_and_a_model():
    """Every game of the catalogue ships rulesets and a model; the twelve rulesets of the first six games
    are among them (a game added later brings its own: nothing here lists it)."""
    assert RULESETS == sorted(RULESETS) and set(RULESETS) >= {
        "french_roulette.galicia", "french_roulette.andalucia", "blackjack.galicia", "blackjack.andalucia",
        "punto_banca.galicia", "punto_banca.asturias", "punto_banca.andalucia", "poker.andalucia",
        "chemin_de_fer.galicia", "chemin_de_fer.andalucia", "bacara_dos_panos.galicia", "bacara_dos_panos.andalucia"}
    assert {load_ruleset(r).game for r in RULESETS} == set(MODELS) == set(GAME_IDS) >= {
        "french_roulette", "blackjack", "punto_banca", "poker", "chemin_de_fer", "bacara_dos_panos"}


@pytest.mark.parametrize("rid", RULESETS)
def test_every_shipped_ruleset_validates_to_the_model_of_its_game(rid):
    rs = load_ruleset(rid)
    assert type(rs.model) is MODELS[rs.game]
    assert (rs.model.id, rs.model.game, rs.model.jurisdiction) == (rs.id, rs.game, rs.jurisdiction) == (
        rid, rid.split(".")[0], rid.split(".")[1])
    assert rs.model_as(MODELS[rs.game]) is rs.model
    assert load_ruleset(rid, rs.content_hash).model is rs.model  # cached with the version
    assert (ROOT / "pitwatch" / "rules" / "seeds" / rs.model.seed).is_file()
    assert rs.model.ambiguities and all(a.point and a.text and a.choice for a in rs.model.ambiguities)


def test_money_and_ratios_are_decimals_with_the_file_values():
    gal = load_ruleset("french_roulette.galicia").model_as(RouletteRuleset)
    assert gal.payouts.straight == Decimal(35) and isinstance(gal.payouts.straight, Decimal)
    assert gal.payouts.ratio("columns") == Decimal("0.5") and gal.zero.refund_fraction == Decimal("0.5")
    assert gal.limits.max_multiples.of("simple") == (180, 360, 540)
    assert gal.limits.change_during_session is False and gal.options.max_tier == "1"
    bj = load_ruleset("blackjack.andalucia").model_as(BlackjackRuleset)
    assert bj.payouts.blackjack == Decimal("1.5") and bj.rules.double_totals == ()
    assert bj.limits.allows(10) and bj.limits.allows(200) and not bj.limits.allows(201) and bj.limits.ceiling() == 200
    gbj = load_ruleset("blackjack.galicia").model_as(BlackjackRuleset)
    assert gbj.limits.allows(25) and not gbj.limits.allows(30) and gbj.rules.double_totals == (9, 10, 11)
    ast_pb = load_ruleset("punto_banca.asturias").model_as(PuntoBancaRuleset)
    assert ast_pb.deal.decks is None  # the Asturias sources do not say: not checked
    assert ast_pb.limits.table_max_ratios == (20, 50, 100) and ast_pb.deduction.rate == Decimal("0.05")
    assert ast_pb.tableau.draws()[(3, "8")] is False  # printed lower-case «p»


def test_a_ruleset_of_another_game_is_refused_by_the_typed_accessor():
    with pytest.raises(RuleError, match="french_roulette ruleset, not a BlackjackRuleset"):
        load_ruleset("french_roulette.galicia").model_as(BlackjackRuleset)


def _fields(model: type[BaseModel], path: str = "") -> list[tuple[str, str | None]]:
    out = []
    for name, info in model.model_fields.items():
        out.append((f"{path}{name}", info.description))
        sub = info.annotation
        if isinstance(sub, type) and issubclass(sub, BaseModel):
            out.extend(_fields(sub, f"{path}{name}."))
    return out


@pytest.mark.parametrize("model", list(MODELS.values()), ids=list(MODELS))
def test_every_key_of_every_model_is_described(model: type[RulesetModel]):
    undocumented = [p for p, d in _fields(model) if not d]
    assert not undocumented, undocumented


# --------------------------------------------------------------------------- unknown keys


NESTED = {
    "french_roulette": ("[limits.max_multiples]", "limits.max_multiples"),
    "blackjack": ("[[ambiguities]]", "ambiguities.0"),
    "punto_banca": ("[tableau]", "tableau"),
    "poker": ("[variants.omaha]", "variants.omaha"),
    "chemin_de_fer": ("[[ambiguities]]", "ambiguities.0"),
    "bacara_dos_panos": ("[[ambiguities]]", "ambiguities.0"),
}
SECTION = {"french_roulette": "[zero]", "blackjack": "[rules]", "punto_banca": "[deal]", "poker": "[betting]",
           "chemin_de_fer": "[bank]", "bacara_dos_panos": "[stakes]"}
"""A section of each game's rulesets to put an unknown key in; another game's: its first section after
the top-level keys (but ``[citations]``, whose keys are free, and ``[options]``), and ``[[ambiguities]]``
as its nested table."""


def _section(rid: str) -> str:
    game = rid.split(".")[0]
    if game in SECTION:
        return SECTION[game]
    found = re.findall(r"^(\[[a-z_.]+\])\s*$", source(rid), flags=re.MULTILINE)
    return next(h for h in found if h not in ("[citations]", "[options]"))


@pytest.mark.parametrize("rid", RULESETS)
def test_an_unknown_top_level_key_is_refused(rid):
    text = insert_after(source(rid), f'id = "{rid}"', "roundnig = \"half_up\"")
    assert "rulesets/test.toml" in (msg := refusal(text))
    assert "roundnig: unknown key" in msg


@pytest.mark.parametrize("rid", RULESETS)
def test_an_unknown_key_inside_a_section_is_refused(rid):
    header = _section(rid)
    msg = refusal(insert_after(source(rid), header, "extra_rule = true"))
    assert f"{header.strip('[]')}.extra_rule: unknown key" in msg


@pytest.mark.parametrize("rid", RULESETS)
def test_an_unknown_key_inside_a_nested_table_is_refused(rid):
    header, path = NESTED.get(rid.split(".")[0], ("[[ambiguities]]", "ambiguities.0"))
    msg = refusal(insert_after(source(rid), header, "bogus = 1"))
    assert f"{path}.bogus: unknown key" in msg


@pytest.mark.parametrize("rid", RULESETS)
def test_an_unknown_citation_key_is_refused(rid):
    msg = refusal(insert_after(source(rid), "[citations]", 'no_more_betz = "000 L1"'))
    assert "citations: unknown citation key(s) 'no_more_betz'" in msg


def test_a_typo_in_a_rule_switch_no_longer_changes_the_law_silently():
    """``dealer_hits_soft17`` for ``dealer_hits_soft_17``: the engine used to apply its default."""
    text = source("blackjack.galicia").replace("dealer_hits_soft_17 = false", "dealer_hits_soft17 = true")
    msg = refusal(text)
    assert "rules.dealer_hits_soft17: unknown key" in msg and "rules.dealer_hits_soft_17: missing required key" in msg


# --------------------------------------------------------------------------- missing keys and bad values


MISSING = [
    ("french_roulette.galicia", "refund_fraction = 0.5", "zero.refund_fraction"),
    ("french_roulette.andalucia", 'zero_default = "en_prison"', "options.zero_default"),
    ("blackjack.galicia", "burn = 5                         # 000 L327", "rules.burn"),
    ("blackjack.andalucia", "min_hands = 0                    # no two-hand minimum in the Andalucía text",
     "limits.min_hands"),
    ("punto_banca.galicia", "cut_cards_behind = 7           # cut card with seven cards below it (L506)",
     "deal.cut_cards_behind"),
    ("punto_banca.asturias", 'stake_unit_rule = "minimum"     # «que las apuestas sean multiplos del minimo de la mesa» '
     "(L177-178)", "limits.stake_unit_rule"),
]


@pytest.mark.parametrize(("rid", "line", "path"), MISSING, ids=[m[0] + ":" + m[2] for m in MISSING])
def test_a_missing_required_key_is_refused(rid, line, path):
    text = source(rid)
    assert text.count(line + "\n") == 1
    assert f"{path}: missing required key" in refusal(text.replace(line + "\n", ""))


def test_a_missing_citation_is_refused():
    text = source("punto_banca.galicia")
    line = next(ln for ln in text.splitlines() if ln.startswith("void_round = "))
    assert "missing citation key(s) 'void_round'" in refusal(text.replace(line + "\n", ""))


@pytest.mark.parametrize(("rid", "old", "new", "expected"), [
    ("blackjack.galicia", "surrender = true ", 'surrender = "yes" ', "rules.surrender: Input should be a valid boolean"),
    ("blackjack.galicia", "allowed_multipliers = [20, 25, 50, 100, 200]", "allowed_multipliers = []",
     "exactly one of allowed_multipliers and multiplier_range"),
    ("blackjack.andalucia", 'max_multiplier = "200"', 'max_multiplier = "300"', "options.max_multiplier 300"),
    ("french_roulette.galicia", 'max_tier = "1"', 'max_tier = "4"', "options.max_tier"),
    ("french_roulette.galicia", 'max_rule = "tiers"', 'max_rule = "authorisation"', "needs citation 'limit_authorisation'"),
    ("french_roulette.galicia", 'floor_basis = "refund"', 'floor_basis = "kept"', "zero.floor_basis"),
    ("punto_banca.galicia", '4 = "P P T T T T T T P P T"', '4 = "P P T T T T T T P P"', "tableau.4: "),
    ("punto_banca.galicia", 'spots = ["punto", "banca", "tie"]', 'spots = ["punto", "banca", "pair"]', "spots.2"),
    ("punto_banca.galicia", 'rounding = "down"', 'rounding = "up"', "rounding: Input should be"),
    ("punto_banca.galicia", 'game = "punto_banca"', 'game = "baccarat"', "game: unknown game 'baccarat'"),
    ("punto_banca.galicia", 'seed = "000_e1555249d49967be.txt"', 'seed = "004_5c9c19b250457762.txt"',
     "seed 004_5c9c19b250457762.txt is not a text of galicia (000_e1555249d49967be.txt)"),
    ("punto_banca.galicia", 'seed = "000_e1555249d49967be.txt"', 'seed = "005_0123456789abcdef.txt"',
     "is not a text of galicia"),
])
def test_values_outside_the_model_are_refused(rid, old, new, expected):
    text = source(rid)
    assert text.count(old) == 1
    assert expected in refusal(text.replace(old, new))


def test_load_ruleset_names_the_file_the_key_path_and_the_problem(tmp_path, monkeypatch):
    (tmp_path / "blackjack.galicia.toml").write_text(
        insert_after(source("blackjack.galicia"), "[rules]", "resplit_kings = true"), encoding="utf-8")
    monkeypatch.setattr(base, "RULESETS_DIR", tmp_path)
    base._shipped.cache_clear()
    try:
        with pytest.raises(RuleError) as exc:
            load_ruleset("blackjack.galicia")
    finally:
        base._shipped.cache_clear()
    assert str(exc.value) == (f"{tmp_path.name}/blackjack.galicia.toml: invalid ruleset: "
                              "rules.resplit_kings: unknown key")


def test_a_past_version_that_does_not_match_the_model_is_not_registered():
    text = insert_after(source("punto_banca.galicia"), "[deal]", "decks_min = 6")
    with pytest.raises(RuleError, match=r"ruleset version [0-9a-f]{12}: invalid ruleset: deal.decks_min: unknown key"):
        register_ruleset_version(text)
    good = source("punto_banca.galicia").replace("tie = 8 ", "tie = 9 ", 1)
    past = register_ruleset_version(good)
    assert load_ruleset("punto_banca.galicia", past.content_hash).model_as(PuntoBancaRuleset).payouts.tie == 9


# --------------------------------------------------------------------------- options


def test_table_options_override_the_ruleset_defaults_and_unknown_names_raise():
    ctx = TableContext("c", "T1", "french_roulette", load_ruleset("french_roulette.andalucia"),
                       Decimal("5.00"), Decimal("500.00"), options={"max_tier": "2"})
    assert ctx.option("max_tier") == "2"
    assert ctx.option("zero_default") == "en_prison"  # the ruleset's [options]
    with pytest.raises(KeyError, match="zero_defualt"):
        ctx.option("zero_defualt", "half_back")


# --------------------------------------------------------------------------- the registry


def test_the_engine_finds_every_game_in_a_fresh_process():
    script = ("from pitwatch.rules.engine import TableEngine\n"
              "from pitwatch.rules.registry import GAMES\n"
              "print(sorted(GAMES))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == repr(sorted(GAME_IDS))


def _imports(module: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


@pytest.mark.parametrize("game_module", ["roulette.py", "blackjack.py", "baccarat.py", "poker/game.py",
                                         "chemin_de_fer/game.py", "dos_panos/game.py"])
def test_no_game_module_imports_the_engine_or_the_list_of_games(game_module):
    """A game module gives its spec (``SPEC``) and imports neither the engine nor the registry: the
    registry imports it (a cycle otherwise)."""
    imports = _imports(ROOT / "pitwatch" / "rules" / game_module)
    assert "pitwatch.rules.spec.GameSpec" in imports
    assert not imports & {"pitwatch.rules.engine", "pitwatch.rules.games", "pitwatch.rules.registry"}
    assert "noqa: E402" not in (ROOT / "pitwatch" / "rules" / "engine.py").read_text(encoding="utf-8")


def test_a_chemin_de_fer_tableau_cell_other_than_t_p_o_or_blank_is_refused_000_L683_L687():
    """The chemin de fer tableau prints «T», «P» and «O» (and blanks, «-»); punto y banca's only T and P."""
    msg = refusal(source("chemin_de_fer.galicia").replace('3 = "T T T T T T T T P O T"', '3 = "T T T T T T T T P X T"'))
    assert "tableau.3" in msg and "T/P/O/- cells" in msg
    msg = refusal(source("punto_banca.galicia").replace('3 = "T T T T T T T T P T T"', '3 = "T T T T T T T T P O T"'))
    assert "tableau.3" in msg and "T/P cells" in msg


def test_a_jurisdiction_outside_the_catalogue_is_refused():
    """A ruleset of a jurisdiction the catalogue does not list (here ``murcia``) is refused, naming those it
    lists: its seed, names and simulated casino would be unknown."""
    text = source("punto_banca.galicia").replace('id = "punto_banca.galicia"', 'id = "punto_banca.murcia"')
    text = text.replace('jurisdiction = "galicia"', 'jurisdiction = "murcia"')
    assert "jurisdiction 'murcia' is not in the catalogue (galicia, asturias, espana, andalucia)" in refusal(text)


def test_every_shipped_seed_is_a_text_of_one_jurisdiction():
    """The seeds shipped in ``pitwatch/rules/seeds/`` and the catalogue's jurisdictions' texts are the same
    files, each of one jurisdiction."""
    from pitwatch.catalogue import JURISDICTIONS

    listed = [s for j in JURISDICTIONS for s in j.seeds]
    shipped = sorted(p.name for p in (Path(base.__file__).parent / "seeds").glob("*.txt"))
    assert sorted(listed) == shipped and len(set(listed)) == len(listed)
