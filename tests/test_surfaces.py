"""Every surface gives the same figure for the same casino, table and period, to the cent.

One simulated evening (gal-coruna's French roulette, blackjack, punto y banca and chemin de fer
tables, an hour from 20:00 UTC on 21 Nov 2026: gaming day 2026-11-21, November 2026), built from
the simulator through the stream processor without the broker and stored in chDB, then what
simulated surveillance staff did with its alerts (the demo's :func:`~pitwatch.demo.simulate_surveillance`).
For that casino and period the surfaces are:

- the dashboards: every panel's SQL with the template variables and the plugin's macros expanded
  for the range (:mod:`pitwatch.dashboards.macros`), the range being the month (1 Nov 00:00 to
  30 Nov 23:59:59 UTC) or an evening range starting inside an hour (20:30-22:00 UTC);
- ``pitwatch figures --format json`` (per table and gaming day), summed over the month's days;
- the monthly report's CSV files (``pitwatch report`` writes them: tables, games, daily win,
  alerts by kind and by disposition);
- the dossier of the first round with a payout discrepancy (``pitwatch replay round ... --format
  dossier``) against the round lookup dashboard.

Compared: drop, handle, win, hold %, theoretical win with σ and deviation (house-banked games only: player-against-
player games, here chemin de fer, have no theoretical win on the dashboards, and the report is
being changed to the same rule), alerts by kind and by state. Dashboard figures come back as
Float64 and are compared as Decimal rounded to the cent.
"""

from __future__ import annotations

import csv
import json
import uuid
from collections import defaultdict
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from pitwatch.cli import app
from pitwatch.dashboards import integrity, performance, round_lookup, surveillance
from pitwatch.dashboards.macros import ALL, Context, Variable, expand
from pitwatch.demo import simulate_surveillance
from pitwatch.replay import fold_lines
from pitwatch.replay.dossier import first_flagged_round, round_dossier
from pitwatch.reports.monthly import build_monthly
from pitwatch.reports.render import write_csv
from pitwatch.sim.base import default_floor, simulate
from pitwatch.streams.processor import BatchProcessor, InMessage
from pitwatch.warehouse import open_warehouse
from typer.testing import CliRunner

from tests.fixtures.batches import store_rows

CASINO, MONTH, DAY = "gal-coruna", "2026-11", date(2026, 11, 21)
START = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)
MONTH_RANGE = (datetime(2026, 11, 1, tzinfo=timezone.utc), datetime(2026, 11, 30, 23, 59, 59, tzinfo=timezone.utc))
EVENING_RANGE = (START + timedelta(minutes=30), START + timedelta(hours=2))
HOUSE_BANKED = {"french_roulette", "blackjack", "punto_banca"}
"""The evening's house-banked games (chemin de fer is played between players)."""
CENT = Decimal("0.01")
FIGURES = ("drop", "handle", "win", "hold_percent")


def _cents(v: Any) -> Decimal | None:
    """A dashboard's Float64 (or a CSV's text) as euros to the cent; None for NULL or empty."""
    if v is None or v == "":
        return None
    return Decimal(repr(v) if isinstance(v, float) else str(v)).quantize(CENT)


@pytest.fixture(scope="module")
def demo(chdb_path, tmp_path_factory):
    """``(warehouse url, report CSV directory)`` of the evening (module docstring)."""
    floor = default_floor(3, chemin_de_fer=1)
    assert {s.casino_id for s in floor} == {CASINO} and {s.game for s in floor} == HOUSE_BANKED | {"chemin_de_fer"}
    events, _ = simulate(floor, 1.0, 5, start=START)
    lines = [json.dumps(e).encode() for e in events]
    msgs = [InMessage(json.loads(ln)["table_id"].encode(), ln, 0, i) for i, ln in enumerate(lines)]
    rows = BatchProcessor({}.get, clock=lambda: START + timedelta(hours=1, minutes=30)).process(msgs).rows
    url = f"chdb://{chdb_path}?database=t_{uuid.uuid4().hex[:12]}"
    store_rows(url, rows)
    assert simulate_surveillance(url, 5) > 0
    out = tmp_path_factory.mktemp("report")
    with open_warehouse(url) as wh:
        write_csv(build_monthly(wh, CASINO, MONTH), out)
    yield url, out
    with open_warehouse(url) as wh:
        wh.drop_database()


def _csv(out: Path, name: str) -> list[dict[str, str]]:
    with (out / f"{CASINO}-{MONTH}-{name}.csv").open(newline="") as fh:
        return list(csv.DictReader(fh))


def _panel(board: Any, title: str, url: str, rng: tuple[datetime, datetime], **picked: list[str]) -> list[dict]:
    """The rows of a dashboard panel over ``rng`` with the ``picked`` variables (others All)."""
    (panel,) = [p for p in board.BOARD.panels if p.title == title]
    variables = {v.name: Variable(picked.get(v.name, [ALL]), "'*'") for v in board.BOARD.variables}
    with open_warehouse(url) as wh:
        columns, rows = wh.query_columns(expand(panel.sql, Context(rng[0], rng[1], 60, variables)))
    return [dict(zip(columns, r)) for r in rows]


def _figures(url: str) -> dict[str, dict[str, Decimal | None]]:
    """``pitwatch figures --format json`` summed per table over the month's gaming days."""
    res = CliRunner().invoke(app, ["figures", "--warehouse", url, "--format", "json"])
    assert res.exit_code == 0, res.output
    sums: dict[str, dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    peer: set[str] = set()
    for line in res.stdout.splitlines():
        f = json.loads(line)
        if f["casino_id"] == CASINO and f["gaming_day"].startswith(MONTH):
            if f["theoretical_win"] is None:  # a game between players: no theoretical win (rake or cagnotte)
                peer.add(f["table_id"])
            for k in ("drop", "handle", "win", "theoretical_win"):
                sums[f["table_id"]][k] += Decimal(f[k] or 0)
    return {t: {"drop": s["drop"], "handle": s["handle"], "win": s["win"],
                "hold_percent": None if s["drop"] == 0 else (s["win"] * 100 / s["drop"]).quantize(CENT),
                "theoretical_win": None if t in peer else s["theoretical_win"].quantize(CENT)}
            for t, s in sums.items()}


def test_tables_and_games_agree_to_the_cent(demo):
    url, out = demo
    rows = _csv(out, "tables")
    report = {r["table_id"]: r for r in rows if r["table_id"] != "total"}
    assert set(report) == {"GAL-RF-01", "GAL-BJ-02", "GAL-PB-03", "GAL-CF-04"}
    (total,) = [r for r in rows if r["table_id"] == "total"]  # the totals row foots the tables to the cent
    for k in ("drop", "handle", "win"):
        assert _cents(total[k]) == sum((_cents(r[k]) for r in report.values()), Decimal(0)), k
    figures = _figures(url)
    assert set(figures) == set(report)
    for rng in (MONTH_RANGE, EVENING_RANGE):
        panel = {r["table_id"]: r for r in _panel(performance, "Tables: actual against theoretical win", url, rng,
                                                  casino=[CASINO])}
        assert set(panel) == set(report), rng
        for table, r in report.items():
            dash = panel[table]
            want = {k: _cents(r[k]) for k in FIGURES}
            assert {k: figures[table][k] for k in FIGURES} == want, (table, "figures")
            assert {"drop": _cents(dash["drop_eur"]), "handle": _cents(dash["handle_eur"]), "win": _cents(dash["win_eur"]),
                    "hold_percent": _cents(dash["hold_pct"])} == want, (
                table, "dashboard", rng)
            if r["game"] in HOUSE_BANKED:
                assert _cents(dash["theo_eur"]) == _cents(r["theoretical_win"]) == figures[table]["theoretical_win"], table
                assert (_cents(dash["sd_eur"]), _cents(dash["deviation_sd"]), dash["outside_band"]) == (
                    _cents(r["sd"]), _cents(r["deviation_sd"]), int(r["outside_band"] == "True")), table
            else:
                assert dash["theo_eur"] is None and dash["sd_eur"] is None and r["theoretical_win"] == "", table
                assert figures[table]["theoretical_win"] is None, table
    # the band from the 4-decimal theoretical win, by hand: 428.3952 + 1.96 x √15,309,879.3258 = 8,097.452...
    assert (_cents(panel["GAL-RF-01"]["theo_eur"]), _cents(panel["GAL-RF-01"]["band_high"])) == (
        Decimal("428.40"), Decimal("8097.45"))
    # the games: the report's games file against the Games panel
    games = {g["game"]: g for g in _panel(performance, "Games", url, MONTH_RANGE, casino=[CASINO])}
    for g in _csv(out, "games"):
        if g["game"] == "total":
            continue
        dash = games[g["game"]]
        assert (_cents(dash["drop_eur"]), _cents(dash["handle_eur"]), _cents(dash["win_eur"])) == (
            _cents(g["drop"]), _cents(g["handle"]), _cents(g["win"])), g["game"]
        if g["game"] in HOUSE_BANKED:
            assert _cents(dash["theo_eur"]) == _cents(g["theoretical_win"]), g["game"]
    # the daily chart (house-banked games) against the report's daily win
    daily = [d for d in _csv(out, "daily_win") if d["game"] in HOUSE_BANKED]
    (day,) = _panel(performance, "Win against theoretical win per gaming day", url, MONTH_RANGE, casino=[CASINO])
    assert _cents(day["win_eur"]) == sum((Decimal(d["win"]) for d in daily), Decimal(0))
    # the big number: the tables outside the band, as the report's tables file says
    outside = sum(1 for r in report.values() if r["outside_band"] == "True" and r["game"] in HOUSE_BANKED)
    (big,) = _panel(performance, "Tables outside the 95% band", url, MONTH_RANGE, casino=[CASINO])
    assert big["tables"] == outside


def test_alerts_by_kind_and_state_agree(demo):
    url, out = demo
    by_kind = {(r["kind"], r["severity"]): (int(r["count"]), _cents(r["amount"])) for r in _csv(out, "alerts_by_kind")}
    by_state = {r["state"]: int(r["count"]) for r in _csv(out, "alerts_by_disposition")}
    assert by_kind and len(by_state) >= 3, by_state  # open, acknowledged and closed ones at least
    rows = _panel(integrity, "Alerts by kind and state", url, MONTH_RANGE, casino=[CASINO])
    kinds: dict[tuple[str, str], list] = defaultdict(lambda: [0, Decimal("0.00")])
    states: dict[str, int] = defaultdict(int)
    for r in rows:
        kinds[(r["kind"], r["severity"])][0] += r["alerts"]
        kinds[(r["kind"], r["severity"])][1] += _cents(r["amount_eur"]) or Decimal(0)
        states[r["state"]] += r["alerts"]
    assert {k: (n, a) for k, (n, a) in kinds.items()} == by_kind
    assert dict(states) == by_state
    # the queue: every alert not closed, whatever the range
    queue = _panel(surveillance, "Open alerts", url, EVENING_RANGE, casino=[CASINO])
    assert len(queue) == sum(n for s, n in by_state.items() if not s.startswith("closed"))


def test_the_dossier_agrees_with_the_round_lookup(demo):
    url, _ = demo
    with open_warehouse(url) as wh:
        flagged = first_flagged_round(wh)
    assert flagged is not None
    doc = round_dossier(url, *flagged)
    assert doc is not None and doc["casino_id"] == CASINO
    table, rnd = flagged
    settlements = _panel(round_lookup, "Settlements", url, MONTH_RANGE, table=[table], round=[rnd])
    money = ("stake", "expected_returned", "recorded_returned", "discrepancy")
    assert {b["bet_id"]: tuple(_cents(b[k]) for k in money) for b in doc["bets"]} == {
        s["bet_id"]: tuple(_cents(s[k]) for k in money) for s in settlements}
    violations = _panel(round_lookup, "Violations", url, MONTH_RANGE, table=[table], round=[rnd])
    assert sorted((v["alert_id"], v["violation_kind"], v["severity"], _cents(v["amount"])) for v in doc["alerts"]) == \
        sorted((v["alert_id"], v["kind"], v["severity"], _cents(v["amount"])) for v in violations)
    assert any(v["violation_kind"] == "payout_discrepancy" and _cents(v["amount"]) != 0 for v in doc["alerts"])


def test_response_times_agree(demo):
    """The report's summary (alerts, acknowledged, closed, median minutes to acknowledge and to
    close, a median of an even count being the mean of the two middle times) against the
    surveillance room's Response times panel over the month (median seconds)."""
    url, out = demo
    summary = {r["field"]: r["value"] for r in _csv(out, "summary")}
    (resp,) = _panel(surveillance, "Response times (median s)", url, MONTH_RANGE, casino=[CASINO])
    assert (resp["alerts"], resp["acknowledged"], resp["closed"]) == (
        int(summary["alerts"]), int(summary["acknowledged"]), int(summary["closed"]))
    for col, field in (("median_ack_s", "median_ack_minutes"), ("median_close_s", "median_close_minutes")):
        assert (Decimal(repr(float(resp[col]))) / 60).quantize(CENT) == Decimal(summary[field]), field


def test_the_band_agrees_with_the_report(demo):
    """GAL-RF-01's 95% band: theoretical win 428.3952 + 1.96 x √15,309,879.3258 = 8,097.452... ->
    8,097.45 (figures' WinBand and the dashboard); the report starts from 428.40 and writes 8,097.46."""
    url, out = demo
    report = {r["table_id"]: r for r in _csv(out, "tables")}
    panel = {r["table_id"]: r for r in _panel(performance, "Tables: actual against theoretical win", url, MONTH_RANGE,
                                              casino=[CASINO])}
    for table, r in report.items():
        if r["game"] in HOUSE_BANKED:
            assert (_cents(panel[table]["band_low"]), _cents(panel[table]["band_high"])) == (
                _cents(r["band_low"]), _cents(r["band_high"])), table


def test_the_report_prints_each_tables_chain_head_and_verify_holds_the_warehouse_to_it(demo):
    """Issue 21 §3: the monthly report prints each table's hash-chain head for the month, the same
    as the offline replay computes from the events (an independent path: no warehouse), and
    ``pitwatch verify --head`` with it finds the warehouse intact (tests/test_verify.py shows the
    same head catching an edited, inserted or deleted event)."""
    url, out = demo
    heads = {r["table_id"]: r for r in _csv(out, "chain_heads")}
    assert set(heads) == {"GAL-RF-01", "GAL-BJ-02", "GAL-PB-03", "GAL-CF-04"}
    floor = default_floor(3, chemin_de_fer=1)
    events, _ = simulate(floor, 1.0, 5, start=START)
    auditors: dict = {}
    for _ in fold_lines((json.dumps(e).encode() for e in events), auditors=auditors):
        pass
    assert {t: a.chain_head.hex() for t, a in auditors.items()} == {t: h["hash"] for t, h in heads.items()}
    for table, h in heads.items():
        res = CliRunner().invoke(app, ["verify", "--warehouse", url, "--table", table, "--head", f"{h['seq']}:{h['hash']}"])
        assert res.exit_code == 0, res.output
