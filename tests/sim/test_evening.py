"""Simulated evenings through the pipeline's per-table auditor (sequence checks + rules engine).

The simulator pays every bet from its own payout table (pitwatch.sim.payouts), never from the
engine. So a clean evening raising no alert means the engine and that table agree, and an engine
whose payout is wrong raises payout_discrepancy alerts on clean rounds (shown here by changing
the engine's ratios only).
"""

from __future__ import annotations

import json
from collections import Counter
from decimal import Decimal

import pytest
from pitwatch.detectors.auditor import TableAuditor
from pitwatch.rules.base import list_rulesets
from pitwatch.schemas.events import parse_event
from pitwatch.sim.base import default_floor, simulate
from pitwatch.sim.wheel_of_fortune import wheel_tables

FLOOR = {spec.ruleset_id: spec for spec in default_floor(8, chemin_de_fer=2, dos_panos=2) + wheel_tables()}


def audit(ruleset_id: str, hours: float, seed: int = 1):
    """One table of ``ruleset_id`` for ``hours``, no fault: (alerts, round verdicts, labels)."""
    events, labels = simulate([FLOOR[ruleset_id]], hours, seed, fault_rates={})
    auditor = TableAuditor(FLOOR[ruleset_id].table_id)
    alerts, verdicts = [], []
    for raw in events:
        out = auditor.feed(parse_event(json.dumps(raw)))
        assert out.rejected is None
        alerts.extend(out.alerts)
        verdicts.extend(out.verdicts)
    return alerts, verdicts, labels


def test_the_floor_has_a_table_for_every_ruleset():
    assert sorted(FLOOR) == list_rulesets()


@pytest.mark.parametrize("ruleset_id", list_rulesets())
def test_clean_evening_raises_no_alert(ruleset_id):
    """Faults off, three hours of one table: not one alert, over rounds that exercise the
    payouts (wins and losses; zeros, blackjacks, banca wins with their deduction, poker's rake and
    pots paid to more than one player: side pots, uncalled bets or splits; chemin de fer's cagnotte,
    ties and stakes beyond the bank; bacará a dos paños' cagnotte on the bank's net and its ties)."""
    game = FLOOR[ruleset_id].game
    alerts, verdicts, labels = audit(ruleset_id, 6.0 if game == "poker" else 3.0)  # poker: ~30 hands an hour
    assert labels == []
    assert [(a.round_id, a.kind, a.message) for a in alerts] == []
    assert len(verdicts) > 100
    outcomes = Counter(c.expected.outcome for v in verdicts for c in v.checks)
    assert outcomes["win"] > 0 and outcomes["lose"] > 0
    if game == "french_roulette":
        assert outcomes["en_prison"] + outcomes["half_back"] > 0
    elif game == "blackjack":
        assert outcomes["blackjack"] > 0 and outcomes["push"] > 0
    elif game == "chemin_de_fer":  # the table's win is the cagnotte: 5% of the bank's winnings (000 L598)
        win = sum(f.win for v in verdicts for f in v.figures)
        bank_won = sum(c.expected.stake for v in verdicts for c in v.checks
                       if c.expected.spot == "bank" and c.expected.outcome == "win")
        assert 0 < win <= bank_won * Decimal("0.05") and outcomes["push"] > 0 and outcomes["refused"] > 0
    elif game == "bacara_dos_panos":  # the table's win is the cagnotte: 2% (limitada) or 1.25% (libre) of the
        # bank's net win (what it got back over its stake, plus the cagnotte) of the coups it won (000 L799, L829)
        win = sum(f.win for v in verdicts for f in v.figures)
        bank_won = sum(c.expected.returned - c.expected.stake for v in verdicts for c in v.checks
                       if c.expected.spot == "bank" and c.expected.outcome == "win")
        assert 0 < win <= (bank_won + win) * Decimal("0.02") and outcomes["push"] > 0
    elif game == "poker":  # the table's win is the rake: up to 5% of the pots (004 L4082-L4088)
        win = sum(f.win for v in verdicts for f in v.figures)
        handle = sum(f.handle for v in verdicts for f in v.figures)
        assert 0 < win <= handle * Decimal("0.05")
        assert any(len({c.expected.player_id for c in v.checks if c.expected.returned > 0}) > 1 for v in verdicts) \
            or any(c.expected.outcome == "push" for v in verdicts for c in v.checks)
    elif game == "wheel_of_fortune":  # void spins: the pointer on a pivot (000 L1095; 004 L5778-L5780)
        assert outcomes["void"] > 0
    else:
        assert any(c.expected.commission > 0 for v in verdicts for c in v.checks)
        assert outcomes["push"] > 0


def engine_ruleset_changed(monkeypatch, ruleset_id: str, old: str, new: str) -> None:
    """Make the engine judge ``ruleset_id`` with its file's text where ``old`` reads ``new``
    (as a release shipping that file would); the simulator's payout table is untouched."""
    from pitwatch.rules import base

    source = base.load_ruleset(ruleset_id).source
    assert source.count(old) == 1
    changed = base.parse_ruleset(source.replace(old, new))
    shipped = base._shipped
    monkeypatch.setattr(base, "_shipped", lambda rid: changed if rid == ruleset_id else shipped(rid))


def test_engine_paying_a_straight_up_36_to_1_is_caught(monkeypatch):
    """Engine changed to pay a straight-up 36 to 1 (the seed says 35: 000 L133): every winning
    straight-up of a clean evening is one payout_discrepancy, the dealer (the simulator) having
    returned one stake less than the engine expects; nothing else is flagged."""
    engine_ruleset_changed(monkeypatch, "french_roulette.galicia", "\nstraight = 35 ", "\nstraight = 36 ")
    alerts, verdicts, _ = audit("french_roulette.galicia", 2.0)
    won = [c.expected for v in verdicts for c in v.checks
           if c.expected.spot.startswith("straight:") and c.expected.outcome == "win"]
    assert won
    assert sorted((a.kind, a.bet_id, a.amount) for a in alerts) == sorted(
        ("payout_discrepancy", e.bet_id, -e.stake) for e in won)


def test_engine_paying_blackjack_six_to_five_is_caught(monkeypatch):
    """Engine changed to pay a blackjack 6 to 5 (the seed says 3 to 2: 000 L293): every paid
    blackjack is one payout_discrepancy of 0.3 x the stake (the simulator paid 1.5 x)."""
    engine_ruleset_changed(monkeypatch, "blackjack.galicia", "\nblackjack = 1.5 ", "\nblackjack = 1.2 ")
    alerts, verdicts, _ = audit("blackjack.galicia", 2.0)
    naturals = [c.expected for v in verdicts for c in v.checks if c.expected.outcome == "blackjack"]
    assert naturals
    assert sorted((a.kind, a.bet_id, a.amount) for a in alerts) == sorted(
        ("payout_discrepancy", e.bet_id, e.stake * Decimal("0.3")) for e in naturals)


def test_engine_taking_a_4_percent_banca_deduction_is_caught(monkeypatch):
    """Engine changed to deduct 4% from winning banca bets (the seed says 5: 000 L467): every
    winning banca bet is one payout_discrepancy, the simulator having deducted 1% of the stake
    more than the engine expects (stakes are whole 20.00 EUR chips: no rounding)."""
    engine_ruleset_changed(monkeypatch, "punto_banca.galicia", "\nrate = 0.05", "\nrate = 0.04")
    alerts, verdicts, _ = audit("punto_banca.galicia", 1.0)
    banca_wins = [c.expected for v in verdicts for c in v.checks
                  if c.expected.spot == "banca" and c.expected.outcome == "win"]
    assert banca_wins
    assert sorted((a.kind, a.bet_id, a.amount) for a in alerts) == sorted(
        ("payout_discrepancy", e.bet_id, -e.stake / 100) for e in banca_wins)
