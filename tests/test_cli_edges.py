"""``pitwatch rulesets edges RULESET``: the house edge of every bet kind, as a table or JSON Lines."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction

import pytest
from pitwatch.cli import app
from pitwatch.rules.base import list_rulesets
from typer.testing import CliRunner

runner = CliRunner()
WIDE = {"COLUMNS": "250"}


def test_edges_table_of_a_roulette_ruleset():
    """Straight-up 35:1 on 37 pockets: 1/37 = 2.7027 %; simple chances en prison 1/73 = 1.3699 %,
    half back 1/74 = 1.3514 % (derivations in tests/rules/test_edges.py)."""
    res = runner.invoke(app, ["rulesets", "edges", "french_roulette.galicia"], env=WIDE)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "french_roulette.galicia" in out
    for text in ("straight:17", "35:1", "2.7027", "columns:1-2", "1:2", "simple (en prison)", "1.3699",
                 "simple (half back)", "1.3514"):
        assert text in out, text
    assert "approximate" not in out  # every roulette edge is exact


def test_edges_table_marks_the_approximate_blackjack_edge():
    res = runner.invoke(app, ["rulesets", "edges", "blackjack.andalucia"], env=WIDE)
    assert res.exit_code == 0, res.output
    assert "≈ 0.5" in res.stdout and "approximate" in res.stdout
    assert "7.3955" in res.stdout  # insurance 2:1, 6 decks: 23/311


@pytest.mark.parametrize("ruleset_id", list_rulesets())
def test_edges_json_one_object_per_bet_kind(ruleset_id):
    res = runner.invoke(app, ["rulesets", "edges", ruleset_id, "--format", "json"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert rows and len({(r["kind"], r["variant"]) for r in rows}) == len(rows)
    for r in rows:
        assert r["ruleset_id"] == ruleset_id and len(r["ruleset_hash"]) == 64
        edge = Decimal(r["edge"])  # a decimal string, 12 places
        assert 0 < edge < 1 and edge == edge.quantize(Decimal("1e-12"))
        if r["exact"]:
            assert abs(Fraction(r["edge_fraction"]) - Fraction(edge)) <= Fraction(1, 2 * 10**12)
        else:
            assert r["edge_fraction"] is None
        assert r["payout"] and r["method"] and r["citations"]


def test_edges_json_values_roulette_and_decks_option():
    """1/37 = 0.027027027027...; punto y banca with --decks 8: banca (5 %) edge from the published
    8-deck counts (player 2,230,518,282,592,256, banker 2,292,252,566,437,888 of 4,998,398,275,503,360
    sequences: Wizard of Odds, «Probabilities in 8-deck Baccarat») = 0.010579... ."""
    res = runner.invoke(app, ["rulesets", "edges", "french_roulette.andalucia", "--format", "json"])
    straight = next(json.loads(x) for x in res.stdout.splitlines() if json.loads(x)["kind"] == "straight")
    assert straight["edge"] == "0.027027027027" and straight["edge_fraction"] == "1/37"
    assert straight["citations"] == ["payout_straight", "layout"]
    res = runner.invoke(app, ["rulesets", "edges", "punto_banca.galicia", "--format", "json", "--decks", "8"])
    banca = next(json.loads(x) for x in res.stdout.splitlines() if json.loads(x)["kind"] == "banca")
    published = Fraction(2_230_518_282_592_256 - Fraction(95, 100) * 2_292_252_566_437_888, 4_998_398_275_503_360)
    assert Fraction(banca["edge_fraction"]) == published
    assert "8-deck shoe" in banca["method"]


def test_edges_of_an_unknown_ruleset_is_one_clear_error():
    res = runner.invoke(app, ["rulesets", "edges", "roulette.narnia"])
    assert res.exit_code == 2
    assert "unknown ruleset 'roulette.narnia'" in res.output and "french_roulette.galicia" in res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize("args", [["--format", "yaml"], ["--decks", "0"]])
def test_edges_refuses_bad_options(args):
    res = runner.invoke(app, ["rulesets", "edges", "punto_banca.galicia", *args])
    assert res.exit_code == 2
