"""Faust's gap bookkeeping (input offsets it never delivered and counts as acked), with the
corrections of the worker's consumer (pitwatch.streams.faust_app._consumer_class): Faust's own
``_add_gap`` and ``_new_offset`` on a consumer that is never started (no broker)."""

from __future__ import annotations

import asyncio
from collections import defaultdict

import pytest
from intervaltree import IntervalTree
from pitwatch.streams.faust_app import _consumer_class
from pitwatch.streams.offsets import merge_gap_offsets

TP = ("pitwatch.table-events", 2)


def _consumer(cls: type, committed: int, acked: range) -> object:
    """A bare consumer of class ``cls`` holding only the bookkeeping of one partition, as a
    restarted worker has it: ``committed``, then the offsets ``acked`` by its first batches."""
    c = object.__new__(cls)
    c._committed_offset = defaultdict(lambda: None, {TP: committed})
    c._acked = defaultdict(list, {TP: list(acked)})
    c._acked_index = defaultdict(set, {TP: set(acked)})
    c._gap = defaultdict(IntervalTree)
    return c


def _commits(c: object) -> list[int]:
    """Faust's commit offsets, one per commit (interval), until nothing more is committable."""
    out = []
    while (offset := c._new_offset(TP)) is not None:
        c._committed_offset[TP] = offset
        out.append(offset)
    return out


# Measured after a restart (tests/e2e/test_crash_points.py under CPU load): committed 37,
# the first batches delivered and acked 37-111, and Faust, seeing offset 214 next, recorded
# the gap 38-214 (the hole 112-213 is read by GapRepair in the batch of 214).


def test_faust_alone_creeps_one_offset_per_commit_and_counts_the_revealing_message_as_acked():
    """What the worker corrects, shown on Faust's own consumer: the gap's offsets that were also
    acked are appended twice, each duplicate ends the run of consecutive offsets, so every
    commit advances by one; and 214, delivered but not stored, is committable."""
    from faust.transport.drivers import aiokafka as driver

    c = _consumer(driver.Consumer, 37, range(37, 112))
    asyncio.run(driver.Consumer._add_gap(c, TP, 38, 214))
    commits = _commits(c)
    assert commits[:3] == [39, 40, 41]  # one offset per commit interval (a second)
    assert commits[-1] == 215  # past 214, whose batch may not be stored yet


def test_worker_consumer_commits_the_gap_at_once_and_stops_before_the_revealing_message():
    c = _consumer(_consumer_class(), 37, range(37, 112))
    asyncio.run(c._add_gap(TP, 38, 214))
    assert _commits(c) == [214]  # 214 itself is committed by its own ack, once stored
    c._acked[TP].append(214)
    c._acked_index[TP].add(214)
    assert _commits(c) == [215]


def test_merge_gap_offsets_each_offset_once():
    acked = [37, 38, 38, 39, 45]
    index = set(acked)
    gap = IntervalTree()
    gap.addi(40, 45)  # begins below 45: merged
    gap.addi(50, 60)  # begins above every acked offset: kept for later
    merge_gap_offsets(acked, index, gap)
    assert acked == [37, 38, 39, 40, 41, 42, 43, 44, 45]
    assert index == set(acked)
    assert sorted((i.begin, i.end) for i in gap) == [(50, 60)]


@pytest.mark.parametrize("acked", [[], [7]])
def test_merge_gap_offsets_without_a_gap_below_changes_nothing(acked):
    before = list(acked)
    gap = IntervalTree()
    gap.addi(10, 20)
    merge_gap_offsets(acked, set(acked), gap)
    assert acked == before and len(gap) == 1
