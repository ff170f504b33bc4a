"""Issue 21 §1: detector states and round digests break on upgrade no more.

Every watch state and digest that an earlier release stored (tests/data/watch, each written by the
release's own code; README there says how) loads in this release: the watch state of version 1 is
upcast with an empty release buffer, the two-tables state whose times changed from ISO strings to
milliseconds under the same version number (a5d4b3c) is read in either form, and the first digests'
six-field bets (56e165b) are read with nothing forced and no outcome. Before the upcasters, states
04, 06 and 07 and digest-v1.json were refused, and the worker then rejected every digest of the
casino for good."""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path

import pytest
from pitwatch.detectors.digest import RoundDigest
from pitwatch.detectors.release import Intake
from pitwatch.detectors.two_tables import NAME as TWO_TABLES
from pitwatch.detectors.watch import WATCH_STATE_VERSION, CasinoWatch

DATA = Path(__file__).parent / "data" / "watch"
STATES = sorted(DATA.glob("*.state"))
DIGESTS = sorted(DATA.glob("digest-*.json"))


def test_the_data_of_every_earlier_release_is_here():
    assert len(STATES) == 9 and len(DIGESTS) == 4


@pytest.mark.parametrize("path", STATES, ids=[p.stem for p in STATES])
def test_a_state_of_every_earlier_release_loads_and_goes_on(path):
    """The state loads as this version, keeps the position it had applied and each detector it had,
    and the watch takes the next digest in."""
    watch = CasinoWatch.load(path.read_bytes())
    state = watch.to_state()
    assert state["version"] == WATCH_STATE_VERSION and watch.casino_id == "and-marbella"
    assert watch.positions and watch.release.pending == []
    old = CasinoWatch.decode(path.read_bytes())
    for name, det in old["detectors"].items():
        if name == TWO_TABLES:
            assert det["hands"] and state["detectors"][name]["hands"]
        else:
            assert watch.detectors[name].to_state() != type(watch.detectors[name])().to_state()  # not emptied
    nxt = RoundDigest.from_json((DATA / "digest-v2-b22401d.json").read_bytes())
    later = RoundDigest(nxt.casino_id, nxt.table_id, nxt.game, nxt.round_id + "-next", nxt.dealer_id,
                        datetime(2027, 1, 1, tzinfo=timezone.utc), nxt.ruleset_id, nxt.ruleset_hash, nxt.bets,
                        nxt.decisions, nxt.started_at)
    assert watch.offer(later)[0] is Intake.BUFFERED
    assert CasinoWatch.load(watch.dump()).to_state() == watch.to_state()


def test_the_two_tables_state_with_iso_times_is_read_as_the_same_instants():
    """04 (b22401d) wrote two tables' hands with ISO times; read now, the same hands at the same
    instants as milliseconds."""
    old = CasinoWatch.decode((DATA / "04-b22401d-two-tables-iso.state").read_bytes())["detectors"][TWO_TABLES]
    player, hands = next(iter(old["hands"].items()))
    table, round_id, start, end = hands[0]
    assert isinstance(start, str)
    det = CasinoWatch.load((DATA / "04-b22401d-two-tables-iso.state").read_bytes()).detectors[TWO_TABLES]
    (hand,) = [h for h in det.hands[player][table] if h[1] == round_id]  # type: ignore[attr-defined]
    assert hand[2] == datetime.fromisoformat(start) and hand[3] == datetime.fromisoformat(end)


@pytest.mark.parametrize("path", DIGESTS, ids=[p.stem for p in DIGESTS])
def test_a_digest_of_every_earlier_release_is_read(path):
    d = RoundDigest.from_json(path.read_bytes())
    assert d.casino_id == "and-marbella" and d.bets and d.ended_at.tzinfo is not None


def test_the_first_digests_six_field_bets_read_with_nothing_forced():
    d = RoundDigest.from_json((DATA / "digest-v1.json").read_bytes())
    assert {(b.forced, b.outcome) for b in d.bets} == {(Decimal(0), "")}
