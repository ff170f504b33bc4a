"""Dispatch by event class at punto y banca, póquer, chemin de fer and bacará a dos paños keeps the
verdicts of the events each game does not know (the messages written out by hand). That every event
parameter names its class: :mod:`tests.rules.test_typed_events`."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pitwatch.rules.base import RoundVerdict
from pitwatch.schemas import events as E
from pitwatch.schemas.dos_panos import CardsLost

from tests.rules.cdf_coups import DP_GAL, GAL, Table
from tests.rules.poker_hands import Table as PokerTable
from tests.rules.poker_hands import judge


def test_an_event_of_another_game_in_a_punto_y_banca_coup_is_a_procedure_violation():
    """A wheel spun in a coup of punto y banca: no event of this game, flagged once, citing the deal order."""
    t = Table("punto_banca.galicia", min_bet="10", max_bet="1000")
    rid = "PB-0001"
    t.apply(E.RoundStarted, rid)
    t.apply(E.WheelSpun, rid, direction="clockwise")
    (verdict,) = t.apply(E.RoundEnded, rid)
    assert isinstance(verdict, RoundVerdict)
    found = [(v.kind, v.message) for v in verdict.violations if "does not belong" in v.message]
    assert found == [("procedure", "event wheel_spun does not belong to punto y banca")]


@pytest.mark.parametrize("ruleset,label", [(GAL, "chemin de fer"), (DP_GAL, "bacará a dos paños")])
def test_an_event_of_another_game_in_a_banked_coup_is_a_procedure_violation(ruleset, label):
    """A wheel spun in a coup of chemin de fer or of bacará a dos paños: flagged once, by the game's name."""
    t = Table(ruleset)
    c = t.coup()
    c._e(E.WheelSpun, direction="clockwise")
    (verdict,) = t.apply(E.RoundEnded, c.rid)
    found = [(v.kind, v.message) for v in verdict.violations if "does not belong" in v.message]
    assert found == [("procedure", f"event wheel_spun does not belong to {label}")]


def test_cards_lost_belong_to_dos_panos_and_not_to_chemin_de_fer():
    """``cards_lost`` is dos paños' own event (its paño void), a foreign one at chemin de fer."""
    t = Table(GAL)
    c = t.coup()
    c._e(CardsLost, hand="banca")
    (verdict,) = t.apply(E.RoundEnded, c.rid)
    assert [v.message for v in verdict.violations if "does not belong" in v.message] == [
        "event cards_lost does not belong to chemin de fer"]
    t = Table(DP_GAL)
    c = t.coup().lost("1")
    (verdict,) = t.apply(E.RoundEnded, c.rid)
    assert [v.message for v in verdict.violations if "does not belong" in v.message] == []


def test_a_session_fee_taken_during_a_hand_is_judged_as_at_the_table():
    """A ``session_fee_taken`` that names the hand (its ``round_id``) is still the session's benefit: a fixed
    fee of 5.00, B pays 6.00 during hand H1: 1.00 too much, a ``rake_discrepancy`` of the hand."""
    t = PokerTable(revenue="session_fee", session_fee="5.00")
    h = t.hand(1, {"A": (1, "100.00"), "B": (2, "100.00")})
    h.ev("session_fee_taken", player_id="B", amount="6.00")
    h.end()
    (v,) = judge(t)
    assert [(x.kind, x.player_id, x.amount) for x in v.violations] == [("rake_discrepancy", "B", Decimal("1.00"))]


def test_a_tip_from_a_player_of_the_hand_is_no_movement_of_his_stack():
    """A tip (``tip_received``) from a player dealt in, once the cards are out, is neither chips added to his
    stack (V.e) nor chips cashed (V.g); a player not dealt in cashes chips freely during the hand."""
    t = PokerTable()
    h = t.hand(1, {"A": (1, "100.00"), "B": (2, "100.00")})
    h.deal(1, "AS", "KD").deal(2, "2C", "7H")
    t.add(None, "tip_received", "A", player_id="A", amount="5.00")
    t.add(None, "chips_cashed", "C", player_id="C", amount="40.00")
    h.end()
    (v,) = judge(t)
    assert [x for x in v.violations if x.kind == "prohibited_play"] == []


@pytest.mark.parametrize("ruleset,lines", [(GAL, "L532"), (DP_GAL, "L757")])
def test_a_shoe_of_other_than_six_decks_is_a_procedure_violation_000(ruleset, lines):
    """Chemin de fer and bacará a dos paños are played with six decks (000 L532 «seis barajas, de 52 cartas»;
    000 L757 «Serán necesarias seis barajas»): a shoe of four is flagged once, naming both counts; six, never."""
    t = Table(ruleset)
    assert t.apply(E.ShoeLoaded, shoe_id="S1", decks=6) == []
    (v,) = t.apply(E.ShoeLoaded, shoe_id="S2", decks=4)
    assert (v.kind, v.message) == ("procedure", "shoe S2 loaded with 4 decks; the rules require 6")
    assert lines in v.citation
