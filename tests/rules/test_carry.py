"""Each game's state across rounds (:class:`pitwatch.rules.game.Carry`): typed, versioned, stored as JSON.

The stored forms are written out by hand: a version 6 table state kept the same fields without a version
(``{"last_direction": "clockwise"}``), and version 7 adds ``"version": 1``."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pitwatch.catalogue import GAME_IDS
from pitwatch.detectors.snapshot import UPCASTERS
from pitwatch.rules.american_roulette.game import AmericanCarry, ColourMarker
from pitwatch.rules.base import RuleError
from pitwatch.rules.blackjack import BlackjackCarry
from pitwatch.rules.chemin_de_fer.bank import BankState, CheminCarry
from pitwatch.rules.dos_panos.bank import PanosBank, PanosCarry
from pitwatch.rules.game import Carry, carry_type, load_carry
from pitwatch.rules.poker.revenue import PokerCarry
from pitwatch.rules.roulette import RouletteCarry

D = Decimal


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_new_sessions_carry_of_every_game_round_trips(game):
    """Every game of the catalogue has a carry class, and a new session's state survives its stored form."""
    kind = carry_type(game)
    assert issubclass(kind, Carry)
    fresh = kind()
    stored = json.loads(json.dumps(fresh.to_dict()))
    assert stored["version"] == 1
    assert load_carry(kind, stored) == fresh


def test_the_carry_of_each_game_with_state_is_its_own():
    """The games with state across rounds have their own class (the others the stateless base)."""
    assert {g: carry_type(g) for g in ("french_roulette", "french_roulette_abreviada", "american_roulette",
                                       "blackjack", "poker", "chemin_de_fer", "bacara_dos_panos", "boule")} == {
        "french_roulette": RouletteCarry, "french_roulette_abreviada": RouletteCarry,
        "american_roulette": AmericanCarry, "blackjack": BlackjackCarry, "poker": PokerCarry,
        "chemin_de_fer": CheminCarry, "bacara_dos_panos": PanosCarry, "boule": Carry}


def test_a_version_6_american_carry_loads_its_markers_typed():
    """A version 6 state's American roulette carry (colour -> player, value as a string, event) becomes
    :class:`ColourMarker` s with Decimal values once the upcaster adds its version."""
    v6 = {"last_direction": "clockwise",
          "colours": {"blue": {"player_id": "P-1", "value": "25.00", "event_id": "e-1"}}}
    doc = {"state_version": 6, "engine": {"base": {"ctx": {"carry": v6}}, "pending": []}}
    v7 = UPCASTERS[6](doc)
    stored = v7["engine"]["base"]["ctx"]["carry"]
    assert v7["state_version"] == 7 and stored == {"version": 1, **v6}
    carry = load_carry(AmericanCarry, stored)
    assert carry.last_direction == "clockwise"
    assert carry.colours == {"blue": ColourMarker("P-1", D("25.00"), "e-1")}
    assert carry.to_dict() == stored


def test_a_carry_of_a_newer_version_or_malformed_is_refused():
    """A state written by a newer release (version 2 of a version-1 carry), a carry without its version and
    a malformed one are :class:`RuleError` s naming the class, never a silent default."""
    with pytest.raises(RuleError, match="RouletteCarry version 2"):
        load_carry(RouletteCarry, {"version": 2, "last_direction": "clockwise"})
    with pytest.raises(RuleError, match="version None"):
        load_carry(BlackjackCarry, {"burn_due": True})
    with pytest.raises(RuleError, match="PokerCarry version 1 malformed"):
        load_carry(PokerCarry, {"version": 1, "session": {"fees": {"P-1": "ten"}, "hands": 3}})


def test_the_banks_and_fees_keep_their_stored_form():
    """The banks and the session's fees are stored as before the carry was typed (money as strings)."""
    chemin = CheminCarry()
    chemin.bank = BankState("P-1", 3, D("176.00"), "banca", D("76.00"), "P-2")
    assert chemin.to_dict() == {"version": 1, "bank": {"banker": "P-1", "seat": 3, "after": "176.00",
                                                       "result": "banca", "winnings": "76.00", "seguido": "P-2"}}
    panos = PanosCarry()
    panos.bank = PanosBank("P-1", 2, D("500.00"), D("620.00"), coups=4)
    assert panos.to_dict()["bank"]["after"] == "620.00" and panos.to_dict()["bank"]["coups"] == 4
    poker = PokerCarry()
    poker.fees["P-1"] = D("12.50")
    poker.hands = 7
    assert poker.to_dict() == {"version": 1, "session": {"fees": {"P-1": "12.50"}, "hands": 7}}
    for carry in (chemin, panos, poker):
        assert load_carry(type(carry), carry.to_dict()) == carry


@given(direction=st.none() | st.sampled_from(["clockwise", "counterclockwise"]),
       colours=st.dictionaries(st.sampled_from(["blue", "green", "pink", "yellow"]),
                               st.tuples(st.from_regex(r"P-[0-9]{1,3}", fullmatch=True),
                                         st.decimals(min_value=1, max_value=10_000, places=2),
                                         st.uuids().map(str)), max_size=4))
def test_an_american_carry_survives_its_json_form(direction, colours):
    """Property: any last direction and markers come back equal from their JSON form (values as strings)."""
    carry = AmericanCarry()
    carry.last_direction = direction
    carry.colours = {c: ColourMarker(p, v, e) for c, (p, v, e) in colours.items()}
    back = load_carry(AmericanCarry, json.loads(json.dumps(carry.to_dict())))
    assert back == carry and back.colours == carry.colours
