"""``pitwatch replay round`` and ``replay file`` judge as the live pipeline did: focused cases
of what the property of tests/test_verdict_equivalence.py found.

Hand-built events of one Galicia French roulette table (minimum 5.00 €); every figure is
worked out by hand from the regulation (000 = the Galicia text), not by the code under test.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

from pitwatch.cli import app
from pitwatch.streams.processor import BatchProcessor, InMessage
from typer.testing import CliRunner

from tests.fixtures.batches import store_rows

runner = CliRunner()
ENV = {"COLUMNS": "200"}
CLOCK = datetime(2026, 11, 22, 3, 0, tzinfo=timezone.utc)


ROULETTE = "GAL-RF-77"


class Roulette:
    """Events of table ROULETTE: ``seq`` from 1, event ``n`` at second ``n`` after 20:00 UTC."""

    def __init__(self) -> None:
        self.lines: list[bytes] = []

    def add(self, type: str, round_id: str | None = None, actor: tuple[str, str] = ("dealer", "D-01"),
            **payload: Any) -> Roulette:
        seq = len(self.lines) + 1
        self.lines.append(json.dumps({
            "event_id": str(uuid.UUID(int=seq)), "schema_version": 1, "casino_id": "gal-coruna",
            "table_id": ROULETTE, "game": "french_roulette", "seq": seq, "round_id": round_id,
            "occurred_at": f"2026-11-21T20:{seq // 60:02d}:{seq % 60:02d}.000Z",
            "actor": {"role": actor[0], "id": actor[1]}, "type": type, **payload}).encode())
        return self

    def open(self, ruleset_id: str = "french_roulette.galicia") -> Roulette:
        return self.add("table_opened", actor=("pit_boss", "PB-1"), ruleset_id=ruleset_id, jurisdiction="galicia",
                        min_bet="5.00", max_bet="900.00", float_amount="10000.00")

    def spin(self, rid: str, number: int, direction: str, bets: list[tuple[str, str]],
             paid: list[tuple[str, str, str]]) -> Roulette:
        """Round ``rid``: ``bets`` (spot, stake) by P-1 as ``<rid>-B1``, ``<rid>-B2``...; the
        wheel spun ``direction``; the ball on ``number``; ``paid`` (bet id, outcome, returned)."""
        self.add("round_started", rid)
        for n, (spot, stake) in enumerate(bets, 1):
            self.add("bet_placed", rid, ("player", "P-1"), bet_id=f"{rid}-B{n}", player_id="P-1", spot=spot,
                     stake=stake)
        self.add("wheel_spun", rid, direction=direction).add("bets_closed", rid).add("ball_landed", rid, number=number)
        for bet_id, outcome, returned in paid:
            self.add("settlement_recorded", rid, bet_id=bet_id, outcome=outcome, returned=returned)
        return self.add("round_ended", rid)


def live_then_replay_round(lines: list[bytes], url: str, round_id: str) -> tuple[list[dict], list[dict], Any]:
    """The live pipeline's alerts and settlements (one batch, rows stored at ``url``) and the
    CLI run of ``replay round ROULETTE round_id --format json``."""
    out = BatchProcessor(lambda _t: None, clock=lambda: CLOCK).process(
        [InMessage(ROULETTE.encode(), ln, 0, i) for i, ln in enumerate(lines)])
    store_rows(url, out.rows)
    res = runner.invoke(app, ["replay", "round", ROULETTE, round_id, "--warehouse", url, "--format", "json"],
                        env=ENV)
    return out.rows["alerts"], out.rows["settlements"], res


def _kinds(rows: list[dict]) -> list[tuple[str, str, str]]:
    return sorted((r["round_id"], r["kind"], str(r["amount"])) for r in rows)


def test_replay_round_is_not_thrown_off_by_a_table_opened_the_rules_rejected(chdb_url):
    """A ``table_opened`` naming a blackjack ruleset at a roulette table is rejected by the rules
    (one ``rejected_event`` alert) and changes nothing (docs/events.md, Canonical encodings): live, R2 is
    judged with the table's roulette ruleset. R2's straight-up on 17, 10.00 € at 35 to 1
    (000 L133), returns 360.00 €; 350.00 € was recorded: under-paid by 10.00 €. ``replay
    round R2`` must say the same; it folded the table from its latest ``table_opened``, the
    rejected one, judged nothing and answered that the round was not found."""
    lines = (Roulette().open()
             .spin("R1", 17, "clockwise", [("straight:17", "10.00")], [("R1-B1", "win", "360.00")])
             .add("table_opened", actor=("pit_boss", "PB-1"), ruleset_id="blackjack.galicia", jurisdiction="galicia",
                  min_bet="5.00", max_bet="900.00", float_amount="10000.00")
             .spin("R2", 17, "counterclockwise", [("straight:17", "10.00")], [("R2-B1", "win", "350.00")]).lines)
    alerts, _, res = live_then_replay_round(lines, chdb_url, "R2")
    assert _kinds(alerts) == [("", "rejected_event", "0.00"), ("R2", "payout_discrepancy", "-10.00")]
    assert res.exit_code == 1, res.output
    recs = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert [(r["violation_kind"], r["bet_id"], r["amount"]) for r in recs if r["kind"] == "violation"] == [
        ("payout_discrepancy", "R2-B1", "-10.00")]
    assert [(r["bet_id"], r["expected_returned"], r["recorded_returned"]) for r in recs if r["kind"] == "settlement"] \
        == [("R2-B1", "360.00", "350.00")]


def test_replay_round_keeps_the_state_a_re_opening_carries(chdb_url):
    """Re-opened with the same ruleset and no ``table_closed``, the table keeps what crosses
    rounds. R1 (red, 10.00 €) lands on zero: the simple chance goes en prison (000 L125,
    ``zero_default`` en_prison). After the re-opening, R2 lands on 5 (red): the bet is released,
    its 10.00 € returned without winnings (000 L125-L127); recorded so, nothing to flag. But
    R2's wheel was spun clockwise, as R1's: it must turn the other way at every spin (000
    L183), a ``spin_direction`` violation. ``replay round R2`` folded from the re-opening only:
    it lost the prisoner (``unknown_bet_settled`` instead of the release) and the previous
    direction."""
    lines = (Roulette().open()
             .spin("R1", 0, "clockwise", [("red", "10.00")], [("R1-B1", "en_prison", "0.00")])
             .open()
             .spin("R2", 5, "clockwise", [], [("R1-B1", "released", "10.00")]).lines)
    alerts, settlements, res = live_then_replay_round(lines, chdb_url, "R2")
    assert _kinds(alerts) == [("R2", "spin_direction", "0.00")]
    assert [(r["round_id"], r["bet_id"], r["expected_outcome"], r["expected_returned"]) for r in settlements] == [
        ("R1", "R1-B1", "en_prison", Decimal("0.00")), ("R2", "R1-B1", "released", Decimal("10.00"))]
    assert res.exit_code == 1, res.output
    recs = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert [r["violation_kind"] for r in recs if r["kind"] == "violation"] == ["spin_direction"]
    assert [(r["bet_id"], r["expected_outcome"], r["expected_returned"], r["discrepancy"])
            for r in recs if r["kind"] == "settlement"] == [("R1-B1", "released", "10.00", "0.00")]


def test_replay_file_reports_a_cut_line_as_the_live_pipeline_does(tmp_path):
    """A line cut short is invalid JSON; ``replay file`` gives the reason the live pipeline gives
    for the same bytes (the line's end of line is not part of the event: it used to be read as
    a control character on a second line)."""
    lines = Roulette().open().spin("R1", 17, "clockwise", [("red", "10.00")], [("R1-B1", "lose", "0.00")]).lines
    cut = lines[3][:lines[3].index(b'"type"') + 10]
    live = BatchProcessor(lambda _t: None, clock=lambda: CLOCK).process([InMessage(ROULETTE.encode(), cut, 0, 0)])
    [row] = live.rows["rejected"]
    assert row["reason"].startswith("<event>: Invalid JSON: EOF while parsing a string at line 1 column ")
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"\n".join(lines[:3] + [cut] + lines[3:]) + b"\n")
    res = runner.invoke(app, ["replay", "file", str(path), "--format", "json"], env=ENV)
    assert res.exit_code == 2, res.output
    recs = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert [(r["line"], r["reason"]) for r in recs if r["kind"] == "invalid_line"] == [(4, row["reason"])]


def test_replay_round_finds_a_round_closed_by_the_next_one(warehouse_url):
    """R1's ``round_ended`` never arrives; R2's ``round_started`` closes it. Live, R1 gets its
    verdict then: its straight-up on 17 (10.00 € at 35 to 1, 000 L133) returns 360.00 €, as
    recorded, and a procedure violation says R1 never ended. ``replay round R1`` must give
    that verdict; it stopped folding at R1's last event, before the one that closed it, and
    answered that the round was not found."""
    ev = Roulette().open().spin("R1", 17, "clockwise", [("straight:17", "10.00")], [("R1-B1", "win", "360.00")])
    ev.lines.pop()  # R1's round_ended never happened (the next event takes its seq)
    ev.add("player_seated", actor=("player", "P-2"), player_id="P-2", seat=2)  # a table event does not close it
    lines = ev.spin("R2", 5, "counterclockwise", [], []).lines
    alerts, settlements, res = live_then_replay_round(lines, warehouse_url, "R1")  # both backends
    assert _kinds(alerts) == [("R1", "procedure", "0.00")]
    assert [(r["round_id"], r["bet_id"], r["expected_returned"]) for r in settlements] == [
        ("R1", "R1-B1", Decimal("360.00"))]
    assert res.exit_code == 1, res.output
    recs = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert [(r["round_id"], r["outcome"]) for r in recs if r["kind"] == "round"] == [("R1", "17 black")]
    assert [(r["violation_kind"], r["message"]) for r in recs if r["kind"] == "violation"] == [
        ("procedure", "round R1 never ended before round R2 began")]
    assert [(r["bet_id"], r["expected_returned"], r["discrepancy"]) for r in recs if r["kind"] == "settlement"] == [
        ("R1-B1", "360.00", "0.00")]
