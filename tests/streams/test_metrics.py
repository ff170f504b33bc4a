"""The worker's Prometheus metrics: the status counters over HTTP, parsed back with
prometheus-client's own text parser (a second reader of the format)."""

from __future__ import annotations

import urllib.request

import pytest
from pitwatch.streams.config import KafkaSettings
from pitwatch.streams.metrics import serve_metrics
from pitwatch.streams.status import WorkerStatus
from prometheus_client.parser import text_string_to_metric_families


def scrape(url: str) -> dict[tuple[str, tuple], float]:
    """``{(sample name, sorted labels): value}`` of a /metrics page."""
    with urllib.request.urlopen(url, timeout=10) as resp:
        text = resp.read().decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for fam in text_string_to_metric_families(text) for s in fam.samples}


def test_metrics_serve_the_status_counters_at_each_scrape():
    """Issue 7 §2: what the worker skips or parks is visible in its metrics as in its status."""
    status = WorkerStatus(None)
    status.consumed, status.rejected, status.batches = 100, 3, 4
    status.add_counters({"consumed": 100, "skipped": 12, "parked": 5})
    server = serve_metrics(status, "127.0.0.1:0")
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/metrics"
        got = scrape(url)
        for counter, value in {"consumed": 100, "rejected": 3, "skipped": 12, "parked": 5}.items():
            assert got[("pitwatch_messages_total", (("counter", counter),))] == value
        assert got[("pitwatch_batches_total", ())] == 4
        assert ("pitwatch_stage_seconds_total", (("stage", "warehouse"),)) in got
        status.add_counters({"skipped": 3})  # read afresh at every scrape
        assert scrape(url)[("pitwatch_messages_total", (("counter", "skipped"),))] == 15
    finally:
        server.shutdown()


@pytest.mark.parametrize("address", ["9464", "localhost", "localhost:http", ":9464", "h:70000"])
def test_a_malformed_metrics_address_is_a_clear_settings_error(address):
    with pytest.raises(ValueError, match="is not HOST:PORT"):
        KafkaSettings.from_env(metrics_address=address)
