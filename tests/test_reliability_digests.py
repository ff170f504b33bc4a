"""The reliability run's own logic for scenarios f and g (``reliability/digests.py``) and its
comparison of alert rows (``reliability/figures.py``), without a broker or a server.

- The bad digests of scenario g do what the run counts on: the zone-less one is rejected with its
  bytes, the poison one passes validation and makes a detector raise (``decimal.Overflow``), so the
  watch stage parks it with its bytes and raises no alert.
- The comparison with the clean run looks at every column of an alert row: before, it compared
  alert ids only, and an alert whose message or score changed passed unseen.
- Digests sent by a scenario are accounted one by one (a copy's ``skipped`` row at its own
  position, a bad digest's ``rejected`` or ``parked`` row by its bytes).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest
from pitwatch.detectors.digest import DigestBet, RoundDigest, TableMark
from pitwatch.streams.processor import InMessage
from pitwatch.streams.watch import WatchProcessor
from reliability.digests import Injected, no_zone, poison
from reliability.figures import compare
from reliability.harness import RunResult, Snapshot

CASINO = "and-marbella"


def _digest(round_id: str, minute: int) -> RoundDigest:
    return RoundDigest(CASINO, "AND-BJ-01", "blackjack", round_id, "D-1",
                       datetime(2026, 11, 21, 21, minute, 5, tzinfo=timezone.utc), "blackjack.andalucia", "h",
                       (DigestBet("B-1", "P-1", Decimal("25.00"), Decimal("50.00"), Decimal("0.00")),))


def _watch_after(digests: list[RoundDigest]) -> tuple[WatchProcessor, dict[str, bytes]]:
    states: dict[str, bytes] = {}
    proc = WatchProcessor(states.get)
    res = proc.process([InMessage(CASINO.encode(), d.to_json(), 0, i) for i, d in enumerate(digests)])
    states.update(res.states)
    return proc, states


def test_the_poison_digest_is_refused_at_the_door():
    """Its 9E+999999 over-payments made the collusion detector raise decimal.Overflow (and, summed with
    later ones, gave an alert the warehouse could not store): money beyond any stake is refused."""
    raw = poison(_digest("R-1", 4).to_json(), 1)
    with pytest.raises(ValueError, match="out of range"):
        RoundDigest.from_json(raw)


def test_the_watch_stage_rejects_the_poison_digest_with_its_bytes():
    proc, _states = _watch_after([_digest("R-1", 4), _digest("R-2", 9)])
    raw = poison(_digest("R-2", 9).to_json(), 1)
    res = proc.process([InMessage(CASINO.encode(), raw, 0, 2)])
    assert len(res.rows["rejected"]) == 1 and res.rows["rejected"][0]["raw"] == raw.decode()
    assert "out of range" in res.rows["rejected"][0]["reason"]
    assert res.rows["alerts"] == [] and res.parked == 0


def test_the_zone_less_digest_is_rejected_with_its_bytes():
    raw = no_zone(_digest("R-1", 4).to_json())
    assert b'"ended_at":"2026-11-21T21:04:05"' in raw
    res = WatchProcessor(lambda _c: None).process([InMessage(CASINO.encode(), raw, 0, 0)])
    [row] = res.rows["rejected"]
    assert row["raw"] == raw.decode() and "not UTC with its zone" in row["reason"]


_ROW = ("A-1", "dealer_player_collusion", "high", CASINO, "AND-BJ-01", "blackjack", "", "", "P-1", "D-1", "12.50",
        "dealer D-1 favoured player P-1 on 5 of 40 bets", "cite", ("AND-BJ-01/R-1/B-1",), "x", "h",
        "2026-11-21 21:04:05", 0, ("dealer:D-1", "player:P-1"), 7.25)


def _snapshot(alert_rows: dict, skipped: dict | None = None, parked: dict | None = None) -> Snapshot:
    ids = {aid: len(rows) for aid, rows in alert_rows.items()}
    return Snapshot(rows={"events_raw": {}, "settlements": {}, "alerts": ids, "rejected": {},
                          "parked": {pid: 1 for pid in (parked or {})}},
                    alerts={aid: (sorted(rows)[0][1], sorted(rows)[0][4], sorted(rows)[0][13])
                            for aid, rows in alert_rows.items()},
                    rejected={}, topic_ids={"pitwatch.settlements": set(), "pitwatch.alerts": set(ids),
                                            "pitwatch.rejected": set()},
                    topic_messages={}, hourly_matches=True, alert_rows=alert_rows, parked=parked or {},
                    skipped=skipped or {})


def _figures(clean: Snapshot, got: Snapshot, injected: list[Injected] | None = None):
    result = RunResult(snapshot=got, restarts=0, exits={}, seconds=1.0, sent=0, injected=injected or [])
    return compare("f", "test", clean, result, [], 0, no_restart=True)


def test_an_alert_with_the_same_id_and_another_message_is_a_changed_row():
    clean = _snapshot({"A-1": {_ROW}})
    assert _figures(clean, _snapshot({"A-1": {_ROW}})).ok
    other = _ROW[:11] + ("dealer D-1 favoured player P-1 on 5 of 41 bets",) + _ROW[12:]
    f = _figures(clean, _snapshot({"A-1": {other}}))
    assert (f.alerts_changed, f.lost, f.unexpected, f.ok) == (1, 0, 0, False)
    assert "message" in f.alert_diffs[0] and "41 bets" in f.alert_diffs[0]
    rescored = _ROW[:19] + (7.5,)
    f = _figures(clean, _snapshot({"A-1": {_ROW, rescored}}))  # stored twice, once with another score
    assert f.alerts_changed == 1 and not f.ok and "score: 7.25 -> 7.5" in f.alert_diffs[0]


def test_each_injected_digest_is_accounted_by_its_position_or_bytes():
    clean = _snapshot({"A-1": {_ROW}})
    copy = Injected("resent_digest", "skipped", "already received", b"{}", b"C", "pitwatch.round-digests:2:40")
    lost_copy = Injected("resent_digest", "skipped", "already received", b"{}", b"C", "pitwatch.round-digests:2:41")
    parked = Injected("poison_digest", "parked", "a detector failed", b'{"v":2}', b"C")
    got = _snapshot({"A-1": {_ROW}},
                    skipped={"pitwatch.round-digests:2:40": "round T/R already received by casino C's watch",
                             "pitwatch.round-digests:2:41": "redelivered: round digest already applied"},
                    parked={"p1": ('{"v":2}', "a detector failed on round T/R: Overflow")})
    f = _figures(clean, got, [copy, lost_copy, parked])
    assert (f.digests["resent_digest"].sent, f.digests["resent_digest"].accounted) == (2, 1)
    assert (f.digests["poison_digest"].sent, f.digests["poison_digest"].accounted) == (1, 1)
    assert f.tables["parked"].expected == f.tables["parked"].stored == 1 and f.tables["parked"].unexpected == 0
    assert f.skipped_received == 1 and not f.ok
    assert _figures(clean, got, [copy, parked]).ok


def _unstorable_evening() -> list[bytes]:
    """A casino's digests (all valid) in which dealer D-X over-pays player P once 9E+999999 euros and
    then 5 euros five times, after 150 clean rounds of D-X with Q and of P with D-Y (the collusion
    detector's baselines, ``PairThresholds.min_baseline`` 100), then the table's close."""
    start = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)
    plan = [("D-X", "Q", "0.00")] * 150 + [("D-Y", "P", "0.00")] * 150 + [("D-X", "P", "9E+999999")] \
        + [("D-X", "P", "5.00")] * 5
    out = [RoundDigest("ZZ-CASINO", "ZZ-T1", "blackjack", f"R{i:04d}", dealer, start + i * timedelta(seconds=30),
                       "x", "h", (DigestBet(f"B{i}", player, Decimal(10), Decimal(0), Decimal(disc)),)).to_json()
           for i, (dealer, player, disc) in enumerate(plan)]
    return [*out, TableMark("ZZ-CASINO", "ZZ-T1", start + timedelta(hours=4)).to_json()]


def test_valid_digests_never_give_an_alert_the_warehouse_cannot_store():
    res = WatchProcessor(lambda _c: None).process(
        [InMessage(b"ZZ-CASINO", raw, 0, i) for i, raw in enumerate(_unstorable_evening())])
    # either the absurd digest is refused or parked, or every alert's amount fits Decimal(18, 2)
    assert res.rows["rejected"] or res.parked or all(
        abs(r["amount"]) < Decimal("1E16") for r in res.rows["alerts"]), [r["amount"] for r in res.rows["alerts"]]
