"""The stored form of a table's state: a versioned JSON snapshot of a :class:`TableAuditor`.

The stream processor keeps one snapshot per table in its state store (a Faust table whose
changelog is a Kafka topic), so the format outlives any one release of pitwatch. It is plain
JSON, validated on load, and never pickled: reading it runs no code, and a release that adds
an attribute to a class still reads every snapshot written before.

Format, ``state_version`` 6 (UTF-8 JSON object)::

    {
      "state_version": 6,
      "table_id": "RF-01",
      "positions": {"pitwatch.table-events:3": 1841},       # topic:partition -> last offset applied
      "sequence": {"last_seq": 2204,                          # per-table seq integrity
                   "recent_ids": "<event_id>,<event_id>,...", # recent ids, oldest first (<= 2048)
                   "recent_seqs": [[157, 2203], ...],         # their seqs: runs [first, last]
                   "excused": [2210, ...]},                   # seqs after last_seq rejected as invalid
      "chain": {"head": "<64 hex digits>"},                   # link of the last accepted event
      "quarantine": {"reason": "...", "since_seq": 2211,      # only while the table is quarantined
                     "since_event_id": "...", "parked": 12},
      "engine": {
        "base": {                                             # the table at the last quiet point
          "ctx": null | {"casino_id": ..., "table_id": ..., "game": ..., "ruleset_id": ...,
                         "min_bet": "10.00", "max_bet": "2000.00", "options": {...},
                         "dealer_id": "D-07" | null,
                         "carry": {"version": 1, ...},  # the game's state across rounds
                         "float": {"anticipo": "5000.00", "fills": "0.00",  # the session's
                                   "credits": "0.00", "drop": "850.00",     # float ledger
                                   "cashed": "0.00", "tips": "15.00",       # (euros)
                                   "bet_win": "-120.00", "complete": true},
                         "book": {"version": 1, "bets": [...]}},  # standing bets (en prison)
          "unopened_events": 0},
        "pending": [{...event as JSON...}, ...]               # events applied since, in order
      }
    }

The open round is not stored as game-module internals: it is rebuilt on load by applying the
``pending`` events again (the rules engine is pure, so the result is the same round).

Versioning: :data:`STATE_VERSION` is the version written. Every older version has an
upcaster in :data:`UPCASTERS` (``N -> N+1``, a pure function over the decoded dict); loading
applies them in turn. Version 1 (release 0.1) had no ``sequence.excused``: it upcasts to an
empty list. Version 2 had no float ledger: it upcasts to an empty ledger marked incomplete
(``"complete": false``), so a session that began before the upgrade is not reconciled at its
close (its earlier chips and cash are unknown) while every later session is. Version 3 kept the
recent ids as ``[id, seq]`` pairs: version 4 keeps them as one comma-separated string of ids
(event ids are UUIDs: no commas) and their seqs as runs of consecutive seqs (``[[1, 2048]]``
for 2,048 ids in a row), which the sequence checker keeps up to date as events arrive: every
table touched by a batch is written after it, and version 3 cost about a millisecond per table
to write. Version 5 adds ``chain.head``, the table's hash-chain head
(:mod:`pitwatch.detectors.chain`): a version 4 or older state upcasts to
:data:`~pitwatch.detectors.chain.GENESIS` (64 zeros), so the first event after the upgrade
starts the table's chain (the events stored before it have no link; ``pitwatch verify`` says so).
Version 6 adds the book of standing bets to the table context (:mod:`pitwatch.rules.book`): a
version 5 or older state's French roulette bets in prison (``carry["prisoners"]``) move into it.
Version 7 types and versions each game's state across rounds (:class:`pitwatch.rules.game.Carry`: the
wheel's last direction, the colour markers, the shoe's burn, the bank, the session's fees): a version 6
``carry`` gains ``"version": 1``, its fields unchanged.
A snapshot of a newer version than this release knows, or one that fails
validation, raises :class:`StateError`. ``tests/data/state/`` holds snapshots written by past
releases, which every release must load.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any, Callable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pitwatch.detectors.auditor import Quarantine, TableAuditor
from pitwatch.detectors.chain import GENESIS, HASH_SIZE
from pitwatch.detectors.sequence import SequenceChecker
from pitwatch.rules.base import RuleError
from pitwatch.rules.engine import TableEngine
from pitwatch.rules.game import TableContext
from pitwatch.rules.roulette import book_prisoners
from pitwatch.schemas.events import EVENT_ADAPTER

STATE_VERSION = 7


class StateError(ValueError):
    """A stored table state that cannot be loaded (malformed, unknown version, unknown ruleset)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SequenceState(_Strict):
    """:class:`~pitwatch.detectors.sequence.SequenceChecker` state."""

    last_seq: int = Field(ge=0)
    recent_ids: str
    recent_seqs: list[tuple[int, int]]
    excused: list[int]

    def recent(self) -> list[tuple[str, int]]:
        """The recent ``(event_id, seq)`` pairs, oldest first. Raises ``ValueError`` when a
        run is not increasing, the seqs do not increase, or ids and seqs are not as many."""
        ids = self.recent_ids.split(",") if self.recent_ids else []
        seqs: list[int] = []
        for first, last in self.recent_seqs:
            if last < first or (seqs and first <= seqs[-1]):
                raise ValueError(f"recent seq run [{first}, {last}] is not after the ones before it")
            seqs.extend(range(first, last + 1))
        if len(ids) != len(seqs):
            raise ValueError(f"{len(ids)} recent ids but {len(seqs)} recent seqs")
        return list(zip(ids, seqs))


class ChainState(_Strict):
    """The table's hash-chain head (:attr:`~pitwatch.detectors.auditor.TableAuditor.chain_head`)."""

    head: str = Field(pattern=f"^[0-9a-f]{{{2 * HASH_SIZE}}}$")


class EngineBase(_Strict):
    """The table at its last quiet point (no round open)."""

    ctx: dict[str, Any] | None
    unopened_events: int = Field(ge=0)


class EngineState(_Strict):
    """:meth:`~pitwatch.rules.engine.TableEngine.snapshot`."""

    base: EngineBase
    pending: list[dict[str, Any]]


class QuarantineState(_Strict):
    """:class:`~pitwatch.detectors.auditor.Quarantine` (absent when the table is not held)."""

    reason: str
    since_seq: int = Field(ge=0)
    since_event_id: str
    parked: int = Field(ge=0)


class TableState(_Strict):
    """Snapshot format, version :data:`STATE_VERSION` (see the module docstring)."""

    state_version: int = Field(ge=STATE_VERSION, le=STATE_VERSION)
    table_id: str
    positions: dict[str, int]
    sequence: SequenceState
    chain: ChainState
    engine: EngineState
    quarantine: QuarantineState | None = None


def _v1_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 1 -> 2: the sequence state gains ``excused`` (none in a version-1 snapshot)."""
    seq = doc.get("sequence")
    seq = dict(seq, excused=[]) if isinstance(seq, dict) else seq
    return dict(doc, state_version=2, sequence=seq)


def _v2_to_v3(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 2 -> 3: the table context gains its float ledger, unknown for a session
    already open (an empty ledger with ``complete`` false: not reconciled at its close)."""
    engine = doc.get("engine")
    base = engine.get("base") if isinstance(engine, dict) else None
    ctx = base.get("ctx") if isinstance(base, dict) else None
    if isinstance(engine, dict) and isinstance(base, dict) and isinstance(ctx, dict) and "float" not in ctx:
        unknown = {k: "0.00" for k in ("anticipo", "fills", "credits", "drop", "cashed", "tips", "bet_win")}
        ctx = dict(ctx, float=dict(unknown, complete=False))
        doc = dict(doc, engine=dict(engine, base=dict(base, ctx=ctx)))
    return dict(doc, state_version=3)


def _v3_to_v4(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 3 -> 4: the recent ``[id, seq]`` pairs become a string of ids and runs of seqs."""
    seq = doc.get("sequence")
    if isinstance(seq, dict) and isinstance(seq.get("recent"), list):
        pairs = seq["recent"]
        if all(isinstance(p, list) and len(p) == 2 for p in pairs):
            runs: list[list[Any]] = []
            for _, n in pairs:
                if runs and isinstance(n, int) and runs[-1][1] == n - 1:
                    runs[-1][1] = n
                else:
                    runs.append([n, n])
            rest = {k: v for k, v in seq.items() if k != "recent"}
            seq = dict(rest, recent_ids=",".join(str(p[0]) for p in pairs), recent_seqs=runs)
    return dict(doc, state_version=4, sequence=seq)


def _v4_to_v5(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 4 -> 5: the table's hash chain starts at :data:`GENESIS` (no event of a
    version 4 state was linked)."""
    return dict(doc, state_version=5, chain={"head": GENESIS.hex()})


def _v5_to_v6(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 5 -> 6: the table context gains its book of standing bets (:mod:`pitwatch.rules.book`);
    French roulette's bets in prison move from ``carry["prisoners"]`` into it, in the same order
    (:func:`pitwatch.rules.roulette.book_prisoners`). Raises :class:`StateError` for a context whose
    ruleset is unknown."""
    engine = doc.get("engine")
    base = engine.get("base") if isinstance(engine, dict) else None
    ctx = base.get("ctx") if isinstance(base, dict) else None
    if isinstance(engine, dict) and isinstance(base, dict) and isinstance(ctx, dict) and "book" not in ctx:
        carry = dict(ctx.get("carry") or {})
        prisoners = carry.pop("prisoners", None)
        try:  # the context (the ruleset and an empty book) as this release reads it
            table = TableContext.from_dict(dict(ctx, carry={"version": 1}))
            if isinstance(prisoners, dict):
                book_prisoners(table, prisoners)
        except (RuleError, KeyError, TypeError, ValueError, ArithmeticError) as exc:
            raise StateError(f"table state version 5 cannot be upcast: {type(exc).__name__}: {exc}") from None
        doc = dict(doc, engine=dict(engine, base=dict(base, ctx=dict(ctx, carry=carry, book=table.book.to_dict()))))
    return dict(doc, state_version=6)


def _v6_to_v7(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 6 -> 7: each game's state across rounds is typed and versioned
    (:class:`pitwatch.rules.game.Carry`): the context's ``carry`` gains ``"version": 1``, its fields unchanged."""
    engine = doc.get("engine")
    base = engine.get("base") if isinstance(engine, dict) else None
    ctx = base.get("ctx") if isinstance(base, dict) else None
    if isinstance(engine, dict) and isinstance(base, dict) and isinstance(ctx, dict):
        carry = ctx.get("carry")
        if not isinstance(carry, dict):
            raise StateError(f"table state version 6 cannot be upcast: its carry is {type(carry).__name__}, not a dict")
        ctx = dict(ctx, carry={"version": 1, **carry})
        doc = dict(doc, engine=dict(engine, base=dict(base, ctx=ctx)))
    return dict(doc, state_version=7)


UPCASTERS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5, 5: _v5_to_v6, 6: _v6_to_v7}
"""``version -> function`` turning a decoded snapshot of that version into the next version."""


def dump_state(aud: TableAuditor) -> bytes:
    """Serialize ``aud`` to snapshot bytes (current :data:`STATE_VERSION`)."""
    doc: dict[str, Any] = {
        "state_version": STATE_VERSION,
        "table_id": aud.table_id,
        "positions": aud.positions,
        "sequence": {"last_seq": aud.sequence.last_seq,
                     "recent_ids": aud.sequence.recent_ids(),
                     "recent_seqs": aud.sequence.recent_seq_runs(),
                     "excused": sorted(aud.sequence.excused)},
        "chain": {"head": aud.chain_head.hex()},
        "engine": aud.engine.snapshot(),
    }
    if aud.quarantine is not None:
        doc["quarantine"] = asdict(aud.quarantine)
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def upcast(doc: dict[str, Any]) -> dict[str, Any]:
    """Bring a decoded snapshot of any known version to :data:`STATE_VERSION`.

    Raises :class:`StateError` for a missing, unknown or future version."""
    version = doc.get("state_version")
    if not isinstance(version, int) or version < 1:
        raise StateError(f"table state has no valid state_version: {version!r}")
    if version > STATE_VERSION:
        raise StateError(f"table state version {version} is newer than this release reads ({STATE_VERSION})")
    while version < STATE_VERSION:
        step = UPCASTERS.get(version)
        if step is None:
            raise StateError(f"no upcaster from table state version {version}")
        doc = step(doc)
        version = doc["state_version"]
    return doc


def load_state(raw: bytes) -> TableAuditor:
    """Rebuild a :class:`TableAuditor` from snapshot bytes of any known version.

    Raises :class:`StateError` if the bytes are not a valid snapshot, name an unknown ruleset,
    or hold a pending event that no longer validates."""
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise StateError(f"table state is not JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise StateError("table state is not a JSON object")
    try:
        state = TableState.model_validate(upcast(doc))
    except ValidationError as exc:
        raise StateError(f"table state does not match version {STATE_VERSION}: {exc.errors()[:3]}") from None
    aud = TableAuditor(state.table_id)
    aud.positions = dict(state.positions)
    try:
        recent = state.sequence.recent()
    except ValueError as exc:
        raise StateError(f"table state of {state.table_id}: {exc}") from None
    aud.sequence = SequenceChecker.restore(state.sequence.last_seq, recent, set(state.sequence.excused))
    aud.chain_head = bytes.fromhex(state.chain.head)
    if state.quarantine is not None:
        aud.quarantine = Quarantine(**state.quarantine.model_dump())
    try:
        aud.engine = TableEngine.from_snapshot(
            state.table_id, state.engine.model_dump(), EVENT_ADAPTER.validate_python)
    except (RuleError, ValidationError) as exc:
        raise StateError(f"table state of {state.table_id} cannot be rebuilt: {exc}") from None
    except Exception as exc:  # an engine defect while re-applying the open round
        raise StateError(f"table state of {state.table_id} cannot be rebuilt: "
                         f"{type(exc).__name__}: {exc}") from exc
    return aud
