"""The warehouse sink's retries (tenacity): a batch whose inserts fail for a while is stored once
they succeed, each row once; once the retries are spent, the batch fails (nothing of it may be
committed). A real chDB warehouse behind a wrapper that fails its first inserts."""

from __future__ import annotations

import pytest
from pitwatch.streams.batch_engine import BatchEngine, FatalPipelineError
from pitwatch.streams.processor import BatchProcessor, InMessage
from pitwatch.warehouse import open_warehouse

from tests.test_replay_cli import Events


class Flaky:
    """A warehouse whose first ``failures`` inserts raise ``ConnectionError`` (an outage)."""

    def __init__(self, url: str, failures: int):
        self.inner = open_warehouse(url)
        self.failures = failures
        self.attempts = 0

    def insert_new(self, table: str, rows: list[dict]) -> int:
        self.attempts += 1
        if self.failures:
            self.failures -= 1
            raise ConnectionError("warehouse unreachable")
        return self.inner.insert_new(table, rows)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


def _batch() -> list[InMessage]:
    lines = Events().open().spin_17("R1", straight_paid="350.00").lines
    return [InMessage(b"GAL-RF-09", ln.encode(), 0, i) for i, ln in enumerate(lines)]


def test_inserts_that_fail_for_a_while_are_retried_and_stored_once(chdb_url):
    opened: list[Flaky] = []

    def opener(url: str) -> Flaky:
        opened.append(Flaky(url, failures=2))
        return opened[-1]

    engine = BatchEngine(BatchProcessor, opener, chdb_url, retries=3)
    engine.start()
    result = engine.run(_batch(), {})
    assert result.warehouse_rows > 0 and opened[0].attempts >= 3
    wh = open_warehouse(chdb_url)
    try:
        ids = [r[0] for r in wh.query("SELECT settlement_id FROM pitwatch.settlements")]
        assert len(ids) == len(set(ids)) == 3  # the round's three bets, each once
        kinds = [r[0] for r in wh.query("SELECT kind FROM pitwatch.alerts")]
        assert kinds == ["payout_discrepancy"]
    finally:
        wh.close()


def test_a_batch_fails_once_the_retries_are_spent(chdb_url):
    engine = BatchEngine(BatchProcessor, lambda url: Flaky(url, failures=10), chdb_url, retries=1)
    engine.start()
    with pytest.raises(FatalPipelineError, match="warehouse unreachable"):
        engine.run(_batch(), {})
