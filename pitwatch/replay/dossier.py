"""The auditor's dossier of one round (``pitwatch replay round T R --format html|dossier``): the
round's timeline (every event with its actor and time), each bet's expected against recorded
settlement, every violation with the text of the rule quoted verbatim from the regulation
(:mod:`pitwatch.replay.law`) and its alert's lifecycle history, and the ruleset version that
judged it. One JSON-ready document (:func:`dossier`), rendered as HTML by :func:`render_html`.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from pitwatch.replay import ReplayItem, ReplayStats
from pitwatch.replay.formatting import time_json
from pitwatch.replay.law import quote
from pitwatch.replay.output import event_record, settlement_record, violation_record
from pitwatch.replay.warehouse import JudgedWith, replay_round

DOSSIER_VERSION = 1


def _law(citation: str) -> list[dict[str, Any]]:
    try:
        return [asdict(q) for q in quote(citation)]
    except ValueError:  # a file this release does not ship: the citation stays as it is
        return []


def dossier(items: list[ReplayItem], judged: JudgedWith | None, history: dict[str, list[dict[str, Any]]],
            ) -> dict[str, Any]:
    """The dossier of a round from ``replay_round(..., events=True)``'s items and ``judged``,
    with ``history`` (``{alert_id: [action dicts in order]}``, from the warehouse) of its alerts.
    Raises ``ValueError`` when ``items`` hold no verdict."""
    verdict_item = next((i for i in items if i.verdict is not None), None)
    if verdict_item is None or verdict_item.verdict is None:
        raise ValueError("no verdict among the replayed items")
    v = verdict_item.verdict
    return {
        "dossier_version": DOSSIER_VERSION,
        "table_id": v.table_id, "round_id": v.round_id, "game": v.game, "casino_id": v.casino_id,
        "dealer_id": v.dealer_id or None, "outcome": v.outcome,
        "started_at": time_json(v.started_at), "ended_at": time_json(v.ended_at),
        "ruleset": {"id": v.ruleset_id, "hash": v.ruleset_hash,
                    "judged_with": judged.describe() if judged else None},
        "timeline": [event_record(i.event, None).model_dump(exclude={"kind", "line", "table_id", "round_id"})
                     for i in items if i.event is not None],
        "bets": [{**settlement_record(v, c).model_dump(exclude={"kind"}), "law": _law(c.expected.citation)}
                 for c in v.checks],
        "violations": [{**violation_record(a, None).model_dump(exclude={"kind", "line"}), "law": _law(a.citation),
                        "history": history.get(a.alert_id, [])} for a in verdict_item.alerts],
        "unreadable_events": [i.error for i in items if i.error is not None],
    }


def first_flagged_round(wh: Any) -> tuple[str, str] | None:
    """``(table_id, round_id)`` of the first stored round with a payout discrepancy (by detection
    time), or ``None``: the round the demo and the dashboards preview show an auditor."""
    found = wh.query("SELECT table_id, round_id FROM pitwatch.alerts FINAL WHERE kind = 'payout_discrepancy' "
                     "ORDER BY detected_at, alert_id LIMIT 1")
    return (str(found[0][0]), str(found[0][1])) if found else None


def round_dossier(url: str, table_id: str, round_id: str, *, current: bool = False,
                  stats: ReplayStats | None = None) -> dict[str, Any] | None:
    """The dossier of ``round_id`` of ``table_id`` from the warehouse at ``url`` (``current``:
    judged with this release's ruleset instead of the version in force; ``stats`` as in
    :func:`~pitwatch.replay.warehouse.replay_round`), with its alerts' lifecycle history; ``None``
    if the round is not stored. Raises ``pitwatch.warehouse.WarehouseError`` or ``ValueError``."""
    from pitwatch.lifecycle.store import load_actions
    from pitwatch.warehouse import open_warehouse

    found = replay_round(url, table_id, round_id, stats=stats, current=current, events=True)
    if found is None:
        return None
    items, judged = found
    with open_warehouse(url) as wh:
        history = {a.alert_id: [x.model_dump(mode="json", exclude_none=True) for x in load_actions(wh, a.alert_id)]
                   for i in items for a in i.alerts}
    return dossier(items, judged, history)


_ENV = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"),
                   autoescape=select_autoescape(["html", "j2"]), trim_blocks=True, lstrip_blocks=True)


def render_html(doc: dict[str, Any]) -> str:
    """The dossier as one self-contained HTML page (no script, prints as is)."""
    return _ENV.get_template("dossier.html.j2").render(d=doc)
