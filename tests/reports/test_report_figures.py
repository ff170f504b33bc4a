"""The monthly report's figures beyond the hand-worked roulette month of test_monthly.py (chDB):
player-against-player games, days open across 06:00 Madrid, figures that foot to the cent, the
totals row and win / handle, the nil return, the limits in force and their breaches, and
``pitwatch figures`` on the player-against-player games.

The player-against-player tables are simulated (fault-free): a hold'em table of and-marbella
(Andalucía), a chemin de fer and a dos paños table of gal-coruna. The rake, cagnotte and session
fees the report must show are read here straight from the simulated event lines (the sum of the
``rake_taken`` and ``session_fee_taken`` amounts per table), not from pitwatch.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest
from pitwatch.cli import app
from pitwatch.lifecycle.store import record
from pitwatch.reports.monthly import build_monthly
from pitwatch.reports.render import render_html, write_report
from pitwatch.warehouse import open_warehouse
from typer.testing import CliRunner

from tests.fixtures.batches import store_rows, to_messages
from tests.reports.test_monthly import _act
from tests.test_accounting import _processed

D = Decimal
UTC = timezone.utc
PEER_NONE = ("theoretical_win", "sd", "deviation_sd", "band_low", "band_high")


def _peer_lines(hours: float = 1.0, start: datetime = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)) -> list[bytes]:
    from pitwatch.sim.base import default_floor, simulate

    specs = [s for s in default_floor(8, chemin_de_fer=1, dos_panos=1)
             if s.game in ("poker", "chemin_de_fer", "bacara_dos_panos")]
    events, labels = simulate(specs, hours, 3, fault_rates={}, start=start)
    lines = [json.dumps(e, separators=(",", ":")).encode() for e in events]
    assert labels == []
    return lines


def _store(url: str, lines: list[bytes]) -> None:
    from pitwatch.streams.processor import BatchProcessor

    store_rows(url, BatchProcessor({}.get).process(to_messages(lines, 3)).rows)


def _taken(lines: list[bytes]) -> dict[str, dict[str, Decimal]]:
    """table -> {"rake": sum of rake_taken, "fees": sum of session_fee_taken} from the raw lines."""
    out: dict[str, dict[str, Decimal]] = defaultdict(lambda: {"rake": D("0.00"), "fees": D("0.00")})
    for line in lines:
        ev = json.loads(line)
        if ev["type"] == "rake_taken":
            out[ev["table_id"]]["rake"] += D(ev["amount"])
        elif ev["type"] == "session_fee_taken":
            out[ev["table_id"]]["fees"] += D(ev["amount"])
    return out


@pytest.fixture(scope="module")
def peer_lines():
    return _peer_lines()


@pytest.fixture
def peer(chdb_url, peer_lines):
    _store(chdb_url, peer_lines)
    return chdb_url


def test_player_against_player_games_report_their_rake_and_cagnotte_not_an_invented_edge(peer, peer_lines):
    """Poker, chemin de fer and dos paños: no theoretical win, σ, deviation or band (the house plays
    no hand: 004 L82-L89); their commissions-and-cagnotte column is the rake / cagnotte the croupier
    put in the cagnotte, and the revenue check (win + fees - that) is 0.00 on a fault-free evening."""
    taken = _taken(peer_lines)
    assert set(taken) == {"AND-PK-08", "GAL-CF-09", "GAL-DP-10"} and all(v["rake"] > 0 for v in taken.values())
    with open_warehouse(peer) as wh:
        reports = [build_monthly(wh, c, "2026-11").data() for c in ("and-marbella", "gal-coruna")]
    lines = [t for d in reports for t in d["tables"]] + [g for d in reports for g in d["games"]]
    assert sorted(t["label"] for t in lines) == ["AND-PK-08", "GAL-CF-09", "GAL-DP-10", "bacara_dos_panos",
                                                "chemin_de_fer", "poker"]
    for t in lines:
        table = {"poker": "AND-PK-08", "chemin_de_fer": "GAL-CF-09", "bacara_dos_panos": "GAL-DP-10"}.get(
            t["label"], t["label"])
        assert t["peer"] is True
        assert {k: t[k] for k in PEER_NONE} == dict.fromkeys(PEER_NONE), t["label"]
        assert t["outside_band"] is False
        assert D(t["commission"]) == taken[table]["rake"] + taken[table]["fees"] and D(t["commission"]) > 0
        assert D(t["session_fees"]) == taken[table]["fees"]
        assert t["revenue_check"] == "0.00" and t["win"] == str(taken[table]["rake"])
    for d in reports:
        assert d["total"]["theoretical_win"] is None and d["total"]["peer"] is True
        assert all(p["theoretical_win"] is None for p in d["periods"])
        assert d["daily"] and all(r["theoretical_win"] is None for r in d["daily"])


def test_player_against_player_on_the_page(peer):
    """The page says what is shown instead of a theoretical win (es and en), with dashes in its cells."""
    with open_warehouse(peer) as wh:
        r = build_monthly(wh, "and-marbella", "2026-11")
    es, en = render_html(r, "es"), render_html(r, "en")
    assert "Póquer en círculo" in es and "<td>Andalucía</td>" in es and ">andalucia<" not in es
    assert "Juegos de círculo" in es and "Player-against-player" in en


def test_pitwatch_figures_on_player_against_player_tables(peer_lines, tmp_path):
    """``pitwatch figures`` (JSON) gives no theoretical win or variance for the peer games, and the
    rake / cagnotte and session fees of each table and gaming day; the text table shows dashes."""
    path = tmp_path / "peer.jsonl"
    path.write_bytes(b"\n".join(peer_lines) + b"\n")
    res = CliRunner().invoke(app, ["figures", str(path), "--format", "json"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in res.output.splitlines()]
    taken = _taken(peer_lines)
    assert sorted(r["table_id"] for r in rows) == ["AND-PK-08", "GAL-CF-09", "GAL-DP-10"]
    for r in rows:
        assert (r["theoretical_win"], r["theoretical_variance"], r["peer"]) == (None, None, True)
        assert D(r["rake"]) == taken[r["table_id"]]["rake"] and D(r["session_fees"]) == taken[r["table_id"]]["fees"]
    text = CliRunner().invoke(app, ["figures", str(path)], env={"COLUMNS": "250"})
    assert text.exit_code == 0 and "AND-PK-08" in text.output
    line = next(x for x in text.output.splitlines() if "AND-PK-08" in x)
    assert line.count("—") >= 3, line


def test_days_open_counts_every_gaming_day_a_table_played(chdb_url):
    """A hold'em table opened once at 04:30Z on 22 November (05:30 Madrid: gaming day 21) and
    playing two hours, to 07:30 Madrid (gaming day 22): open on 2 gaming days, not 1."""
    _store(chdb_url, [x for x in _peer_lines(2.0, datetime(2026, 11, 22, 4, 30, tzinfo=UTC))
                      if json.loads(x)["table_id"] == "AND-PK-08"])
    with open_warehouse(chdb_url) as wh:
        (t,) = build_monthly(wh, "and-marbella", "2026-11").tables
    assert (t.label, t.days_open) == ("AND-PK-08", 2)


@pytest.fixture
def roulette(chdb_url):
    store_rows(chdb_url, _processed().rows)
    return chdb_url


def _extra_settlements(wh, theos: list[str]) -> None:
    """One more settlement row (no handle, no win) on each of the new roulette tables RF-X1...,
    with the theoretical win ``theos[i]`` (4 places)."""
    base = wh.rows("settlements")[0]
    wh.insert_new("settlements", [
        dict(base, settlement_id=f"x-{i}", bet_id=f"B-x{i}", table_id=f"RF-X{i + 1}", handle=D("0.00"), win=D("0.00"),
             theoretical_win=D(theo), theoretical_variance=D("0.0000"))
        for i, theo in enumerate(theos)])


def test_figures_foot_to_the_cent_across_the_csv_files(roulette, tmp_path):
    """RF-ACC's theoretical win is 1.5032 (test_monthly.py); three more tables of 0.0040 each show
    0.00 apiece, and the month's exact sum 1.5032 + 3 x 0.0040 = 1.5152 rounds once to 1.52: the
    game line, the totals rows of tables.csv and games.csv and the month in periods.csv all say 1.52
    (rounding each table first would give 1.50 for the game)."""
    with open_warehouse(roulette) as wh:
        _extra_settlements(wh, ["0.0040", "0.0040", "0.0040"])
        r = build_monthly(wh, "gal-acc", "2026-11")
    write_report(r, tmp_path, ("csv",))

    def read(name: str) -> list[dict[str, str]]:
        with (tmp_path / f"gal-acc-2026-11-{name}.csv").open(newline="") as fh:
            return list(csv.DictReader(fh))

    tables, games, periods = read("tables"), read("games"), read("periods")
    assert [t["theoretical_win"] for t in tables] == ["1.50", "0.00", "0.00", "0.00", "1.52"]
    assert tables[-1]["table_id"] == "total" and games[-1]["game"] == "total"
    assert [g["theoretical_win"] for g in games] == ["1.52", "1.52"]
    assert periods[0]["period"] == "2026-11" and periods[0]["theoretical_win"] == "1.52"


def test_totals_row_and_win_per_handle(roulette, tmp_path):
    """The totals row of the hand-worked month (one table: the same figures) and win / handle =
    -270.00 / 100.00 = -270.00 %, beside hold -36.49 %, on the page and in the CSV."""
    with open_warehouse(roulette) as wh:
        r = build_monthly(wh, "gal-acc", "2026-11")
    d = r.data()
    total = d["total"]
    assert (total["label"], total["days_open"], total["bets"], total["drop"], total["win"], total["hold_percent"],
            total["win_per_handle"], total["theoretical_win"], total["sd"]) == (
        "total", 1, 6, "740.00", "-270.00", "-36.49", "-270.00", "1.50", "80.41")
    assert d["tables"][0]["win_per_handle"] == "-270.00" and d["periods"][0]["win_per_handle"] == "-270.00"
    es = render_html(r, "es")
    assert '<tr class="total' in es and "Resultado / apostado %" in es and "-270,00" in es


def test_a_month_without_activity_is_a_nil_return(roulette, tmp_path):
    """October 2026 at gal-acc: no figures, no events. The CLI writes a report that says so (a nil
    return), not an error; so it does for a casino the warehouse has never seen, with a warning."""
    for casino in ("gal-acc", "gal-nope"):
        out = tmp_path / casino
        res = CliRunner().invoke(app, ["report", "monthly", "--casino", casino, "--month", "2026-10",
                                       "--warehouse", roulette, "--out", str(out)])
        assert res.exit_code == 0, res.output
        page = (out / f"{casino}-2026-10.html").read_text()
        assert (out / f"{casino}-2026-10.pdf").read_bytes().startswith(b"%PDF")
        assert "Declaración negativa" in page and "sin actividad" in page
        with (out / f"{casino}-2026-10-summary.csv").open(newline="") as fh:
            summary = dict(csv.reader(fh))
        assert summary["nil_return"] == "True" and summary["event_count"] == "0"
        assert ("never seen" in res.output) == (casino == "gal-nope"), res.output
    with open_warehouse(roulette) as wh:
        assert build_monthly(wh, "gal-acc", "2026-11").data()["nil_return"] is False


def test_limits_in_force_and_their_breaches(roulette, tmp_path):
    """RF-ACC opens at 5.00-900.00 (22:00Z on the 24th); (inserted) its limits change to 10.00-500.00
    at 03:00Z on the 25th; session 2 opens at 04:50Z at 5.00-900.00 again: three lines. A stake below
    the minimum flagged at 02:00Z falls under the first limits, a stake of 600 over the maximum
    (100.00 over) at 03:30Z under the second."""
    with open_warehouse(roulette) as wh:
        opened = next(e for e in wh.rows("events_raw") if e["type"] == "table_opened")
        payload = json.loads(opened["payload"])
        changed = dict(payload, event_id="limits-1", type="limits_changed", occurred_at="2026-11-25T03:00:00.000Z",
                       min_bet="10.00", max_bet="500.00", seq=999)
        for k in ("ruleset_id", "jurisdiction", "float_amount", "options"):
            changed.pop(k, None)
        wh.insert_new("events_raw", [dict(opened, event_id="limits-1", type="limits_changed", seq=999,
                                          occurred_at=datetime(2026, 11, 25, 3, 0, tzinfo=UTC), occurred_ms=0,
                                          payload=json.dumps(changed))])
        (alert,) = wh.rows("alerts")
        wh.insert_new("alerts", [
            dict(alert, alert_id="a-below", kind="bet_below_minimum", severity="medium", amount=D("2.00"),
                 detected_at=datetime(2026, 11, 25, 2, 0, tzinfo=UTC), detected_ms=0),
            dict(alert, alert_id="a-above", kind="bet_above_maximum", severity="high", amount=D("100.00"),
                 detected_at=datetime(2026, 11, 25, 3, 30, tzinfo=UTC), detected_ms=0)])
        r = build_monthly(wh, "gal-acc", "2026-11")
    limits = r.data()["limits"]
    assert [(x["table_id"], x["min_bet"], x["max_bet"], x["in_force_from"], x["below_minimum"], x["above_maximum"],
             x["amount"]) for x in limits] == [
        ("RF-ACC", "5.00", "900.00", "2026-11-24T22:00:00.000Z", 1, 0, "2.00"),
        ("RF-ACC", "10.00", "500.00", "2026-11-25T03:00:00.000Z", 0, 1, "100.00"),
        ("RF-ACC", "5.00", "900.00", "2026-11-25T04:50:00.000Z", 0, 0, "0.00")]
    assert r.data()["tables"][0]["limit_breaches"] == 2
    write_report(r, tmp_path, ("csv", "html"))
    with (tmp_path / "gal-acc-2026-11-limits.csv").open(newline="") as fh:
        assert len(list(csv.DictReader(fh))) == 3
    page = (tmp_path / "gal-acc-2026-11.html").read_text()
    assert "Límites en vigor" in page and "10,00" in page and "Apuesta por encima del máximo" in page
    section = page.split('<section class="table-detail" id="detail-RF-ACC">', 1)[1].split("</section>", 1)[0]
    assert "Ruleta francesa" in section and section.count("<tr>") == 4  # the header and the three limits


def test_the_spanish_edition_translates_codes_and_formats_counts(roulette):
    """Game, kind, severity and state in Spanish; Galicia capitalised; counts with a dot."""
    from pitwatch.reports.render import count_format

    with open_warehouse(roulette) as wh:
        (alert,) = wh.rows("alerts")
        at = alert["detected_at"].replace(tzinfo=UTC)
        record(wh, _act(alert["alert_id"], 1, "close", at + timedelta(minutes=5), disposition="confirmed_violation",
                        reason="30.00 missing"))
        r = build_monthly(wh, "gal-acc", "2026-11")
    es = render_html(r, "es")
    for word in ("Ruleta francesa", "Descuadre del anticipo", "alta", "cerrada: infracción confirmada", "Galicia"):
        assert word in es, word
    for code in ("french_roulette</td>", "float_discrepancy", "closed: confirmed_violation", ">high<"):
        assert code not in es, code
    en = render_html(r, "en")
    assert "French roulette" in en and "Float discrepancy" in en
    es_n, en_n = count_format("es"), count_format("en")
    assert (es_n(1234), es_n(12345678), en_n(1234), es_n(7)) == ("1.234", "12.345.678", "1,234", "7")


def test_peer_figures_limits_and_days_on_both_warehouses(warehouse_url, peer_lines):
    """The SQL of the rake and fees (a regular expression over the stored JSON), the limits and the
    days open runs the same on ClickHouse 18.16 and chDB: the report's and ``figures_from_warehouse``'s
    rake equal the raw lines' sums, the hold'em table's limits are its opening's (2.00-1000.00)."""
    from pitwatch.replay.figures import figures_from_warehouse

    _store(warehouse_url, peer_lines)
    taken = _taken(peer_lines)
    with open_warehouse(warehouse_url) as wh:
        d = build_monthly(wh, "and-marbella", "2026-11").data()
        days = figures_from_warehouse(wh)
    ((table, line),) = [(t["label"], t) for t in d["tables"]]
    assert (table, line["days_open"], line["revenue_check"]) == ("AND-PK-08", 1, "0.00")
    assert D(line["commission"]) == taken[table]["rake"] + taken[table]["fees"]
    assert [(x["table_id"], x["min_bet"], x["max_bet"]) for x in d["limits"]] == [("AND-PK-08", "2.00", "1000.00")]
    assert {f.table_id: f.rake for f in days} == {t: v["rake"] for t, v in taken.items()}
