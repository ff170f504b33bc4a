"""Replay one round from the warehouse's raw events (``pitwatch replay round``)."""

from __future__ import annotations

from dataclasses import replace

from pitwatch.replay import ReplayItem, ReplayStats, replay_lines


def replay_round(warehouse_url: str, table_id: str, round_id: str,
                 stats: ReplayStats | None = None) -> list[ReplayItem] | None:
    """Re-derive the verdict of ``round_id`` on ``table_id`` from the stored events.

    The table's events up to the round's last ``seq`` are folded from the table's latest
    ``table_opened`` before the round (limits, ruleset and cross-round state such as
    imprisoned roulette bets come from them). Returns the items to report: one per stored
    event that could not be replayed (``error`` names its ``seq``; e.g. an event stored
    before a stricter schema), then the round's verdict item; their ``line`` is ``None``.
    Returns ``None`` if the round is not stored. ``stats``, if given, receives the counts:
    stored events read (``lines``) and accepted (``events``), the invalid ones, one round
    and that round's violations (alerts of other rounds of the fold are not this round's).
    Raises ``pitwatch.warehouse.WarehouseError`` or ``ValueError`` if the warehouse cannot
    be read.
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
            "SELECT seq, payload FROM pitwatch.events_raw FINAL WHERE table_id = %(t)s "
            "AND seq >= %(a)s AND seq <= %(b)s ORDER BY seq", {"t": table_id, "a": start, "b": last})
    finally:
        wh.close()
    fold = ReplayStats()
    bad: list[ReplayItem] = []
    found = None
    for item in replay_lines((r[1] for r in rows), stats=fold):
        if item.error is not None:
            seq = rows[(item.line or 1) - 1][0]
            bad.append(replace(item, line=None, error=f"stored event seq {seq} of {table_id}: {item.error}"))
        elif item.verdict is not None and item.verdict.round_id == round_id:
            found = replace(item, line=None)
    if found is None:
        return None
    if stats is not None:
        stats.lines += fold.lines
        stats.events += fold.events
        for item in (*bad, found):
            stats.count(item)
    return [*bad, found]
