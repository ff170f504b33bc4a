"""End to end for the wheel games added on the catalogue: one simulated evening with a table of every
shipped ruleset of American roulette, ruleta francesa abreviada, boule and the wheel of fortune
(:func:`pitwatch.sim.base.catalogue_tables`), with the croupiers' faults that leave every chip where the
events say (wrong payouts, colour chips paid at the wrong value, late bets, over-limit bets, bets off the
abbreviated layout, a wheel spun the wrong way, duplicated events), simulator -> real broker (Tansu) ->
Faust worker (table stage, then the watch stage per casino) -> ClickHouse 18.16 server.

The oracle is the offline replay of the same file (:func:`tests.e2e.test_pipeline.replay_oracle`): the
warehouse must hold exactly its settlements and alerts, once each; every injected fault is alerted in its
round and no round without one is (:func:`pitwatch.sim.base.score`). Every game and ruleset has its table's
settlements; the monthly report of each casino has each table under its game with the handle and the
theoretical win of its settlement rows; the auditor's dossier of a wrongly paid round of each game names
its ruleset, the bet and the law. Each game's theoretical win, stored per settlement row, is its stake times
the house edge worked by hand from the seeds (4 decimals, half to even, as
:func:`pitwatch.rules.edges.theoretical_win`):

- boule: every bet 1/9 (a number 7 to 1 on 1 of 9 numbers: 1 - 8/9; a simple chance a la par on 4 of 9:
  1 - 4 x 2/9; 000 L343-L363; 002 L19-L43; 004 L921-L978);
- ruleta francesa abreviada: every bet 1/37 (a bet on k numbers of 37 paid 36/k - 1: 1 - 36/37; the zero
  wins what covers it; 004 L217-L264, L443-L454);
- American roulette: 1/37 but a simple chance 1/74 (18/37 x 2 + 1/37 x 1/2 = 73/74: the zero halves it;
  000 L225; 004 L543-L545);
- wheel of fortune, 54 segments (000 L1063-L1085; 004 L5697-L5748): a symbol on n segments paying a returns
  1 + a with probability n/54: the 24 at 1:1 1/9, the 15 at 2:1 1/6, the 7 at 5:1 2/9, the 4 at 10:1 5/27,
  the 2 at 20:1 2/9, each joker or figure (1 segment) at 45:1 4/27.
"""

from __future__ import annotations

import json
from collections import Counter
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from pitwatch.reports.monthly import build_monthly
from pitwatch.sim import labels_path_for, write_simulation
from pitwatch.sim.base import catalogue_tables, score
from pitwatch.sim.payouts import roulette_kind
from pitwatch.streams.producer import produce_jsonl
from pitwatch.streams.topics import TOPIC_EVENTS
from pitwatch.warehouse import open_warehouse

from tests.e2e.test_pipeline import assert_matches_oracle, consume_all, replay_oracle, snapshot

pytestmark = [pytest.mark.kafka, pytest.mark.clickhouse, pytest.mark.slow]

TABLES = catalogue_tables(13)

RATES = {"wrong_payout": 0.05, "colour_misvalued": 0.03, "late_bet": 0.03, "over_limit_bet": 0.03,
         "off_layout_bet": 0.03, "spin_direction": 0.03, "duplicated_event": 0.003}
"""Faults that leave every chip where the events say (no event lost, no closing count short)."""

FAULT_ALERTS = {"payout_discrepancy", "past_posting", "bet_above_maximum", "invalid_bet", "spin_direction",
                "duplicate_event"}
"""The alert kinds the faults of :data:`RATES` raise (the colour chips misvalued are a payout discrepancy,
a bet off the abbreviated layout an invalid bet)."""

WHEEL_EDGES = {"fortune_24": Fraction(1, 9), "fortune_15": Fraction(1, 6), "fortune_7": Fraction(2, 9),
               "fortune_4": Fraction(5, 27), "fortune_2": Fraction(2, 9), "fortune_joker_red": Fraction(4, 27),
               "fortune_joker_black": Fraction(4, 27), "fortune_figure_1": Fraction(4, 27),
               "fortune_figure_2": Fraction(4, 27)}


def hand_edge(game: str, spot: str) -> Fraction:
    """The house edge of a bet on ``spot`` at ``game``, worked by hand (the module docstring)."""
    if game == "boule":
        return Fraction(1, 9)
    if game == "french_roulette_abreviada":
        return Fraction(1, 37)
    if game == "american_roulette":
        return Fraction(1, 74) if roulette_kind(spot) == "simple" else Fraction(1, 37)
    return WHEEL_EDGES[spot]


def theoretical(handle: Decimal, edge: Fraction) -> Decimal:
    """``handle`` x ``edge`` to 4 decimals, half to even."""
    return (handle * edge.numerator / edge.denominator).quantize(Decimal("0.0001"), ROUND_HALF_EVEN)


@pytest.fixture(scope="module")
def wheel_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("wheels") / "wheel-games.jsonl"
    write_simulation(path, tables=TABLES, hours=1.0, seed=20261127, fault_rates=RATES)
    return path


def test_the_wheel_games_reach_clickhouse_judged_as_the_offline_replay(wheel_file, broker, server_db, tmp_path):
    assert [(t.table_id, t.game, t.ruleset_id) for t in TABLES] == [
        ("AND-FA-13", "french_roulette_abreviada", "french_roulette_abreviada.andalucia"),
        ("AND-RA-14", "american_roulette", "american_roulette.andalucia"),
        ("GAL-RA-15", "american_roulette", "american_roulette.galicia"),
        ("AND-WF-16", "wheel_of_fortune", "wheel_of_fortune.andalucia"),
        ("GAL-WF-17", "wheel_of_fortune", "wheel_of_fortune.galicia"),
        ("AND-BO-18", "boule", "boule.andalucia"),
        ("ESP-BO-19", "boule", "boule.espana"),
        ("GAL-BO-20", "boule", "boule.galicia")]
    labels = [json.loads(line) for line in labels_path_for(wheel_file).read_text().splitlines()]
    assert {"wrong_payout", "colour_misvalued", "late_bet", "over_limit_bet", "off_layout_bet", "spin_direction",
            "duplicated_event"} == {lb["kind"] for lb in labels}
    oracle = replay_oracle(wheel_file)

    produce_jsonl(wheel_file, broker.bootstrap, TOPIC_EVENTS)
    consume_all(broker.bootstrap, server_db, tmp_path, oracle["lines"], rounds=oracle["rounds"])
    wh = open_warehouse(server_db)
    try:
        snap = snapshot(wh)
        tables = set(wh.query("SELECT game, ruleset_id, table_id FROM pitwatch.settlements FINAL "
                              "GROUP BY game, ruleset_id, table_id"))
        alerts = [{"table_id": t, "round_id": r, "kind": k, "parties": list(p)} for t, r, k, p in wh.query(
            "SELECT table_id, round_id, kind, parties FROM pitwatch.alerts FINAL")]
        rows = wh.query("SELECT table_id, game, spot, toString(handle), toString(theoretical_win) "
                        "FROM pitwatch.settlements FINAL")
        month = json.loads(wheel_file.read_text().splitlines()[0])["occurred_at"][:7]
        reports = {c: build_monthly(wh, c, month) for c in sorted({t.casino_id for t in TABLES})}
    finally:
        wh.close()
    assert snap["events"] <= oracle["lines"]  # a duplicated event is stored once
    assert_matches_oracle(snap, oracle)
    assert FAULT_ALERTS <= set(oracle["kinds"])
    # each injected fault is alerted in its round, and no round without a fault is
    scored = score(labels, alerts)
    assert {k: r[0] for k, r in scored["recall"].items()} == dict.fromkeys(
        ("colour_misvalued", "duplicated_event", "late_bet", "off_layout_bet", "over_limit_bet", "spin_direction",
         "wrong_payout"), 1.0)
    assert scored["alerts_on_clean_rounds"] == [] and scored["alerts"] == len(oracle["alerts"])
    # every game and every ruleset of the four has its table's settlements
    assert tables == {(t.game, t.ruleset_id, t.table_id) for t in TABLES}
    # each settlement's theoretical win is its handle times the edge worked by hand
    wrong = [r for r in rows if Decimal(r[4]) != theoretical(Decimal(r[3]), hand_edge(r[1], r[2]))]
    assert not wrong, wrong[:5]
    staked = Counter(r[0] for r in rows if Decimal(r[3]) > 0)
    assert set(staked) == {t.table_id for t in TABLES} and min(staked.values()) >= 100
    # the monthly report of each casino has each wheel table, under its game, with the handle and the
    # theoretical win of its settlement rows summed here (not by the report's queries)
    handle: Counter[str] = Counter()
    theo: Counter[str] = Counter()
    for table_id, _game, _spot, h, tw in rows:
        handle[table_id] += Decimal(h)
        theo[table_id] += Decimal(tw)
    lines = {line.label: line for r in reports.values() for line in r.tables}
    for t in TABLES:
        line = lines[t.table_id]
        assert (line.game, line.handle, line.theoretical_win) == (t.game, handle[t.table_id], theo[t.table_id]), t
    assert {g.game for r in reports.values() for g in r.games} >= {t.game for t in TABLES}
    # the auditor's dossier of a round with a wrong payout, at each game, from the warehouse
    dossiers_of_wrong_payouts(labels, server_db)


def dossiers_of_wrong_payouts(labels: list[dict], warehouse: str) -> None:
    """The dossier of a round with a wrong payout at each wheel game (``pitwatch replay round --format
    dossier``): its ruleset, the bet paid wrong with the law it quotes, the payout discrepancy."""
    from pitwatch.cli import app
    from typer.testing import CliRunner

    games = {t.table_id: t for t in TABLES}
    done = set()
    for label in (lb for lb in labels if lb["kind"] == "wrong_payout"):
        t = games[label["table_id"]]
        if t.game in done:
            continue
        res = CliRunner().invoke(app, ["replay", "round", t.table_id, label["round_id"], "--warehouse", warehouse,
                                       "--format", "dossier"])
        assert res.exit_code == 1, res.output  # a violation, as `replay round` says
        doc = json.loads(res.stdout)
        assert (doc["table_id"], doc["round_id"], doc["ruleset"]["id"]) == (t.table_id, label["round_id"], t.ruleset_id)
        wrong = [b for b in doc["bets"] if b["discrepancy"] != "0.00"]
        assert wrong and all(b["law"] for b in wrong), doc["bets"]
        assert "payout_discrepancy" in {a["violation_kind"] for a in doc["alerts"]}
        done.add(t.game)
    assert done == {t.game for t in TABLES}
