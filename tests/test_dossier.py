"""The auditor's dossier (issue 8 §4): `pitwatch replay round T R --format dossier|html|pdf` from a
real warehouse (the ClickHouse 18.16 server and chDB). The round R2 of table GAL-RF-09
(tests/test_replay_cli.py): straight-up on 17 recorded as 350.00 where 000 L133 pays thirty-five
times the stake (10.00 € -> 360.00 back): under-paid by 10.00 €; the surveillance room
acknowledged its alert. The round AND-BJ-05-R00027 (tests/test_replay_cli.py, Blackjack): the
dealer's third card was never received, and the dossier must say so before anything else."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime, timezone
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pitwatch.cli import app
from pitwatch.lifecycle.actions import new_action
from pitwatch.lifecycle.store import record
from pitwatch.streams.processor import BatchProcessor, InMessage
from pitwatch.warehouse import open_warehouse
from typer.testing import CliRunner

from tests.fixtures.batches import store_rows
from tests.fixtures.poppler import pdf_pages, pdf_text
from tests.test_replay_cli import TABLE, Blackjack, Events

REPR = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|Decimal\(|Card\(|\w+\(\w+=|\['|\[\]")
"""What a Python repr looks like in text: None, True/False, Decimal('...'), Card(rank=...), ['...']."""


def _texts(doc) -> list[str]:
    """Every string of a dossier's JSON but the events' raw payloads (codes as sent)."""
    if isinstance(doc, dict):
        return [t for k, v in doc.items() if k != "payload" for t in _texts(v)]
    if isinstance(doc, list):
        return [t for v in doc for t in _texts(v)]
    return [doc] if isinstance(doc, str) else []


def _quoted(doc, keys) -> str:
    law = {q["key"]: q["text"] for q in doc["law"]}
    return "\n".join(law[k] for k in keys)


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
    assert "treinta y cinco veces su postura" in _quoted(doc, b1["law"])
    (v,) = doc["alerts"]
    assert (v["violation_kind"], v["amount"]) == ("payout_discrepancy", "-10.00")
    assert "treinta y cinco veces" in _quoted(doc, v["law"])
    assert [(h["action"], h["actor"]) for h in v["history"]] == [("acknowledge", "surv-3")]
    assert (v["state"]["state"], v["source"]) == ("acknowledged", "replayed and stored")

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
    kinds = {v["violation_kind"]: v for v in doc["alerts"]}
    assert set(kinds) == {"rake_discrepancy", "payout_discrepancy"}
    assert kinds["rake_discrepancy"]["amount"] == "0.05"
    assert "5 por 100" in _quoted(doc, kinds["rake_discrepancy"]["law"])
    assert not [t for t in _texts(doc) if REPR.search(t)]
    page = runner.invoke(app, ["replay", "round", t.table_id, "H1", "--warehouse", warehouse_url, "--format", "html"])
    assert page.exit_code == 1 and "rake_discrepancy" in page.stdout


def _lost_card_round(url: str) -> Blackjack:
    """The issue's round stored as the live pipeline stored it: seq 27 (the dealer's 5♣) lost, and
    seq 12 (box 3's first card) received twice (the copy arrives after seq 13)."""
    bj = Blackjack().open().lost_third_card()
    copy = next(ln for ln in bj.lines if '"seq": 12,' in ln)
    bj.lines.insert(bj.lines.index(copy) + 2, copy)
    rows = BatchProcessor(lambda _t: None).process(
        [InMessage(bj.TABLE.encode(), v.encode(), 0, i) for i, v in enumerate(bj.lines)]).rows
    store_rows(url, rows)
    return bj


def test_the_dossier_names_the_lost_event_before_the_verdict_it_distorts(warehouse_url):
    """Issue: AND-BJ-05-R00027's dossier showed a dealer misdraw and five under-payments and
    nothing else; seq 27 (the dealer's third card) was never received, so the engine saw the dealer
    stand on 16 (6♥ 10♠) where he had 21. Every alert of the round (the gap and the duplicate the
    live pipeline stored, the misdraw, the five payout discrepancies), each with its state; the
    timeline marks seq 27 in its place; the summary gives the net difference (five boxes of 20.00 €
    at even money, 004 L742: 40.00 € due back each, 0.00 recorded: -200.00 €) and a caution."""
    from pitwatch.lifecycle.cases import open_case
    from pitwatch.replay.dossier import render_html, round_dossier, verify

    bj = _lost_card_round(warehouse_url)
    with open_warehouse(warehouse_url) as wh:
        alerts = {r["kind"]: r["alert_id"] for r in wh.rows("alerts")}
        paid = sorted(r["alert_id"] for r in wh.rows("alerts", "kind = 'payout_discrepancy'"))
        at = datetime(2026, 11, 22, 1, tzinfo=timezone.utc)
        record(wh, new_action(alerts["sequence_gap"], "acknowledge", "surv-3", at))
        record(wh, new_action(alerts["duplicate_event"], "close", "surv-3", at, disposition="duplicate",
                              reason="the dealer's terminal sent seq 12 twice"))
        case = open_case(wh, paid[:2], "round", "inspector-1", at, "five under-payments in one round")
        record(wh, new_action(case.case_id, "escalate", "inspector-1", at, escalated_to="inspector"))

    doc = round_dossier(warehouse_url, bj.TABLE, bj.ROUND, generated_at=datetime(2026, 11, 27, 9, 30, tzinfo=timezone.utc),
                        generated_by="auditor-7")
    assert doc is not None
    kinds = sorted(a["violation_kind"] for a in doc["alerts"])
    assert kinds == ["dealer_misdraw", "duplicate_event"] + ["payout_discrepancy"] * 5 + ["sequence_gap"]
    by_kind = {a["violation_kind"]: a for a in doc["alerts"]}
    gap, dup = by_kind["sequence_gap"], by_kind["duplicate_event"]
    assert (gap["message"], gap["source"], gap["state"]["state"]) == (
        "1 event(s) missing: seq 27..27", "replayed and stored", "acknowledged")
    assert (dup["source"], dup["state"]["text"]) == ("stored only", "closed (duplicate)")
    in_case = [a for a in doc["alerts"] if a["alert_id"] in paid[:2]]
    assert [a["state"]["text"] for a in in_case] == [f"open, in case {case.case_id} (escalated)"] * 2

    summary = doc["summary"]
    assert (summary["net_difference"], summary["expected_net"], summary["recorded_net"]) == (
        "-200.00", "200.00", "0.00")
    assert summary["net_difference_text"] == "-200.00 € (players under-paid)"
    assert summary["missing_seqs"] == [27] and "seq 27 of table AND-BJ-05" in summary["caution"]
    assert len(summary["alerts"]) == 8 and {(a["kind"], a["state"]) for a in summary["alerts"]} >= {
        ("sequence_gap", "acknowledged"), ("duplicate_event", "closed")}

    timeline = doc["timeline"]
    assert [e["seq"] for e in timeline] == list(range(3, 34))
    (lost,) = [e for e in timeline if e["missing"]]
    assert (lost["seq"], lost["text"], lost["note"]) == (27, "seq 27 — never received", f"sequence_gap alert {gap['alert_id']}")
    by_seq = {e["seq"]: e for e in timeline}
    assert by_seq[26]["text"] == "10♠ to dealer: dealer 6♥ 10♠ (16)"
    assert by_seq[18]["text"] == "Q♥ to 3: 3 Q♠ Q♥ (20)"
    assert by_seq[12]["note"] == f"received again: alert {dup['alert_id']}"

    # the law: each stretch once, in whole sentences; bets and alerts point at it
    keys = [q["key"] for q in doc["law"]]
    assert len(keys) == len(set(keys)) == 2
    pays = "004_5c9c19b250457762.txt L733-L746"
    assert {tuple(b["law"]) for b in doc["bets"]} == {(pays,)}
    assert _quoted(doc, [pays]).endswith("a la puntuación de veintiún obtenida con más de dos cartas.")

    # generated when and by whom, and what it attests
    assert (doc["generated_at"], doc["generated_by"]) == ("2026-11-27T09:30:00.000Z", "auditor-7")
    att = doc["attestation"]
    assert (att["generated_by"], att["pitwatch_version"]) == ("auditor-7", "0.1.0")
    assert att["ruleset"] == f"blackjack.andalucia@{doc['ruleset']['hash']}"
    seed = Path(__file__).parents[1] / "pitwatch" / "rules" / "seeds" / "004_5c9c19b250457762.txt"
    assert att["seed_files"] == {seed.name: hashlib.sha256(seed.read_bytes()).hexdigest()}
    body = json.loads(json.dumps(doc))
    del body["attestation"]["sha256"]
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    assert att["sha256"] == hashlib.sha256(canonical).hexdigest() and verify(doc)
    forged = json.loads(json.dumps(doc))
    forged["summary"]["net_difference"] = "0.00"
    assert not verify(forged)

    # the round's events in the table's hash chain: seq 3 follows seq 2's link, seq 33's link is
    # sha256(seq 32's link || seq 33's bytes as received) (docs/verify.md)
    chain = doc["events_chain"]
    assert (chain["first_seq"], chain["last_seq"]) == (3, 33)
    with open_warehouse(warehouse_url) as wh:
        links = {r["seq"]: (r["prev_hash"], r["hash"]) for r in wh.rows("events_raw")}
    assert chain["prev_hash"] == links[2][1] and links[33][0] == links[32][1]
    assert chain["hash"] == hashlib.sha256(bytes.fromhex(links[32][1]) + bj.lines[-1].encode()).hexdigest()

    assert not [t for t in _texts(doc) if REPR.search(t)]
    html = render_html(doc)
    shown = re.sub(r"<style>.*?</style>|<[^>]+>", " ", html, flags=re.S)
    assert not REPR.search(shown), REPR.search(shown)
    for text in ("Caution: events of this round are missing", "seq 27 — never received", "sequence_gap",
                 "duplicate_event", "-200.00 € (players under-paid)", att["sha256"], "auditor-7",
                 "más de dos cartas."):
        assert text in html, text
    assert html.count("pero si un jugador hiciera un Black-Jack") == 1


def test_replay_round_dossier_cli_writes_the_attested_json_beside_the_pdf(chdb_url, tmp_path):
    """`--format pdf --out F.pdf --by NAME`: the PDF (read back with poppler) shows the caution, the
    lost seq and the hash; F.json is the document that hash attests."""
    from pitwatch.replay.dossier import verify

    bj = _lost_card_round(chdb_url)
    runner = CliRunner()
    res = runner.invoke(app, ["replay", "round", bj.TABLE, bj.ROUND, "--warehouse", chdb_url, "--format", "dossier",
                              "--by", "auditor-7"])
    assert res.exit_code == 1, res.output
    doc = json.loads(res.stdout)
    assert verify(doc) and doc["generated_by"] == "auditor-7" and doc["summary"]["missing_seqs"] == [27]
    pdf = tmp_path / "dossier.pdf"
    res = runner.invoke(app, ["replay", "round", bj.TABLE, bj.ROUND, "--warehouse", chdb_url, "--format", "pdf",
                              "--out", str(pdf), "--by", "auditor-7"])
    assert res.exit_code == 1 and f"wrote {pdf} and {pdf.with_suffix('.json')}" in " ".join(res.output.split())
    attested = json.loads(pdf.with_suffix(".json").read_text(encoding="utf-8"))
    assert verify(attested)
    text = " ".join(pdf_text(pdf).split())
    assert "seq 27 — never received" in text and "Caution" in text and attested["attestation"]["sha256"][:16] in text


def test_hands_are_shown_as_cards_with_their_points():
    """Blackjack totals by hand (000 L245, L293: an ace 1 or 11, a two-card 21 a blackjack but for a
    split hand), baccarat points (000 L475: the unit digit; court cards and tens 0)."""
    from pitwatch.replay.formatting import card_text, hand_text, payload_text

    assert card_text("TS") == "10♠" and card_text("AH") == "A♥" and card_text("XX") == "XX"
    assert hand_text(["AS", "KH"], "blackjack") == "A♠ K♥ (21, blackjack)"
    assert hand_text(["AS", "KH"], "blackjack", split=True) == "A♠ K♥ (soft 21)"
    assert hand_text(["AS", "6H"], "blackjack") == "A♠ 6♥ (soft 17)"
    assert hand_text(["TS", "6H", "8C"], "blackjack") == "10♠ 6♥ 8♣ (24, bust)"
    assert hand_text(["9S", "8H"], "punto_banca") == "9♠ 8♥ (7)"
    assert hand_text(["AS", "KD"], "poker") == "A♠ K♦" and hand_text([], "blackjack") == "no card"
    assert payload_text({"cards": ["AS", "TD"], "box": None, "face_up": False, "options": {}}) == \
        "cards A♠ 10♦, face_up no"


def test_a_cross_round_alert_and_a_lost_round_end_are_in_the_dossier(chdb_url):
    """R1's round_ended (seq 13) is lost: R2's round_started (seq 14) ends it, and the live pipeline's
    gap alert names R2. R1's dossier still marks seq 13 in its place. A cross-round alert (chip
    dumping, stored with no round) that names R1 in its evidence is one of R1's alerts."""
    from pitwatch.detectors.alerts import Alert
    from pitwatch.replay.dossier import render_html, round_dossier

    ev = Events().open().spin_17("R1")
    ev.lines.pop()  # seq 13, R1's round_ended
    ev.spin_17("R2")
    rows = BatchProcessor(lambda _t: None).process(
        [InMessage(TABLE.encode(), v.encode(), 0, i) for i, v in enumerate(ev.lines)]).rows
    assert [(a["kind"], a["round_id"]) for a in rows["alerts"] if a["kind"] == "sequence_gap"] == [
        ("sequence_gap", "R2")]
    ring = Alert(alert_id="ring-1", kind="chip_dumping", severity="high", casino_id="gal-coruna", table_id=TABLE,
                 game="french_roulette", round_id="", bet_id="", player_id="", dealer_id="", amount=None,
                 message="P-1 and P-2 pass chips", citation="pitwatch watch (chip dumping)",
                 detected_at=datetime(2026, 11, 21, 20, 1, tzinfo=timezone.utc),
                 evidence=(f"{TABLE}/R0", f"{TABLE}/R1"), parties=("player:P-1", "player:P-2"), score=5.0)
    rows["alerts"].append(ring.to_row())
    store_rows(chdb_url, rows)
    doc = round_dossier(chdb_url, TABLE, "R1", generated_by="auditor-7")
    assert doc is not None
    assert [(e["seq"], e["text"]) for e in doc["timeline"] if e["missing"]] == [(13, "seq 13 — never received")]
    assert doc["summary"]["missing_seqs"] == [13]
    (cross,) = [a for a in doc["alerts"] if a["violation_kind"] == "chip_dumping"]
    assert (cross["alert_id"], cross["source"], cross["state"]["text"], cross["parties"]) == (
        "ring-1", "stored only", "open", ["player:P-1", "player:P-2"])
    assert round_dossier(chdb_url, TABLE, "R2", generated_by="x")["summary"]["missing_seqs"] == [13]
    assert f"Parties: player:P-1, player:P-2 (score 5.0); rounds: {TABLE}/R0, {TABLE}/R1" in render_html(doc)


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text("abcXYZ-_:0123456789 ", max_size=12)
    | st.decimals(min_value=-10**6, max_value=10**6, places=2, allow_nan=False, allow_infinity=False)
    | st.sampled_from(["AS", "TD", "QH", "9C"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["a", "card", "x"]), inner, max_size=3),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["box", "card", "cards", "options", "stake", "face_up", "bids"]), _VALUES,
                       max_size=5))
def test_a_payload_never_prints_as_a_python_repr(payload):
    """Whatever an event's payload holds (null, booleans, euros, lists, objects, cards), its text has
    no Python repr: no None, True/False, Decimal(...), brackets or quotes."""
    from pitwatch.replay.formatting import payload_text

    text = payload_text(payload)
    assert not REPR.search(text) and not re.search(r"[\[\]{}'\"]", text), text


def test_a_seq_received_but_rejected_is_not_called_never_received(chdb_url):
    """R1's seq 4 arrived with a misspelt spot (``stright:17``) and was rejected by the schema (the
    live pipeline stores it in ``rejected`` and raises no gap for it); seq 11 arrived after seq 12
    and was refused as out of order. The dossier marks each in its place with what happened, not
    as never received."""
    from pitwatch.replay.dossier import round_dossier

    ev = Events().open().spin_17("R1")
    bad = json.loads(ev.lines[3])
    assert bad["seq"] == 4
    bad["spot"] = "stright:17"
    ev.lines[3] = json.dumps(bad)
    ev.lines[10], ev.lines[11] = ev.lines[11], ev.lines[10]  # seq 12 before seq 11
    rows = BatchProcessor(lambda _t: None).process(
        [InMessage(TABLE.encode(), v.encode(), 0, i) for i, v in enumerate(ev.lines)]).rows
    store_rows(chdb_url, rows)
    doc = round_dossier(chdb_url, TABLE, "R1", generated_by="auditor-7")
    assert doc is not None
    assert [(e["seq"], e["text"]) for e in doc["timeline"] if e["missing"]] == [
        (4, "seq 4 — rejected as invalid: spot: 'stright:17' is not a spot code; did you mean 'straight:17'?"),
        (11, "seq 11 — received out of order, rejected: seq 11 is not after the table's last seq 12")]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lost=st.sets(st.integers(4, 32), min_size=1, max_size=4))
def test_the_timeline_marks_exactly_the_lost_seqs_in_their_place(chdb_path, lost):
    """Whichever events of AND-BJ-05-R00027 (seqs 4-32, between its round_started and round_ended)
    are lost, the timeline runs seq 3 to 33 without a hole, marks exactly the lost ones as never
    received, and the caution names them."""
    import uuid

    from pitwatch.replay.dossier import round_dossier

    url = f"chdb://{chdb_path}?database=t_{uuid.uuid4().hex[:12]}"
    bj = Blackjack().open().lost_third_card()
    lines = [ln for ln in bj.lines if json.loads(ln)["seq"] not in lost]
    rows = BatchProcessor(lambda _t: None).process(
        [InMessage(bj.TABLE.encode(), v.encode(), 0, i) for i, v in enumerate(lines)]).rows
    try:
        store_rows(url, rows)
        doc = round_dossier(url, bj.TABLE, bj.ROUND, generated_by="auditor-7")
        assert doc is not None
        assert [e["seq"] for e in doc["timeline"]] == list(range(3, 34))
        gone = lost | {27}
        assert {e["seq"]: e["text"] for e in doc["timeline"] if e["missing"]} == {
            s: f"seq {s} — never received" for s in gone}
        assert doc["summary"]["missing_seqs"] == sorted(gone)
        assert all(str(s) in doc["summary"]["caution"] for s in gone)
    finally:
        with open_warehouse(url) as wh:
            wh.drop_database()
