"""Shared pytest configuration. Server fixtures live in tests/fixtures/ (one module each)."""

import os

# A CLI test gives its terminal width in COLUMNS (CliRunner's env). A width already in the
# environment when the CLI's consoles are built (a shell's, or the 80 that pytest-xdist's workers
# set) would be fixed in them for the whole run and win over the test's.
for _var in ("COLUMNS", "LINES"):
    os.environ.pop(_var, None)

pytest_plugins = [
    "tests.fixtures.broker",
    "tests.fixtures.clickhouse",
    "tests.fixtures.processes",
]

LONGEST_FIRST = (
    "tests/e2e/test_demo.py", "tests/e2e/test_crash_points.py", "tests/e2e/test_pipeline.py",
    "tests/test_verdict_equivalence.py", "tests/streams/test_broker_app.py", "tests/e2e/test_reliability_smoke.py",
    "tests/test_soft_play_whipsaw.py", "tests/reports/test_monthly.py", "tests/rules/test_poker_phh.py",
    "tests/e2e/test_poker_pipeline.py", "tests/test_chip_dumping.py", "tests/e2e/test_chain_pipeline.py",
    "tests/e2e/test_watch_pipeline.py", "tests/lifecycle/test_bulk_close.py",
)
"""The test files that take longest, longest first (``make test`` prints the slowest tests; BENCHMARKS.md,
session 14). They are run first, so that no worker is left alone with one of them at the end of the run
(pytest-xdist's ``--dist loadfile`` hands the files out in the order collected). Only the order changes."""


def pytest_collection_modifyitems(config, items):
    """Put the files of :data:`LONGEST_FIRST` first, in its order; every other test keeps its place."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
