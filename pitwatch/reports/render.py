"""Render a :class:`~pitwatch.reports.monthly.MonthlyReport` as HTML, PDF and CSV files.

- :func:`render_html`: one self-contained page (template ``templates/monthly.html.j2``, inline SVG
  charts, print CSS for A4 landscape), labels in Spanish or English (:mod:`pitwatch.reports.labels`);
- :func:`write_pdf`: that page through WeasyPrint (no browser needed);
- :func:`write_csv`: one file per table of the report (:data:`CSV_FILES`), UTF-8, comma-separated,
  dot decimals, English column names: what a spreadsheet imports. ``docs/monthly-report.md`` says
  what every column means.

File names: ``<casino>-<month>.html`` / ``.pdf`` and ``<casino>-<month>-<file>.csv``.
"""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable

import jinja2

from pitwatch.reports.charts import alerts_chart, win_chart
from pitwatch.reports.labels import labels, namer
from pitwatch.reports.monthly import MonthlyReport

FORMATS = ("html", "pdf", "csv")
OPEN_SHOWN = 25
"""Open alerts older than 7 days listed in the HTML and PDF (the CSV has them all)."""

_FIGURE_COLUMNS = ("days_open", "bets", "drop", "handle", "win", "hold_percent", "win_per_handle", "theoretical_win",
                   "sd", "deviation_sd", "band_low", "band_high", "outside_band", "commission", "tips", "fills",
                   "credits", "cashed", "float_difference", "peer", "rake", "session_fees", "revenue_check",
                   "limit_breaches")

CSV_FILES: dict[str, tuple[str, ...]] = {
    "summary": ("field", "value"),
    "rulesets": ("ruleset_id", "ruleset_hash", "jurisdiction", "bets"),
    "tables": ("table_id", "game", *_FIGURE_COLUMNS),
    "games": ("game", *_FIGURE_COLUMNS),
    "periods": ("period", "bets", "drop", "handle", "win", "hold_percent", "win_per_handle", "theoretical_win", "sd",
                "deviation_sd", "commission", "tips", "fills", "credits", "cashed", "rake", "session_fees"),
    "limits": ("table_id", "game", "min_bet", "max_bet", "in_force_from", "below_minimum", "above_maximum", "amount"),
    "alerts_by_kind": ("kind", "severity", "count", "amount"),
    "alerts_by_disposition": ("state", "count"),
    "open_alerts_over_7_days": ("alert_id", "kind", "severity", "table_id", "detected_at", "state", "age_days"),
    "alerts_per_day": ("gaming_day", "alerts"),
    "daily_win": ("gaming_day", "game", "win", "theoretical_win"),
    "chain_heads": ("table_id", "seq", "hash", "events"),
}
"""Every CSV file of the report and its columns, in order."""


def _csv_rows(report: MonthlyReport) -> dict[str, list[dict[str, Any]]]:
    d = report.data()
    a = d["alerts"]
    summary = {
        "casino_id": d["casino_id"], "month": d["month"], "nil_return": d["nil_return"],
        "first_gaming_day": d["first_gaming_day"],
        "last_gaming_day": d["last_gaming_day"], "alerts_as_of": d["as_of"], "event_count": d["events"]["count"],
        "first_event": d["events"]["first"], "last_event": d["events"]["last"],
        "gross_gaming_income_ytd": d["gross_gaming_income_ytd"], "alerts": a["total"],
        "acknowledged": a["acknowledged"], "closed": a["closed"], "median_ack_minutes": a["median_ack_minutes"],
        "median_close_minutes": a["median_close_minutes"], "rejected": a["rejected"],
        "quarantined": a["quarantined"], "report_sha256": report.digest,
    }
    return {
        "summary": [{"field": k, "value": "" if v is None else v} for k, v in summary.items()],
        "rulesets": d["rulesets"],
        "tables": [{"table_id": t["label"], **t} for t in [*d["tables"], d["total"]]],
        "games": [{**g, "game": g["label"]} for g in [*d["games"], d["total"]]],
        "periods": [{"period": p["label"], **p} for p in d["periods"]], "limits": d["limits"],
        "alerts_by_kind": a["by_kind"], "alerts_by_disposition": a["by_disposition"],
        "open_alerts_over_7_days": a["open_over_7_days"], "alerts_per_day": a["per_day"], "daily_win": d["daily"],
        "chain_heads": d["chain_heads"],
    }


def write_csv(report: MonthlyReport, out: Path) -> list[Path]:
    """Write :data:`CSV_FILES` under ``out``; returns their paths. An absent value is an empty cell."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, rows in _csv_rows(report).items():
        path = out / f"{report.casino_id}-{report.month}-{name}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, CSV_FILES[name], extrasaction="ignore", lineterminator="\n")
            w.writeheader()
            for r in rows:
                w.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in CSV_FILES[name]})
        paths.append(path)
    return paths


def count_format(lang: str) -> Callable[[Any], str]:
    """A formatter of whole counts for ``lang``: es ``12.345`` (a dot between thousands, from 1.000 on:
    the report's tables align them so), en ``12,345``; ``None`` gives an en dash."""
    def fmt(v: Any) -> str:
        if v is None:
            return "–"
        text = f"{int(v):,}"
        return text.replace(",", ".") if lang == "es" else text
    return fmt


def money_format(lang: str) -> Callable[[Any], str]:
    """A formatter of euro amounts (``Decimal`` or its string) for ``lang``: es ``1.234,56``,
    en ``1,234.56``; ``None`` gives an en dash."""
    def fmt(v: Any) -> str:
        if v is None:
            return "–"
        text = f"{Decimal(v):,.2f}"
        return text.translate(str.maketrans(",.", ".,")) if lang == "es" else text
    return fmt


_ENV = jinja2.Environment(loader=jinja2.PackageLoader("pitwatch.reports", "templates"),
                          autoescape=jinja2.select_autoescape(["html", "j2"]), undefined=jinja2.StrictUndefined)


def table_details(d: dict[str, Any]) -> list[dict[str, Any]]:
    """One entry per table of the report's data ``d`` (:meth:`MonthlyReport.data`), in the order of its
    figures, then the tables with limits or events only: ``table_id``, ``game``, ``limits`` (its rows of
    ``d["limits"]``), ``chain`` (its hash-chain head of ``d["chain_heads"]``, or ``None``). The page
    gives each its own section."""
    out: dict[str, dict[str, Any]] = {t["label"]: {"table_id": t["label"], "game": t["game"], "limits": [],
                                                   "chain": None} for t in d["tables"]}
    for x in d["limits"]:
        entry = out.setdefault(x["table_id"], {"table_id": x["table_id"], "game": x["game"], "limits": [], "chain": None})
        entry["game"] = entry["game"] or x["game"]
        entry["limits"].append(x)
    for h in d.get("chain_heads", []):
        entry = out.setdefault(h["table_id"], {"table_id": h["table_id"], "game": "", "limits": [], "chain": None})
        entry["chain"] = h
    return list(out.values())


def render_html(report: MonthlyReport, lang: str = "es") -> str:
    """The report as one HTML page in ``lang`` (``es`` or ``en``; ``ValueError`` otherwise)."""
    lab = labels(lang)
    d = report.data()
    name = namer(lang)
    charts = {"win": win_chart(d["daily"], lab["chart_win"], lambda g: name("game", g), (lab["win"], lab["theo_short"])),
              "alerts": alerts_chart(d["alerts"]["per_day"], lab["chart_alerts"])}
    return _ENV.get_template("monthly.html.j2").render(details=table_details(d),
        d=d, digest=report.digest, L=lab, lang=lang, money=money_format(lang), count=count_format(lang),
        name=name, charts=charts, open_shown=OPEN_SHOWN)


def write_pdf(html_text: str, path: Path) -> Path:
    """Write ``html_text`` (from :func:`render_html`) as a PDF with WeasyPrint; returns ``path``."""
    import weasyprint

    path.parent.mkdir(parents=True, exist_ok=True)
    weasyprint.HTML(string=html_text).write_pdf(str(path))
    return path


def write_report(report: MonthlyReport, out: Path, formats: tuple[str, ...] = FORMATS, lang: str = "es") -> list[Path]:
    """Write ``report`` in each of ``formats`` under ``out``; returns the paths written. Raises
    ``ValueError`` for an unknown format or language."""
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise ValueError(f"unknown format(s) {', '.join(bad)}: choose among {', '.join(FORMATS)}")
    out.mkdir(parents=True, exist_ok=True)
    stem = f"{report.casino_id}-{report.month}"
    paths: list[Path] = []
    if "html" in formats or "pdf" in formats:
        page = render_html(report, lang)
        if "html" in formats:
            (out / f"{stem}.html").write_text(page, encoding="utf-8")
            paths.append(out / f"{stem}.html")
        if "pdf" in formats:
            paths.append(write_pdf(page, out / f"{stem}.pdf"))
    if "csv" in formats:
        paths += write_csv(report, out)
    return paths


__all__ = ["CSV_FILES", "FORMATS", "OPEN_SHOWN", "count_format", "money_format", "render_html", "table_details",
           "write_csv", "write_pdf",
           "write_report"]
