"""faust-streaming is pinned (pyproject.toml) to the version whose private internals the worker
overrides (pitwatch/streams/faust_app.py, pitwatch/streams/producer.py): this fails when the
installed Faust is not that version, or when one of those internals no longer has the shape the
overrides assume. Upgrading Faust: read each override against the new code, then update the pin
and the fingerprints below (SHA-256 of ``inspect.getsource``, first 16 hex digits, of Faust
0.15.3's code).
"""

from __future__ import annotations

import hashlib
import inspect
import re
import tomllib
from importlib import metadata
from pathlib import Path

import aiokafka.consumer.consumer as aiokafka_consumer
import faust
import pytest
from faust.transport import consumer as base
from faust.transport.drivers import aiokafka as driver

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

# name: (object, parameters after self, fingerprint of Faust 0.15.3's source)
OVERRIDDEN = {
    "App._new_transport": (faust.App._new_transport, [], "42db531312dd776f"),
    "Consumer._add_gap": (base.Consumer._add_gap, ["tp", "offset_from", "offset_to"], "4df2573ded7c1c2c"),
    "Consumer._new_offset": (base.Consumer._new_offset, ["tp"], "1d2c7ea89a7ad4f1"),
    "Consumer.__init__ (the _acked, _acked_index, _gap maps)": (
        base.Consumer.__init__, ["transport", "callback", "on_partitions_revoked", "on_partitions_assigned",
                                 "commit_interval", "commit_livelock_soft_timeout", "loop", "kwargs"],
        "302410d59e6972d1"),
    "aiokafka Consumer._new_consumer_thread": (driver.Consumer._new_consumer_thread, [], "0870ec53dea75083"),
    "aiokafka Consumer.perform_seek": (driver.Consumer.perform_seek, [], "0e8c130ff4b0afd8"),
    "aiokafka Consumer.seek_to_committed": (driver.Consumer.seek_to_committed, [], "f1d483b861b0328b"),
    "AIOKafkaConsumerThread._create_worker_consumer": (
        driver.AIOKafkaConsumerThread._create_worker_consumer, ["transport"], "c2701bfc3e6f6cad"),
    "aiokafka Producer._settings_extra": (driver.Producer._settings_extra, [], "a4c7bc41b6382223"),
    "aiokafka Producer._new_producer": (driver.Producer._new_producer, ["transactional_id"], "e72355c3430ed02f"),
}


def _pin() -> str:
    deps = tomllib.loads(PYPROJECT.read_text("utf-8"))["project"]["dependencies"]
    (req,) = [d for d in deps if re.match(r"faust-streaming\b", d)]
    m = re.fullmatch(r"faust-streaming\s*==\s*([\w.]+)", req.strip())
    assert m, f"faust-streaming must be pinned with ==, not {req!r}"
    return m.group(1)


def test_faust_is_pinned_and_the_pinned_version_is_installed():
    assert _pin() == "0.15.3"
    assert metadata.version("faust-streaming") == _pin()


@pytest.mark.parametrize("name", list(OVERRIDDEN))
def test_an_overridden_internal_is_unchanged(name):
    obj, params, fingerprint = OVERRIDDEN[name]
    got = [p for p in inspect.signature(obj).parameters if p != "self"]
    assert got == params, f"{name}: parameters changed"
    digest = hashlib.sha256(inspect.getsource(obj).encode()).hexdigest()[:16]
    assert digest == fingerprint, f"{name}: Faust's code changed; read the override against it"


def test_the_shapes_the_overrides_rely_on():
    # _add_gap records [offset_from, offset_to] inclusive: the override passes offset_to - 1 to
    # leave out the message that revealed the gap
    assert "gap_for_tp.addi(offset_from, offset_to + 1)" in inspect.getsource(base.Consumer._add_gap)
    # _new_offset merges the gap intervals that begin below the highest acked offset into
    # self._acked[tp] (merge_gap_offsets does the same merge first, each offset once)
    new_offset = inspect.getsource(base.Consumer._new_offset)
    assert "acked = self._acked[tp]" in new_offset and "self._gap[tp]" in new_offset
    assert "gap_for_tp.overlap(0, max_offset)" in new_offset
    init = inspect.getsource(base.Consumer.__init__)
    for line in ("self._gap = defaultdict(IntervalTree)", "self._acked = defaultdict(list)",
                 "self._acked_index = defaultdict(set)"):
        assert line in init
    # the producer's settings: _settings_extra applied last, so enable_idempotence set there wins
    assert re.search(r"\*\*self\._settings_default\(\),\s*\*\*self\._settings_auth\(\),\s*"
                     r"\*\*self\._settings_extra\(\)", inspect.getsource(driver.Producer._new_producer))
    # the transport classes the app swaps in
    assert driver.Transport.Consumer is driver.Consumer and driver.Transport.Producer is driver.Producer
    # aiokafka hands the consumer's _fetch_max_wait_ms to its fetcher at start
    assert "fetch_max_wait_ms=self._fetch_max_wait_ms" in inspect.getsource(aiokafka_consumer.AIOKafkaConsumer.start)
