"""Typed events at the game interface: every function of the rules engine that takes an event names its
class, never ``Any``; the hooks of :class:`pitwatch.rules.game.GameRound` take ``EventBase`` and hand each
event class to one typed operation; nothing dispatches on ``event.type`` strings.

Read from the sources (an AST), so the check holds whether the modules run compiled by mypyc or not."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import EVENT_ADAPTER

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "pitwatch" / "rules"
SKIP = ("models/", "edges/", "rulesets/", "seeds/")
HOOKS = {"on_event", "bet_of", "reopens_betting", "on_movement", "on_table_event"}
"""The hooks of :class:`~pitwatch.rules.game.GameRound` that take an event: ``EventBase`` each."""


def _event_classes() -> set[str]:
    """Names of every event class of the contract's union, and of the two bases."""
    union = EVENT_ADAPTER.core_schema
    assert union  # the adapter is built
    found = {EventBase.__name__, "RoundEvent"}
    stack = list(EventBase.__subclasses__())
    while stack:
        cls = stack.pop()
        found.add(cls.__name__)
        stack.extend(cls.__subclasses__())
    return found


EVENT_CLASSES = _event_classes()


def _sources() -> list[Path]:
    return [p for p in sorted(RULES.rglob("*.py")) if not any(s in p.relative_to(RULES).as_posix() for s in SKIP)]


def _event_parameters() -> list[tuple[str, str, str | None]]:
    """(``path:function``, parameter, its annotation as written) of every parameter named ``event`` or
    ``ev`` of every function under ``pitwatch/rules``."""
    out = []
    for path in _sources():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for arg in node.args.args + node.args.kwonlyargs:
                    if arg.arg in ("event", "ev"):
                        note = ast.unparse(arg.annotation) if arg.annotation is not None else None
                        out.append((f"{path.relative_to(ROOT).as_posix()}:{node.name}", arg.arg, note))
    return out


PARAMETERS = _event_parameters()


def test_the_games_take_events_in_many_places():
    """The list below is not empty by accident: the hooks and the typed operations of every game."""
    names = {n.split(":")[1] for n, _, _ in PARAMETERS}
    assert {"on_event", "on_table_event", "wheel_spun", "ball_landed", "card_dealt", "poker_action",
            "colour_valued", "wheel_stopped", "bank_auctioned", "_table_opened", "_bet_placed"} <= names
    assert len(PARAMETERS) >= 100


@pytest.mark.parametrize("where,name,note", PARAMETERS, ids=[f"{w}:{n}" for w, n, _ in PARAMETERS])
def test_every_event_parameter_names_an_event_class(where, name, note):
    """No ``Any``: a hook takes ``EventBase``; any other function an event class of the contract."""
    assert note in EVENT_CLASSES, (where, name, note)
    if where.rsplit(":", 1)[1] in HOOKS:
        assert note == "EventBase", (where, note)


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.relative_to(RULES).as_posix())
def test_no_dispatch_on_type_strings(path):
    """``event.type == "..."`` and ``t = event.type`` chains are gone: dispatch is by class."""
    text = path.read_text()
    assert ".type ==" not in text and "= event.type" not in text and "= ev.type" not in text
