"""Grafana dashboards as code: not part of this release.

The warehouse tables they will read (``settlements``, ``alerts``, ``table_hourly``) are
defined in :mod:`pitwatch.warehouse`; the dashboards, their provisioning files under
``infra/grafana/`` and the tests that run every panel's SQL against both ClickHouse
backends come with the dashboards issue.
"""
