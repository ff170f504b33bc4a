"""Messages fetched while Faust's recovery seeks are not lost to the stream.

Faust's ``Recovery._resume_streams`` resumes the stream partitions, awaits
``consumer.perform_seek()``, then calls ``app.flow_control.resume()``, which empties every stream
queue. A message the fetcher delivered during the seek was dropped there, with Faust's read
offset already past it: a worker restarted on partitions with nothing committed took in nothing
(seen in the crash-point tests as a restarted worker idle until restarted again), or never
committed again. The worker's consumer suspends flow control before the seek, so that message
waits (as Faust's conductor does, ``acquire_flow_control`` before the queue) and is delivered
after the resume. The objects are mode's real flow-control event and queue.
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
