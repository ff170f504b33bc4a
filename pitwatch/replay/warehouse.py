"""Replay one round from the warehouse's raw events (``pitwatch replay round``)."""

from __future__ import annotations

from pitwatch.replay import ReplayItem, replay_lines


def replay_round(warehouse_url: str, table_id: str, round_id: str) -> ReplayItem | None:
    """Re-derive the verdict of ``round_id`` on ``table_id`` from the stored events.

    The table's events up to the round's last ``seq`` are folded from the table's latest
    ``table_opened`` before the round (limits, ruleset and cross-round state such as
    imprisoned roulette bets come from them). Returns ``None`` if the round is not stored.
    """
    from pitwatch.warehouse import open_warehouse

    wh = open_warehouse(warehouse_url)
    try:
        bounds = wh.query(
            "SELECT min(seq), max(seq) FROM pitwatch.events_raw FINAL "
            "WHERE table_id = %(t)s AND round_id = %(r)s", {"t": table_id, "r": round_id})
        if not bounds or bounds[0][1] in (None, 0):
            return None
        first, last = bounds[0]
        opened = wh.query(
            "SELECT max(seq) FROM pitwatch.events_raw FINAL WHERE table_id = %(t)s "
            "AND type = 'table_opened' AND seq <= %(s)s", {"t": table_id, "s": first})
        start = opened[0][0] if opened and opened[0][0] else 1
        rows = wh.query(
            "SELECT payload FROM pitwatch.events_raw FINAL WHERE table_id = %(t)s "
            "AND seq >= %(a)s AND seq <= %(b)s ORDER BY seq", {"t": table_id, "a": start, "b": last})
    finally:
        wh.close()
    found = None
    for item in replay_lines(r[0] for r in rows):
        if item.verdict is not None and item.verdict.round_id == round_id:
            found = item
    return found
