"""The independent monthly fold (tests/reports/independent_fold.py) against pitwatch's own
figures on fault-free simulated evenings, and against figures worked out by hand."""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

import pytest

from tests.reports.independent_fold import fold_month, gaming_day, month_of

FIGURES = ("bets", "handle", "win", "drop", "cashed", "fills", "credits", "tips")
D = Decimal


# --------------------------------------------------------------------------- (a) against pitwatch


def _simulated(tables: int, hours: float, seed: int, start: datetime) -> list[str]:
    from pitwatch.sim.base import simulate

    events, labels = simulate(tables, hours, seed, fault_rates={}, start=start)
    lines = [json.dumps(ev, separators=(",", ":")) for ev in events]  # as pitwatch.sim writes JSONL
    assert labels == []  # fault-free
    return lines


def _pitwatch_monthly(lines: list[str]) -> dict[tuple[str, str], dict[str, dict[str, Any]]]:
    """pitwatch's per-table per-gaming-day figures summed per (casino, month) and table."""
    from pitwatch.replay.figures import figures_from_lines

    out: dict[tuple[str, str], dict[str, dict[str, Any]]] = defaultdict(dict)
    for f in figures_from_lines(lines):
        row = out[(f.casino_id, month_of(f.gaming_day))].setdefault(
            f.table_id, {"game": f.game, "bets": 0, **{k: D("0.00") for k in FIGURES[1:]}})
        for k in FIGURES:
            row[k] += getattr(f, k)
    return out


SCENARIOS = {
    # every game of the default floor (3 casinos), two zeros with en prison on the roulette tables
    "evening": (7, 2, 2, datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)),
    # a night across 06:00 Madrid on 1 December: gaming days 2026-11-30 and 2026-12-01
    "month_boundary": (7, 6, 11, datetime(2026, 12, 1, 0, 0, tzinfo=timezone.utc)),
}


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_fold_equals_pitwatch_on_fault_free_simulation(scenario: str) -> None:
    tables, hours, seed, start = SCENARIOS[scenario]
    lines = _simulated(tables, hours, seed, start)
    expected = _pitwatch_monthly(lines)
    raw = [json.loads(line) for line in lines]
    assert {ev["game"] for ev in raw} == {"french_roulette", "blackjack", "punto_banca"}
    assert any(ev["type"] == "settlement_recorded" and ev["outcome"] == "en_prison" for ev in raw)
    if scenario == "month_boundary":
        assert {month for _, month in expected} == {"2026-11", "2026-12"}

    commission: dict[tuple[str, str], Decimal] = defaultdict(lambda: D("0.00"))
    for ev in raw:
        if ev["type"] == "settlement_recorded":
            commission[(ev["casino_id"], ev["table_id"])] += D(ev["commission"])
    # days open: the gaming days of each table's openings and ended rounds (a night across 06:00
    # Madrid on 1 December is open on 30 November and on 1 December)
    open_days: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for ev in raw:
        if ev["type"] in ("table_opened", "round_ended"):
            day = gaming_day(ev["occurred_at"])
            open_days[(ev["casino_id"], ev["table_id"], month_of(day))].add(day.isoformat())
    if scenario == "month_boundary":
        assert any(len(open_days[(c, t, "2026-12")]) == 1 and open_days[(c, t, "2026-11")] for c, t, _ in open_days)
    folded_commission: dict[tuple[str, str], Decimal] = defaultdict(lambda: D("0.00"))
    for (casino, month), tables_ in sorted(expected.items()):
        got = fold_month(lines, casino, month)
        assert sorted(got) == sorted(tables_), (casino, month)
        for table, want in tables_.items():
            assert {k: got[table][k] for k in ("game", *FIGURES)} == want, (casino, month, table)
            assert got[table]["days_open"] == len(open_days[(casino, table, month)]), (casino, month, table)
            folded_commission[(casino, table)] += got[table]["commission"]
    assert folded_commission == commission
    assert any(v > 0 for v in commission.values())  # punto y banca deductions


# --------------------------------------------------------------------------- (b) by hand


def test_gaming_day_and_month() -> None:
    # winter (UTC+1): 06:00 Madrid is 05:00 UTC
    assert gaming_day("2026-12-01T04:59:59.999Z") == date(2026, 11, 30)
    assert gaming_day("2026-12-01T05:00:00.000Z") == date(2026, 12, 1)
    # summer (UTC+2): 06:00 Madrid is 04:00 UTC
    assert gaming_day("2026-07-01T03:59:59.999Z") == date(2026, 6, 30)
    assert gaming_day("2026-07-01T04:00:00.000Z") == date(2026, 7, 1)
    # 00:30 on 1 July in Madrid (a UTC date of 30 June) is still the gaming day of 30 June
    assert gaming_day("2026-06-30T22:30:00.000Z") == date(2026, 6, 30)
    assert gaming_day("2026-06-30T21:59:59.000Z") == date(2026, 6, 30)
    assert month_of(date(2026, 11, 30)) == "2026-11"
    assert month_of("2026-12-01") == "2026-12"


class _Evening:
    """Writes schema-valid event lines (UUID ids, per-table seq) for the hand-written evening."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.seq: dict[str, int] = defaultdict(int)
        self.n = 0

    def __call__(self, table: str, game: str, at: str, type_: str, round_id: str | None = None,
                 casino: str = "hand-c", **payload: Any) -> str:
        self.n += 1
        self.seq[(casino, table)] += 1
        ev = {"event_id": str(uuid.UUID(int=self.n, version=4)), "schema_version": 1, "casino_id": casino,
              "table_id": table, "game": game, "seq": self.seq[(casino, table)], "round_id": round_id,
              "occurred_at": at, "actor": {"role": "dealer", "id": "D-1"}, "type": type_, **payload}
        line = json.dumps(ev)
        self.lines.append(line)
        return line


def _clock(start: str):
    t = [datetime.fromisoformat(start.replace("Z", "+00:00"))]

    def tick(seconds: float = 2) -> str:
        t[0] += timedelta(seconds=seconds)
        return t[0].strftime("%Y-%m-%dT%H:%M:%S.000Z")
    return tick


def hand_evening() -> list[str]:
    """A tiny evening of casino ``hand-c``, and the figures worked out by hand.

    RF-1, French roulette (Galicia, min 5), gaming day 2026-11-30 (21:00 UTC on), opened once.
    Drop 200 (its ``chips_bought`` is delivered twice: counted once; an invalid JSON line
    follows), cashed 50, fill 500, credit 100, tip 2.50.

    ===== ============================================== ==== ====== ===================
    round what happens                                    bets handle win
    ===== ============================================== ==== ====== ===================
    R1    B1 straight:17 10, B2 red 20, B3 black 10, B4   3    20     B1 +10, B2 20-0-20=0,
          straight:5 5 withdrawn. Ball 0. B1 lost                     B3 10-5=+5 -> +15
          (recorded), B2 nothing recorded -> en prison
          (holds 20), B3 half back 5.
    R2    B5 straight:0 5. Ball 0 again: B5 paid 180;     2    5      B5 5-180=-175,
          B2 (prisoner, 2nd zero) recorded en_prison:                 B2 20-0-10=+10
          now holds 10.                                               -> -165
    R3    voided: B6 red 10, nothing recorded (taken as   1    0      0
          returned). B2 untouched.
    R4    B7 dozen:1 10. Ball 14 (red, 2nd dozen): B7     2    30     B7 +10, B2 10-10=0
          lost (unrecorded); B2 released, 10 returned;                -> +10
          handle of B2 = its original 20.
    ===== ============================================== ==== ====== ===================

    RF-1 total: bets 8, handle 55, win -140 = stakes 65 (10+20+10+5+10+10) - returned 205
    (5+180+10+10), commission 0.

    PB-1, punto y banca (Galicia, min 20), gaming day 2026-11-30, opened once; drop 1000,
    fill 2000, tip 5.

    == ============================================================= ==== ====== ==== =========
    R  what happens                                                  bets handle comm win
    == ============================================================= ==== ====== ==== =========
    R1 B1 banca 100, B2 punto 40, B3 tie 20; punto 9 banca 7: B1     3    160    0    100-40+20
       lost (recorded 0), B2 paid 80, B3 lost (unrecorded)                            = +80
    R2 B4 banca 200, B5 punto 20; banca 9 punto 7: B4 returned 400,  2    220    10   200-390
       commission 10; B5 lost (recorded)                                              +20 = -170
    R3 B6 banca 40, B7 tie 20; tie 8-8: B6 push 40, B7 paid 180      2    60     0    0-160
                                                                                      = -160
    == ============================================================= ==== ====== ==== =========

    PB-1 total: bets 7, handle 440, win -250, commission 10.

    BJ-1, blackjack (Galicia, min 10), opened for gaming day 2026-11-30 (20:00 UTC), drop 300.

    * R1 (ends 04:41 UTC on 1 Dec = 05:41 Madrid: gaming day 2026-11-30). Box 1: B1 20 and a
      back bet B2 10, cards 5-6; box 2: B3 10, cards 8-8; dealer ace. B3 insured for 5. Box 1
      doubles (+20 for B1, +10 for B2) and draws 9 (20); box 2 splits (+10 for B3), hands
      8-K and 8-Q (18, 18); dealer A-7 = 18. B1 returned 80, B2 40, B3 push 20, insurance
      lost (unrecorded). Bets 4 (B1, B2, B3, B3/insurance), handle 20+10+10+5 = 45, win
      (40-80) + (20-40) + (20-20) + 5 = -55.
    * R2 starts 04:59:50 UTC and ends after 05:00 UTC on 1 Dec = 06:00 Madrid: gaming day
      2026-12-01. Box 1: B4 20, T-6, surrenders (10 back); box 2: B5 10, blackjack A-K (25
      back); dealer 6-T-5. Bets 2, handle 30, win 10 - 15 = -5.
    * Closed, reopened at 05:30 UTC (gaming day 2026-12-01), 100 cashed, closed.

    So BJ-1 is in November with days_open 1, bets 4, handle 45, win -55, drop 300; and in
    December with days_open 1, bets 2, handle 30, win -5, cashed 100.

    A ``chips_bought`` of 999 at table RF-1 of another casino must not count.
    """
    e = _Evening()
    rf, pb, bj = "RF-1", "PB-1", "BJ-1"
    tick = _clock("2026-11-30T21:00:00.000Z")

    def r(table: str, game: str, rid: str | None, type_: str, **kw: Any) -> str:
        return e(table, game, tick(), type_, rid, **kw)

    # ---- RF-1
    g = "french_roulette"
    r(rf, g, None, "table_opened", ruleset_id="french_roulette.galicia", jurisdiction="galicia",
      min_bet="5.00", max_bet="900.00", float_amount="5000.00")
    r(rf, g, None, "dealer_assigned", dealer_id="D-1")
    r(rf, g, None, "player_seated", player_id="P1", seat=1)
    e.lines.append(r(rf, g, None, "chips_bought", player_id="P1", amount="200.00"))  # delivered twice
    e.lines.append('{"event_id": "not json')
    e("RF-1", g, tick(), "chips_bought", casino="other-c", player_id="P9", amount="999.00")

    def spin(rid: str, bets: list[tuple[str, str, str]], number: int | None, direction: str,
             settle: list[tuple[str, str, str]], withdraw: tuple[str, ...] = (), decisions: tuple = (),
             void: bool = False) -> None:
        r(rf, g, rid, "round_started")
        for bid, spot, stake in bets:
            r(rf, g, rid, "bet_placed", bet_id=bid, player_id="P1", spot=spot, stake=stake)
        for bid in withdraw:
            r(rf, g, rid, "bet_withdrawn", bet_id=bid)
        r(rf, g, rid, "wheel_spun", direction=direction)
        r(rf, g, rid, "bets_closed")
        if void:
            r(rf, g, rid, "round_voided", reason="ball left the wheel")
        else:
            r(rf, g, rid, "ball_landed", number=number)
        for bid, decision in decisions:
            r(rf, g, rid, "player_decision", actor={"role": "player", "id": "P1"}, decision=decision, bet_id=bid)
        for bid, outcome, returned in settle:
            r(rf, g, rid, "settlement_recorded", bet_id=bid, outcome=outcome, returned=returned)
        r(rf, g, rid, "round_ended")

    spin("RF-1-R1", [("B1", "straight:17", "10.00"), ("B2", "red", "20.00"), ("B3", "black", "10.00"),
                     ("B4", "straight:5", "5.00")], 0, "clockwise",
         [("B1", "lose", "0.00"), ("B3", "half_back", "5.00")], withdraw=("B4",), decisions=(("B3", "half_back"),))
    spin("RF-1-R2", [("B5", "straight:0", "5.00")], 0, "counterclockwise",
         [("B5", "win", "180.00"), ("B2", "en_prison", "0.00")])
    spin("RF-1-R3", [("B6", "red", "10.00")], None, "clockwise", [], void=True)
    spin("RF-1-R4", [("B7", "dozen:1", "10.00")], 14, "counterclockwise", [("B2", "released", "10.00")])
    r(rf, g, None, "tip_received", player_id="P1", amount="2.50")
    r(rf, g, None, "table_fill", amount="500.00", slip_id="F-1")
    r(rf, g, None, "table_credit", amount="100.00", slip_id="C-1")
    r(rf, g, None, "chips_cashed", player_id="P1", amount="50.00")
    r(rf, g, None, "table_closed")

    # ---- PB-1
    g = "punto_banca"
    r(pb, g, None, "table_opened", ruleset_id="punto_banca.galicia", jurisdiction="galicia",
      min_bet="20.00", max_bet="2000.00", float_amount="50000.00")
    r(pb, g, None, "chips_bought", player_id="P2", amount="1000.00")
    r(pb, g, None, "table_fill", amount="2000.00")

    def coup(rid: str, bets: list[tuple[str, str, str]], cards: list[tuple[str, str]],
             settle: list[tuple[str, str, str, str]]) -> None:
        r(pb, g, rid, "round_started")
        for bid, spot, stake in bets:
            r(pb, g, rid, "bet_placed", bet_id=bid, player_id="P2", spot=spot, stake=stake)
        r(pb, g, rid, "bets_closed")
        for hand, card in cards:
            r(pb, g, rid, "card_dealt", hand=hand, card=card)
        for bid, outcome, returned, commission in settle:
            r(pb, g, rid, "settlement_recorded", bet_id=bid, outcome=outcome, returned=returned, commission=commission)
        r(pb, g, rid, "round_ended")

    coup("PB-1-R1", [("B1", "banca", "100.00"), ("B2", "punto", "40.00"), ("B3", "tie", "20.00")],
         [("punto", "9H"), ("banca", "2D"), ("punto", "TC"), ("banca", "5S")],
         [("B1", "lose", "0.00", "0.00"), ("B2", "win", "80.00", "0.00")])
    coup("PB-1-R2", [("B4", "banca", "200.00"), ("B5", "punto", "20.00")],
         [("punto", "KH"), ("banca", "4C"), ("punto", "7D"), ("banca", "5S")],
         [("B4", "win", "400.00", "10.00"), ("B5", "lose", "0.00", "0.00")])
    coup("PB-1-R3", [("B6", "banca", "40.00"), ("B7", "tie", "20.00")],
         [("punto", "8C"), ("banca", "3H"), ("punto", "QS"), ("banca", "5D")],
         [("B6", "push", "40.00", "0.00"), ("B7", "win", "180.00", "0.00")])
    r(pb, g, None, "tip_received", amount="5.00")
    r(pb, g, None, "table_closed")

    # ---- BJ-1
    g = "blackjack"
    e(bj, g, "2026-11-30T20:00:00.000Z", "table_opened", ruleset_id="blackjack.galicia", jurisdiction="galicia",
      min_bet="10.00", max_bet="200.00", float_amount="20000.00")
    tick = _clock("2026-12-01T04:30:00.000Z")
    r(bj, g, None, "chips_bought", player_id="P1", amount="300.00")
    r(bj, g, None, "shoe_loaded", shoe_id="S1", decks=6)

    def bet(rid: str, bid: str, box: int, stake: str) -> None:
        r(bj, g, rid, "bet_placed", bet_id=bid, player_id=f"P{box}", spot="main", stake=stake, box=box)

    def card(rid: str, hand: str, c: str) -> None:
        r(bj, g, rid, "card_dealt", hand=hand, card=c)

    def decide(rid: str, decision: str, **kw: Any) -> None:
        r(bj, g, rid, "player_decision", decision=decision, **kw)

    def settle(rid: str, bid: str, outcome: str, returned: str) -> None:
        r(bj, g, rid, "settlement_recorded", bet_id=bid, outcome=outcome, returned=returned)

    rid = "BJ-1-R1"
    r(bj, g, rid, "round_started")
    bet(rid, "B1", 1, "20.00")
    bet(rid, "B2", 1, "10.00")
    bet(rid, "B3", 2, "10.00")
    r(bj, g, rid, "bets_closed")
    for hand, c in (("1", "5H"), ("dealer", "AS"), ("2", "8D"), ("1", "6C"), ("2", "8S")):
        card(rid, hand, c)
    decide(rid, "insurance", bet_id="B3", amount="5.00")
    decide(rid, "double", hand="1")
    card(rid, "1", "9D")
    decide(rid, "split", hand="2")
    card(rid, "2", "KD")
    decide(rid, "stand", hand="2")
    card(rid, "2-2", "QH")
    decide(rid, "stand", hand="2-2")
    card(rid, "dealer", "7C")
    settle(rid, "B1", "win", "80.00")
    settle(rid, "B2", "win", "40.00")
    settle(rid, "B3", "push", "20.00")
    r(bj, g, rid, "round_ended")

    tick = _clock("2026-12-01T04:59:48.000Z")
    rid = "BJ-1-R2"
    r(bj, g, rid, "round_started")
    bet(rid, "B4", 1, "20.00")
    bet(rid, "B5", 2, "10.00")
    r(bj, g, rid, "bets_closed")
    for hand, c in (("1", "TH"), ("dealer", "6D"), ("2", "AH"), ("1", "6S"), ("2", "KC")):
        card(rid, hand, c)
    decide(rid, "surrender", hand="1")
    card(rid, "dealer", "TC")
    card(rid, "dealer", "5S")
    settle(rid, "B4", "surrender", "10.00")
    settle(rid, "B5", "blackjack", "25.00")
    r(bj, g, rid, "round_ended")
    r(bj, g, None, "table_closed")
    tick = _clock("2026-12-01T05:30:00.000Z")
    r(bj, g, None, "table_opened", ruleset_id="blackjack.galicia", jurisdiction="galicia",
      min_bet="10.00", max_bet="200.00", float_amount="20000.00")
    r(bj, g, None, "chips_cashed", player_id="P1", amount="100.00")
    r(bj, g, None, "table_closed")
    return e.lines


def _fig(game: str, days_open: int, bets: int, **money: str) -> dict[str, Any]:
    out: dict[str, Any] = {"game": game, "days_open": days_open, "bets": bets}
    for k in ("drop", "cashed", "fills", "credits", "tips", "handle", "win", "commission"):
        out[k] = D(money.get(k, "0.00"))
    return out


HAND_NOVEMBER = {
    "RF-1": _fig("french_roulette", 1, 8, drop="200.00", cashed="50.00", fills="500.00", credits="100.00",
                 tips="2.50", handle="55.00", win="-140.00"),
    "PB-1": _fig("punto_banca", 1, 7, drop="1000.00", fills="2000.00", tips="5.00", handle="440.00",
                 win="-250.00", commission="10.00"),
    "BJ-1": _fig("blackjack", 1, 4, drop="300.00", handle="45.00", win="-55.00"),
}
HAND_DECEMBER = {"BJ-1": _fig("blackjack", 1, 2, cashed="100.00", handle="30.00", win="-5.00")}


def test_hand_written_evening() -> None:
    lines = hand_evening()
    assert fold_month(lines, "hand-c", "2026-11") == HAND_NOVEMBER
    assert fold_month(lines, "hand-c", "2026-12") == HAND_DECEMBER
    assert fold_month([line.encode() for line in lines], "hand-c", "2026-12") == HAND_DECEMBER  # bytes too
    assert fold_month(lines, "hand-c", "2026-10") == {}
    other = fold_month(lines, "other-c", "2026-11")
    assert other["RF-1"]["drop"] == D("999.00") and other["RF-1"]["bets"] == 0


def test_hand_written_evening_agrees_with_pitwatch() -> None:
    """The same figures from pitwatch's replay (its settlement rows and movements)."""
    monthly = _pitwatch_monthly(hand_evening())
    for month, want in (("2026-11", HAND_NOVEMBER), ("2026-12", HAND_DECEMBER)):
        assert monthly[("hand-c", month)] == {
            t: {k: v for k, v in f.items() if k not in ("days_open", "commission")} for t, f in want.items()}
