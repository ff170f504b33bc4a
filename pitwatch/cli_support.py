"""What every ``pitwatch`` sub-command shares: the consoles, usage errors, settings."""

from __future__ import annotations

from typing import Any, NoReturn

import typer
from rich.console import Console

console = Console()
err = Console(stderr=True)


def fail(msg: str, code: int = 2) -> NoReturn:
    """Print ``error: msg`` on stderr and exit with ``code`` (2: usage or input error)."""
    from rich.markup import escape

    err.print(f"[red]error:[/red] {escape(msg)}")  # a message is text: "[local]" is not markup
    raise typer.Exit(code)


def check_format(fmt: str) -> None:
    """Exit with a usage error unless ``--format`` is ``text`` or ``json``."""
    if fmt not in ("text", "json"):
        fail("--format must be text or json")


def settings(**overrides: Any) -> Any:
    """Kafka/warehouse settings (:class:`pitwatch.streams.config.KafkaSettings`): environment
    first, then the command's flags (``None`` ones ignored); a usage error if inconsistent."""
    from pitwatch.streams.config import KafkaSettings

    try:
        return KafkaSettings.from_env(**{k: v for k, v in overrides.items() if v is not None})
    except ValueError as exc:
        fail(str(exc))
