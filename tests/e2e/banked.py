"""What the end-to-end tests of the player-banked baccarats share (chemin de fer, bacará a dos paños): a
simulated evening of the game's tables, with the croupiers' faults that leave every chip where the events
say and an association ring at each table, through the real broker (Tansu), the Faust worker and ClickHouse
18.16, checked against the offline replay of the same file (:func:`tests.e2e.test_pipeline.replay_oracle`).
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from pitwatch.sim.base import TableSpec, ring_parties
from pitwatch.streams.producer import produce_jsonl
from pitwatch.streams.topics import TOPIC_EVENTS
from pitwatch.warehouse import open_warehouse

from tests.e2e.test_pipeline import assert_matches_oracle, consume_all, replay_oracle, snapshot

RATES = {"wrong_cagnotte": 0.05, "joined_stake": 0.05, "illegal_decision": 0.2, "duplicated_event": 0.003,
         "chips_missing": 0.3, "association": 1.0}
"""The croupiers' faults that leave every chip where the events say (no payment off, no event lost): the
tables' win is then exactly the cagnotte recorded."""


def assert_coups_reach_clickhouse(path: Path, tables: list[TableSpec], broker, server_db: str, tmp_path: Path) -> dict:
    """Produce the evening ``path`` (of ``tables``) to the broker, consume it with the worker into
    ``server_db`` and check: the warehouse holds exactly the offline replay's settlements and alerts, once
    each (a duplicated event stored once); each table's win is the cagnotte its croupier put in the slot
    (the ``rake_taken`` events, the wrong ones included) and positive; the association alerts are each
    table's ring, and no other pair. Returns the oracle."""
    oracle = replay_oracle(path)
    events = {e["event_id"]: e for e in map(json.loads, path.read_text().splitlines())}  # each once
    cagnotte: dict[str, Decimal] = {}
    for e in events.values():
        if e["type"] == "rake_taken":
            cagnotte[e["table_id"]] = cagnotte.get(e["table_id"], Decimal(0)) + Decimal(e["amount"])
    produce_jsonl(path, broker.bootstrap, TOPIC_EVENTS)
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
    assert rings == sorted(tuple(f"player:{p}" for p in ring_parties("association", t.table_id)) for t in tables)
    return oracle
