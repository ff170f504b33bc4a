"""Bring a warehouse database up to this release's ``schema.sql`` (:meth:`Warehouse.ensure_schema`).

Every statement of ``schema.sql`` is ``CREATE ... IF NOT EXISTS``, so running them leaves a
database created by an older release as it was. :func:`migrate` brings it up to date, on
ClickHouse 18.16 (which has no ``ADD COLUMN IF NOT EXISTS``), current servers and chDB alike:

1. **Target definition.** A database with no table yet simply gets every statement. Otherwise
   ``schema.sql`` runs in a scratch database, ``<database>_schema_probe_<hex>`` (dropped
   afterwards: the warehouse user must be allowed to create and drop it), and both databases
   are described by ``system.tables`` (engine, ``partition_key``, ``sorting_key``,
   ``primary_key``, ``create_table_query``) and ``system.columns`` (names and types in table
   order): what 18.16 and chDB both expose (``as_select`` and ``target_table`` are chDB-only).
   Both descriptions come from the same server, so a view is compared by its whole
   ``create_table_query`` once the database names are made the same.
2. **Base tables** (every table no materialized view writes to: the audit record, never
   dropped or rewritten). A missing table is created; a missing column is added with
   ``ALTER TABLE ... ADD COLUMN name type AFTER previous`` (stored rows read the type's
   default: ``''``, ``0``, ``0.00``, ``1970-01-01``). A column listed in
   :data:`COLUMN_BACKFILLS` is then set on the rows stored before by a mutation (``ALTER
   TABLE ... UPDATE ... WHERE column = its default``; 18.16 has them and writes only that
   column's files of each part, hard-linking the others) that :func:`migrate` waits for:
   ``settlements.gaming_day`` from ``settled_at`` (:func:`gaming_day_sql`). Any other added
   column keeps its default on the old rows, with a warning: ``settlements.handle``, ``win``
   and ``theoretical_win`` need a bet's original wager, what stays on the layout en prison
   and its bet kind's house edge, none of them stored, so they stay 0 on the previous
   release's rows and in ``table_hourly``'s sums over them (a replay of the events computes
   them, e.g. ``pitwatch figures EVENTS.jsonl``; the sink never rewrites a stored id);
   ``events_raw.prev_hash`` and ``hash`` stay ``''`` on purpose (:data:`COLUMN_LEFT_DEFAULT`:
   the events stored before are not in the hash chain, logged at INFO). A
   different engine, key or column type raises :class:`WarehouseError` (a base table is never
   rewritten), except a table of :data:`REKEYED_TABLES` (``alerts``: keyed ``(table_id,
   alert_id)`` and partitioned by month before, now ``alert_id`` alone) whose keys differ:
   every stored row is copied into ``<table>_rekeyed`` created from ``schema.sql``, the copy
   is checked to hold every id, the names are swapped (``RENAME TABLE``, on 18.16 and chDB)
   and the old table, ``<table>_before_rekey``, is dropped. A column ``schema.sql`` no
   longer has is left, with a warning.
3. **Aggregate tables** (a table materialized views write to: ``table_hourly_rows``, fed by
   ``table_hourly_mv`` and ``table_hourly_movements_mv``). When the table is missing, its
   columns, engine or keys differ, or its set of views or any view's definition differs, the
   views writing to it and the table are dropped, the table is created from ``schema.sql``,
   filled with ``INSERT INTO t (...) SELECT ... FROM (<each view's own SELECT from
   schema.sql, reading its source table FINAL>)`` (so each id counts once), and only then are
   the views created: a rebuild interrupted anywhere leaves a view missing, so the next run
   rebuilds again.
4. **Plain views** (``table_hourly``, ``alert_status``) hold no data: created when missing,
   dropped and created again when they differ. A table of :data:`REPLACED_BY_VIEWS` standing
   where ``schema.sql`` now has a view (the old ``table_hourly`` SummingMergeTree: sums
   recomputed from the base tables in step 3) is dropped once no materialized view writes to
   it; any other table there raises.

Every step is logged (logger ``pitwatch.warehouse.migrate``) and returned as a
:class:`MigrationStep`; a database already up to date gets none, so running it again does
nothing. Run it from one process while nothing writes (``pitwatch migrate`` with the workers
stopped, or a single worker's start): a row inserted between a backfill and the creation of
its view is not counted in the aggregate table, and two processes rebuilding the same
aggregate table at once could count rows twice.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from dataclasses import dataclass
from typing import Callable

from pitwatch.warehouse.base import WarehouseError
from pitwatch.warehouse.ddl import check_ident, schema_statements

__all__ = ["COLUMN_BACKFILLS", "COLUMN_LEFT_DEFAULT", "MUTATION_WAIT_S", "REKEYED_TABLES", "REPLACED_BY_VIEWS",
           "MigrationStep", "gaming_day_sql", "migrate"]

log = logging.getLogger(__name__)

Execute = Callable[[str], list[tuple]]

MUTATION_WAIT_S = 3600.0
"""Longest wait (seconds) for a backfill mutation to finish before an aggregate table is
filled from its source; past it :func:`migrate` raises and a later run waits again."""


def gaming_day_sql(column: str) -> str:
    """ClickHouse expression of the gaming day of the ``DateTime`` column ``column``, equal to
    :func:`pitwatch.detectors.figures.gaming_day` on ClickHouse 18.16 and chDB: the
    Europe/Madrid local date, or the day before when the local time is before 06:00.

    Measured: ``toDate(toTimeZone(t, 'Europe/Madrid') - 6*3600)`` is wrong on both: 18.16
    loses the time zone in the subtraction (the UTC date comes out), and on either it moves
    the instant, not the local clock, so it is an hour off on the days Madrid changes time.
    """
    local = f"toTimeZone(`{column}`, 'Europe/Madrid')"
    return f"toDate({local}) - (toHour({local}) < 6)"


COLUMN_BACKFILLS: dict[tuple[str, str], str] = {
    ("settlements", "gaming_day"): gaming_day_sql("settled_at"),
    ("movements", "gaming_day"): gaming_day_sql("occurred_at"),
}
"""``{(table, column): expression}``: the value a column added by :func:`migrate` gets on
the rows stored before it existed (computed from their other columns, as pitwatch computes it
for a new row). A column added without an entry keeps its type's default there."""

_UNLINKED = ("the rows stored before it are not linked in their table's hash chain (pitwatch verify counts "
             "them as stored before the chain began; each table's chain starts at its next event)")
COLUMN_LEFT_DEFAULT: dict[tuple[str, str], str] = {
    ("events_raw", "prev_hash"): _UNLINKED,
    ("events_raw", "hash"): _UNLINKED,
}
"""``{(table, column): why}``: columns added by :func:`migrate` whose default (``''``) is the
right value on the rows stored before them; logged at INFO, not as a warning."""


REKEYED_TABLES: dict[str, str] = {
    "alerts": "keyed (table_id, alert_id) and partitioned by the month of detected_at before: an alert "
              "raised again from another table or month was a second row under FINAL",
}
"""Base tables whose engine keys :func:`migrate` may change (``{table: why}``), by copying every
row into a table created from ``schema.sql`` and swapping the names (``rekey``). Any other base
table whose keys differ is an error."""

REPLACED_BY_VIEWS: dict[str, str] = {
    "table_hourly": "a SummingMergeTree before, summing what each insert added (a batch stored twice by "
                    "two racing sinks counted twice); now a view over table_hourly_rows FINAL, refilled "
                    "from settlements and movements FINAL",
}
"""Aggregate tables of an older release that ``schema.sql`` now defines as a plain view of the
same name (``{name: why}``): dropped (their rows are sums recomputed from the base tables) once
no materialized view writes to them, then the view is created."""


@dataclass(frozen=True)
class MigrationStep:
    """One change :func:`migrate` made: ``action`` (``create_table``, ``create_view``,
    ``add_column``, ``backfill_column``, ``drop_view``, ``drop_table``, ``backfill_table``,
    ``copy_rows``, ``rename_table``),
    the ``table`` (or view) it changed, a human ``detail`` and the ``sql`` it ran."""

    action: str
    table: str
    detail: str
    sql: str = ""

    def __str__(self) -> str:
        return f"{self.action} {self.table}: {self.detail}"


@dataclass(frozen=True)
class _Described:
    """A table or view as ``system.tables`` / ``system.columns`` describe it."""

    name: str
    engine: str
    partition_key: str
    sorting_key: str
    primary_key: str
    create_query: str
    columns: tuple[tuple[str, str], ...]

    @property
    def keys(self) -> tuple[str, str, str, str]:
        return (self.engine, self.partition_key, self.sorting_key, self.primary_key)

    @property
    def is_view(self) -> bool:
        return self.engine in ("MaterializedView", "View")

    @property
    def target(self) -> str | None:
        """The table a materialized view writes to (``TO db.table``), as ``db.table``."""
        m = _TO_RE.match(self.create_query)
        return f"{m.group(1)}.{m.group(2)}" if m else None


@dataclass(frozen=True)
class _SchemaObject:
    """One ``CREATE ... IF NOT EXISTS`` statement of ``schema.sql``."""

    kind: str  # "database", "table", "materialized view", "view"
    name: str
    statement: str
    target: str | None = None  # a materialized view's TO table (name in the database)
    select: str | None = None  # a materialized view's SELECT


_TO_RE = re.compile(r"(?is)^CREATE\s+MATERIALIZED\s+VIEW\s+\S+\s+TO\s+`?(\w+)`?\.`?(\w+)`?")
_HEAD_RE = re.compile(
    r"(?is)^CREATE\s+(DATABASE|TABLE|MATERIALIZED\s+VIEW|VIEW)\s+IF\s+NOT\s+EXISTS\s+"
    r"(?:`?\w+`?\.)?`?(\w+)`?(?:\s+TO\s+`?\w+`?\.`?(\w+)`?)?"
)
_SELECT_RE = re.compile(r"(?is)\bAS\s+(SELECT\b.*)$")


def _schema_objects(database: str) -> list[_SchemaObject]:
    out = []
    for stmt in schema_statements(database):
        m = _HEAD_RE.match(stmt)
        if m is None:
            raise ValueError(f"schema.sql: not a CREATE ... IF NOT EXISTS statement: {stmt[:80]!r}")
        kind = " ".join(m.group(1).lower().split())
        select = None
        if kind == "materialized view":
            s = _SELECT_RE.search(stmt)
            if m.group(3) is None or s is None:
                raise ValueError(f"schema.sql: materialized view {m.group(2)} must write TO a table AS SELECT")
            select = s.group(1)
        out.append(_SchemaObject(kind, m.group(2), stmt, m.group(3), select))
    return out


def _describe(execute: Execute, database: str) -> dict[str, _Described]:
    """``{name: _Described}`` of every table and view of ``database`` (empty if none)."""
    tables = execute(
        "SELECT name, engine, partition_key, sorting_key, primary_key, create_table_query "
        f"FROM system.tables WHERE database = '{database}'"
    )
    columns: dict[str, list[tuple[str, str]]] = {t[0]: [] for t in tables}
    for table, name, typ in execute(f"SELECT table, name, type FROM system.columns WHERE database = '{database}'"):
        if table in columns:
            columns[table].append((name, typ))
    return {name: _Described(name, engine, part, sort, primary, create, tuple(columns[name]))
            for name, engine, part, sort, primary, create in tables}


class _Migration:
    def __init__(self, execute: Execute, database: str, mutation_wait_s: float):
        self.execute = execute
        self.db = database
        self.mutation_wait_s = mutation_wait_s
        self.steps: list[MigrationStep] = []

    def apply(self, action: str, table: str, detail: str, sql: str) -> None:
        step = MigrationStep(action, table, detail, sql)
        log.info("warehouse %s: %s", self.db, step)
        log.debug("warehouse %s: %s", self.db, sql)
        try:
            self.execute(sql)
        except Exception as e:
            done = "; ".join(str(s) for s in self.steps) or "none"
            raise WarehouseError(f"migrating {self.db}: {step} failed: {e} (steps applied before: {done})") from e
        self.steps.append(step)

    def count(self, table: str) -> int:
        return int(self.execute(f"SELECT count() FROM {self.db}.{table}")[0][0])

    def wait_mutations(self, table: str) -> None:
        deadline = time.monotonic() + self.mutation_wait_s
        sql = (f"SELECT count() FROM system.mutations WHERE database = '{self.db}' "
               f"AND table = '{table}' AND is_done = 0")
        delay = 0.05
        while self.execute(sql)[0][0]:
            if time.monotonic() > deadline:
                raise WarehouseError(
                    f"migrating {self.db}: mutations of {table} still running after {self.mutation_wait_s:.0f} s "
                    "(system.mutations); run ensure_schema() again once they finished")
            time.sleep(delay)
            delay = min(delay * 2, 2.0)

    # base tables ------------------------------------------------------------------------
    def base_table(self, obj: _SchemaObject, want: _Described, have: _Described | None) -> None:
        if have is None:
            self.apply("create_table", obj.name, "missing: created from schema.sql", obj.statement)
            return
        have_cols = dict(have.columns)
        changed = [f"{c} {have_cols[c]} (schema.sql: {t})" for c, t in want.columns if c in have_cols and have_cols[c] != t]
        if have.keys != want.keys:
            if obj.name not in REKEYED_TABLES or have.engine != want.engine or changed:
                raise WarehouseError(
                    f"{self.db}.{obj.name}: engine or keys {have.keys} differ from schema.sql's {want.keys}; "
                    "a base table is never rebuilt automatically")
            self.rekey(obj, want, have)
            return
        if changed:
            raise WarehouseError(f"{self.db}.{obj.name}: column types differ from schema.sql: {', '.join(changed)}; "
                                 "a base table is never rewritten automatically")
        want_names = {c for c, _ in want.columns}
        extra = [c for c in have_cols if c not in want_names]
        if extra:
            log.warning("warehouse %s: %s has column(s) %s that schema.sql does not; left as they are",
                        self.db, obj.name, ", ".join(extra))
        added: list[tuple[str, str]] = []
        prev: str | None = None
        for col, typ in want.columns:
            if col not in have_cols:
                after = f" AFTER `{prev}`" if prev is not None else ""  # 18.16 has no FIRST: appended
                self.apply("add_column", obj.name, f"{col} {typ}",
                           f"ALTER TABLE {self.db}.{obj.name} ADD COLUMN `{col}` {typ}{after}")
                added.append((col, typ))
            prev = col
        if not added:
            return
        stored = self.count(obj.name)
        if not stored:
            return
        mutated = False
        for col, typ in added:
            expr = COLUMN_BACKFILLS.get((obj.name, col))
            if (obj.name, col) in COLUMN_LEFT_DEFAULT:
                log.info("warehouse %s: %s.%s added: %s", self.db, obj.name, col, COLUMN_LEFT_DEFAULT[(obj.name, col)])
                continue
            if expr is None:
                log.warning(
                    "warehouse %s: %s.%s added: the %d row(s) stored before keep the default of %s (0, '' or "
                    "1970-01-01): pitwatch cannot derive it from their stored columns, so sums over them "
                    "(table_hourly) count that default; a replay of their events (pitwatch figures "
                    "EVENTS.jsonl) computes the real values", self.db, obj.name, col, stored, typ)
                continue
            self.apply("backfill_column", obj.name, f"{col} = {expr} on the {stored} row(s) stored before",
                       f"ALTER TABLE {self.db}.{obj.name} UPDATE `{col}` = {expr} "
                       f"WHERE `{col}` = defaultValueOfArgumentType(`{col}`)")
            mutated = True
        if mutated:
            self.wait_mutations(obj.name)

    def rekey(self, obj: _SchemaObject, want: _Described, have: _Described) -> None:
        """Copy a :data:`REKEYED_TABLES` table into a new one with schema.sql's keys, then swap
        the names: every stored row is copied (all of them, not FINAL: the new key decides
        which copy FINAL keeps); columns schema.sql added take their defaults. The old table
        is dropped once the new one holds every id it held."""
        full = f"{self.db}.{obj.name}"
        new, old = f"{obj.name}_rekeyed", f"{obj.name}_before_rekey"
        if self.execute(f"SELECT count() FROM system.tables WHERE database = '{self.db}' AND name = '{old}'")[0][0]:
            raise WarehouseError(f"cannot rekey {full}: {self.db}.{old} exists (left by an interrupted rekey?); "
                                 f"check that {full} holds its rows, then drop {self.db}.{old}")
        self.execute(f"DROP TABLE IF EXISTS {self.db}.{new}")  # a partial copy left by an interrupted run
        head = re.compile(rf"(?i)^(CREATE\s+TABLE\s+IF\s+NOT\s+EXISTS\s+){re.escape(full)}\b")
        create = head.sub(lambda m: f"{m.group(1)}{self.db}.{new}", obj.statement, count=1)
        if create == obj.statement:
            raise WarehouseError(f"cannot rekey {full}: schema.sql's statement does not create {full}")
        id_col = want.sorting_key.split(",")[-1].strip().strip("`")
        have_names = {c for c, _ in have.columns}
        cols = ", ".join(f"`{c}`" for c, _ in want.columns if c in have_names)
        self.apply("create_table", new, f"{obj.name} with schema.sql's keys ({want.sorting_key}; "
                   f"partition {want.partition_key or 'none'}), to be renamed {obj.name}", create)
        self.wait_mutations(obj.name)
        self.apply("copy_rows", new, f"every row of {obj.name} ({self.count(obj.name)})",
                   f"INSERT INTO {self.db}.{new} ({cols}) SELECT {cols} FROM {full}")
        ids = f"SELECT uniqExact(`{id_col}`) FROM {{}}"
        before, after = (int(self.execute(ids.format(t))[0][0]) for t in (full, f"{self.db}.{new}"))
        if before != after:
            raise WarehouseError(f"rekeying {full}: {self.db}.{new} holds {after} {id_col}(s), {obj.name} {before}; "
                                 f"{obj.name} left as it was")
        self.apply("rename_table", obj.name, f"rekeyed ({have.sorting_key!r} -> {want.sorting_key!r}); "
                   f"{after} {id_col}(s)",
                   f"RENAME TABLE {full} TO {self.db}.{old}, {self.db}.{new} TO {full}")
        self.apply("drop_table", old, f"the copy of {obj.name} under its old keys", f"DROP TABLE IF EXISTS {self.db}.{old}")

    # aggregate tables -------------------------------------------------------------------
    def aggregate_table(self, obj: _SchemaObject, views: list[_SchemaObject], target: dict[str, _Described],
                        real: dict[str, _Described]) -> None:
        want, have = target[obj.name], real.get(obj.name)
        full = f"{self.db}.{obj.name}"
        have_views = {n: d for n, d in real.items() if d.is_view and d.target == full}
        reasons = []
        if have is None:
            reasons.append("missing")
        else:
            if have.columns != want.columns:
                reasons.append("columns differ")
            if have.keys != want.keys:
                reasons.append(f"engine or keys differ ({have.sorting_key!r} -> {want.sorting_key!r})")
        for v in views:
            if v.name not in have_views:
                reasons.append(f"view {v.name} missing")
            elif have_views[v.name].create_query != target[v.name].create_query:
                reasons.append(f"view {v.name} differs")
        reasons += [f"view {n} not in schema.sql" for n in have_views if n not in {v.name for v in views}]
        if not reasons:
            return
        log.info("warehouse %s: rebuilding %s from its sources (%s)", self.db, obj.name, "; ".join(reasons))
        drop = list(have_views)
        for v in views:
            if v.name in real and v.name not in have_views:
                if not real[v.name].is_view:
                    raise WarehouseError(f"{self.db}.{v.name} is a table, schema.sql's view of that name cannot be created")
                drop.append(v.name)
        for name in drop:
            self.apply("drop_view", name, f"writes to {obj.name}, recreated from schema.sql",
                       f"DROP TABLE IF EXISTS {self.db}.{name}")
        if have is not None:
            self.apply("drop_table", obj.name, f"{self.count(obj.name)} aggregate row(s), recomputed below",
                       f"DROP TABLE IF EXISTS {full}")
        self.apply("create_table", obj.name, "created from schema.sql", obj.statement)
        for v in views:
            self.backfill(obj.name, v, target)
        for v in views:
            self.apply("create_view", v.name, f"writes to {obj.name}", v.statement)

    def backfill(self, table: str, view: _SchemaObject, target: dict[str, _Described]) -> None:
        assert view.select is not None
        source_re = re.compile(rf"(?i)(\bFROM\s+{self.db}\.`?(\w+)`?)")
        sources = source_re.findall(view.select)
        if len(sources) != 1 or sources[0][1] not in target:
            raise WarehouseError(f"cannot backfill {table} from {view.name}: its SELECT must read one table of the schema")
        source = sources[0][1]
        final = " FINAL" if target[source].engine == "ReplacingMergeTree" else ""
        select = source_re.sub(lambda m: m.group(1) + final, view.select, count=1)
        view_cols = {c for c, _ in target[view.name].columns}
        cols = ", ".join(f"`{c}`" for c, _ in target[table].columns if c in view_cols)
        self.wait_mutations(source)
        before = self.count(table)
        sql = f"INSERT INTO {self.db}.{table} ({cols}) SELECT {cols} FROM ({select})"
        self.apply("backfill_table", table, f"{view.name}'s SELECT over {source}{final}", sql)
        log.info("warehouse %s: %s: %d row(s) from %s", self.db, table, self.count(table) - before, source)


def _probe(execute: Execute, database: str) -> dict[str, _Described]:
    """Run ``schema.sql`` in a scratch database and describe it, database names rewritten to
    ``database``; the scratch database is dropped."""
    probe = check_ident(f"{database}_schema_probe_{uuid.uuid4().hex[:8]}")
    try:
        for stmt in schema_statements(probe):
            try:
                execute(stmt)
            except WarehouseError as e:
                raise WarehouseError(
                    f"cannot run schema.sql in the scratch database {probe} to compare {database} with it "
                    f"(the warehouse user must be allowed to create and drop {database}_schema_probe_*): {e}") from e
        described = _describe(execute, probe)
    finally:
        execute(f"DROP DATABASE IF EXISTS {probe}")
    expected = {o.name for o in _schema_objects(probe) if o.kind != "database"}
    if not expected <= described.keys():
        raise WarehouseError(f"schema probe {probe} lacks {sorted(expected - described.keys())}")

    def rename(q: str) -> str:
        return q.replace(f"`{probe}`.", f"`{database}`.").replace(f"{probe}.", f"{database}.")

    return {n: _Described(d.name, d.engine, d.partition_key, d.sorting_key, d.primary_key, rename(d.create_query),
                          d.columns) for n, d in described.items()}


def migrate(execute: Execute, database: str, mutation_wait_s: float = MUTATION_WAIT_S) -> list[MigrationStep]:
    """Create or bring ``database`` up to ``schema.sql`` (module doc); the steps applied, in
    order (``[]`` when it was up to date).

    ``execute`` runs one SQL text and returns rows (a backend's primitive). Raises
    :class:`WarehouseError` when a step fails (naming the steps applied before it), when the
    scratch database cannot be created, when a base table's engine, keys or column types
    differ from ``schema.sql``, or when a backfill mutation outlasts ``mutation_wait_s``.
    """
    check_ident(database)
    objects = _schema_objects(database)
    m = _Migration(execute, database, mutation_wait_s)
    execute(objects[0].statement if objects and objects[0].kind == "database"
            else f"CREATE DATABASE IF NOT EXISTS {database}")
    real = _describe(execute, database)
    if not real:
        for o in objects:
            if o.kind != "database":
                m.apply(f"create_{'view' if 'view' in o.kind else 'table'}", o.name, "created from schema.sql",
                        o.statement)
        return m.steps
    target = _probe(execute, database)
    views = [o for o in objects if o.kind == "materialized view"]
    aggregates = {v.target for v in views}
    for o in objects:
        if o.kind == "table" and o.name not in aggregates:
            m.base_table(o, target[o.name], real.get(o.name))
    for o in objects:
        if o.kind == "table" and o.name in aggregates:
            m.aggregate_table(o, [v for v in views if v.target == o.name], target, real)
    for o in objects:  # plain views hold no data: created if missing, replaced if they differ
        if o.kind != "view":
            continue
        if o.name in real and real[o.name].create_query != target[o.name].create_query:
            if real[o.name].is_view:
                m.apply("drop_view", o.name, "differs from schema.sql: recreated", f"DROP TABLE IF EXISTS {m.db}.{o.name}")
            elif o.name in REPLACED_BY_VIEWS and not any(d.is_view and d.target == f"{m.db}.{o.name}"
                                                          for d in _describe(execute, database).values()):
                m.apply("drop_table", o.name, f"{m.count(o.name)} row(s): {REPLACED_BY_VIEWS[o.name]}",
                        f"DROP TABLE IF EXISTS {m.db}.{o.name}")
            else:
                raise WarehouseError(f"{m.db}.{o.name} is a table ({real[o.name].engine}); schema.sql's view of "
                                     "that name cannot be created")
            del real[o.name]
        if o.name not in real:
            m.apply("create_view", o.name, "missing: created from schema.sql", o.statement)
    return m.steps
