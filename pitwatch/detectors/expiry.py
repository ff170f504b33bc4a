"""Expiry of the watch state: players and dealers not seen for :data:`HORIZON` are forgotten.

A casino's watch (:class:`pitwatch.detectors.watch.CasinoWatch`) is one value of the state table's
changelog; left alone it keeps every pair of players and every dealer-player pair it ever saw, and
grows without bound. So it remembers when each player and dealer was last seen in a round released
to the detectors (event time), and once per :data:`SWEEP_EVERY` of event time it forgets those not
seen for :data:`HORIZON`: each detector's records of the party and of every pair it belongs to go
(:func:`forget`). The others keep their own totals (their history with everybody, the forgotten
included), and the pairs already alerted are kept (an alert is not raised twice for one pair). A
player who comes back after the horizon starts a new record. Driven by the rounds' event time, in
release order, so the live stream, a file and a rebuild forget the same parties at the same round.

The horizon is a month: the collusion detectors need a few hundred shared hands or rounds, which
a ring plays within days; a player gone a month has no live pattern to finish.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Callable, Mapping

HORIZON = timedelta(days=30)
"""A party not seen in a released round for this long (event time) is forgotten."""
SWEEP_EVERY = timedelta(days=1)
"""How often (event time) the watch looks for parties to forget."""


def _rows(rows: list[list[Any]], gone: set[str]) -> list[list[Any]]:
    """Rows ``[a, b, ...]`` of pairs, without those with a party in ``gone``."""
    return [r for r in rows if r[0] not in gone and r[1] not in gone]


def _keys(d: Mapping[str, Any], gone: set[str]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in gone}


def _pairs_state(s: dict[str, Any], players: set[str], dealers: set[str]) -> dict[str, Any]:
    return {**s, "pairs": [r for r in s["pairs"] if r[0] not in dealers and r[1] not in players],
            "dealers": _keys(s["dealers"], dealers), "players": _keys(s["players"], players)}


def _chip_dumping(s: dict[str, Any], players: set[str], dealers: set[str]) -> dict[str, Any]:
    return {**s, "pairs": _rows(s["pairs"], players), "players": _keys(s["players"], players),
            "together": _rows(s["together"], players)}


def _pair_behaviour(s: dict[str, Any], players: set[str], dealers: set[str]) -> dict[str, Any]:
    return {**s, "rates": _rows(s["rates"], players), "evidence": _rows(s["evidence"], players)}


def _association(s: dict[str, Any], players: set[str], dealers: set[str]) -> dict[str, Any]:
    return {**s, "rates": _rows(s["rates"], players), "proportions": _rows(s["proportions"], players),
            "pairs": _rows(s["pairs"], players)}


def _two_tables(s: dict[str, Any], players: set[str], dealers: set[str]) -> dict[str, Any]:
    return {**s, "hands": _keys(s["hands"], players)}


FORGETTERS: dict[str, Callable[[dict[str, Any], set[str], set[str]], dict[str, Any]]] = {
    "dealer_player_collusion": _pairs_state, "chip_dumping": _chip_dumping, "soft_play": _pair_behaviour,
    "whipsaw": _pair_behaviour, "association": _association, "two_tables": _two_tables,
}
"""Per detector (by name), its state without the forgotten ``(players, dealers)``."""


def forget(name: str, state: dict[str, Any], players: set[str], dealers: set[str]) -> dict[str, Any]:
    """``state`` (a detector's :meth:`to_state`) without the records of ``players`` and ``dealers`` and
    of the pairs they belong to (module docstring). A detector with no forgetter keeps its state.
    The pairs alerted are kept."""
    f = FORGETTERS.get(name)
    return state if f is None else f(state, players, dealers)


__all__ = ["FORGETTERS", "HORIZON", "SWEEP_EVERY", "forget"]
