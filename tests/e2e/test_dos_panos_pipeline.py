"""End to end for bacará a dos paños: a simulated evening of two dos paños tables (Galicia with a limited
bank, Andalucía with a free one) with the croupiers' faults and an association ring at each, simulator ->
real broker (Tansu) -> Faust worker (table stage, then the watch stage per casino) -> ClickHouse 18.16
server.

The oracle is the offline replay of the same file: the warehouse must hold exactly its settlements and
alerts, once each. Every euro staked comes back to a punter or a banker but the cagnotte (on the bank's net
win, 2% limitada, 1.25% libre: 000 L799, L829): each table's win is the cagnotte its croupier put in the
slot, the wrong ones included; both rings are alerted (:func:`tests.e2e.banked.assert_coups_reach_clickhouse`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pitwatch.sim import write_simulation
from pitwatch.sim.base import default_floor

from tests.e2e.banked import RATES, assert_coups_reach_clickhouse

pytestmark = [pytest.mark.kafka, pytest.mark.clickhouse, pytest.mark.slow]

TABLES = default_floor(0, dos_panos=2)


@pytest.fixture(scope="module")
def dos_panos_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("dp") / "dos-panos.jsonl"
    write_simulation(path, tables=TABLES, hours=6.0, seed=4, fault_rates=RATES)
    return path


def test_the_coups_reach_clickhouse_judged_as_the_offline_replay(dos_panos_file, broker, server_db, tmp_path):
    assert [(t.ruleset_id, t.options["bank"]) for t in TABLES] == [
        ("bacara_dos_panos.galicia", "limitada"), ("bacara_dos_panos.andalucia", "libre")]
    oracle = assert_coups_reach_clickhouse(dos_panos_file, TABLES, broker, server_db, tmp_path)
    assert {"rake_discrepancy", "prohibited_play", "illegal_decision", "duplicate_event",
            "association"} <= set(oracle["kinds"])
    assert oracle["kinds"].count("association") == 2
