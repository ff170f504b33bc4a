"""`pitwatch demo` end to end, as a newcomer runs it (smaller evening, 8 tables: the eighth is
hold'em, and the two ring tables): its own broker, worker and chDB; the summary it writes must show
every injected fault caught, no alert on a clean round, and every ring detected (chip dumping, soft
play and whipsaw at three hold'em ring tables, association at a chemin de fer table, dealer-player
collusion at the punto y banca one) and no other pair."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from pitwatch.replay.dossier import verify as verify_dossier

pytestmark = [pytest.mark.kafka, pytest.mark.slow]


def test_demo_catches_every_injected_fault_and_flags_no_clean_round(tmp_path):
    data = tmp_path / "demo-data"
    proc = subprocess.run(
        [sys.executable, "-m", "pitwatch", "demo", "--tables", "8", "--hours", "0.5", "--seed", "3",
         "--data-dir", str(data)],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "pitwatch demo summary" in proc.stdout
    summary = json.loads((data / "summary.json").read_text())
    assert summary["produced"] > 3000
    assert summary["rounds"] > 100 and summary["bets"] > 500
    # the evening's games, an American roulette and a boule table among them (rounds judged in the warehouse)
    assert set(summary["games"]) == {"french_roulette", "blackjack", "punto_banca", "poker", "chemin_de_fer",
                                     "american_roulette", "boule"}
    assert summary["games"]["american_roulette"] > 10 and summary["games"]["boule"] > 10  # half an hour of spins
    # duplicated events are stored once (events_raw is keyed by event_id)
    labels = [json.loads(x) for x in (data / "events.jsonl.labels.jsonl").read_text().splitlines()]
    dups = sum(1 for lb in labels if lb["kind"] == "duplicated_event")
    assert summary["events"] <= summary["produced"] - dups
    injected = {kind: inj for kind, (_rate, _caught, inj) in summary["recall"].items()}
    assert sum(injected.values()) >= 5, injected
    for kind, (_rate, caught, inj) in summary["recall"].items():
        assert caught == inj, f"{kind}: caught {caught} of {inj}"
    assert summary["alerts_on_clean_rounds"] == []
    assert summary["precision"] == 1.0
    assert summary["alerts"] > 0
    # the ring tables: each ring found by its detector in the worker's watch stage, no other pair
    rings = {(r["kind"], r["table_id"]): (r["found"], r["false"]) for r in summary["rings"]}
    assert rings == {("chip_dumping", "AND-PK-90"): (True, []), ("soft_play", "AND-PK-92"): (True, []),
                     ("whipsaw", "AND-PK-93"): (True, []), ("association", "GAL-CF-92"): (True, []),
                     ("dealer_collusion", "AND-PB-91"): (True, [])}
    assert "collusion alerts on pairs that are not a ring: 0" in proc.stdout
    # the eighth table is hold'em: its hands are judged and the house's win is its rake (at most 5%)
    hands, put_in, rake = summary["poker"]
    assert int(hands) > 5 and 0 < float(rake) <= 0.05 * float(put_in)
    assert "poker hands judged" in proc.stdout
    # what a newcomer opens afterwards: the dashboards' preview and the dossier of a flagged round
    preview = data / "preview" / "dashboards.html"
    assert f"dashboards preview (every panel, drawn from the warehouse): {preview}" in proc.stdout
    assert preview.is_file() and "pitwatch · surveillance room" in preview.read_text()
    dossiers = list((data / "dossier").glob("*.html"))
    assert len(dossiers) == 1 and "payout_discrepancy" in dossiers[0].read_text()
    assert f"auditor's dossier of a flagged round: {dossiers[0]}" in proc.stdout
    assert dossiers[0].with_suffix(".pdf").read_bytes().startswith(b"%PDF")
    assert verify_dossier(json.loads(dossiers[0].with_suffix(".json").read_text()))  # its attested SHA-256 holds
    # the monthly report of each casino of the evening (21 Nov 2026), in HTML, PDF and CSV; the
    # simulated surveillance staff acted on the alerts, so the report has response times
    assert "simulated surveillance staff:" in proc.stdout
    from pitwatch.reports.render import CSV_FILES
    for casino in ("gal-coruna", "and-marbella"):
        pdf = data / "report" / f"{casino}-2026-11.pdf"
        assert f"monthly report {casino} 2026-11 (HTML, PDF, {len(CSV_FILES)} CSV): {pdf}" in proc.stdout
        assert pdf.read_bytes().startswith(b"%PDF") and pdf.with_suffix(".html").is_file()
        assert len(list((data / "report").glob(f"{casino}-2026-11-*.csv"))) == len(CSV_FILES)
    summary_csv = (data / "report" / "gal-coruna-2026-11-summary.csv").read_text()
    assert "median_ack_minutes," in summary_csv and "median_ack_minutes,\n" not in summary_csv
