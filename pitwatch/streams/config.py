"""Connection settings for the Kafka side and the warehouse, from CLI flags or the environment.

Environment variables (CLI flags override them; unset means "use the default")::

    PITWATCH_KAFKA_BOOTSTRAP          bootstrap servers, "host:port[,host:port...]" (default 127.0.0.1:9092)
    PITWATCH_KAFKA_SECURITY_PROTOCOL  PLAINTEXT | SSL | SASL_PLAINTEXT | SASL_SSL (default PLAINTEXT)
    PITWATCH_KAFKA_SASL_MECHANISM     PLAIN | SCRAM-SHA-256 | SCRAM-SHA-512
    PITWATCH_KAFKA_SASL_USERNAME
    PITWATCH_KAFKA_SASL_PASSWORD
    PITWATCH_KAFKA_SSL_CA_LOCATION    path of a PEM CA bundle for TLS
    PITWATCH_WAREHOUSE                warehouse URL (default chdb://./pitwatch-data/warehouse)
    PITWATCH_STATUS_PATH              optional JSON status file the worker rewrites after every batch

The same settings object feeds both Kafka clients pitwatch uses: confluent-kafka
(:meth:`KafkaSettings.confluent_config`) and Faust/aiokafka (:meth:`KafkaSettings.faust_broker_url`,
:meth:`KafkaSettings.faust_credentials`).
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from pitwatch.warehouse import DEFAULT_URL

DEFAULT_BOOTSTRAP = "127.0.0.1:9092"
DEFAULT_WAREHOUSE = DEFAULT_URL
ENV_PREFIX = "PITWATCH_KAFKA_"

_SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
_SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")


@dataclass(frozen=True)
class KafkaSettings:
    """Kafka connection settings plus where the worker writes its results.

    ``bootstrap`` is a comma-separated "host:port" list. ``security_protocol`` is one of
    PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL; the SASL fields are required for the SASL_*
    protocols. ``extra`` holds further librdkafka properties for confluent-kafka clients
    only (e.g. ``{"linger.ms": "20"}``). ``status_path`` is an optional JSON file the worker
    rewrites after every batch (see :mod:`pitwatch.streams.app`).

    Raises ``ValueError`` (from :meth:`validate`) for an unknown protocol or mechanism or a
    SASL protocol without username/password.
    """

    bootstrap: str = DEFAULT_BOOTSTRAP
    security_protocol: str = "PLAINTEXT"
    sasl_mechanism: str | None = None
    sasl_username: str | None = None
    sasl_password: str | None = field(default=None, repr=False)
    ssl_ca_location: str | None = None
    warehouse_url: str = DEFAULT_WAREHOUSE
    status_path: str | None = None
    extra: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> KafkaSettings:
        """Settings from ``env`` (default ``os.environ``), then non-None ``overrides`` (CLI flags) on top."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for name in ("bootstrap", "security_protocol", "sasl_mechanism", "sasl_username",
                     "sasl_password", "ssl_ca_location"):
            raw = env.get(ENV_PREFIX + name.upper())
            if raw:
                values[name] = raw
        if env.get("PITWATCH_WAREHOUSE"):
            values["warehouse_url"] = env["PITWATCH_WAREHOUSE"]
        if env.get("PITWATCH_STATUS_PATH"):
            values["status_path"] = env["PITWATCH_STATUS_PATH"]
        known = {f.name for f in fields(cls)}
        for key, value in overrides.items():
            if key not in known:
                raise TypeError(f"unknown setting {key!r}")
            if value is not None:
                values[key] = value
        settings = cls(**values)
        settings.validate()
        return settings

    def with_(self, **changes: Any) -> KafkaSettings:
        """A copy with ``changes`` applied (dataclasses.replace)."""
        return replace(self, **changes)

    def validate(self) -> None:
        """Raise ``ValueError`` if the settings are inconsistent (see class docstring)."""
        proto = self.security_protocol.upper()
        if proto not in _SECURITY_PROTOCOLS:
            raise ValueError(f"security protocol {self.security_protocol!r} not in {_SECURITY_PROTOCOLS}")
        if proto.startswith("SASL"):
            if (self.sasl_mechanism or "PLAIN").upper() not in _SASL_MECHANISMS:
                raise ValueError(f"SASL mechanism {self.sasl_mechanism!r} not in {_SASL_MECHANISMS}")
            if not self.sasl_username or self.sasl_password is None:
                raise ValueError(f"{proto} needs a SASL username and password")
        if not self.bootstrap.strip():
            raise ValueError("empty bootstrap servers")

    @property
    def bootstrap_list(self) -> list[str]:
        """The bootstrap servers as a list of "host:port" strings."""
        return [s.strip() for s in self.bootstrap.split(",") if s.strip()]

    def confluent_config(self, **more: Any) -> dict[str, Any]:
        """librdkafka configuration for confluent-kafka Producer/Consumer/AdminClient.

        ``more`` (librdkafka property names, e.g. ``**{"group.id": "g"}``) is applied last.
        """
        conf: dict[str, Any] = {"bootstrap.servers": self.bootstrap,
                                "security.protocol": self.security_protocol.upper()}
        if self.security_protocol.upper().startswith("SASL"):
            conf["sasl.mechanism"] = (self.sasl_mechanism or "PLAIN").upper()
            conf["sasl.username"] = self.sasl_username
            conf["sasl.password"] = self.sasl_password
        if self.ssl_ca_location:
            conf["ssl.ca.location"] = self.ssl_ca_location
        conf.update(self.extra)
        conf.update(more)
        return conf

    def faust_broker_url(self) -> str:
        """Faust broker URL: ``"kafka://h1:p1;h2:p2"``."""
        return "kafka://" + ";".join(self.bootstrap_list)

    def faust_credentials(self) -> Any:
        """Faust ``broker_credentials`` (None for PLAINTEXT, SSLCredentials or SASLCredentials)."""
        import faust  # local import: config is imported by light clients (producer CLI)

        proto = self.security_protocol.upper()
        context = None
        if proto in ("SSL", "SASL_SSL"):
            context = ssl.create_default_context(cafile=self.ssl_ca_location)
        if proto == "SSL":
            return faust.SSLCredentials(context)
        if proto.startswith("SASL"):
            return faust.SASLCredentials(
                username=self.sasl_username,
                password=self.sasl_password,
                ssl_context=context,
                mechanism=(self.sasl_mechanism or "PLAIN").upper(),
            )
        return None
