"""The warehouse queries of the monthly regulator report: portable SQL (ClickHouse 18.16 and chDB).

Every query takes ``%(casino)s`` and a range of gaming days ``[%(first)s, %(last)s]`` (Dates), or a
UTC instant range ``[%(since)s, %(until)s)`` for what is timed by processing (rejected and
quarantined messages, alert actions). The gaming day of an alert is that of its ``detected_at``
(the time of the event that revealed it), by :func:`pitwatch.warehouse.migrate.gaming_day_sql`, the
same rule as the settlements' and movements' stored ``gaming_day``. Sums of ``table_hourly`` are read
with ``sum(...) GROUP BY`` (a SummingMergeTree); base tables with ``FINAL``.
"""

from __future__ import annotations

from pitwatch.replay.figures import json_money_sql as json_money
from pitwatch.warehouse.migrate import gaming_day_sql

FIGURES = ("bets", "handle", "win", "theoretical_win", "theoretical_variance", "commission", "drop",
           "cashed", "fills", "credits", "tips")
"""The summed ``table_hourly`` columns, in the order the figure queries return them."""

_SUMS = ", ".join(f"sum({c})" for c in FIGURES)
_IN_MONTH = "casino_id = %(casino)s AND gaming_day >= %(first)s AND gaming_day <= %(last)s"
ALERT_DAY = gaming_day_sql("detected_at")
"""The gaming day of an alert (Europe/Madrid, from 06:00), as SQL."""

TABLES_SQL = f"""
SELECT table_id, game, {_SUMS}
FROM pitwatch.table_hourly
WHERE {_IN_MONTH}
GROUP BY table_id, game
ORDER BY game, table_id
"""
"""The figures of each table over the month."""

DAYS_OPEN_SQL = f"""
SELECT table_id, uniqExact(gaming_day)
FROM (SELECT table_id, gaming_day FROM pitwatch.table_hourly WHERE {_IN_MONTH}
      GROUP BY table_id, gaming_day HAVING sum(bets) > 0
      UNION ALL
      SELECT table_id, gaming_day FROM pitwatch.movements FINAL WHERE kind = 'anticipo' AND {_IN_MONTH})
GROUP BY table_id
"""
"""Gaming days on which each table played (a bet settled in a round ended that day: ``table_hourly``'s
bets, not the far larger ``settlements``) or opened (the ``table_opened`` event records its
anticipo): a table opened once and playing through 06:00 Madrid is open on both gaming days."""

MONTHS_SQL = f"""
SELECT toYYYYMM(gaming_day) AS m, game, {_SUMS}
FROM pitwatch.table_hourly
WHERE {_IN_MONTH}
GROUP BY m, game
ORDER BY m, game
"""
"""The casino's figures per calendar month of gaming days and game (for the previous months and the
year; the game says whether its theoretical win counts)."""

_EVENT_DAY = gaming_day_sql("occurred_at")

TAKES_SQL = f"""
SELECT table_id, game, toYYYYMM({_EVENT_DAY}) AS m, type, {json_money('amount')} AS amount,
       count()
FROM pitwatch.events_raw FINAL
WHERE casino_id = %(casino)s AND type IN ('rake_taken', 'session_fee_taken')
  AND {_EVENT_DAY} >= %(first)s AND {_EVENT_DAY} <= %(last)s
GROUP BY table_id, game, m, type, amount
"""
"""What the croupiers put in the cagnotte (rake and cagnotte: ``rake_taken``; poker's session fees:
``session_fee_taken``) per table, month of the event's gaming day and amount (text, summed exactly
by the reader as ``Decimal`` x count: portable, no decimal parsing in SQL)."""

LIMITS_SQL = f"""
SELECT table_id, game, toInt64(occurred_at) * 1000 + occurred_ms AS t, {json_money('min_bet')},
       {json_money('max_bet')}
FROM pitwatch.events_raw FINAL
WHERE casino_id = %(casino)s AND type IN ('table_opened', 'limits_changed') AND {_EVENT_DAY} <= %(last)s
ORDER BY table_id, t
"""
"""Every table minimum and maximum set (``table_opened``, ``limits_changed``) up to the month's last
gaming day, in time order per table."""

SEEN_SQL = "SELECT count() FROM pitwatch.events_raw WHERE casino_id = %(casino)s"
"""How many events of the casino the warehouse holds at all (0: a casino id it has never seen)."""

DAILY_SQL = f"""
SELECT gaming_day, game, sum(win), sum(theoretical_win)
FROM pitwatch.table_hourly
WHERE {_IN_MONTH}
GROUP BY gaming_day, game
ORDER BY gaming_day, game
"""
"""Win and theoretical win per gaming day and game (the chart)."""

ALERTS_SQL = f"""
SELECT alert_id, kind, severity, table_id, amount, toInt64(detected_at) * 1000 + detected_ms AS t,
       {ALERT_DAY} AS day
FROM pitwatch.alerts FINAL
WHERE casino_id = %(casino)s AND {ALERT_DAY} <= %(last)s
ORDER BY t, alert_id
"""
"""Every alert of the casino up to the month's last gaming day (the month's, and the earlier ones that
may still be open at its end)."""

ACTIONS_WHERE = f"""acted_at < toDateTime(%(until)s, 'UTC') AND alert_id IN (
    SELECT alert_id FROM pitwatch.alerts FINAL WHERE casino_id = %(casino)s AND {ALERT_DAY} <= %(last)s)"""
"""The ``alert_actions`` rows taken on those alerts before the end of the month's last gaming day."""

RULESETS_SQL = f"""
SELECT s.ruleset_id, s.ruleset_hash, r.jurisdiction, s.bets
FROM (SELECT ruleset_id, ruleset_hash, count() AS bets FROM pitwatch.settlements FINAL
      WHERE {_IN_MONTH} GROUP BY ruleset_id, ruleset_hash) AS s
ANY LEFT JOIN (SELECT ruleset_id, ruleset_hash, jurisdiction FROM pitwatch.rulesets FINAL) AS r
USING ruleset_id, ruleset_hash
ORDER BY s.ruleset_id, s.ruleset_hash
"""
"""The ruleset versions (id and content hash) the month's settlements were judged under."""

EVENTS_SQL = f"""
SELECT count(), min(toInt64(occurred_at) * 1000 + occurred_ms), max(toInt64(occurred_at) * 1000 + occurred_ms)
FROM pitwatch.events_raw FINAL
WHERE casino_id = %(casino)s AND {gaming_day_sql("occurred_at")} >= %(first)s
  AND {gaming_day_sql("occurred_at")} <= %(last)s
"""
"""How many stored events of the casino fall in the month's gaming days, the first's and last's time."""

REJECTED_SQL = """
SELECT count() FROM pitwatch.rejected FINAL
WHERE visitParamExtractString(raw, 'casino_id') = %(casino)s
  AND rejected_at >= toDateTime(%(since)s, 'UTC') AND rejected_at < toDateTime(%(until)s, 'UTC')
"""
"""Messages naming the casino that the pipeline rejected during the month (by rejection time)."""

QUARANTINED_SQL = f"""
SELECT count() FROM pitwatch.parked FINAL
WHERE table_id IN (SELECT DISTINCT table_id FROM pitwatch.movements FINAL WHERE {_IN_MONTH})
  AND parked_at >= toDateTime(%(since)s, 'UTC') AND parked_at < toDateTime(%(until)s, 'UTC')
"""
"""Events of the casino's tables held in quarantine (parked) during the month."""

__all__ = ["ACTIONS_WHERE", "ALERTS_SQL", "ALERT_DAY", "DAILY_SQL", "DAYS_OPEN_SQL", "EVENTS_SQL", "FIGURES",
           "LIMITS_SQL", "MONTHS_SQL", "QUARANTINED_SQL", "REJECTED_SQL", "RULESETS_SQL", "SEEN_SQL", "TABLES_SQL",
           "TAKES_SQL"]
