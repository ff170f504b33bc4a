"""The Batcher: the agent's stream cut into batches, one in flight while the next one fills."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pitwatch.streams.runtime import BatchRuntime

#: A batch is cut at this many events ... (only a worker catching up on a backlog fills one: at
#: live rates the time limit below cuts batches of a few hundred events. Each batch costs a
#: fixed part, one state write per table and one insert and id lookup per warehouse table:
#: 5,000 instead of 2,000 drains a backlog about 30% faster, BENCHMARKS.md)
BATCH_MAX = 5000
#: ... or this many seconds after its first event, whichever comes first.
BATCH_WITHIN = 0.5

log = logging.getLogger("pitwatch.streams")


class Batcher:
    """Cuts the agent's stream into batches and runs them, one at a time, while the next one
    is being consumed.

    Faust's ``take_events`` blocks its buffer while the agent works on a batch, so consuming
    and processing never overlap. Here the agent iterates the stream with acks disabled and
    collects events; a batch is cut at ``batch_max`` events or ``batch_within`` seconds after
    its first event, and handed to :meth:`BatchRuntime.handle` in a task. At most one batch
    is in flight: a full next batch waits for it (backpressure; Faust keeps buffering into
    the stream's queue meanwhile). A batch's events are acked only after ``handle`` has
    stored its rows, outputs and states, so Faust never commits an unprocessed offset; a
    failed batch ends the process (:meth:`BatchRuntime.fatal`) unacked.
    """

    def __init__(self, runtime: BatchRuntime, batch_max: int = BATCH_MAX,
                 batch_within: float = BATCH_WITHIN) -> None:
        self.runtime = runtime
        self.batch_max = batch_max
        self.batch_within = batch_within
        self._events: list[Any] = []
        self._started_at = 0.0
        self._inflight: asyncio.Future | None = None
        self._lock: asyncio.Lock | None = None
        self._stream: Any = None

    async def consume(self, stream: Any) -> None:
        """The agent's body: iterate ``stream`` until it ends."""
        self._stream = stream
        self._lock = asyncio.Lock()
        # acked by _run once stored; enable_acks is a public Stream attribute (Faust's own
        # take() and noack_take() switch it the same way)
        stream.enable_acks = False
        timer = asyncio.ensure_future(self._timer())
        try:
            async for event in stream.events():
                if not self._events:
                    self._started_at = time.monotonic()
                self._events.append(event)
                if len(self._events) >= self.batch_max:
                    await self._cut()
        finally:
            timer.cancel()

    async def _timer(self) -> None:
        tick = min(0.05, self.batch_within / 4)
        while True:
            await asyncio.sleep(tick)
            if self._events and time.monotonic() - self._started_at >= self.batch_within:
                await self._cut()

    async def _cut(self) -> None:
        assert self._lock is not None
        async with self._lock:  # batches start in the order they were cut
            if not self._events:
                return
            events, self._events = self._events, []
            if self._inflight is not None:
                await self._inflight
            self._inflight = asyncio.ensure_future(self._run(events))

    async def _run(self, events: list[Any]) -> None:
        try:
            await self.runtime.handle(events)
        except Exception as exc:  # nothing of this batch is acked: it will be redelivered
            self.runtime.fatal(exc)
        ack = self._stream.ack
        for event in events:
            await ack(event)

    async def drain(self, timeout: float = 60.0) -> None:
        """Let the batch in flight finish (shutdown); collected events stay unacked."""
        if self._inflight is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._inflight), timeout)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                log.warning("batch in flight did not finish at shutdown; it will be redelivered")
