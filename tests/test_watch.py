"""The watch stage (:mod:`pitwatch.streams.watch`) and what it reads and keeps: the round digest's
versioned JSON, a casino's watch state, and the batch processor's at-least-once bookkeeping (a
redelivered digest skipped and stored as such, a bad or misrouted one rejected with its bytes)."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest
from pitwatch.detectors.digest import RoundDigest, TableMark, digest_of
from pitwatch.detectors.pairs import KIND as COLLUSION
from pitwatch.detectors.watch import CasinoWatch
from pitwatch.rules.base import BetCheck, ExpectedSettlement, RoundVerdict, Violation, ViolationKind
from pitwatch.streams.processor import InMessage
from pitwatch.streams.topics import TOPIC_ALERTS, TOPIC_REJECTED
from pitwatch.streams.watch import WatchProcessor

D = Decimal
T = datetime(2026, 11, 25, 21, 0, 5, 250000, tzinfo=timezone.utc)


def _verdict(n: int, dealer: str, table: str = "RF-1", casino: str = "CAS",
             bets: tuple[tuple[str, str], ...] = (("P1", "0"), ("P2", "0"))) -> RoundVerdict:
    """A roulette round at ``table`` ending ``n`` seconds after ``T``: each bet (player, discrepancy)
    a 10.00 stake on red, lost."""
    checks = tuple(BetCheck(ExpectedSettlement(f"B{n}-{i}", p, "red", D(10), "lose", D(0)), None, D(x))
                   for i, (p, x) in enumerate(bets))
    end = T + timedelta(seconds=n)
    return RoundVerdict(casino, table, "french_roulette", "french_roulette.galicia", f"R{n}", dealer, end, end, "17",
                        checks, ())


def test_a_digest_keeps_each_bet_once_marks_late_bets_and_round_trips_as_json():
    """A bet checked twice (en prison) is one bet of the digest; a past-posted bet is marked late;
    money and time survive the JSON exactly."""
    v = _verdict(1, "D1", bets=(("P1", "2.50"), ("P2", "0")))
    v = RoundVerdict(v.casino_id, v.table_id, v.game, v.ruleset_id, v.round_id, v.dealer_id, T, T, "17",
                     v.checks + (v.checks[0],),
                     (Violation(ViolationKind.PAST_POSTING, "late", "x", (), "B1-1", "P2"),), ruleset_hash="abc")
    d = digest_of(v)
    assert [(b.bet_id, b.player_id, b.discrepancy, b.late, b.outcome) for b in d.bets] == [
        ("B1-0", "P1", D("2.50"), False, "lose"), ("B1-1", "P2", D("0"), True, "lose")]
    again = RoundDigest.from_json(d.to_json())
    assert again == d and again.ended_at == T and again.ruleset_hash == "abc"


@pytest.mark.parametrize("raw,why", [
    (b"not json", "Expecting value"), (b"[1]", "version 'list'"), (b'{"v": 9}', "version 9"),
    (b'{"v": 1, "casino_id": "C"}', "KeyError"),
])
def test_bytes_that_are_not_a_digest_say_why(raw, why):
    with pytest.raises(ValueError, match=why):
        RoundDigest.from_json(raw)


def test_a_poker_digest_keeps_the_forced_bets_and_the_folds():
    """At poker the digest keeps what a player was forced to put in (his blind) and whether he folded:
    what the chip-dumping detector reads."""
    sb = ExpectedSettlement("H1:A", "A", "pot", D("12.00"), "fold", D(0), forced=D("1.00"))
    bb = ExpectedSettlement("H1:B", "B", "pot", D("12.00"), "win", D("23.40"), forced=D("2.00"))
    v = RoundVerdict("CAS", "PK-1", "poker", "poker.andalucia", "H1", "D1", T, T, "", (
        BetCheck(sb, None, D(0)), BetCheck(bb, None, D(0))), ())
    d = RoundDigest.from_json(digest_of(v).to_json())
    assert [(b.player_id, b.stake, b.forced, b.outcome) for b in d.bets] == [
        ("A", D("12.00"), D("1.00"), "fold"), ("B", D("12.00"), D("2.00"), "win")]


def test_a_poker_digest_keeps_the_decisions_and_a_version_1_digest_is_read_with_none():
    """The decisions of a hand (interval, player, action) survive the JSON in order (what the soft-play
    and whipsaw detectors read); a digest written before they were carried (version 1) is upcast with
    no decisions, not refused."""
    sb = ExpectedSettlement("H1:A", "A", "pot", D("1.00"), "fold", D(0), forced=D("1.00"))
    taken = ((0, "A", "small_blind", False), (0, "B", "big_blind", False), (0, "A", "fold", True))
    v = RoundVerdict("CAS", "PK-1", "poker", "poker.andalucia", "H1", "D1", T, T, "", (BetCheck(sb, None, D(0)),), (),
                     decisions=taken)
    raw = digest_of(v).to_json()
    assert RoundDigest.from_json(raw).decisions == taken
    assert RoundDigest.from_json(raw).started_at == T
    old = json.loads(raw)
    old["v"] = 1
    del old["decisions"], old["started_at"]
    back = RoundDigest.from_json(json.dumps(old))
    assert back.decisions == () and back.started_at is None and back.bets == digest_of(v).bets


def _ring_evening(rounds: int = 900) -> list[RoundDigest]:
    """Dealers D1..D3 deal ``rounds`` rounds each to P1..P4 at two tables (one bet each a round),
    over-paying one bet in 60 whoever the player; D2 also over-pays P3 on one round in ten."""
    rng = random.Random(5)
    out = []
    for n in range(rounds * 3):
        dealer = f"D{n % 3 + 1}"
        bets = []
        for p in ("P1", "P2", "P3", "P4"):
            error = rng.random() < 1 / 60
            extra = dealer == "D2" and p == "P3" and (n // 3) % 10 == 0
            bets.append((p, "5" if error or extra else "0"))
        out.append(digest_of(_verdict(n, dealer, table=f"RF-{n % 2 + 1}", bets=tuple(bets))))
    return out


def _messages(digests: list[RoundDigest | TableMark], first_offset: int = 0) -> list[InMessage]:
    return [InMessage(d.casino_id.encode(), d.to_json(), 0, first_offset + i) for i, d in enumerate(digests)]


def _closing(digests: list[RoundDigest]) -> list[RoundDigest | TableMark]:
    """``digests`` then each table's ``table_closed`` mark, as the table stage sends them."""
    end = max(d.ended_at for d in digests)
    return [*digests, *(TableMark("CAS", t, end) for t in sorted({d.table_id for d in digests}))]


class _Store:
    """The Faust table's stand-in: the states the processor returned, by casino."""

    def __init__(self) -> None:
        self.states: dict[str, bytes] = {}

    def load(self, casino_id: str) -> bytes | None:
        return self.states.get(casino_id)


def test_the_watch_stage_finds_the_ring_across_tables_once_and_skips_a_redelivery():
    """The ring (D2, P3) is alerted once, across the two tables, as the offline watch alerts it; the
    same batch delivered again (a crash before the commit) is skipped, counted and stored in
    ``skipped``, and raises nothing new."""
    digests = _ring_evening()
    store = _Store()
    proc = WatchProcessor(store.load, clock=lambda: T)
    alerts = []
    messages = _closing(digests)
    for i in range(0, len(messages), 500):  # batches of 500, the state stored between them
        res = proc.process(_messages(messages[i:i + 500], i))
        store.states.update(res.states)
        alerts += res.rows["alerts"]
        assert all(m.topic == TOPIC_ALERTS for m in res.messages)
    assert [(a["kind"], a["dealer_id"], a["player_id"]) for a in alerts] == [(COLLUSION, "D2", "P3")]
    offline = CasinoWatch("CAS")
    assert [a.to_row() for d in digests for a in offline.offer(d)[1]] + [a.to_row() for a in offline.flush()] == alerts
    again = proc.process(_messages(digests[:500]))
    assert (again.skipped, again.rows["alerts"], len(again.rows["skipped"])) == (500, [], 500)
    assert again.rows["skipped"][0]["reason"].startswith("redelivered: round digest already applied")


def test_a_bad_or_misrouted_digest_is_rejected_with_its_bytes_and_changes_nothing():
    store = _Store()
    proc = WatchProcessor(store.load, clock=lambda: T)
    good = _ring_evening(2)[0]
    res = proc.process([InMessage(b"CAS", b"{oops", 0, 0), InMessage(b"OTHER", good.to_json(), 0, 1)])
    assert [m.topic for m in res.messages] == [TOPIC_REJECTED, TOPIC_REJECTED]
    assert [r["raw"] for r in res.rows["rejected"]] == ["{oops", good.to_json().decode()]
    assert "is not the casino_id 'CAS'" in res.rows["rejected"][1]["reason"]
    assert res.states == {}


def test_a_watch_state_is_versioned_json_that_round_trips_and_refuses_another_version():
    watch = CasinoWatch("CAS")
    for d in _ring_evening(200):
        watch.offer(d)
    assert watch.release.pending  # the last half hour of rounds waits for the watermark
    watch.mark_applied("pitwatch.round-digests:0", 599)
    again = CasinoWatch.load(watch.dump())
    assert again.to_state() == watch.to_state() and again.already_applied("pitwatch.round-digests:0", 599)
    assert watch.dump()[:1] != b"{" and CasinoWatch.load(json.dumps(watch.to_state()).encode()).to_state() == \
        watch.to_state()  # compressed; a plain JSON state (written before) is read too
    state = CasinoWatch.decode(watch.dump())
    state["version"] = 3
    with pytest.raises(ValueError, match="watch state version 3"):
        CasinoWatch.from_state(state)
    state = CasinoWatch.decode(watch.dump())
    state["detectors"][COLLUSION]["version"] = 7
    with pytest.raises(ValueError, match="version 7"):
        CasinoWatch.from_state(state)
    unreadable = WatchProcessor(lambda _c: json.dumps(state).encode()).process(_messages(_ring_evening(1)))
    assert "watch state cannot be loaded" in unreadable.rows["parked"][0]["reason"] and unreadable.states == {}
    assert unreadable.parked == 3 and unreadable.rows["rejected"] == []  # parked with its bytes, not refused for good
    assert unreadable.rows["parked"][0]["raw"] == _ring_evening(1)[0].to_json().decode()
