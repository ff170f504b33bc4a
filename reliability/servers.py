"""The real servers the reliability run (and the test suite) start as subprocesses.

- :class:`LocalClickHouse`: Debian's ``clickhouse-server`` (18.16) with a private config in a
  work directory, on free loopback ports. It can be stopped and started again on the same
  ports and data (the reliability run stops it for 30 s mid-run).
- :func:`kcat_environment`: an environment in which Debian's ``kcat`` talks to the local Tansu
  broker. Debian's kcat is built against librdkafka 2.0.2, whose ApiVersionRequest Tansu
  refuses; the newer librdkafka bundled in the confluent-kafka wheel works, so a directory
  holding ``librdkafka.so.1`` -> that library is put first on ``LD_LIBRARY_PATH``.

The broker itself is :class:`pitwatch.streams.broker.LocalBroker`. Nothing here imports pytest:
``tests/fixtures`` wraps these in fixtures.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from pitwatch.streams.broker import free_port
from pitwatch.streams.procs import stop_process

SERVER_CANDIDATES = ("clickhouse-server", "/usr/sbin/clickhouse-server", "/usr/bin/clickhouse-server")

_CONFIG = """<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>{dir}/log/server.log</log>
    <errorlog>{dir}/log/server.err.log</errorlog>
    <console>0</console>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <tcp_port>{tcp}</tcp_port>
  <http_port>{http}</http_port>
  <path>{dir}/data/</path>
  <tmp_path>{dir}/tmp/</tmp_path>
  <user_files_path>{dir}/user_files/</user_files_path>
  <format_schema_path>{dir}/format_schemas/</format_schema_path>
  <users_config>{dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <max_concurrent_queries>20</max_concurrent_queries>
  <mlock_executable>false</mlock_executable>
</yandex>
"""

_USERS = """<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors>
    <result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time>
  </interval></default></quotas>
</yandex>
"""


class ServerError(RuntimeError):
    """A server binary is missing, or a server did not start or stop."""


def find_clickhouse_server() -> str | None:
    """Path of the ``clickhouse-server`` binary, or None."""
    for cand in SERVER_CANDIDATES:
        path = shutil.which(cand)
        if path:
            return path
    return None


def _tail(path: Path, n: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return ""


class LocalClickHouse:
    """One ``clickhouse-server`` process with its own config, data and logs under ``workdir``
    (a new temporary directory when None, removed by :meth:`cleanup`).

    Ports are chosen once (free loopback ports) and kept: :meth:`stop` then :meth:`start`
    brings the same server back on the same ports with the same data. ``url(database)`` is
    ``clickhouse://127.0.0.1:PORT/<database>``. Use as a context manager (start, then stop and
    clean up). Raises :class:`ServerError` when the binary is missing or the server does not
    answer within ``start_timeout`` seconds (the tail of its logs in the message).
    """

    def __init__(self, workdir: str | os.PathLike[str] | None = None, *, binary: str | None = None,
                 start_timeout: float = 60.0) -> None:
        self._own_dir = workdir is None
        self.workdir = Path(workdir) if workdir is not None else Path(tempfile.mkdtemp(prefix="pitwatch-ch-"))
        self.binary = binary or find_clickhouse_server()
        self.start_timeout = start_timeout
        self.tcp_port = free_port()
        self.http_port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self._out: Any = None
        self.starts = 0

    def url(self, database: str = "pitwatch") -> str:
        """Warehouse URL of ``database`` on this server."""
        return f"clickhouse://127.0.0.1:{self.tcp_port}/{database}"

    def _prepare(self) -> Path:
        d = self.workdir
        for sub in ("log", "data", "tmp", "user_files", "format_schemas"):
            (d / sub).mkdir(parents=True, exist_ok=True)
        config = d / "config.xml"
        config.write_text(_CONFIG.format(dir=d, tcp=self.tcp_port, http=self.http_port))
        (d / "users.xml").write_text(_USERS)
        return config

    def start(self) -> LocalClickHouse:
        """Start the server (no-op if running) and wait until it answers ``SELECT 1``."""
        if self.process is not None and self.process.poll() is None:
            return self
        if self.binary is None:
            raise ServerError("clickhouse-server not installed (apt-get install clickhouse-server)")
        config = self._prepare()
        self._out = open(self.workdir / "log" / "stdout.log", "ab")
        self.process = subprocess.Popen(
            [self.binary, f"--config-file={config}"], cwd=self.workdir,
            stdout=self._out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.starts += 1
        self.wait_ready()
        return self

    def wait_ready(self) -> None:
        """Block until the server answers; raise :class:`ServerError` if it exits or times out."""
        from clickhouse_driver import Client

        # the driver logs a warning for every refused connection while the server starts
        logging.getLogger("clickhouse_driver").setLevel(logging.ERROR)
        client = Client("127.0.0.1", port=self.tcp_port, connect_timeout=1, send_receive_timeout=10)
        deadline = time.monotonic() + self.start_timeout
        try:
            while True:
                proc = self.process
                if proc is None or proc.poll() is not None:
                    raise ServerError(f"clickhouse-server exited with {proc and proc.returncode}:\n{self.log_tail()}")
                try:
                    client.execute("SELECT 1")
                    return
                except Exception:
                    if time.monotonic() > deadline:
                        raise ServerError(f"clickhouse-server did not answer on 127.0.0.1:{self.tcp_port} "
                                          f"within {self.start_timeout:.0f} s:\n{self.log_tail()}") from None
                    time.sleep(0.1)
        finally:
            client.disconnect()

    def log_tail(self, n: int = 20) -> str:
        """The last lines of the server's stdout and error logs."""
        return f"{_tail(self.workdir / 'log' / 'stdout.log', n)}\n{_tail(self.workdir / 'log' / 'server.err.log', n)}"

    def stop(self, timeout: float = 30.0) -> None:
        """Stop the server (SIGTERM, SIGKILL after ``timeout`` s); data and ports are kept."""
        proc, self.process = self.process, None
        if proc is not None:
            stop_process(proc, timeout)
        if self._out is not None:
            self._out.close()
            self._out = None

    def cleanup(self) -> None:
        """Stop, and remove the work directory if this object created it."""
        self.stop()
        if self._own_dir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> LocalClickHouse:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.cleanup()


def bundled_librdkafka() -> Path | None:
    """The librdkafka shared object inside the confluent-kafka wheel, or None."""
    import confluent_kafka

    libs = Path(confluent_kafka.__file__).resolve().parent.parent / "confluent_kafka.libs"
    found = sorted(libs.glob("librdkafka*.so*")) if libs.is_dir() else []
    return found[0] if found else None


def kcat_environment(libdir: str | os.PathLike[str]) -> dict[str, str]:
    """A copy of ``os.environ`` in which ``kcat`` works against Tansu (module docstring);
    ``libdir`` receives the ``librdkafka.so.1`` symlink. Raises :class:`ServerError` when
    kcat or the bundled library is missing."""
    if shutil.which("kcat") is None:
        raise ServerError("kcat is not installed (apt-get install kcat)")
    lib = bundled_librdkafka()
    if lib is None:
        raise ServerError("the confluent-kafka wheel has no bundled librdkafka")
    d = Path(libdir)
    d.mkdir(parents=True, exist_ok=True)
    link = d / "librdkafka.so.1"
    if not link.exists():
        link.symlink_to(lib)
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (str(d), env.get("LD_LIBRARY_PATH", "")) if p)
    return env
