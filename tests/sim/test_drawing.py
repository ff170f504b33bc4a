"""The simulator's own drawing rules (used to deal clean coups and hands) against the texts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pitwatch.sim.baccarat import banca_draws, next_hand
from pitwatch.sim.blackjack import dealer_must_draw

SEED_000 = Path(__file__).resolve().parents[2] / "pitwatch" / "rules" / "seeds" / "000_e1555249d49967be.txt"


def test_banca_tableau_equals_the_printed_table_cell_by_cell_000_L489_L504():
    """Rows 0-7 of the printed table (L493-L500): punto's third card 0-9, then «P» (punto stood)."""
    lines = SEED_000.read_text(encoding="utf-8").splitlines()[492:500]
    for total, line in enumerate(lines):
        cells = re.findall(r"(?<!\S)[TP](?!\S)", line)[:11]   # two trailing cells repeat «P»
        assert len(cells) == 11, line
        for third, cell in zip([*range(10), None], cells):
            assert banca_draws(total, third) == (cell == "T"), (total, third)


@pytest.mark.parametrize("dealt,nxt", [
    ([], "punto"), ([("punto", "2S")], "banca"), ([("punto", "2S"), ("banca", "3S")], "punto"),
    ([("punto", "4S"), ("banca", "KS"), ("punto", "4D"), ("banca", "2C")], None),   # punto natural 8 (000 L479)
    ([("punto", "3S"), ("banca", "KS"), ("punto", "3D"), ("banca", "9C")], None),   # banca natural 9
    ([("punto", "3S"), ("banca", "KS"), ("punto", "2D"), ("banca", "2C")], "punto"),  # punto 5 draws (L485)
    ([("punto", "3S"), ("banca", "KS"), ("punto", "3D"), ("banca", "5C")], "banca"),  # punto stood on 6, banca 5 draws
    ([("punto", "3S"), ("banca", "KS"), ("punto", "3D"), ("banca", "6C")], None),     # ... banca 6 stands
    ([("punto", "3S"), ("banca", "4S"), ("punto", "2D"), ("banca", "KC"), ("punto", "8H")], None),  # 4 on an 8
    ([("punto", "3S"), ("banca", "4S"), ("punto", "2D"), ("banca", "KC"), ("punto", "7H")], "banca"),  # 4 on a 7
    ([("punto", "3S"), ("banca", "4S"), ("punto", "2D"), ("banca", "KC"), ("punto", "7H"), ("banca", "AS")], None),
])
def test_next_card_of_a_coup_000_L479_L504(dealt, nxt):
    assert next_hand(dealt) == nxt


@pytest.mark.parametrize("cards,draws", [
    (["TS", "6D"], True), (["TS", "7D"], False), (["AS", "6D"], False),   # soft 17 stands (000 L285)
    (["AS", "5D"], True), (["AS", "5D", "TC"], True), (["AS", "6D", "TC"], False), (["5S", "6D", "6C"], False),
])
def test_dealer_draws_below_17_and_stands_on_every_17_000_L285(cards, draws):
    assert dealer_must_draw(cards) is draws
