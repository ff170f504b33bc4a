"""``pitwatch report ...``: the regulator's monthly report (WeasyPrint and matplotlib are imported only
when a report is written)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from pitwatch.cli_support import console, fail

report_app = typer.Typer(help="Reports for the regulator.", no_args_is_help=True)


@report_app.command("monthly")
def monthly_cmd(
    casino: str = typer.Option(..., "--casino", help="Casino id (casino_id of the events)."),
    month: str = typer.Option(..., "--month", help="YYYY-MM: the gaming days of that month (Europe/Madrid)."),
    formats: str = typer.Option("html,pdf,csv", "--format", help="Comma-separated: html, pdf, csv."),
    lang: str = typer.Option("es", "--lang", help="es (default) or en: the labels of the HTML and PDF."),
    out: Path = typer.Option(Path("pitwatch-data/report"), "--out", help="Directory to write to."),
    warehouse: Optional[str] = typer.Option(None, "--warehouse", envvar="PITWATCH_WAREHOUSE",
                                            help="chdb:///path or clickhouse://host:9000/db."),
):
    """Write the monthly report of CASINO: per table and game and their total (drop, handle, win,
    hold % and win / handle, theoretical win with σ and the 95% band, commissions and cagnotte, tips,
    fills, credits, float differences, limit breaches; for poker, chemin de fer and dos paños the
    rake, cagnotte and session fees instead of a theoretical win), the limits in force, the previous
    three months and the year to date with the gross gaming income, the alerts by kind and
    disposition with response times, and a front page with the ruleset versions, the source events
    and the SHA-256 of the report data. A month without activity gives a nil return. The CSV
    columns are described in docs/monthly-report.md."""
    from pitwatch.cli_support import settings
    from pitwatch.reports.labels import LANGS
    from pitwatch.reports.monthly import build_monthly, casino_seen, month_days
    from pitwatch.reports.render import FORMATS, write_report
    from pitwatch.warehouse import WarehouseError, open_warehouse

    chosen = tuple(f.strip() for f in formats.split(",") if f.strip())
    bad = [f for f in chosen if f not in FORMATS]
    if bad or not chosen:
        fail(f"--format takes a comma-separated list of {', '.join(FORMATS)}, not {formats!r}")
    if lang not in LANGS:
        fail(f"--lang must be es or en, not {lang!r}")
    try:
        month_days(month)
    except ValueError as exc:
        fail(str(exc))
    cfg = settings(warehouse_url=warehouse)
    try:
        with console.status(f"reading {casino} {month} from the warehouse"):
            with open_warehouse(cfg.warehouse_url) as wh:
                report = build_monthly(wh, casino, month)
                seen = casino_seen(wh, casino)
    except (WarehouseError, ValueError) as exc:
        fail(f"cannot read the report's data from {cfg.warehouse_url}: {exc}")
    if report.nil_return:
        console.print(f"no activity for casino {casino} in {month}: writing a nil return", highlight=False,
                      soft_wrap=True)
        if not seen:
            console.print(f"[yellow]warning:[/] the warehouse has never seen casino {casino!r}: check --casino", soft_wrap=True,
                          highlight=False)
    try:
        with console.status("writing " + ", ".join(chosen)):
            paths = write_report(report, out, chosen, lang)
    except OSError as exc:
        fail(f"cannot write to {out}: {exc}")
    for p in paths:
        console.print(f"wrote {p}", soft_wrap=True, highlight=False)
    console.print(f"report data SHA-256: {report.digest}", soft_wrap=True, highlight=False)
