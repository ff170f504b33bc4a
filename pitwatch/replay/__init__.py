"""Auditors' replay: fold recorded events through the rules engine.

``replay_lines`` works on a JSONL file with no Kafka and no ClickHouse
(:mod:`pitwatch.replay.warehouse` reads one round's events from the warehouse instead). It
yields :class:`ReplayItem` objects (round verdicts with their alerts, stand-alone alerts, bad
lines) and keeps the counts of a :class:`ReplayStats`, which decide the exit status of
``pitwatch replay``. Rendering lives beside: :mod:`pitwatch.replay.output` (JSON Lines, one
pydantic model per record kind) and :mod:`pitwatch.replay.text` (rich text).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Iterable, Iterator, Mapping

from pitwatch.detectors.alerts import Alert
from pitwatch.detectors.auditor import AuditOutput, TableAuditor
from pitwatch.detectors.digest import RoundDigest, TableMark, digest_of
from pitwatch.detectors.watch import CasinoWatch, PoisonDigest
from pitwatch.rules.base import RoundVerdict
from pitwatch.schemas.events import InvalidEvent, parse_event

EXIT_CLEAN = 0
"""Exit status of a replay whose input is valid and shows no violation."""
EXIT_VIOLATIONS = 1
"""Exit status of a replay that found violations (and no invalid input)."""
EXIT_INVALID = 2
"""Exit status of a replay with invalid input lines (also used for usage errors)."""


@dataclass
class ReplayItem:
    """One thing a replay reports: a round verdict with its alerts, a stand-alone alert
    (gap, duplicate, table-level), a bad input line (``error`` says why), or, when asked for,
    an event as read (``event``: a :mod:`pitwatch.schemas.events` model).

    ``line`` is the 1-based input line of the event that produced it (for a round, its
    ``round_ended``), ``None`` when the events did not come from a file."""

    verdict: RoundVerdict | None = None
    alerts: list[Alert] = field(default_factory=list)
    line: int | None = None
    error: str | None = None
    event: Any = None


@dataclass
class ReplayStats:
    """Counts of a replay.

    ``lines``: input lines read (blank ones included); ``events``: lines accepted as events;
    ``invalid_lines``: lines rejected (not a valid event, or refused by the sequence check,
    e.g. a stale ``seq``), so ``lines`` = ``events`` + ``invalid_lines`` + blank lines;
    ``rounds``: round verdicts; ``rounds_with_violations``; ``violations``: alerts of every
    kind, in rounds or not.
    """

    lines: int = 0
    events: int = 0
    rounds: int = 0
    rounds_with_violations: int = 0
    violations: int = 0
    invalid_lines: int = 0

    def count(self, item: ReplayItem) -> None:
        """Add a yielded item's rounds, violations and invalid lines to the counts."""
        if item.error is not None:
            self.invalid_lines += 1
        if item.verdict is not None:
            self.rounds += 1
            self.rounds_with_violations += bool(item.alerts)
        self.violations += len(item.alerts)

    @property
    def exit_status(self) -> int:
        """:data:`EXIT_INVALID` if any line was invalid, else :data:`EXIT_VIOLATIONS` if any
        violation was found, else :data:`EXIT_CLEAN`."""
        if self.invalid_lines:
            return EXIT_INVALID
        return EXIT_VIOLATIONS if self.violations else EXIT_CLEAN


def fold_lines(lines: Iterable[bytes | str], start_line: int = 1,
               versions: Mapping[str, str] | None = None,
               auditors: dict[str, TableAuditor] | None = None,
               ) -> Iterator[tuple[int, Any, AuditOutput | None, str | None]]:
    """Fold JSONL event lines (any number of tables, each in ``seq`` order) through one
    :class:`TableAuditor` per table, as the live pipeline does; ``versions`` as in
    :func:`replay_lines`.

    Yields ``(line, event, output, error)`` per non-blank line (``line`` 1-based from
    ``start_line``): ``error`` (and no output) for a line that is not a valid event or on which
    the engine failed (the table is left unchanged), else the event and what it produced.
    A line's end is not part of the event. Raises nothing for bad input.

    ``auditors`` (table id -> auditor, filled as tables appear) may be given to read the tables'
    states as the fold goes, e.g. each table's hash-chain head
    (:attr:`~pitwatch.detectors.auditor.TableAuditor.chain_head`): each event's line, as read
    without its line end, is then linked as the live pipeline links the Kafka message. Without
    ``auditors`` nothing can read the chain, so it is not computed (a SHA-256 per event, about a
    tenth of the fold: BENCHMARKS.md); verdicts, alerts and figures do not depend on it."""
    link = auditors is not None
    if auditors is None:
        auditors = {}
    for n, raw in enumerate(lines, start_line):
        if isinstance(raw, str):
            raw = raw.encode()
        raw = raw.rstrip(b"\r\n")  # the line's end is not part of the event (as a Kafka message)
        if not raw or raw.isspace():  # blank (isspace: no stripped copy of every line)
            continue
        try:
            event = parse_event(raw)
        except InvalidEvent as exc:
            if exc.table_id is not None and exc.seq is not None:  # not again as a missing seq
                held = auditors.get(exc.table_id)
                if held is None:
                    held = auditors[exc.table_id] = TableAuditor(exc.table_id, versions)
                held.sequence.excuse(exc.seq)
            yield n, None, None, exc.reason
            continue
        aud = auditors.get(event.table_id)
        if aud is None:
            aud = auditors[event.table_id] = TableAuditor(event.table_id, versions)
        try:
            out = aud.feed(event, raw if link else None)
        except Exception as exc:  # an engine defect: the table is unchanged, as in the live pipeline
            yield n, event, None, f"engine error on {event.type} of table {event.table_id}: {type(exc).__name__}: {exc}"
            continue
        yield n, event, out, None


def _counting(lines: Iterable[bytes | str], stats: ReplayStats) -> Iterator[bytes | str]:
    for raw in lines:
        stats.lines += 1
        yield raw


def replay_lines(lines: Iterable[bytes | str], start_line: int = 1,
                 stats: ReplayStats | None = None,
                 versions: Mapping[str, str] | None = None, events: bool = False,
                 detectors: bool = True) -> Iterator[ReplayItem]:
    """Replay JSONL event lines (any number of tables, each in ``seq`` order), judged with the
    ruleset versions pinned in ``versions`` (``{ruleset_id: content hash}``) or else the
    ones shipped with this release.

    Yields a :class:`ReplayItem` per finished round, per alert outside a round verdict, and
    per invalid line (``error`` says why, ``line`` is 1-based from ``start_line``); with
    ``events``, also per valid event (``event`` set), before what it produces. With
    ``detectors`` (the default), every round verdict is also offered, as a digest, to its casino's
    cross-round detectors (:class:`pitwatch.detectors.watch.CasinoWatch`), which release rounds in
    event-time order as the live watch stage does, whatever the file's interleaving of tables; their
    alerts are yielded as one more item when rounds are released (after the round or the
    ``table_closed`` that released them, and at the end of the input, where every pending round is
    released). A detector's failure on a round is yielded as an error item. Blank lines are skipped.
    ``stats``, if given, is updated as lines are read and items yielded. Raises nothing
    for bad input.
    """
    stats = ReplayStats() if stats is None else stats
    watches: dict[str, CasinoWatch] = {}
    for n, event, out, error in fold_lines(_counting(lines, stats), start_line, versions):
        if events and event is not None:
            yield ReplayItem(line=n, event=event)
        if out is None:
            yield _counted(stats, ReplayItem(line=n, error=error))
            continue
        if out.rejected:
            yield _counted(stats, ReplayItem(line=n, error=out.rejected))
        else:
            stats.events += 1
            if detectors and event.type == "table_closed" and out.duplicate is None:
                mark = TableMark(event.casino_id, event.table_id, event.occurred_at)
                yield from _watched(stats, n, _watch(watches, event.casino_id), partial(CasinoWatch.close_table, mark=mark))
        if not out.alerts and not out.verdicts:
            continue
        round_alert_ids: set[str] = set()
        for v in out.verdicts:
            own = [a for a in out.alerts
                   if a.round_id == v.round_id and a.kind not in ("sequence_gap", "duplicate_event")]
            round_alert_ids.update(a.alert_id for a in own)
            yield _counted(stats, ReplayItem(verdict=v, alerts=own, line=n))
            if detectors:
                yield from _watched(stats, n, _watch(watches, v.casino_id), partial(_offer, digest=digest_of(v)))
        rest = [a for a in out.alerts if a.alert_id not in round_alert_ids]
        if rest:
            yield _counted(stats, ReplayItem(alerts=rest, line=n))
    if detectors:
        for watch in watches.values():
            yield from _watched(stats, None, watch, CasinoWatch.flush)


def _offer(watch: CasinoWatch, digest: RoundDigest) -> list[Alert]:
    return watch.offer(digest)[1]


def _watch(watches: dict[str, CasinoWatch], casino_id: str) -> CasinoWatch:
    watch = watches.get(casino_id)
    if watch is None:
        watch = watches[casino_id] = CasinoWatch(casino_id)
    return watch


def _watched(stats: ReplayStats, line: int | None, watch: CasinoWatch,
             step: Callable[[CasinoWatch], list[Alert]]) -> Iterator[ReplayItem]:
    """The item of the alerts ``step`` releases from ``watch``, or of the detector failure it met."""
    try:
        found = step(watch)
    except PoisonDigest as exc:
        yield _counted(stats, ReplayItem(line=line, error=exc.reason))
        return
    if found:
        yield _counted(stats, ReplayItem(alerts=found, line=line))


def _counted(stats: ReplayStats, item: ReplayItem) -> ReplayItem:
    stats.count(item)
    return item
