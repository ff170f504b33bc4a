"""Typed events at the game interface of the card games between players and punto y banca (issue 22,
"Typed dispatch"): every hook and helper of punto y banca, póquer, chemin de fer and bacará a dos paños
that takes an event names its class (the hooks the base's, ``RoundEvent`` / ``EventBase``), and the
dispatch by class keeps the verdicts of the events each game does not know (the messages written out by
hand)."""

from __future__ import annotations

import importlib
import inspect
from decimal import Decimal
from types import ModuleType
from typing import Any, Callable, Iterator

import pytest
from pitwatch.rules.base import RoundVerdict
from pitwatch.schemas import events as E
from pitwatch.schemas.dos_panos import CardsLost
from pitwatch.schemas.envelope import EventBase, RoundEvent

from tests.rules.cdf_coups import DP_GAL, GAL, Table
from tests.rules.poker_hands import Table as PokerTable
from tests.rules.poker_hands import judge

MODULES = (
    "pitwatch.rules.baccarat",
    "pitwatch.rules.poker.game",
    "pitwatch.rules.poker.variants",
    "pitwatch.rules.poker.draw",
    "pitwatch.rules.poker.stud",
    "pitwatch.rules.poker.revenue",
    "pitwatch.rules.chemin_de_fer.banked",
    "pitwatch.rules.chemin_de_fer.game",
    "pitwatch.rules.dos_panos.game",
)
HOOKS = {"on_event": RoundEvent, "bet_of": RoundEvent, "reopens_betting": RoundEvent,
         "on_movement": EventBase, "on_table_event": EventBase}
"""The hooks of :class:`pitwatch.rules.game.GameRound` that take an event, and the type they take."""


def _functions(module: ModuleType) -> Iterator[tuple[str, Callable[..., Any]]]:
    """(qualified name, function) of every function and method defined in ``module``."""
    for name, obj in vars(module).items():
        if inspect.isfunction(obj) and obj.__module__ == module.__name__:
            yield name, obj
        elif inspect.isclass(obj) and obj.__module__ == module.__name__:
            for attr, member in vars(obj).items():
                fn = member.__func__ if isinstance(member, staticmethod) else member
                if inspect.isfunction(fn):
                    yield f"{name}.{attr}", fn


def _event_parameters() -> list[tuple[str, Callable[..., Any]]]:
    out = []
    for path in MODULES:
        for name, fn in _functions(importlib.import_module(path)):
            if "event" in inspect.signature(fn).parameters:
                out.append((f"{path}:{name}", fn))
    return out


EVENT_PARAMETERS = _event_parameters()


def test_the_card_games_take_events_in_many_places():
    """The list below is not empty by accident: the hooks and the typed operations of the four games."""
    names = {n.split(":")[1] for n, _ in EVENT_PARAMETERS}
    assert {"PuntoBancaRound.on_event", "PuntoBancaRound.card_dealt", "PokerRound.poker_action",
            "DrawRules.cards_discarded", "BankedRound.on_event", "DosPanosRound.bank_auctioned",
            "table_opened", "fee_taken", "session_closed"} <= names
    assert len(EVENT_PARAMETERS) >= 40


@pytest.mark.parametrize("name,fn", EVENT_PARAMETERS, ids=[n for n, _ in EVENT_PARAMETERS])
def test_every_event_parameter_names_an_event_class(name, fn):
    """No ``Any``: the parameter is an event class; a hook takes the base's type, anything else the exact
    class it reads."""
    annotation = inspect.get_annotations(fn, eval_str=True).get("event")
    assert inspect.isclass(annotation) and issubclass(annotation, EventBase), (name, annotation)
    hook = HOOKS.get(fn.__name__)
    if hook is not None:
        assert annotation is hook, (name, annotation)
    else:
        assert annotation not in (EventBase, RoundEvent), (name, annotation)


def test_an_event_of_another_game_in_a_punto_y_banca_coup_is_a_procedure_violation():
    """A wheel spun in a coup of punto y banca: no event of this game, flagged once, citing the deal order."""
    t = Table("punto_banca.galicia", min_bet="10", max_bet="1000")
    rid = "PB-0001"
    t.apply(E.RoundStarted, rid)
    t.apply(E.WheelSpun, rid, direction="clockwise")
    (verdict,) = t.apply(E.RoundEnded, rid)
    assert isinstance(verdict, RoundVerdict)
    found = [(v.kind, v.message) for v in verdict.violations if "does not belong" in v.message]
    assert found == [("procedure", "event wheel_spun does not belong to punto y banca")]


@pytest.mark.parametrize("ruleset,label", [(GAL, "chemin de fer"), (DP_GAL, "bacará a dos paños")])
def test_an_event_of_another_game_in_a_banked_coup_is_a_procedure_violation(ruleset, label):
    """A wheel spun in a coup of chemin de fer or of bacará a dos paños: flagged once, by the game's name."""
    t = Table(ruleset)
    c = t.coup()
    c._e(E.WheelSpun, direction="clockwise")
    (verdict,) = t.apply(E.RoundEnded, c.rid)
    found = [(v.kind, v.message) for v in verdict.violations if "does not belong" in v.message]
    assert found == [("procedure", f"event wheel_spun does not belong to {label}")]


def test_cards_lost_belong_to_dos_panos_and_not_to_chemin_de_fer():
    """``cards_lost`` is dos paños' own event (its paño void), a foreign one at chemin de fer."""
    t = Table(GAL)
    c = t.coup()
    c._e(CardsLost, hand="banca")
    (verdict,) = t.apply(E.RoundEnded, c.rid)
    assert [v.message for v in verdict.violations if "does not belong" in v.message] == [
        "event cards_lost does not belong to chemin de fer"]
    t = Table(DP_GAL)
    c = t.coup().lost("1")
    (verdict,) = t.apply(E.RoundEnded, c.rid)
    assert [v.message for v in verdict.violations if "does not belong" in v.message] == []


def test_a_session_fee_taken_during_a_hand_is_judged_as_at_the_table():
    """A ``session_fee_taken`` that names the hand (its ``round_id``) is still the session's benefit: a fixed
    fee of 5.00, B pays 6.00 during hand H1: 1.00 too much, a ``rake_discrepancy`` of the hand."""
    t = PokerTable(revenue="session_fee", session_fee="5.00")
    h = t.hand(1, {"A": (1, "100.00"), "B": (2, "100.00")})
    h.ev("session_fee_taken", player_id="B", amount="6.00")
    h.end()
    (v,) = judge(t)
    assert [(x.kind, x.player_id, x.amount) for x in v.violations] == [("rake_discrepancy", "B", Decimal("1.00"))]


def test_a_tip_from_a_player_of_the_hand_is_no_movement_of_his_stack():
    """A tip (``tip_received``) from a player dealt in, once the cards are out, is neither chips added to his
    stack (V.e) nor chips cashed (V.g); a player not dealt in cashes chips freely during the hand."""
    t = PokerTable()
    h = t.hand(1, {"A": (1, "100.00"), "B": (2, "100.00")})
    h.deal(1, "AS", "KD").deal(2, "2C", "7H")
    t.add(None, "tip_received", "A", player_id="A", amount="5.00")
    t.add(None, "chips_cashed", "C", player_id="C", amount="40.00")
    h.end()
    (v,) = judge(t)
    assert [x for x in v.violations if x.kind == "prohibited_play"] == []
