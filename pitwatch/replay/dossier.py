"""The auditor's dossier of one round (``pitwatch replay round T R --format html|pdf|dossier``).

One JSON-ready document (:func:`dossier`, from the warehouse: :func:`round_dossier`), rendered as
HTML by :func:`render_html` (and as PDF from it). It holds:

- a ``summary``: the net difference of the round's bets (recorded net minus expected net, euros:
  positive means the players were over-paid), every alert with its current state, the seqs of
  the table that never arrived, and a ``caution`` when some did: the round was judged without
  them, so its verdict may come from what is missing rather than from what the table did;
- the ``timeline``: every stored event of the round (actor, UTC time, what it says; a card with
  the hand it makes, e.g. ``dealer 6♥ 10♠ (16)``) and, in its place, every missing ``seq``
  (``"seq 27 — never received"``);
- the ``bets``: each bet's expected against recorded settlement;
- the ``alerts``: every alert of the round, those the rules engine raises again on replay and
  those the warehouse holds (its sequence gaps and duplicate events, cross-round alerts naming
  the round), each with its current state (:mod:`pitwatch.lifecycle`: open, acknowledged,
  escalated, closed with its disposition, the cases it is in) and its actions;
- the ``law``: each stretch of the regulation the bets and alerts cite, quoted once, in whole
  sentences (:mod:`pitwatch.replay.law`); bets and alerts name the quotes they cite by ``key``;
- ``events_chain``: where the round's stored events sit in the table's hash chain (the link
  before its first event, the link of its last: ``pitwatch verify`` checks them);
- ``generated_at`` (UTC), ``generated_by`` and an ``attestation``: the pitwatch version, the
  ruleset and the seed files with their SHA-256, and the SHA-256 of the document
  (:func:`body_sha256`: the canonical JSON of the whole document but ``attestation.sha256``).
"""

from __future__ import annotations

import getpass
import hashlib
import json
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any, Iterable

from jinja2 import Environment, FileSystemLoader, select_autoescape

from pitwatch.detectors.alerts import Alert
from pitwatch.replay import ReplayItem, ReplayStats
from pitwatch.replay.formatting import card_text, event_text, hand_text, money_json, money_text, time_json
from pitwatch.replay.law import SEEDS_DIR, Quote, merge, quote
from pitwatch.replay.output import settlement_record, violation_record
from pitwatch.replay.warehouse import JudgedWith, missing_seqs, replay_round, round_links, stored_alerts
from pitwatch.schemas.events import payload_of

DOSSIER_VERSION = 2
"""Version of the dossier's JSON document. 2: ``alerts`` (every alert of the round, with its
state; was ``violations``, the verdict's only), ``summary``, missing seqs in the ``timeline``,
``law`` quoted once and cited by key, ``generated_at``/``generated_by`` and ``attestation``."""
HASHED = ("SHA-256 (hex) of the UTF-8 bytes of this document as canonical JSON: object keys sorted, no whitespace "
          "(separators ',' and ':'), characters beyond ASCII written as themselves, not escaped; with the member "
          "attestation.sha256 left out and every other member, generated_at and generated_by included, hashed")
"""What :func:`body_sha256` hashes, as the attestation says it."""


# --------------------------------------------------------------------------- law


def _quotes(citation: str) -> list[Quote]:
    try:
        return quote(citation)
    except ValueError:  # a file this release does not ship: the citation stays as it is
        return []


def _law(citations: Iterable[str]) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    """The merged quotes of ``citations`` as dicts and, per citation, the keys of the quotes it
    cites."""
    found = {c: _quotes(c) for c in dict.fromkeys(citations)}
    merged = merge(q for qs in found.values() for q in qs)
    cites = {c: list(dict.fromkeys(m.key for q in qs for m in merged if m.covers(q.file, q.first, q.last)))
             for c, qs in found.items()}
    every = [q for qs in found.values() for q in qs]
    docs = []
    for m in merged:
        cited = sorted({(q.cited_first, q.cited_last) for q in every if m.covers(q.file, q.first, q.last)})
        docs.append({"key": m.key, "file": m.file, "first": m.first, "last": m.last,
                     "cited": [f"L{a}-L{b}" if a != b else f"L{a}" for a, b in cited], "text": m.text})
    return docs, cites


# --------------------------------------------------------------------------- timeline


def _timeline(events: list[Any], game: str, missing: dict[int, str], gap_alerts: list[Alert],
              duplicated: dict[str, list[str]]) -> list[dict[str, Any]]:
    """Events and missing seqs in seq order. A card dealt shows the hand it makes."""
    hands: dict[str, list[str]] = {}
    split_from: set[str] = set()
    rows: list[dict[str, Any]] = []
    for e in events:
        text = event_text(e)
        if e.type == "card_dealt":
            cards = hands.setdefault(e.hand, [])
            cards.append(e.card)
            text = (f"{card_text(e.card)}{'' if e.face_up else ' face down'} to {e.hand}: "
                    f"{e.hand} {hand_text(cards, game, split=e.hand in split_from)}")
        elif e.type == "player_decision" and e.decision == "split" and e.hand in hands and len(hands[e.hand]) == 2:
            box = e.hand.split("-")[0]
            new = f"{box}-{1 + sum(1 for h in hands if h.split('-')[0] == box)}"
            hands[new] = [hands[e.hand].pop()]
            split_from.update((e.hand, new))
        rows.append({"seq": e.seq, "missing": False, "occurred_at": time_json(e.occurred_at),
                     "actor": f"{e.actor.role.value} {e.actor.id}", "type": e.type, "text": text,
                     "event_id": str(e.event_id), "payload": payload_of(e),
                     "note": "; ".join(f"received again: alert {a}" for a in duplicated.get(str(e.event_id), []))})
    for seq, why in missing.items():
        alert = next((a.alert_id for a in gap_alerts if _in_gap(a.message, seq)), "")
        rows.append({"seq": seq, "missing": True, "occurred_at": "", "actor": "", "type": "",
                     "text": f"seq {seq} — {why}", "event_id": "", "payload": {},
                     "note": f"sequence_gap alert {alert}" if alert else ""})
    return sorted(rows, key=lambda r: r["seq"])


def _in_gap(message: str, seq: int) -> bool:
    """Whether a sequence_gap message (``"n event(s) missing: seq A..B ..."``) spans ``seq``."""
    try:
        first, last = message.split("seq ", 1)[1].split(" ", 1)[0].split("..")
        return int(first) <= seq <= int(last)
    except (IndexError, ValueError):
        return False


# --------------------------------------------------------------------------- alerts


def _state_text(state: dict[str, Any]) -> str:
    if not state["stored"]:
        return "not stored: raised by this replay only"
    parts = [state["state"]]
    if state["disposition"]:
        parts[0] += f" ({state['disposition']})"
    if state["assignee"]:
        parts.append(f"assigned to {state['assignee']}")
    if state["escalated_to"]:
        parts.append(f"escalated to the {state['escalated_to']}")
    parts += [f"in case {c['case_id']} ({c['state']})" for c in state["cases"]]
    return ", ".join(parts)


def _no_state(stored: bool) -> dict[str, Any]:
    return {"stored": stored, "state": "open", "disposition": "", "reason": "", "assignee": "", "escalated_to": "",
            "actions": 0, "cases": []}


def dossier(items: list[ReplayItem], judged: JudgedWith | None, history: dict[str, list[dict[str, Any]]],
            *, stored: list[Alert] | None = None, states: dict[str, dict[str, Any]] | None = None,
            missing: dict[int, str] | None = None, chain: dict[str, Any] | None = None,
            generated_at: datetime | None = None, generated_by: str | None = None) -> dict[str, Any]:
    """The dossier of a round (module docstring), pure but for reading the seed files.

    ``items``, ``judged``: from ``replay_round(..., events=True)``; ``history``: ``{alert_id:
    [action dicts in order]}``; ``stored``: the warehouse's alerts of the round
    (:func:`~pitwatch.replay.warehouse.stored_alerts`); ``states``: ``{alert_id: state dict}``
    (:func:`alert_states`; an alert missing from it is open, or not stored when the warehouse
    does not hold it); ``missing``: ``{seq: why}`` (:func:`~pitwatch.replay.warehouse.missing_seqs`);
    ``generated_at``: a timezone-aware time (default now, UTC); ``generated_by``: who (default the
    OS user). Raises ``ValueError`` when ``items`` hold no verdict or ``generated_at`` is naive."""
    verdict_item = next((i for i in items if i.verdict is not None), None)
    if verdict_item is None or verdict_item.verdict is None:
        raise ValueError("no verdict among the replayed items")
    v = verdict_item.verdict
    stored, states, missing = stored or [], states or {}, missing or {}
    at = time_json(generated_at or datetime.now(timezone.utc))
    by = generated_by or _who()

    replayed = [a for i in items if i.verdict is None and i.error is None and i.event is None for a in i.alerts]
    replayed += verdict_item.alerts
    stored_ids = {a.alert_id for a in stored}
    replayed_ids = {a.alert_id for a in replayed}
    alerts = list({a.alert_id: a for a in [*replayed, *stored]}.values())  # the replay's wording first
    law, cites = _law([*(c.expected.citation for c in v.checks), *(a.citation for a in alerts)])

    alert_docs = []
    for a in alerts:
        state = states.get(a.alert_id) or _no_state(a.alert_id in stored_ids)
        source = ("replayed and stored" if a.alert_id in replayed_ids and a.alert_id in stored_ids
                  else "replayed only" if a.alert_id in replayed_ids else "stored only")
        alert_docs.append({**violation_record(a, None).model_dump(exclude={"kind", "line"}),
                           "amount_text": "" if a.amount is None else money_text(a.amount, signed=True),
                           "source": source, "state": {**state, "text": _state_text(state)},
                           "history": history.get(a.alert_id, []), "law": cites.get(a.citation, [])})

    gaps = [a for a in alerts if a.kind == "sequence_gap"]
    duplicated: dict[str, list[str]] = {}
    for a in alerts:
        if a.kind == "duplicate_event":
            for eid in a.evidence:
                duplicated.setdefault(eid, []).append(a.alert_id)
    events = [i.event for i in items if i.event is not None]
    timeline = _timeline(events, v.game, missing, gaps, duplicated)

    expected_net = sum((c.expected.returned - c.expected.commission for c in v.checks), Decimal("0.00"))
    recorded_net = sum((c.recorded.returned - c.recorded.commission for c in v.checks if c.recorded is not None),
                       Decimal("0.00"))
    difference = sum((c.discrepancy for c in v.checks), Decimal("0.00"))
    caution = ""
    if missing:
        seqs = ", ".join(str(s) for s in missing)
        caution = (f"seq {seqs} of table {v.table_id} {'is' if len(missing) == 1 else 'are'} missing from the "
                   "stored events: the round was judged without "
                   f"{'it' if len(missing) == 1 else 'them'}, so its verdict (the expected settlements and the "
                   "alerts the rules raised) may come from what is missing rather than from what happened at the "
                   "table. Check the missing events (camera, table records) before concluding.")
    body: dict[str, Any] = {
        "dossier_version": DOSSIER_VERSION,
        "generated_at": at, "generated_by": by,
        "table_id": v.table_id, "round_id": v.round_id, "game": v.game, "casino_id": v.casino_id,
        "dealer_id": v.dealer_id or "", "outcome": v.outcome,
        "started_at": time_json(v.started_at), "ended_at": time_json(v.ended_at),
        "ruleset": {"id": v.ruleset_id, "hash": v.ruleset_hash, "judged_with": judged.describe() if judged else ""},
        "summary": {
            "bets": len(v.checks), "expected_net": money_json(expected_net), "recorded_net": money_json(recorded_net),
            "net_difference": money_json(difference),
            "net_difference_text": _difference_text(difference),
            "alerts": [{"alert_id": d["alert_id"], "kind": d["violation_kind"], "severity": d["severity"],
                        "amount": d["amount"], "state": d["state"]["state"], "state_text": d["state"]["text"]}
                       for d in alert_docs],
            "missing_seqs": list(missing), "caution": caution,
        },
        "timeline": timeline,
        "bets": [{**settlement_record(v, c).model_dump(exclude={"kind"}), "law": cites.get(c.expected.citation, [])}
                 for c in v.checks],
        "alerts": alert_docs,
        "law": law,
        "unreadable_events": [i.error for i in items if i.error is not None],
        "events_chain": chain or {},
    }
    body["attestation"] = _attestation(body, at, by, v.ruleset_id, v.ruleset_hash, law)
    return body


def _who() -> str:
    """The operating-system user, or ``"unknown"`` where there is none (a container's uid)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _difference_text(difference: Decimal) -> str:
    if difference == 0:
        return "0.00 € (no difference)"
    return f"{money_text(difference, signed=True)} (players {'over' if difference > 0 else 'under'}-paid)"


def _attestation(body: dict[str, Any], at: str, by: str, ruleset_id: str, ruleset_hash: str,
                 law: list[dict[str, Any]]) -> dict[str, Any]:
    import pitwatch

    seeds = {f: hashlib.sha256((SEEDS_DIR / f).read_bytes()).hexdigest() for f in sorted({q["file"] for q in law})}
    att: dict[str, Any] = {"generated_at": at, "generated_by": by, "pitwatch_version": pitwatch.__version__,
                           "ruleset": f"{ruleset_id}@{ruleset_hash}", "seed_files": seeds, "hashed": HASHED}
    body["attestation"] = att
    att["sha256"] = body_sha256(body)
    return att


def body_sha256(doc: dict[str, Any]) -> str:
    """The SHA-256 (hex) a dossier attests: of ``doc`` as canonical JSON (UTF-8, keys sorted,
    separators ``,`` and ``:``, no ASCII escaping) without ``attestation.sha256`` (:data:`HASHED`).
    An auditor recomputes it from the JSON document (``--format dossier``) the same way."""
    copy = dict(doc)
    if isinstance(copy.get("attestation"), dict):
        copy["attestation"] = {k: x for k, x in copy["attestation"].items() if k != "sha256"}
    text = json.dumps(copy, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def verify(doc: dict[str, Any]) -> bool:
    """Whether ``doc``'s ``attestation.sha256`` is the SHA-256 of the rest (:func:`body_sha256`)."""
    att = doc.get("attestation")
    return isinstance(att, dict) and att.get("sha256") == body_sha256(doc)


# --------------------------------------------------------------------------- warehouse


def first_flagged_round(wh: Any) -> tuple[str, str] | None:
    """``(table_id, round_id)`` of the first stored round with a payout discrepancy (by detection
    time), or ``None``: the round the demo and the dashboards preview show an auditor."""
    found = wh.query("SELECT table_id, round_id FROM pitwatch.alerts FINAL WHERE kind = 'payout_discrepancy' "
                     "ORDER BY detected_at, alert_id LIMIT 1")
    return (str(found[0][0]), str(found[0][1])) if found else None


def alert_states(wh: Any, alert_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Where each stored alert of ``alert_ids`` stands (an open warehouse), folded from its
    actions (:func:`pitwatch.lifecycle.store.statuses`): ``{alert_id: {"stored": True, "state",
    "disposition", "reason", "assignee", "escalated_to", "actions", "cases": [{"case_id",
    "grouped_by", "key", "state"}]}}`` (absent details as ``""``; a case's state with its
    disposition when closed). Raises ``pitwatch.warehouse.WarehouseError``."""
    from pitwatch.lifecycle.store import statuses

    ids = list(dict.fromkeys(alert_ids))
    member_of = {aid: wh.rows("cases", "has(alert_ids, %(a)s)", {"a": aid}) for aid in ids}
    case_ids = sorted({r["case_id"] for rows in member_of.values() for r in rows})
    found = statuses(wh, ids + case_ids)
    out = {}
    for aid in ids:
        s = found[aid]
        cases = [{"case_id": r["case_id"], "grouped_by": r["grouped_by"], "key": r["group_key"],
                  "state": found[r["case_id"]].state + (f" ({found[r['case_id']].disposition})"
                                                        if found[r["case_id"]].disposition else "")}
                 for r in sorted(member_of[aid], key=lambda r: r["case_id"])]
        out[aid] = {"stored": True, "state": s.state, "disposition": s.disposition or "", "reason": s.reason or "",
                    "assignee": s.assignee or "", "escalated_to": s.escalated_to or "", "actions": s.actions,
                    "cases": cases}
    return out


def round_dossier(url: str, table_id: str, round_id: str, *, current: bool = False,
                  stats: ReplayStats | None = None, generated_at: datetime | None = None,
                  generated_by: str | None = None) -> dict[str, Any] | None:
    """The dossier of ``round_id`` of ``table_id`` from the warehouse at ``url`` (``current``:
    judged with this release's ruleset instead of the version in force; ``stats`` as in
    :func:`~pitwatch.replay.warehouse.replay_round`, plus the stored alerts the replay does not
    raise again; ``generated_at``/``generated_by`` as in :func:`dossier`), with every alert of
    the round, stored or replayed, its state and actions; ``None`` if the round is not stored.
    Raises ``pitwatch.warehouse.WarehouseError`` or ``ValueError``."""
    from pitwatch.lifecycle.store import load_actions
    from pitwatch.warehouse import open_warehouse

    found = replay_round(url, table_id, round_id, stats=stats, current=current, events=True)
    if found is None:
        return None
    items, judged = found
    with open_warehouse(url) as wh:
        stored = stored_alerts(wh, table_id, round_id)
        replayed = {a.alert_id for i in items for a in i.alerts}
        ids = list(dict.fromkeys([*replayed, *(a.alert_id for a in stored)]))
        history = {aid: [x.model_dump(mode="json", exclude_none=True) for x in load_actions(wh, aid)] for aid in ids}
        states = alert_states(wh, [a.alert_id for a in stored])
        missing = missing_seqs(wh, table_id, round_id)
        chain = round_links(wh, table_id, round_id)
    if stats is not None:
        stats.violations += sum(1 for a in stored if a.alert_id not in replayed)
    return dossier(items, judged, history, stored=stored, states=states, missing=missing, chain=chain,
                   generated_at=generated_at, generated_by=generated_by)


_ENV = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"),
                   autoescape=select_autoescape(["html", "j2"]), trim_blocks=True, lstrip_blocks=True,
                   finalize=lambda x: "" if x is None else x)  # a null prints nothing, never "None"


def render_html(doc: dict[str, Any]) -> str:
    """The dossier as one self-contained HTML page (no script, prints as is, A4 landscape)."""
    return _ENV.get_template("dossier.html.j2").render(d=doc)
