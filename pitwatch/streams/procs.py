"""Stopping a child process: SIGTERM, then SIGKILL after a timeout (no other dependency, so that
the local broker and the worker supervisor share it without importing each other)."""

from __future__ import annotations

import signal
import subprocess
from typing import Any


def stop_process(proc: Any, timeout: float) -> None:
    """Stop ``proc`` (a ``subprocess.Popen``): SIGTERM, SIGKILL if it has not exited after
    ``timeout`` seconds, then wait at most 10 s more. No-op if it already exited."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
