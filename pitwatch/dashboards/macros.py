"""What Grafana and the ClickHouse plugin do to a panel's SQL before ClickHouse sees it, so that
the tests can run every panel's query as it would run.

1. Grafana replaces template variables: ``${name:singlequote}`` by the selected values, each in
   single quotes, joined by commas (the "All" value of a variable with ``allValue`` by that
   value, unquoted); ``${name}`` and ``$name`` by the values joined by commas.
2. The plugin (``pkg/macros/macros.go`` of grafana/clickhouse-datasource) expands its macros:
   ``$__fromTime`` / ``$__toTime`` -> ``toDateTime(<unix seconds>)``; ``$__timeFilter(col)`` ->
   ``col >= toDateTime(<from>) AND col <= toDateTime(<to>)``; ``$__dateFilter(col)`` ->
   ``col >= toDate('<from date>') AND col <= toDate('<to date>')`` (UTC dates);
   ``$__interval_s`` -> the panel's interval in whole seconds, at least 1.

Only these macros are used by pitwatch's panels: their expansions run on ClickHouse 18.16 and on
current releases (``$__timeInterval`` would expand to ``toStartOfInterval``, which 18.16 lacks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

_VAR = re.compile(r"\$\{(\w+)(?::(\w+))?\}|\$(?!__)(\w+)")
_MACRO = re.compile(r"\$__(timeFilter|dateFilter)\(([^()]*)\)|\$__(fromTime|toTime|interval_s)\b")
ALL = "$__all"


@dataclass
class Variable:
    """A template variable's selection: ``values`` (``[ALL]`` for All) and its ``all_value``."""

    values: list[str]
    all_value: str | None = None


@dataclass
class Context:
    """The dashboard range (UTC), the panel interval (seconds) and the template variables."""

    start: datetime
    end: datetime
    interval_s: float = 60.0
    variables: dict[str, Variable] = field(default_factory=dict)


def _variable(ctx: Context, name: str, fmt: str | None) -> str:
    var = ctx.variables.get(name)
    if var is None:
        raise KeyError(f"template variable ${name} is not defined")
    if var.values == [ALL] and var.all_value is not None:
        return var.all_value
    if fmt == "singlequote":
        return ",".join("'" + v.replace("'", "\\'") + "'" for v in var.values)
    if fmt not in (None, "raw", "csv"):
        raise ValueError(f"variable format {fmt!r} is not one pitwatch uses")
    return ",".join(var.values)


def expand(sql: str, ctx: Context) -> str:
    """``sql`` with the template variables (step 1) and then the plugin's macros (step 2)
    expanded. Raises ``KeyError`` for an undefined variable, ``ValueError`` for a macro or
    variable format outside the documented set."""
    sql = _VAR.sub(lambda m: _variable(ctx, m.group(1) or m.group(3), m.group(2)), sql)
    frm, to = int(ctx.start.timestamp()), int(ctx.end.timestamp())

    def macro(m: re.Match[str]) -> str:
        name, arg = m.group(1) or m.group(3), (m.group(2) or "").strip()
        if name == "timeFilter":
            return f"{arg} >= toDateTime({frm}) AND {arg} <= toDateTime({to})"
        if name == "dateFilter":
            d0, d1 = ctx.start.strftime("%Y-%m-%d"), ctx.end.strftime("%Y-%m-%d")
            return f"{arg} >= toDate('{d0}') AND {arg} <= toDate('{d1}')"
        if name == "fromTime":
            return f"toDateTime({frm})"
        if name == "toTime":
            return f"toDateTime({to})"
        return str(int(max(ctx.interval_s, 1)))

    out = _MACRO.sub(macro, sql)
    if "$__" in out:
        raise ValueError(f"a macro pitwatch does not expand is left in: {out[out.index('$__'):][:40]}")
    return out
