"""The worker's metrics for Prometheus: the status counters served over HTTP (prometheus-client).

``pitwatch worker --metrics-address HOST:PORT`` (env ``PITWATCH_METRICS_ADDRESS``) serves
``/metrics`` in the Prometheus text format, read at each scrape from the same counters as the
status file (:mod:`pitwatch.streams.status`), so the two never disagree:

=======================================  ==================================================
``pitwatch_messages_total{counter=...}``  input messages: ``consumed``, ``rejected``,
                                          ``skipped`` (redelivered, already applied), ``parked``
                                          (quarantined table), and any processor counter
``pitwatch_batches_total``                batches processed and committed
``pitwatch_produced_total``               output messages produced
``pitwatch_warehouse_rows_total``         rows handed to the warehouse sink
``pitwatch_states_written_total``         table states written to the changelog
``pitwatch_gap_filled_total``             messages read from Kafka because Faust skipped them
``pitwatch_stage_seconds_total{stage=}``  cumulative seconds per stage (the status timings)
``pitwatch_status_updated_seconds``       UNIX time of the last status update
=======================================  ==================================================

Off by default: the address is the operator's choice (``0.0.0.0:9464`` to be scraped from
other hosts).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pitwatch.streams.config import parse_address
from pitwatch.streams.status import WorkerStatus
from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

TOTALS = {
    "batches": "Batches processed and committed.",
    "produced": "Output messages produced.",
    "warehouse_rows": "Rows handed to the warehouse sink.",
    "states_written": "Table states written to the changelog.",
    "gap_filled": "Messages read directly from Kafka because Faust skipped their offsets.",
}


class StatusCollector(Collector):
    """Reads a :class:`~pitwatch.streams.status.WorkerStatus` at each scrape (module docstring)."""

    def __init__(self, status: WorkerStatus) -> None:
        self.status = status

    def _document(self) -> dict[str, Any]:
        for _ in range(3):  # the event loop may add a counter while the scrape reads them
            try:
                return self.status.document()
            except RuntimeError:
                continue
        return self.status.document()

    def collect(self) -> Iterator[Metric]:
        doc = self._document()
        messages = CounterMetricFamily("pitwatch_messages", "Input messages the worker took in, by what "
                                       "became of them (the status file's counters).", labels=["counter"])
        for name, value in sorted(doc["counters"].items()):
            messages.add_metric([name], value)
        yield messages
        for name, text in TOTALS.items():
            yield CounterMetricFamily(f"pitwatch_{name}", text, value=doc[name])
        stages = CounterMetricFamily("pitwatch_stage_seconds", "Cumulative seconds per stage of the "
                                     "worker's loop.", labels=["stage"])
        for stage, seconds in doc["timings"].items():
            stages.add_metric([stage], seconds)
        yield stages
        yield GaugeMetricFamily("pitwatch_status_updated_seconds", "UNIX time of the last status update.",
                                value=doc["updated_at"])


def serve_metrics(status: WorkerStatus, address: str) -> Any:
    """Serve ``status`` on ``http://address/metrics`` from a daemon thread; returns the HTTP
    server (``server_address`` holds the port bound; ``shutdown()`` stops it). Raises
    ``ValueError`` for a malformed address and ``OSError`` if it cannot be bound."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(StatusCollector(status))
    host, port = parse_address(address)
    server, _thread = start_http_server(port, host, registry=registry)
    return server
