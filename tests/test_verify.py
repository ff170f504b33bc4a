"""``pitwatch verify`` and :mod:`pitwatch.warehouse.verify` on chDB and ClickHouse 18.16: an
edited, an inserted and a deleted event are named; an intact chain, a gap at intake, parked
events and rows stored before the chain are not breaks; chain heads of a period.

The warehouse holds what the stream processor stored for one Galicia roulette table; the
tampered copies are built by changing those rows as someone with write access to the warehouse
would (what ``verify`` sees is the end state). Seqs and counts are written out by hand.
"""

from __future__ import annotations

import hashlib
import json
import time
from datetime import datetime, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.cli import app
from pitwatch.streams.processor import BatchProcessor, InMessage
from pitwatch.warehouse import open_warehouse
from pitwatch.warehouse.verify import chain_heads, verify_rows, verify_table
from typer.testing import CliRunner

from tests.test_replay_agreement import CLOCK, ROULETTE, Roulette

runner = CliRunner()
ENV = {"COLUMNS": "200"}
DAY = (datetime(2026, 11, 21, tzinfo=timezone.utc), datetime(2026, 11, 22, tzinfo=timezone.utc))


def _rows(drop_seq: int | None = None) -> list[dict]:
    """``events_raw`` rows of 15 events (seq 1-15: an opening and two rounds of 7 events; R1's
    settlement is seq 7, R1's bet seq 3) as the worker
    stores them; without the event of ``drop_seq`` when given (never received: a gap)."""
    lines = (Roulette().open()
             .spin("R1", 17, "clockwise", [("straight:17", "10.00")], [("R1-B1", "win", "360.00")])
             .spin("R2", 5, "counterclockwise", [("red", "10.00")], [("R2-B1", "win", "20.00")]).lines)
    assert len(lines) == 15
    msgs = [InMessage(ROULETTE.encode(), ln, 0, i) for i, ln in enumerate(lines) if i + 1 != drop_seq]
    return BatchProcessor(lambda _t: None, clock=lambda: CLOCK).process(msgs).rows["events_raw"]


def _store(wh, rows: list[dict]) -> None:
    assert wh.insert_new("events_raw", rows) == len(rows)


def _verify(wh, **kw):
    return verify_table(wh, ROULETTE, *DAY, **kw)


def test_an_intact_chain_is_intact(warehouse):
    rows = _rows()
    _store(warehouse, rows)
    res = _verify(warehouse)
    assert res.intact and res.broken is None
    assert (res.rows, res.linked, res.first_seq, res.last_seq, res.gaps) == (15, 15, 1, 15, [])
    assert res.head == (15, rows[14]["hash"])
    heads = chain_heads(warehouse, *DAY)
    assert list(heads) == [ROULETTE]
    assert (heads[ROULETTE].seq, heads[ROULETTE].hash, heads[ROULETTE].events) == (15, rows[14]["hash"], 15)
    assert chain_heads(warehouse, DAY[1], datetime(2026, 11, 23, tzinfo=timezone.utc)) == {}
    assert _verify(warehouse, expected_head=(15, rows[14]["hash"])).intact


def test_an_edited_event_is_named(warehouse):
    """Seq 7 (R1's settlement, 360.00 returned) edited to 350.00: its bytes no longer give its
    hash."""
    rows = _rows()
    assert b'"returned": "360.00"' in rows[6]["payload"].encode()
    rows[6]["payload"] = rows[6]["payload"].replace('"360.00"', '"350.00"')
    _store(warehouse, rows)
    res = _verify(warehouse)
    assert res.broken is not None and (res.broken.kind, res.broken.seq) == ("altered", 7)
    assert res.broken.event_id == rows[6]["event_id"]


def test_an_edited_event_whose_hash_was_recomputed_is_named(warehouse):
    """Seq 7 edited and its hash recomputed over the new bytes: seq 8 still names the old hash,
    and no seq is missing between them: seq 7 was altered."""
    rows = _rows()
    rows[6]["payload"] = rows[6]["payload"].replace('"360.00"', '"350.00"')
    rows[6]["hash"] = hashlib.sha256(bytes.fromhex(rows[6]["prev_hash"]) + rows[6]["payload"].encode()).hexdigest()
    _store(warehouse, rows)
    res = _verify(warehouse)
    assert res.broken is not None and (res.broken.kind, res.broken.seq) == ("altered", 7)


def test_a_deleted_event_is_named(warehouse):
    """Seq 3 (R1's only bet) deleted: seq 4 names a hash no stored row has, and seq jumps from
    2 to 4."""
    rows = _rows()
    del rows[2]
    _store(warehouse, rows)
    res = _verify(warehouse)
    assert res.broken is not None and (res.broken.kind, res.broken.seq) == ("missing", 4)
    assert "between seq 2 and seq 4" in res.broken.message


def test_deleting_the_first_or_the_last_event_is_seen(warehouse):
    """Seq 1 deleted: seq 2's link does not start from 64 zeros. The last event (seq 16)
    deleted is seen against the head kept in the report (seq 15 and its hash)."""
    rows = _rows()
    _store(warehouse, rows[1:14])
    res = _verify(warehouse)
    assert res.broken is not None and (res.broken.kind, res.broken.seq) == ("missing", 2)
    res = _verify(warehouse, expected_head=(15, rows[14]["hash"]))
    assert res.broken is not None and res.broken.kind == "missing"


def test_an_inserted_event_is_named(warehouse):
    """Seq 10 never reached the warehouse (a gap at intake: the chain links seq 9 to 11). A
    forged seq 10 is inserted with a well-formed link after seq 9: seq 11 links over it."""
    rows = _rows(drop_seq=10)
    assert [r["seq"] for r in rows] == [*range(1, 10), *range(11, 16)]
    _store(warehouse, rows)
    res = _verify(warehouse)
    assert res.intact and res.gaps == [[10, 10]] and res.linked == 14
    forged = dict(rows[8], event_id="00000000-0000-0000-0000-00000000f00d", seq=10,
                  payload=rows[8]["payload"].replace('"seq": 9', '"seq": 10'), prev_hash=rows[8]["hash"])
    forged["hash"] = hashlib.sha256(bytes.fromhex(forged["prev_hash"]) + forged["payload"].encode()).hexdigest()
    _store(warehouse, [forged])
    res = _verify(warehouse)
    assert res.broken is not None and (res.broken.kind, res.broken.seq) == ("inserted", 10)
    assert res.broken.event_id == forged["event_id"]


def test_an_inserted_row_without_a_link_is_named(warehouse):
    """A row written straight into the warehouse (no link), seq 6 a second time."""
    rows = _rows()
    _store(warehouse, rows)
    _store(warehouse, [dict(rows[5], event_id="00000000-0000-0000-0000-00000000beef", prev_hash="", hash="")])
    res = _verify(warehouse)
    assert res.broken is not None and res.broken.kind == "inserted" and res.broken.seq == 6
    assert res.broken.event_id == "00000000-0000-0000-0000-00000000beef"


def test_rows_before_the_chain_and_parked_rows_are_not_breaks(warehouse):
    """Seq 1-3 stored by a release before the chain (no link: the state upcast starts the chain
    at 64 zeros, so seq 4 links to zeros); seq 7 parked (stored unjudged, no link) and linked on
    release: verify recomputes its link, which seq 8 names."""
    rows = _rows()
    old = [dict(r, prev_hash="", hash="") for r in rows[:3]]
    relinked = [dict(r) for r in rows[3:]]
    prev = "0" * 64
    for r in relinked:
        r["prev_hash"] = prev
        r["hash"] = prev = hashlib.sha256(bytes.fromhex(prev) + r["payload"].encode()).hexdigest()
    relinked[3].update(prev_hash="", hash="")  # seq 7, parked
    _store(warehouse, old + relinked)
    assert warehouse.insert_new("parked", [{
        "parked_id": "p7", "table_id": ROULETTE, "seq": 7, "event_id": relinked[3]["event_id"], "reason": "test",
        "topic": "t", "partition": 0, "offset": 6, "raw": relinked[3]["payload"], "parked_at": CLOCK}]) == 1
    res = _verify(warehouse)
    assert res.intact, res.broken
    assert (res.unlinked_before, res.parked, res.linked) == (3, 1, 12)


def test_pitwatch_verify_exit_status_and_json(warehouse_url):
    """Exit 0 and ``intact`` for the stored chain; exit 1 once seq 12 is deleted (by an ALTER
    TABLE ... DELETE), naming the missing event before seq 13."""
    rows = _rows()
    with open_warehouse(warehouse_url) as wh:
        wh.ensure_schema()
        _store(wh, rows)
    args = ["verify", "--table", ROULETTE, "--from", "2026-11-21", "--to", "2026-11-22", "--warehouse", warehouse_url]
    res = runner.invoke(app, args, env=ENV)
    assert res.exit_code == 0, res.output
    assert "intact" in res.output and rows[14]["hash"] in res.output
    res = runner.invoke(app, [*args, "--json"], env=ENV)
    doc = json.loads(res.stdout)
    assert res.exit_code == 0 and doc["intact"] and doc["head"] == {"seq": 15, "hash": rows[14]["hash"]}
    with open_warehouse(warehouse_url) as wh:
        wh.query("ALTER TABLE pitwatch.events_raw DELETE WHERE seq = 12")
        for _ in range(200):
            if not wh.query("SELECT count() FROM pitwatch.events_raw WHERE seq = 12")[0][0]:
                break
            time.sleep(0.05)
    res = runner.invoke(app, [*args, "--json"], env=ENV)
    doc = json.loads(res.stdout)
    assert res.exit_code == 1 and doc["broken"]["kind"] == "missing" and doc["broken"]["seq"] == 13
    res = runner.invoke(app, args, env=ENV)
    assert res.exit_code == 1 and "missing event at seq 13" in res.output


@pytest.mark.parametrize("bad", [["--head", "16:abc"], ["--from", "2026-11-22", "--to", "2026-11-21"]])
def test_pitwatch_verify_refuses_bad_options(bad):
    res = runner.invoke(app, ["verify", "--table", ROULETTE, "--warehouse", "none", *bad], env=ENV)
    assert res.exit_code == 2


def test_a_warehouse_of_the_previous_release_is_migrated_and_its_rows_are_before_the_chain(warehouse_url):
    """The previous release's warehouse (two events of table T-1, no link columns) gets
    ``prev_hash`` and ``hash`` as ``''`` on its rows; verify counts both as stored before the
    chain and finds nothing broken. The table's next event, linked from 64 zeros (its state
    upcast so), continues it."""
    from tests.warehouse.rows import event
    from tests.warehouse.test_migration import _create_old

    with open_warehouse(warehouse_url) as wh:
        _create_old(wh)
        wh.ensure_schema()
        assert wh.query("SELECT seq, prev_hash, hash FROM pitwatch.events_raw ORDER BY seq") == [(1, "", ""), (2, "", "")]
        res = verify_table(wh, "T-1")
        assert res.intact and (res.unlinked_before, res.linked) == (2, 0)
        new = event(3)
        new.update(prev_hash="0" * 64, hash=hashlib.sha256(bytes(32) + new["payload"].encode()).hexdigest())
        _store(wh, [new])
        res = verify_table(wh, "T-1")
        assert res.intact and (res.unlinked_before, res.linked, res.head) == (2, 1, (3, new["hash"]))


def test_a_quarantine_released_leaves_the_chain_intact(warehouse, monkeypatch):
    """An engine defect on seq 11 (R2's spin) quarantines the table: seq 11-12 are parked
    (stored unjudged, no link). The fix ships, a release applies them (linked then, but their
    rows were stored already: the sink keeps the first row of an id), seq 13-15 follow. verify
    recomputes the two parked links and finds the chain intact: 15 links, 2 of them parked."""
    from pitwatch.streams.quarantine import release_message

    from tests.fixtures.defects import inject_defect

    lines = (Roulette().open()
             .spin("R1", 17, "clockwise", [("straight:17", "10.00")], [("R1-B1", "win", "360.00")])
             .spin("R2", 5, "counterclockwise", [("red", "10.00")], [("R2-B1", "win", "20.00")]).lines)
    defect = inject_defect(monkeypatch, "french_roulette", lambda e: e.seq == 11, lambda: KeyError("boom"))
    store: dict[str, bytes] = {}
    proc = BatchProcessor(lambda t: store.get(t), clock=lambda: CLOCK,
                          load_parked=lambda t: warehouse.rows("parked", "table_id = %(t)s", {"t": t}))
    key = ROULETTE.encode()

    def run(msgs: list[InMessage]) -> None:
        res = proc.process(msgs)
        store.update(res.states)
        for table, rows in res.rows.items():
            warehouse.insert_new(table, rows)

    run([InMessage(key, ln, 0, i) for i, ln in enumerate(lines[:12])])
    assert warehouse.query("SELECT count() FROM pitwatch.parked FINAL")[0][0] == 2
    defect.active = False
    run([InMessage(key, release_message(ROULETTE, "auditor-1", CLOCK), 0, 12)])
    run([InMessage(key, ln, 0, 13 + i) for i, ln in enumerate(lines[12:])])
    assert warehouse.query("SELECT toUInt64(countIf(hash = '')), count() FROM pitwatch.events_raw FINAL") == [(2, 15)]
    res = _verify(warehouse)
    assert res.intact, res.broken
    assert (res.linked, res.parked, res.head) == (15, 2, (15, store_head(store)))


def store_head(store: dict[str, bytes]) -> str:
    """The chain head kept in the table's stored state."""
    return json.loads(store[ROULETTE])["chain"]["head"]


# ----------------------------------------------------------------------------- property


def _chain(steps: list[int], texts: list[str]) -> list[tuple]:
    """Rows ``(seq, event_id, payload, prev_hash, hash)`` linked with hashlib: seqs advance by
    ``steps`` (a step over 1 is a gap at intake)."""
    rows, prev, seq = [], bytes(32), 0
    for step, text in zip(steps, texts):
        seq += step
        payload = json.dumps({"seq": seq, "text": text})
        h = hashlib.sha256(prev + payload.encode()).digest()
        rows.append((seq, f"e{seq:06d}", payload, prev.hex(), h.hex()))
        prev = h
    return rows


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 3), st.text(max_size=12)), min_size=2, max_size=25),
       st.sampled_from(["none", "edit", "edit_rehash", "delete", "insert_before", "insert_after"]),
       st.integers(0, 10**6))
def test_verify_names_any_one_edit_deletion_or_insertion(spec, tamper, pick):
    """Any chain (gaps at intake included) is intact untouched, with its gaps listed; one event
    edited, edited with its hash recomputed, deleted, or one forged event inserted beside it
    (with a correct link from the event before) is named with its seq. A change at the last
    event is seen against the head kept elsewhere."""
    rows = _chain([s for s, _ in spec], [t for _, t in spec])
    seqs = [r[0] for r in rows]
    k, last = pick % len(rows), len(rows) - 1
    head = (seqs[last], rows[last][4])
    if tamper == "none":
        res = verify_rows("T", rows, expected_head=head)
        assert res.intact and res.linked == len(rows) and res.head == head
        assert res.gaps == [[a + 1, b - 1] for a, b in zip(seqs, seqs[1:]) if b > a + 1]
        return
    seq, eid, payload, prev, h = rows[k]
    edited = payload.replace('"seq"', '"seq" ')
    want = ("altered", seq)
    if tamper == "edit":
        rows[k] = (seq, eid, edited, prev, h)
    elif tamper == "edit_rehash":
        rows[k] = (seq, eid, edited, prev, hashlib.sha256(bytes.fromhex(prev) + edited.encode()).hexdigest())
        if k < last and seqs[k + 1] > seq + 1:  # indistinguishable from a deletion before seq k+1
            want = ("missing", seqs[k + 1])
    elif tamper == "delete":
        del rows[k]
        want = ("missing", seqs[k + 1] if k < last else seq)
    else:
        forged = (seq, ("a" if tamper == "insert_before" else "f") + eid, edited, prev,
                  hashlib.sha256(bytes.fromhex(prev) + edited.encode()).hexdigest())
        rows.insert(k if tamper == "insert_before" else k + 1, forged)
        want = ("inserted", seq)
    res = verify_rows("T", rows, expected_head=head)
    assert res.broken is not None, (tamper, k)
    assert (res.broken.kind, res.broken.seq) == want, (tamper, k, res.broken)


def test_a_period_is_checked_against_the_rows_around_it(warehouse):
    """Event n occurred at 20:00:n. The period [20:00:05, 20:00:10) holds seq 5-9; its first
    link is checked against seq 4 (read before it) and its last by seq 10 (read after it):
    deleting seq 5 or seq 9 is seen; a deletion outside the rows read (seq 2) is not this
    period's business."""
    at = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)
    start, end = at.replace(second=5), at.replace(second=10)
    rows = _rows()
    _store(warehouse, [r for r in rows if r["seq"] != 2])
    res = verify_table(warehouse, ROULETTE, start, end)
    assert res.intact, res.broken
    assert (res.first_seq, res.last_seq, res.rows, res.linked, res.head) == (5, 9, 7, 7, (9, rows[8]["hash"]))
    for gone, named in ((5, 6), (9, 10)):
        warehouse.query("DROP TABLE pitwatch.events_raw")
        warehouse.ensure_schema()
        _store(warehouse, [r for r in rows if r["seq"] != gone])
        res = verify_table(warehouse, ROULETTE, start, end)
        assert res.broken is not None and (res.broken.kind, res.broken.seq) == ("missing", named), gone
