"""Every code the report shows has its words in both languages (a new alert kind, disposition or
game cannot slip into the Spanish edition as a code), and the lookup's rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from pitwatch.lifecycle.actions import DISPOSITIONS
from pitwatch.lifecycle.state import STATES
from pitwatch.reports.labels import NAMES, namer
from pitwatch.rules.base import ViolationKind

RULESETS = Path(__file__).resolve().parents[2] / "pitwatch" / "rules" / "rulesets"


def test_every_code_has_its_words():
    games = {p.name.split(".")[0] for p in RULESETS.glob("*.toml")}
    jurisdictions = {p.name.split(".")[1] for p in RULESETS.glob("*.toml")}
    assert games and games <= set(NAMES["game"])
    assert jurisdictions <= set(NAMES["jurisdiction"])
    assert set(ViolationKind.ALL) <= set(NAMES["kind"])
    assert set(STATES) | set(DISPOSITIONS) <= set(NAMES["state"])
    for kind, words in NAMES.items():
        assert all(es and en for es, en in words.values()), kind


def test_namer():
    es, en = namer("es"), namer("en")
    assert es("state", "closed: false_positive") == "cerrada: falso positivo"
    assert en("state", "closed: false_positive") == "closed: false positive"
    assert es("jurisdiction", "andalucia") == "Andalucía" and es("game", "poker") == "Póquer en círculo"
    assert es("kind", "some_new_kind") == "some_new_kind" and es("kind", None) == ""
    with pytest.raises(ValueError, match="es or en"):
        namer("fr")
