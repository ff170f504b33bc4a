"""The integrity dashboard: where the money and the procedure go wrong, by dealer and by pair.

- payout discrepancies by dealer (count, over- and under-paid euros);
- payout discrepancies by dealer-player pair (a pair far above the others is what dealer-player
  collusion looks like);
- float reconciliation differences per table session;
- limit breaches and past-posting by dealer;
- spin-direction and misdraw counts by dealer;
- alerts by kind, severity and lifecycle state, with their euros (the monthly report's "alerts by
  kind" and "by disposition" for the same gaming days).

Alerts are chosen by the gaming day of their detection (Europe/Madrid, from 06:00:
:data:`~pitwatch.dashboards.layout.ALERTS`) dated within the range's UTC dates, as the monthly
report chooses them (and as the performance dashboard chooses its figures).

Variables ``casino``, ``jurisdiction``, ``game``, ``table``, ``dealer`` (multi-value, All) filter every
panel.
"""

from __future__ import annotations

from pitwatch.dashboards.layout import (
    ALERT_DAYS,
    ALERTS,
    JURISDICTION,
    Board,
    Panel,
    Variable,
    all_selected,
    jurisdiction_selected,
)
from pitwatch.dashboards.surveillance import STATUS_JOIN

VARIABLES = {"casino": "casino_id", "game": "game", "table": "table_id", "dealer": "dealer_id"}


IN_RANGE = f"{ALERT_DAYS} AND {all_selected(VARIABLES)} AND {jurisdiction_selected()}"
"""SQL on :data:`ALERTS`: detected on a gaming day dated within the range, and the variables."""


def _where(kinds: tuple[str, ...]) -> str:
    listed = ", ".join(f"'{k}'" for k in kinds)
    return f"kind IN ({listed}) AND {IN_RANGE}"


BY_KIND_AND_STATE = f"""
SELECT a.kind AS kind, a.severity AS severity,
       multiIf(s.state = '', 'open', s.state = 'closed', concat('closed: ', s.disposition), s.state) AS state,
       count() AS alerts, toFloat64(sum(a.amount)) AS amount_eur
FROM (SELECT alert_id, kind, severity, amount FROM {ALERTS} WHERE {IN_RANGE}) AS a
{STATUS_JOIN.replace("alert_id, state", "alert_id, state, disposition")}
GROUP BY kind, severity, state
ORDER BY kind, severity, state"""
"""Alerts by kind, severity and state now (``closed: <disposition>`` as in the monthly report)."""


BOARD = Board(
    uid="pitwatch-integrity", title="pitwatch · integrity", tags=("pitwatch", "integrity"),
    variables=(*(Variable(v, f"SELECT DISTINCT {c} FROM pitwatch.alerts WHERE {c} != '' ORDER BY {c}")
                     for v, c in VARIABLES.items()), JURISDICTION),
    panels=(
        Panel("Payout discrepancies by dealer", "table", "table", f"""
SELECT dealer_id, count() AS discrepancies, sumIf(amount, amount > 0) AS over_paid,
       -sumIf(amount, amount < 0) AS under_paid
FROM {ALERTS} WHERE {_where(('payout_discrepancy',))}
GROUP BY dealer_id ORDER BY discrepancies DESC, dealer_id""", 12, 9, money=("over_paid", "under_paid"),
              alarm=("discrepancies",)),
        Panel("Payout discrepancies by dealer and player", "table", "table", f"""
SELECT dealer_id, player_id, count() AS discrepancies, sum(amount) AS net_over_paid
FROM {ALERTS} WHERE {_where(('payout_discrepancy',))}
GROUP BY dealer_id, player_id ORDER BY discrepancies DESC, net_over_paid DESC, dealer_id, player_id
LIMIT 50""", 12, 9, money=("net_over_paid",), alarm=("discrepancies",)),
        Panel("Float reconciliation differences", "table", "table", f"""
SELECT detected_at, table_id, dealer_id, amount, message
FROM {ALERTS} WHERE {_where(('float_discrepancy',))}
ORDER BY detected_at DESC LIMIT 100""", 24, 7, money=("amount",)),
        Panel("Limit breaches and past-posting by dealer", "table", "table", f"""
SELECT dealer_id, countIf(kind = 'bet_above_maximum') AS above_maximum,
       countIf(kind = 'bet_below_minimum') AS below_minimum, countIf(kind = 'past_posting') AS past_posting
FROM {ALERTS} WHERE {_where(('bet_above_maximum', 'bet_below_minimum', 'past_posting'))}
GROUP BY dealer_id ORDER BY past_posting DESC, above_maximum DESC, dealer_id""", 12, 8,
              alarm=("above_maximum", "below_minimum", "past_posting")),
        Panel("Spin direction and misdraws by dealer", "table", "table", f"""
SELECT dealer_id, countIf(kind = 'spin_direction') AS spin_direction, countIf(kind = 'dealer_misdraw') AS misdraws
FROM {ALERTS} WHERE {_where(('spin_direction', 'dealer_misdraw'))}
GROUP BY dealer_id ORDER BY misdraws DESC, spin_direction DESC, dealer_id""", 12, 8,
              alarm=("spin_direction", "misdraws")),
        Panel("Alerts by kind and state", "table", "table", BY_KIND_AND_STATE, 24, 8, money=("amount_eur",),
              severity="severity"),
    ))
"""The integrity dashboard (module docstring)."""
