"""End to end for chemin de fer: a simulated evening of two chemin de fer tables (Galicia, Andalucía) with
the croupiers' faults and an association ring at each, simulator -> real broker (Tansu) -> Faust worker
(table stage, then the watch stage per casino) -> ClickHouse 18.16 server.

The oracle is the offline replay of the same file (:func:`pitwatch.replay.replay_lines`, the engine and
the casino's detectors): the warehouse must hold exactly its settlements and alerts, once each. Every euro
staked comes back to a punter or a banker but the cagnotte: each table's win is the cagnotte its croupier
put in the slot (the ``rake_taken`` events), the wrong cagnottes included; both rings are alerted.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from pitwatch.sim import write_simulation
from pitwatch.sim.base import default_floor, ring_parties
from pitwatch.streams.producer import produce_jsonl
from pitwatch.streams.topics import TOPIC_EVENTS
from pitwatch.warehouse import open_warehouse

from tests.e2e.test_pipeline import assert_matches_oracle, consume_all, replay_oracle, snapshot

pytestmark = [pytest.mark.kafka, pytest.mark.clickhouse, pytest.mark.slow]

TABLES = default_floor(0, chemin_de_fer=2)
RATES = {"wrong_cagnotte": 0.05, "joined_stake": 0.05, "illegal_decision": 0.2, "duplicated_event": 0.003,
         "chips_missing": 0.3, "association": 1.0}
"""The croupiers' faults that leave every chip where the events say (no payment off, no event lost): the
tables' win is then exactly the cagnotte recorded."""


@pytest.fixture(scope="module")
def cdf_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cdf") / "chemin-de-fer.jsonl"
    write_simulation(path, tables=TABLES, hours=6.0, seed=4, fault_rates=RATES)
    return path


def test_the_coups_reach_clickhouse_judged_as_the_offline_replay(cdf_file, broker, server_db, tmp_path):
    oracle = replay_oracle(cdf_file)
    kinds = set(oracle["kinds"])
    assert {"rake_discrepancy", "prohibited_play", "payout_discrepancy", "illegal_decision", "duplicate_event",
            "association"} <= kinds
    assert oracle["kinds"].count("association") == 2
    events = {e["event_id"]: e for e in map(json.loads, cdf_file.read_text().splitlines())}  # each once
    cagnotte: dict[str, Decimal] = {}
    for e in events.values():
        if e["type"] == "rake_taken":
            cagnotte[e["table_id"]] = cagnotte.get(e["table_id"], Decimal(0)) + Decimal(e["amount"])
    produce_jsonl(cdf_file, broker.bootstrap, TOPIC_EVENTS)
    consume_all(broker.bootstrap, server_db, tmp_path, oracle["lines"], rounds=oracle["rounds"])
    wh = open_warehouse(server_db)
    try:
        snap = snapshot(wh)
        wins = {t: Decimal(w) for t, w in wh.query(
            "SELECT table_id, toString(sum(win)) FROM pitwatch.settlements FINAL GROUP BY table_id")}
        rings = sorted(tuple(p) for (p,) in wh.query("SELECT parties FROM pitwatch.alerts FINAL WHERE kind = 'association'"))
    finally:
        wh.close()
    assert snap["events"] <= oracle["lines"]  # a duplicated event is stored once
    assert_matches_oracle(snap, oracle)
    # every euro staked came back to a punter or the banker but what went in the cagnotte's slot
    assert wins == cagnotte and all(w > 0 for w in wins.values())
    assert rings == sorted(tuple(f"player:{p}" for p in ring_parties("association", t.table_id)) for t in TABLES)
