"""The table performance dashboard (issue 8 §1): every panel's SQL, macros and variables expanded as
Grafana and the plugin do, runs on both ClickHouse engines over the simulated evening and gives the
figures a plain Python sum of the same settlement and movement rows gives (an independent path:
no SQL); the tables outside the band agree between the table panel, the big number and the alert
rule; each variable narrows the rows."""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import timedelta
from decimal import Decimal

import pytest
from pitwatch.dashboards import performance
from pitwatch.dashboards.macros import ALL, Context, Variable, expand
from pitwatch.dashboards.provisioning import alert_rule

from tests.dashboards.conftest import START

EVERY = Variable([ALL], "'*'")
PANELS = {p.title: p for p in performance.BOARD.panels}
BAND = ["handle_eur", "win_eur", "theo_eur", "sd_eur", "win_minus_theo", "deviation_sd", "band_low", "band_high",
        "outside_band"]
COLUMNS = {
    "Tables outside the 95% band": ["tables"],
    "Win against theoretical win per gaming day": ["time", "win_eur", "theo_eur", "band_low", "band_high"],
    "Tables: actual against theoretical win": ["table_id", "game", "gaming_days", "drop_eur", "handle_eur", "win_eur",
                                               "hold_pct", *BAND[2:]],
    "Games": ["game", "gaming_days", "drop_eur", "handle_eur", "win_eur", "hold_pct", *BAND[2:]],
    "Dealers": ["dealer_id", "bets", *BAND],
}


def _ctx(**picked: list[str]) -> Context:
    variables = {v.name: (Variable(picked[v.name]) if v.name in picked else EVERY) for v in performance.BOARD.variables}
    return Context(START - timedelta(hours=1), START + timedelta(hours=3), 60, variables)


@pytest.fixture
def stored(warehouse, evening_rows):
    for table, rows in evening_rows.items():
        warehouse.insert_new(table, rows)
    return warehouse


def _by_hand(rows: dict[str, list[dict]]) -> dict[str, dict[str, float]]:
    """Per table, from the settlement and movement rows: drop, win, theoretical win, σ."""
    out: dict[str, dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    for s in rows["settlements"]:
        t = out[s["table_id"]]
        t["win"] += s["win"]
        t["theo"] += s["theoretical_win"]
        t["var"] += s["theoretical_variance"]
    for m in rows["movements"]:
        if m["kind"] == "drop":
            out[m["table_id"]]["drop"] += m["amount"]
    return {k: {"drop": float(v["drop"]), "win": float(v["win"]), "theo": float(v["theo"]),
                "sd": math.sqrt(float(v["var"]))} for k, v in out.items()}


def test_every_panel_runs_and_gives_the_sums_of_the_rows(stored, evening_rows):
    ctx = _ctx()
    got = {}
    for title, panel in PANELS.items():
        columns, rows = stored.query_columns(expand(panel.sql, ctx))
        assert columns == COLUMNS[title], title
        assert rows, title
        got[title] = [dict(zip(columns, r)) for r in rows]
    hand = _by_hand(evening_rows)
    tables = got["Tables: actual against theoretical win"]
    assert sorted(t["table_id"] for t in tables) == sorted(hand)
    for t in tables:
        h = hand[t["table_id"]]
        assert t["drop_eur"] == pytest.approx(h["drop"]) and t["win_eur"] == pytest.approx(h["win"])
        assert t["theo_eur"] == pytest.approx(h["theo"]) and t["sd_eur"] == pytest.approx(h["sd"])
        assert t["sd_eur"] > 0
        assert t["deviation_sd"] == pytest.approx(round((h["win"] - h["theo"]) / h["sd"], 2))
        assert t["band_low"] == pytest.approx(h["theo"] - 1.96 * h["sd"])
        assert t["outside_band"] == int(abs(h["win"] - h["theo"]) > 1.96 * h["sd"])
        assert t["hold_pct"] == (pytest.approx(round(100 * h["win"] / h["drop"], 2)) if h["drop"] else None)
    # most deviant first
    assert [abs(t["deviation_sd"]) for t in tables] == sorted((abs(t["deviation_sd"]) for t in tables), reverse=True)
    outside = sum(t["outside_band"] for t in tables)
    assert got["Tables outside the 95% band"] == [{"tables": outside}]
    rule = alert_rule("pitwatch-hold-band")
    assert rule["data"][0]["relativeTimeRange"] == {"from": 86400, "to": 0}
    assert stored.query(expand(rule["data"][0]["model"]["rawSql"], ctx)) == [(outside,)]
    # the games and the days add up to the tables
    assert sum(g["win_eur"] for g in got["Games"]) == pytest.approx(sum(h["win"] for h in hand.values()))
    assert sum(d["theo_eur"] for d in got["Win against theoretical win per gaming day"]) == pytest.approx(
        sum(h["theo"] for h in hand.values()))
    dealers = got["Dealers"]
    assert sum(d["bets"] for d in dealers) == len(evening_rows["settlements"])  # every settlement row, as figures


def test_each_variable_narrows_the_rows(stored, evening_rows):
    """One casino, one jurisdiction, one game, one table, one dealer, one gaming day: each keeps
    only its tables (a dealer: the tables he dealt at; the Dealers panel: only him)."""
    s = evening_rows["settlements"]
    one = s[0]
    jurisdiction = one["ruleset_id"].split(".")[1]
    day = str(one["gaming_day"])
    tables_panel = PANELS["Tables: actual against theoretical win"]
    for var, value, expected in (
        ("casino", one["casino_id"], {r["table_id"] for r in s if r["casino_id"] == one["casino_id"]}),
        ("jurisdiction", jurisdiction, {r["table_id"] for r in s if r["ruleset_id"].endswith("." + jurisdiction)}),
        ("game", one["game"], {r["table_id"] for r in s if r["game"] == one["game"]}),
        ("table", one["table_id"], {one["table_id"]}),
        ("dealer", one["dealer_id"], {r["table_id"] for r in s if r["dealer_id"] == one["dealer_id"]}),
        ("gaming_day", day, {r["table_id"] for r in s if str(r["gaming_day"]) == day}),
    ):
        rows = stored.query(expand(tables_panel.sql, _ctx(**{var: [value]})))
        assert {r[0] for r in rows} == expected, var
    dealers = stored.query(expand(PANELS["Dealers"].sql, _ctx(dealer=[one["dealer_id"]])))
    assert [r[0] for r in dealers] == [one["dealer_id"]]
    for v in performance.BOARD.variables:
        assert stored.query(v.sql), v.name


def test_a_table_with_drop_and_no_bet_yet_shows_with_every_jurisdiction_and_dealer(stored, evening_rows):
    """A table that has only sold chips (no settlement, so no ruleset or dealer to filter on) is in
    the table panel while jurisdiction and dealer are All, with hold 0 and no band; picking a
    jurisdiction leaves it out."""
    one = evening_rows["settlements"][0]
    stored.insert_new("movements", [{
        "movement_id": "M-only-drop", "casino_id": one["casino_id"], "table_id": "T-ONLY-DROP", "game": one["game"],
        "kind": "drop", "amount": Decimal("500.00"), "player_id": "P-9", "gaming_day": one["gaming_day"],
        "occurred_at": START + timedelta(minutes=30)}])
    sql = PANELS["Tables: actual against theoretical win"].sql
    rows = {r[0]: r for r in stored.query(expand(sql, _ctx()))}
    assert rows["T-ONLY-DROP"][3:6] == (500.0, 0.0, 0.0) and rows["T-ONLY-DROP"][-1] == 0
    picked = stored.query(expand(sql, _ctx(jurisdiction=[one["ruleset_id"].split(".")[1]])))
    assert "T-ONLY-DROP" not in {r[0] for r in picked}


def test_a_range_starting_inside_an_hour_selects_the_rows_figures_and_the_report_select(stored):
    """The issue's defect (GAL-RF-01: drop 1,500 / win -12,412.50 on the dashboard, 5,100 /
    -5,592.50 in the report and `pitwatch figures`): `pitwatch figures --gaming-day` and the monthly
    report choose whole gaming days (``table_hourly.gaming_day``), so a range from 20:30 to 22:00 UTC
    on 21 Nov 2026 (inside gaming day 2026-11-21, Madrid time) must give every table the figures of
    that gaming day, the 20:00 hour bucket included; the big number and the hold-band alert rule
    count the tables outside the band among the same rows: a loss of 3,000.00 settled at 20:05 on
    GAL-RF-01 (win -5,970.00 over the evening, theoretical win 428.40, 1.64 σ below) takes it to
    -8,970.00, outside its band."""
    from datetime import date

    from pitwatch.replay.figures import figures_from_warehouse

    from tests.warehouse.rows import settlement

    stored.insert_new("settlements", [settlement(
        900_001, casino_id="gal-coruna", table_id="GAL-RF-01", game="french_roulette",
        ruleset_id="french_roulette.galicia", dealer_id="D-GAL-RF-01-01", win=Decimal("-3000.00"),
        gaming_day=date(2026, 11, 21), settled_at=START + timedelta(minutes=5))])
    day = figures_from_warehouse(stored, gaming_day=date(2026, 11, 21))
    assert day and {f.gaming_day for f in day} == {date(2026, 11, 21)}
    ctx = _ctx()
    ctx.start, ctx.end = START + timedelta(minutes=30), START + timedelta(hours=2)
    columns, rows = stored.query_columns(expand(PANELS["Tables: actual against theoretical win"].sql, ctx))
    got = {r[0]: dict(zip(columns, r)) for r in rows}
    assert sorted(got) == sorted(f.table_id for f in day)
    for f in day:
        t = got[f.table_id]
        assert (Decimal(str(t["drop_eur"])), Decimal(str(t["win_eur"])), Decimal(str(t["handle_eur"]))) == (
            f.drop, f.win, f.handle), f.table_id
    outside = sum(1 for f in day if f.outside_band)
    assert outside == 1
    assert stored.query(expand(PANELS["Tables outside the 95% band"].sql, ctx)) == [(outside,)]
    rule = alert_rule("pitwatch-hold-band")["data"][0]["model"]["rawSql"]
    assert stored.query(expand(rule, ctx)) == [(outside,)]
    (games_theo,) = stored.query(expand(
        "SELECT sum(theo_eur) FROM (" + PANELS["Win against theoretical win per gaming day"].sql + ")", ctx))
    assert Decimal(str(games_theo[0])).quantize(Decimal("0.01")) == sum(
        (f.theoretical_win for f in day), Decimal(0)).quantize(Decimal("0.01"))
    dealers = stored.query_columns(expand(PANELS["Dealers"].sql, ctx))
    assert sum(dict(zip(dealers[0], r))["bets"] for r in dealers[1]) == sum(f.bets for f in day)


def test_player_against_player_games_have_no_theoretical_win_on_the_dashboard(stored):
    """Poker, chemin de fer and bacará a dos paños are played between players (the house takes a
    rake, fee or cagnotte): no theoretical win, σ, deviation or band on the table, game and dealer
    rows (NULL), never outside the band, left out of the per-day band chart. A poker table with a
    rake of 12.50 and a (made-up) theoretical win of 5.00, variance 400.00, on 21 Nov 2026: its
    row has win 12.50 and NULL theoretical figures; the big number and the chart ignore it."""
    from datetime import date

    from tests.warehouse.rows import settlement

    stored.insert_new("settlements", [settlement(
        900_002, casino_id="and-marbella", table_id="AND-PK-08", game="poker", ruleset_id="poker.andalucia",
        dealer_id="D-PK-ONLY", handle=Decimal("250.00"), win=Decimal("12.50"), theoretical_win=Decimal("5.0000"),
        theoretical_variance=Decimal("400.0000"), gaming_day=date(2026, 11, 21), settled_at=START + timedelta(minutes=5))])
    ctx = _ctx()
    for title, key in (("Tables: actual against theoretical win", "AND-PK-08"), ("Games", "poker"),
                       ("Dealers", "D-PK-ONLY")):
        columns, rows = stored.query_columns(expand(PANELS[title].sql, ctx))
        (row,) = [dict(zip(columns, r)) for r in rows if r[0] == key]
        assert row["win_eur"] == 12.5, title
        assert [row[c] for c in ("theo_eur", "sd_eur", "win_minus_theo", "deviation_sd", "band_low", "band_high")] == [
            None] * 6, title
        assert row["outside_band"] == 0, title
    before = stored.query(expand(PANELS["Win against theoretical win per gaming day"].sql, ctx))
    stored.insert_new("settlements", [settlement(
        900_003, casino_id="and-marbella", table_id="AND-PK-08", game="poker", ruleset_id="poker.andalucia",
        win=Decimal("-90000.00"), theoretical_variance=Decimal("1.0000"), gaming_day=date(2026, 11, 21),
        settled_at=START + timedelta(minutes=6))])
    assert stored.query(expand(PANELS["Win against theoretical win per gaming day"].sql, ctx)) == before
    assert stored.query(expand(PANELS["Tables outside the 95% band"].sql, ctx)) == [(0,)]


def test_hold_without_a_drop_is_empty_as_in_figures_and_the_report(stored):
    """A table that took bets (a win of 50.00) but sold no chips has no hold % in `pitwatch figures`
    and the report (``None``, shown "—"): the dashboard's hold is NULL too, not 0 %."""
    from datetime import date

    from pitwatch.replay.figures import figures_from_warehouse

    from tests.warehouse.rows import settlement

    stored.insert_new("settlements", [settlement(
        900_004, casino_id="gal-coruna", table_id="GAL-RF-77", game="french_roulette",
        ruleset_id="french_roulette.galicia", win=Decimal("50.00"), gaming_day=date(2026, 11, 21),
        settled_at=START + timedelta(minutes=5))])
    (fig,) = figures_from_warehouse(stored, gaming_day=date(2026, 11, 21), table_id="GAL-RF-77")
    assert fig.hold_percent is None
    columns, rows = stored.query_columns(expand(PANELS["Tables: actual against theoretical win"].sql, _ctx()))
    (row,) = [dict(zip(columns, r)) for r in rows if r[0] == "GAL-RF-77"]
    assert (row["drop_eur"], row["win_eur"], row["hold_pct"]) == (0.0, 50.0, None)


@pytest.mark.parametrize(("win", "drop", "hold"), [
    ("1.00", "20000.00", None),  # 0.005 % -> 0.00 (half to even), not 0.01
    ("3.00", "20000.00", "0.02"),  # 0.015 % -> 0.02
    ("-1.00", "20000.00", None),  # -0.005 % -> -0.00
    ("-123.45", "1000.00", "-12.34"),  # -12.345 % -> -12.34
    ("50.00", "300.00", "16.67"),  # 16.666... %
])
def test_hold_is_rounded_as_figures_and_the_report_round_it(stored, win, drop, hold):
    """Hold % = win / drop to the hundredth, ties to even (Decimal's quantize, as
    :class:`~pitwatch.replay.figures.WinBand` rounds it for figures and the report); worked by hand
    in the parameters (None: 0.00)."""
    from datetime import date

    from tests.warehouse.rows import settlement

    day = date(2026, 11, 21)
    stored.insert_new("settlements", [settlement(
        900_005, casino_id="gal-coruna", table_id="GAL-RF-66", game="french_roulette",
        ruleset_id="french_roulette.galicia", win=Decimal(win), gaming_day=day, settled_at=START + timedelta(minutes=5))])
    stored.insert_new("movements", [{
        "movement_id": "M-hold", "casino_id": "gal-coruna", "table_id": "GAL-RF-66", "game": "french_roulette",
        "kind": "drop", "amount": Decimal(drop), "player_id": "P-9", "gaming_day": day,
        "occurred_at": START + timedelta(minutes=1)}])
    columns, rows = stored.query_columns(expand(PANELS["Tables: actual against theoretical win"].sql, _ctx()))
    (row,) = [dict(zip(columns, r)) for r in rows if r[0] == "GAL-RF-66"]
    assert Decimal(repr(row["hold_pct"])).quantize(Decimal("0.01")) == Decimal(hold or "0.00")
