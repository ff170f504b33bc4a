"""Table state: a versioned JSON snapshot (no pickle), all-or-nothing event application, and
applied positions kept per topic-partition.

Expected figures are written out from the regulation (Galicia, 000_e1555249d49967be.txt):
a dozen pays 2 to 1 (L147-L149), a simple chance in prison is released without winnings when
its chance wins (L125-L127), and the wheel turns the other way at every spin (L183).
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import pytest
from pitwatch.detectors.auditor import TableAuditor
from pitwatch.detectors.snapshot import STATE_VERSION, StateError, dump_state, load_state
from pitwatch.rules.base import RoundVerdict
from pitwatch.schemas.events import parse_event
from pitwatch.sim.base import TableSpec, simulate
from pitwatch.streams.processor import BatchProcessor, InMessage

from tests.fixtures.batches import to_messages
from tests.fixtures.defects import inject_defect

FIXTURE = Path(__file__).parent / "data" / "state" / "v1-roulette-prisoner-mid-round.json"
FIXTURE_V2 = Path(__file__).parent / "data" / "state" / "v2-roulette-prisoner-excused-seq.json"
FIXTURE_V4 = Path(__file__).parent / "data" / "state" / "v4-roulette-float-ledger-mid-round.json"
FIXTURE_V5 = Path(__file__).parent / "data" / "state" / "v5-roulette-float-ledger-mid-round.json"
FIXTURE_V6 = Path(__file__).parent / "data" / "state" / "v6-roulette-book-mid-round.json"
FIXTURE_V7 = Path(__file__).parent / "data" / "state" / "v7-roulette-typed-carry-mid-round.json"
GENESIS = {"head": "0" * 64}  # the chain head of a state written before version 5
D = Decimal


class Events:
    """Builds events of one table with consecutive seq (the fixture's numbering)."""

    def __init__(self, table_id: str = "RF-FIX", game: str = "french_roulette", seq: int = 0):
        self.table_id, self.game, self.seq = table_id, game, seq
        self.t0 = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)

    def __call__(self, type: str, round_id: str | None = None, actor=("dealer", "D-1"), **payload):
        return parse_event(self.raw(type, round_id, actor, **payload))

    def raw(self, type: str, round_id: str | None = None, actor=("dealer", "D-1"), **payload) -> bytes:
        self.seq += 1
        return json.dumps({
            "event_id": str(uuid.UUID(int=self.seq + 0x1000 * (self.table_id != "RF-FIX"))),
            "casino_id": "gal-test", "table_id": self.table_id, "game": self.game, "seq": self.seq,
            "round_id": round_id, "occurred_at": (self.t0 + timedelta(seconds=self.seq)).isoformat(),
            "actor": {"role": actor[0], "id": actor[1]}, "type": type, **payload}).encode()


def feed_all(aud: TableAuditor, events) -> tuple[list[RoundVerdict], list]:
    verdicts, alerts = [], []
    for e in events:
        out = aud.feed(e)
        verdicts += out.verdicts
        alerts += out.alerts
    return verdicts, alerts


def settled(v: RoundVerdict) -> dict[str, tuple[str, Decimal]]:
    return {c.expected.bet_id: (c.expected.outcome, c.expected.returned) for c in v.checks}


# ----------------------------------------------------------------------------- the format


def test_release_0_1_snapshot_loads_and_resumes_the_open_round():
    """A snapshot written by release 0.1 (state_version 1) is loaded by this release and the
    table goes on: B1 (red, 10.00, en prison since R1's zero) is released by a 5 (red) with
    10.00 returned and no winnings (000 L125-L127); B3 on the first dozen, 20.00, wins 2 to 1:
    60.00 returned (000 L147-L149)."""
    aud = load_state(FIXTURE.read_bytes())
    assert aud.table_id == "RF-FIX" and aud.sequence.last_seq == 14
    assert aud.positions == {"pitwatch.table-events:3": 113}
    ev = Events(seq=14)
    verdicts, alerts = feed_all(aud, [
        ev("bets_closed", "R2"), ev("wheel_spun", "R2", direction="counterclockwise"),
        ev("ball_landed", "R2", number=5),
        ev("settlement_recorded", "R2", bet_id="B1", outcome="released", returned="10.00"),
        ev("settlement_recorded", "R2", bet_id="B3", outcome="win", returned="60.00"),
        ev("round_ended", "R2")])
    assert alerts == []
    assert settled(verdicts[0]) == {"B3": ("win", D("60.00")), "B1": ("released", D("10.00"))}


def test_snapshot_carries_the_wheel_direction_000_L183():
    """The previous spin's direction survives the snapshot: spinning clockwise again (R1 was
    clockwise) is a spin_direction violation (000 L183)."""
    aud = load_state(FIXTURE.read_bytes())
    ev = Events(seq=14)
    _, alerts = feed_all(aud, [
        ev("bets_closed", "R2"), ev("wheel_spun", "R2", direction="clockwise"),
        ev("ball_landed", "R2", number=5), ev("round_ended", "R2")])
    assert [a.kind for a in alerts if a.kind != "payout_discrepancy"] == ["spin_direction"]


def _v4_sequence(seq: dict) -> dict:
    """A version 1-3 ``sequence`` section as version 4 writes it: ids joined by commas, and the
    fixtures' seqs 1..14 (v1) and 1..15 (v2) as one run each (written out by hand)."""
    rest = {k: v for k, v in seq.items() if k != "recent"}
    assert [s for _, s in seq["recent"]] == list(range(1, len(seq["recent"]) + 1))
    return dict(rest, recent_ids=",".join(i for i, _ in seq["recent"]), recent_seqs=[[1, len(seq["recent"])]])


def _v6_ctx(ctx: dict) -> dict:
    """A version 1-5 table context as version 6 writes it: French roulette's bets in prison leave
    ``carry`` for the book of standing bets, each ``working``, holding its whole stake (every fixture's
    prisoner has seen one zero: it holds its initial stake, 000 L125), nothing riding on it."""
    carry = {k: v for k, v in ctx["carry"].items() if k != "prisoners"}
    bets = []
    for p in ctx["carry"].get("prisoners", {}).values():
        assert p["zeros"] == 1
        bets.append({"bet_id": p["bet_id"], "player_id": p["player_id"], "spot": p["spot"], "initial": p["initial"],
                     "at_stake": p["initial"], "state": "working", "round_id": p["round_id"],
                     "event_id": p["event_id"], "parent": None, "detail": {"zeros": 1}})
    return dict(ctx, carry=carry, book={"version": 1, "bets": bets})


def _v7_ctx(ctx: dict) -> dict:
    """A version 1-6 table context as version 7 writes it: the game's state across rounds gains its
    version (1), its fields unchanged (French roulette's: the wheel's last direction)."""
    v6 = ctx if "book" in ctx else _v6_ctx(ctx)
    return dict(v6, carry={"version": 1, **v6["carry"]})


def test_snapshot_is_versioned_json_and_a_fixed_point():
    """Version 1 upcasts to version 7: no excused seqs (v2), an unknown float ledger (v3), the
    recent ids as one string and their seqs as a list (v4), the hash chain at 64 zeros (v5), the
    bet in prison in the book of standing bets (v6), the carry versioned (v7), nothing else changes;
    a version 7 snapshot dumps back to itself."""
    raw = FIXTURE.read_bytes()
    doc = json.loads(raw)
    assert doc["state_version"] == 1 and STATE_VERSION == 7
    again = dump_state(load_state(raw))
    unknown = {"anticipo": "0.00", "fills": "0.00", "credits": "0.00", "drop": "0.00", "cashed": "0.00",
               "tips": "0.00", "bet_win": "0.00", "complete": False}
    base = doc["engine"]["base"]
    expected = dict(doc, state_version=7, sequence=_v4_sequence(dict(doc["sequence"], excused=[])), chain=GENESIS,
                    engine=dict(doc["engine"], base=dict(base, ctx=_v7_ctx(dict(base["ctx"], float=unknown)))))
    assert json.loads(again)["sequence"]["recent_ids"].count(",") == len(doc["sequence"]["recent"]) - 1
    assert json.loads(again) == expected
    assert dump_state(load_state(again)) == again
    v2 = json.loads(FIXTURE_V2.read_bytes())
    v2_base = v2["engine"]["base"]
    assert json.loads(dump_state(load_state(FIXTURE_V2.read_bytes()))) == dict(
        v2, state_version=7, sequence=_v4_sequence(v2["sequence"]), chain=GENESIS,
        engine=dict(v2["engine"], base=dict(v2_base, ctx=_v7_ctx(dict(v2_base["ctx"], float=unknown)))))


def test_release_0_4_snapshot_is_a_fixed_point_and_resumes():
    """A snapshot written by release 0.4 (state_version 4, ``v4-roulette-float-ledger-mid-round``:
    the v3 fixture's table, mid-round R3) loads and dumps as version 7 with the chain at 64
    zeros, its bet in prison in the book, its carry versioned, and nothing else changed; the same table
    written by release 0.5 (version 5, ``v5-...``, with a chain head) and by the release of the book
    (version 6, ``v6-...``) dump as version 7 the same way, and as this release writes it (``v7-...``)
    back to the same bytes. It keeps its 27 recent ids with their seqs
    (seq 1-27), and a redelivered id is a duplicate_event citing its first seq."""
    raw = FIXTURE_V4.read_bytes()
    doc = json.loads(raw)
    assert doc["state_version"] == 4
    aud = load_state(raw)
    base = doc["engine"]["base"]
    assert json.loads(dump_state(aud)) == dict(doc, state_version=7, chain=GENESIS, engine=dict(
        doc["engine"], base=dict(base, ctx=_v7_ctx(base["ctx"]))))
    v5 = json.loads(FIXTURE_V5.read_bytes())
    assert v5["chain"] == {"head": "c0f5e141070c15fa2fe0bb171699e0d256d60238dd3393d08498ddcec7d2a5b8"}
    v5_base = v5["engine"]["base"]
    assert json.loads(dump_state(load_state(FIXTURE_V5.read_bytes()))) == dict(v5, state_version=7, engine=dict(
        v5["engine"], base=dict(v5_base, ctx=_v7_ctx(v5_base["ctx"]))))
    v6 = json.loads(FIXTURE_V6.read_bytes())
    v6_base = v6["engine"]["base"]
    assert v6_base["ctx"]["carry"] == {"last_direction": "counterclockwise"}
    assert json.loads(dump_state(load_state(FIXTURE_V6.read_bytes()))) == dict(v6, state_version=7, engine=dict(
        v6["engine"], base=dict(v6_base, ctx=_v7_ctx(v6_base["ctx"]))))
    v7 = FIXTURE_V7.read_bytes()
    assert dump_state(load_state(v7)) == v7.rstrip(b"\n")
    ids = doc["sequence"]["recent_ids"].split(",")
    assert doc["sequence"]["recent_seqs"] == [[1, 27]]
    assert list(aud.sequence.recent.items()) == list(zip(ids, range(1, 28)))
    verdict = aud.sequence.check(ids[1], aud.sequence.last_seq + 1)
    assert verdict.violation is not None and verdict.violation.kind == "duplicate_event"
    assert "first seen as seq 2" in verdict.violation.message


def test_recent_ids_and_seqs_of_different_lengths_are_refused():
    """A version 4 state whose recent ids and seqs are not as many, or whose seq runs do not
    increase, is not a valid state."""
    doc = json.loads(FIXTURE_V4.read_bytes())
    for runs, why in (([[1, 26]], "27 recent ids but 26 recent seqs"), ([[1, 13], [13, 26]], "not after"),
                      ([[27, 1]], "not after")):
        doc["sequence"]["recent_seqs"] = runs
        with pytest.raises(StateError, match=why):
            load_state(json.dumps(doc).encode())


def test_release_0_2_snapshot_keeps_the_excused_seq():
    """A snapshot written by release 0.2 (state_version 2): seq 16 of RF-FIX was an invalid
    message, already reported. Seq 15 then seq 17 arrive: no sequence_gap (16 is accounted
    for); after 17, a jump to 19 is a gap of exactly one event (18)."""
    aud = load_state(FIXTURE_V2.read_bytes())
    assert aud.sequence.excused == {16}
    ev = Events(seq=14)
    _, alerts = feed_all(aud, [ev("bets_closed", "R2")])
    ev.seq += 1  # 16: the invalid message
    _, later = feed_all(aud, [ev("wheel_spun", "R2", direction="counterclockwise")])
    assert alerts == [] and later == [] and aud.sequence.excused == set()
    ev.seq += 1  # 18 lost
    _, gap = feed_all(aud, [ev("ball_landed", "R2", number=5)])
    assert [(a.kind, a.message) for a in gap] == [("sequence_gap", "1 event(s) missing: seq 18..18")]


@pytest.mark.parametrize("raw, why", [
    (b"\x80\x04\x95", "not JSON"),                                   # a pickle
    (b"[1, 2]", "not a JSON object"),
    (b'{"table_id": "T"}', "no valid state_version"),
    (b'{"state_version": 99}', "newer than this release"),
])
def test_unreadable_states_raise_state_error(raw, why):
    with pytest.raises(StateError, match=why):
        load_state(raw)


def test_unknown_field_or_unknown_ruleset_raise_state_error():
    doc = json.loads(FIXTURE.read_bytes())
    extra = dict(doc, surprise=1)
    with pytest.raises(StateError, match="does not match"):
        load_state(json.dumps(extra).encode())
    doc["engine"]["base"]["ctx"]["ruleset_id"] = "french_roulette.atlantis"
    with pytest.raises(StateError, match="unknown ruleset"):
        load_state(json.dumps(doc).encode())


# ----------------------------------------------------------------------------- resume anywhere


@pytest.fixture(scope="module")
def evening() -> list[bytes]:
    specs = [
        TableSpec("RF-1", "c", "french_roulette", "french_roulette.galicia", D("5.00"), D("900.00")),
        TableSpec("BJ-1", "c", "blackjack", "blackjack.andalucia", D("10.00"), D("1000.00")),
        TableSpec("PB-1", "c", "punto_banca", "punto_banca.asturias", D("20.00"), D("2000.00")),
    ]
    events, _ = simulate(specs, hours=0.25, seed=11, fault_rates={
        "wrong_payout": 0.1, "late_bet": 0.05, "over_limit_bet": 0.05, "dealer_misdraw": 0.05,
        "illegal_decision": 0.05, "spin_direction": 0.05})
    return [json.dumps(e).encode() for e in events]


def ids(verdicts, alerts) -> tuple[list, list]:
    return ([(v.round_id, settled(v)) for v in verdicts], sorted(a.alert_id for a in alerts))


@pytest.mark.parametrize("table", ["RF-1", "BJ-1", "PB-1"])
def test_a_table_resumed_from_its_snapshot_after_any_event_judges_the_same(evening, table):
    """Cut one table's stream after every 7th event, store the snapshot, load it and go on:
    the verdicts and alert ids equal those of one uninterrupted pass."""
    events = [parse_event(ln) for ln in evening if json.loads(ln)["table_id"] == table]
    want = ids(*feed_all(TableAuditor(table), events))
    for cut in range(1, len(events), 7):
        aud = TableAuditor(table)
        v1, a1 = feed_all(aud, events[:cut])
        aud = load_state(dump_state(aud))
        v2, a2 = feed_all(aud, events[cut:])
        assert ids(v1 + v2, a1 + a2) == want, f"cut after event {cut}"


# ----------------------------------------------------------------------------- all or nothing


def test_an_engine_failure_leaves_the_table_as_before(evening, monkeypatch):
    """A defect that raises half-way through applying an event (after mutating the round)
    leaves the table exactly as before the event: the snapshot is unchanged and the rest of
    the evening is judged as if the event had never arrived."""
    events = [parse_event(ln) for ln in evening if json.loads(ln)["table_id"] == "RF-1"]
    k = next(i for i, e in enumerate(events) if e.type == "ball_landed" and i > 40)
    target = events[k].event_id
    # the round's own handling runs first: it mutates the round (the number is set), then raises
    inject_defect(monkeypatch, "french_roulette", lambda e: e.event_id == target, lambda: KeyError("boom"),
                  after_apply=True)

    aud = TableAuditor("RF-1")
    feed_all(aud, events[:k])
    before = dump_state(aud)
    with pytest.raises(KeyError):
        aud.engine.apply(events[k])
    assert dump_state(aud) == before
    monkeypatch.undo()

    without = TableAuditor("RF-1")
    feed_all(without, events[:k])
    v_a = []
    for e in events[k + 1:]:
        out = aud.engine.apply(e)
        v_a += [x for x in out if isinstance(x, RoundVerdict)]
    v_b = []
    for e in events[k + 1:]:
        out = without.engine.apply(e)
        v_b += [x for x in out if isinstance(x, RoundVerdict)]
    assert [(v.round_id, settled(v), [x.kind for x in v.violations]) for v in v_a] == \
        [(v.round_id, settled(v), [x.kind for x in v.violations]) for v in v_b]


def _ids(results, table: str, kind_out: tuple[str, ...] = ()) -> tuple[set, set]:
    s = {r["settlement_id"] for res in results for r in res.rows["settlements"] if r["table_id"] == table}
    a = {r["alert_id"] for res in results for r in res.rows["alerts"] if r["table_id"] == table
         and r["kind"] not in kind_out}
    return s, a


def test_a_poison_event_quarantines_its_table_and_a_release_applies_the_parked_events(evening, monkeypatch):
    """Issue 7 §3: an event on which the engine fails goes to pitwatch.rejected with the
    exception's summary; its table is quarantined (one table_quarantined alert; the poison event
    and every later event of the table parked, counted, stored with the reason); the other
    tables are served as in a clean run. After the fix, the release control message applies the
    parked events in order: the table's settlements and alerts are then those of a clean run."""
    from pitwatch.streams.quarantine import release_message

    msgs = [InMessage(json.loads(ln)["table_id"].encode(), ln, 0, i) for i, ln in enumerate(evening)]
    clean = BatchProcessor({}.get).process(msgs)
    pb = [m for m in msgs if json.loads(m.value)["table_id"] == "PB-1"]
    victim = next(m for m in pb[len(pb) // 2:] if json.loads(m.value)["type"] == "card_dealt")
    target = json.loads(victim.value)["event_id"]
    defect = inject_defect(monkeypatch, "punto_banca", lambda e: e.event_id == target,
                           lambda: ZeroDivisionError("defect"))
    store: dict[str, bytes] = {}
    proc = BatchProcessor(store.get)
    cut = victim.offset + 40  # the quarantine must outlive the batch: it is in the table state
    first = proc.process([m for m in msgs if m.offset < cut])
    store.update(first.states)
    second = proc.process([m for m in msgs if m.offset >= cut])
    store.update(second.states)
    held = [first, second]
    rejected = [r for res in held for r in res.rows["rejected"]]
    assert [r["offset"] for r in rejected] == [victim.offset]
    assert "ZeroDivisionError: defect" in rejected[0]["reason"]
    parked = [r for res in held for r in res.rows["parked"]]
    after = [m.offset for m in pb if m.offset >= victim.offset]
    assert [r["offset"] for r in parked] == after and sum(res.parked for res in held) == len(after)
    assert all(r["table_id"] == "PB-1" and r["raw"].encode() == msgs[r["offset"]].value for r in parked)
    assert "quarantined since seq" in parked[-1]["reason"] and "ZeroDivisionError" in parked[0]["reason"]
    quarantined = [r for res in held for r in res.rows["alerts"] if r["kind"] == "table_quarantined"]
    assert [(r["table_id"], r["severity"]) for r in quarantined] == [("PB-1", "high")]
    assert {r["event_id"] for res in held for r in res.rows["events_raw"]} == {json.loads(m.value)["event_id"]
                                                                                 for m in msgs}
    for table in ("RF-1", "BJ-1"):  # the other tables are served as in a clean run
        assert _ids(held, table) == _ids([clean], table)
    assert load_state(store["PB-1"]).quarantine.parked == len(after)

    defect.active = False  # the fix ships
    proc.load_parked = lambda t: [r for r in parked if r["table_id"] == t]
    release = InMessage(b"PB-1", release_message("PB-1", "auditor-1", datetime(2026, 11, 24, tzinfo=timezone.utc)),
                        0, len(msgs))
    third = proc.process([release])
    store.update(third.states)
    assert third.rows["rejected"] == [] and third.parked == 0
    kinds = [r["kind"] for r in third.rows["alerts"]]
    assert kinds.count("quarantine_released") == 1
    assert "auditor-1" in next(r["message"] for r in third.rows["alerts"] if r["kind"] == "quarantine_released")
    assert _ids([*held, third], "PB-1", ("table_quarantined", "quarantine_released")) == _ids([clean], "PB-1")
    assert load_state(store["PB-1"]).quarantine is None
    again = proc.process([InMessage(b"PB-1", release.value, 0, len(msgs) + 1)])
    assert [r["reason"] for r in again.rows["rejected"]] == ["release of table PB-1 refused: it is not quarantined"]


def test_an_event_the_rules_reject_is_stored_flagged_once_and_changes_nothing():
    """A table_opened naming an unknown ruleset is valid against the schema: it is stored in
    events_raw, becomes one rejected_event alert, is not sent to pitwatch.rejected, and the
    table's later events raise one procedure alert between them (not one each)."""
    ev = Events("RF-X")
    raws = [ev.raw("table_opened", actor=("pit_boss", "PB"), ruleset_id="french_roulette.atlantis",
                   jurisdiction="atlantis", min_bet="5.00", max_bet="900.00", float_amount="0.00", options={})]
    for t, payload in ([("round_started", {"last_of_session": False}),
                                      ("bet_placed", {"bet_id": "B1", "player_id": "P", "spot": "red",
                                                      "stake": "10.00"}),
                                      ("bets_closed", {}), ("round_ended", {})]):
        raws.append(ev.raw(t, "R1", **payload))
    msgs = [InMessage(b"RF-X", r, 0, i) for i, r in enumerate(raws)]
    res = BatchProcessor({}.get).process(msgs)
    assert res.rows["rejected"] == []
    assert len(res.rows["events_raw"]) == 5
    kinds = [a["kind"] for a in res.rows["alerts"]]
    assert kinds == ["rejected_event", "procedure"]
    assert "unknown ruleset 'french_roulette.atlantis'" in res.rows["alerts"][0]["message"]
    # no regulation names the rulesets pitwatch ships: the violation cites the engine's own contract
    assert res.rows["alerts"][0]["citation"] == "pitwatch engine (no regulation: event stream integrity)"


# ----------------------------------------------------------------------------- positions


def test_a_table_moved_to_another_partition_loses_nothing(evening):
    """Half-way through the evening the table's key lands on another partition whose offsets
    are lower (a topic re-created with more partitions): nothing is skipped, the result equals
    one pass, and a redelivery of the moved half is still recognised and skipped."""
    lines = [ln for ln in evening if json.loads(ln)["table_id"] == "RF-1"]
    half = len(lines) // 2
    first = [InMessage(b"RF-1", ln, 0, 5000 + i) for i, ln in enumerate(lines[:half])]
    second = [InMessage(b"RF-1", ln, 1, i) for i, ln in enumerate(lines[half:])]
    store: dict[str, bytes] = {}
    proc = BatchProcessor(store.get)
    got = []
    for batch in (first, second, second):
        res = proc.process(batch)
        store.update(res.states)
        got.append(res)
    one = BatchProcessor({}.get).process([InMessage(b"RF-1", ln, 0, i) for i, ln in enumerate(lines)])
    moved = got[0].rows["settlements"] + got[1].rows["settlements"]
    assert sorted(r["settlement_id"] for r in moved) == sorted(r["settlement_id"] for r in one.rows["settlements"])
    assert got[1].skipped == 0 and len(got[1].rows["events_raw"]) == len(second)
    assert got[2].skipped == len(second) and got[2].rows["events_raw"] == []
    # Issue 7 §2: each skipped message is stored with its position and the reason
    skipped = got[2].rows["skipped"]
    assert [(r["partition"], r["offset"]) for r in skipped] == [(m.partition, m.offset) for m in second]
    assert {r["event_id"] for r in skipped} == {json.loads(m.value)["event_id"] for m in second}
    assert skipped[0]["reason"] == ("redelivered: already applied (the table's last applied offset in "
                                    f"pitwatch.table-events:1 is {len(second) - 1}, its last seq {len(lines)})")
    assert got[0].rows["skipped"] == got[1].rows["skipped"] == []
    state = json.loads(store["RF-1"])
    assert state["positions"] == {"pitwatch.table-events:0": 5000 + half - 1,
                                  "pitwatch.table-events:1": len(second) - 1}


def test_partition_hash_is_irrelevant_to_the_verdicts(evening):
    """The same events spread over 3 or 5 partitions give the same ids."""
    a = BatchProcessor({}.get).process(to_messages(evening, 3))
    b = BatchProcessor({}.get).process(to_messages(evening, 5))
    assert sorted(r["alert_id"] for r in a.rows["alerts"]) == sorted(r["alert_id"] for r in b.rows["alerts"])


def test_a_table_whose_state_cannot_be_loaded_is_held_its_events_parked_and_released_after_the_fix(monkeypatch):
    """Issue 7 §3: a stored state this release cannot read (here: written by a newer release)
    is never overwritten; the table's events are parked (stored with the reason, counted, kept
    in events_raw), not rejected, with one table_quarantined alert; the other tables go on. Once
    a release reads the state, `pitwatch quarantine release` applies the parked events: the
    table's settlements are then those of a clean run."""
    from pitwatch.streams.quarantine import release_message

    rf, other = Events(table_id="RF-H"), Events(table_id="RF-O")
    opened = [e.raw("table_opened", actor=("pit_boss", "PB-1"), ruleset_id="french_roulette.galicia",
                    jurisdiction="galicia", min_bet="5.00", max_bet="900.00", float_amount="10000.00") for e in (rf, other)]
    store: dict[str, bytes] = {}
    proc = BatchProcessor(store.get)
    first = proc.process([InMessage(b"RF-H", opened[0], 0, 0), InMessage(b"RF-O", opened[1], 0, 1)])
    store.update(first.states)
    newer = json.loads(store["RF-H"])
    store["RF-H"] = json.dumps(dict(newer, state_version=STATE_VERSION + 1)).encode()  # a newer release wrote it
    kept = store["RF-H"]

    def spin(ev: Events, rid: str) -> list[bytes]:
        return [ev.raw("round_started", rid),
                ev.raw("bet_placed", rid, ("player", "P-1"), bet_id=f"{rid}-B", player_id="P-1", spot="straight:17",
                       stake="10.00"),
                ev.raw("bets_closed", rid), ev.raw("wheel_spun", rid, direction="clockwise"),
                ev.raw("ball_landed", rid, number=17),
                ev.raw("settlement_recorded", rid, bet_id=f"{rid}-B", outcome="win", returned="360.00"),
                ev.raw("round_ended", rid)]

    held_lines, other_lines = spin(rf, "R1"), spin(other, "R1")
    msgs = [InMessage(b"RF-H", ln, 0, 2 + i) for i, ln in enumerate(held_lines)] + \
           [InMessage(b"RF-O", ln, 0, 20 + i) for i, ln in enumerate(other_lines)]
    second = proc.process(msgs)
    assert second.rows["rejected"] == [] and second.parked == len(held_lines) == len(second.rows["parked"])
    assert "stored state cannot be loaded" in second.rows["parked"][0]["reason"]
    assert [(a["table_id"], a["kind"]) for a in second.rows["alerts"]] == [("RF-H", "table_quarantined")]
    assert [s["table_id"] for s in second.rows["settlements"]] == ["RF-O"]
    assert "RF-H" not in second.states and store["RF-H"] == kept  # never overwritten
    store.update(second.states)

    # a release before the fix is refused (and says why); after it, the parked events apply
    refused = proc.process([InMessage(b"RF-H", release_message("RF-H", "auditor-1", rf.t0), 0, 40)])
    assert "cannot be loaded" in refused.rows["rejected"][0]["reason"]
    store["RF-H"] = json.dumps(newer).encode()  # the release that reads it ships
    proc.load_parked = lambda t: [r for r in second.rows["parked"] if r["table_id"] == t]
    third = proc.process([InMessage(b"RF-H", release_message("RF-H", "auditor-1", rf.t0), 0, 41)])
    assert third.rows["rejected"] == []
    assert [(s["bet_id"], s["discrepancy"]) for s in third.rows["settlements"]] == [("R1-B", D("0.00"))]
    assert [a["kind"] for a in third.rows["alerts"]] == ["quarantine_released"]
    assert load_state(third.states["RF-H"]).sequence.last_seq == 8


def test_a_processor_that_keeps_table_states_between_batches_gives_what_a_fresh_one_gives():
    """The batch processor reuses a table's auditor when the stored state it is given is
    exactly the bytes it returned for it last. Over an evening with every fault kind, batch by
    batch, with one batch's states never stored (a failed insert), a long-lived processor
    returns the same rows, messages and states as a new processor reading every state."""
    from pitwatch.sim.base import FAULT_KINDS

    events, _ = simulate(3, 0.5, 5, fault_rates={k: 0.05 for k in FAULT_KINDS})
    lines = [json.dumps(e).encode() for e in events]
    msgs = to_messages(lines, 2)
    clock = lambda: datetime(2026, 11, 24, tzinfo=timezone.utc)  # noqa: E731
    kept_store: dict[str, bytes] = {}
    fresh_store: dict[str, bytes] = {}
    long_lived = BatchProcessor(kept_store.get, clock=clock)
    for i in range(0, len(msgs), 300):
        batch = msgs[i:i + 300]
        kept = long_lived.process(batch)
        fresh = BatchProcessor(fresh_store.get, clock=clock).process(batch)
        assert kept.states == fresh.states and kept.rows["settlements"] == fresh.rows["settlements"]
        assert [r["alert_id"] for r in kept.rows["alerts"]] == [r["alert_id"] for r in fresh.rows["alerts"]]
        assert [m.value for m in kept.messages] == [m.value for m in fresh.messages]
        if i // 300 == 2:  # this batch's insert failed: its states were never stored, it comes again
            again = long_lived.process(batch)
            redone = BatchProcessor(fresh_store.get, clock=clock).process(batch)
            assert again.states == redone.states and again.skipped == redone.skipped == 0
            assert again.rows["settlements"] == redone.rows["settlements"] == fresh.rows["settlements"]
            kept = again
        kept_store.update(kept.states)
        fresh_store.update(fresh.states)


def _longest_round(extra_bets: int) -> tuple[list[InMessage], str]:
    """A roulette table whose every text field has its longest allowed value (64 characters; 32
    options of 64 + 256): opened, one round started, then MAX_ROUND_EVENTS - 1 + ``extra_bets``
    bets of a runaway device. Returns the messages and the table id."""
    from pitwatch.rules.engine import MAX_ROUND_EVENTS
    tid, rid, long = "T" * 64, "R" * 64, "x" * 64
    t0 = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)
    seq = 0

    def ev(type_: str, round_id: str | None, **payload: object) -> bytes:
        nonlocal seq
        seq += 1
        return json.dumps({"event_id": str(uuid.UUID(int=seq)), "casino_id": "c" * 64, "table_id": tid,
                           "game": "french_roulette", "seq": seq, "round_id": round_id,
                           "occurred_at": (t0 + timedelta(milliseconds=seq)).isoformat(),
                           "actor": {"role": "player", "id": long}, "type": type_, **payload}).encode()

    options = {f"o{i:02d}" + "o" * 61: "v" * 256 for i in range(32)}
    lines = [ev("table_opened", None, ruleset_id="french_roulette.galicia", jurisdiction="galicia",
                min_bet="5.00", max_bet="900.00", float_amount="999999999.99", options=options),
             ev("round_started", rid)]
    lines += [ev("bet_placed", rid, bet_id=f"{n:064d}", player_id=long, spot="corner:31-32-34-35",
                 stake="999999999.99") for n in range(MAX_ROUND_EVENTS - 1 + extra_bets)]
    return [InMessage(tid.encode(), ln, 0, i) for i, ln in enumerate(lines)], tid


def test_the_longest_round_a_state_keeps_fits_the_state_store():
    """A round of MAX_ROUND_EVENTS events (round_started and 999 bets), every field at its
    longest, plus the most recent ids: the table's state stays below the 1,000,000 bytes of a
    state-store message (Faust's producer limit), so the worker can always write it."""
    msgs, tid = _longest_round(0)
    res = BatchProcessor({}.get).process(msgs)
    assert res.rows["rejected"] == [] and res.parked == 0
    assert 500_000 < len(res.states[tid]) < 1_000_000, len(res.states[tid])


def test_a_runaway_round_quarantines_its_table_instead_of_outgrowing_its_state():
    """The event after MAX_ROUND_EVENTS in one round is not applied: it goes to pitwatch.rejected
    with the summary (RoundTooLong), the table is quarantined (one table_quarantined alert, the
    event and the later ones parked), its stored state stays below 1,000,000 bytes, and another
    table in the same batch is judged as usual."""
    msgs, tid = _longest_round(2)
    other = [InMessage(b"RF-FIX", Events().raw("table_opened", actor=("pit_boss", "PB-1"),
                                                ruleset_id="french_roulette.galicia", jurisdiction="galicia",
                                                min_bet="5.00", max_bet="900.00", float_amount="100.00"), 1, 0)]
    store: dict[str, bytes] = {}
    res = BatchProcessor(store.get).process(msgs + other)
    [rejected] = res.rows["rejected"]
    assert "RoundTooLong" in rejected["reason"] and f"already holds {1000} events" in rejected["reason"]
    assert json.loads(rejected["raw"])["seq"] == len(msgs) - 1  # the first bet past the limit
    assert res.parked == 2 and [r["seq"] for r in res.rows["parked"]] == [len(msgs) - 1, len(msgs)]
    assert [a["kind"] for a in res.rows["alerts"] if a["kind"] == "table_quarantined"] == ["table_quarantined"]
    assert len(res.states[tid]) < 1_000_000
    assert load_state(res.states[tid]).quarantine is not None
    assert "RF-FIX" in res.states and any(r["table_id"] == "RF-FIX" for r in res.rows["events_raw"])
