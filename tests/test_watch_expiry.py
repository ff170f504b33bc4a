"""Issue 21 §1: the watch state is bounded. Players and dealers not seen for the horizon (30 days of
event time) are forgotten by every detector, with the pairs they belong to; the pairs already
alerted are kept; a casino of 1,000 players over 90 days keeps a state of bounded size."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from decimal import Decimal

from pitwatch.detectors.digest import DigestBet, RoundDigest
from pitwatch.detectors.expiry import FORGETTERS, HORIZON
from pitwatch.detectors.pairs import KIND as COLLUSION
from pitwatch.detectors.watch import DETECTORS, CasinoWatch

T0 = datetime(2026, 1, 1, 20, tzinfo=timezone.utc)


def _round(n: int, t: datetime, dealer: str, players: list[str], table: str = "PB-1") -> RoundDigest:
    bets = tuple(DigestBet(f"B{n}-{p}", p, Decimal(10), Decimal(0), Decimal(0), outcome="lose") for p in players)
    return RoundDigest("CAS", table, "punto_banca", f"R{n:06d}", dealer, t, "punto_banca.galicia", "h", bets)


def test_every_detector_has_a_forgetter():
    assert set(FORGETTERS) == {cls.name for cls in DETECTORS}


def test_a_player_gone_past_the_horizon_is_forgotten_and_a_regular_is_kept():
    """P-OLD plays on day 0 only; P-REG every day. After 31 days P-OLD's records are gone from the
    dealer-player detector and from what the watch remembers; P-REG's and the dealer's stay."""
    watch = CasinoWatch("CAS")
    n = 0
    for day in range(32):
        t = T0 + timedelta(days=day)
        players = ["P-REG", "P-OLD"] if day == 0 else ["P-REG"]
        for k in range(3):
            n += 1
            watch.offer(_round(n, t + timedelta(minutes=k), "D-1", players))
    watch.flush()
    state = watch.detectors[COLLUSION].to_state()
    assert "P-OLD" not in state["players"] and "P-REG" in state["players"]
    assert [r[1] for r in state["pairs"]] == ["P-REG"] and "D-1" in state["dealers"]
    assert "P-OLD" not in watch.players_seen and watch.players_seen["P-REG"] == T0 + timedelta(days=31, minutes=2)
    again = CasinoWatch.load(watch.dump())
    assert again.to_state() == watch.to_state()


def test_the_sweep_forgets_exactly_those_not_seen_for_the_horizon():
    watch = CasinoWatch("CAS")
    watch.players_seen = {"A": T0, "B": T0 + timedelta(days=1)}
    watch.dealers_seen = {"D": T0}
    assert watch.sweep(T0 + HORIZON + timedelta(hours=1)) == ({"A"}, {"D"})
    assert set(watch.players_seen) == {"B"}


def test_a_casino_of_1000_players_over_90_days_keeps_a_bounded_state():
    """1,000 players, 40 a night in groups of 5 at 8 tables, 90 nights: the state stays a fraction of
    what it would hold unbounded (every player and pair of 90 days). Sizes are recorded in
    docs/detectors.md."""
    watch = CasinoWatch("CAS")
    n = 0
    for day in range(90):
        t = T0 + timedelta(days=day)
        tonight = [f"P{(day * 37 + i * 11) % 1000:04d}" for i in range(40)]
        for table in range(8):
            for k in range(30):
                n += 1
                group = tonight[table * 5:(table + 1) * 5]
                watch.offer(_round(n, t + timedelta(minutes=2 * k, seconds=table), f"D{table}", group,
                                   table=f"PB-{table}"))
    watch.flush()
    seen = len(watch.players_seen)
    assert seen <= 31 * 40  # at most the last 31 nights' players
    assert len(watch.detectors[COLLUSION].to_state()["players"]) <= 31 * 40
    assert len(watch.dump()) < 256 * 1024
