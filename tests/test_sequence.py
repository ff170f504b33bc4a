"""Per-table stream integrity: gaps, duplicates, stale seq (README, Event contract)."""

from hypothesis import given
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
