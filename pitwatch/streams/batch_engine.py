"""The batch engine of a worker: the rules pipeline and the warehouse sink, off the event loop.

A Faust worker spends its event loop consuming (Faust delivers messages to a stream one by
one; measured on this machine, that path alone caps a worker near 5k messages/s). Parsing,
the rules engine and the warehouse inserts, run in the same process, hold the GIL and stop
that consumption for as long as they take. :class:`EngineHost` therefore runs a
:class:`BatchEngine` in a child process of its own (``isolate=True``, what ``pitwatch
worker`` does): while the child processes batch *N* and inserts its rows, the worker's loop
keeps fetching batch *N+1*, and the two use both cores. ``isolate=False`` runs the same
engine in a thread (unit tests, small tools).

Contract of one batch (:meth:`EngineHost.run`): the raw messages and the stored state of each
table keyed in the batch go in; the engine processes them
(:class:`pitwatch.streams.processor.BatchProcessor`), inserts the warehouse rows through the
idempotent sink (``insert_new``, retried with tenacity), and only then returns the output
messages, the new table states and the batch's counters. So when the worker stores the states,
the rows are already durable.

The child process owns the warehouse connection (chDB: the data directory). It dies with the
worker (``PR_SET_PDEATHSIG``), so a SIGKILLed worker never leaves a child holding it.
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import dataclasses
import logging
import multiprocessing
import os
import pickle
import signal
import time
from dataclasses import dataclass
from typing import Any, Callable

from tenacity import RetryError, Retrying, stop_after_attempt, wait_exponential

log = logging.getLogger("pitwatch.streams")

#: Longest wait between two attempts of a warehouse insert (seconds).
RETRY_MAX_WAIT_S = 8.0

ProcessorFactory = Callable[[Callable[[str], "bytes | None"]], Any]
TABLE_STAGE = "table"
"""The name of the table stage's processor in a :class:`BatchEngine` (the one every engine has)."""
WarehouseOpener = Callable[[str], Any]


class FatalPipelineError(RuntimeError):
    """A batch could not be processed or stored; the worker exits without committing it."""


class NullWarehouse:
    """Warehouse URL ``none``: rows are counted and dropped (benchmarks of the Kafka side)."""

    def ensure_schema(self) -> None:
        pass

    def insert_new(self, table: str, rows: list[dict]) -> int:
        return len(rows)

    def rows(self, table: str, where: str = "1", params: dict | None = None) -> list[dict]:
        return []

    def close(self) -> None:
        pass


class Columns:
    """A batch of InMessages as four lists: pickles far faster than message objects (the
    batch crosses a process boundary every time)."""

    __slots__ = ("keys", "values", "partitions", "offsets")

    def __init__(self, batch: list[Any]) -> None:
        self.keys = [m.key for m in batch]
        self.values = [m.value for m in batch]
        self.partitions = [m.partition for m in batch]
        self.offsets = [m.offset for m in batch]

    def __getstate__(self) -> tuple:
        return (self.keys, self.values, self.partitions, self.offsets)

    def __setstate__(self, state: tuple) -> None:
        self.keys, self.values, self.partitions, self.offsets = state

    def messages(self) -> list[Any]:
        from pitwatch.streams.processor import InMessage

        return [InMessage(k, v, p, o) for k, v, p, o in
                zip(self.keys, self.values, self.partitions, self.offsets)]


class OutColumns:
    """Output messages (``topic``, ``key``, ``value``) as three lists; iterates as
    :class:`~pitwatch.streams.processor.OutMessage`-like objects."""

    __slots__ = ("topics", "keys", "values")

    def __init__(self, topics: list[str], keys: list[bytes], values: list[bytes]) -> None:
        self.topics, self.keys, self.values = topics, keys, values

    @classmethod
    def of(cls, messages: list[Any]) -> "OutColumns":
        return cls([m.topic for m in messages], [m.key for m in messages], [m.value for m in messages])

    def __getstate__(self) -> tuple:
        return (self.topics, self.keys, self.values)

    def __setstate__(self, state: tuple) -> None:
        self.topics, self.keys, self.values = state

    def __len__(self) -> int:
        return len(self.topics)

    def __iter__(self):
        from pitwatch.streams.processor import OutMessage

        return (OutMessage(t, k, v) for t, k, v in zip(self.topics, self.keys, self.values))


@dataclass(slots=True)
class EngineResult:
    """What one batch produced, returned once its warehouse rows are stored.

    ``messages``: the :class:`~pitwatch.streams.processor.OutMessage` to produce (as
    :class:`OutColumns`); ``states``:
    new state bytes per table id; ``warehouse_rows``: rows handed to the sink; ``process_s``
    and ``warehouse_s``: seconds spent in the processor and in the inserts; ``counters``: the
    processor's counters of the batch (:func:`batch_counters`, e.g. ``{"consumed": 2000,
    "skipped": 3}``).
    """

    messages: OutColumns
    states: dict[str, bytes]
    warehouse_rows: int
    process_s: float
    warehouse_s: float
    counters: dict[str, int] = dataclasses.field(default_factory=dict)


def batch_counters(result: Any) -> dict[str, int]:
    """Every integer field of a processor's result (a dataclass such as
    :class:`pitwatch.streams.processor.BatchResult`: ``consumed``, ``skipped``, any counter
    added later) as ``{name: count}``; ``{}`` for a result that is not a dataclass.

    The worker sums these into its status document, so a new counter of the batch result
    shows up there with no further plumbing.
    """
    if not dataclasses.is_dataclass(result) or isinstance(result, type):
        return {}
    out: dict[str, int] = {}
    for f in dataclasses.fields(result):
        value = getattr(result, f.name)
        if isinstance(value, int) and not isinstance(value, bool):
            out[f.name] = value
    return out


class BatchEngine:
    """Processor + warehouse sink for one worker. Not thread-safe: one caller at a time.

    ``processor_factory(load_state)`` builds the table stage's processor; ``stages`` the
    factories of further stages' processors by name (the watch stage,
    :mod:`pitwatch.streams.watch`), which share the warehouse (chDB opens a data directory in one
    process only); ``warehouse_opener(url)`` opens
    the warehouse (``None`` or URL ``none``: :class:`NullWarehouse`). Inserts are retried
    ``retries`` times (idempotent per deterministic id; waits 0.5 s, 1 s, 2 s, ... capped at
    :data:`RETRY_MAX_WAIT_S`) before :class:`FatalPipelineError`.
    """

    def __init__(self, processor_factory: ProcessorFactory, warehouse_opener: WarehouseOpener | None,
                 warehouse_url: str, retries: int = 3, stages: dict[str, ProcessorFactory] | None = None) -> None:
        self.processors: dict[str, Any] = {TABLE_STAGE: processor_factory(self._load_state)}
        for name, factory in (stages or {}).items():
            self.processors[name] = factory(self._load_state)
        self.processor = self.processors[TABLE_STAGE]
        if hasattr(self.processor, "load_parked"):  # releasing a quarantine reads the parked rows
            self.processor.load_parked = self._load_parked
        self._opener = warehouse_opener
        self._url = warehouse_url
        self.retries = retries
        self._warehouse: Any = None
        self._given: dict[bytes, bytes | None] = {}
        self._stage = TABLE_STAGE
        self._cache: dict[str, dict[str, bytes]] = {name: {} for name in self.processors}

    def _load_state(self, table_id: str) -> bytes | None:
        # The worker passes the stored state of every table keyed in the batch; a table whose
        # events arrived under another key (a producer bug) falls back to the last state this
        # engine produced for it.
        key = table_id.encode("utf-8")
        if key in self._given:
            return self._given[key]
        return self._cache[self._stage].get(table_id)

    def _load_parked(self, table_id: str) -> list[dict]:
        return self._with_retries("reading parked events", lambda: self._warehouse.rows(
            "parked", "table_id = %(t)s", {"t": table_id}))

    def _open(self) -> Any:
        if self._opener is None or self._url.strip().lower() == "none":
            wh: Any = NullWarehouse()
        else:
            wh = self._opener(self._url)
        wh.ensure_schema()
        return wh

    def _with_retries(self, what: str, fn: Callable[[], Any]) -> Any:
        """``fn()`` (warehouse opened first if needed), retried on any exception; raises
        :class:`FatalPipelineError` with the last exception once the retries are spent."""

        def attempt() -> Any:
            if self._warehouse is None:
                self._warehouse = self._open()
            return fn()

        def warn(state: Any) -> None:
            log.warning("%s failed (attempt %d): %r; retrying", what, state.attempt_number,
                        state.outcome.exception())

        retrying = Retrying(stop=stop_after_attempt(self.retries + 1),
                            wait=wait_exponential(multiplier=0.5, min=0.5, max=RETRY_MAX_WAIT_S),
                            before_sleep=warn)
        try:
            return retrying(attempt)
        except RetryError as exc:
            last = exc.last_attempt.exception()
            raise FatalPipelineError(f"{what} failed: {last!r}") from last

    def start(self) -> None:
        """Open the warehouse and ensure its schema. Raises :class:`FatalPipelineError`."""
        self._with_retries("warehouse start", lambda: None)

    def run(self, batch: "list[Any] | Columns", given_states: dict[bytes, bytes | None],
            store: bool = True, stage: str = "table") -> EngineResult:
        """Process ``batch`` (InMessages, or :class:`Columns` of them) with the processor of
        ``stage`` (``"table"``, or a name of ``stages``) against ``given_states`` (stored state
        per key, ``None`` for none), insert the rows, return the outputs. Raises
        :class:`FatalPipelineError` (nothing of the batch must then be committed).

        ``store=False`` processes only (no insert, ``warehouse_rows`` 0): the test hook's
        ``after_process`` crash point (:mod:`pitwatch.streams.crashpoints`)."""
        if isinstance(batch, Columns):
            batch = batch.messages()
        self._given, self._stage = given_states, stage
        t0 = time.perf_counter()
        try:
            result = self.processors[stage].process(batch)
        except Exception as exc:
            raise FatalPipelineError(f"processor failed on batch at {first_offsets(batch)}: {exc!r}") from exc
        finally:
            self._given = {}
        t1 = time.perf_counter()

        def insert() -> int:
            n = 0
            for name, rows in result.rows.items():
                if rows:
                    self._warehouse.insert_new(name, rows)
                    n += len(rows)
            return n

        n = self._with_retries("warehouse insert", insert) if store else 0
        self._cache[stage].update(result.states)
        return EngineResult(OutColumns.of(result.messages), result.states, n, t1 - t0,
                            time.perf_counter() - t1, batch_counters(result))

    def close(self) -> None:
        """Close the warehouse."""
        if self._warehouse is not None:
            wh, self._warehouse = self._warehouse, None
            wh.close()


def first_offsets(batch: list[Any]) -> str:
    """``"p0@12, p3@7"``: the first offset of each partition in ``batch``."""
    firsts: dict[int, int] = {}
    for m in batch:
        firsts.setdefault(m.partition, m.offset)
    return ", ".join(f"p{p}@{o}" for p, o in sorted(firsts.items()))


# -- the child process -------------------------------------------------------------------------


def _die_with_parent() -> None:
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the child ends when its pipe closes
        pass


def _child_main(conn: Any, args: tuple) -> None:
    """The engine process: answer ``(method, args)`` requests until the pipe closes."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the worker decides when to stop
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    engine = BatchEngine(*args)
    while True:
        try:
            method, margs = pickle.loads(conn.recv_bytes())
        except EOFError:
            break
        try:
            reply = (True, getattr(engine, method)(*margs))
        except BaseException as exc:  # everything goes back to the worker, which decides
            reply = (False, exc)
        try:
            data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            data = pickle.dumps((False, FatalPipelineError(f"{method}: {reply[1]!r} ({exc!r})")))
        conn.send_bytes(data)
        if method == "close":
            break


class EngineHost:
    """Runs a :class:`BatchEngine` in a child process (``isolate=True``) or a thread.

    Process mode talks over a pipe from the event loop's own thread (the request is written
    there, the reply read when the pipe becomes readable): no helper threads competing with
    the busy loop for the GIL. One request at a time. :meth:`start` and :meth:`run` are
    coroutines for the worker's event loop; every failure, including a dead child, surfaces
    as :class:`FatalPipelineError`.
    """

    def __init__(self, processor_factory: ProcessorFactory, warehouse_opener: WarehouseOpener | None,
                 warehouse_url: str, *, retries: int = 3, isolate: bool = True,
                 stages: dict[str, ProcessorFactory] | None = None) -> None:
        self.isolate = isolate
        args = (processor_factory, warehouse_opener, warehouse_url, retries, stages)
        self._proc: Any = None
        self._conn: Any = None
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None
        self._engine: BatchEngine | None = None
        if isolate:
            ctx = multiprocessing.get_context("spawn")
            self._conn, child_conn = ctx.Pipe(duplex=True)
            self._proc = ctx.Process(target=_child_main, args=(child_conn, args),
                                     name="pitwatch-batch-engine", daemon=True)
            self._proc.start()
            child_conn.close()
        else:
            self._thread = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="engine")
            self._engine = BatchEngine(*args)
        self._busy = False
        self._lock: Any = None

    async def _call(self, method: str, *args: Any) -> Any:
        import asyncio

        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:  # one request at a time (start and the first batch may race)
            return await self._request(method, *args)

    async def _request(self, method: str, *args: Any) -> Any:
        import asyncio

        self._busy = True
        try:
            if self._engine is not None:
                assert self._thread is not None
                return await asyncio.wrap_future(self._thread.submit(getattr(self._engine, method), *args))
            loop = asyncio.get_running_loop()
            self._conn.send_bytes(pickle.dumps((method, args), pickle.HIGHEST_PROTOCOL))
            readable = loop.create_future()
            fd = self._conn.fileno()
            def _readable() -> None:
                if not readable.done():
                    readable.set_result(None)

            loop.add_reader(fd, _readable)
            try:
                await readable
            finally:
                loop.remove_reader(fd)
                os.set_blocking(fd, True)  # uvloop leaves a watched fd non-blocking
            ok, value = pickle.loads(self._conn.recv_bytes())
        except FatalPipelineError:
            raise
        except Exception as exc:  # a dead child (EOFError, BrokenPipeError), pickling errors
            raise FatalPipelineError(f"batch engine {method} failed: {exc!r}") from exc
        finally:
            self._busy = False
        if not ok:
            raise value if isinstance(value, FatalPipelineError) else FatalPipelineError(
                f"batch engine {method}: {value!r}")
        return value

    async def start(self) -> None:
        """Start the engine and open the warehouse (schema ensured)."""
        await self._call("start")

    async def run(self, batch: list[Any], given_states: dict[bytes, bytes | None],
                  store: bool = True, stage: str = "table") -> EngineResult:
        """:meth:`BatchEngine.run` in the engine's process or thread."""
        return await self._call("run", Columns(batch) if self.isolate else batch, given_states, store, stage)

    def close(self, timeout: float = 30.0) -> None:
        """Close the warehouse and stop the child process or thread (blocking)."""
        if self._engine is not None:
            assert self._thread is not None
            try:
                self._thread.submit(self._engine.close).result(timeout=timeout)
            finally:
                self._thread.shutdown(wait=True)
            return
        if self._proc is None:
            return
        proc, self._proc = self._proc, None
        try:
            if not self._busy and proc.is_alive():
                self._conn.send_bytes(pickle.dumps(("close", ()), pickle.HIGHEST_PROTOCOL))
                if self._conn.poll(timeout):
                    self._conn.recv_bytes()
        except (OSError, EOFError) as exc:
            log.warning("batch engine close: %r", exc)
        finally:
            self._conn.close()
            proc.join(timeout)
            if proc.is_alive():
                proc.kill()
                proc.join()
