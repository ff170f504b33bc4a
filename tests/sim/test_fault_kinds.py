"""The fault kinds of the simulator: the framework's own (:data:`pitwatch.sim.base.FAULT_KINDS`) and those a
game's simulator module declares in its ``FAULTS`` trait (:data:`pitwatch.sim.base.SIMULATOR_TRAITS`), so a
game added on the platform brings its faults without an edit to the framework.

Defects reproduced: American roulette could not declare its colour-chip fault and labelled it ``wrong_payout``
with a detail; ``off_layout_bet`` (abreviada's) had to be added to the framework's ``FAULT_ALERTS`` by hand;
``pitwatch simulate --fault colour_misvalued=0.1`` was refused as an unknown kind."""

from __future__ import annotations

import pytest
from pitwatch.sim import american_roulette, french_roulette_abreviada
from pitwatch.sim.base import FAULT_ALERTS, FAULT_KINDS, fault_alerts, fault_kinds, score

CORE = ("wrong_payout", "late_bet", "over_limit_bet", "dealer_misdraw", "spin_direction", "illegal_decision",
        "dropped_event", "duplicated_event", "chips_missing", "dealer_collusion", "chip_dumping", "soft_play",
        "whipsaw", "wrong_cagnotte", "joined_stake", "association")
"""The framework's kinds, unchanged (the equivalence tests' seeds draw from them)."""


def test_the_core_kinds_stay_the_frameworks_and_the_games_add_theirs_in_catalogue_order():
    """Abreviada (second in the catalogue) declares ``off_layout_bet``, American roulette (eighth)
    ``colour_misvalued``; the framework's own tables know neither."""
    assert FAULT_KINDS == CORE and set(FAULT_ALERTS) == set(CORE)
    assert fault_kinds() == (*CORE, "off_layout_bet", "colour_misvalued")
    assert french_roulette_abreviada.FAULTS == {"off_layout_bet": {"invalid_bet"}}
    assert american_roulette.FAULTS == {"colour_misvalued": {"payout_discrepancy"}}
    alerts = fault_alerts()
    assert list(alerts) == list(fault_kinds())
    assert alerts["off_layout_bet"] == {"invalid_bet"} and alerts["colour_misvalued"] == {"payout_discrepancy"}
    assert all(alerts[k] == FAULT_ALERTS[k] for k in CORE)


def test_score_counts_a_kind_a_simulator_declares():
    """A colour bet paid at the wrong value, caught by the payout discrepancy of its spin; one missed."""
    labels = [{"kind": "colour_misvalued", "table_id": "GAL-RA-15", "round_id": "GAL-RA-15-R00003", "bet_id": "b1",
               "detail": ""},
              {"kind": "colour_misvalued", "table_id": "GAL-RA-15", "round_id": "GAL-RA-15-R00009", "bet_id": "b2",
               "detail": ""}]
    alerts = [{"kind": "payout_discrepancy", "table_id": "GAL-RA-15", "round_id": "GAL-RA-15-R00003"}]
    s = score(labels, alerts)
    assert s["recall"] == {"colour_misvalued": (0.5, 1, 2)}
    assert s["precision"] == 1.0 and s["alerts_on_clean_rounds"] == []


def test_score_refuses_a_label_of_no_known_kind_naming_it():
    labels = [{"kind": "nonsense", "table_id": "T", "round_id": "R", "bet_id": "", "detail": ""}]
    with pytest.raises(ValueError, match="'nonsense'"):
        score(labels, [])


def test_a_game_redeclaring_a_kind_with_other_alerts_is_refused(monkeypatch):
    """A simulator may share a kind with another (same alerts), never change what catches it."""
    monkeypatch.setattr(american_roulette, "FAULTS", {"colour_misvalued": frozenset({"payout_discrepancy"}),
                                                      "late_bet": frozenset({"payout_discrepancy"})})
    with pytest.raises(ValueError, match="late_bet"):
        fault_alerts()
    monkeypatch.setattr(american_roulette, "FAULTS", {"colour_misvalued": frozenset({"payout_discrepancy"}),
                                                      "off_layout_bet": frozenset({"invalid_bet"})})
    assert fault_kinds() == (*CORE, "off_layout_bet", "colour_misvalued")
