"""The ``pitwatch`` command (typer + rich)."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Optional

import typer

from pitwatch.cli_support import check_format as _check_format
from pitwatch.cli_support import console, err
from pitwatch.cli_support import fail as _fail
from pitwatch.cli_support import settings as _settings
from pitwatch.dashboards.commands import dashboards_app
from pitwatch.lifecycle.commands import (
    BROKER_TIMEOUT_OPT,
    KIND_OPT,
    SEVERITY_OPT,
    SINCE_OPT,
    TABLE_OPT,
    Filters,
    alert_app,
    case_app,
    fail_line,
    list_alerts,
)
from pitwatch.reports.commands import report_app
from pitwatch.schemas.commands import export_app, import_app
from pitwatch.streams.batcher import BATCH_MAX, BATCH_WITHIN
from pitwatch.streams.topics import DEFAULT_PARTITIONS, TOPIC_EVENTS
from pitwatch.warehouse.verify_command import verify as _verify_command

app = typer.Typer(
    help="pitwatch: audit and surveillance of casino table games under Spanish regional law.\n\n"
         "Table events flow through Kafka into Faust processors that re-derive every payout from "
         "the regulations and flag discrepancies; results land in ClickHouse.",
    no_args_is_help=True, add_completion=False, rich_markup_mode="rich",
)
schema_app = typer.Typer(help="The event contract.", no_args_is_help=True)
replay_app = typer.Typer(help="Replay events through the rules engine (auditors).", no_args_is_help=True)
app.add_typer(schema_app, name="schema")
rulesets_app = typer.Typer(help="The rulesets (game x jurisdiction) and their versions.")
quarantine_app = typer.Typer(help="Tables quarantined after a poison event: list them, release them.",
                             no_args_is_help=True)
app.add_typer(quarantine_app, name="quarantine")
app.add_typer(replay_app, name="replay")
app.add_typer(rulesets_app, name="rulesets")
docs_app = typer.Typer(help="Documentation generated from the code.", no_args_is_help=True)
app.add_typer(docs_app, name="docs")
app.add_typer(alert_app, name="alert")
app.add_typer(case_app, name="case")
app.add_typer(dashboards_app, name="dashboards")
app.add_typer(report_app, name="report")
app.add_typer(import_app, name="import")
app.add_typer(export_app, name="export")
native_app = typer.Typer(help="The rules engine's fold compiled with mypyc (same verdicts, faster).",
                         no_args_is_help=True)
app.add_typer(native_app, name="native")

DEFAULT_DATA = Path("pitwatch-data")

def _parse_rates(items: list[str], no_faults: bool) -> dict[str, float]:
    from pitwatch.sim.base import DEFAULT_FAULT_RATES, fault_kinds

    if no_faults:
        return {}
    rates = dict(DEFAULT_FAULT_RATES)
    known = fault_kinds()
    for item in items:
        kind, _, value = item.partition("=")
        if kind not in known:
            _fail(f"unknown fault kind {kind!r} in --fault {item!r}; known: {', '.join(known)}")
        try:
            rate = float(value)
        except ValueError:
            _fail(f"--fault {item!r}: rate must be a number between 0 and 1")
        if not 0 <= rate <= 1:
            _fail(f"--fault {item!r}: rate must be between 0 and 1")
        rates[kind] = rate
    return rates


def _progress():
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=err, transient=False)


# ----------------------------------------------------------------------------------- schema


@schema_app.command("export")
def schema_export(out_dir: Path = typer.Argument(..., help="Directory to write one JSON Schema per event type.")):
    """Write the JSON Schema of every event type (``<type>.schema.json``), of the union
    (``event.schema.json``) and of every record kind of ``replay --format json``
    (``replay-<kind>.schema.json``)."""
    from pitwatch.replay.output import REPLAY_SCHEMAS
    from pitwatch.schemas.export import export_schemas

    paths = export_schemas(out_dir, extra=REPLAY_SCHEMAS)
    console.print(f"wrote {len(paths)} schemas to {out_dir}", soft_wrap=True, highlight=False)


# ----------------------------------------------------------------------------------- simulate


@app.command()
def simulate(
    out: Path = typer.Option(..., "--out", "-o", help="Events file to write (JSONL). Labels go to OUT.labels.jsonl."),
    tables: int = typer.Option(12, min=1, max=500, help="Number of tables."),
    hours: float = typer.Option(2.0, min=0.05, max=24, help="Hours of play."),
    seed: int = typer.Option(7, help="Random seed: same seed, same evening."),
    fault: list[str] = typer.Option([], "--fault", help="Override a fault rate, e.g. --fault wrong_payout=0.05 (repeatable)."),
    no_faults: bool = typer.Option(False, "--no-faults", help="Inject no faults: every round clean."),
    ruleset: list[str] = typer.Option(
        [], "--ruleset", help="Also a table of this ruleset of a game added on the game platform, e.g. "
        "--ruleset boule.galicia (repeatable; American roulette, abreviada, boule, wheel of fortune)."),
):
    """Simulate a casino evening with labelled faults and write it as JSONL: TABLES tables of the default
    floor (French roulette, blackjack, punto y banca, póquer en círculo), and a table per --ruleset."""
    from pitwatch.sim import write_simulation
    from pitwatch.sim.base import catalogue_tables, default_floor

    rates = _parse_rates(fault, no_faults)
    floor = default_floor(tables)
    if ruleset:
        extra = catalogue_tables(tables + 1, list(ruleset))
        unknown = sorted(set(ruleset) - {t.ruleset_id for t in extra})
        if unknown:
            placeable = ", ".join(t.ruleset_id for t in catalogue_tables(tables + 1))
            _fail(f"no simulated table for ruleset(s) {', '.join(unknown)} (--ruleset takes: {placeable})")
        floor += extra
    with _progress() as progress:
        task = progress.add_task("simulating", total=None)
        n, labels = write_simulation(out, tables=floor, hours=hours, seed=seed, fault_rates=rates,
                                     progress=lambda k: progress.update(task, completed=k))
    console.print(f"wrote {n} events to {out} and {labels} fault labels to {out}.labels.jsonl", soft_wrap=True, highlight=False)


# ----------------------------------------------------------------------------------- kafka


@app.command()
def produce(
    path: Path = typer.Argument(..., exists=True, dir_okay=False, help="JSONL events file."),
    bootstrap: Optional[str] = typer.Option(None, envvar="PITWATCH_KAFKA_BOOTSTRAP", help="Kafka bootstrap servers."),
    topic: str = typer.Option(TOPIC_EVENTS, help="Topic to produce to."),
):
    """Produce a JSONL events file into Kafka, keyed by table_id."""
    from pitwatch.streams.producer import produce_jsonl

    settings = _settings(bootstrap=bootstrap)
    total = sum(1 for _ in path.open("rb"))
    with _progress() as progress:
        task = progress.add_task("producing", total=total)
        n = produce_jsonl(path, settings.bootstrap, topic,
                          progress=lambda k: progress.update(task, completed=k),
                          **settings.producer_config())
    console.print(f"produced {n} messages to {topic}")


def _load_object(spec: str, option: str):
    """``"package.module:attr"`` -> the object; a usage error if it cannot be imported."""
    import importlib

    module, _, attr = spec.partition(":")
    try:
        obj = importlib.import_module(module)
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
    except (ImportError, AttributeError, ValueError) as exc:
        _fail(f"{option} {spec!r}: {exc}")
    return obj


@app.command()
def worker(
    bootstrap: Optional[str] = typer.Option(None, help="Kafka bootstrap servers (env PITWATCH_KAFKA_BOOTSTRAP)."),
    warehouse: Optional[str] = typer.Option(None, help="chdb:///path (embedded), clickhouse://host:9000/db, or "
                                            "'none' (rows dropped) (env PITWATCH_WAREHOUSE)."),
    security_protocol: Optional[str] = typer.Option(None, help="PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL "
                                                    "(env PITWATCH_KAFKA_SECURITY_PROTOCOL)."),
    sasl_mechanism: Optional[str] = typer.Option(None, help="e.g. PLAIN, SCRAM-SHA-512 (env PITWATCH_KAFKA_SASL_MECHANISM)."),
    sasl_username: Optional[str] = typer.Option(None, help="(env PITWATCH_KAFKA_SASL_USERNAME)"),
    sasl_password: Optional[str] = typer.Option(None, help="(env PITWATCH_KAFKA_SASL_PASSWORD)"),
    ssl_cafile: Optional[str] = typer.Option(None, help="CA bundle (PEM) for TLS (env PITWATCH_KAFKA_SSL_CA_LOCATION)."),
    status_file: Optional[Path] = typer.Option(None, help="Write progress counters here after every batch "
                                               "(env PITWATCH_STATUS_PATH)."),
    metrics_address: Optional[str] = typer.Option(None, help="Serve the counters to Prometheus on "
                                                  "http://HOST:PORT/metrics, e.g. 127.0.0.1:9464 "
                                                  "(env PITWATCH_METRICS_ADDRESS)."),
    partitions: int = typer.Option(DEFAULT_PARTITIONS, min=1, help="Partitions of the topics the worker creates; an existing "
                                   "pitwatch.table-events keeps its own count."),
    datadir: Optional[Path] = typer.Option(None, help="Faust data directory (default ./pitwatch-data/faust)."),
    batch_max: int = typer.Option(BATCH_MAX, min=1, help="Cut a batch at this many events..."),
    batch_within: float = typer.Option(BATCH_WITHIN, min=0.01, help="...or this many seconds after its first event."),
    output: str = typer.Option("confluent", help="Output producer: confluent or faust."),
    loglevel: str = typer.Option("warning", help="Faust log level."),
    event_loop: str = typer.Option("auto", "--loop", envvar="PITWATCH_EVENT_LOOP", help="auto, uvloop or asyncio."),
    processor: Optional[str] = typer.Option(None, help="module:factory of the batch processor (tests; default: the "
                                            "rules pipeline)."),
    warehouse_opener: Optional[str] = typer.Option(None, help="module:function opening the warehouse (tests; "
                                                   "default: pitwatch.warehouse.open_warehouse)."),
):
    """Run a stream-processing worker (Faust): ingest, rounds, warehouse sink.

    Settings not given as options come from the environment (pitwatch/streams/config.py).
    Exit code 70: a batch could not be processed or stored and was not committed."""
    from pitwatch.streams import crashpoints
    from pitwatch.streams.supervisor import run_worker

    if output not in ("confluent", "faust"):
        _fail("--output must be confluent or faust")
    if event_loop not in ("auto", "uvloop", "asyncio"):
        _fail("--loop must be auto, uvloop or asyncio")
    settings = _settings(bootstrap=bootstrap, warehouse_url=warehouse, security_protocol=security_protocol,
                         sasl_mechanism=sasl_mechanism, sasl_username=sasl_username,
                         sasl_password=sasl_password, ssl_ca_location=ssl_cafile,
                         status_path=str(status_file) if status_file else None,
                         metrics_address=metrics_address)
    try:
        crash_point = crashpoints.from_env()  # a test hook: unset in production
    except ValueError as exc:
        _fail(str(exc))
    kwargs: dict = {"output": output, "partitions": partitions, "batch_max": batch_max,
                    "batch_within": batch_within, "crash_point": crash_point}
    if processor:
        kwargs["processor_factory"] = _load_object(processor, "--processor")
    if warehouse_opener:
        kwargs["warehouse_opener"] = _load_object(warehouse_opener, "--warehouse-opener")
    if datadir:
        kwargs["datadir"] = datadir
    raise typer.Exit(run_worker(settings, loglevel=loglevel, event_loop=event_loop, **kwargs) or 0)


@app.command()
def alerts(
    follow: bool = typer.Option(False, "--follow", "-f", help="Keep waiting for new alerts."),
    bootstrap: Optional[str] = typer.Option(None, envvar="PITWATCH_KAFKA_BOOTSTRAP", help="Kafka bootstrap servers."),
    fmt: str = typer.Option("text", "--format", help="text or json"),
    timeout: float = typer.Option(30.0, min=1, help="Seconds to read the alerts already on the topic before "
                                  "giving up."),
    broker_timeout: float = BROKER_TIMEOUT_OPT,
    state: Optional[str] = typer.Option(None, "--state", help="List the stored alerts in this lifecycle state "
                                        "instead: open, acknowledged, escalated, closed, active (not closed) or all."),
    warehouse: Optional[str] = typer.Option(None, envvar="PITWATCH_WAREHOUSE", help="With --state: the warehouse."),
    limit: int = typer.Option(200, min=1, help="With --state: at most this many, newest first."),
    kind: Optional[list[str]] = KIND_OPT, table: Optional[list[str]] = TABLE_OPT,
    severity: Optional[list[str]] = SEVERITY_OPT, since: Optional[datetime] = SINCE_OPT,
):
    """Print the alerts on the alerts topic, oldest first; with --follow, keep printing new
    ones as they arrive (live view for the surveillance room; Ctrl-C to stop). With --state,
    list the warehouse's alerts with where they stand (a table with a header: id, state,
    severity, time, table, round, kind, assignee, disposition), filtered by --kind, --table,
    --severity and --since."""
    from pitwatch.lifecycle.publish import BrokerUnreachable, check_broker
    from pitwatch.streams.tail import tail_alerts

    _check_format(fmt)
    filters = Filters.of(kind, table, severity, since, None)
    if state is not None:
        list_alerts(state, warehouse, limit, fmt, filters)
        return
    if filters:
        _fail("--kind, --table, --severity and --since filter the stored alerts: use them with --state "
              "(e.g. --state all)")
    settings = _settings(bootstrap=bootstrap)
    try:
        check_broker(settings.bootstrap, broker_timeout, **settings.confluent_config())
    except BrokerUnreachable as exc:
        fail_line(str(exc), 1)
    try:
        for alert in tail_alerts(settings, follow=follow, timeout=timeout):
            _print_alert(alert, fmt)
    except RuntimeError as exc:
        _fail(str(exc), 1)
    except KeyboardInterrupt:
        pass


def _print_alert(alert: dict, fmt: str) -> None:
    """One alert on stdout: a JSON line, or a coloured line (severity, time, table, round,
    kind, message, citation)."""
    if fmt == "json":
        print(json.dumps(alert), flush=True)
        return
    sev = {"critical": "bold red", "high": "red", "medium": "yellow"}.get(str(alert.get("severity")), "dim")
    console.print(f"[{sev}]{alert.get('severity', ''):8}[/{sev}] {alert.get('detected_at', '')} "
                  f"{alert.get('table_id')} {alert.get('round_id')} [bold]{alert.get('kind')}[/bold] "
                  f"{alert.get('message')}  [dim]{alert.get('citation')}[/dim]")


# ----------------------------------------------------------------------------------- replay


def _replay_printer(fmt: str):
    """A function printing one replay item on stdout: JSON lines or rich text."""
    if fmt == "json":
        from pitwatch.replay.output import json_lines

        def out(item) -> None:
            for line in json_lines(item):
                print(line)
        return out
    from pitwatch.replay.text import render_item

    return lambda item: render_item(console, item)


def _replay_done(stats, fmt: str) -> None:
    """Print the summary (last JSON line, and a line on stderr) and exit with the replay's
    status: 0 clean, 1 violations, 2 invalid input."""
    from pitwatch.replay.output import summary_record
    from pitwatch.replay.text import render_summary

    if fmt == "json":
        print(summary_record(stats).model_dump_json(), flush=True)
    render_summary(err, stats)
    raise typer.Exit(stats.exit_status)


REPLAY_EXIT_HELP = ("Exit status: 0 the input is valid and clean, 1 violations were found, 2 invalid input "
                    "lines or a usage error.")


@replay_app.command("file", epilog=REPLAY_EXIT_HELP)
def replay_file(
    path: Path = typer.Argument(..., exists=True, dir_okay=False, readable=True, help="JSONL events file."),
    fmt: str = typer.Option("text", "--format", help="text or json (JSON Lines, see docs/cli.md)"),
    only_violations: bool = typer.Option(False, "--only-violations", help="Show only rounds with violations."),
    events: bool = typer.Option(False, "--events", help="Also show every event as read (JSON kind event), "
                                "before what it completes."),
):
    """Replay a JSONL file through the rules engine (no Kafka, no ClickHouse): per round, the
    expected vs recorded settlement of every bet and the violations with citations; every
    invalid line with its reason; a summary."""
    from pitwatch.replay import ReplayStats, replay_lines

    _check_format(fmt)
    if events and only_violations:
        _fail("--events and --only-violations do not go together (every event, or only the rounds with violations)")
    out = _replay_printer(fmt)
    stats = ReplayStats()
    with path.open("rb") as fh:
        for item in replay_lines(fh, stats=stats, events=events):
            if only_violations and item.verdict is not None and not item.alerts:
                continue
            out(item)
    _replay_done(stats, fmt)


@replay_app.command("round", epilog=REPLAY_EXIT_HELP)
def replay_round_cmd(
    table_id: str = typer.Argument(..., help="Table id, e.g. GAL-RF-01."),
    round_id: str = typer.Argument(..., help="Round id, e.g. GAL-RF-01-R00042."),
    warehouse: Optional[str] = typer.Option(None, envvar="PITWATCH_WAREHOUSE",
                                            help="chdb:///path or clickhouse://host:9000/db."),
    fmt: str = typer.Option("text", "--format", help="text, json (JSON Lines, see docs/cli.md), html (the auditor's "
                            "dossier), pdf (the dossier as PDF, to --out) or dossier (the dossier as one JSON "
                            "document)"),
    out: Optional[Path] = typer.Option(None, "--out", help="The PDF file to write (--format pdf); the attested JSON "
                                       "document is written beside it (.json)."),
    by: Optional[str] = typer.Option(None, "--by", help="Who generates the dossier, named in its attestation "
                                     "(default: the operating-system user)."),
    current_ruleset: bool = typer.Option(
        False, "--current-ruleset",
        help="Judge with the ruleset version shipped with this release instead of the version in force "
             "when the round was judged live."),
    events: bool = typer.Option(False, "--events", help="Also show the round's events as stored (JSON kind "
                                "event), before its verdict."),
):
    """Replay one round from the warehouse's raw events (auditor's disputed hand), judged with
    the ruleset version that was in force (recorded on the round's settlements and alerts)."""
    from pitwatch.replay import ReplayStats
    from pitwatch.replay.warehouse import replay_round
    from pitwatch.warehouse import WarehouseError

    if fmt not in ("text", "json", "html", "pdf", "dossier"):
        _fail("--format must be text, json, html, pdf or dossier")
    if (fmt == "pdf") != (out is not None):
        _fail("--format pdf needs --out FILE.pdf, and --out is only for --format pdf")
    settings = _settings(warehouse_url=warehouse)
    stats = ReplayStats()
    if fmt in ("html", "pdf", "dossier"):
        _dossier(settings.warehouse_url, table_id, round_id, current_ruleset, fmt, stats, out, by)
        return
    try:
        found = replay_round(settings.warehouse_url, table_id, round_id, stats=stats, current=current_ruleset,
                             events=events)
    except (WarehouseError, ValueError) as exc:
        _fail(f"cannot replay from {settings.warehouse_url}: {exc}")
    if found is None:
        _fail(f"round {round_id} of table {table_id} not found in {settings.warehouse_url}")
    items, judged = found
    if judged is not None:
        err.print(judged.describe())
    show = _replay_printer(fmt)
    for item in items:
        show(item)
    _replay_done(stats, fmt)


def _dossier(url: str, table_id: str, round_id: str, current: bool, fmt: str, stats, out: Path | None,
             by: str | None = None) -> None:
    """Print the round's dossier (HTML, or its JSON for ``dossier``) or write it as a PDF to
    ``out`` and its attested JSON beside it (``pdf``), and exit with the replay's status."""
    from pitwatch.replay.dossier import render_html, round_dossier
    from pitwatch.warehouse import WarehouseError

    try:
        doc = round_dossier(url, table_id, round_id, current=current, stats=stats, generated_by=by)
    except (WarehouseError, ValueError) as exc:
        _fail(f"cannot write the dossier from {url}: {exc}")
    if doc is None:
        _fail(f"round {round_id} of table {table_id} not found in {url}")
    if fmt == "pdf":
        from pitwatch.reports.render import write_pdf

        assert out is not None
        try:
            write_pdf(render_html(doc), out)
            out.with_suffix(".json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        except OSError as exc:
            _fail(f"cannot write {out}: {exc}")
        err.print(f"wrote {out} and {out.with_suffix('.json')}", soft_wrap=True, highlight=False)
    else:
        print(json.dumps(doc, indent=1, ensure_ascii=False) if fmt == "dossier" else render_html(doc))
    raise typer.Exit(stats.exit_status)


# ----------------------------------------------------------------------------------- figures


@app.command()
def figures(
    file: Optional[Path] = typer.Argument(None, help="A JSON Lines file of events; without it, the warehouse.",
                                          exists=True, dir_okay=False, readable=True),
    warehouse: Optional[str] = typer.Option(None, envvar="PITWATCH_WAREHOUSE",
                                            help="chdb:///path or clickhouse://host:9000/db."),
    by: str = typer.Option("day", help="day (per table and gaming day) or hour (per table and UTC hour)."),
    gaming_day: Optional[datetime] = typer.Option(None, formats=["%Y-%m-%d"],
                                                  help="Only this gaming day (YYYY-MM-DD)."),
    table: Optional[str] = typer.Option(None, help="Only this table id."),
    fmt: str = typer.Option("text", "--format", help="text or json (JSON Lines)"),
):
    """Drop, handle, win, hold %, theoretical win with σ and the win's deviation in σ (outside
    ±1.96: outside the 95% band; none for poker, chemin de fer and dos paños, whose rake, cagnotte
    and session fees are shown instead), fills, credits and tips per table and gaming day
    (Europe/Madrid, from 06:00) or per UTC hour: from the warehouse, or from a file of events
    (the same figures, computed by a local replay)."""
    from rich.table import Table

    from pitwatch.replay.figures import figures_from_lines, figures_from_warehouse
    from pitwatch.warehouse import WarehouseError, open_warehouse

    _check_format(fmt)
    if by not in ("day", "hour"):
        _fail(f"--by must be day or hour, not {by!r}")
    day = gaming_day.date() if gaming_day is not None else None
    if file is not None:
        with file.open("rb") as fh:
            rows = [f for f in figures_from_lines(fh, by == "hour")
                    if (day is None or f.gaming_day == day) and (table is None or f.table_id == table)]
    else:
        settings = _settings(warehouse_url=warehouse)
        try:
            with open_warehouse(settings.warehouse_url) as wh:
                rows = figures_from_warehouse(wh, by == "hour", day, table)
        except (WarehouseError, ValueError) as exc:
            _fail(f"cannot read {settings.warehouse_url}: {exc}")
    if fmt == "json":
        for f in rows:
            typer.echo(json.dumps(f.to_json_dict(), ensure_ascii=False))
        return
    t = Table("gaming day" if by == "day" else "hour (UTC)", "table", "bets", "drop €", "handle €", "win €",
              "hold %", "win/handle %", "theo win €", "σ €", "dev σ", "rake+fees €", "fills €", "credits €", "tips €",
              title="table figures", caption="hold % = win / drop; dev σ = (win - theo win) / σ, "
              "outside ±1.96 = outside the 95% band; gaming day from 06:00 Europe/Madrid; poker, chemin de "
              "fer, dos paños: no theo win (players against each other), the house's rake, cagnotte and fees")
    for f in rows:
        when = f.gaming_day.isoformat() if f.hour is None else f"{f.hour:%Y-%m-%d %H:00}"
        pct = [("—" if x is None else f"{x}") for x in (f.hold_percent, f.win_percent_of_handle)]
        t.add_row(when, f.table_id, str(f.bets), f"{f.drop:,}", f"{f.handle:,}", f"{f.win:,}", *pct,
                  *f.theoretical_cells(), f"{f.rake + f.session_fees:,}", f"{f.fills:,}", f"{f.credits:,}",
                  f"{f.tips:,}")
    console.print(t if rows else "no figures")


# ----------------------------------------------------------------------------------- migrate


@app.command()
def migrate(
    warehouse: Optional[str] = typer.Option(None, envvar="PITWATCH_WAREHOUSE",
                                            help="chdb:///path or clickhouse://host:9000/db."),
):
    """Create the warehouse schema, or bring a warehouse written by an older release up to this
    one (missing tables and columns added, table_hourly rebuilt from the stored rows), and print
    the steps applied. The worker does the same at start; with several workers on one warehouse,
    stop them and run this once before starting them again."""
    from pitwatch.warehouse import WarehouseError, open_warehouse

    settings = _settings(warehouse_url=warehouse)
    try:
        with open_warehouse(settings.warehouse_url) as wh:
            steps = wh.ensure_schema()
    except (WarehouseError, ValueError) as exc:
        _fail(f"cannot migrate {settings.warehouse_url}: {exc}")
    for step in steps:
        typer.echo(str(step))
    typer.echo(f"{len(steps)} step(s) applied" if steps else "up to date: nothing to do")


# ----------------------------------------------------------------------------------- verify

app.command("verify")(_verify_command)


# ----------------------------------------------------------------------------------- demo


@app.command()
def demo(
    tables: int = typer.Option(12, min=1, max=100, help="Number of tables."),
    hours: float = typer.Option(2.0, min=0.05, max=12, help="Hours of play to simulate."),
    seed: int = typer.Option(7, help="Random seed."),
    data_dir: Path = typer.Option(DEFAULT_DATA, help="Where the broker log, events and chDB warehouse go."),
):
    """Run the whole pipeline locally: broker + Faust worker + chDB, a simulated evening,
    and a summary with precision/recall against the injected faults."""
    from pitwatch.demo import run_demo

    sys.exit(run_demo(tables=tables, hours=hours, seed=seed, data_dir=data_dir, console=console))


@rulesets_app.callback(invoke_without_command=True)
def rulesets(
    ctx: typer.Context,
    warehouse: Optional[str] = typer.Option(
        None, "--warehouse", help="Also list the ruleset versions stored in this warehouse (chdb:///path or "
                                  "clickhouse://host:9000/db): every version that judged a stored verdict."),
    coverage: bool = typer.Option(
        False, "--coverage", help="Print the coverage matrix instead: every game of the law per jurisdiction, its "
                                  "status (computed from what ships), what is not checked, the section cited."),
):
    """List the rulesets shipped with this release (id, game, jurisdiction, version = SHA-256 of
    the file, the regulation it encodes, the file), and with --warehouse the stored versions.
    A table when the terminal is wide enough, else one ruleset per two or three lines. With
    --coverage, the coverage matrix of docs/games/index.md instead."""
    if ctx.invoked_subcommand is not None:
        return
    from pitwatch.cli_tables import print_records

    if coverage:
        if warehouse is not None:
            _fail("--coverage and --warehouse print different tables: give one")
        from pitwatch.docs.coverage import matrix

        print_records(console, ("game family", "jurisdiction", "status", "ruleset", "not checked", "section of the law"),
                      [(r.section.family, r.section.jurisdiction, r.status, r.ruleset or "-", str(len(r.not_checked)),
                        r.section.cited) for r in matrix()],
                      title="coverage of the law", caption="what is not checked, item by item: docs/games/index.md")
        return
    from pitwatch.rules.base import RULESETS_DIR, list_rulesets, load_ruleset

    rows = []
    for rid in list_rulesets():
        r = load_ruleset(rid)
        rows.append((r.id, r.game, r.jurisdiction, r.content_hash[:12], r.model.seed,
                     f"pitwatch/rules/{RULESETS_DIR.name}/{rid}.toml"))
    print_records(console, ("id", "game", "jurisdiction", "version", "regulation (seed)", "file"), rows,
                  title="shipped rulesets")
    if warehouse is None:
        return
    from pitwatch.warehouse import WarehouseError, open_warehouse

    try:
        wh = open_warehouse(warehouse)
        try:
            stored = wh.rows("rulesets", order_by="ruleset_id, first_used_at")
        finally:
            wh.close()
    except (WarehouseError, ValueError) as exc:
        _fail(f"cannot read {warehouse}: {exc}")
    shipped = {load_ruleset(rid).content_hash for rid in list_rulesets()}
    print_records(console, ("id", "version", "first used (UTC)", "shipped now"), [
        (row["ruleset_id"], row["ruleset_hash"][:12], f"{row['first_used_at']:%Y-%m-%d %H:%M:%S}",
         "yes" if row["ruleset_hash"] in shipped else "no") for row in stored], title=f"versions stored in {warehouse}")


@rulesets_app.command("edges")
def rulesets_edges(
    ruleset: str = typer.Argument(..., help="Ruleset id, e.g. punto_banca.galicia (see `pitwatch rulesets`)."),
    fmt: str = typer.Option("text", "--format", help="text (a table) or json (JSON Lines: one object per bet kind)"),
    decks: Optional[int] = typer.Option(None, "--decks", min=1, help="Shoe of punto y banca or blackjack "
                                        "(default: the ruleset's)."),
):
    """The house edge of every bet kind of RULESET, computed from the ruleset (payouts, zero rule,
    deduction, tableau, blackjack rules): what theoretical win multiplies each stake by."""
    from pitwatch.rules.base import RuleError, load_ruleset
    from pitwatch.rules.edges import edge_table
    from pitwatch.rules.edges.common import quantize

    _check_format(fmt)
    try:
        rs = load_ruleset(ruleset)
        lines = edge_table(rs, decks=decks)
    except RuleError as exc:
        _fail(str(exc))
    if fmt == "json":
        for line in lines:
            print(json.dumps({
                "ruleset_id": rs.id, "ruleset_hash": rs.content_hash, "kind": line.kind, "variant": line.variant,
                "spot": line.spot, "payout": line.payout, "edge": str(quantize(line.edge, 12)),
                "edge_fraction": f"{line.edge.numerator}/{line.edge.denominator}" if line.exact else None,
                "exact": line.exact, "method": line.method, "citations": list(line.citations),
            }, ensure_ascii=False), flush=True)
        return
    from rich.table import Table

    t = Table("bet kind", "spot", "payout", "edge %", "how computed",
              title=f"house edges — {rs.id} (version {rs.content_hash[:12]})",
              caption="edges per unit of initial stake" + ("; ≈ approximate (see how computed)"
                                                           if not all(line.exact for line in lines) else ""))
    for line in lines:
        t.add_row(line.label, line.spot, line.payout, ("" if line.exact else "≈ ") + f"{quantize(line.edge * 100, 4)}",
                  line.method)
    console.print(t)


@quarantine_app.command("list")
def quarantine_list(
    warehouse: Optional[str] = typer.Option(None, envvar="PITWATCH_WAREHOUSE",
                                            help="chdb:///path or clickhouse://host:9000/db."),
):
    """Tables whose last quarantine alert is not followed by a release, with the reason and the
    number of events parked for them."""
    from rich.table import Table

    from pitwatch.warehouse import WarehouseError, open_warehouse

    settings = _settings(warehouse_url=warehouse)
    try:
        wh = open_warehouse(settings.warehouse_url)
        try:
            alerts = wh.rows("alerts", "kind IN ('table_quarantined', 'quarantine_released')",
                             order_by="detected_at, detected_ms")
            parked = {t: n for t, n in wh.query("SELECT table_id, count() FROM pitwatch.parked FINAL GROUP BY table_id")}
        finally:
            wh.close()
    except (WarehouseError, ValueError) as exc:
        _fail(f"cannot read {settings.warehouse_url}: {exc}")
    last: dict[str, dict] = {}
    for a in alerts:
        last[a["table_id"]] = a
    held = [a for a in last.values() if a["kind"] == "table_quarantined"]
    t = Table("table", "since (UTC)", "events parked", "reason", title="quarantined tables")
    for a in held:
        t.add_row(a["table_id"], f"{a['detected_at']:%Y-%m-%d %H:%M:%S}", str(parked.get(a["table_id"], 0)), a["message"])
    console.print(t if held else "no table is quarantined")


@quarantine_app.command("release")
def quarantine_release(
    table_id: str = typer.Argument(..., help="The quarantined table, e.g. GAL-PB-01."),
    by: str = typer.Option(..., "--by", envvar="USER", help="Who releases it (recorded in the release alert)."),
    bootstrap: Optional[str] = typer.Option(None, envvar="PITWATCH_KAFKA_BOOTSTRAP", help="Kafka bootstrap servers."),
    topic: str = typer.Option(TOPIC_EVENTS, help="The workers' input topic."),
):
    """Release a quarantined table once the cause is fixed: the worker owning it applies its
    parked events again, in order (a release control message on the input topic, keyed by the
    table, so it follows every parked event)."""
    from datetime import datetime, timezone

    from pitwatch.streams.producer import ProduceError, produce_events
    from pitwatch.streams.quarantine import release_message

    settings = _settings(bootstrap=bootstrap)
    msg = release_message(table_id, by, datetime.now(timezone.utc))
    try:
        produce_events([msg], settings.bootstrap, topic, key=lambda _v: table_id.encode("utf-8"),
                       flush_timeout=30.0, **settings.producer_config())
    except ProduceError as exc:
        _fail(f"release not sent: {exc}")
    console.print(f"release of {table_id} sent to {topic}; `pitwatch quarantine list` shows when it is applied")


@app.command()
def law(citation: str = typer.Argument(..., help='A citation, e.g. "000_e1555249d49967be.txt L133-L135".')):
    """Print the lines of the regulation a citation points at, verbatim (Spanish, as published),
    widened to whole sentences (from the start of the sentence the first cited line is in to the
    end of the one the last is in), with the file and the lines printed. Exit 2 for a citation
    that names no line of a shipped text."""
    from pitwatch.replay.law import quote

    try:
        quotes = quote(citation)
    except ValueError as exc:
        _fail(str(exc))
    if not quotes:
        _fail(f"{citation!r} cites no line of a regulation text (FILE Lstart-Lend)")
    for q in quotes:
        console.print(f"[bold]{q.file} L{q.first}-L{q.last}[/bold]", highlight=False)
        console.print(q.text, markup=False, highlight=False, soft_wrap=True)


@docs_app.command("games")
def docs_games(
    out: Path = typer.Option(Path("docs/games"), "--out", help="Directory of the pages (docs/games of the repository)."),
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 listing the pages that are stale."),
):
    """Write docs/games/: one Markdown page per ruleset (every payout, limit, option and rule with
    its citation, every ambiguity with the choice made) and an index, generated from the rulesets."""
    from pitwatch.docs.games import render_pages, stale_pages, write_pages

    pages = render_pages()
    if not check:
        console.print(f"wrote {len(write_pages(pages, out))} pages to {out}", soft_wrap=True, highlight=False)
        return
    stale = stale_pages(pages, out)
    for name in stale:
        err.print(f"stale: {out / name}", soft_wrap=True, highlight=False)
    if stale:
        _fail(f"{len(stale)} stale page(s): run `pitwatch docs games`", 1)
    console.print(f"{out}: {len(pages)} pages up to date")


@native_app.command("status")
def native_status():
    """Say whether the fold runs compiled, and why (or why not).

    The build in build/native is used only when it matches the sources, the interpreter and the
    platform; PITWATCH_NATIVE=0 turns it off. Exit status 1 when the fold runs interpreted."""
    from pitwatch import native

    active, why = native.status()
    console.print(f"{'compiled' if active else 'interpreted'}: {why}", soft_wrap=True, highlight=False)
    if not active:
        raise typer.Exit(1)


@native_app.command("build")
def native_build():
    """Compile the fold with mypyc into build/native (about a minute).

    Needs mypy (the test extra), setuptools and a C compiler. Processes started afterwards use
    it; it is ignored as soon as one of its sources changes (`pitwatch native status`)."""
    from pitwatch import native

    with err.status("compiling the fold with mypyc (about a minute)"):
        out = native.build()
    console.print(f"compiled fold written to {out}", soft_wrap=True, highlight=False)


def main() -> None:  # pragma: no cover
    app()
