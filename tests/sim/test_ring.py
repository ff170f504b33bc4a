"""The simulator's dealer-player ring (``dealer_collusion``, :mod:`pitwatch.sim.base`): a table's
dealers take turns from a roster of three; with the fault on, the first dealer over-pays only the
first player, only while dealing, each over-payment labelled and judged a payout discrepancy by
the engine; and the pair detector finds the ring on a long evening."""

from __future__ import annotations

import json

from pitwatch.detectors.digest import digest_of
from pitwatch.detectors.pairs import KIND, PairDetector
from pitwatch.replay import replay_lines
from pitwatch.sim.base import DEALER_ROSTER, simulate


def test_dealers_take_turns_from_a_roster_of_three():
    events = list(simulate(2, 3.0, 4, fault_rates={})[0])
    dealers = [e["dealer_id"] for e in events if e["type"] == "dealer_assigned" and e["table_id"].endswith("01")]
    assert len(dealers) > DEALER_ROSTER and len(set(dealers)) == DEALER_ROSTER
    assert all(a != b for a, b in zip(dealers, dealers[1:]))


def test_the_ring_dealer_over_pays_only_his_partner_while_dealing():
    """Every dealer_collusion label is a bet of P-<table>-001 in a round D-<table>-01 dealt, and
    the engine flags each as an over-payment (a positive payout discrepancy)."""
    stream, labels = simulate(3, 2.0, 5, fault_rates={"dealer_collusion": 0.5})
    events = list(stream)  # labels fill as the events are drawn
    ring = [lb for lb in labels if lb["kind"] == "dealer_collusion"]
    assert ring and {lb["kind"] for lb in labels} == {"dealer_collusion"}
    bets = {e["bet_id"]: e["player_id"] for e in events if e["type"] == "bet_placed"}
    dealer_of: dict[str, str] = {}
    current: dict[str, str] = {}
    for e in events:
        if e["type"] == "dealer_assigned":
            current[e["table_id"]] = e["dealer_id"]
        elif e["type"] == "round_started":
            dealer_of[e["round_id"]] = current[e["table_id"]]
    for lb in ring:
        t = lb["table_id"]
        assert bets[lb["bet_id"]] == f"P-{t}-001" and dealer_of[lb["round_id"]] == f"D-{t}-01"
    flagged = {(c.expected.bet_id) for item in replay_lines([json.dumps(e) for e in events]) if item.verdict
               for c in item.verdict.checks if c.discrepancy > 0}
    assert {lb["bet_id"] for lb in ring} <= flagged


def test_the_pair_detector_finds_a_ring_on_a_long_evening():
    """Two tables, 12 hours, the ring over-paying a fifth of the partner's bets, no other fault:
    both rings alerted, no other pair."""
    events = list(simulate(2, 12.0, 6, fault_rates={"dealer_collusion": 0.2})[0])
    det = PairDetector()
    lines = [json.dumps(e) for e in events]
    alerted = {(a.dealer_id, a.player_id) for item in replay_lines(lines, detectors=False)
               if item.verdict for a in det.observe(digest_of(item.verdict))}
    tables = {e["table_id"] for e in events}
    assert alerted == {(f"D-{t}-01", f"P-{t}-001") for t in tables}
    # the replay's own watch (the casino's detectors, as the worker runs them) alerts the same pairs
    assert {(a.dealer_id, a.player_id) for item in replay_lines(lines) for a in item.alerts if a.kind == KIND} == alerted
