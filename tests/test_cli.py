"""The ``pitwatch`` command: what each subcommand promises in its help and in the README."""

from __future__ import annotations

import dataclasses
import json
import time
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.catalogue import GAME_IDS
from pitwatch.cli import app
from pitwatch.replay import replay_lines
from pitwatch.replay.output import REPLAY_SCHEMAS, json_lines
from pitwatch.rules.base import list_rulesets, load_ruleset
from pitwatch.schemas.events import EVENT_TYPES
from typer.testing import CliRunner

runner = CliRunner()


@pytest.fixture(scope="module")
def sim_file(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cli") / "evening.jsonl"
    res = runner.invoke(app, ["simulate", "--tables", "3", "--hours", "0.5", "--seed", "5",
                              "--fault", "wrong_payout=0.2", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out


def test_simulate_is_deterministic_for_a_seed_and_writes_labels(sim_file, tmp_path):
    again = tmp_path / "again.jsonl"
    res = runner.invoke(app, ["simulate", "--tables", "3", "--hours", "0.5", "--seed", "5",
                              "--fault", "wrong_payout=0.2", "--out", str(again)])
    assert res.exit_code == 0, res.output
    assert again.read_bytes() == sim_file.read_bytes()
    labels = [json.loads(x) for x in Path(f"{sim_file}.labels.jsonl").read_text().splitlines()]
    assert any(lb["kind"] == "wrong_payout" for lb in labels)
    other = tmp_path / "other.jsonl"
    runner.invoke(app, ["simulate", "--tables", "3", "--hours", "0.5", "--seed", "6", "--out", str(other)])
    assert other.read_bytes() != sim_file.read_bytes()


@pytest.mark.parametrize("bad", ["nonsense=0.1", "wrong_payout=2", "wrong_payout=x"])
def test_simulate_refuses_a_bad_fault_rate(bad, tmp_path):
    res = runner.invoke(app, ["simulate", "--fault", bad, "--out", str(tmp_path / "x.jsonl")])
    assert res.exit_code == 2
    assert "--fault" in res.output or "fault kind" in res.output
    assert not (tmp_path / "x.jsonl").exists()


def test_simulate_puts_a_table_of_each_ruleset_asked_for_on_the_floor(tmp_path):
    """``--ruleset`` adds a table of a game added on the platform; one it has no table for is refused (exit
    2, naming it and listing the ones it takes) and nothing is written."""
    out = tmp_path / "x.jsonl"
    res = runner.invoke(app, ["simulate", "--tables", "1", "--hours", "0.2", "--ruleset", "boule.espana",
                              "--ruleset", "american_roulette.galicia", "--out", str(out)])
    assert res.exit_code == 0, res.output
    games = {json.loads(line)["game"] for line in out.read_text().splitlines()}
    assert games == {"french_roulette", "boule", "american_roulette"}
    bad = runner.invoke(app, ["simulate", "--ruleset", "boule.mars", "--out", str(tmp_path / "y.jsonl")])
    assert bad.exit_code == 2 and "boule.mars" in bad.output and "boule.galicia" in bad.output
    assert not (tmp_path / "y.jsonl").exists()


@pytest.mark.parametrize("fault", ["colour_misvalued=0.1", "off_layout_bet=0.2"])
def test_simulate_accepts_a_fault_kind_a_games_simulator_declares(fault, tmp_path):
    """Defect: ``--fault colour_misvalued=0.1`` (American roulette's ``FAULTS``) was refused as unknown."""
    out = tmp_path / "x.jsonl"
    res = runner.invoke(app, ["simulate", "--tables", "1", "--hours", "0.1", "--fault", fault, "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert out.exists()


def test_simulate_names_the_games_fault_kinds_when_refusing_one(tmp_path):
    res = runner.invoke(app, ["simulate", "--fault", "colour_misvalue=0.1", "--out", str(tmp_path / "x.jsonl")])
    assert res.exit_code == 2
    assert "colour_misvalued" in res.output and "off_layout_bet" in res.output and "wrong_payout" in res.output


def test_replay_file_json_gives_expected_and_recorded_settlement_of_every_bet(sim_file):
    res = runner.invoke(app, ["replay", "file", str(sim_file), "--format", "json"])
    assert res.exit_code == 1, res.output  # the injected faults are violations
    records = [json.loads(x) for x in res.stdout.splitlines()]
    rounds = [r for r in records if r["kind"] == "round"]
    bets = [r for r in records if r["kind"] == "settlement"]
    assert len(rounds) > 20 and len(bets) == sum(r["bets"] for r in rounds)
    for b in bets:
        if b["recorded"]:
            rec = Decimal(b["recorded_returned"]) - Decimal(b["recorded_commission"])
            exp = Decimal(b["expected_returned"]) - Decimal(b["expected_commission"])
            assert Decimal(b["discrepancy"]) == rec - exp, b
        else:
            assert b["recorded_outcome"] is b["recorded_returned"] is b["recorded_commission"] is None, b
        assert ".txt L" in b["citation"] or "pitwatch" in b["citation"], b["citation"]
    # the injected wrong payouts show up as discrepancies with a citation
    assert any(Decimal(b["discrepancy"]) != 0 for b in bets)
    assert records[-1]["kind"] == "summary" and records[-1]["exit_status"] == 1


def test_replay_file_only_violations_keeps_flagged_rounds(sim_file):
    res = runner.invoke(app, ["replay", "file", str(sim_file), "--format", "json", "--only-violations"])
    assert res.exit_code == 1
    records = [json.loads(x) for x in res.stdout.splitlines()]
    rounds = [r for r in records if r["kind"] == "round"]
    assert rounds and all(r["violations"] for r in rounds)
    assert records[-1]["rounds"] > len(rounds)  # the summary still counts every round


def test_replay_file_names_each_bad_line_and_why_and_exits_2(sim_file, tmp_path):
    lines = sim_file.read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    missing = json.loads(lines[2])
    del missing["occurred_at"]
    bad.write_text("\n".join([lines[0], lines[1], "{not json", json.dumps(missing),
                              json.dumps({**json.loads(lines[3]), "type": "bogus"}), *lines[4:10]]) + "\n")
    res = runner.invoke(app, ["replay", "file", str(bad), "--format", "json"])
    assert res.exit_code == 2
    errors = {d["line"]: d["reason"] for d in map(json.loads, res.stdout.splitlines()) if d["kind"] == "invalid_line"}
    assert set(errors) == {3, 4, 5}
    assert "JSON" in errors[3]
    assert "occurred_at" in errors[4]
    assert "bogus" in errors[5]
    assert "3 invalid line(s)" in res.stderr


def test_rulesets_lists_every_ruleset_with_its_seed():
    res = runner.invoke(app, ["rulesets"], env={"COLUMNS": "200"})
    assert res.exit_code == 0
    ids = list_rulesets()
    assert len(ids) >= 12  # roulette x2, blackjack x2, punto y banca x3, poker, chemin de fer x2, dos paños x2, ...
    assert {load_ruleset(r).game for r in ids} == set(GAME_IDS)  # every game of the catalogue
    for rid in ids:
        assert rid in res.stdout
    for seed in ("000_e1555249d49967be.txt", "001_a05972482385336a.txt", "004_5c9c19b250457762.txt"):
        assert seed in res.stdout


def test_rulesets_is_readable_at_80_columns():
    """Issue: "`pitwatch rulesets` truncates every id at 80 columns". Every id, seed and file
    whole, no ellipsis, no line over 80 characters."""
    res = runner.invoke(app, ["rulesets"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert "…" not in res.stdout and max(map(len, res.stdout.splitlines())) <= 80
    lines = res.stdout.splitlines()
    for rid in list_rulesets():
        assert rid in lines  # on a line of its own
        assert f"pitwatch/rules/rulesets/{rid}.toml" in res.stdout
    for seed in ("000_e1555249d49967be.txt", "001_a05972482385336a.txt", "004_5c9c19b250457762.txt"):
        assert seed in res.stdout


def test_schema_export_writes_a_schema_per_event_type(tmp_path):
    res = runner.invoke(app, ["schema", "export", str(tmp_path / "schemas")])
    assert res.exit_code == 0, res.output
    written = {p.name for p in (tmp_path / "schemas").iterdir()}
    # and the union, event.schema.json, and the records of replay --format json
    assert len(written) == len(EVENT_TYPES) + 1 + len(REPLAY_SCHEMAS)
    assert {"event.schema.json", "bet_placed.schema.json", "card_dealt.schema.json",
            "replay-round.schema.json", "replay-summary.schema.json"} <= written


def test_replay_round_from_the_warehouse_equals_the_file_replay(sim_file, warehouse_url):
    """An auditor's disputed hand: the round re-derived from ``events_raw`` (both backends)
    is the same verdict as replaying the file."""
    from pitwatch.streams.processor import BatchProcessor, InMessage

    from tests.fixtures.batches import store_rows

    raw = sim_file.read_bytes().splitlines()
    out = BatchProcessor(lambda _t: None).process(
        [InMessage(key=json.loads(v)["table_id"].encode(), value=v, partition=0, offset=i)
         for i, v in enumerate(raw)])
    store_rows(warehouse_url, out.rows)
    verdicts = [it for it in replay_lines(raw) if it.verdict is not None]
    # a late round of the second table: its state depends on the table's earlier events
    wanted = [it for it in verdicts if it.verdict.table_id == verdicts[1].verdict.table_id][-1]
    v = wanted.verdict
    res = runner.invoke(app, ["replay", "round", v.table_id, v.round_id, "--warehouse", warehouse_url,
                              "--format", "json"])
    assert res.exit_code == (1 if wanted.alerts else 0), res.output
    *lines, summary = res.stdout.splitlines()
    assert lines == json_lines(dataclasses.replace(wanted, line=None))  # stored events have no file line
    assert json.loads(summary)["rounds"] == 1
    missing = runner.invoke(app, ["replay", "round", v.table_id, "NO-SUCH-ROUND", "--warehouse", warehouse_url])
    assert missing.exit_code == 2
    assert "not found" in missing.stderr


def test_replay_round_on_a_bad_warehouse_url_says_so():
    res = runner.invoke(app, ["replay", "round", "T", "R", "--warehouse", "mysql://nowhere/db"])
    assert res.exit_code == 2
    assert "cannot replay from mysql://nowhere/db" in res.stderr


@pytest.mark.kafka
def test_produce_then_alerts_reads_the_alerts_topic(sim_file, broker, unique_topic):
    """``pitwatch produce`` keys every event by table; ``pitwatch alerts`` prints what is on
    ``pitwatch.alerts`` (here written directly, as a worker would) and stops when idle."""
    from confluent_kafka import OFFSET_BEGINNING, Consumer, Producer, TopicPartition

    topic = unique_topic("events")
    env = {"PITWATCH_KAFKA_BOOTSTRAP": broker.bootstrap}
    res = runner.invoke(app, ["produce", str(sim_file), "--topic", topic], env=env)
    assert res.exit_code == 0, res.output
    n = len(sim_file.read_bytes().splitlines())
    assert f"produced {n} messages" in res.stdout
    cons = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": topic})
    parts = cons.list_topics(topic, timeout=10).topics[topic].partitions
    cons.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in parts])
    got = []
    for _ in range(60):
        got += [m for m in cons.consume(1000, 0.5) if not m.error()]
        if len(got) >= n:
            break
    cons.close()
    assert len(got) == n
    assert all(m.key() == json.loads(m.value())["table_id"].encode() for m in got)

    marker = unique_topic("alert")
    prod = Producer({"bootstrap.servers": broker.bootstrap})
    prod.produce("pitwatch.alerts", json.dumps({"alert_id": marker, "kind": "payout_discrepancy",
                                                "severity": "high", "table_id": "T1", "round_id": "R1",
                                                "message": "paid 36 for 35", "citation": "000 L35"}).encode())
    prod.flush(10)
    res = runner.invoke(app, ["alerts", "--format", "json"], env=env)
    assert res.exit_code == 0, res.output
    alerts = [json.loads(x) for x in res.stdout.splitlines()]
    assert alerts[-1]["alert_id"] == marker  # everything on the topic, oldest first, then stops
    res = runner.invoke(app, ["alerts", "--format", "text"], env={**env, "COLUMNS": "200"})
    assert res.exit_code == 0
    assert "payout_discrepancy" in res.stdout and "000 L35" in res.stdout


def test_alerts_on_an_unreachable_broker_fails_within_5_s_in_one_line(capfd):
    """Issue: alert handling without a broker "hangs 30 s" (the tail's --timeout, 30 s by
    default): the broker is asked first, for --broker-timeout (2 s; refused: at once)."""
    started = time.monotonic()
    res = runner.invoke(app, ["alerts"], env={"PITWATCH_KAFKA_BOOTSTRAP": "127.0.0.1:1"})
    took = time.monotonic() - started
    assert took < 5.0, f"took {took:.1f} s"
    assert res.exit_code == 1
    assert res.stderr.splitlines() == [
        "error: cannot reach the broker at 127.0.0.1:1 within 2 s (connection refused): is it running? set "
        "--bootstrap or PITWATCH_KAFKA_BOOTSTRAP (and the PITWATCH_KAFKA_* security settings)"]
    assert "rdkafka" not in capfd.readouterr().err


_CELL = st.text(st.characters(codec="ascii", categories=("L", "N", "P")), min_size=1, max_size=40)


@given(rows=st.lists(st.tuples(_CELL, _CELL, _CELL), max_size=5), width=st.integers(min_value=45, max_value=200))
@settings(max_examples=60, deadline=None)
def test_print_records_never_cuts_a_first_cell(rows, width):
    """Whatever the width: every first cell (an id) whole on one line, no ellipsis, no line
    wider than the terminal (the header too)."""
    from io import StringIO

    from pitwatch.cli_tables import print_records
    from rich.console import Console

    out = StringIO()
    print_records(Console(file=out, width=width, color_system=None), ("id", "game", "file"), rows)
    lines = out.getvalue().splitlines()
    assert "…" not in out.getvalue() and max(map(len, lines)) <= width
    for row in rows:
        assert any(row[0] in line for line in lines)
