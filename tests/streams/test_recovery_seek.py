"""Messages fetched while Faust's recovery seeks are not lost to the stream.

Faust's ``Recovery._resume_streams`` resumes the stream partitions, awaits
``consumer.perform_seek()``, then calls ``app.flow_control.resume()``, which empties every stream
queue. A message the fetcher delivered during the seek was dropped there, with Faust's read
offset already past it: a worker restarted on partitions with nothing committed took in nothing
(seen in the crash-point tests as a restarted worker idle until restarted again), or never
committed again. The worker's consumer suspends flow control before the seek, so that message
waits (as Faust's conductor does, ``acquire_flow_control`` before the queue) and is delivered
after the resume. The objects are mode's real flow-control event and queue.

Faust's fetcher can also take records of a partition from aiokafka and not deliver them: its
``getmany`` drops records of partitions outside the set of active partitions, a set that the
recovery changes while a fetch is pending (seen with traces: a restarted worker's whole input,
fetched just before the recovery's seek, dropped so, with aiokafka's position at the end). The
recovery's seek to the committed offsets puts such a partition back, but aiokafka's
``seek_to_committed`` does not move a partition whose committed offset is missing or 0, so a
worker restarted after a crash before its first commit took in nothing. The worker's consumer
seeks those input partitions to their earliest offset.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from faust.transport.drivers import aiokafka as driver
from mode.utils.queues import FlowControlEvent, FlowControlQueue
from pitwatch.streams.faust_app import _consumer_class


def _resume_streams_with_a_fetch_during_the_seek(monkeypatch) -> int:
    """What ``Recovery._resume_streams`` does (seek, then resume flow control) while the fetcher
    delivers one message during the seek; returns how many messages the stream queue holds."""

    async def scenario() -> int:
        fc = FlowControlEvent(initially_suspended=False)
        queue: FlowControlQueue = FlowControlQueue(flow_control=fc, clear_on_resume=True)
        delivered: list[asyncio.Task] = []

        async def faust_seek(self) -> None:  # the fetcher runs while the seek is awaited
            async def conductor_on_message() -> None:
                await fc.acquire()
                queue.put_nowait("message at the committed position")
            delivered.append(asyncio.ensure_future(conductor_on_message()))
            await asyncio.sleep(0.01)

        monkeypatch.setattr(driver.Consumer, "perform_seek", faust_seek)
        cls = _consumer_class()
        consumer = cls.__new__(cls)  # only what perform_seek reads
        consumer.flow_active = True
        consumer.app = SimpleNamespace(flow_control=fc)
        await consumer.perform_seek()
        fc.resume()  # Recovery: "Resuming flow..." (clears the stream queues)
        await asyncio.wait_for(asyncio.gather(*delivered), 5)
        return queue.qsize()

    return asyncio.run(scenario())


def test_a_message_fetched_during_the_recovery_seek_reaches_the_stream(monkeypatch):
    assert _resume_streams_with_a_fetch_during_the_seek(monkeypatch) == 1


def _seek_to_committed(monkeypatch, committed: dict, earliest: dict) -> tuple[dict, list]:
    """The worker consumer's ``seek_to_committed`` over Faust's, which returns ``committed``
    (``{TP: offset or None}``); returns its result and the ``seek_wait`` calls it made."""
    from faust.types import TP

    calls: list[dict] = []

    async def faust_seek_to_committed(self) -> dict:
        return committed

    async def earliest_offsets(self, *tps: TP) -> dict:
        return {tp: earliest[tp] for tp in tps}

    async def seek_wait(self, partitions: dict) -> None:
        calls.append(dict(partitions))

    monkeypatch.setattr(driver.Consumer, "seek_to_committed", faust_seek_to_committed)
    monkeypatch.setattr(driver.Consumer, "earliest_offsets", earliest_offsets)
    monkeypatch.setattr(driver.Consumer, "seek_wait", seek_wait)
    cls = _consumer_class()
    consumer = cls.__new__(cls)
    return asyncio.run(consumer.seek_to_committed()), calls


def test_partitions_never_committed_restart_from_their_first_offset(monkeypatch):
    """aiokafka's ``seek_to_committed`` leaves a partition with no committed offset (or 0)
    where its fetcher is; records Faust took before the seek and did not deliver were then
    never read again (seen as a worker restarted after a crash before its first commit taking
    in nothing). Those input partitions are sought to their earliest offset; a partition with
    a commit, and the changelog, are left to aiokafka."""
    from faust.types import TP
    from pitwatch.streams.topics import TABLE_STATE_CHANGELOG, TOPIC_EVENTS

    p0, p1, p2, p3 = (TP(TOPIC_EVENTS, p) for p in range(4))
    changelog = TP(TABLE_STATE_CHANGELOG, 0)
    committed = {p0: None, p1: 0, p2: 125, p3: None, changelog: None}
    result, calls = _seek_to_committed(monkeypatch, committed, {p0: 0, p1: 0, p3: 40})
    assert result == committed
    assert calls == [{p0: 0, p1: 0, p3: 40}]


def test_no_seek_when_every_input_partition_has_a_commit(monkeypatch):
    from faust.types import TP
    from pitwatch.streams.topics import TOPIC_EVENTS

    committed = {TP(TOPIC_EVENTS, 0): 7, TP(TOPIC_EVENTS, 1): 1}
    assert _seek_to_committed(monkeypatch, committed, {}) == (committed, [])
