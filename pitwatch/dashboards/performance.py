"""The table performance dashboard: what each table, game and dealer earned against what it should.

- tables outside their 95% band (a big number; the Grafana alert rule of the same name);
- per table: gaming days, drop, handle, win, hold % (win / drop), theoretical win, σ, the win's
  deviation in σ and its 95% band, theoretical win ± 1.96 σ; the deviation cell is red outside it;
- per game and per dealer: the same figures (a dealer's drop is the tables', so it is left out);
- per gaming day: win against theoretical win with the band, house-banked games only.

Rows are chosen by gaming day (:data:`GAMING_DAYS`), as ``pitwatch figures`` and the monthly report
choose them. Poker, chemin de fer and bacará a dos paños (:data:`PLAYER_AGAINST_PLAYER`) are played
between players: their win is the house's take (rake, fees, cagnotte) and they have no theoretical
win, σ or band (NULL in the table, game and dealer rows; never outside the band).

σ is the square root of the summed variances of the bets (``theoretical_variance``, euros²,
computed per bet by the engine from the ruleset: :func:`pitwatch.rules.edges.bet_variance`).
Money is summed exactly as ``Decimal`` in the warehouse, then shown as ``Float64``.

Variables ``casino``, ``jurisdiction`` (of the table's ruleset), ``game``, ``table``, ``dealer`` (a
table the dealer dealt at) and ``gaming_day`` (multi-value, All) filter every panel.
"""

from __future__ import annotations

from typing import Any

from pitwatch.dashboards.layout import JURISDICTION, Board, Panel, Variable, jurisdiction_selected, selected
from pitwatch.replay.figures import PEER_GAMES, Z95


def _filters(day: str, table: str = "table_id") -> str:
    """The variables' filters for rows with ``casino_id``, ``game``, ``table_id`` and the gaming day
    expression ``day``; jurisdiction and dealer through the settlements of the table (on All, no
    condition: a table with chip movements and no bet yet stays)."""
    return " AND ".join((
        selected("casino_id", "casino"), selected("game", "game"), selected(table, "table"),
        selected(f"toString({day})", "gaming_day"), jurisdiction_selected(table),
        f"(has([${{dealer:singlequote}}], '*') OR {table} IN "
        f"(SELECT DISTINCT table_id FROM pitwatch.settlements WHERE {selected('dealer_id', 'dealer')}))"))


GAMING_DAYS = "$__dateFilter(gaming_day)"
"""The rows of the gaming days dated within the dashboard's range (its UTC dates, first and last
included; the dashboards' timezone is UTC): whole gaming days, as ``pitwatch figures --gaming-day``
and the monthly report choose their rows (``gaming_day`` of ``table_hourly``, of the settlements
and movements). A range of 20:30-22:00 on 21 Nov selects gaming day 2026-11-21 whole, the hour
bucket of 20:00 included; a calendar month in UTC selects that month's gaming days, the report's."""

HOURLY_WHERE = f"{GAMING_DAYS} AND {_filters('gaming_day')}"


PLAYER_AGAINST_PLAYER = tuple(sorted(PEER_GAMES))
"""Games played between players (:data:`pitwatch.replay.figures.PEER_GAMES`, the figures and the report's
list), the house taking a rake, fee or cagnotte: no theoretical win
(and no σ, deviation or band) on the dashboards; their win (the house's take) is shown."""

HOUSE_BANKED = "game NOT IN ({})".format(", ".join(f"'{g}'" for g in PLAYER_AGAINST_PLAYER))
"""SQL: the row is of a house-banked game (not :data:`PLAYER_AGAINST_PLAYER`)."""

HOURLY = "pitwatch.table_hourly"
"""The summed figures per table and hour (drop included)."""


def _half_even_hold() -> str:
    """SQL of hold % (win / drop x 100) to the hundredth, ties to even, NULL without a drop: as
    :class:`~pitwatch.replay.figures.WinBand` rounds it (Decimal ``quantize``) for ``pitwatch
    figures`` and the report. In whole numbers: n = |win in cents| x 10,000, d = |drop in cents|,
    q = n div d, r = n mod d; q + 1 when 2r > d or (2r = d and q odd); signed, over 100. (A Float64
    ``round`` gave 0.01 for 1.00 / 20,000.00, whose hold 0.005 figures rounds to 0.00.)"""
    n, d = "(abs(toInt64(sum(win) * 100)) * 10000)", "greatest(abs(toInt64(sum(drop) * 100)), 1)"  # both branches run
    q, r = f"intDiv({n}, {d})", f"({n} % {d})"
    up = f"if(2 * {r} > {d} OR (2 * {r} = {d} AND {q} % 2 = 1), 1, 0)"
    sign = "if((sum(win) < 0) != (sum(drop) < 0) AND sum(win) != 0, -1, 1)"
    return f"if(sum(drop) = 0, NULL, {sign} * ({q} + {up}) / 100)"


HOLD = _half_even_hold()
"""SQL: hold % of the summed rows (:func:`_half_even_hold`)."""


def _band(keys: str, source: str, where: str) -> str:
    """Per ``keys``: the summed figures, σ, the deviation in σ, the band and whether the win is
    outside it (1) or not (0), most deviant first. From :data:`HOURLY`: gaming days, drop and
    hold (NULL without a drop, as ``pitwatch figures`` and the report leave it empty); from the
    settlements (a dealer's rows: no drop), the number of bets. The theoretical
    figures are of the house-banked games' rows only (:data:`HOUSE_BANKED`), NULL for a key with
    none (a player-against-player table or game, a dealer of those games only); the deviation and
    the band compare them with those rows' win."""
    if source == HOURLY:
        head = "uniqExact(gaming_day) AS gaming_days, toFloat64(sum(drop)) AS drop_eur, "
        hold = f"{HOLD} AS hold_pct, "
    else:
        head, hold = "count() AS bets, ", ""
    return f"""
SELECT {keys}, {head}toFloat64(sum(handle)) AS handle_eur, toFloat64(sum(win)) AS win_eur, {hold}
       if(countIf({HOUSE_BANKED}) = 0, NULL, toFloat64(sumIf(theoretical_win, {HOUSE_BANKED}))) AS theo_eur,
       if(countIf({HOUSE_BANKED}) = 0, NULL, sqrt(toFloat64(sumIf(theoretical_variance, {HOUSE_BANKED})))) AS sd_eur,
       toFloat64(sumIf(win, {HOUSE_BANKED})) - theo_eur AS win_minus_theo,
       if(isNull(sd_eur), NULL, if(sd_eur > 0, round(win_minus_theo / sd_eur, 2), 0)) AS deviation_sd,
       theo_eur - {Z95} * sd_eur AS band_low, theo_eur + {Z95} * sd_eur AS band_high,
       if(ifNull(sd_eur, 0) > 0 AND abs(ifNull(win_minus_theo, 0)) > {Z95} * ifNull(sd_eur, 0), 1, 0) AS outside_band
FROM {source}
WHERE {where}
GROUP BY {keys}
ORDER BY abs(deviation_sd) DESC, {keys}"""


def outside_band(where: str) -> str:
    """SQL counting the tables whose summed win over the rows matching ``where`` (on
    ``table_hourly``) is outside its 95% band: the big number and the alert rule (house-banked
    games only: :data:`PLAYER_AGAINST_PLAYER` have no band)."""
    return f"""SELECT count() AS tables
FROM (SELECT table_id, toFloat64(sum(win)) - toFloat64(sum(theoretical_win)) AS diff,
             sqrt(toFloat64(sum(theoretical_variance))) AS sd
      FROM pitwatch.table_hourly WHERE {where} AND {HOUSE_BANKED} GROUP BY table_id)
WHERE sd > 0 AND abs(diff) > {Z95} * sd"""


BAND_MONEY = ("drop_eur", "handle_eur", "win_eur", "theo_eur", "sd_eur", "win_minus_theo", "band_low", "band_high")
"""The euro columns of the band tables."""
FIELDS: dict[str, Any] = {"money": BAND_MONEY, "units": (("hold_pct", "percent"),), "highlight": "deviation_sd"}
"""How the band tables' fields show (:class:`~pitwatch.dashboards.layout.Panel`)."""

VARIABLES = (
    Variable("casino", "SELECT DISTINCT casino_id FROM pitwatch.table_hourly ORDER BY casino_id"),
    JURISDICTION,
    Variable("game", "SELECT DISTINCT game FROM pitwatch.table_hourly ORDER BY game"),
    Variable("table", "SELECT DISTINCT table_id FROM pitwatch.table_hourly ORDER BY table_id"),
    Variable("dealer", "SELECT DISTINCT dealer_id FROM pitwatch.settlements WHERE dealer_id != '' ORDER BY dealer_id"),
    Variable("gaming_day", "SELECT DISTINCT toString(gaming_day) FROM pitwatch.table_hourly ORDER BY 1 DESC"),
)

BOARD = Board(
    uid="pitwatch-performance", title="pitwatch · table performance", tags=("pitwatch", "performance"),
    variables=VARIABLES,
    panels=(
        Panel("Tables outside the 95% band", "stat", "table", outside_band(HOURLY_WHERE), 6, 6, alarm=("*",)),
        Panel("Win against theoretical win per gaming day", "timeseries", "timeSeries", f"""
SELECT toDateTime(gaming_day) AS time, toFloat64(sum(win)) AS win_eur, toFloat64(sum(theoretical_win)) AS theo_eur,
       theo_eur - {Z95} * sqrt(toFloat64(sum(theoretical_variance))) AS band_low,
       theo_eur + {Z95} * sqrt(toFloat64(sum(theoretical_variance))) AS band_high
FROM pitwatch.table_hourly
WHERE {HOURLY_WHERE} AND {HOUSE_BANKED}
GROUP BY gaming_day
ORDER BY time""", 18, 6, money=("*",)),
        Panel("Tables: actual against theoretical win", "table", "table",
              _band("table_id, game", HOURLY, HOURLY_WHERE), 24, 10, **FIELDS),
        Panel("Games", "table", "table", _band("game", HOURLY, HOURLY_WHERE), 12, 7, **FIELDS),
        Panel("Dealers", "table", "table", _band(
            "dealer_id", "pitwatch.settlements FINAL",
            f"{GAMING_DAYS} AND {selected('dealer_id', 'dealer')} AND {_filters('gaming_day')}"),
              12, 7, **FIELDS),
    ),
    refresh="1m", since="now-7d")
"""The table performance dashboard (module docstring)."""
