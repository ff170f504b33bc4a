"""The table limits in force during a month and the breaches flagged under each.

:func:`limits_in_force` ``(settings, alerts, month_start, tables)`` -> one row per table and
limits (minimum, maximum) in force at some time of the month: those in force when the month began
and every change during it (``table_opened`` and ``limits_changed`` events, whose ``min_bet`` and
``max_bet`` are the table's limits: 000 L169 forbids changing them during a session in Galicia). A
table that reopens with the same limits adds no row. The breaches are the month's
``bet_below_minimum`` and ``bet_above_maximum`` alerts of the table, each counted under the limits in
force when it was detected (the last set at or before it; of two set at the same instant, the
later in order), with the sum of their amounts (the stake below the minimum or over the maximum).

Pure: rows in, rows out. Times are UTC milliseconds since the epoch; euros ``Decimal``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Iterable

BREACH_KINDS = {"bet_below_minimum": "below_minimum", "bet_above_maximum": "above_maximum"}
"""Alert kind -> the column of :func:`limits_in_force` it counts in."""


def limits_in_force(settings: Iterable[tuple[str, str, int, str, str]], breaches: Iterable[tuple[str, str, int, Any]],
                    month_start: int, tables: Iterable[str] = ()) -> list[dict[str, Any]]:
    """Rows ``table_id``, ``game``, ``min_bet``, ``max_bet`` (euro strings, ``None`` when no opening
    of the table is known), ``since`` (UTC ms the limits were set, ``None`` likewise),
    ``below_minimum``, ``above_maximum`` (alert counts) and ``amount`` (``Decimal``), ordered by
    table and time.

    ``settings``: ``(table_id, game, t_ms, min_bet, max_bet)`` every limits set up to the month's
    end, in time order per table; ``breaches``: the month's ``(table_id, kind, t_ms, amount)``
    alerts of the two :data:`BREACH_KINDS`; ``month_start``: UTC ms the month's first gaming day
    begins; ``tables``: tables with figures in the month (shown with the limits then in force even
    without a change or a breach)."""
    per_table: dict[str, list[dict[str, Any]]] = {}
    for table, game, t, low, high in settings:
        rows = per_table.setdefault(table, [])
        if rows and (rows[-1]["min_bet"], rows[-1]["max_bet"]) == (low, high):
            continue  # the same limits again (a reopening): in force since the first time
        while rows and (rows[-1]["since"] == t or rows[-1]["since"] <= month_start and t <= month_start):
            rows.pop()  # replaced at the same instant, or before the month began
        if not rows or (rows[-1]["min_bet"], rows[-1]["max_bet"]) != (low, high):
            rows.append(_row(table, game, t, low, high))
    active = set(tables)
    for table, kind, t, amount in breaches:
        active.add(table)
        rows = per_table.setdefault(table, [])
        under = [r for r in rows if r["since"] is None or r["since"] <= t]
        if not under:
            rows.insert(0, _row(table, "", None, None, None))
            under = rows[:1]
        row = under[-1]
        row[BREACH_KINDS[kind]] += 1
        row["amount"] += Decimal(str(amount))
    out: list[dict[str, Any]] = []
    for table in sorted(per_table):
        rows = per_table[table]
        keep = [r for i, r in enumerate(rows)
                if r["since"] is None or r["since"] > month_start
                or i + 1 == len(rows) or rows[i + 1]["since"] > month_start]
        if table in active or any(r["since"] is not None and r["since"] > month_start for r in keep):
            out += keep
    return out


def _row(table: str, game: str, t: int | None, low: str | None, high: str | None) -> dict[str, Any]:
    return {"table_id": table, "game": game, "min_bet": low, "max_bet": high, "since": t, "below_minimum": 0,
            "above_maximum": 0, "amount": Decimal("0.00")}


__all__ = ["BREACH_KINDS", "limits_in_force"]
