"""The compiled fold (pitwatch.native): used only when its build matches the sources, and judging
exactly as the interpreted source does.

The second implementation here is the interpreted source itself (``PITWATCH_NATIVE=0``): the
same evening, with every fault kind and lines that are not events, goes through the live
pipeline's batch processor and through ``pitwatch replay file`` in two processes, one compiled and
one interpreted, and every warehouse row, table state and replay record must be identical.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pitwatch import native
from pitwatch.sim.base import FAULT_KINDS, simulate

ROOT = Path(__file__).resolve().parent.parent

needs_build = pytest.mark.skipif(
    native.check_build() is not None and os.environ.get("CI") != "true",
    reason=f"no usable compiled build: {native.check_build()} (make native)")

RUN = """
import json, sys
from datetime import datetime, timezone
from pitwatch import native
from pitwatch.streams.processor import BatchProcessor, InMessage

lines = open(sys.argv[1], "rb").read().splitlines()
proc = BatchProcessor({}.get, clock=lambda: datetime(2026, 11, 22, 6, tzinfo=timezone.utc))
def key(ln):
    try:
        return json.loads(ln)["table_id"].encode()
    except (ValueError, KeyError):
        return b"?"
msgs = [InMessage(key(ln), ln, 0, i) for i, ln in enumerate(lines)]
rows, states = {}, {}
for start in range(0, len(msgs), 700):
    res = proc.process(msgs[start:start + 700])
    for k, v in res.rows.items():
        rows.setdefault(k, []).extend(v)
    states.update({t: s.decode() for t, s in res.states.items()})
print(json.dumps({"compiled": native.status()[0], "rows": rows, "states": states}, default=str, sort_keys=True))
"""


def _evening(path: Path) -> Path:
    events, _ = simulate(8, 1.0, 23, fault_rates={k: 0.04 for k in FAULT_KINDS})
    lines = [json.dumps(e) for e in events]
    lines[50:50] = ['{"not": "an event"}', "garbage {", lines[60]]  # invalid, and a duplicate
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(args: list[str], compiled: bool) -> str:
    env = {**os.environ, native.ENV_SWITCH: "1" if compiled else "0"}
    res = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert res.returncode in (0, 1, 2), res.stderr[-3000:]
    return res.stdout


@needs_build
def test_the_compiled_fold_is_in_use():
    """``make`` builds the fold and a process started after it runs compiled (in CI a missing
    or stale build fails here)."""
    assert native.check_build() is None
    out = _run(["-m", "pitwatch", "native", "status"], compiled=True)
    assert out.startswith("compiled: compiled by mypyc")


@needs_build
def test_compiled_and_interpreted_folds_give_identical_rows_states_and_replays(tmp_path):
    """Issue 7's "the same events give the same verdicts": compiled and interpreted code are one
    source, and this checks that mypyc's build of it judges identically, to the byte."""
    path = _evening(tmp_path / "evening.jsonl")
    live = {c: json.loads(_run(["-c", RUN, str(path)], compiled=c)) for c in (True, False)}
    assert live[True].pop("compiled") is True and live[False].pop("compiled") is False
    assert live[True]["rows"]["settlements"] and live[True]["rows"]["alerts"] and live[True]["rows"]["rejected"]
    assert live[True] == live[False]
    replay = {c: _run(["-m", "pitwatch", "replay", "file", str(path), "--format", "json"], compiled=c)
              for c in (True, False)}
    assert replay[True].count("\n") > 100 and replay[True] == replay[False]


@needs_build
def test_a_build_whose_sources_changed_is_not_used(tmp_path):
    """An edited source always runs: a build that no longer matches every fingerprinted source
    (or has no manifest, or was made by another interpreter) is refused with the reason."""
    build = tmp_path / "native"
    shutil.copytree(native.BUILD_DIR, build)
    assert native.check_build(build) is None
    manifest = json.loads((build / native.MANIFEST).read_text())
    manifest["sources"]["pitwatch/rules/engine.py"] = "0" * 64
    (build / native.MANIFEST).write_text(json.dumps(manifest))
    assert "sources changed" in str(native.check_build(build))
    manifest["sources"] = native.fingerprint()
    manifest["platform"]["python"] = "3.0.0"
    (build / native.MANIFEST).write_text(json.dumps(manifest))
    assert "built for" in str(native.check_build(build))
    (build / native.MANIFEST).unlink()
    assert "no compiled build" in str(native.check_build(build))


def test_the_fingerprint_covers_every_compiled_module_and_what_it_imports():
    """Every compiled module's source, and every pitwatch module it imports, is fingerprinted:
    an edit to any of them makes the build stale."""
    covered = set(native.fingerprint())
    for name in native.COMPILED_MODULES:
        rel = native.module_path(name) + ".py"
        assert rel in covered
        for line in (ROOT / rel).read_text().splitlines():
            if line.startswith("from pitwatch."):
                mod = line.split()[1].replace(".", "/")
                assert f"{mod}.py" in covered or f"{mod}/__init__.py" in covered, (rel, line)


def test_pitwatch_native_0_runs_the_source():
    out = subprocess.run([sys.executable, "-m", "pitwatch", "native", "status"], capture_output=True, text=True,
                         env={**os.environ, native.ENV_SWITCH: "0"}, cwd=ROOT, timeout=120)
    assert out.returncode == 1 and out.stdout.startswith("interpreted: PITWATCH_NATIVE=0")
