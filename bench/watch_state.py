"""The size of a casino's watch state over a long season, with and without expiry.

``python -m bench.watch_state [--players 1000 --days 90 --tables 8]``: a synthetic casino of
``players`` regulars, 40 of them a night (a different mix each night) at ``tables`` tables, half
punto y banca (bets only) and half hold'em (hands with blinds, calls, raises and folds, so every
pair detector keeps records), 30 rounds a table a night. Prints the state's size (JSON and stored,
zlib) every 15 days, for the watch as it runs (players not seen for 30 days forgotten,
:mod:`pitwatch.detectors.expiry`) and for the same watch with a horizon longer than the season (what
the state was before expiry), and the peak RSS.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
from datetime import datetime, timedelta, timezone
from decimal import Decimal

from pitwatch.detectors.digest import DigestBet, RoundDigest
from pitwatch.detectors.watch import CasinoWatch

T0 = datetime(2026, 1, 1, 20, tzinfo=timezone.utc)


def _hand(n: int, t: datetime, table: str, dealer: str, seats: list[str], rng: random.Random) -> RoundDigest:
    decisions: list[tuple[int, str, str, bool]] = [(0, seats[0], "small_blind", False), (0, seats[1], "big_blind", False)]
    live = list(seats)
    for p in seats[2:] + seats[:2]:
        act = rng.choice(("fold", "call", "raise", "call"))
        decisions.append((0, p, act, True))
        if act == "fold":
            live.remove(p)
    winner = live[0] if live else seats[0]
    stakes = {p: Decimal(rng.choice((2, 4, 10))) for p in seats}
    pot = sum(stakes.values(), Decimal(0))
    bets = tuple(DigestBet(f"{table}-H{n}:{p}", p, stakes[p], pot if p == winner else Decimal(0), Decimal(0),
                           forced=Decimal(1) if p in seats[:2] else Decimal(0),
                           outcome="win" if p == winner else ("fold" if p not in live else "lose")) for p in seats)
    return RoundDigest("CAS", table, "poker", f"{table}-H{n:07d}", dealer, t, "poker.andalucia", "h", bets,
                       tuple(decisions), t - timedelta(minutes=1))


def _coup(n: int, t: datetime, table: str, dealer: str, seats: list[str], rng: random.Random) -> RoundDigest:
    bets = tuple(DigestBet(f"{table}-B{n}:{p}", p, Decimal(20), Decimal(rng.choice((0, 40))), Decimal(0),
                           outcome="win") for p in seats)
    return RoundDigest("CAS", table, "punto_banca", f"{table}-R{n:07d}", dealer, t, "punto_banca.galicia", "h", bets)


def season(players: int, days: int, tables: int, seed: int = 7):
    """The season's digests, night after night, in time order."""
    rng = random.Random(seed)
    n = 0
    for day in range(days):
        tonight = rng.sample([f"P{i:04d}" for i in range(players)], 40)
        start = T0 + timedelta(days=day)
        for k in range(30):
            for table in range(tables):
                n += 1
                seats = [tonight[(table * 5 + j) % 40] for j in range(5)]
                t = start + timedelta(minutes=3 * k, seconds=table)
                make = _hand if table % 2 else _coup
                yield day, make(n, t, f"T{table}", f"D{table}", seats, rng)


def run(players: int, days: int, tables: int, horizon_days: int | None) -> list[tuple[int, int, int]]:
    watch = CasinoWatch("CAS")
    if horizon_days is not None:
        watch.horizon = timedelta(days=horizon_days)
    sizes = []
    last_day = -1
    for day, d in season(players, days, tables):
        if day != last_day and day % 15 == 0 and day:
            sizes.append((day, len(json.dumps(watch.to_state())), len(watch.dump())))
        last_day = day
        watch.offer(d)
    watch.flush()
    sizes.append((days, len(json.dumps(watch.to_state())), len(watch.dump())))
    return sizes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--days", type=int, default=90)
    ap.add_argument("--tables", type=int, default=8)
    a = ap.parse_args()
    bounded = run(a.players, a.days, a.tables, None)
    unbounded = run(a.players, a.days, a.tables, a.days + 1)
    print(f"# {a.players} players, {a.days} days, {a.tables} tables (40 players a night, 30 rounds a table)")
    print("day  | state JSON (expiry) | stored | state JSON (no expiry) | stored")
    for (day, j, z), (_, uj, uz) in zip(bounded, unbounded):
        print(f"{day:4d} | {j / 1024:15,.0f} KB | {z / 1024:6,.0f} KB | {uj / 1024:18,.0f} KB | {uz / 1024:6,.0f} KB")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MB")


if __name__ == "__main__":
    main()
