"""End to end for chemin de fer: a simulated evening of two chemin de fer tables (Galicia, Andalucía) with
the croupiers' faults and an association ring at each, simulator -> real broker (Tansu) -> Faust worker
(table stage, then the watch stage per casino) -> ClickHouse 18.16 server.

The oracle is the offline replay of the same file (:func:`pitwatch.replay.replay_lines`, the engine and
the casino's detectors): the warehouse must hold exactly its settlements and alerts, once each. Every euro
staked comes back to a punter or a banker but the cagnotte: each table's win is the cagnotte its croupier
put in the slot (the ``rake_taken`` events), the wrong cagnottes included; both rings are alerted
(:func:`tests.e2e.banked.assert_coups_reach_clickhouse`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pitwatch.sim import write_simulation
from pitwatch.sim.base import default_floor

from tests.e2e.banked import RATES, assert_coups_reach_clickhouse

pytestmark = [pytest.mark.kafka, pytest.mark.clickhouse, pytest.mark.slow]

TABLES = default_floor(0, chemin_de_fer=2)


@pytest.fixture(scope="module")
def cdf_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cdf") / "chemin-de-fer.jsonl"
    write_simulation(path, tables=TABLES, hours=6.0, seed=4, fault_rates=RATES)
    return path


def test_the_coups_reach_clickhouse_judged_as_the_offline_replay(cdf_file, broker, server_db, tmp_path):
    oracle = assert_coups_reach_clickhouse(cdf_file, TABLES, broker, server_db, tmp_path)
    assert {"rake_discrepancy", "prohibited_play", "payout_discrepancy", "illegal_decision", "duplicate_event",
            "association"} <= set(oracle["kinds"])
    assert oracle["kinds"].count("association") == 2
