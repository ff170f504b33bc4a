"""Casino accounting: handle, win, drop, fills, credits, tips, hold and the float reconciliation,
per table, gaming day and hour, on an evening whose figures are worked out by hand below.

Law used for the payouts (Galicia, 000_e1555249d49967be.txt): a straight-up pays 35 to 1
(L133); a simple chance hit by a zero goes en prison and is released without winnings when
its chance wins next (L125-L127). The anticipo is the float each table receives (L175).

The evening at table RF-ACC (French roulette, Galicia), times UTC:

Session 1, 24 Nov 22:00-22:59 (23:00-23:59 Madrid: gaming day 2026-11-24, hour 22:00Z)
  anticipo 10 000.00; P-1 buys 500.00 of chips (drop);
  R1 ball 17: straight:17 10.00 wins 350 (360.00 returned), red 20.00 loses;
  tip 5.00; fill 2 000.00; credit 1 000.00;
  R2 ball 0: red 10.00 goes en prison (nothing changes hands);
  R3 ball 32 (red): the prisoner is released (10.00 back, no winnings), black 10.00 loses;
  P-1 cashes 100.00 of chips at the table.
  handle = 10 + 20 + 10 (the prisoner, once, when released) + 10 = 50.00
           (the en prison round adds nothing: today's view would say 60.00)
  win    = (10 - 360) + 20 + 0 + 0 + 10 = -320.00
  float  = 10 000 - 500 + 2 000 - 1 000 - 350 + 20 + 10 + 100 = 10 280.00 counted at the close
  count-based win = 10 280 - 10 000 - 2 000 + 1 000 + 500 - 100 = -320.00 = the bets' win
  -> no float alert.
Session 2, 25 Nov 04:50-04:59 (05:50 Madrid: still gaming day 2026-11-24, hour 04:00Z)
  anticipo 10 000.00; P-2 buys 200.00; R4 ball 2 (black): red 50.00 loses (win 50.00);
  closing count 9 820.00, 30.00 short of 10 000 - 200 + 50 = 9 850.00
  count-based win = 9 820 - 10 000 + 200 = 20.00; bets' win 50.00 -> float_discrepancy -30.00.
A buy-in at 05:00:00Z (06:00 Madrid) belongs to gaming day 2026-11-25.
Gaming day 2026-11-24: handle 100.00, win -270.00, drop 700.00, hold -270/700 = -38.57 %.
"""

from __future__ import annotations

import json
import uuid
from datetime import date, datetime, timezone
from decimal import Decimal
from fractions import Fraction as F

import pytest
from pitwatch.detectors.figures import gaming_day
from pitwatch.rules.accounting import bet_figures
from pitwatch.rules.base import BetCheck, ExpectedSettlement, RecordedSettlement
from pitwatch.rules.edges.common import quantize
from pitwatch.streams.processor import BatchProcessor
from pitwatch.warehouse import open_warehouse

from tests.fixtures.batches import store_rows, to_messages

D = Decimal
UTC = timezone.utc


class Evening:
    """Event lines of one table with consecutive seqs at explicit UTC times."""

    def __init__(self, table_id: str = "RF-ACC"):
        self.table_id, self.seq, self.lines = table_id, 0, []
        self.at = datetime(2026, 11, 24, 22, 0, tzinfo=UTC)

    def add(self, type: str, round_id: str | None = None, actor=("dealer", "D-1"), **payload) -> "Evening":
        self.seq += 1
        self.lines.append(json.dumps({
            "event_id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{self.table_id}/{self.seq}")),
            "casino_id": "gal-acc", "table_id": self.table_id, "game": "french_roulette", "seq": self.seq,
            "round_id": round_id, "occurred_at": self.at.isoformat().replace("+00:00", "Z"),
            "actor": {"role": actor[0], "id": actor[1]}, "type": type, **payload}).encode())
        self.at = self.at.replace(second=min(self.at.second + 1, 59))
        return self

    def open(self) -> "Evening":
        return (self.add("table_opened", actor=("pit_boss", "PB-1"), ruleset_id="french_roulette.galicia",
                         jurisdiction="galicia", min_bet="5.00", max_bet="900.00", float_amount="10000.00")
                .add("dealer_assigned", actor=("pit_boss", "PB-1"), dealer_id="D-1"))

    def spin(self, rid: str, direction: str, number: int, bets: list[tuple[str, str, str]],
             settled: list[tuple[str, str, str]]) -> "Evening":
        """A round: ``bets`` (bet id, spot, stake) by P-1, ``settled`` (bet id, outcome, returned)."""
        self.add("round_started", rid)
        for bid, spot, stake in bets:
            self.add("bet_placed", rid, ("player", "P-1"), bet_id=bid, player_id="P-1", spot=spot, stake=stake)
        self.add("bets_closed", rid).add("wheel_spun", rid, direction=direction).add("ball_landed", rid, number=number)
        for bid, outcome, returned in settled:
            self.add("settlement_recorded", rid, bet_id=bid, outcome=outcome, returned=returned)
        return self.add("round_ended", rid)


def the_evening() -> list[bytes]:
    ev = Evening().open()
    ev.add("chips_bought", actor=("player", "P-1"), player_id="P-1", amount="500.00")
    ev.spin("R1", "clockwise", 17, [("B1", "straight:17", "10.00"), ("B2", "red", "20.00")],
            [("B1", "win", "360.00"), ("B2", "lose", "0.00")])
    ev.add("tip_received", actor=("player", "P-1"), player_id="P-1", amount="5.00")
    ev.add("table_fill", actor=("pit_boss", "PB-1"), amount="2000.00", slip_id="F-1")
    ev.add("table_credit", actor=("pit_boss", "PB-1"), amount="1000.00", slip_id="C-1")
    ev.spin("R2", "counterclockwise", 0, [("B3", "red", "10.00")], [("B3", "en_prison", "0.00")])
    ev.spin("R3", "clockwise", 32, [("B4", "black", "10.00")], [("B3", "released", "10.00"), ("B4", "lose", "0.00")])
    ev.add("chips_cashed", actor=("player", "P-1"), player_id="P-1", amount="100.00")
    ev.add("table_closed", actor=("pit_boss", "PB-1"), closing_count="10280.00")
    ev.at = datetime(2026, 11, 25, 4, 50, tzinfo=UTC)
    ev.open().add("chips_bought", actor=("player", "P-2"), player_id="P-2", amount="200.00")
    ev.spin("R4", "clockwise", 2, [("B5", "red", "50.00")], [("B5", "lose", "0.00")])
    ev.add("table_closed", actor=("pit_boss", "PB-1"), closing_count="9820.00")
    ev.at = datetime(2026, 11, 25, 5, 0, tzinfo=UTC)
    ev.add("chips_bought", actor=("player", "P-3"), player_id="P-3", amount="40.00")
    return ev.lines


def _processed():
    return BatchProcessor({}.get).process(to_messages(the_evening(), 3))


def test_the_float_reconciles_in_session_1_and_is_30_short_in_session_2():
    """Count-based win = bets' win in session 1 (-320.00, no alert); session 2's closing count
    is 30.00 short: one high-severity float_discrepancy of -30.00 citing the anticipo (000 L175)."""
    res = _processed()
    alerts = res.rows["alerts"]
    assert [(a["kind"], a["severity"], a["amount"]) for a in alerts] == [("float_discrepancy", "high", D("-30.00"))]
    assert "000 L175" in alerts[0]["citation"] and "missing from" in alerts[0]["message"]
    assert res.rows["rejected"] == []


def test_each_settlement_row_carries_its_handle_win_and_theoretical_win_en_prison_counted_once():
    """Per bet, by hand: B1 handle 10 win -350; B2 20/+20; B3 imprisoned 0/0 then released
    10/0 (counted once, at its original stake); B4 10/+10; B5 50/+50.

    Theoretical win = handle x house edge, to 4 places. A straight-up paid 35:1 on 37
    pockets: 1 - 36/37 = 1/37, so 10.00 -> 0.2703. A simple chance under Galicia's default
    en prison (000 L125-L127; a prisoner hit by another zero keeps half): a euro held is
    worth c = 18/37 + (1/37)(c/2), c = 36/73; the bet returns 2 x 18/37 + c/37 = 72/73, edge
    1/73: 20.00 -> 0.2740, 10.00 -> 0.1370, 50.00 -> 0.6849."""
    rows = _processed().rows["settlements"]
    got = sorted((r["round_id"], r["bet_id"], r["handle"], r["win"], str(r["theoretical_win"]), r["gaming_day"])
                 for r in rows)
    day = date(2026, 11, 24)
    assert got == [
        ("R1", "B1", D("10.00"), D("-350.00"), "0.2703", day), ("R1", "B2", D("20.00"), D("20.00"), "0.2740", day),
        ("R2", "B3", D("0.00"), D("0.00"), "0.0000", day),
        ("R3", "B3", D("10.00"), D("0.00"), "0.1370", day), ("R3", "B4", D("10.00"), D("10.00"), "0.1370", day),
        ("R4", "B5", D("50.00"), D("50.00"), "0.6849", day)]


def test_each_settlement_row_carries_the_variance_of_its_bet():
    """Variance of the bet's result = handle² x variance per unit (euros², 4 places), by hand.
    Straight-up 35:1: X = 35 (1/37) or -1: 1261/37 - 1/37² = 46656/1369, so 10.00 -> 100 x that =
    3408.0351. A simple chance en prison (000 L125-L127, half kept at a further zero): +1 (18/37),
    -1 (18/37), and after a zero and k more zeros released (18/37, X = 2^-k - 1) or lost (18/37):
    the series summed here by hand to 80 terms, minus (1/73)²; 20.00 -> 394.5573, 10.00 ->
    98.6393, 50.00 -> 2465.9832. The imprisonment row has no handle, so no variance. The gaming
    day's σ = √(3408.0351 + 394.5573 + 2 x 98.6393 + 2465.9832) = √6465.8542 = 80.41 EUR."""
    at_zero = sum((F(1, 37 ** k) * (F(18, 37) * (F(1, 2 ** k) - 1) ** 2 + F(18, 37)) for k in range(80)), F(0))
    unit = F(36, 37) + F(1, 37) * at_zero - F(1, 73) ** 2
    assert str(quantize(400 * unit, 4)) == "394.5573" and str(quantize(2500 * unit, 4)) == "2465.9832"
    rows = _processed().rows["settlements"]
    got = sorted((r["round_id"], r["bet_id"], str(r["theoretical_variance"])) for r in rows)
    assert got == [("R1", "B1", "3408.0351"), ("R1", "B2", "394.5573"), ("R2", "B3", "0.0000"),
                   ("R3", "B3", "98.6393"), ("R3", "B4", "98.6393"), ("R4", "B5", "2465.9832")]
    total = sum((r["theoretical_variance"] for r in rows), D(0))
    assert total == D("6465.8542") and total.sqrt().quantize(D("0.01")) == D("80.41")


@pytest.mark.parametrize("by_hour", [True, False], ids=["per-hour", "per-gaming-day"])
def test_table_hourly_gives_the_hand_worked_figures(warehouse_url, by_hour):
    """The warehouse sums the rows into the hand-worked figures, per hour and per gaming day
    (the 05:00Z buy-in opens gaming day 2026-11-25)."""
    store_rows(warehouse_url, _processed().rows)
    key = "gaming_day, hour" if by_hour else "gaming_day"
    cols = "bets, handle, win, drop, cashed, fills, credits, tips, theoretical_win"
    with open_warehouse(warehouse_url) as wh:
        got = wh.query(
            f"SELECT {key}, toUInt64(sum(bets)), " + ", ".join(f"sum({c})" for c in cols.split(", ")[1:])
            + f" FROM pitwatch.table_hourly WHERE table_id = 'RF-ACC' GROUP BY {key} ORDER BY {key}")
    got = [(*r[:-8], *(D(str(x)).quantize(D("0.01")) for x in r[-8:-1]), D(str(r[-1])).quantize(D("0.0001")))
           for r in got]
    d24, d25 = date(2026, 11, 24), date(2026, 11, 25)
    if by_hour:
        assert [tuple(map(str, r[2:])) for r in got] == [
            ("5", "50.00", "-320.00", "500.00", "100.00", "2000.00", "1000.00", "5.00", "0.8183"),
            ("1", "50.00", "50.00", "200.00", "0.00", "0.00", "0.00", "0.00", "0.6849"),
            ("0", "0.00", "0.00", "40.00", "0.00", "0.00", "0.00", "0.00", "0.0000")]
        assert [(r[0], r[1].hour) for r in got] == [(d24, 22), (d24, 4), (d25, 5)]
    else:
        assert [(r[0], *map(str, r[1:])) for r in got] == [
            (d24, "6", "100.00", "-270.00", "700.00", "100.00", "2000.00", "1000.00", "5.00", "1.5032"),
            (d25, "0", "0.00", "0.00", "40.00", "0.00", "0.00", "0.00", "0.00", "0.0000")]


def test_movements_are_stored_once_per_event(chdb_url):
    """Every chip and cash event is one ``movements`` row (anticipo x2, drop x3, cashed, fill,
    credit, tip, closing count x2), stored once however often the batch is replayed."""
    rows = _processed().rows
    store_rows(chdb_url, rows)
    store_rows(chdb_url, rows)
    with open_warehouse(chdb_url) as wh:
        got = wh.query("SELECT kind, sum(amount), count() FROM pitwatch.movements GROUP BY kind ORDER BY kind")
    assert [(k, str(D(str(a)).quantize(D("0.01"))), n) for k, a, n in got] == [
        ("anticipo", "20000.00", 2), ("cashed", "100.00", 1), ("closing_count", "20100.00", 2),
        ("credit", "1000.00", 1), ("drop", "740.00", 3), ("fill", "2000.00", 1), ("tip", "5.00", 1)]


# ----------------------------------------------------------------------------- per bet


def _check(stake: str, outcome: str, returned: str, recorded: str | None, commission: str = "0.00", **kw) -> BetCheck:
    e = ExpectedSettlement("B", "P", "spot", D(stake), outcome, D(returned), D(commission), **kw)
    r = None if recorded is None else RecordedSettlement("B", outcome, D(recorded), D(commission), "e")
    return BetCheck(e, r, D("0.00"))


@pytest.mark.parametrize("check, handle, win", [
    # punto y banca: banca 100.00 wins even money less a 5 % commission (5.00): the player nets
    # 195.00, the house loses 95.00
    (_check("100.00", "win", "200.00", "200.00", "5.00"), "100.00", "-95.00"),
    # blackjack: 10.00 doubled to 20.00 at risk, the hand wins: 40.00 back; handle is the
    # original 10.00 (the double is a decision on the same wager), win -20.00
    (_check("20.00", "win", "40.00", "40.00", initial=D("10.00")), "10.00", "-20.00"),
    # a bet refused after «No va más»: no wager, the chips handed back (or nothing recorded)
    (_check("25.00", "refused", "25.00", None), "0.00", "0.00"),
    # ... but winnings paid on it leave the table: win -25.00, still no handle
    (_check("25.00", "refused", "25.00", "50.00"), "0.00", "-25.00"),
    # a round voided: stakes back, no handle
    (_check("30.00", "void", "30.00", "30.00"), "0.00", "0.00"),
    # a roulette prisoner at its second zero: 10.00 held becomes 5.00 held, the house took 5.00
    (_check("10.00", "en_prison", "0.00", "0.00", carried=D("5.00"), initial=D("10.00")), "0.00", "5.00"),
    # nothing recorded for a lost bet: the expected return (0.00) counts; the missing record is flagged elsewhere
    (_check("15.00", "lose", "0.00", None), "15.00", "15.00"),
])
def test_bet_figures(check, handle, win):
    fig = bet_figures(check)
    assert (str(fig.handle), str(fig.win)) == (handle, win)


@pytest.mark.parametrize("utc, day", [
    ("2026-11-25T04:59:59Z", "2026-11-24"),  # 05:59:59 CET: still the evening of the 24th
    ("2026-11-25T05:00:00Z", "2026-11-25"),  # 06:00 CET: a new gaming day
    ("2026-07-01T03:59:59Z", "2026-06-30"),  # 05:59:59 CEST (UTC+2)
    ("2026-07-01T04:00:00Z", "2026-07-01"),  # 06:00 CEST
    ("2026-03-29T03:59:59Z", "2026-03-28"),  # the night clocks go forward: 05:59:59 CEST
    ("2026-10-25T04:59:59Z", "2026-10-24"),  # the night clocks go back: 05:59:59 CET
])
def test_gaming_day_starts_at_six_madrid_time(utc, day):
    assert gaming_day(datetime.fromisoformat(utc)).isoformat() == day


# ----------------------------------------------------------------------------- the ledger in the table state

STATE = __import__("pathlib").Path(__file__).parent / "data" / "state"


def _rest_of_session_1(closing_count: str):
    """The events of session 1 after R3's ball landed (seq 28 on), with ``closing_count``."""
    from pitwatch.schemas.events import parse_event
    events = [parse_event(ln) for ln in the_evening()]
    rest = [e for e in events if 28 <= e.seq and (e.type != "table_opened" or e.seq < 28)]
    end = next(i for i, e in enumerate(rest) if e.type == "table_closed")
    closing = rest[end].model_copy(update={"closing_count": D(closing_count)})
    return rest[:end] + [closing]


@pytest.mark.parametrize("closing_count, alerts", [("10280.00", []), ("10270.00", [("float_discrepancy", D("-10.00"))])])
def test_a_release_0_3_state_keeps_the_float_ledger(closing_count, alerts):
    """A table state written by this release (state_version 3) mid-round R3 holds the session's
    ledger (anticipo 10 000, fills 2 000, credits 1 000, drop 500, tips 5, bets' win -330 so
    far); the rest of session 1 reconciles against it exactly as a run without the restart."""
    from pitwatch.detectors.snapshot import load_state
    aud = load_state((STATE / "v3-roulette-float-ledger-mid-round.json").read_bytes())
    got = [(a.kind, a.amount) for e in _rest_of_session_1(closing_count) for a in aud.feed(e).alerts]
    assert got == alerts


def test_a_session_open_across_the_upgrade_is_not_reconciled():
    """A state_version 2 table state has no ledger: its open session's earlier chips and cash
    are unknown, so its close raises no float alert whatever the count."""
    from pitwatch.detectors.snapshot import load_state

    from tests.test_state import FIXTURE_V2, Events
    aud = load_state(FIXTURE_V2.read_bytes())
    assert aud.engine.ctx is not None and aud.engine.ctx.ledger.complete is False
    ev = Events(seq=16)
    out = [aud.feed(e) for e in (ev("round_ended", "R2"), ev("table_closed", actor=("pit_boss", "PB-1"),
                                                              closing_count="1.00"))]
    assert [a.kind for o in out for a in o.alerts if a.kind == "float_discrepancy"] == []


# ----------------------------------------------------------------------------- pitwatch figures


def test_figures_from_a_file_equal_the_warehouse_figures(warehouse_url, tmp_path):
    """`pitwatch figures FILE` and `pitwatch figures --warehouse` give the same figures for the
    same events: gaming day 2026-11-24 at RF-ACC has drop 700.00, handle 100.00, win -270.00,
    hold -270/700 = -38.57 %, win/handle -270.00 %, theoretical win 1.5032, fills 2000.00,
    credits 1000.00, tips 5.00 (worked out in the module docstring)."""
    from pitwatch.cli import app
    from typer.testing import CliRunner
    store_rows(warehouse_url, _processed().rows)
    path = tmp_path / "evening.jsonl"
    path.write_bytes(b"\n".join(the_evening()) + b"\n")
    runner = CliRunner()
    from_file = runner.invoke(app, ["figures", str(path), "--format", "json"])
    from_wh = runner.invoke(app, ["figures", "--warehouse", warehouse_url, "--format", "json"])
    assert from_file.exit_code == 0 and from_wh.exit_code == 0, (from_file.output, from_wh.output)
    assert from_file.output == from_wh.output
    day = json.loads(from_file.output.splitlines()[0])
    assert {k: day[k] for k in ("gaming_day", "bets", "drop", "handle", "win", "hold_percent",
                                "win_percent_of_handle", "theoretical_win", "fills", "credits", "tips")} == {
        "gaming_day": "2026-11-24", "bets": 6, "drop": "700.00", "handle": "100.00", "win": "-270.00",
        "hold_percent": "-38.57", "win_percent_of_handle": "-270.00", "theoretical_win": "1.5032",
        "fills": "2000.00", "credits": "1000.00", "tips": "5.00"}
    assert day["theoretical_variance"] == "6465.8542"  # test_each_settlement_row_carries_the_variance_of_its_bet
    hourly = runner.invoke(app, ["figures", str(path), "--by", "hour", "--format", "json"])
    assert [json.loads(x)["hour"] for x in hourly.output.splitlines()] == [
        "2026-11-24T22:00:00Z", "2026-11-25T04:00:00Z", "2026-11-25T05:00:00Z"]
    text = runner.invoke(app, ["figures", str(path), "--gaming-day", "2026-11-24"], env={"COLUMNS": "200"})
    assert text.exit_code == 0 and "-38.57" in text.output and "2026-11-25" not in text.output
    # σ = √6465.8542 = 80.41; (win - theo) / σ = (-270.00 - 1.5032) / 80.411... = -3.38
    assert "80.41" in text.output and "-3.38" in text.output
