"""The per-table hash chain: one link function, the auditor's head, the worker's rows, the
offline replay's heads and the stored state.

Hashes written out here were computed with ``sha256sum`` (coreutils), not by pitwatch; the
others with :mod:`hashlib` directly, over bytes the test builds.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from pitwatch.detectors.auditor import TableAuditor
from pitwatch.detectors.chain import GENESIS, chain_link
from pitwatch.detectors.snapshot import StateError, dump_state, load_state
from pitwatch.replay import fold_lines
from pitwatch.schemas.events import parse_event
from pitwatch.sim.base import simulate
from pitwatch.streams.processor import BatchProcessor, InMessage

from tests.fixtures.batches import to_messages
from tests.test_replay_agreement import CLOCK, ROULETTE, Roulette

STATES = Path(__file__).parent / "data" / "state"
ZEROS = "0" * 64


def sha(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


def test_a_link_is_sha256_of_the_previous_link_and_the_raw_bytes():
    """``sha256sum`` of 32 zero bytes followed by ``abc``, and of them followed by ``{"x":1}``."""
    assert chain_link(GENESIS, b"abc").hex() == "365aa7d8f7f9402c4b9434502b4cc89ddb09fe50d7cd95b493b834c62d5a5370"
    assert chain_link(GENESIS, b'{"x":1}').hex() == "db121d88858ab32331ece4570a5059fd939ea7c7a401d6570b8fe89719ae494c"
    assert GENESIS == b"\x00" * 32


def _lines() -> list[bytes]:
    return Roulette().open().spin("R1", 17, "clockwise", [("straight:17", "10.00")],
                                  [("R1-B1", "win", "360.00")]).lines


def test_the_auditor_links_accepted_events_only():
    """Seq 1 and 2 are linked; a copy of seq 2's event (same id, as seq 3) is a duplicate, and a
    new event at seq 2 is stale: neither is linked. Seq 4 after a gap (3 never arrived) is
    linked to seq 2. An event the rules refuse (a bet before any round: changes nothing) is
    stored, so it is linked too."""
    lines = _lines()
    aud = TableAuditor(ROULETTE)
    aud.feed(parse_event(lines[0]), lines[0])
    aud.feed(parse_event(lines[1]), lines[1])
    head2 = sha(sha(GENESIS, lines[0]), lines[1])
    assert aud.chain_head == head2
    dup = lines[1].replace(b'"seq": 2', b'"seq": 3')
    assert aud.feed(parse_event(dup), dup).duplicate is not None
    stale = lines[2].replace(b'"seq": 3', b'"seq": 2')
    assert aud.feed(parse_event(stale), stale).rejected is not None
    assert aud.chain_head == head2
    after_gap = lines[3].replace(b'"seq": 4', b'"seq": 5')
    out = aud.feed(parse_event(after_gap), after_gap)
    assert [a.kind for a in out.alerts] == ["sequence_gap"]
    assert aud.chain_head == sha(head2, after_gap)
    aud.feed(parse_event(lines[4]), None)  # no raw bytes (a caller that stores nothing): not linked
    assert aud.chain_head == sha(head2, after_gap)


def test_worker_rows_carry_each_events_link():
    """Each ``events_raw`` row holds ``prev_hash`` (the row before's ``hash``, 64 zeros for the
    first) and ``hash = sha256(prev_hash || payload)``, in hex."""
    lines = _lines()
    res = BatchProcessor(lambda _t: None, clock=lambda: CLOCK).process(
        [InMessage(ROULETTE.encode(), ln, 0, i) for i, ln in enumerate(lines)])
    rows = res.rows["events_raw"]
    assert [r["seq"] for r in rows] == list(range(1, len(lines) + 1))
    prev = ZEROS
    for r, ln in zip(rows, lines):
        assert r["prev_hash"] == prev
        assert r["hash"] == sha(bytes.fromhex(prev), ln).hex()
        prev = r["hash"]
    assert json.loads(res.states[ROULETTE])["chain"] == {"head": prev}


def test_worker_and_replay_give_the_same_links():
    """Simulated tables with every fault (duplicates, gaps, stale seqs, bad payouts) go through
    the stream processor in batches of 97 messages (state stored and loaded between batches)
    and through the offline replay of the same lines: every event gets the same link on both
    paths, and the heads agree with the stored states."""
    events, _ = simulate(4, 0.5, 23)
    lines = [json.dumps(e, separators=(",", ":")).encode() for e in events]
    store: dict[str, bytes] = {}
    proc = BatchProcessor(lambda t: store.get(t), clock=lambda: CLOCK)
    worker: dict[str, str] = {}
    msgs = to_messages(lines, 3)
    for i in range(0, len(msgs), 97):
        res = proc.process(msgs[i:i + 97])
        store.update(res.states)
        for r in res.rows["events_raw"]:
            assert r["event_id"] not in worker
            worker[r["event_id"]] = r["hash"]
    replay: dict[str, str] = {}
    auditors: dict[str, TableAuditor] = {}
    for _, event, out, _err in fold_lines(lines, auditors=auditors):
        if event is not None and out is not None and out.rejected is None and out.duplicate is None:
            replay[str(event.event_id)] = auditors[event.table_id].chain_head.hex()
    assert len(replay) > 1000 and len(replay) < len(lines)  # some events were not accepted
    assert replay == worker
    assert {t: a.chain_head for t, a in auditors.items()} == {t: load_state(s).chain_head for t, s in store.items()}


def test_old_states_start_the_chain_at_genesis_and_the_head_round_trips():
    """States of every earlier release (versions 1-4) load with the head at 64 zeros; a
    version 5 or later state keeps its head through dump and load; a head that is not 64 lower-case hex
    digits is refused."""
    for f in sorted(STATES.glob("v[1-4]-*.json")):
        assert load_state(f.read_bytes()).chain_head == GENESIS, f.name
    aud = load_state((STATES / "v4-roulette-float-ledger-mid-round.json").read_bytes())
    aud.chain_head = sha(b"x")
    raw = dump_state(aud)
    doc = json.loads(raw)
    assert doc["state_version"] == 7 and doc["chain"] == {"head": sha(b"x").hex()}
    assert load_state(raw).chain_head == sha(b"x")
    for bad in ("00", "Z" * 64, sha(b"x").hex().upper()):
        with pytest.raises(StateError, match="does not match version 7"):
            load_state(json.dumps(dict(doc, chain={"head": bad})).encode())
