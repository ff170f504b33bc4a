"""The warehouse DDL (``schema.sql``) and the canonical database name in SQL text.

``schema.sql`` and every query name tables ``pitwatch.<table>``. A warehouse opened on
another database (a test database ``t_1234``, a second environment) maps that canonical
name to its own: :func:`rename_database` replaces the identifier ``pitwatch`` followed by
``.`` outside quoted literals, and :func:`schema_statements` also renames the
``CREATE DATABASE`` statement. Unqualified table names would resolve to the connection's
default database (``default``): always qualify.

``schema.sql`` is split into statements at a ``;`` that ends a line; lines starting with
``--`` are comments. Nothing else is read from the text: the tables, their columns and
types, engines and sort keys are learned from the database once the statements have run
(:mod:`pitwatch.warehouse.catalog`).
"""

from __future__ import annotations

import re
from importlib import resources

__all__ = ["CANONICAL_DATABASE", "check_ident", "rename_database", "schema_statements", "schema_text",
           "split_statements"]

CANONICAL_DATABASE = "pitwatch"
"""The database name written in ``schema.sql`` and in queries; mapped per warehouse."""

_IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# `'...'`, `"..."`, `` `...` `` literals (with backslash escapes) or the canonical db prefix.
_DB_TOKEN_RE = re.compile(
    r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|(?<![\w.`])(pitwatch)(?=\s*\.)""",
    re.S,
)
_STATEMENT_END_RE = re.compile(r";[ \t]*$", re.M)
_CREATE_DATABASE_RE = re.compile(r"(?i)^(CREATE DATABASE IF NOT EXISTS )pitwatch$")


def check_ident(name: str) -> str:
    """Return ``name`` if it is a plain SQL identifier (``[A-Za-z_][A-Za-z0-9_]*``), else
    raise ``ValueError``."""
    if not _IDENT_RE.match(name):
        raise ValueError(f"not a plain identifier: {name!r}")
    return name


def schema_text() -> str:
    """The text of ``schema.sql`` shipped in this package."""
    return resources.files("pitwatch.warehouse").joinpath("schema.sql").read_text("utf-8")


def rename_database(sql: str, database: str) -> str:
    """``sql`` with the identifier ``pitwatch`` used as a database prefix replaced by
    ``database``; quoted literals and longer names (``mypitwatch.x``) are left untouched."""
    if database == CANONICAL_DATABASE:
        return sql

    def sub(m: re.Match[str]) -> str:
        return database if m.group(1) else m.group(0)

    return _DB_TOKEN_RE.sub(sub, sql)


def split_statements(text: str, database: str = CANONICAL_DATABASE) -> list[str]:
    """The statements of a DDL text written like ``schema.sql`` (module doc), for
    ``database``, in order, without comments: ``schema.sql`` itself, or an older release's
    copy of it (tests of :mod:`pitwatch.warehouse.migrate`).

    Raises ``ValueError`` for a database name that is not a plain identifier.
    """
    check_ident(database)
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("--")]
    out = []
    for stmt in _STATEMENT_END_RE.split("\n".join(lines)):
        stmt = stmt.strip()
        if stmt:
            stmt = _CREATE_DATABASE_RE.sub(r"\g<1>" + database, stmt)
            out.append(rename_database(stmt, database))
    return out


def schema_statements(database: str = CANONICAL_DATABASE) -> list[str]:
    """The statements of ``schema.sql`` for ``database``, in order, without comments.

    Raises ``ValueError`` for a database name that is not a plain identifier.
    """
    return split_statements(schema_text(), database)
