"""The reliability harness itself (``python -m reliability``, RELIABILITY.md), on a small evening:
scenario a with a few hundred malformed messages of every kind, and scenario g (bad round digests:
a time without a zone, a poison digest a detector raises on), through the real broker, a worker and
the session's ClickHouse 18.16 server, compared with a clean run. Every bad message must be
accounted for as its kind says, nothing lost, nothing duplicated, no alert row changed, no worker
restart, and the results written as JSON and Markdown."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from reliability.malformed import DEFAULT_KINDS

pytestmark = [pytest.mark.kafka, pytest.mark.clickhouse, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def test_scenarios_a_and_g_account_for_every_bad_message(clickhouse_server, tmp_path):
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "reliability", "--scenario", "a,g", "--tables", "3", "--hours", "0.4",
         "--malformed", "300", "--background", "100", "--seconds", "0", "--partitions", "3", "--timeout", "120",
         "--clickhouse", clickhouse_server.rsplit("/", 1)[0], "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    result = json.loads((out / "results.json").read_text())
    [a, g] = result["scenarios"]
    assert result["clean_vs_replay"]["alert rows"] == [0, 0]
    assert a["ok"] and a["error"] is None and a["alerts_changed"] == 0
    assert a["bad"] == 300 and set(a["kinds"]) == set(DEFAULT_KINDS)
    assert a["rejected_sent"] + a["alerts_sent"] == 300
    assert a["rejected_accounted"] == a["rejected_sent"] and a["alerts_accounted"] == a["alerts_sent"]
    assert a["lost"] == a["duplicated"] == a["unexpected"] == 0 and a["restarts"] == 0
    # every rejected row is a bad message of a rejected kind, or the bytes of a duplicate_event
    # copy (not applied; the simulator's own duplicated events are in the clean run's count)
    dup_copies = a["kinds"]["duplicate_event"]["sent"]
    assert dup_copies > 0
    assert a["tables"]["rejected"]["stored"] == a["tables"]["rejected"]["expected"] >= a["rejected_sent"] + dup_copies
    assert a["tables"]["settlements"]["expected"] > 100  # the evening was judged, not just rejected
    md = (out / "results.md").read_text()
    assert "| a: malformed messages interleaved |" in md and "`huge_string`" in md
    # g: the evening's one casino (gal-coruna) got a zone-less digest and a poison digest (money out of
    # range), both rejected with their bytes; the worker never stopped; the rest as in the clean run
    assert g["ok"] and g["error"] is None and g["restarts"] == 0 and g["alerts_changed"] == 0
    assert {k: (v["sent"], v["accounted"]) for k, v in g["digests"].items()} == {
        "digest_no_zone": (1, 1), "poison_digest": (1, 1)}
    assert g["tables"]["parked"]["stored"] == g["tables"]["parked"]["expected"] == 0
    assert g["lost"] == g["duplicated"] == g["unexpected"] == 0
    assert "| g: bad round digests (no zone, poison) |" in md
    assert not (out / "runs").exists()  # removed when every scenario is ok
