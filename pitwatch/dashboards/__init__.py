"""Grafana dashboards as code (grafana-foundation-sdk), for the ``grafana-clickhouse-datasource``
plugin: the query model (:mod:`~pitwatch.dashboards.query`), the plugin's macro expansion as the
tests run it (:mod:`~pitwatch.dashboards.macros`) and the dashboards (so far the surveillance
room's, :mod:`~pitwatch.dashboards.surveillance`). ``pitwatch dashboards export DIR`` writes
their JSON.
"""
