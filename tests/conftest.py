"""Shared pytest configuration. Server fixtures live in tests/fixtures/ (one module each)."""

pytest_plugins = [
    "tests.fixtures.broker",
    "tests.fixtures.clickhouse",
    "tests.fixtures.processes",
]
