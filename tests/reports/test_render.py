"""The monthly report as HTML, PDF and CSV, and ``pitwatch report monthly``: on the hand-worked
month of tests/reports/test_monthly.py (chDB). The PDF is rendered with poppler's ``pdftoppm`` and
read back with ``pdftotext``; the CSV files are read back with the csv module and checked against
their documentation (docs/monthly-report.md)."""

from __future__ import annotations

import csv
import re
from decimal import Decimal
from pathlib import Path

import pytest
from pitwatch.cli import app
from pitwatch.reports.monthly import build_monthly
from pitwatch.reports.render import CSV_FILES, money_format, render_html, write_report
from pitwatch.warehouse import open_warehouse
from typer.testing import CliRunner

from tests.fixtures.batches import store_rows
from tests.fixtures.poppler import pdf_pages, pdf_text
from tests.test_accounting import _processed

DOCS = Path(__file__).resolve().parents[2] / "docs" / "monthly-report.md"


@pytest.fixture
def report(chdb_url):
    store_rows(chdb_url, _processed().rows)
    with open_warehouse(chdb_url) as wh:
        return chdb_url, build_monthly(wh, "gal-acc", "2026-11")


def test_html_in_spanish_by_default_and_in_english(report):
    """Spanish labels and number format (1.234,56) by default, English on request; the table
    outside its 95% band is marked; the digest is on the front page."""
    _, r = report
    es, en = render_html(r), render_html(r, "en")
    assert "Informe mensual de juegos de mesa" in es and "Monthly table-games report" in en
    assert "-270,00" in es and "-270.00" in en and "2.000,00" in es and "2,000.00" in en
    assert re.search(r'<tr class="out" id="table-RF-ACC" title="fuera de la banda del 95 %">\s*<td>RF-ACC</td>', es)
    assert f'id="digest">{r.digest}<' in es and es.count("<svg") == 2
    with pytest.raises(ValueError, match="es or en"):
        render_html(r, "fr")


def test_money_format():
    es, en = money_format("es"), money_format("en")
    assert (es(Decimal("-1234567.5")), en("1234567.50"), es(None)) == ("-1.234.567,50", "1,234,567.50", "–")


def test_pdf_pages_render_and_carry_the_figures(report, tmp_path):
    """Every page of the PDF renders to a PNG with pdftoppm; the text layer has the casino, the
    hand-worked figures, the ruleset and the digest (front page), the alerts and the charts' titles."""
    _, r = report
    (pdf,) = write_report(r, tmp_path, ("pdf",))
    pages = pdf_pages(pdf, tmp_path)
    assert len(pages) == 4  # front, figures, alerts, charts (each section starts a page)
    assert all(p.stat().st_size > 2000 for p in pages)  # drawn, not blank
    text = pdf_text(pdf)
    front = text.split("\f")[0]
    assert "gal-acc" in front and "french_roulette.galicia" in front and r.digest in front
    for figure in ("740,00", "100,00", "-270,00", "-36,49", "80,41", "-3,38", "-30,00"):
        assert figure in text, figure
    assert "Descuadre del anticipo" in text and "Alertas por día de juego" in text


def test_csv_files_are_the_documented_tables(report, tmp_path):
    """One file per table of the report, header = the documented columns, dot decimals; the
    table line equals the report's data; every file and column is described in docs/monthly-report.md."""
    _, r = report
    paths = write_report(r, tmp_path, ("csv",))
    assert sorted(p.name for p in paths) == sorted(f"gal-acc-2026-11-{n}.csv" for n in CSV_FILES)
    docs = DOCS.read_text()
    for name, columns in CSV_FILES.items():
        with (tmp_path / f"gal-acc-2026-11-{name}.csv").open(newline="") as fh:
            rows = list(csv.reader(fh))
        assert tuple(rows[0]) == columns
        assert f"`{name}.csv`" in docs, name
        section = docs.split(f"`{name}.csv`", 1)[1].split("\n### ", 1)[0]
        for c in columns:
            assert f"`{c}`" in section, (name, c)
    with (tmp_path / "gal-acc-2026-11-tables.csv").open(newline="") as fh:
        line, total = list(csv.DictReader(fh))
    assert {k: v for k, v in total.items() if k not in ("table_id", "game")} == {
        k: v for k, v in line.items() if k not in ("table_id", "game")}  # one table: the total is its line
    assert (total["table_id"], total["game"]) == ("total", "")
    assert {k: line[k] for k in ("table_id", "drop", "handle", "win", "hold_percent", "deviation_sd",
                                 "outside_band", "float_difference")} == {
        "table_id": "RF-ACC", "drop": "740.00", "handle": "100.00", "win": "-270.00", "hold_percent": "-36.49",
        "deviation_sd": "-3.38", "outside_band": "True", "float_difference": "-30.00"}
    with (tmp_path / "gal-acc-2026-11-summary.csv").open(newline="") as fh:
        summary = dict(csv.reader(fh))
    assert summary["report_sha256"] == r.digest and summary["median_ack_minutes"] == ""


def test_cli_writes_the_three_formats_and_prints_the_digest(report, tmp_path):
    url, r = report
    res = CliRunner().invoke(app, ["report", "monthly", "--casino", "gal-acc", "--month", "2026-11",
                                   "--warehouse", url, "--out", str(tmp_path), "--lang", "en"])
    assert res.exit_code == 0, res.output
    assert f"report data SHA-256: {r.digest}" in res.output
    assert (tmp_path / "gal-acc-2026-11.pdf").read_bytes().startswith(b"%PDF")
    assert "Monthly table-games report" in (tmp_path / "gal-acc-2026-11.html").read_text()
    assert len(list(tmp_path.glob("*.csv"))) == len(CSV_FILES)


@pytest.mark.parametrize("args, message", [
    (["--month", "2026-1"], "month must be YYYY-MM"),
    (["--format", "html,docx"], "--format takes"),
    (["--lang", "fr"], "--lang must be es or en"),
])
def test_cli_usage_errors(report, tmp_path, args, message):
    url, _ = report
    base = {"--casino": "gal-acc", "--month": "2026-11", "--warehouse": url, "--out": str(tmp_path)}
    for flag, value in zip(args[::2], args[1::2]):
        base[flag] = value
    res = CliRunner().invoke(app, ["report", "monthly", *[x for kv in base.items() for x in kv]])
    assert res.exit_code == 2 and message in res.output, res.output
    assert list(tmp_path.iterdir()) == []


def test_cli_unknown_casino_gets_a_nil_return_and_a_warning(report, tmp_path):
    """A casino id the warehouse has never seen: a nil return (no error) and a warning about the id."""
    url, _ = report
    res = CliRunner().invoke(app, ["report", "monthly", "--casino", "gal-nope", "--month", "2026-11",
                                   "--warehouse", url, "--out", str(tmp_path), "--format", "csv"])
    assert res.exit_code == 0 and "never seen casino 'gal-nope'" in res.output, res.output
    assert "writing a nil return" in res.output
