"""Grafana dashboards as code (grafana-foundation-sdk), for the ``grafana-clickhouse-datasource``
plugin: the query model (:mod:`~pitwatch.dashboards.query`), the plugin's macro expansion as the
tests run it (:mod:`~pitwatch.dashboards.macros`), the dashboards described as data and built
one way (:mod:`~pitwatch.dashboards.layout`): the surveillance room's, integrity, round lookup.
``pitwatch dashboards export DIR`` writes their JSON (:mod:`~pitwatch.dashboards.export`).
"""
