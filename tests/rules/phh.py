"""The 999 real hold'em hands of ``tests/data/phh`` (PHH, MIT licence), read as the poker tests
need them: every hand in file order, and the blinds each seat posted."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from functools import cache
from pathlib import Path

PHH = Path(__file__).resolve().parents[1] / "data" / "phh" / "abs-100NLH-handhq_1.phhs"


@cache
def real_hands() -> tuple[dict, ...]:
    """Every hand (a TOML table of the ``.phhs`` file), ``[1]`` first."""
    data = tomllib.loads(PHH.read_text())
    return tuple(data[k] for k in sorted(data, key=int))


def posted_blinds(hand: dict) -> list[Decimal]:
    """The blind each seat ``p1``..``pn`` posted: ``blinds_or_straddles``, reversed heads-up, as
    PHH and pokerkit write a two-player hand (the big blind is not the button)."""
    blinds = [Decimal(str(b)) for b in hand["blinds_or_straddles"]]
    return blinds[::-1] if len(blinds) == 2 else blinds
