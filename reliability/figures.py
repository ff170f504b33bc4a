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
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from pitwatch.streams.topics import TOPIC_ALERTS, TOPIC_REJECTED, TOPIC_SETTLEMENTS

from reliability.harness import ID_COLUMNS, TOPIC_IDS, RunResult, Snapshot, rejected_raw
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
    def ok(self) -> bool:
        return (self.error is None and self.lost == 0 and self.duplicated == 0 and self.unexpected == 0
                and all(k.accounted == k.sent for k in self.kinds.values())
                and not any(self.topics_missing.values()) and self.hourly_matches)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.update(lost=self.lost, duplicated=self.duplicated, unexpected=self.unexpected,
                 rejected_sent=self.rejected_sent, rejected_accounted=self.rejected_accounted,
                 alerts_sent=self.alerts_sent, alerts_accounted=self.alerts_accounted, ok=self.ok)
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
            events: int) -> Figures:
    """The figures of ``result`` against the ``clean`` run's snapshot (module docstring)."""
    got = result.snapshot
    tables: dict[str, TableFigures] = {}

    # events_raw, settlements, parked: by id
    extra_events = {b.event_id for b in bads if b.kind == "unknown_table"}
    for table in ("events_raw", "settlements", "parked"):
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
    rrows = got.rows["rejected"]
    tables["rejected"] = TableFigures(
        expected=sum(expected_raw.values()), stored=len(rrows),
        lost=sum((expected_raw - found_raw).values()), duplicated=sum(rrows.values()) - len(rrows),
        unexpected=sum((found_raw - expected_raw).values()))

    by_reason = Counter(reason_class(reason) for _raw, reason in got.rejected.values())
    topics_missing = {t: len(set(got.rows[TOPIC_TABLES[t]]) - got.topic_ids[t]) for t in TOPIC_IDS}
    return Figures(
        scenario=scenario, title=title, messages=result.sent, events=events, bad=len(bads),
        tables={t: tables[t] for t in ID_COLUMNS}, kinds=dict(sorted(kinds.items(), key=lambda kv: list(KINDS).index(kv[0]))),
        rejected_by_reason=dict(by_reason.most_common()), topics_missing=topics_missing,
        topic_messages=got.topic_messages, hourly_matches=got.hourly_matches, restarts=result.restarts,
        exits=result.exits, seconds=round(result.seconds, 1), timeline=result.events, error=result.error,
        consumed=result.consumed, skipped=result.skipped)


def _by_id(expected: set[str], stored: dict[str, int]) -> TableFigures:
    return TableFigures(expected=len(expected), stored=len(stored), lost=len(expected - set(stored)),
                        duplicated=sum(stored.values()) - len(stored), unexpected=len(set(stored) - expected))
