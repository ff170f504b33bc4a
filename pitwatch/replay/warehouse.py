"""Replay one round from the warehouse's raw events (``pitwatch replay round``), and what the
warehouse holds about it besides: its stored alerts (:func:`stored_alerts`) and the seqs of its
table that never arrived (:func:`missing_seqs`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta, timezone
from typing import Any

from pitwatch.detectors.alerts import Alert
from pitwatch.replay import ReplayItem, ReplayStats, replay_lines
from pitwatch.rules.base import RuleError, load_ruleset, register_ruleset_version
from pitwatch.schemas.events import InvalidEvent, parse_event


@dataclass(frozen=True)
class JudgedWith:
    """Which ruleset version judged a replayed round: ``ruleset_id``, its content ``version``
    (SHA-256 hex), and ``in_force``: True when it is the version recorded on the round's stored
    settlements and alerts (the law in force when it was judged live), False when it is the
    version shipped with this release (asked for, or the round has no stored verdict)."""

    ruleset_id: str
    version: str
    in_force: bool

    def describe(self) -> str:
        """One line for people, e.g. ``judged with french_roulette.galicia@1a2b3c4d5e6f, ...``."""
        why = ("the version in force when the round was judged live" if self.in_force
               else "the version shipped with this release")
        return f"judged with {self.ruleset_id}@{self.version[:12]}, {why}"


def _version_in_force(wh: Any, table_id: str, round_id: str) -> tuple[str, str] | None:
    """``(ruleset_id, hash)`` recorded on the round's stored settlements or alerts, if any."""
    for table in ("settlements", "alerts"):
        found = wh.query(
            f"SELECT ruleset_id, ruleset_hash FROM pitwatch.{table} FINAL WHERE table_id = %(t)s "
            "AND round_id = %(r)s AND ruleset_hash != '' LIMIT 1", {"t": table_id, "r": round_id})
        if found:
            return str(found[0][0]), str(found[0][1])
    return None


def _load_version(wh: Any, ruleset_id: str, version: str) -> None:
    """Make ``version`` of ``ruleset_id`` loadable, from the warehouse's ``rulesets`` table when
    it is not the shipped one. Raises ``ValueError`` if the warehouse does not hold it, or holds
    a text that this release's ruleset models reject (a key since renamed, say)."""
    try:
        load_ruleset(ruleset_id, version)
        return
    except RuleError:
        pass
    rows = wh.query("SELECT source FROM pitwatch.rulesets FINAL WHERE ruleset_key = %(k)s",
                    {"k": f"{ruleset_id}@{version}"})
    if not rows:
        raise ValueError(f"ruleset {ruleset_id} version {version[:12]}, recorded on the round, is not in the "
                         "warehouse's rulesets table (use --current-ruleset to judge with this release's)")
    try:
        register_ruleset_version(str(rows[0][0]))
    except RuleError as exc:  # a past version this release's models no longer read
        raise ValueError(f"ruleset {ruleset_id} version {version[:12]}, recorded on the round, cannot be read by "
                         f"this release ({exc}); use --current-ruleset to judge with this release's") from None


def replay_round(warehouse_url: str, table_id: str, round_id: str,
                 stats: ReplayStats | None = None, current: bool = False, events: bool = False,
                 ) -> tuple[list[ReplayItem], JudgedWith | None] | None:
    """Re-derive the verdict of ``round_id`` on ``table_id`` from the stored events.

    The round is judged with the ruleset version recorded on its stored settlements and
    alerts (the law in force when it was judged live; a version other than the shipped one is
    read from the warehouse's ``rulesets`` table), unless ``current`` is set or nothing was
    recorded: then with the version shipped with this release. The second member of the
    result says which (``None`` if the round never reached a verdict).

    The table's stored events up to the one that ends the round (its ``round_ended``, else
    the next event of another round, or the table closing or re-opening) are folded from the
    table's first one, as the live pipeline folded them: no later ``table_opened`` is a safe
    start, since one the rules rejected changes nothing and a re-opening with the same ruleset
    keeps what crosses rounds (imprisoned roulette bets, the last spin direction, a burn due).
    Returns the items to report: one per stored event that could not be replayed (``error``
    names its ``seq``; e.g. an event stored before a stricter schema), with ``events`` one per
    event of the round (``event`` set, in ``seq`` order; a table event, such as a dealer change,
    between the round's first and last events included), then one per event of the round whose
    alerts were not part of the verdict (a ``sequence_gap`` detected on one of its events, an
    event the rules rejected: ``alerts`` set, ``verdict`` None), then the round's verdict item;
    their ``line`` is ``None``.
    Returns ``None`` if the round is not stored. ``stats``, if given, receives the counts:
    stored events read (``lines``) and accepted (``events``), the invalid ones, one round
    and that round's violations, its stand-alone alerts included (alerts of other rounds of the
    fold are not this round's).
    Raises ``pitwatch.warehouse.WarehouseError`` or ``ValueError`` if the warehouse cannot
    be read.
    """
    from pitwatch.warehouse import open_warehouse

    wh = open_warehouse(warehouse_url)
    try:
        bounds = wh.query(
            "SELECT max(seq), maxIf(seq, type = 'round_ended') FROM pitwatch.events_raw FINAL "
            "WHERE table_id = %(t)s AND round_id = %(r)s", {"t": table_id, "r": round_id})
        if not bounds or bounds[0][0] in (None, 0):
            return None
        last, ended = bounds[0]
        if ended != last:
            # the round never ended: the next event of another round or the table closing ends
            # it (a re-opening may end it sooner); fold up to that one, else to the table's last
            closer = wh.query(
                "SELECT min(seq) FROM pitwatch.events_raw FINAL WHERE table_id = %(t)s AND seq > %(s)s "
                "AND (round_id != '' OR type = 'table_closed')", {"t": table_id, "s": last})
            last = closer[0][0] if closer and closer[0][0] else 2**63 - 1
        rows = wh.query(
            "SELECT seq, payload FROM pitwatch.events_raw FINAL WHERE table_id = %(t)s "
            "AND seq <= %(b)s ORDER BY seq", {"t": table_id, "b": last})
        recorded = None if current else _version_in_force(wh, table_id, round_id)
        if recorded is not None:
            _load_version(wh, *recorded)
    finally:
        wh.close()
    versions = dict([recorded]) if recorded is not None else {}
    fold = ReplayStats()
    bad: list[ReplayItem] = []
    own: list[ReplayItem] = []  # the round's events, when asked for
    table_events: list[ReplayItem] = []  # the table's events (no round), when asked for
    loose: list[ReplayItem] = []  # the round's alerts outside its verdict
    found = None
    for item in replay_lines((r[1] for r in rows), stats=fold, versions=versions, events=events):
        if item.event is not None:
            if item.event.round_id == round_id:
                own.append(replace(item, line=None))
            elif item.event.round_id is None:
                table_events.append(replace(item, line=None))
        elif item.error is not None:
            seq = rows[(item.line or 1) - 1][0]
            bad.append(replace(item, line=None, error=f"stored event seq {seq} of {table_id}: {item.error}"))
        elif item.verdict is not None:
            if item.verdict.round_id == round_id:
                found = replace(item, line=None)
        else:
            mine = [a for a in item.alerts if a.round_id == round_id and a.table_id == table_id]
            if mine:
                loose.append(ReplayItem(alerts=mine))
    if found is None or found.verdict is None:
        return None
    if own:
        first, last_own = own[0].event.seq, own[-1].event.seq
        own = sorted([*own, *(i for i in table_events if first < i.event.seq < last_own)], key=lambda i: i.event.seq)
    if stats is not None:
        stats.lines += fold.lines
        stats.events += fold.events
        for item in (*bad, *loose, found):
            stats.count(item)
    v = found.verdict
    judged = JudgedWith(v.ruleset_id, v.ruleset_hash, recorded is not None and recorded[1] == v.ruleset_hash)
    return [*bad, *own, *loose, found], judged


def stored_alerts(wh: Any, table_id: str, round_id: str) -> list[Alert]:
    """The alerts the warehouse holds for ``round_id`` of ``table_id`` (an open warehouse):
    those raised on the round (its sequence gaps and duplicate events included) and the
    cross-round detectors' alerts that name it in their evidence (``table/round``), by detection
    time. ``amount`` is ``None`` where the row stores 0.00 (an alert with no euros at stake).
    Raises ``pitwatch.warehouse.WarehouseError``."""
    rows = wh.rows("alerts", "(table_id = %(t)s AND round_id = %(r)s) OR has(evidence, %(tr)s)",
                   {"t": table_id, "r": round_id, "tr": f"{table_id}/{round_id}"})
    out = []
    for r in rows:
        at = r["detected_at"] if r["detected_at"].tzinfo else r["detected_at"].replace(tzinfo=timezone.utc)
        out.append(Alert(
            alert_id=r["alert_id"], kind=r["kind"], severity=r["severity"], casino_id=r["casino_id"],
            table_id=r["table_id"], game=r["game"], round_id=r["round_id"], bet_id=r["bet_id"],
            player_id=r["player_id"], dealer_id=r["dealer_id"], amount=r["amount"] or None, message=r["message"],
            citation=r["citation"], detected_at=at + timedelta(milliseconds=int(r["detected_ms"])),
            evidence=tuple(r["evidence"]), ruleset_id=r["ruleset_id"], ruleset_hash=r["ruleset_hash"],
            parties=tuple(r["parties"]), score=float(r["score"])))
    return sorted(out, key=lambda a: (a.detected_at, a.alert_id))


def missing_seqs(wh: Any, table_id: str, round_id: str) -> dict[int, str]:
    """The seqs of ``table_id`` that the warehouse does not hold, around ``round_id`` (an open
    warehouse): after the table's last stored event before the round's first one (the live
    pipeline's ``sequence_gap`` alert on the round's first event names those), up to the round's
    last event, or, when the round never ended, up to the event that ended it (its
    ``round_ended`` may be the one lost). Returns ``{seq: why}``: ``"never received"``, or, for
    a seq whose message the warehouse's ``rejected`` table holds, ``"rejected as invalid:
    <reason>"`` (refused by the event schema; the live pipeline did not count it as missing) or
    ``"received out of order, rejected: <reason>"`` (it came after a later seq). Empty when
    nothing is missing or the round is not stored. Raises ``pitwatch.warehouse.WarehouseError``."""
    q = {"t": table_id, "r": round_id}
    bounds = wh.query("SELECT min(seq), max(seq), countIf(type = 'round_ended') FROM pitwatch.events_raw FINAL "
                      "WHERE table_id = %(t)s AND round_id = %(r)s", q)
    if not bounds or not bounds[0][0]:
        return {}
    first, last, ended = (int(x) for x in bounds[0])
    prev = wh.query("SELECT max(seq) FROM pitwatch.events_raw FINAL WHERE table_id = %(t)s AND seq < %(s)s",
                    {**q, "s": first})
    low = int(prev[0][0] or 0) + 1 if prev else 1
    if not ended:
        after = wh.query("SELECT min(seq) FROM pitwatch.events_raw FINAL WHERE table_id = %(t)s AND seq > %(s)s "
                         "AND (round_id != '' OR type = 'table_closed')", {**q, "s": last})
        if after and after[0][0]:
            last = int(after[0][0]) - 1
    held = {int(r[0]) for r in wh.query("SELECT seq FROM pitwatch.events_raw FINAL WHERE table_id = %(t)s "
                                         "AND seq >= %(a)s AND seq <= %(b)s", {**q, "a": low, "b": last})}
    lost = [s for s in range(low, last + 1) if s not in held]
    if not lost:
        return {}
    refused: dict[int, str] = {}
    for raw, reason in wh.query("SELECT raw, reason FROM pitwatch.rejected FINAL WHERE position(raw, %(t)s) > 0", q):
        tid: str | None
        seq: int | None
        try:
            event = parse_event(str(raw))
            tid, seq, why = event.table_id, event.seq, "received out of order, rejected"
        except InvalidEvent as exc:
            tid, seq, why = exc.table_id, exc.seq, "rejected as invalid"
        if tid == table_id and seq in lost:
            refused.setdefault(seq, f"{why}: {reason}")
    return {s: refused.get(s, "never received") for s in lost}


def round_links(wh: Any, table_id: str, round_id: str) -> dict[str, Any]:
    """Where the stored events of ``round_id`` sit in ``table_id``'s hash chain (an open
    warehouse; docs/verify.md): ``{"first_seq", "prev_hash", "last_seq", "hash"}``: the link
    before the round's first stored event and the link of its last one (64 hex digits each), so
    ``pitwatch verify`` over the table shows whether the events the dossier was judged from are
    those stored when received. ``{}`` when the round is not stored or its rows carry no link
    (stored before the chain). Raises ``pitwatch.warehouse.WarehouseError``."""
    rows = wh.query("SELECT seq, prev_hash, hash FROM pitwatch.events_raw FINAL WHERE table_id = %(t)s "
                    "AND round_id = %(r)s ORDER BY seq", {"t": table_id, "r": round_id})
    if not rows or not rows[0][1] or not rows[-1][2]:
        return {}
    return {"first_seq": int(rows[0][0]), "prev_hash": str(rows[0][1]), "last_seq": int(rows[-1][0]),
            "hash": str(rows[-1][2])}
