"""The figures of one scenario: what its warehouse holds compared with the clean run of the same
evening, and how every bad message it sent was accounted for.

Measured, per sink table (``events_raw``, ``settlements``, ``alerts``, ``rejected``, ``parked``):

- **expected**: the ids of the clean run, plus what the bad messages must add: one
  ``events_raw`` row per ``unknown_table`` event, one alert per ``alert``-kind message, one
  ``rejected`` row per ``rejected``-kind message.
- **lost**: expected ids missing (``rejected`` is compared by the stored bytes, since a
  rejected row's id includes the message's partition and offset, which differ between runs;
  an expected alert of a bad message is "lost" when no alert of its kind names its event).
- **duplicated**: rows counted without ``FINAL`` minus distinct ids (a row inserted twice).
- **unexpected**: stored ids that no expectation explains (e.g. an alert a clean run does not
  raise).

Per bad-message kind: sent, and accounted (a rejected row with the kind's reason, or its
alert). The output topics must carry every id the warehouse holds, and ``table_hourly``
(the materialized view) must sum to the settlements read with ``FINAL``.

Alerts are compared row by row too: an alert of the clean run whose stored rows are not exactly
the clean run's (every column: message, score, evidence, amount, ``detected_at``...) counts as
**changed**. Messages a scenario put on ``pitwatch.round-digests`` itself
(:mod:`reliability.digests`) are accounted per kind: a ``skipped`` row at the copy's position
with the reason "already received", or a ``rejected`` or ``parked`` row holding its bytes with
its reason; ``parked`` rows are compared by their bytes, as ``rejected`` ones are.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from pitwatch.streams.topics import TOPIC_ALERTS, TOPIC_REJECTED, TOPIC_SETTLEMENTS

from reliability.digests import DIGEST_KINDS, Injected
from reliability.harness import ALERT_COLUMNS, ID_COLUMNS, TOPIC_IDS, RunResult, Snapshot, rejected_raw
from reliability.malformed import KINDS, Bad

TOPIC_TABLES = {TOPIC_SETTLEMENTS: "settlements", TOPIC_ALERTS: "alerts", TOPIC_REJECTED: "rejected"}


@dataclass
class TableFigures:
    expected: int
    stored: int
    lost: int
    duplicated: int
    unexpected: int


@dataclass
class KindFigures:
    accounted_as: str
    sent: int
    accounted: int
    examples: list[str] = field(default_factory=list)


@dataclass
class Figures:
    """Everything measured for one scenario (module docstring)."""

    scenario: str
    title: str
    messages: int
    events: int
    bad: int
    tables: dict[str, TableFigures]
    kinds: dict[str, KindFigures]
    rejected_by_reason: dict[str, int]
    topics_missing: dict[str, int]
    topic_messages: dict[str, int]
    hourly_matches: bool
    restarts: int
    exits: dict[str, int]
    seconds: float
    timeline: list[str]
    error: str | None = None
    consumed: int = 0
    skipped: int = 0
    #: alerts of the clean run whose stored rows differ from the clean run's, and examples
    alerts_changed: int = 0
    alert_diffs: list[str] = field(default_factory=list)
    #: messages the scenario put on ``pitwatch.round-digests``, per kind (:data:`DIGEST_KINDS`)
    digests: dict[str, KindFigures] = field(default_factory=dict)
    #: ``skipped`` rows whose reason is a round received again at a new offset
    skipped_received: int = 0
    #: whether the scenario must run without a worker restart
    no_restart: bool = False

    @property
    def lost(self) -> int:
        return sum(t.lost for t in self.tables.values())

    @property
    def duplicated(self) -> int:
        return sum(t.duplicated for t in self.tables.values())

    @property
    def unexpected(self) -> int:
        return sum(t.unexpected for t in self.tables.values())

    @property
    def rejected_sent(self) -> int:
        return sum(k.sent for k in self.kinds.values() if k.accounted_as == "rejected")

    @property
    def rejected_accounted(self) -> int:
        return sum(k.accounted for k in self.kinds.values() if k.accounted_as == "rejected")

    @property
    def alerts_sent(self) -> int:
        return sum(k.sent for k in self.kinds.values() if k.accounted_as != "rejected")

    @property
    def alerts_accounted(self) -> int:
        return sum(k.accounted for k in self.kinds.values() if k.accounted_as != "rejected")

    @property
    def digests_sent(self) -> int:
        return sum(k.sent for k in self.digests.values())

    @property
    def digests_accounted(self) -> int:
        return sum(k.accounted for k in self.digests.values())

    @property
    def ok(self) -> bool:
        return (self.error is None and self.lost == 0 and self.duplicated == 0 and self.unexpected == 0
                and all(k.accounted == k.sent for k in self.kinds.values())
                and all(k.accounted == k.sent for k in self.digests.values())
                and self.alerts_changed == 0 and not (self.no_restart and self.restarts)
                and not any(self.topics_missing.values()) and self.hourly_matches)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.update(lost=self.lost, duplicated=self.duplicated, unexpected=self.unexpected,
                 rejected_sent=self.rejected_sent, rejected_accounted=self.rejected_accounted,
                 alerts_sent=self.alerts_sent, alerts_accounted=self.alerts_accounted,
                 digests_sent=self.digests_sent, digests_accounted=self.digests_accounted, ok=self.ok)
        return d


def reason_class(reason: str) -> str:
    """A rejection reason without its particulars (numbers, ids, quoted values), to count
    reasons by kind: ``"stake: Input should be greater than or equal to 0"`` stays,
    ``"seq 12 is not after the table's last seq 40"`` becomes ``"seq N is not after ..."``."""
    import re

    text = re.sub(r"'[^'\s]*'", "'…'", reason)
    text = re.sub(r"expected tags: .*", "expected tags: …", text)
    text = re.sub(r"\d+", "N", text)
    return text[:110]


def compare(scenario: str, title: str, clean: Snapshot, result: RunResult, bads: list[Bad],
            events: int, no_restart: bool = False) -> Figures:
    """The figures of ``result`` against the ``clean`` run's snapshot (module docstring);
    ``no_restart``: the scenario is not ok if a worker was restarted."""
    got = result.snapshot
    tables: dict[str, TableFigures] = {}
    injected: list[Injected] = list(result.injected)

    # events_raw, settlements: by id
    extra_events = {b.event_id for b in bads if b.kind == "unknown_table"}
    for table in ("events_raw", "settlements"):
        expected = set(clean.rows[table]) | (extra_events if table == "events_raw" else set())
        tables[table] = _by_id(expected, got.rows[table])

    # alerts: the clean run's ids, plus one alert of the right kind naming each alert-kind message
    clean_alerts = set(clean.rows["alerts"])
    extra = {aid: a for aid, a in got.alerts.items() if aid not in clean_alerts}
    by_evidence: dict[tuple[str, str], list[str]] = {}
    for aid, (kind, _table, evidence) in extra.items():
        for e in evidence:
            by_evidence.setdefault((kind, e), []).append(aid)
    kinds: dict[str, KindFigures] = {}
    explained: set[str] = set()
    alert_bads = [b for b in bads if KINDS[b.kind].outcome == "alert"]
    for b in alert_bads:
        kf = kinds.setdefault(b.kind, KindFigures(f"alert {KINDS[b.kind].alert}", 0, 0))
        kf.sent += 1
        found = by_evidence.get((KINDS[b.kind].alert, b.event_id), [])
        if len(found) == 1 and found[0] not in explained:
            kf.accounted += 1
            explained.add(found[0])
        elif len(kf.examples) < 3:
            kf.examples.append(f"{b.event_id}: {len(found)} {KINDS[b.kind].alert} alert(s)")
    rows = got.rows["alerts"]
    missing_clean = len(clean_alerts - set(rows))
    missing_bad = sum(k.sent - k.accounted for k in kinds.values())
    tables["alerts"] = TableFigures(
        expected=len(clean_alerts) + len(alert_bads), stored=len(rows), lost=missing_clean + missing_bad,
        duplicated=sum(rows.values()) - len(rows), unexpected=len(set(extra) - explained))

    # rejected: by the stored bytes, and by reason
    expected_raw = Counter(raw for raw, _reason in clean.rejected.values())
    reason_of: dict[str, str] = {raw: reason for raw, reason in got.rejected.values()}
    found_raw = Counter(raw for raw, _reason in got.rejected.values())
    for b in bads:
        if KINDS[b.kind].outcome != "rejected":
            if KINDS[b.kind].also_rejected:  # accounted as an alert; its bytes are kept too
                raw = rejected_raw(b.value)
                expected_raw[raw] += 1
                if KINDS[b.kind].also_rejected not in reason_of.get(raw, KINDS[b.kind].also_rejected):
                    kinds[b.kind].examples.append(f"{raw[:60]!r}: rejected as {reason_of[raw][:120]}")
            continue
        raw = rejected_raw(b.value)
        expected_raw[raw] += 1
        kf = kinds.setdefault(b.kind, KindFigures("rejected", 0, 0))
        kf.sent += 1
        reason = reason_of.get(raw)
        if reason is not None and KINDS[b.kind].reason in reason:
            kf.accounted += 1
        elif len(kf.examples) < 3:
            kf.examples.append(f"{raw[:60]!r}: {'not rejected' if reason is None else reason[:120]}")
    digests: dict[str, KindFigures] = {}
    for inj in injected:
        digests.setdefault(inj.kind, KindFigures(inj.outcome, 0, 0)).sent += 1
    for inj in (i for i in injected if i.outcome == "rejected"):
        raw = rejected_raw(inj.raw)
        expected_raw[raw] += 1
        reason = reason_of.get(raw)
        _account(digests[inj.kind], reason is not None and inj.reason in reason,
                 f"{raw[:60]!r}: {'not rejected' if reason is None else reason[:120]}")
    tables["rejected"] = _by_bytes(expected_raw, found_raw, got.rows["rejected"])

    # parked: by the stored bytes (the id includes the position), as rejected
    expected_parked = Counter(raw for raw, _reason in clean.parked.values())
    found_parked = Counter(raw for raw, _reason in got.parked.values())
    parked_reason = {raw: reason for raw, reason in got.parked.values()}
    for inj in (i for i in injected if i.outcome == "parked"):
        raw = rejected_raw(inj.raw)
        expected_parked[raw] += 1
        reason = parked_reason.get(raw)
        _account(digests[inj.kind], reason is not None and inj.reason in reason,
                 f"{raw[:60]!r}: {'not parked' if reason is None else reason[:120]}")
    tables["parked"] = _by_bytes(expected_parked, found_parked, got.rows["parked"])

    # skipped: the copies of digests, by their positions
    for inj in (i for i in injected if i.outcome == "skipped"):
        reason = got.skipped.get(inj.position)
        _account(digests[inj.kind], reason is not None and inj.reason in reason,
                 f"{inj.position}: {'not skipped' if reason is None else reason[:120]}")
    received = sum(1 for reason in got.skipped.values() if "already received" in reason)

    changed, diffs = _changed_alerts(clean, got)

    by_reason = Counter(reason_class(reason) for _raw, reason in got.rejected.values())
    topics_missing = {t: len(set(got.rows[TOPIC_TABLES[t]]) - got.topic_ids[t]) for t in TOPIC_IDS}
    return Figures(
        scenario=scenario, title=title, messages=result.sent, events=events, bad=len(bads),
        tables={t: tables[t] for t in ID_COLUMNS}, kinds=dict(sorted(kinds.items(), key=lambda kv: list(KINDS).index(kv[0]))),
        rejected_by_reason=dict(by_reason.most_common()), topics_missing=topics_missing,
        topic_messages=got.topic_messages, hourly_matches=got.hourly_matches, restarts=result.restarts,
        exits=result.exits, seconds=round(result.seconds, 1), timeline=result.events, error=result.error,
        consumed=result.consumed, skipped=result.skipped, alerts_changed=changed, alert_diffs=diffs,
        digests={k: digests[k] for k in DIGEST_KINDS if k in digests}, skipped_received=received,
        no_restart=no_restart)


def _by_bytes(expected: Counter, found: Counter, rows: dict[str, int]) -> TableFigures:
    """A table's figures when its rows are matched by their stored bytes (``rejected``, ``parked``:
    a row's id includes its position): ``expected`` and ``found`` count the bytes, ``rows`` the
    copies stored per id."""
    return TableFigures(
        expected=sum(expected.values()), stored=len(rows),
        lost=sum((expected - found).values()), duplicated=sum(rows.values()) - len(rows),
        unexpected=sum((found - expected).values()))


def _account(kf: KindFigures, ok: bool, example: str) -> None:
    if ok:
        kf.accounted += 1
    elif len(kf.examples) < 3:
        kf.examples.append(example)


def _changed_alerts(clean: Snapshot, got: Snapshot) -> tuple[int, list[str]]:
    """The clean run's alerts whose rows in ``got`` are not exactly the clean run's (an id stored
    with two different rows counts too), and up to five examples naming the columns that differ."""
    changed = 0
    diffs: list[str] = []
    for aid, want in clean.alert_rows.items():
        have = got.alert_rows.get(aid)
        if have is None or have == want:
            continue  # a missing alert is counted as lost
        changed += 1
        if len(diffs) < 5:
            w, h = sorted(want, key=repr)[0], sorted(have, key=repr)[-1]
            cols = [f"{c}: {repr(a)[:100]} -> {repr(b)[:100]}" for c, a, b in zip(ALERT_COLUMNS, w, h) if a != b]
            diffs.append(f"{aid} ({len(have)} row(s)): " + ("; ".join(cols) or "same values, more rows"))
    return changed, diffs


def _by_id(expected: set[str], stored: dict[str, int]) -> TableFigures:
    return TableFigures(expected=len(expected), stored=len(stored), lost=len(expected - set(stored)),
                        duplicated=sum(stored.values()) - len(stored), unexpected=len(set(stored) - expected))
