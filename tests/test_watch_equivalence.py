"""The cross-round alerts of an evening long enough for the rings to be found: live = ``replay file``.

:mod:`tests.test_verdict_equivalence` judges half-hour evenings three ways, the live path through
the table stage and the watch stage. Half an hour is too short for most cross-round detectors: a
dealer and his partner are alerted once the dealer has a baseline of a hundred bets
(:mod:`pitwatch.detectors.pairs`), two punters staking in lockstep once they have staked together
thirty times (:mod:`pitwatch.detectors.association`). So here one casino's evening of two hours: a
french roulette table whose first dealer over-pays his partner on every bet while he deals
(``dealer_collusion``) and a bacará a dos paños table whose ring of two punters stakes in lockstep
(``association``), with payout errors, dropped and duplicated events, injected rule breaks and
invalid lines, two partitions, batches of 50 and crashes whose batch comes again without the states
stored (so the table stage sends those batches' digests again at new offsets, which the watch must
read once).

The same machinery and oracle as :mod:`tests.test_verdict_equivalence`: every cross-round alert, every
field (id, kind, parties, message, evidence, score, ``detected_at``, amount), live (the warehouse the
two stages sank into) equals ``replay file``; so do every round's settlements and alerts, the
table-level alerts and the rejected messages. ``replay round`` (a CLI run per round) is run on every
sixth round with a stored event, so the test stays within a minute of the half-hour evenings'.

The poker rings (chip dumping, soft play, whipsaw) are not here: the simulator deals about 25 hands an
hour, and their detectors need hundreds of hands (bench/poker_rings.py); their cross-round alerts'
live and offline agreement is that of the same watch stage (:mod:`tests.test_watch_order`), and a
player at two poker tables (``prohibited_play``) is in the half-hour evenings' ``ALL_ON``.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections import Counter

import pytest
from pitwatch.sim.base import FAULT_KINDS, ring_parties
from pitwatch.streams.topics import TOPIC_ROUND_DIGESTS
from pitwatch.warehouse import open_warehouse

from tests.test_verdict_equivalence import FLOOR, Evening, compare, judge_three_ways

RING_RATES = {**{k: 0.0 for k in FAULT_KINDS}, "wrong_payout": 0.02, "dropped_event": 0.002,
              "duplicated_event": 0.005, "dealer_collusion": 1.0, "association": 1.0}

RINGS = Evening(
    seed=1, specs=[FLOOR["french_roulette"][0], FLOOR["bacara_dos_panos"][0]], hours=2.0, rates=RING_RATES,
    injections=[("late_bet", 0, 5), ("over_maximum_bet", 1, 9), ("duplicate_event_id", 0, 12),
                ("unknown_bet_settled", 1, 20), ("limits_changed", 0, 30), ("stale_seq", 1, 40)],
    invalid=[("truncated", 0, 100, False), ("not_an_object", 1, 700, True)],
    partitions=2, batch=50, flush_every=5, crashes=frozenset({3, 8, 20, 41}), crash_stores_state=False,
    order_seed=7)
"""Seed 1 deals both rings enough for their detectors (found by running it: 71 roulette rounds, 99
coups); a table closed and opened again mid-evening is left out, so no round may be late."""

SMALL_BATCHES = dataclasses.replace(RINGS, partitions=3, batch=7, flush_every=1000, crashes=frozenset({2, 50, 300}),
                                    crash_stores_state=True, order_seed=3)
"""The same evening in batches of 7 (the watch's states stored and loaded some 700 times), three
partitions, crashes after the states were stored (the batch comes again and is skipped)."""


@pytest.mark.parametrize("ev", [RINGS, SMALL_BATCHES], ids=["batches-of-50", "batches-of-7"])
def test_the_rings_are_alerted_live_as_by_the_replay_every_field(ev, chdb_path, tmp_path):
    url = f"chdb://{chdb_path}?database=t_{uuid.uuid4().hex[:12]}"
    try:
        live, one, file, done, replayed = judge_three_ways(ev, url, tmp_path, every=6)
        with open_warehouse(url) as wh:
            resent = [r for r in wh.rows("skipped") if r["topic"] == TOPIC_ROUND_DIGESTS]
        compare(live, one, file, replayed)
    finally:
        with open_warehouse(url) as wh:
            wh.drop_database()
    assert set(done) == {k for k, _, _ in RINGS.injections} | {k for k, _, _, _ in RINGS.invalid}
    assert len(replayed) >= 20
    if ev.crash_stores_state:  # the batches that came again were skipped (their offsets applied)
        assert resent and all("redelivered" in r["reason"] for r in resent)
    else:  # the digests the crashed batches sent again were read once (each stored as skipped)
        assert resent and all("already received" in r["reason"] for r in resent)
    found = {c[1]: c for c in live.cross.values()}
    assert Counter(c[1] for c in live.cross.values()) == {"dealer_player_collusion": 1, "association": 1}
    roulette, dos_panos = (s.table_id for s in RINGS.specs)
    dealer, partner = ring_parties("dealer_collusion", roulette)
    assert found["dealer_player_collusion"][12] == (f"dealer:{dealer}", f"player:{partner}")
    assert set(found["association"][12]) == {f"player:{p}" for p in ring_parties("association", dos_panos)}
