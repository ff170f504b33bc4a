"""The reliability run's results as a rich table (terminal), JSON and Markdown (for RELIABILITY.md)."""

from __future__ import annotations

from typing import Any

from reliability.digests import DIGEST_KINDS
from reliability.figures import Figures
from reliability.malformed import KINDS


def _ratio(a: int, b: int) -> str:
    return f"{a:,} / {b:,}"


def summary_rows(figures: list[Figures]) -> list[list[str]]:
    """One row per scenario: the headline figures (:data:`SUMMARY_HEADER`)."""
    rows = []
    for f in figures:
        exits = ", ".join(f"{n}x exit {c}" for c, n in f.exits.items()) or "-"
        rows.append([
            f"{f.scenario}: {f.title}", f"{f.messages:,}", f"{f.lost:,}", f"{f.duplicated:,}", f"{f.unexpected:,}",
            _ratio(f.rejected_accounted, f.rejected_sent), _ratio(f.alerts_accounted, f.alerts_sent),
            f"{f.alerts_changed:,}", _ratio(f.digests_accounted, f.digests_sent) if f.digests else "-",
            f"{f.restarts} ({exits})" if f.restarts else "0",
            "yes" if f.hourly_matches else "NO",
            "yes" if not any(f.topics_missing.values()) else "NO",
            f"{f.seconds:.0f} s", "ok" if f.ok else ("FAILED: " + (f.error or "see figures"))[:60],
        ])
    return rows


SUMMARY_HEADER = ["scenario", "messages", "rows lost", "rows duplicated", "unexpected rows",
                  "rejected as expected / sent", "alerts as expected / sent", "alert rows changed",
                  "digests as expected / sent", "worker restarts",
                  "hourly = settlements", "outputs on topics", "time", "verdict"]


SHORT_HEADER = ["scenario", "msgs", "lost", "dupl", "unexp", "rejected", "alerts",
                "rows chg", "digests", "restarts", "hourly", "topics", "time", "verdict"]


def rich_summary(figures: list[Figures]) -> Any:
    """The summary as a rich table (short headers: RELIABILITY.md and ``results.md`` spell them out)."""
    from rich.table import Table

    t = Table(title="pitwatch reliability run")
    for h in SHORT_HEADER:
        t.add_column(h, justify="left" if h in ("scenario", "verdict") else "right", no_wrap=h != "verdict")
    for row in summary_rows(figures):
        row[0] = row[0].split(":")[0] + ": " + row[0].split(": ", 1)[1][:22]
        t.add_row(*row, style="green" if row[-1] == "ok" else "red")
    return t


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def markdown(result: dict[str, Any], figures: list[Figures]) -> str:
    """The results as Markdown: settings, the summary table, accounting per kind of bad
    message, rows per table, rejection reasons and each scenario's timeline."""
    s = result["settings"]
    lines = [
        f"Command: `{result['command']}`",
        "",
        f"Run of {result['date']} on {result['machine']}: evening of {s['tables']} tables x {s['hours']} h "
        f"(seed {s['seed']}, dealer collusion {s.get('collusion', 0)}): {result['evening_events']:,} events; "
        f"clean run {result['clean_seconds']:.0f} s; "
        f"total {result['total_seconds'] / 60:.1f} min.",
        "",
        "Clean run: " + ", ".join(f"{n:,} {t}" for t, n in result["clean_rows"].items()) + "; against the offline "
        "replay of the same events (ids missing, extra): " + ", ".join(
            f"{t} {m}, {x}" for t, (m, x) in result["clean_vs_replay"].items() if t != "alert rows")
        + "; alerts whose row differs from the replay's (every column): "
        + str(result["clean_vs_replay"].get("alert rows", ["not compared"])[0]) + ".",
        "",
    ]
    lines += _md_table(SUMMARY_HEADER, summary_rows(figures))
    lines += ["", "Accounting of the bad messages, per kind (accounted / sent):", ""]
    kinds = [k for k in KINDS if any(k in f.kinds for f in figures)]
    rows = []
    for k in kinds:
        spec = KINDS[k]
        how = f"alert `{spec.alert}`" if spec.outcome == "alert" else f"rejected (`{spec.reason}`)"
        rows.append([f"`{k}`", how] + [_ratio(f.kinds[k].accounted, f.kinds[k].sent) if k in f.kinds else "-"
                                       for f in figures])
    lines += _md_table(["kind", "accounted as"] + [f.scenario for f in figures], rows)
    lines += ["", "Rows per warehouse table (expected / stored; lost, duplicated, unexpected):", ""]
    tables = list(figures[0].tables) if figures and figures[0].tables else []
    rows = []
    for t in tables:
        cells = []
        for f in figures:
            tf = f.tables.get(t)
            cells.append("-" if tf is None else f"{tf.expected:,} / {tf.stored:,}; {tf.lost}, {tf.duplicated}, {tf.unexpected}")
        rows.append([f"`{t}`"] + cells)
    lines += _md_table(["table"] + [f.scenario for f in figures], rows)
    for f in figures:
        lines += ["", f"Scenario {f.scenario} ({f.title}): {f.messages:,} messages ({f.events:,} events, "
                      f"{f.bad:,} bad), {f.seconds:.0f} s, {f.restarts} worker restart(s); the worker processes "
                      f"consumed {f.consumed:,} messages in all and skipped {f.skipped:,} redelivered ones whose "
                      "results were already stored."]
        if f.timeline:
            lines += [""] + [f"- {e}" for e in f.timeline]
        if f.error:
            lines += ["", "```", f.error[:2000], "```"]
        if f.digests:
            lines.append("")
            lines.append("Sent to `pitwatch.round-digests` by the scenario (accounted / sent): " + "; ".join(
                f"`{k}` {_ratio(kf.accounted, kf.sent)} ({kf.accounted_as}, \"{DIGEST_KINDS[k][1]}\")"
                for k, kf in f.digests.items()) + f". `skipped` rows \"already received\": {f.skipped_received:,}.")
        for k, kf in [*f.kinds.items(), *f.digests.items()]:
            for ex in kf.examples:
                lines.append(f"- not accounted ({k}): {ex}")
        for d in f.alert_diffs:
            lines.append(f"- alert row changed: {d}")
    a = next((f for f in figures if f.scenario == "a"), None)
    if a is not None and a.rejected_by_reason:
        lines += ["", "Rejection reasons in scenario a (numbers and quoted values replaced):", ""]
        lines += _md_table(["rows", "reason"], [[f"{n:,}", f"`{r}`"] for r, n in a.rejected_by_reason.items()])
    return "\n".join(lines) + "\n"
