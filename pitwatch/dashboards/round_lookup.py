"""Round lookup for auditors: pick a table and a round, see its events, the settlement of every
bet with its citation, and its violations (severity coloured, euros as money). Single-value
variables ``table`` and ``round`` (the rounds of the chosen table): the surveillance room's queue
links here with both set (``/d/pitwatch-round?var-table=...&var-round=...``). The auditor's full
dossier of the round (the rule quoted from the regulation, the alerts' history, the ruleset
version) is ``pitwatch replay round TABLE ROUND --format html`` (:mod:`pitwatch.replay.dossier`)."""

from __future__ import annotations

from pitwatch.dashboards.layout import Board, Panel, Variable

_ROUND = "table_id = ${table:singlequote} AND round_id = ${round:singlequote}"

BOARD = Board(
    uid="pitwatch-round", title="pitwatch · round lookup", tags=("pitwatch", "auditors"),
    variables=(
        Variable("table", "SELECT DISTINCT table_id FROM pitwatch.events_raw ORDER BY table_id", multi=False),
        Variable("round", "SELECT DISTINCT round_id FROM pitwatch.events_raw "
                          "WHERE table_id = ${table:singlequote} AND round_id != '' ORDER BY round_id", multi=False),
    ),
    panels=(
        Panel("Events", "table", "table", f"""
SELECT seq, occurred_at, occurred_ms, type, actor_role, actor_id, payload
FROM pitwatch.events_raw FINAL WHERE {_ROUND} ORDER BY seq""", 24, 10),
        Panel("Settlements", "table", "table", f"""
SELECT bet_id, player_id, spot, stake, expected_outcome, expected_returned, recorded_outcome, recorded_returned,
       discrepancy, citation, ruleset_id, ruleset_hash
FROM pitwatch.settlements FINAL WHERE {_ROUND} ORDER BY bet_id""", 24, 9,
              money=("stake", "expected_returned", "recorded_returned", "discrepancy")),
        Panel("Violations", "table", "table", f"""
SELECT kind, severity, amount, message, citation, alert_id
FROM pitwatch.alerts FINAL WHERE {_ROUND} ORDER BY kind, alert_id""", 24, 7, money=("amount",), severity="severity"),
    ),
    refresh="", since="now-30d")
"""The round lookup dashboard (module docstring)."""
