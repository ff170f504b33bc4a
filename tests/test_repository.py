"""Issue 7 §8: the repository stands on its own: no reference to files outside it (design notes,
``../shared`` paths) and no path of one machine, in any tracked text file."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile("|".join([r"DESIGN\.md", r"\.\./shared", r"(?<![\w.])/work/", r"/root/", r"/home/[a-z]"]))


def test_no_tracked_file_refers_outside_the_repository_or_to_a_machine_path():
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    hits = []
    for name in filter(None, files):
        path = ROOT / name.decode()
        if path == Path(__file__).resolve() or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:4096]:  # binary
            continue
        for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{name.decode()}:{n}: {line.strip()[:120]}")
    assert hits == []
