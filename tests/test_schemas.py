"""The event contract: parsing, validation errors, canonical serialization, JSON Schema export."""

import json
import re
import uuid
from decimal import Decimal
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st
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


def event(type, **payload):
    raw = json.loads(bet())
    for k in ("bet_id", "player_id", "spot", "stake"):
        raw.pop(k)
    return json.dumps({**raw, "type": type, **payload}).encode()


# Well-formed codes that are not on any layout are valid events: the rules engine judges them
# (invalid_bet), the schema checks the grammar only.
@pytest.mark.parametrize("spot", ["split:1-5", "straight:37", "street:2-3-4", "column:0", "split:20-17",
                                  "corner:1-2-3-4", "sixline:1-2-3-4-5-6", "dozens:1-3", "red", "main",
                                  "punto", "banca", "tie"])
def test_grammatical_spots_are_valid_events_even_off_the_layout(spot):
    assert parse_event(bet(spot=spot)).spot == spot


@pytest.mark.parametrize("spot, hint", [
    ("stright:5", "did you mean 'straight:5'?"),
    ("straight:07", "did you mean 'straight:7'?"),
    ("straight:1 ", "did you mean 'straight:1'?"),
    ("Red", "did you mean 'red'?"),
    ("PUNTO", "did you mean 'punto'?"),
    ("tie:8", "did you mean 'tie'?"),
    ("street", "did you mean 'street:A-B-C'?"),
    ("corner:0-1-2", "did you mean 'corner:A-B-C-D'?"),
    ("straight:", "did you mean 'straight:N'?"),
    ("straight:-1", "did you mean 'straight:N'?"),
    ("trio:0-1-2", "expected one of straight:N"),
    ("rouge", "expected one of straight:N"),
    ("{bogus}", "expected one of straight:N"),
])
def test_spots_outside_the_grammar_are_rejected_with_a_hint(spot, hint):
    with pytest.raises(InvalidEvent) as info:
        parse_event(bet(spot=spot))
    assert info.value.reason.startswith(f"spot: {spot!r} is not a spot code")
    assert hint in info.value.reason


@pytest.mark.parametrize("hand", ["dealer", "punto", "banca", "1", "3", "3-2", "12-10"])
def test_grammatical_hands_are_valid(hand):
    assert parse_event(event("card_dealt", hand=hand, card="TS")).hand == hand


@pytest.mark.parametrize("hand, hint", [
    ("deler", "did you mean 'dealer'?"), ("Banca", "did you mean 'banca'?"), ("03", "did you mean '3'?"),
    ("3-02", "did you mean '3-2'?"), ("0", "expected dealer, punto, banca"), ("3-0", "expected dealer"),
    ("box3", "expected dealer"), ("3-2-1", "expected dealer"),
])
def test_hands_outside_the_grammar_are_rejected_with_a_hint(hand, hint):
    with pytest.raises(InvalidEvent) as info:
        parse_event(event("card_dealt", hand=hand, card="TS"))
    assert info.value.reason.startswith(f"hand: {hand!r} is not a hand id")
    assert hint in info.value.reason


@pytest.mark.parametrize("card, hint", [
    ("qh", "did you mean 'QH'?"), ("10S", "did you mean 'TS'?"), ("Q♥", "did you mean 'QH'?"),
    ("HQ", "did you mean 'QH'?"), (" td", "did you mean 'TD'?"), ("1S", "did you mean 'AS'?"),
    ("QX", "expected a rank A, 2-9, T, J, Q or K then a suit S, H, D or C"), ("K", "expected a rank"),
    ("JOKER", "expected a rank"),
])
def test_cards_outside_the_grammar_are_rejected_with_a_hint(card, hint):
    """Issue 7 §6: card codes, like spots, hands and decisions, are checked at input with a hint."""
    with pytest.raises(InvalidEvent) as info:
        parse_event(event("card_dealt", hand="dealer", card=card))
    assert info.value.reason.startswith(f"card: {card!r} is not a card code")
    assert hint in info.value.reason


def test_decisions_are_an_enum_with_a_hint():
    assert parse_event(event("player_decision", decision="en_prison", bet_id="B1")).decision == "en_prison"
    with pytest.raises(InvalidEvent, match=r"decision: 'stnad' is not a decision; did you mean 'stand'\?"):
        parse_event(event("player_decision", decision="stnad", hand="1"))
    with pytest.raises(InvalidEvent, match="expected one of hit, stand"):
        parse_event(event("player_decision", decision="fold", hand="1"))


def test_code_grammar_is_in_the_json_schemas(tmp_path):
    from pitwatch.schemas.cards import ALL_CARDS
    from pitwatch.schemas.codes import CARD_PATTERN, DECISIONS, HAND_PATTERN, SPOT_PATTERN
    from pitwatch.schemas.events import DecisionKind

    assert get_args(DecisionKind) == DECISIONS
    export_schemas(tmp_path)
    load = lambda name: json.loads((tmp_path / f"{name}.schema.json").read_text())["properties"]  # noqa: E731
    assert load("bet_placed")["spot"]["pattern"] == SPOT_PATTERN
    assert load("card_dealt")["hand"]["pattern"] == HAND_PATTERN
    assert load("card_dealt")["card"]["pattern"] == CARD_PATTERN
    assert [c for c in ALL_CARDS if re.fullmatch(CARD_PATTERN, c)] == list(ALL_CARDS)
    assert not any(re.fullmatch(CARD_PATTERN, c) for c in ("10S", "qh", "HQ", "1S", "TS "))
    assert load("player_decision")["decision"]["enum"] == list(DECISIONS)
    spot, hand = re.compile(SPOT_PATTERN), re.compile(HAND_PATTERN)
    assert spot.fullmatch("split:1-5") and not spot.fullmatch("stright:5") and not spot.fullmatch("straight:07")
    assert hand.fullmatch("3-2") and not hand.fullmatch("0") and not hand.fullmatch("player")


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


def test_table_opened_options_are_bounded():
    """A table's options live in its state: a 1 MB option value (or 33 options) is a schema
    error naming the options, not a state too large to store."""
    import json as _json

    from pitwatch.schemas.events import InvalidEvent, parse_event
    base = {"event_id": "4f0c5a4e-1b7c-4a8e-9d2a-2b3c4d5e6f70", "casino_id": "c", "table_id": "T", "game": "french_roulette",
            "seq": 1, "occurred_at": "2026-11-24T20:00:00.000Z", "actor": {"role": "pit_boss", "id": "PB"},
            "type": "table_opened", "ruleset_id": "french_roulette.galicia", "jurisdiction": "galicia",
            "min_bet": "5.00", "max_bet": "900.00", "float_amount": "10000.00"}
    assert parse_event(_json.dumps(dict(base, options={"max_tier": "2"}))).options == {"max_tier": "2"}
    for options in ({"note": "X" * 1_000_000}, {f"o{i}": "1" for i in range(33)}, {"x" * 65: "1"}):
        with pytest.raises(InvalidEvent, match="options"):
            parse_event(_json.dumps(dict(base, options=options)))


def test_bacara_dos_panos_events_and_codes_are_in_the_contract(tmp_path):
    """The paños are hand ids and spots; bank_auctioned carries its bids; cards_lost names a paño or the
    bank; the JSON Schemas describe them (000 L783, L853)."""
    assert parse_event(event("card_dealt", hand="pano2", card="TS")).hand == "pano2"
    assert parse_event(bet(spot="a_caballo", game="bacara_dos_panos")).spot == "a_caballo"
    auction = parse_event(event("bank_auctioned", game="bacara_dos_panos", banker_id="A", amount="900.00",
                                bids=[{"player_id": "A", "amount": "900.00"}, {"player_id": "C", "amount": "800"}]))
    assert auction.bids[1].amount == Decimal("800.00")
    assert parse_event(event("cards_lost", game="bacara_dos_panos", hand="banca")).hand == "banca"
    with pytest.raises(InvalidEvent, match="hand"):
        parse_event(event("cards_lost", game="bacara_dos_panos", hand="punto"))
    with pytest.raises(InvalidEvent, match="bids"):
        parse_event(event("bank_auctioned", game="bacara_dos_panos", banker_id="A", amount="900.00", bids=[]))
    export_schemas(tmp_path)
    load = lambda name: json.loads((tmp_path / f"{name}.schema.json").read_text())  # noqa: E731
    assert {"bids", "banker_id", "amount"} <= set(load("bank_auctioned")["required"])
    assert load("cards_lost")["properties"]["hand"]["enum"] == ["pano1", "pano2", "banca"]
    assert "bacara_dos_panos" in json.dumps(load("event"))
