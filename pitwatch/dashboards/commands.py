"""``pitwatch dashboards ...`` (the SDK is imported only when a command runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from pitwatch.cli_support import console, fail

dashboards_app = typer.Typer(help="Grafana dashboards as code (grafana-foundation-sdk, ClickHouse plugin).",
                             no_args_is_help=True)


@dashboards_app.command("export")
def export_cmd(out: Path = typer.Argument(..., help="Directory to write to (the repository's infra/grafana)."),
               check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 listing the stale files.")):
    """Write every dashboard's JSON and the Grafana provisioning files (datasource, dashboards
    provider, alert rules, a contact point example) under OUT."""
    from pitwatch.dashboards.export import export, stale

    if check:
        old = stale(out)
        for rel in old:
            console.print(f"stale: {out / rel}", soft_wrap=True, highlight=False)
        if old:
            fail(f"{len(old)} stale file(s): run `pitwatch dashboards export {out}`", 1)
        console.print(f"{out}: up to date", soft_wrap=True, highlight=False)
        return
    try:
        paths = export(out)
    except OSError as exc:
        fail(f"cannot write to {out}: {exc}")
    for p in paths:
        console.print(f"wrote {p}", soft_wrap=True, highlight=False)


@dashboards_app.command("push")
def push_cmd(url: str = typer.Option(..., "--url", envvar="PITWATCH_GRAFANA_URL", help="Grafana's URL."),
             token: str = typer.Option(..., "--token", envvar="PITWATCH_GRAFANA_TOKEN", show_default=False,
                                       help="A service account token (better from PITWATCH_GRAFANA_TOKEN)."),
             timeout: float = typer.Option(10.0, min=1, help="Seconds per HTTP request.")):
    """Upload the folder, the dashboards and the alert rules to a running Grafana, idempotently
    (the ClickHouse datasource comes from its provisioning)."""
    from grafana_client.client import GrafanaException

    from pitwatch.dashboards.push import push

    try:
        for line in push(url, token, timeout):
            console.print(line, soft_wrap=True, highlight=False)
    except GrafanaException as exc:
        fail(f"Grafana at {url} refused (HTTP {getattr(exc, 'status_code', '?')}): {exc}", 1)
    except OSError as exc:
        fail(f"cannot reach Grafana at {url}: {exc}", 1)


@dashboards_app.command("preview")
def preview_cmd(out: Path = typer.Option(Path("pitwatch-data/preview"), "--out", help="Directory of the page."),
                warehouse: Optional[str] = typer.Option(None, "--warehouse", envvar="PITWATCH_WAREHOUSE",
                                                        help="chdb:///path or clickhouse://host:9000/db.")):
    """Draw every dashboard panel from the warehouse into one static HTML page (no Grafana needed)."""
    from pitwatch.cli_support import settings
    from pitwatch.dashboards.preview import write_preview
    from pitwatch.warehouse import WarehouseError, open_warehouse

    cfg = settings(warehouse_url=warehouse)
    try:
        with open_warehouse(cfg.warehouse_url) as wh:
            path = write_preview(wh, out)
    except (WarehouseError, ValueError) as exc:
        fail(f"cannot draw the preview from {cfg.warehouse_url}: {exc}")
    console.print(f"wrote {path}", soft_wrap=True, highlight=False)
