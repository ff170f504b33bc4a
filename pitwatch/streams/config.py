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
    PITWATCH_KAFKA_EXTRA              optional JSON object of further librdkafka properties
    PITWATCH_KAFKA_IDEMPOTENCE        idempotent confluent-kafka producers (default true)
    PITWATCH_KAFKA_FAUST_IDEMPOTENCE  idempotent Faust (aiokafka) producer (default false: Tansu
                                      refuses aiokafka's InitProducerId; true against Apache Kafka)

Empty variables count as unset. Loaded by pydantic-settings (:class:`KafkaSettings`).

The same settings object feeds both Kafka clients pitwatch uses: confluent-kafka
(:meth:`KafkaSettings.confluent_config`) and Faust/aiokafka (:meth:`KafkaSettings.faust_broker_url`,
:meth:`KafkaSettings.faust_credentials`).
"""

from __future__ import annotations

import ssl
from typing import Any

from pitwatch.warehouse import DEFAULT_URL
from pydantic import Field, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_BOOTSTRAP = "127.0.0.1:9092"
DEFAULT_WAREHOUSE = DEFAULT_URL
ENV_PREFIX = "PITWATCH_KAFKA_"

_SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
_SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")


class KafkaSettings(BaseSettings):
    """Kafka connection settings plus where the worker writes its results (pydantic-settings).

    Read from the environment (module docstring) when constructed; keyword arguments win over
    it. ``bootstrap`` is a comma-separated "host:port" list. ``security_protocol`` is one of
    PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL; the SASL fields are required for the SASL_*
    protocols. ``extra`` holds further librdkafka properties for confluent-kafka clients
    only (e.g. ``{"linger.ms": "20"}``; ``PITWATCH_KAFKA_EXTRA`` as a JSON object).
    ``idempotence``: every confluent-kafka producer (``pitwatch produce``, the worker's output
    producer, alert actions, quarantine release) runs with ``enable.idempotence`` (and
    ``acks=all``): a retried produce request is not written twice. Works on Apache Kafka and on
    Tansu 0.6.0 (librdkafka asks InitProducerId v4 and gets a producer id).
    ``faust_idempotence``: the same for Faust's own aiokafka producer (changelogs, and outputs
    with ``output="faust"``); off by default because aiokafka 0.14 asks InitProducerId v0, with no
    producer id or epoch fields, and Tansu 0.6.0 answers it UNKNOWN_SERVER_ERROR (the worker's
    producer cannot start: tests/streams/test_idempotence.py). Turn it on against Apache Kafka.
    ``status_path`` is an optional JSON file the worker rewrites after every batch (see
    :mod:`pitwatch.streams.status`); ``metrics_address`` an optional ``HOST:PORT`` where it
    serves the same counters to Prometheus (:mod:`pitwatch.streams.metrics`). Immutable.

    Raises ``ValueError`` (a pydantic ``ValidationError``; :meth:`from_env` turns it into a
    plain ``ValueError`` with just the messages) for an unknown protocol or mechanism, a SASL
    protocol without username/password, empty bootstrap servers or an unknown setting.
    Inputs (passwords) are never echoed in the errors.
    """

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_ignore_empty=True, extra="forbid", frozen=True,
        validate_by_name=True, validate_by_alias=True, hide_input_in_errors=True)

    bootstrap: str = DEFAULT_BOOTSTRAP
    security_protocol: str = "PLAINTEXT"
    sasl_mechanism: str | None = None
    sasl_username: str | None = None
    sasl_password: str | None = Field(default=None, repr=False)
    ssl_ca_location: str | None = None
    # not under the PITWATCH_KAFKA_ prefix: their own variables, named by alias
    warehouse_url: str = Field(default=DEFAULT_WAREHOUSE, validation_alias="PITWATCH_WAREHOUSE")
    status_path: str | None = Field(default=None, validation_alias="PITWATCH_STATUS_PATH")
    metrics_address: str | None = Field(default=None, validation_alias="PITWATCH_METRICS_ADDRESS")
    extra: dict[str, str] = Field(default_factory=dict)
    idempotence: bool = True
    faust_idempotence: bool = False

    @classmethod
    def from_env(cls, **overrides: Any) -> KafkaSettings:
        """Settings from the environment with the non-None ``overrides`` (CLI flags) on top.

        Raises ``TypeError`` for an override that is not a setting, ``ValueError`` (one line
        per problem, no input values) for inconsistent settings.
        """
        unknown = sorted(set(overrides) - set(cls.model_fields))
        if unknown:
            raise TypeError(f"unknown setting {unknown[0]!r}")
        try:
            return cls(**{k: v for k, v in overrides.items() if v is not None})
        except ValidationError as exc:
            raise ValueError(_messages(exc)) from None

    @model_validator(mode="after")
    def _consistent(self) -> KafkaSettings:
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
        if self.metrics_address is not None:
            parse_address(self.metrics_address)
        return self

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

    def producer_config(self, **more: Any) -> dict[str, Any]:
        """:meth:`confluent_config` for a producer: with ``enable.idempotence`` set from
        :attr:`idempotence` and ``acks=all``, then ``more`` (which wins)."""
        return self.confluent_config(**{"enable.idempotence": self.idempotence, "acks": "all", **more})

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


def parse_address(address: str) -> tuple[str, int]:
    """``"HOST:PORT"`` -> ``(host, port)`` (``[::1]:9464`` for IPv6); raises ``ValueError`` for
    anything else."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"metrics address {address!r} is not HOST:PORT (e.g. 127.0.0.1:9464)")
    return host.strip("[]"), int(port)


def _messages(exc: ValidationError) -> str:
    """The errors of ``exc`` as ``"field: message; ..."`` (no pydantic boilerplate, no inputs)."""
    out = []
    for e in exc.errors(include_url=False, include_input=False):
        msg = e["msg"].removeprefix("Value error, ")
        loc = ".".join(str(x) for x in e["loc"])
        out.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(out)
