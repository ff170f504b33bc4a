"""Row builders for warehouse tests: one valid row per table, overridable."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

UTC = dt.timezone.utc
T0 = dt.datetime(2026, 3, 14, 21, 4, 5, 120000, tzinfo=UTC)


def settlement(i: int, **kw) -> dict:
    row = {
        "settlement_id": f"S-{i:06d}",
        "casino_id": "CAS-1",
        "table_id": f"T-{i % 3}",
        "game": "roulette",
        "ruleset_id": "galicia-2007/ruleta-francesa",
        "round_id": f"R-{i // 10}",
        "bet_id": f"B-{i}",
        "player_id": f"P-{i % 7}",
        "dealer_id": "D-1",
        "spot": "red",
        "stake": Decimal("10.00"),
        "expected_outcome": "win",
        "expected_returned": Decimal("20.00"),
        "expected_commission": Decimal("0.00"),
        "recorded": 1,
        "recorded_outcome": "win",
        "recorded_returned": Decimal("20.00"),
        "recorded_commission": Decimal("0.00"),
        "discrepancy": Decimal("0.00"),
        "citation": "000_e1555249d49967be.txt L133",
        "detail": "",
        "handle": Decimal("10.00"),
        "win": Decimal("-10.00"),
        "gaming_day": dt.date(2026, 3, 14),
        "settled_at": T0 + dt.timedelta(minutes=7 * i),
    }
    row.update(kw)
    return row


def event(i: int, **kw) -> dict:
    row = {
        "event_id": f"00000000-0000-4000-8000-{i:012d}",
        "casino_id": "CAS-1",
        "table_id": "T-1",
        "game": "roulette",
        "seq": i,
        "round_id": None,
        "type": "round_started",
        "occurred_at": T0 + dt.timedelta(seconds=i),
        "actor_role": "dealer",
        "actor_id": "D-1",
        "payload": '{"round_no": %d}' % i,
    }
    row.update(kw)
    return row


def alert(i: int, **kw) -> dict:
    row = {
        "alert_id": f"A-{i}",
        "kind": "payout_discrepancy",
        "severity": "high",
        "casino_id": "CAS-1",
        "table_id": "T-1",
        "game": "roulette",
        "round_id": "R-1",
        "bet_id": "B-1",
        "player_id": "P-1",
        "dealer_id": "D-1",
        "amount": Decimal("35.00"),
        "message": "paid 35 to 1 on a split",
        "citation": "000_e1555249d49967be.txt L133",
        "evidence": ["e1", "e2"],
        "detected_at": T0,
    }
    row.update(kw)
    return row


def rejected(i: int, **kw) -> dict:
    row = {
        "reject_id": f"pitwatch.table-events:0:{i}",
        "topic": "pitwatch.table-events",
        "partition": 0,
        "offset": i,
        "raw": '{"type": "bogus"}',
        "reason": "unknown event type 'bogus'",
        "rejected_at": T0,
    }
    row.update(kw)
    return row


def ruleset(i: int, **kw) -> dict:
    row = {
        "ruleset_key": f"french_roulette.galicia@{i:064x}",
        "ruleset_id": "french_roulette.galicia",
        "ruleset_hash": f"{i:064x}",
        "game": "french_roulette",
        "jurisdiction": "galicia",
        "source": 'id = "french_roulette.galicia"\n# «pleno» 35 veces\n',
        "first_used_at": T0,
    }
    row.update(kw)
    return row


def parked(i: int, **kw) -> dict:
    row = {
        "parked_id": f"{i:040x}",
        "table_id": "RF-01",
        "seq": i,
        "event_id": f"00000000-0000-0000-0000-{i:012x}",
        "topic": "pitwatch.table-events",
        "partition": 2,
        "offset": 1000 + i,
        "raw": '{"type": "ball_landed", "number": 17}',
        "reason": "table quarantined since seq 3: engine error",
        "parked_at": T0,
    }
    row.update(kw)
    return row


def skipped(i: int, **kw) -> dict:
    row = {
        "skip_id": f"pitwatch.table-events:2:{1000 + i}",
        "table_id": "RF-01",
        "seq": i,
        "event_id": f"00000000-0000-0000-0000-{i:012x}",
        "topic": "pitwatch.table-events",
        "partition": 2,
        "offset": 1000 + i,
        "reason": "redelivered: already applied (the table's last applied offset in pitwatch.table-events:2 is 2000)",
        "skipped_at": T0,
    }
    row.update(kw)
    return row


BUILDERS = {"settlements": settlement, "events_raw": event, "alerts": alert, "rejected": rejected,
            "rulesets": ruleset, "parked": parked, "skipped": skipped}
