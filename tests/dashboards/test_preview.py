"""`pitwatch dashboards preview`: every panel of every dashboard drawn from the warehouse into one
static page, opened in headless chromium (Debian's package): every panel drew and the page
recorded no script error."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest
from pitwatch.dashboards.export import DASHBOARDS
from pitwatch.dashboards.preview import write_preview
from pitwatch.sim.base import simulate
from pitwatch.streams.processor import BatchProcessor, InMessage
from pitwatch.warehouse import open_warehouse

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def open_in_chromium(path) -> str:
    """The page's DOM after its scripts ran (headless chromium, 15 s of virtual time)."""
    if CHROMIUM is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is missing (Debian package chromium; `make` installs it as root)")
        pytest.skip("chromium is not installed")
    res = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=15000",
                          "--dump-dom", f"file://{path}"], capture_output=True, text=True, timeout=180)
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout


def test_every_panel_draws_in_a_browser_without_errors(chdb_url, tmp_path):
    events, _ = simulate(4, 1.0, 5)
    lines = [json.dumps(e).encode() for e in events]
    rows = BatchProcessor({}.get).process(
        [InMessage(json.loads(ln)["table_id"].encode(), ln, 0, i) for i, ln in enumerate(lines)]).rows
    with open_warehouse(chdb_url) as wh:
        wh.ensure_schema()
        for table, batch in rows.items():
            wh.insert_new(table, batch)
        page = write_preview(wh, tmp_path / "preview")
    dom = open_in_chromium(page)
    panels = sum(len(b.panels) for b in DASHBOARDS.values())
    assert len(re.findall(r'data-drawn="1"', dom)) == panels
    assert re.search(r'<pre id="errors"></pre>', dom), re.search(r'<pre id="errors">[^<]*', dom)
    assert dom.count("main-svg") >= panels  # plotly drew an svg per panel
    assert "Payout discrepancies by dealer" in dom and "pitwatch · round lookup" in dom
