"""``pitwatch dashboards ...`` (the SDK is imported only when a command runs)."""

from __future__ import annotations

from pathlib import Path

import typer

from pitwatch.cli_support import console, fail

dashboards_app = typer.Typer(help="Grafana dashboards as code (grafana-foundation-sdk, ClickHouse plugin).",
                             no_args_is_help=True)


@dashboards_app.command("export")
def export_cmd(out: Path = typer.Argument(..., help="Directory to write the dashboards' JSON to.")):
    """Write every dashboard's JSON (for Grafana's file provisioning or an import)."""
    from pitwatch.dashboards.export import export

    try:
        paths = export(out)
    except OSError as exc:
        fail(f"cannot write to {out}: {exc}")
    for p in paths:
        console.print(f"wrote {p}", soft_wrap=True, highlight=False)
