"""The worker's state table: per-table states and per-partition applied offsets in Faust.

One Faust Table (:data:`pitwatch.streams.topics.TABLE_STATE`, in-memory store, recovered
from its changelog at start) holds, per input partition *p*, in changelog partition *p*:

- the state of every table whose events arrive in *p* (key: the table id, UTF-8; value: the
  versioned JSON snapshot of :mod:`pitwatch.detectors.snapshot`), and
- the last input offset applied in *p* (key :data:`APPLIED_OFFSET_KEY` ``% p``; value: the
  offset as ASCII digits), which the gap check of :mod:`pitwatch.streams.offsets` reads.

When to write (after the warehouse rows and the outputs) is decided by
:class:`pitwatch.streams.runtime.BatchRuntime`; this module only knows how.
"""

from __future__ import annotations

from typing import Any

#: Key of the marker record ending each changelog write (see :meth:`StateTable.store`);
#: never a table_id (table ids are printable).
CHANGELOG_MARKER = b"\x00pitwatch-changelog-marker"
#: Key (``% partition``) of the last input offset applied in a partition, kept in the state
#: table beside the table states (same changelog partition). Never a table_id.
APPLIED_OFFSET_KEY = b"\x00pitwatch-applied-offset:%d"


class StateTable:
    """Reads and writes the Faust state table ``table`` (a ``faust.Table`` of bytes to bytes,
    or any object with ``data``, ``send_changelog(partition, key, value)`` and
    ``app.producer.flush()``).

    ``changelog_markers``: end every write with a marker record per touched partition (see
    :meth:`store`; tests of the write order turn it off).
    """

    def __init__(self, table: Any, changelog_markers: bool = True) -> None:
        self.table = table
        self.changelog_markers = changelog_markers

    def load(self, table_id: str) -> bytes | None:
        """The stored state bytes of ``table_id``, or None."""
        return self.table.data.get(table_id.encode("utf-8"))

    def stored(self, keys: Any) -> dict[bytes, bytes | None]:
        """``{key: stored state or None}`` for each table key (UTF-8 table id) in ``keys``."""
        data = self.table.data
        return {k: data.get(k) for k in keys}

    def applied_offset(self, partition: int) -> int | None:
        """The last input offset applied in ``partition``, or None."""
        raw = self.table.data.get(APPLIED_OFFSET_KEY % partition)
        return int(raw) if raw else None

    def applied_after(self, batch: list[Any]) -> dict[int, int]:
        """``{partition: last offset applied once batch is stored}``: the highest offset of
        each partition in ``batch`` (messages with ``partition`` and ``offset``), never below
        the one already stored."""
        out: dict[int, int] = {}
        for m in batch:
            if m.offset > out.get(m.partition, -1):
                out[m.partition] = m.offset
        for p, o in out.items():
            last = self.applied_offset(p)
            if last is not None and last > o:
                out[p] = last
        return out

    async def store(self, states: dict[str, bytes], partition_of: dict[bytes, int],
                    fallback: int, applied: dict[int, int] | None = None) -> int:
        """Write ``states`` (``{table_id: state bytes}``) and the ``applied`` offsets
        (``{partition: offset}``) to the store and the changelog; return the number of
        table states written.

        Each table's state goes to the changelog partition its events came from
        (``partition_of``: table key -> input partition; ``fallback`` for a table whose events
        arrived under another key). With ``changelog_markers`` the states are flushed, then
        one marker record per touched partition is sent, unflushed (Faust flushes its
        producer before every commit); without, nothing is flushed here.
        """
        # Table.__setitem__ takes the changelog partition from the "current event", which in
        # a batch is just the last one buffered; write the store and the changelog directly
        # with the partition the table's events came from instead.
        table = self.table
        data = table.data
        touched: set[int] = set()
        for table_id, state in states.items():
            key = table_id.encode("utf-8")
            partition = partition_of.get(key)
            if partition is None:  # events of this table arrived under another key (misrouted)
                partition = fallback
            data[key] = state
            table.send_changelog(partition, key, state)
            touched.add(partition)
        for partition, offset in (applied or {}).items():
            key, value = APPLIED_OFFSET_KEY % partition, str(offset).encode()
            data[key] = value
            table.send_changelog(partition, key, value)
            touched.add(partition)
        if touched and self.changelog_markers:
            # Tansu reports a partition's high watermark as (base offset of the last record
            # batch + 1), and Faust's table recovery reads a changelog partition only up to
            # the high watermark: every record of the last batch but the first would be lost
            # on restart. Deliver the states, then end each touched partition with a lone
            # marker record so the last batch has exactly one record. On Kafka this costs one
            # small record per partition per batch (compacted away).
            await self.flush()
            for partition in touched:
                table.send_changelog(partition, CHANGELOG_MARKER, b"")
        return len(states)

    async def flush(self) -> None:
        """Wait until Faust's producer (the changelog's) has delivered everything sent."""
        await self.table.app.producer.flush()
