"""The chip-dumping detector (:mod:`pitwatch.detectors.chip_dumping`): the folds of a hand worked by
hand, a ring found among players who win and fold at random and nobody else, a timid player folding
to an aggressive one not blamed on the pair, the state as versioned JSON, no alert on the 999 real
hands, and the poker simulator's ring found through the casino's watch (the replay's detectors)."""

from __future__ import annotations

import json
import random
import warnings
from datetime import datetime, timezone
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.detectors.chip_dumping import KIND, ChipDumpingDetector, fold_flows
from pitwatch.detectors.digest import DigestBet, RoundDigest
from pitwatch.replay import replay_lines
from pitwatch.schemas.events import dump_event
from pitwatch.schemas.phh import import_phh
from pitwatch.sim.base import default_floor, simulate
from pitwatch.sim.poker import ring_of

from tests.rules.phh import PHH

D = Decimal
T = datetime(2026, 11, 25, 21, 0, tzinfo=timezone.utc)


def _hand(n: int, parts: dict[str, tuple[str, str, str, str]]) -> RoundDigest:
    """A hand at table PK-1: player -> (put in, of it forced, returned, outcome)."""
    bets = tuple(DigestBet(f"H{n}:{p}", p, D(s), D(r), D(0), False, D(f), o) for p, (s, f, r, o) in parts.items())
    return RoundDigest("CAS", "PK-1", "poker", f"H{n}", "D-1", T, "poker.andalucia", "h", bets)


def test_a_folders_chips_are_shared_among_the_gainers_in_proportion_to_their_gains():
    """A posted the small blind (1.00), put in 11.00 more and folded: he lost 11.00 of his own choice.
    B posted the big blind (2.00) and folded: nothing of his choice. E lost 16.00 at the showdown: the
    cards' doing, no contest. C won 20.00 net, D 10.00: A's 11.00 go 7.33 to C (20/30) and 3.66 to D
    (10/30), rounded down to the cent."""
    hand = _hand(1, {"A": ("12", "1", "0", "fold"), "B": ("2", "2", "0", "fold"), "C": ("30", "0", "50", "win"),
                     "D": ("20", "0", "30", "win"), "E": ("16", "0", "0", "lose")})
    assert fold_flows(hand) == [("A", "C", D("7.33")), ("A", "D", D("3.66"))]


_parts = st.dictionaries(
    st.sampled_from(["A", "B", "C", "D", "E"]),
    st.tuples(st.integers(0, 5000), st.integers(0, 300), st.integers(0, 20000), st.booleans()),
    min_size=2, max_size=5)


@given(_parts)
@settings(max_examples=300, deadline=None)
def test_a_hands_flows_never_exceed_what_a_folder_chose_to_put_in_and_go_only_to_gainers(parts):
    """Whatever the hand: each flow is from a player who folded to a player who gained, at least 0,
    and a folder's flows add up to at most what he lost of the chips he chose to put in (the rest is
    lost to rounding down to the cent)."""
    bets = {p: (D(s).scaleb(-2), min(D(f).scaleb(-2), D(s).scaleb(-2)), D(r).scaleb(-2), folded)
            for p, (s, f, r, folded) in parts.items()}
    hand = _hand(1, {p: (str(s), str(f), "0" if folded else str(r), "fold" if folded else "win" if r > s else "lose")
                     for p, (s, f, r, folded) in bets.items()})
    net = {b.player_id: b.returned - b.stake for b in hand.bets}
    flows = fold_flows(hand)
    for folder, gainer, euros in flows:
        assert euros >= 0 and net[gainer] > 0 and folder != gainer
        assert next(b.outcome for b in hand.bets if b.player_id == folder) == "fold"
    for b in hand.bets:
        passed = sum((e for f, _, e in flows if f == b.player_id), D(0))
        assert passed <= max(min(b.stake - b.returned, b.stake - b.forced), D(0))


def _table(hands: int, seed: int, *, ring: bool = False, styles: bool = False) -> tuple[ChipDumpingDetector, list]:
    """``hands`` hands among P1..P8: two to four of them active, one wins, the others fold (each puts
    in 2-6 euros of his own). ``ring``: in a third of the hands P2 and P3 both play and P2 folds to
    P3. ``styles``: P5 makes the others fold three times in four when he plays, P6 folds three times
    in four whoever he plays."""
    rng = random.Random(seed)
    det, alerts = ChipDumpingDetector(), []
    players = [f"P{i}" for i in range(1, 9)]
    for n in range(hands):
        seated = rng.sample(players, rng.randint(2, 4))
        if ring and n % 3 == 0:
            seated = ["P2", "P3"] + [p for p in seated if p not in ("P2", "P3")][:1]
            winner = "P3"
        elif styles and "P5" in seated and rng.random() < 0.75:
            winner = "P5"
        elif styles and "P6" in seated and rng.random() < 0.75:
            winner = rng.choice([p for p in seated if p != "P6"])
        else:
            winner = rng.choice(seated)
        put = {p: D(rng.choice((2, 4, 6))) for p in seated}
        pot = sum(put.values(), D(0))
        alerts += det.observe(_hand(n, {p: (str(s), "0", str(pot) if p == winner else "0",
                                            "win" if p == winner else "fold") for p, s in put.items()}))
    return det, alerts


def test_a_ring_is_found_and_nobody_else():
    """P2 folds a third of the hands to P3 on purpose: only (P2 -> P3) is alerted, once, naming both."""
    _, alerts = _table(3000, 1, ring=True)
    assert [(a.kind, a.player_id, a.parties) for a in alerts] == [(KIND, "P2", ("player:P2", "player:P3"))]
    assert alerts[0].amount > 0 and "P3" in alerts[0].message and alerts[0].score > 7
    assert all(e.startswith("PK-1/H") for e in alerts[0].evidence)


def test_a_timid_player_folding_to_an_aggressive_one_is_not_a_ring():
    """P6 folds three contests in four and P5 makes the others fold three times in four, against
    everybody: their pair is what both show with the others (the log5 null), nothing is alerted."""
    det, alerts = _table(4000, 2, styles=True)
    assert alerts == []
    folds, contests, rate, z, _ = det.score("P6", "P5")
    assert folds / contests > 0.75 and rate > 0.75 and z < 3


@pytest.mark.parametrize("seed", [10, 11, 12])
def test_no_alert_among_players_who_win_at_random(seed):
    assert _table(4000, seed)[1] == []


def test_the_state_is_versioned_json_and_round_trips():
    det, _ = _table(300, 3, ring=True)
    state = json.loads(json.dumps(det.to_state()))
    again = ChipDumpingDetector.from_state(state)
    assert again.to_state() == det.to_state() and again.score("P2", "P3") == det.score("P2", "P3")
    state["version"] = 99
    with pytest.raises(ValueError, match="version 99"):
        ChipDumpingDetector.from_state(state)


def test_no_alert_on_the_999_real_hands():
    """Real play (Absolute Poker, 2009), through the casino's watch as the pipeline runs it: every
    alert would be a false alarm; there is none."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        lines = [dump_event(e) for e in import_phh(PHH)]
    assert [a for item in replay_lines(lines) for a in item.alerts if a.kind == KIND] == []


def test_the_simulated_ring_is_found_and_no_honest_pair():
    """The poker simulator's ring (its second player bets and folds to its third on half the hands
    they play together) over 60 hours (about 1,300 hands): the ring is alerted, no other pair."""
    spec = next(s for s in default_floor(8) if s.game == "poker")
    events, labels = simulate([spec], 60, 4, fault_rates={"chip_dumping": 0.5})
    alerts = [a for item in replay_lines(json.dumps(e) for e in events) for a in item.alerts if a.kind == KIND]
    dumper, gainer = ring_of(spec.table_id)
    assert labels and [a.parties for a in alerts] == [(f"player:{dumper}", f"player:{gainer}")]
