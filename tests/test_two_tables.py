"""One player at two poker tables at once (:mod:`pitwatch.detectors.two_tables`, 004 L4274-L4275,
I.1.10 V.o): hands worked by hand, the same alert whichever hand arrives first, the state as
versioned JSON, and the real hands, whose multi-tabling players are counted from the PHH file itself."""

from __future__ import annotations

import collections
import json
import warnings
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest
from pitwatch.detectors.digest import DigestBet, RoundDigest
from pitwatch.detectors.two_tables import TwoTablesDetector
from pitwatch.replay import replay_lines
from pitwatch.schemas.events import dump_event
from pitwatch.schemas.phh import import_phh

from tests.rules.phh import PHH, real_hands

T0 = datetime(2026, 11, 27, 21, 0, tzinfo=timezone.utc)


def _hand(table: str, n: int, start_min: float, end_min: float, *players: str, game: str = "poker") -> RoundDigest:
    bets = tuple(DigestBet(f"H{n}:{p}", p, Decimal(2), Decimal(0), Decimal(0)) for p in players)
    return RoundDigest("CAS", table, game, f"H{n}", "D-1", T0 + timedelta(minutes=end_min), "poker.andalucia", "h",
                       bets, (), T0 + timedelta(minutes=start_min))


def test_a_player_in_two_hands_at_two_tables_at_the_same_time_is_flagged_citing_v_o():
    """P plays hand H1 at PK-1 from 21:00 to 21:02 and hand H2 at PK-2 from 21:01 to 21:03: one
    prohibited_play alert naming P, both hands as evidence; Q, only at PK-2, is not named."""
    det = TwoTablesDetector()
    assert det.observe(_hand("PK-1", 1, 0, 2, "P")) == []
    (alert,) = det.observe(_hand("PK-2", 2, 1, 3, "P", "Q"))
    assert (alert.kind, alert.player_id, alert.parties) == ("prohibited_play", "P", ("player:P",))
    assert alert.evidence == ("PK-1/H1", "PK-2/H2") and "L4274-L4275" in alert.citation
    assert "21:00:00-21:02:00 UTC" in alert.message


def test_the_alert_is_the_same_whichever_hand_arrives_first_and_is_raised_once():
    a, b = _hand("PK-1", 1, 0, 2, "P"), _hand("PK-2", 2, 1, 3, "P")
    one, two = TwoTablesDetector(), TwoTablesDetector()
    first = one.observe(a) + one.observe(b) + one.observe(_hand("PK-2", 3, 1.5, 4, "P"))
    second = two.observe(b) + two.observe(a)
    assert [x.alert_id for x in first] == [x.alert_id for x in second] and len(first) == 1


@pytest.mark.parametrize("hands", [
    [("PK-1", 1, 0, 2), ("PK-2", 2, 2, 4)],     # he sat down at PK-2 as his hand at PK-1 ended
    [("PK-1", 1, 0, 2), ("PK-1", 2, 1, 3)],     # the same table (the engine sees two seats)
])
def test_no_alert_for_hands_one_after_the_other_or_at_one_table(hands):
    det = TwoTablesDetector()
    assert [a for t, n, s, e in hands for a in det.observe(_hand(t, n, s, e, "P"))] == []


def test_only_poker_and_hands_kept_two_hours():
    """Chemin de fer has no such rule; a hand of more than two hours before a later one is no longer kept."""
    det = TwoTablesDetector()
    assert det.observe(_hand("CF-1", 1, 0, 2, "P", game="chemin_de_fer")) == []
    det.observe(_hand("PK-1", 2, 0, 2, "P"))
    det.observe(_hand("PK-1", 3, 3 * 60, 3 * 60 + 2, "P"))
    assert {t: [h[1] for h in hs] for t, hs in det.hands["P"].items()} == {"PK-1": ["H3"]}


def test_the_state_is_versioned_json_and_round_trips():
    det = TwoTablesDetector()
    det.observe(_hand("PK-1", 1, 0, 2, "P"))
    det.observe(_hand("PK-2", 2, 1, 3, "P"))
    state = json.loads(json.dumps(det.to_state()))
    again = TwoTablesDetector.from_state(state)
    assert again.to_state() == det.to_state()
    assert again.observe(_hand("PK-2", 3, 1, 3, "P")) == []  # the pair of tables was alerted already
    state["version"] = 3
    with pytest.raises(ValueError, match="version 3"):
        TwoTablesDetector.from_state(state)


def test_the_real_hands_multi_tabling_players_are_flagged():
    """Absolute Poker's players played several tables at once (online). Counted from the PHH file
    alone: a player in two hands at two tables that started in the same second was at both at once;
    34 (player, pair of tables) of them, 11 players. The replay flags exactly those."""
    starts: dict[tuple, set[str]] = collections.defaultdict(set)
    for h in real_hands():
        for p in h["players"]:
            starts[(p, h["year"], h["month"], h["day"], h["time"])].add(f"{h['venue']}/{h['table']}")
    want = {(key[0], a, b) for key, tables in starts.items() for a in tables for b in tables if a < b}
    assert (len(want), len({p for p, _, _ in want})) == (34, 11)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        lines = [dump_event(e) for e in import_phh(PHH)]
    got = {(a.player_id, *sorted(e.rpartition("/")[0] for e in a.evidence)) for item in replay_lines(lines)
           for a in item.alerts if a.kind == "prohibited_play"}
    assert got == want
