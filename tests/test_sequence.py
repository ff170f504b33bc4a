"""Per-table stream integrity: gaps, duplicates, stale seq (docs/events.md, Stream integrity)."""

from hypothesis import example, given
from hypothesis import strategies as st
from pitwatch.detectors.sequence import SequenceChecker


def test_in_order_events_apply_without_violations():
    s = SequenceChecker()
    for i in range(1, 6):
        v = s.check(f"e{i}", i)
        assert v.apply and v.violation is None and v.reject_reason is None


def test_gap_is_flagged_and_event_still_applied():
    s = SequenceChecker()
    s.check("e1", 1)
    v = s.check("e4", 4)
    assert v.apply and v.violation.kind == "sequence_gap" and "seq 2..3" in v.violation.message


def test_duplicate_is_flagged_and_not_applied():
    s = SequenceChecker()
    s.check("e1", 1)
    s.check("e2", 2)
    v = s.check("e1", 1)
    assert not v.apply and v.violation.kind == "duplicate_event"


def test_stale_seq_with_new_id_is_rejected():
    s = SequenceChecker()
    s.check("e1", 1)
    s.check("e2", 2)
    v = s.check("x", 2)
    assert not v.apply and v.violation is None and "not after" in v.reject_reason


@given(st.lists(st.integers(min_value=1, max_value=60), min_size=1, max_size=40, unique=True))
def test_gap_count_matches_missing_sequence_numbers(seqs):
    seqs.sort()
    s = SequenceChecker()
    missing = 0
    for q in seqs:
        v = s.check(f"e{q}", q)
        if v.violation is not None:
            missing += int(v.violation.message.split()[0])
    assert missing == seqs[-1] - len(seqs)


_OPS = st.lists(st.one_of(
    st.tuples(st.just("new"), st.integers(min_value=1, max_value=3)),   # a new id, seq + step
    st.tuples(st.just("again"), st.integers(min_value=0, max_value=8)),  # an id seen before
    st.tuples(st.just("stale"), st.integers(min_value=0, max_value=3)),  # a new id, an old seq
    st.tuples(st.just("forget"), st.just(0)),                          # undo the last check
    st.tuples(st.just("store"), st.just(0)),                           # write the stored form
    st.tuples(st.just("reload"), st.just(0)),                          # write it and read it back
), max_size=120)


@example(ops=[("new", 1)] * 6 + [("again", 5)])  # e1, evicted by e6, is no longer a duplicate it can know
@given(_OPS)
def test_stored_form_of_recent_ids_follows_every_change(ops):
    """The stored form of the recent ids (``recent_ids``, ``recent_seq_runs``), kept up to date
    incrementally, always equals the last 5 applied (id, seq) pairs of a plain list kept beside
    it (the oracle), through evictions, duplicates, stale seqs, undone checks and reloads."""
    from unittest import mock

    from pitwatch.detectors import sequence

    with mock.patch.object(sequence, "RECENT_IDS", 5):
        s = SequenceChecker()
        oracle: list[tuple[str, int]] = []
        seq, n, last_added = 0, 0, None
        for op, arg in ops:
            if op == "new":
                n += 1
                seq += arg
                ok = s.check(f"e{n}", seq).apply
                assert ok
                oracle = (oracle + [(f"e{n}", seq)])[-5:]
                last_added = f"e{n}"
                continue
            if op == "again" and oracle:  # a duplicate of an id the checker still holds (the last 5)
                v = s.check(oracle[-1 - arg % len(oracle)][0], seq + 1)
                assert v.apply is False
                last_added = None
            elif op == "stale" and seq:
                n += 1
                assert s.check(f"x{n}", max(1, seq - arg)).apply is False
                last_added = None
            elif op == "forget" and last_added is not None:
                s.forget(last_added)  # (the auditor also restores last_seq: not needed here)
                if oracle and oracle[-1][0] == last_added:
                    oracle.pop()
                last_added = None
            elif op in ("store", "reload"):
                ids, runs = s.recent_ids(), s.recent_seq_runs()
                assert ids == ",".join(i for i, _ in oracle)
                assert [x for a, b in runs for x in range(a, b + 1)] == [q for _, q in oracle]
                assert all(b < c for (_, b), (c, _) in zip(runs, runs[1:]))  # runs are maximal
                if op == "reload":
                    pairs = list(zip(ids.split(",") if ids else [], [x for a, b in runs for x in range(a, b + 1)]))
                    s = SequenceChecker.restore(s.last_seq, pairs, s.excused)
                last_added = None
            assert list(s.recent.items()) == oracle
        assert s.recent_ids() == ",".join(i for i, _ in oracle)


def test_a_replay_that_never_stores_keeps_bounded_memory():
    """A replay never writes the table state: the ids waiting for the stored form stay at most
    RECENT_IDS (once, every id of the file was kept), and the stored form, asked for at last,
    still holds exactly the last RECENT_IDS ids."""
    from pitwatch.detectors.sequence import RECENT_IDS
    s = SequenceChecker()
    for i in range(1, 3 * RECENT_IDS + 7):
        s.check(f"e{i}", i)
        assert len(s._added) <= RECENT_IDS
    last = 3 * RECENT_IDS + 6
    assert s.recent_ids() == ",".join(f"e{i}" for i in range(last - RECENT_IDS + 1, last + 1))
    assert s.recent_seq_runs() == [[last - RECENT_IDS + 1, last]]
