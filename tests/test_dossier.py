"""The auditor's dossier (issue 8 §4): `pitwatch replay round T R --format dossier|html|pdf` from a
real warehouse (the ClickHouse 18.16 server and chDB). The round R2 of table GAL-RF-09
(tests/test_replay_cli.py): straight-up on 17 recorded as 350.00 where 000 L133 pays thirty-five
times the stake (10.00 € -> 360.00 back): under-paid by 10.00 €; the surveillance room
acknowledged its alert."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from pitwatch.cli import app
from pitwatch.lifecycle.actions import new_action
from pitwatch.lifecycle.store import record
from pitwatch.streams.processor import BatchProcessor, InMessage
from pitwatch.warehouse import open_warehouse
from typer.testing import CliRunner

from tests.fixtures.batches import store_rows
from tests.fixtures.poppler import pdf_pages, pdf_text
from tests.test_replay_cli import TABLE, Events


def test_the_dossier_of_a_disputed_round(warehouse_url, tmp_path):
    lines = Events().open().spin_17("R2", straight_paid="350.00").lines
    rows = BatchProcessor(lambda _t: None).process(
        [InMessage(TABLE.encode(), v.encode(), 0, i) for i, v in enumerate(lines)]).rows
    store_rows(warehouse_url, rows)
    (alert,) = rows["alerts"]
    with open_warehouse(warehouse_url) as wh:
        record(wh, new_action(alert["alert_id"], "acknowledge", "surv-3", datetime(2026, 11, 22, 1, tzinfo=timezone.utc)))
    runner = CliRunner()
    res = runner.invoke(app, ["replay", "round", TABLE, "R2", "--warehouse", warehouse_url, "--format", "dossier"])
    assert res.exit_code == 1, res.output  # a violation, as `replay round` says
    doc = json.loads(res.stdout)
    assert (doc["table_id"], doc["round_id"], doc["ruleset"]["id"]) == (TABLE, "R2", "french_roulette.galicia")
    assert "the version in force" in doc["ruleset"]["judged_with"]
    assert [e["seq"] for e in doc["timeline"]] == list(range(3, 14))
    assert doc["timeline"][1]["type"] == "bet_placed" and doc["timeline"][1]["payload"]["spot"] == "straight:17"
    bets = {b["bet_id"]: b for b in doc["bets"]}
    b1 = bets["R2-B1"]
    assert (b1["expected_returned"], b1["recorded_returned"], b1["discrepancy"]) == ("360.00", "350.00", "-10.00")
    assert any(q["first"] <= 133 <= q["last"] and "treinta y cinco veces su postura" in q["text"] for q in b1["law"])
    (v,) = doc["violations"]
    assert (v["violation_kind"], v["amount"]) == ("payout_discrepancy", "-10.00")
    assert any("treinta y cinco veces" in q["text"] for q in v["law"])
    assert [(h["action"], h["actor"]) for h in v["history"]] == [("acknowledge", "surv-3")]

    page = runner.invoke(app, ["replay", "round", TABLE, "R2", "--warehouse", warehouse_url, "--format", "html"])
    assert page.exit_code == 1
    html = page.stdout
    assert "Dossier of round R2, table GAL-RF-09" in html
    assert "Pleno o número completo" in html and "surv-3" in html and "-10.00" in html
    assert runner.invoke(app, ["replay", "round", TABLE, "R2", "--warehouse", warehouse_url, "--format", "pdf"]).exit_code == 2

    # the same dossier as a PDF (WeasyPrint), read back with poppler: pages drawn, the law quoted
    pdf = tmp_path / "R2.pdf"
    res = runner.invoke(app, ["replay", "round", TABLE, "R2", "--warehouse", warehouse_url, "--format", "pdf", "--out", str(pdf)])
    assert res.exit_code == 1 and f"wrote {pdf}" in res.output, res.output
    pages = pdf_pages(pdf, tmp_path)
    assert pages and all(p.stat().st_size > 2000 for p in pages)
    text = " ".join(pdf_text(pdf).split())
    assert "Dossier of round R2, table GAL-RF-09" in text and "Pleno o número completo" in text
    assert "-10.00" in text and "surv-3" in text


def test_the_dossier_of_a_poker_hand_quotes_the_rake_rule(warehouse_url):
    """A póquer en círculo hand whose croupier took 1.00 of a 19.00 pot (5% is 0.95, 004 L4082-L4088)
    and paid the winner 18.00: the dossier lists each player's part (stake, due, paid), the
    rake_discrepancy and the payout discrepancy with the law quoted, and the page draws."""
    from pitwatch.schemas.events import dump_event

    from tests.rules.poker_hands import Table
    from tests.rules.test_poker_game import _three_way

    t = Table()
    _three_way(t).rake("1.00").award("C", "18.00").end()
    rows = BatchProcessor(lambda _t: None).process(
        [InMessage(t.table_id.encode(), dump_event(e), 0, i) for i, e in enumerate(t.events)]).rows
    store_rows(warehouse_url, rows)
    runner = CliRunner()
    res = runner.invoke(app, ["replay", "round", t.table_id, "H1", "--warehouse", warehouse_url, "--format", "dossier"])
    assert res.exit_code == 1, res.output
    doc = json.loads(res.stdout)
    assert doc["game"] == "poker" and doc["ruleset"]["id"] == "poker.andalucia"
    parts = {b["player_id"]: (b["stake"], b["expected_returned"], b["recorded_returned"]) for b in doc["bets"]}
    assert parts["C"] == ("8.00", "18.05", "18.00") and parts["A"][1] == "0.00"
    kinds = {v["violation_kind"]: v for v in doc["violations"]}
    assert set(kinds) == {"rake_discrepancy", "payout_discrepancy"}
    assert kinds["rake_discrepancy"]["amount"] == "0.05"
    assert any("5 por 100" in q["text"] for q in kinds["rake_discrepancy"]["law"])
    page = runner.invoke(app, ["replay", "round", t.table_id, "H1", "--warehouse", warehouse_url, "--format", "html"])
    assert page.exit_code == 1 and "rake_discrepancy" in page.stdout
