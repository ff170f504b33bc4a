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
