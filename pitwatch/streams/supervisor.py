"""Worker processes: run one in this process, or start and stop one as a subprocess.

:func:`run_worker` is what ``pitwatch worker`` (:mod:`pitwatch.cli`, the one entry point)
runs. :func:`start_worker` and :func:`stop_worker` launch and stop that command for the demo,
the benchmarks and the end-to-end tests; its progress is in its status file
(:func:`pitwatch.streams.status.read_status`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from pitwatch.streams.config import KafkaSettings
from pitwatch.streams.faust_app import make_app
from pitwatch.streams.offsets import existing_partitions
from pitwatch.streams.procs import stop_process
from pitwatch.streams.topics import TOPIC_EVENTS

log = logging.getLogger("pitwatch.streams")


def start_worker(bootstrap: str, warehouse_url: str, status_path: str | os.PathLike[str],
                 log_path: str | os.PathLike[str], *, args: Sequence[str] = (),
                 env: Mapping[str, str] | None = None) -> Any:
    """Start ``pitwatch worker`` in a subprocess on ``bootstrap`` with ``warehouse_url``,
    writing its status file to ``status_path`` and appending its output to ``log_path``.

    ``args``: further ``pitwatch worker`` options (e.g. ``["--partitions", "4"]``); ``env``:
    further environment variables (e.g. the test hook ``PITWATCH_CRASH_AT``, see
    :mod:`pitwatch.streams.crashpoints`). Returns the ``subprocess.Popen``; stop it with
    :func:`stop_worker`.
    """
    import subprocess

    full_env = dict(os.environ, **(env or {}))
    full_env.update(PITWATCH_KAFKA_BOOTSTRAP=bootstrap, PITWATCH_WAREHOUSE=warehouse_url)
    with open(log_path, "ab") as out:  # the child keeps its own descriptor
        return subprocess.Popen(
            [sys.executable, "-m", "pitwatch", "worker", "--status-file", str(status_path), *args],
            env=full_env, stdout=out, stderr=subprocess.STDOUT)


def stop_worker(proc: Any, timeout: float = 30.0) -> None:
    """Stop a worker ``subprocess.Popen``: SIGTERM (it finishes its batch, commits, flushes),
    SIGKILL if it has not exited after ``timeout`` seconds. No-op if it already exited."""
    stop_process(proc, timeout)


def _has_uvloop() -> bool:
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return False
    return True


def run_worker(settings: KafkaSettings, *, loglevel: str = "warning", event_loop: str = "auto",
               **app_kwargs: Any) -> int:
    """Run one Faust worker in this process until SIGTERM/SIGINT; return its exit code.

    ``event_loop``: "uvloop", "asyncio", or "auto" (uvloop when installed: Faust's per-message
    overhead is mostly event-loop iterations, and uvloop makes them cheaper).

    ``app_kwargs`` go to :func:`pitwatch.streams.faust_app.make_app`; ``partitions`` is
    replaced by the input topic's partition count when the topic exists. Blocks; installs
    signal handlers on the event loop (SIGTERM stops the worker cleanly: the current batch
    finishes, acked offsets are committed, the producer is flushed, the warehouse closed).
    Exits the process with :data:`pitwatch.streams.runtime.EXIT_FATAL` on a pipeline failure.
    Raises ``RuntimeError`` if the cluster cannot be reached.
    """
    import faust

    if event_loop == "uvloop" or (event_loop == "auto" and _has_uvloop()):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
        asyncio.set_event_loop(asyncio.new_event_loop())
    else:
        try:
            asyncio.get_event_loop()
        except RuntimeError:
            asyncio.set_event_loop(asyncio.new_event_loop())
    found = existing_partitions(settings)
    if found is not None and found != app_kwargs.get("partitions", found):
        log.warning("%s has %d partitions: using %d, not %d", TOPIC_EVENTS, found, found,
                    app_kwargs["partitions"])
    if found is not None:
        app_kwargs["partitions"] = found
    app, _runtime = make_app(settings, **app_kwargs)
    # stdout only gets Faust's start-up spinner (terminal escape codes): send it nowhere
    # (left open: the spinner writes to it again at interpreter exit).
    devnull = open(os.devnull, "w")
    worker = faust.Worker(app, loglevel=loglevel, quiet=True, redirect_stdouts=False,
                          override_logging=True, stdout=devnull)
    try:
        worker.execute_from_commandline()
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else 1
    return 0  # pragma: no cover
