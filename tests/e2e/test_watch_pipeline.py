"""End to end for the watch stage: an evening whose dealers err at random and whose first dealer at
each table over-pays his partner (``dealer_collusion``), simulator -> real broker (Tansu) -> Faust
worker (table stage -> ``pitwatch.round-digests`` keyed by casino -> watch stage) -> ClickHouse 18.16.

The oracle is the offline replay of the same file, which runs the same detectors per casino
(:func:`pitwatch.replay.replay_lines`): the warehouse must hold exactly its alerts, the rings'
``dealer_player_collusion`` alerts among them, each naming both parties, and each once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pitwatch.detectors.pairs import KIND as COLLUSION
from pitwatch.sim import write_simulation
from pitwatch.sim.base import DEFAULT_FAULT_RATES
from pitwatch.streams.producer import produce_jsonl
from pitwatch.streams.topics import TOPIC_EVENTS
from pitwatch.warehouse import open_warehouse

from tests.e2e.test_pipeline import assert_matches_oracle, consume_all, replay_oracle, snapshot

pytestmark = [pytest.mark.kafka, pytest.mark.clickhouse, pytest.mark.slow]


@pytest.fixture(scope="module")
def ring_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("watch") / "rings.jsonl"
    write_simulation(path, tables=3, hours=4.0, seed=1, fault_rates=dict(DEFAULT_FAULT_RATES, dealer_collusion=0.3))
    return path


def test_the_rings_are_alerted_by_the_watch_stage_as_by_the_offline_replay(ring_file, broker, server_db, tmp_path):
    oracle = replay_oracle(ring_file)
    assert oracle["kinds"].count(COLLUSION) == 3  # the three tables' rings (bench/detection.py finds them)
    produce_jsonl(ring_file, broker.bootstrap, TOPIC_EVENTS)
    consume_all(broker.bootstrap, server_db, tmp_path, oracle["lines"], rounds=oracle["rounds"])
    wh = open_warehouse(server_db)
    try:
        snap = snapshot(wh)
        rings = sorted(tuple(r) for r in wh.query(
            f"SELECT dealer_id, player_id, table_id FROM pitwatch.alerts FINAL WHERE kind = '{COLLUSION}'"))
        named = wh.query(f"SELECT parties, score FROM pitwatch.alerts FINAL WHERE kind = '{COLLUSION}' ORDER BY dealer_id")
    finally:
        wh.close()
    assert_matches_oracle(snap, oracle)
    assert [(d, p) for d, p, _ in rings] == [(f"D-{t}-01", f"P-{t}-001") for _, _, t in rings]
    # both parties named, with the detector's score (-log10 of its p-value, below 1e-6)
    assert [list(parties) for parties, _ in named] == [[f"dealer:{d}", f"player:{p}"] for d, p, _ in rings]
    assert all(score > 6 for _, score in named)
