"""The event contract: parsing, validation errors, canonical serialization, JSON Schema export."""

import json
import uuid
from decimal import Decimal

import pytest
from hypothesis import given, strategies as st

from pitwatch.schemas.events import EVENT_TYPES, InvalidEvent, dump_event, parse_event, payload_of
from pitwatch.schemas.export import export_schemas
from pitwatch.schemas.money import round_cents


def bet(**over):
    ev = {
        "event_id": str(uuid.UUID(int=1)), "casino_id": "c", "table_id": "T1",
        "game": "french_roulette", "seq": 3, "round_id": "R1",
        "occurred_at": "2026-11-21T21:04:05.120Z", "actor": {"role": "player", "id": "P1"},
        "type": "bet_placed", "bet_id": "B1", "player_id": "P1", "spot": "split:17-20", "stake": "10.00",
    }
    ev.update(over)
    return json.dumps({k: v for k, v in ev.items() if v is not ...}).encode()


def test_bet_placed_parses_with_exact_decimal_stake():
    e = parse_event(bet())
    assert e.type == "bet_placed" and e.stake == Decimal("10.00") and e.spot == "split:17-20"
    assert e.occurred_at.utcoffset().total_seconds() == 0


def test_json_number_stake_is_read_exactly():
    assert parse_event(bet(stake=12.5)).stake == Decimal("12.50")


def test_roundtrip_is_stable():
    e = parse_event(bet())
    assert parse_event(dump_event(e)) == e
    assert payload_of(e) == {"bet_id": "B1", "player_id": "P1", "spot": "split:17-20", "stake": "10.00", "box": None}


@pytest.mark.parametrize("raw, needle", [
    (b"{not json", "Invalid JSON"),
    (bet(type="teleport"), "does not match any of the expected tags"),
    (bet(stake=...), "stake: Field required"),
    (bet(seq=0), "seq: Input should be greater than or equal to 1"),
    (bet(stake="10.001"), "no more than 2 decimal places"),
    (bet(stake="-5.00"), "stake: Input should be greater than or equal to 0"),
    (bet(occurred_at="2026-11-21T21:04:05"), "UTC offset"),
    (bet(round_id=None), "round_id"),
    (bet(extra_field=1), "extra_field: Extra inputs are not permitted"),
])
def test_invalid_events_are_rejected_with_a_reason(raw, needle):
    with pytest.raises(InvalidEvent) as info:
        parse_event(raw)
    assert needle in info.value.reason


def test_card_codes_are_validated():
    raw = bet(type="card_dealt", hand="dealer", card="1S")
    raw = json.loads(raw)
    for k in ("bet_id", "player_id", "spot", "stake"):
        raw.pop(k)
    with pytest.raises(InvalidEvent, match="card"):
        parse_event(json.dumps(raw))
    raw["card"] = "TS"
    assert parse_event(json.dumps(raw)).card == "TS"


def test_schema_export_writes_one_schema_per_type(tmp_path):
    paths = export_schemas(tmp_path)
    names = {p.name for p in paths}
    assert len(paths) == len(EVENT_TYPES) + 1
    assert "bet_placed.schema.json" in names and "event.schema.json" in names
    schema = json.loads((tmp_path / "bet_placed.schema.json").read_text())
    assert {"event_id", "seq", "stake", "spot"} <= set(schema["required"])


@given(st.decimals(min_value=0, max_value=10**6, places=4))
def test_round_cents_down_never_exceeds_the_amount(d):
    r = round_cents(d, "down")
    assert r <= d and d - r < Decimal("0.01")
