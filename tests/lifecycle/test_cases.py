"""Cases (issue 8 §2): alerts about one table, round or person within a window grouped and
handled together, with the same lifecycle as an alert."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from pitwatch.cli import app
from pitwatch.lifecycle.actions import ActionError, new_action
from pitwatch.lifecycle.cases import case_id, open_case, plan_case
from pitwatch.lifecycle.store import current, history, record, record_action
from pitwatch.warehouse import open_warehouse
from typer.testing import CliRunner

from tests.warehouse.rows import T0 as STORED_T0
from tests.warehouse.rows import alert

T0 = datetime(2026, 11, 24, 21, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)


def rows() -> dict[str, dict]:
    """A-1, A-2: player P-1 at T-1, round R-1 and R-2, an hour apart; A-3: P-1 at T-2 a day
    later; A-4: another player at T-1."""
    def row(i, table, rnd, player, at):
        return {"alert_id": f"A-{i}", "table_id": table, "round_id": rnd, "player_id": player, "dealer_id": "D-1",
                "detected_at": at.replace(tzinfo=None), "detected_ms": 250}
    return {r["alert_id"]: r for r in (row(1, "T-1", "R-1", "P-1", T0), row(2, "T-1", "R-2", "P-1", T0 + H),
                                        row(3, "T-2", "R-9", "P-1", T0 + 30 * H), row(4, "T-1", "R-1", "P-7", T0))}


@pytest.mark.parametrize("ids, group, window, want", [
    (["A-2", "A-1"], "player", 24 * H, ("P-1", ["A-1", "A-2"])),
    (["A-1", "A-2", "A-4"], "table", 2 * H, ("T-1", ["A-1", "A-2", "A-4"])),
    (["A-1", "A-4"], "round", H, ("T-1/R-1", ["A-1", "A-4"])),
    (["A-1", "A-3"], "dealer", 48 * H, ("D-1", ["A-1", "A-3"])),
])
def test_alerts_that_share_a_key_within_the_window_make_a_case(ids, group, window, want):
    assert plan_case(rows(), ids, group, window) == want


@pytest.mark.parametrize("ids, group, window, message", [
    (["A-1"], "player", 24 * H, "at least two alerts"),
    (["A-1", "A-9"], "player", 24 * H, "unknown alert(s) A-9"),
    (["A-1", "A-4"], "player", 24 * H, "do not share one player (A-1: P-1; A-4: P-7)"),
    (["A-1", "A-3"], "player", 24 * H, "detected 1 day, 6:00:00 apart, more than the window 1 day, 0:00:00"),
    (["A-1", "A-2"], "shoe", 24 * H, "a case groups by table, round, player, dealer"),
])
def test_a_case_that_does_not_hold_together_is_refused(ids, group, window, message):
    with pytest.raises(ActionError) as info:
        plan_case(rows(), ids, group, window)
    assert message in str(info.value)


def test_a_case_is_stored_once_and_carries_the_lifecycle(warehouse):
    warehouse.insert_new("alerts", [alert(1, player_id="P-1"), alert(2, player_id="P-1", detected_at=STORED_T0 + H),
                                    alert(3, player_id="P-2")])
    case = open_case(warehouse, ["A-1", "A-2"], "player", "surv-1", T0 + 2 * H, "same player, two over-payments")
    assert case.case_id == case_id("player", "P-1", ["A-2", "A-1"]) and case.case_id.startswith("case-")
    again = open_case(warehouse, ["A-2", "A-1"], "player", "surv-2", T0 + 3 * H)
    assert again == case  # the same case: stored once, unchanged
    assert warehouse.query("SELECT count() FROM pitwatch.cases") == [(1,)]
    record(warehouse, new_action(case.case_id, "escalate", "surv-1", T0 + 4 * H, escalated_to="inspector"))
    status = record(warehouse, new_action(case.case_id, "close", "insp-1", T0 + 5 * H,
                                          disposition="confirmed_violation", reason="chip dumping confirmed"))
    assert (status.state, status.escalated_to) == ("closed", "inspector")
    with pytest.raises(ActionError, match="unknown case case-nope"):
        record(warehouse, new_action("case-nope", "acknowledge", "x", T0))
    # closing the case closed its alerts (A-3 is not in it)
    assert {r["alert_id"]: r["state"] for r in current(warehouse)} == {"A-1": "closed", "A-2": "closed", "A-3": "open"}


def test_closing_a_case_closes_its_open_alerts_and_leaves_closed_ones_as_they_were(warehouse):
    """Issue: "closing a case leaves its member alerts open". A-1 open, A-2 acknowledged, A-3
    already closed as a duplicate: the case's close closes A-1 and A-2 with its disposition and
    reason (naming the case), after each one's last action; A-3 keeps its own close."""
    warehouse.insert_new("alerts", [alert(i, table_id="T-9") for i in (1, 2, 3)] + [alert(4, table_id="T-9")])
    case = open_case(warehouse, ["A-1", "A-2", "A-3"], "table", "surv-1", T0)
    record(warehouse, new_action("A-2", "acknowledge", "surv-2", T0 + 2 * H))  # later than the case's close below
    record(warehouse, new_action("A-3", "close", "surv-2", T0, disposition="duplicate", reason="same as A-1"))
    published: list[bytes] = []
    done = record_action(warehouse, new_action(case.case_id, "close", "insp-1", T0 + H,
                                               disposition="confirmed_violation", reason="chip dumping at T-9"),
                         lambda _k, v: published.append(v))
    assert (done.status.state, done.also_closed, done.already_closed) == ("closed", ("A-1", "A-2"), ("A-3",))
    states = {r["alert_id"]: (r["state"], r["disposition"] or None) for r in current(warehouse)}
    assert states == {"A-1": ("closed", "confirmed_violation"), "A-2": ("closed", "confirmed_violation"),
                      "A-3": ("closed", "duplicate"), "A-4": ("open", None)}
    a2 = history(warehouse, "A-2")[0]
    assert a2.reason == f"with case {case.case_id}: chip dumping at T-9"
    assert a2.closed_at == T0 + 2 * H + timedelta(milliseconds=1)  # after its acknowledgement
    # the members' closes, then the case's, on the topic
    assert [json.loads(v)["alert_id"] for v in published] == ["A-1", "A-2", case.case_id]
    with pytest.raises(ActionError, match="is closed"):  # a closed case is not closed again: nothing changes
        record_action(warehouse, new_action(case.case_id, "close", "insp-1", T0 + 3 * H,
                                            disposition="duplicate", reason="again"))
    assert warehouse.query("SELECT count() FROM pitwatch.alert_actions") == [(5,)]


def test_a_refused_publish_records_nothing_of_a_case_close(warehouse):
    warehouse.insert_new("alerts", [alert(1), alert(2)])
    case = open_case(warehouse, ["A-1", "A-2"], "table", "surv-1", T0)

    def broker_down(_k: bytes, _v: bytes) -> None:
        raise RuntimeError("broker down")

    with pytest.raises(RuntimeError):
        record_action(warehouse, new_action(case.case_id, "close", "insp-1", T0 + H, disposition="duplicate",
                                            reason="x"), broker_down)
    assert warehouse.query("SELECT count() FROM pitwatch.alert_actions") == [(0,)]


def test_case_commands(chdb_url):
    with open_warehouse(chdb_url) as wh:
        wh.ensure_schema()
        wh.insert_new("alerts", [alert(1, table_id="T-5"), alert(2, table_id="T-5", round_id="R-2")])
    runner = CliRunner()
    opened = runner.invoke(app, ["case", "open", "--alerts", "A-1,A-2", "--group", "table", "--by", "surv-1",
                                 "--warehouse", chdb_url], env={"COLUMNS": "250"})
    assert opened.exit_code == 0, opened.output
    cid = opened.stdout.split()[1].rstrip(":")
    assert cid == case_id("table", "T-5", ["A-1", "A-2"])
    refused = runner.invoke(app, ["case", "open", "--alerts", "A-1,A-2", "--group", "round", "--by", "surv-1",
                                  "--warehouse", chdb_url])
    assert refused.exit_code == 2 and "do not share one round" in refused.stderr
    shown = runner.invoke(app, ["case", "show", cid, "--format", "json", "--warehouse", chdb_url])
    doc = json.loads(shown.stdout)
    assert (doc["grouped_by"], doc["key"], doc["alert_ids"], doc["state"]) == ("table", "T-5", ["A-1", "A-2"], "open")
    # `alert show` takes a case id too (its help says so): the same as `case show`
    via_alert = runner.invoke(app, ["alert", "show", cid, "--format", "json", "--warehouse", chdb_url])
    assert via_alert.exit_code == 0, via_alert.output
    assert json.loads(via_alert.stdout) == doc
    assert doc["alert_states"] == {"A-1": "open", "A-2": "open"}


def test_closing_a_case_from_the_cli_says_how_many_alerts_it_closed(chdb_url, broker):
    from pitwatch.streams.topics import TOPIC_ALERT_ACTIONS

    broker.create_topics([TOPIC_ALERT_ACTIONS], partitions=2)
    with open_warehouse(chdb_url) as wh:
        wh.ensure_schema()
        wh.insert_new("alerts", [alert(1, table_id="T-5"), alert(2, table_id="T-5")])
        cid = open_case(wh, ["A-1", "A-2"], "table", "surv-1", T0).case_id
    res = CliRunner().invoke(app, ["alert", "close", cid, "--disposition", "false_positive", "--reason", "camera",
                                   "--by", "insp-1", "--warehouse", chdb_url, "--bootstrap", broker.bootstrap])
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines() == [f"case {cid}: close recorded; now closed", "closed its 2 alerts: A-1, A-2"]
    with open_warehouse(chdb_url) as wh:
        assert {r["alert_id"]: r["state"] for r in current(wh)} == {"A-1": "closed", "A-2": "closed"}
    shown = CliRunner().invoke(app, ["case", "show", cid, "--warehouse", chdb_url], env={"COLUMNS": "200"})
    assert "  alert A-1: closed (false_positive)" in shown.stdout.splitlines()
