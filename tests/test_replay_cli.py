"""``pitwatch replay`` for auditors' scripts: JSON Lines with a fixed field set per record kind,
money as two-decimal strings, UTC times with milliseconds, and the exit status (0 clean,
1 violations, 2 invalid input or usage error).

The event files are written out by hand (one French roulette table, Galicia, minimum 5.00 €)
and every expected figure below is worked out by hand from the ruleset's payouts (docs/games/
french_roulette.galicia.md), not by the code under test.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from pathlib import Path

import pytest
from pitwatch.cli import app
from pitwatch.replay.output import MODEL_BY_KIND, RECORD_ADAPTER, REPLAY_SCHEMAS
from typer.testing import CliRunner

RULESET_FILE = Path(__file__).parents[1] / "pitwatch" / "rules" / "rulesets" / "french_roulette.galicia.toml"

runner = CliRunner()
ENV = {"COLUMNS": "200"}

TABLE = "GAL-RF-09"
MONEY = re.compile(r"^-?[0-9]+\.[0-9]{2}$")
UTC_MS = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$")
MONEY_FIELDS = {
    "settlement": ("stake", "expected_returned", "expected_commission", "recorded_returned",
                   "recorded_commission", "discrepancy"),
    "violation": ("amount",),
}


class Events:
    """Hand-built events of one roulette table: ``seq`` from 1, one second apart from
    2026-11-21 20:00:00.000 UTC (event ``n`` occurs at second ``n``)."""

    def __init__(self):
        self.lines: list[str] = []
        self.seq = 0

    def add(self, type: str, round_id: str | None = None, actor=("dealer", "D-01"), **payload) -> Events:
        self.seq += 1
        self.lines.append(json.dumps({
            "event_id": str(uuid.UUID(int=self.seq)), "schema_version": 1, "casino_id": "gal-coruna",
            "table_id": TABLE, "game": "french_roulette", "seq": self.seq, "round_id": round_id,
            "occurred_at": f"2026-11-21T20:00:{self.seq:02d}.000Z",
            "actor": {"role": actor[0], "id": actor[1]}, "type": type, **payload}))
        return self

    def raw(self, line: str) -> Events:
        """An input line that is not an event (does not take a seq)."""
        self.lines.append(line)
        return self

    def open(self) -> Events:
        return (self.add("table_opened", actor=("pit_boss", "PB-1"), ruleset_id="french_roulette.galicia",
                         jurisdiction="galicia", min_bet="5.00", max_bet="900.00", float_amount="10000.00")
                .add("dealer_assigned", actor=("pit_boss", "PB-1"), dealer_id="D-01"))

    def spin_17(self, rid: str, straight_paid: str = "360.00", direction: str = "clockwise") -> Events:
        """A round on 17 (black, odd, manque): straight:17 10.00 € (35:1, returns 360.00),
        split:17-20 10.00 € (17:1, returns 180.00), red 20.00 € (loses, 0.00). The straight-up
        is recorded as paid ``straight_paid``."""
        self.add("round_started", rid)
        for bid, spot, stake in (("B1", "straight:17", "10.00"), ("B2", "split:17-20", "10.00"),
                                 ("B3", "red", "20.00")):
            self.add("bet_placed", rid, ("player", "P-1"), bet_id=f"{rid}-{bid}", player_id="P-1",
                     spot=spot, stake=stake)
        self.add("wheel_spun", rid, direction=direction).add("bets_closed", rid).add("ball_landed", rid, number=17)
        for bid, outcome, returned in (("B1", "win", straight_paid), ("B2", "win", "180.00"), ("B3", "lose", "0.00")):
            self.add("settlement_recorded", rid, bet_id=f"{rid}-{bid}", outcome=outcome, returned=returned)
        return self.add("round_ended", rid)

    def write(self, path: Path) -> Path:
        path.write_text("\n".join(self.lines) + "\n")
        return path


class Blackjack:
    """Hand-built events of Andalucía's blackjack table AND-BJ-05 (blackjack.andalucia, minimum
    10.00 €): ``seq`` from 1, one second apart from 2026-11-21 22:00:00.000 UTC; ``lost()`` drops
    the last event added (its seq is never received, as the issue's seq 1092)."""

    TABLE = "AND-BJ-05"
    ROUND = "AND-BJ-05-R00027"

    def __init__(self):
        self.lines: list[str] = []
        self.seq = 0
        self.ids: dict[int, str] = {}  # seq -> event id

    def add(self, type: str, round_id: str | None = None, actor=("dealer", "D-07"), **payload) -> Blackjack:
        self.seq += 1
        self.ids[self.seq] = str(uuid.UUID(int=0xB0000 + self.seq))
        self.lines.append(json.dumps({
            "event_id": self.ids[self.seq], "schema_version": 1, "casino_id": "and-marbella",
            "table_id": self.TABLE, "game": "blackjack", "seq": self.seq, "round_id": round_id,
            "occurred_at": f"2026-11-21T22:{self.seq // 60:02d}:{self.seq % 60:02d}.000Z",
            "actor": {"role": actor[0], "id": actor[1]}, "type": type, **payload}))
        return self

    def lost(self) -> Blackjack:
        self.lines.pop()
        return self

    def open(self) -> Blackjack:
        return (self.add("table_opened", actor=("pit_boss", "PB-2"), ruleset_id="blackjack.andalucia",
                         jurisdiction="andalucia", min_bet="10.00", max_bet="2000.00", float_amount="50000.00")
                .add("dealer_assigned", actor=("pit_boss", "PB-2"), dealer_id="D-07"))

    def lost_third_card(self) -> Blackjack:
        """The issue's round, seqs 3-33: five boxes of 20.00 € (box: cards) 1: T♠ 8♥ (18), 2: 9♦ K♣
        (19), 3: Q♠ Q♥ (20), 4: 7♣ 10♦ (17), 5: 8♠ J♥ (18), all standing; the dealer 6♥ then 10♠
        (seq 26), and 5♣ for 21 at seq 27, which is never received. Every box lost to the dealer's
        21 and is recorded lost (0.00). Judged without seq 27 the dealer stood on 16 (a misdraw)
        and each box won (20.00 € at even money, 004 L742: 40.00 back): five under-payments of
        40.00 €, -200.00 € in all."""
        rid = self.ROUND
        hands = {1: ("TS", "8H"), 2: ("9D", "KC"), 3: ("QS", "QH"), 4: ("7C", "TD"), 5: ("8S", "JH")}
        self.add("round_started", rid)
        for box in hands:
            self.add("bet_placed", rid, ("player", f"P-{box}"), bet_id=f"{rid}-B{box}", player_id=f"P-{box}",
                     spot="main", stake="20.00", box=box)
        self.add("bets_closed", rid)
        for box, (first, _) in hands.items():
            self.add("card_dealt", rid, hand=str(box), card=first)
        self.add("card_dealt", rid, hand="dealer", card="6H")
        for box, (_, second) in hands.items():
            self.add("card_dealt", rid, hand=str(box), card=second)
        for box in hands:
            self.add("player_decision", rid, ("player", f"P-{box}"), decision="stand", hand=str(box))
        self.add("card_dealt", rid, hand="dealer", card="TS")
        self.add("card_dealt", rid, hand="dealer", card="5C").lost()
        for box in hands:
            self.add("settlement_recorded", rid, bet_id=f"{rid}-B{box}", outcome="lose", returned="0.00")
        return self.add("round_ended", rid)


def replay(path: Path, *args: str):
    return runner.invoke(app, ["replay", "file", str(path), *args], env=ENV)


def records(stdout: str) -> list[dict]:
    """Every stdout line, checked against its kind's model and its fixed field set."""
    out = []
    for line in stdout.splitlines():
        data = json.loads(line)
        model = MODEL_BY_KIND[data["kind"]]
        model.model_validate_json(line)
        RECORD_ADAPTER.validate_json(line)
        assert set(data) == set(model.model_fields), (data["kind"], set(data) ^ set(model.model_fields))
        for name in MONEY_FIELDS.get(data["kind"], ()):
            assert data[name] is None or MONEY.match(data[name]), (name, data[name])
        for name in ("started_at", "ended_at", "detected_at"):
            if name in data:
                assert UTC_MS.match(data[name]), (name, data[name])
        out.append(data)
    assert out and out[-1]["kind"] == "summary" and [r["kind"] for r in out].count("summary") == 1
    return out


# --------------------------------------------------------------------------- exit 0: clean


def test_a_clean_file_exits_0_with_round_settlements_and_summary(tmp_path):
    path = Events().open().spin_17("R1").write(tmp_path / "clean.jsonl")
    res = replay(path, "--format", "json")
    assert res.exit_code == 0, res.output
    recs = records(res.stdout)
    assert [r["kind"] for r in recs] == ["round", "settlement", "settlement", "settlement", "summary"]
    rnd = recs[0]
    assert rnd == {
        "kind": "round", "table_id": TABLE, "round_id": "R1", "game": "french_roulette",
        "ruleset_id": "french_roulette.galicia", "dealer_id": "D-01", "outcome": rnd["outcome"],
        "ruleset_hash": hashlib.sha256(RULESET_FILE.read_bytes()).hexdigest(),
        "started_at": "2026-11-21T20:00:03.000Z", "ended_at": "2026-11-21T20:00:13.000Z",
        "bets": 3, "violations": 0, "line": 13}
    assert "17" in rnd["outcome"]
    by_bet = {r["bet_id"]: r for r in recs if r["kind"] == "settlement"}
    assert {b: (r["spot"], r["stake"], r["expected_outcome"], r["expected_returned"], r["expected_commission"],
                r["recorded"], r["recorded_outcome"], r["recorded_returned"], r["recorded_commission"],
                r["discrepancy"])
            for b, r in by_bet.items()} == {
        "R1-B1": ("straight:17", "10.00", "win", "360.00", "0.00", True, "win", "360.00", "0.00", "0.00"),
        "R1-B2": ("split:17-20", "10.00", "win", "180.00", "0.00", True, "win", "180.00", "0.00", "0.00"),
        "R1-B3": ("red", "20.00", "lose", "0.00", "0.00", True, "lose", "0.00", "0.00", "0.00"),
    }
    assert all(r["player_id"] == "P-1" and r["table_id"] == TABLE and r["round_id"] == "R1" for r in by_bet.values())
    assert "L133" in by_bet["R1-B1"]["citation"] and "L135" in by_bet["R1-B2"]["citation"]
    assert recs[-1] == {"kind": "summary", "lines": 13, "events": 13, "rounds": 1, "rounds_with_violations": 0,
                        "violations": 0, "invalid_lines": 0, "exit_status": 0}


def test_text_format_prints_euros_and_utc_milliseconds(tmp_path):
    path = Events().open().spin_17("R1", straight_paid="350.00").write(tmp_path / "short.jsonl")
    res = replay(path)  # --format text is the default
    assert res.exit_code == 1, res.output
    out = res.stdout
    for text in ("10.00 €", "20.00 €", "win 360.00 €", "win 350.00 €", "win 180.00 €", "lose 0.00 €",
                 "-10.00 €", "2026-11-21 20:00:03.000 UTC", "2026-11-21 20:00:13.000 UTC", "payout_discrepancy"):
        assert text in out, text
    assert "EUR)" not in out and "T20:00" not in out
    assert "1 rounds replayed, 1 with violations, 1 violation(s), 0 invalid line(s); exit status 1" in res.stderr


# --------------------------------------------------------------------------- exit 1: violations


def test_a_file_with_a_violation_exits_1_and_the_violation_follows_its_round(tmp_path):
    # R2: the straight-up on 17 (10.00 € at 35:1, 360.00 € due) is paid 350.00 €: under-paid by 10.00 €
    path = Events().open().spin_17("R1").spin_17("R2", straight_paid="350.00", direction="counterclockwise") \
        .write(tmp_path / "short.jsonl")
    res = replay(path, "--format", "json")
    assert res.exit_code == 1, res.output
    recs = records(res.stdout)
    assert [r["kind"] for r in recs] == ["round"] + ["settlement"] * 3 + ["round"] + ["settlement"] * 3 + \
        ["violation", "summary"]
    assert recs[4]["round_id"] == "R2" and recs[4]["violations"] == 1 and recs[4]["line"] == 24
    b1 = recs[5]
    assert (b1["bet_id"], b1["expected_returned"], b1["recorded_returned"], b1["discrepancy"]) == \
        ("R2-B1", "360.00", "350.00", "-10.00")
    v = recs[8]
    assert {k: v[k] for k in ("violation_kind", "severity", "table_id", "round_id", "bet_id", "player_id",
                              "dealer_id", "amount", "detected_at", "line")} == {
        "violation_kind": "payout_discrepancy", "severity": "high", "table_id": TABLE, "round_id": "R2",
        "bet_id": "R2-B1", "player_id": "P-1", "dealer_id": "D-01", "amount": "-10.00",
        "detected_at": "2026-11-21T20:00:24.000Z", "line": 24}
    assert "L133" in v["citation"] and v["evidence"] == [str(uuid.UUID(int=21))]  # the settlement_recorded
    assert recs[-1] == {"kind": "summary", "lines": 24, "events": 24, "rounds": 2, "rounds_with_violations": 1,
                        "violations": 1, "invalid_lines": 0, "exit_status": 1}

    only = replay(path, "--format", "json", "--only-violations")
    assert only.exit_code == 1
    recs = records(only.stdout)
    assert [r["round_id"] for r in recs if r["kind"] == "round"] == ["R2"]
    assert recs[-1]["rounds"] == 2  # the summary counts every round replayed


def test_a_stand_alone_violation_has_null_round_fields(tmp_path):
    """A sequence gap is a violation outside any round verdict: ids that do not apply are null."""
    ev = Events().open()
    ev.seq += 1  # seq 3 is lost
    path = ev.spin_17("R1").write(tmp_path / "gap.jsonl")
    res = replay(path, "--format", "json")
    assert res.exit_code == 1, res.output
    gaps = [r for r in records(res.stdout) if r["kind"] == "violation" and r["violation_kind"] == "sequence_gap"]
    assert len(gaps) == 1
    assert (gaps[0]["bet_id"], gaps[0]["amount"], gaps[0]["line"]) == (None, None, 3)


# --------------------------------------------------------------------------- exit 2: invalid input


def test_an_invalid_line_exits_2_even_with_violations(tmp_path):
    ev = Events().open().raw("{not json").spin_17("R1", straight_paid="350.00")
    path = ev.write(tmp_path / "bad.jsonl")
    res = replay(path, "--format", "json")
    assert res.exit_code == 2, res.output
    recs = records(res.stdout)
    bad = [r for r in recs if r["kind"] == "invalid_line"]
    assert len(bad) == 1 and bad[0]["line"] == 3 and "JSON" in bad[0]["reason"]
    assert recs[-1] == {"kind": "summary", "lines": 14, "events": 13, "rounds": 1, "rounds_with_violations": 1,
                        "violations": 1, "invalid_lines": 1, "exit_status": 2}
    assert "1 invalid line(s)" in res.stderr


@pytest.mark.parametrize("payload, reason", [
    ({"type": "bet_placed", "bet_id": "X1", "player_id": "P-1", "spot": "stright:5", "stake": "10.00"},
     "spot: 'stright:5' is not a spot code; did you mean 'straight:5'?"),
    ({"type": "card_dealt", "hand": "deler", "card": "TS"},
     "hand: 'deler' is not a hand id; did you mean 'dealer'?"),
])
def test_an_off_grammar_code_is_an_invalid_line_with_a_did_you_mean_hint(tmp_path, payload, reason):
    ev = Events().open().add("round_started", "R1")
    ev.add(round_id="R1", **payload)
    path = ev.write(tmp_path / "typo.jsonl")
    res = replay(path, "--format", "json")
    assert res.exit_code == 2, res.output
    bad = [r for r in records(res.stdout) if r["kind"] == "invalid_line"]
    assert bad == [{"kind": "invalid_line", "line": 4, "reason": reason}]
    text = replay(path)
    assert text.exit_code == 2 and "did you mean" in text.stdout


@pytest.mark.parametrize("damage", ["schema", "truncated"])
def test_an_invalid_line_is_reported_once_not_also_as_a_missing_seq(tmp_path, damage):
    """Issue 7 §6: line 4 (seq 4) is invalid (a misspelt spot, or the line cut short); the
    round goes on with seq 5. The invalid line is the only finding: no sequence_gap for seq 4."""
    ev = Events().open().add("round_started", "R1")
    ev.add("bet_placed", "R1", ("player", "P-1"), bet_id="X1", player_id="P-1", spot="stright:5", stake="10.00")
    if damage == "truncated":
        ev.lines[-1] = ev.lines[-1][:ev.lines[-1].index('"round_id"')]
    ev.add("wheel_spun", "R1", direction="clockwise").add("bets_closed", "R1").add("ball_landed", "R1", number=17)
    ev.add("round_ended", "R1")
    res = replay(ev.write(tmp_path / "bad.jsonl"), "--format", "json")
    recs = records(res.stdout)
    assert [(r["kind"], r.get("line")) for r in recs if r["kind"] in ("invalid_line", "violation")] == [
        ("invalid_line", 4)]
    assert recs[-1]["violations"] == 0 and res.exit_code == 2


def test_an_off_layout_spot_is_a_violation_not_an_invalid_line(tmp_path):
    """split:1-5 is well-formed but 1 and 5 are not adjacent: the rules' invalid_bet (exit 1)."""
    ev = Events().open().add("round_started", "R1")
    ev.add("bet_placed", "R1", ("player", "P-1"), bet_id="X1", player_id="P-1", spot="split:1-5", stake="10.00")
    ev.add("wheel_spun", "R1", direction="clockwise").add("bets_closed", "R1").add("ball_landed", "R1", number=5)
    ev.add("settlement_recorded", "R1", bet_id="X1", outcome="void", returned="10.00").add("round_ended", "R1")
    res = replay(ev.write(tmp_path / "offlayout.jsonl"), "--format", "json")
    assert res.exit_code == 1, res.output
    recs = records(res.stdout)
    assert [r["violation_kind"] for r in recs if r["kind"] == "violation"] == ["invalid_bet"]
    assert recs[-1]["invalid_lines"] == 0


def test_usage_errors_exit_2(tmp_path):
    path = Events().open().spin_17("R1").write(tmp_path / "clean.jsonl")
    res = replay(path, "--format", "xml")
    assert res.exit_code == 2 and "--format must be text or json" in res.stderr
    res = replay(tmp_path / "missing.jsonl")
    assert res.exit_code == 2 and "does not exist" in res.output
    res = runner.invoke(app, ["replay", "round", TABLE, "R1", "--format", "yaml"])
    assert res.exit_code == 2 and "--format must be text, json, html, pdf or dossier" in res.stderr


# --------------------------------------------------------------------------- replay round


def test_replay_round_exit_status_and_records(tmp_path, chdb_url):
    from pitwatch.streams.processor import BatchProcessor, InMessage

    from tests.fixtures.batches import store_rows

    lines = Events().open().spin_17("R1").spin_17("R2", straight_paid="350.00", direction="counterclockwise").lines
    out = BatchProcessor(lambda _t: None).process(
        [InMessage(key=TABLE.encode(), value=v.encode(), partition=0, offset=i) for i, v in enumerate(lines)])
    store_rows(chdb_url, out.rows)

    def round_cmd(rid: str, *args: str):
        return runner.invoke(app, ["replay", "round", TABLE, rid, "--warehouse", chdb_url, *args], env=ENV)

    res = round_cmd("R1", "--format", "json")
    assert res.exit_code == 0, res.output
    recs = records(res.stdout)
    assert [r["kind"] for r in recs] == ["round", "settlement", "settlement", "settlement", "summary"]
    assert recs[0]["line"] is None and recs[0]["ended_at"] == "2026-11-21T20:00:13.000Z"
    assert recs[-1] == {"kind": "summary", "lines": 13, "events": 13, "rounds": 1, "rounds_with_violations": 0,
                        "violations": 0, "invalid_lines": 0, "exit_status": 0}

    res = round_cmd("R2", "--format", "json")
    assert res.exit_code == 1, res.output
    recs = records(res.stdout)
    v = [r for r in recs if r["kind"] == "violation"]
    assert [(r["violation_kind"], r["bet_id"], r["amount"], r["line"]) for r in v] == \
        [("payout_discrepancy", "R2-B1", "-10.00", None)]
    assert recs[-1]["rounds"] == 1 and recs[-1]["violations"] == 1 and recs[-1]["exit_status"] == 1

    text = round_cmd("R2")
    assert text.exit_code == 1 and "350.00 €" in text.stdout and "2026-11-21 20:00:24.000 UTC" in text.stdout

    missing = round_cmd("R9")
    assert missing.exit_code == 2 and f"round R9 of table {TABLE} not found" in missing.stderr


def test_replay_round_reports_the_rounds_sequence_gap(chdb_url):
    """Issue: AND-BJ-05-R00027's seq 27 (the dealer's third card, the issue's seq 1092) was never
    received; the live pipeline alerted it on seq 28, an event of the round. `replay round` (JSON
    and text) showed the dealer misdraw and the five under-payments the missing card causes, and
    not the gap: it must show the gap too, and count it."""
    from pitwatch.streams.processor import BatchProcessor, InMessage

    from tests.fixtures.batches import store_rows

    bj = Blackjack().open().lost_third_card()
    out = BatchProcessor(lambda _t: None).process(
        [InMessage(key=bj.TABLE.encode(), value=v.encode(), partition=0, offset=i) for i, v in enumerate(bj.lines)])
    assert [(a["kind"], a["round_id"]) for a in out.rows["alerts"] if a["kind"] == "sequence_gap"] == [
        ("sequence_gap", bj.ROUND)]
    store_rows(chdb_url, out.rows)

    def round_cmd(*args: str):
        return runner.invoke(app, ["replay", "round", bj.TABLE, bj.ROUND, "--warehouse", chdb_url, *args], env=ENV)

    res = round_cmd("--format", "json")
    assert res.exit_code == 1, res.output
    recs = records(res.stdout)
    kinds = [(r["violation_kind"], r["amount"]) for r in recs if r["kind"] == "violation"]
    assert kinds.count(("payout_discrepancy", "-40.00")) == 5 and ("dealer_misdraw", None) in kinds
    gaps = [r for r in recs if r["kind"] == "violation" and r["violation_kind"] == "sequence_gap"]
    assert [(g["round_id"], g["message"], g["evidence"]) for g in gaps] == [
        (bj.ROUND, "1 event(s) missing: seq 27..27", [bj.ids[28]])]
    assert recs[-1]["violations"] == 7 and recs[-1]["rounds"] == 1

    text = round_cmd()
    assert text.exit_code == 1 and "sequence_gap" in text.stdout and "seq 27..27" in text.stdout

    # the events as people read them: cards with their suits, no Python repr (face_up=True, box=None)
    shown = round_cmd("--events").stdout
    assert "card_dealt hand dealer, card 10♠, face_up yes" in shown
    assert "bet_placed bet_id AND-BJ-05-R00027-B1, player_id P-1, spot main, stake 20.00 €, box 1" in shown
    assert not re.search(r"None|True|False|\[|Decimal", shown)


def test_replay_round_events_include_a_table_event_within_the_round(chdb_url):
    """A dealer change (a table event, no round) stored between R1's first and last events is part
    of R1's events as stored (seq 5 of 3-10); the table's opening (seqs 1-2) is not."""
    from pitwatch.streams.processor import BatchProcessor, InMessage

    from tests.fixtures.batches import store_rows

    ev = (Events().open().add("round_started", "R1")
          .add("bet_placed", "R1", ("player", "P-1"), bet_id="R1-B1", player_id="P-1", spot="red", stake="10.00")
          .add("dealer_assigned", actor=("pit_boss", "PB-1"), dealer_id="D-02")
          .add("wheel_spun", "R1", direction="clockwise").add("bets_closed", "R1").add("ball_landed", "R1", number=17)
          .add("settlement_recorded", "R1", bet_id="R1-B1", outcome="lose", returned="0.00").add("round_ended", "R1"))
    out = BatchProcessor(lambda _t: None).process(
        [InMessage(key=TABLE.encode(), value=v.encode(), partition=0, offset=i) for i, v in enumerate(ev.lines)])
    store_rows(chdb_url, out.rows)
    res = runner.invoke(app, ["replay", "round", TABLE, "R1", "--warehouse", chdb_url, "--format", "json", "--events"],
                        env=ENV)
    evs = [(r["seq"], r["type"]) for r in records(res.stdout) if r["kind"] == "event"]
    assert [s for s, _ in evs] == list(range(3, 11)) and (5, "dealer_assigned") in evs


# --------------------------------------------------------------------------- schemas


def test_schema_export_writes_the_replay_record_schemas(tmp_path):
    res = runner.invoke(app, ["schema", "export", str(tmp_path)])
    assert res.exit_code == 0, res.output
    for kind in ("event", "round", "settlement", "violation", "invalid_line", "summary"):
        schema = json.loads((tmp_path / f"replay-{kind}.schema.json").read_text())
        assert schema["$id"] == f"https://pitwatch.dev/schemas/v1/replay-{kind}.schema.json"
        assert schema["properties"]["kind"]["const"] == kind
        assert set(schema["required"]) == set(schema["properties"])  # every field always present
        assert schema["additionalProperties"] is False
    assert set(REPLAY_SCHEMAS) == {f"replay-{k}" for k in ("event", "round", "settlement", "violation",
                                                           "invalid_line", "summary")}
    settlement = json.loads((tmp_path / "replay-settlement.schema.json").read_text())["properties"]
    assert settlement["stake"]["pattern"] == r"^-?[0-9]+\.[0-9]{2}$"
    assert {"type": "null"} in settlement["recorded_returned"]["anyOf"]


def test_replay_round_judges_with_the_ruleset_version_in_force(tmp_path, chdb_url, monkeypatch):
    """Issue 7 §5: R2 was judged live with the shipped french_roulette.galicia (straight-up
    35 to 1, 000 L133: 10.00 € returns 360.00, recorded 350.00: under-paid by 10.00). A later
    release ships a ruleset that pays 34 to 1 (350.00). `replay round` still judges with the
    stored version and says so; with --current-ruleset it judges with the new one (no
    violation). The warehouse holds both the settlement's hash and that version's source."""
    from pitwatch.rules import base
    from pitwatch.streams.processor import BatchProcessor, InMessage

    from tests.fixtures.batches import store_rows

    rid = "french_roulette.galicia"
    lines = Events().open().spin_17("R2", straight_paid="350.00").lines
    out = BatchProcessor(lambda _t: None).process(
        [InMessage(key=TABLE.encode(), value=v.encode(), partition=0, offset=i) for i, v in enumerate(lines)])
    live = base.load_ruleset(rid)
    assert {r["ruleset_hash"] for r in out.rows["settlements"]} == {live.content_hash}
    assert {(r["kind"], r["ruleset_hash"]) for r in out.rows["alerts"]} == {("payout_discrepancy", live.content_hash)}
    assert [(r["ruleset_key"], r["source"]) for r in out.rows["rulesets"]] == [
        (f"{rid}@{live.content_hash}", live.source)]
    store_rows(chdb_url, out.rows)

    changed = base.parse_ruleset(live.source.replace("straight = 35 ", "straight = 34 ", 1))
    assert changed.content_hash != live.content_hash
    shipped = base._shipped
    monkeypatch.setattr(base, "_shipped", lambda r: changed if r == rid else shipped(r))

    def round_cmd(*args: str):
        return runner.invoke(app, ["replay", "round", TABLE, "R2", "--warehouse", chdb_url, "--format", "json", *args],
                             env=ENV)

    res = round_cmd()
    assert res.exit_code == 1, res.output
    recs = records(res.stdout)
    assert recs[0]["ruleset_hash"] == live.content_hash
    assert [(r["violation_kind"], r["amount"]) for r in recs if r["kind"] == "violation"] == [
        ("payout_discrepancy", "-10.00")]
    assert f"judged with {rid}@{live.content_hash[:12]}, the version in force" in res.stderr

    now = round_cmd("--current-ruleset")
    assert now.exit_code == 0, now.output
    assert records(now.stdout)[0]["ruleset_hash"] == changed.content_hash
    assert f"judged with {rid}@{changed.content_hash[:12]}, the version shipped with this release" in now.stderr

    # --events: the round's events as stored (seq 3-13, not the table's opening), then its verdict
    with_events = records(round_cmd("--events").stdout)
    assert [(r["kind"], r["seq"], r["line"]) for r in with_events if r["kind"] == "event"] == [
        ("event", n, None) for n in range(3, 14)]
    assert [r["kind"] for r in with_events][11:] == ["round", "settlement", "settlement", "settlement",
                                                     "violation", "summary"]

    listed = runner.invoke(app, ["rulesets", "--warehouse", chdb_url], env={"COLUMNS": "200"})
    assert listed.exit_code == 0, listed.output
    stored = [ln for ln in listed.stdout.splitlines() if live.content_hash[:12] in ln]
    assert len(stored) == 1 and rid in stored[0] and stored[0].rstrip(" │").endswith("no")
    assert changed.content_hash[:12] in listed.stdout  # the shipped list shows the new version


def test_replay_round_says_when_the_version_in_force_cannot_be_read_by_this_release(chdb_url, monkeypatch):
    """A ruleset version stored in the warehouse that this release's models reject (a key since
    renamed, say) is one clear error naming the version and the way out (--current-ruleset),
    exit 2; --current-ruleset then judges the round."""
    from pitwatch.rules import base
    from pitwatch.streams.processor import BatchProcessor, InMessage

    from tests.fixtures.batches import store_rows

    rid = "french_roulette.galicia"
    lines = Events().open().spin_17("R2").lines
    out = BatchProcessor(lambda _t: None).process(
        [InMessage(key=TABLE.encode(), value=v.encode(), partition=0, offset=i) for i, v in enumerate(lines)])
    old_source = base.load_ruleset(rid).source + "\n# written by an older release\n"
    old_hash = base.content_hash(old_source.encode())
    for table in ("settlements", "alerts"):
        for r in out.rows[table]:
            r["ruleset_hash"] = old_hash
    out.rows["rulesets"] = [dict(r, ruleset_key=f"{rid}@{old_hash}", ruleset_hash=old_hash, source=old_source)
                            for r in out.rows["rulesets"]]
    store_rows(chdb_url, out.rows)
    parse = base.parse_ruleset

    def models_of_this_release(source: str, origin: str = "") -> base.Ruleset:
        if source == old_source:
            raise base.RuleError(f"{origin}: payouts.straight: renamed to payouts.pleno")
        return parse(source, origin)

    monkeypatch.setattr(base, "parse_ruleset", models_of_this_release)
    res = runner.invoke(app, ["replay", "round", TABLE, "R2", "--warehouse", chdb_url, "--format", "json"], env=ENV)
    assert res.exit_code == 2
    assert f"version {old_hash[:12]}" in res.stderr and "--current-ruleset" in res.stderr and "renamed" in res.stderr
    now = runner.invoke(app, ["replay", "round", TABLE, "R2", "--warehouse", chdb_url, "--format", "json",
                              "--current-ruleset"], env=ENV)
    assert now.exit_code == 0, now.output


# --------------------------------------------------------------------------- --events


def test_events_are_reported_as_read_before_what_they_complete(tmp_path):
    """Issue 7 §6: the `event` kind. With --events every valid line is one `event` record, in
    line order, before the records of what it completes (R1's `round` right after its
    round_ended, line 13); an invalid line stays one `invalid_line`; the counts are those of a
    replay without --events."""
    path = Events().open().spin_17("R1").raw("not json").write(tmp_path / "events.jsonl")
    res = replay(path, "--format", "json", "--events")
    assert res.exit_code == 2, res.output
    recs = records(res.stdout)
    assert [r["kind"] for r in recs] == ["event"] * 13 + ["round", "settlement", "settlement", "settlement",
                                                          "invalid_line", "summary"]
    evs = [r for r in recs if r["kind"] == "event"]
    assert [(r["line"], r["seq"]) for r in evs] == [(n, n) for n in range(1, 14)]
    assert evs[0]["type"] == "table_opened" and evs[0]["payload"]["min_bet"] == "5.00"
    assert evs[0]["round_id"] is None and evs[0]["actor_role"] == "pit_boss" and evs[0]["actor_id"] == "PB-1"
    bet = evs[3]
    assert (bet["type"], bet["round_id"], bet["occurred_at"], bet["event_id"]) == (
        "bet_placed", "R1", "2026-11-21T20:00:04.000Z", str(uuid.UUID(int=4)))
    assert bet["payload"] == {"bet_id": "R1-B1", "player_id": "P-1", "spot": "straight:17", "stake": "10.00",
                              "box": None}
    assert recs[-1] == records(replay(path, "--format", "json").stdout)[-1]
    text = replay(path, "--events")
    assert ("line 4 · GAL-RF-09 seq 4 · 2026-11-21 20:00:04.000 UTC · player P-1 bet_placed bet_id R1-B1, "
            "player_id P-1, spot straight:17, stake 10.00 €\n") in text.stdout  # no box=None
    assert "None" not in text.stdout and "=" not in text.stdout


def test_events_and_only_violations_is_a_usage_error(tmp_path):
    path = Events().open().spin_17("R1").write(tmp_path / "e.jsonl")
    res = replay(path, "--events", "--only-violations")
    assert res.exit_code == 2 and "do not go together" in res.stderr
