"""``python -m reliability`` (``make reliability``): the reliability run, with a rich progress
display and a final table of figures; results in ``results.json`` and ``results.md``."""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shlex
import shutil
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from reliability.scenarios import SCENARIOS, Context, Settings, clean_run, run_scenario, simulate_evening

app = typer.Typer(add_completion=False, rich_markup_mode="rich")
console = Console()
if not console.is_terminal:  # a log file: wide enough for the summary table
    console = Console(width=160)


def _scenarios(spec: str) -> list[str]:
    if spec.strip().lower() == "all":
        return list(SCENARIOS)
    letters = [x.strip().lower() for x in spec.split(",") if x.strip()]
    unknown = [x for x in letters if x not in SCENARIOS]
    if unknown or not letters:
        raise typer.BadParameter(f"--scenario: {', '.join(SCENARIOS)} (comma-separated) or all, not {spec!r}")
    return letters


def _kinds(spec: str) -> tuple[str, ...]:
    from reliability.malformed import DEFAULT_KINDS, KINDS

    if spec.strip().lower() == "default":
        return DEFAULT_KINDS
    chosen = tuple(x.strip() for x in spec.split(",") if x.strip())
    unknown = [x for x in chosen if x not in KINDS]
    if unknown or not chosen:
        raise typer.BadParameter(f"--kinds: default or some of {', '.join(KINDS)}, not {spec!r}")
    return chosen


def _machine() -> str:
    mem = ""
    try:
        kb = int(next(ln for ln in Path("/proc/meminfo").read_text().splitlines() if ln.startswith("MemTotal")).split()[1])
        mem = f", {kb / 1024 / 1024:.0f} GiB"
    except (OSError, StopIteration, ValueError):
        pass
    return f"{os.cpu_count()} CPUs{mem}, {platform.system()} {platform.release()}, Python {platform.python_version()}"


@app.command()
def main(
    scenario: str = typer.Option("all", help="a, b, c, d, e, f, g (comma-separated) or all."),
    tables: int = typer.Option(24, min=1, help="Tables in the simulated evening."),
    hours: float = typer.Option(2.0, min=0.05, help="Hours of play."),
    seed: int = typer.Option(20261125, help="Seed of the evening and of every random choice."),
    malformed: int = typer.Option(10_000, min=0, help="Bad messages interleaved in scenario a."),
    background: int = typer.Option(1_000, min=0, help="Bad messages interleaved in scenarios b-e."),
    kinds: str = typer.Option("default", help="Kinds of bad messages (comma-separated, see "
                              "reliability/malformed.py), or default: every kind but huge_option."),
    seconds: float = typer.Option(60.0, min=0, help="Production of a scenario's messages is paced over this "
                                  "many seconds (0: all at once)."),
    partitions: int = typer.Option(6, min=1, help="Partitions of the input topic."),
    kills: int = typer.Option(5, min=0, help="SIGKILLs in scenario b."),
    outage: float = typer.Option(30.0, min=0, help="Seconds the ClickHouse server is down in scenario c."),
    restart_delay: float = typer.Option(5.0, min=0, help="Seconds before a dead worker is restarted "
                                        "(RestartSec of the systemd unit)."),
    timeout: float = typer.Option(900.0, min=10, help="Longest time one run may take."),
    collusion: float = typer.Option(0.3, min=0.0, max=1.0, help="Rate at which each table's first dealer "
                                    "over-pays his partner (the simulator's dealer_collusion; 0: none): the "
                                    "watch stage's detectors then raise alerts to compare."),
    resend_share: float = typer.Option(0.5, min=0.0, max=1.0, help="Share of the round digests scenario f "
                                       "sends again at new offsets."),
    clickhouse_url: Optional[str] = typer.Option(None, "--clickhouse", help="clickhouse://host:port of a running "
                                                 "ClickHouse server to use instead of starting one (not with "
                                                 "scenario c, which stops it)."),
    out: Optional[Path] = typer.Option(None, help="Directory for results.json, results.md and the runs' logs "
                                       "(default: a new temporary directory)."),
    keep: bool = typer.Option(False, help="Keep the runs' logs and data even when every scenario is ok."),
) -> None:
    """A simulated evening through the real broker (Tansu), pitwatch workers and Debian's ClickHouse
    18.16 server, under malformed messages (a), SIGKILLs (b), a ClickHouse outage (c), rebalances (d),
    a kcat producer (e), round digests sent again at new offsets (f) and bad round digests (g), each
    compared with a clean run of the same evening."""
    from reliability.report import markdown, rich_summary
    from reliability.servers import LocalClickHouse

    letters = _scenarios(scenario)
    chosen = _kinds(kinds)
    if clickhouse_url and "c" in letters:
        raise typer.BadParameter("scenario c stops the ClickHouse server: run it without --clickhouse")
    settings = Settings(tables=tables, hours=hours, seed=seed, malformed=malformed, background=background,
                        seconds=seconds, partitions=partitions, kills=kills, outage=outage,
                        restart_delay=restart_delay, timeout=timeout, kinds=chosen, resend_share=resend_share,
                        collusion=collusion)
    outdir = out or Path(tempfile.mkdtemp(prefix="pitwatch-reliability-"))
    outdir.mkdir(parents=True, exist_ok=True)
    workdir = outdir / "runs"
    t0 = time.monotonic()
    console.print(f"[bold]pitwatch reliability run[/bold]: scenarios {', '.join(letters)}; results in {outdir}")
    evening = simulate_evening(settings)
    console.print(f"evening: {settings.tables} tables x {settings.hours} h, seed {settings.seed}, "
                  f"dealer collusion {settings.collusion}: {len(evening):,} events")
    figures = []
    server = None if clickhouse_url else LocalClickHouse(workdir / "clickhouse")
    with server or contextlib.nullcontext(), Progress(
            SpinnerColumn(), TextColumn("{task.description:<34}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("committed"), TimeElapsedColumn(), console=console) as progress:
        tasks: dict[str, Any] = {}

        def on_progress(description: str, committed: int, total: int) -> None:
            if description not in tasks:
                tasks[description] = progress.add_task(description, total=total)
            progress.update(tasks[description], completed=committed, total=total)

        def on_note(text: str) -> None:
            progress.console.print(f"  [dim]{text}[/dim]")

        url = clickhouse_url.rstrip("/") if clickhouse_url else server.url("").rstrip("/")  # type: ignore[union-attr]
        ctx = Context(settings, workdir, url, server, evening, progress=on_progress, note=on_note)
        clean = clean_run(ctx)
        same = not any(sum(v) for v in ctx.clean_vs_replay.values())
        progress.console.print(f"clean run: {sum(len(v) for v in clean.snapshot.rows.values()):,} rows in "
                               f"{clean.seconds:.0f} s; same ids and alert rows as the offline replay: "
                               f"{'[green]yes[/green]' if same else '[red]NO[/red] ' + str(ctx.clean_vs_replay)}")
        for letter in letters:
            f = run_scenario(ctx, letter)
            figures.append(f)
            progress.console.print(f"scenario {letter}: {'[green]ok[/green]' if f.ok else '[red]FAILED[/red]'} "
                                   f"(lost {f.lost}, duplicated {f.duplicated}, unexpected {f.unexpected}, "
                                   f"rejected {f.rejected_accounted}/{f.rejected_sent}, alerts "
                                   f"{f.alerts_accounted}/{f.alerts_sent}, alert rows changed {f.alerts_changed}, "
                                   f"digests {f.digests_accounted}/{f.digests_sent}, restarts {f.restarts})")
    total = time.monotonic() - t0
    result: dict[str, Any] = {
        "command": "python -m reliability " + shlex.join(sys.argv[1:]) if sys.argv[1:] else "python -m reliability",
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
        "machine": _machine(),
        "settings": settings.__dict__,
        "evening_events": len(evening),
        "clean_seconds": round(ctx.clean_seconds, 1),
        "clean_rows": {t: len(ids) for t, ids in ctx.clean.rows.items()} if ctx.clean else {},
        "clean_vs_replay": ctx.clean_vs_replay,
        "total_seconds": round(total, 1),
        "scenarios": [f.to_dict() for f in figures],
        "ok": all(f.ok for f in figures) and not any(sum(v) for v in ctx.clean_vs_replay.values()),
    }
    (outdir / "results.json").write_text(json.dumps(result, indent=2) + "\n")
    (outdir / "results.md").write_text(markdown(result, figures))
    console.print(rich_summary(figures))
    console.print(f"total {total / 60:.1f} min; results: {outdir / 'results.json'}, {outdir / 'results.md'}")
    if result["ok"] and not keep:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        console.print(f"logs and data kept in {workdir}")
    raise typer.Exit(0 if result["ok"] else 1)
