"""End to end for póquer en círculo: the 999 real PHH hands (Absolute Poker, 2009) imported with
``pitwatch import phh`` -> real broker (Tansu) -> Faust worker -> ClickHouse 18.16 server.

The oracle is the offline replay of the same file (``pitwatch.replay.replay_lines``): the warehouse
must hold exactly its settlements and alerts, once each. Two awards are changed before producing (one
pot paid 0.50 too much, one 1.00 too little): those two raise one ``payout_discrepancy`` each, and
the tables' win is the 0.50 the house lost net of the 1.00 kept. The real hands raise no payout
alert; 14 of them had no small blind (a ``procedure`` alert each, tests/rules/test_poker_phh.py), and
11 players played two tables at once (34 pairs of tables, a ``prohibited_play`` alert each of the
watch stage, tests/test_two_tables.py).
"""

from __future__ import annotations

import warnings
from decimal import Decimal
from pathlib import Path

import pytest
from pitwatch.schemas.events import dump_event
from pitwatch.schemas.phh import import_phh
from pitwatch.streams.producer import produce_jsonl
from pitwatch.streams.topics import TOPIC_EVENTS
from pitwatch.warehouse import open_warehouse

from tests.e2e.test_pipeline import assert_matches_oracle, consume_all, replay_oracle, snapshot
from tests.rules.phh import PHH

pytestmark = [pytest.mark.kafka, pytest.mark.clickhouse, pytest.mark.slow]

CHANGES = {0: Decimal("0.50"), 5: Decimal("-1.00")}
"""The n-th ``pot_awarded`` of the file -> what is added to its amount."""


@pytest.fixture(scope="module")
def poker_file(tmp_path_factory) -> Path:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        events = list(import_phh(PHH))
    awards = [i for i, e in enumerate(events) if e.type == "pot_awarded"]
    for n, delta in CHANGES.items():
        e = events[awards[n]]
        events[awards[n]] = e.model_copy(update={"amount": e.amount + delta})
    path = tmp_path_factory.mktemp("poker") / "phh-events.jsonl"
    path.write_bytes(b"".join(dump_event(e) + b"\n" for e in events))
    return path


@pytest.fixture(scope="module")
def poker_oracle(poker_file) -> dict:
    return replay_oracle(poker_file)


def test_the_real_hands_reach_clickhouse_judged_as_the_offline_replay(poker_file, poker_oracle, broker,
                                                                       server_db, tmp_path):
    # 14 dead small blinds; 34 (player, two tables) played at once
    assert poker_oracle["kinds"] == ["payout_discrepancy"] * 2 + ["procedure"] * 14 + ["prohibited_play"] * 34
    produce_jsonl(poker_file, broker.bootstrap, TOPIC_EVENTS)
    # the watch stage's alerts (a player at two tables) come with its round digests: wait for them all
    consume_all(broker.bootstrap, server_db, tmp_path, poker_oracle["lines"], rounds=poker_oracle["rounds"])
    wh = open_warehouse(server_db)
    try:
        snap = snapshot(wh)
        games = wh.query("SELECT game, count(), toString(sum(handle)), toString(sum(win)) "
                         "FROM pitwatch.settlements FINAL GROUP BY game")
        hands = wh.query("SELECT uniqExact(round_id) FROM pitwatch.settlements FINAL")[0][0]
        amounts = sorted(Decimal(r[0]) for r in wh.query(
            "SELECT toString(amount) FROM pitwatch.alerts FINAL WHERE kind = 'payout_discrepancy'"))
    finally:
        wh.close()
    assert snap["events"] == poker_oracle["lines"]
    assert_matches_oracle(snap, poker_oracle)
    assert hands == 999
    ((game, _, handle, win),) = games
    assert game == "poker" and Decimal(win) == Decimal("-0.50") + Decimal("1.00")
    assert Decimal(handle) > 0
    assert amounts == [Decimal("-1.00"), Decimal("0.50")]
