"""ClickHouse targets for grafana-foundation-sdk panels: the query model of the
``grafana-clickhouse-datasource`` plugin (raw SQL), which the SDK does not ship.

A target's JSON, as the plugin reads it::

    {"refId": "A", "datasource": {"type": "grafana-clickhouse-datasource", "uid": "pitwatch-clickhouse"},
     "editorType": "sql", "queryType": "table", "format": 1, "rawSql": "SELECT ..."}

``queryType`` is ``table`` or ``timeSeries`` (the plugin's ``QueryType``), ``format`` the matching
Grafana SQL format option (1 table, 0 time series). The class is registered with the SDK's
runtime, so ``Dashboard.from_json`` reads such targets back as :class:`ClickHouseQuery`.
"""

from __future__ import annotations

from typing import Any, Self

from grafana_foundation_sdk.cog import builder as cogbuilder
from grafana_foundation_sdk.cog import runtime as cogruntime
from grafana_foundation_sdk.cog import variants as cogvariants

PLUGIN = "grafana-clickhouse-datasource"
DATASOURCE_UID = "pitwatch-clickhouse"
"""The uid of the provisioned ClickHouse datasource (``infra/grafana``) every panel queries."""
FORMATS = {"table": 1, "timeSeries": 0}


class ClickHouseQuery(cogvariants.Dataquery):
    """One raw-SQL target of the ClickHouse plugin (module docstring)."""

    def __init__(self, raw_sql: str = "", query_type: str = "table", ref_id: str = "A") -> None:
        if query_type not in FORMATS:
            raise ValueError(f"query type {query_type!r} is not one of {', '.join(FORMATS)}")
        self.raw_sql = raw_sql
        self.query_type = query_type
        self.ref_id = ref_id

    def to_json(self) -> dict[str, object]:
        return {"refId": self.ref_id, "datasource": {"type": PLUGIN, "uid": DATASOURCE_UID}, "editorType": "sql",
                "queryType": self.query_type, "format": FORMATS[self.query_type], "rawSql": self.raw_sql}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(str(data.get("rawSql", "")), str(data.get("queryType", "table")), str(data.get("refId", "A")))


class SQL(cogbuilder.Builder[cogvariants.Dataquery]):
    """Builder of a :class:`ClickHouseQuery` for ``panel.with_target(...)``."""

    def __init__(self, raw_sql: str, query_type: str = "table", ref_id: str = "A") -> None:
        self._query = ClickHouseQuery(raw_sql, query_type, ref_id)

    def build(self) -> ClickHouseQuery:
        return self._query


cogruntime.Runtime().register_dataquery_variant(
    cogruntime.DataqueryConfig(identifier=PLUGIN, from_json_hook=ClickHouseQuery.from_json))
