"""Typed ruleset models (pydantic v2): one per game, unknown keys refused everywhere.

:func:`validate_ruleset` turns a parsed ruleset file (a dict from ``tomllib`` with
``parse_float=Decimal``) into the model of its game (:func:`models`, read from each game's spec), or raises
:class:`RulesetInvalid` listing every problem as ``<key path>: <problem>``.
:func:`pitwatch.rules.base.load_ruleset` does this for every ruleset it loads.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from pitwatch.rules.models.bacara_dos_panos import DosPanosRuleset
from pitwatch.rules.models.blackjack import BlackjackRuleset
from pitwatch.rules.models.chemin_de_fer import CheminDeFerRuleset
from pitwatch.rules.models.common import Ambiguity, RulesetModel, RulesetOptions
from pitwatch.rules.models.poker import PokerRuleset
from pitwatch.rules.models.punto_banca import PuntoBancaRuleset
from pitwatch.rules.models.roulette import RouletteRuleset


def models() -> dict[str, type[RulesetModel]]:
    """Game id (the events' ``game``, the ruleset's ``game`` key) -> the model of its rulesets, for every
    game of the catalogue (each game's :class:`~pitwatch.rules.spec.GameSpec`), in catalogue order."""
    from pitwatch.rules.registry import specs  # the registry imports the games, which import this package

    return {s.game: s.model for s in specs()}


class RulesetInvalid(ValueError):
    """A ruleset file that does not match the model of its game. ``problems`` are
    ``"<key path>: <problem>"`` strings (e.g. ``"rules.dealer_hits_soft17: unknown key"``)."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


_WORDS = {"extra_forbidden": "unknown key", "missing": "missing required key"}


def _problem(err: Any) -> str:
    path = ".".join(str(p) for p in err["loc"]) or "(top level)"
    what = _WORDS.get(err["type"])
    if what is None:
        msg = str(err["msg"]).removeprefix("Value error, ")
        what = msg if err["type"].startswith("value_error") or isinstance(err["input"], dict) \
            else f"{msg} (got {err['input']!r})"
    return f"{path}: {what}"


def validate_ruleset(data: dict[str, Any]) -> RulesetModel:
    """The model of ``data``'s game, validated (an instance of ``MODELS[data["game"]]``).

    Raises :class:`RulesetInvalid` for an unknown or missing ``game``, an unknown key at any depth,
    a missing required key, or a value of the wrong type or outside the law's range.
    """
    game = data.get("game")
    known = models()
    model = known.get(game) if isinstance(game, str) else None
    if model is None:
        raise RulesetInvalid([f"game: {'missing required key' if game is None else f'unknown game {game!r}'} "
                              f"(known: {', '.join(sorted(known))})"])
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RulesetInvalid([_problem(e) for e in exc.errors()]) from None


__all__ = ["Ambiguity", "BlackjackRuleset", "CheminDeFerRuleset", "DosPanosRuleset", "PokerRuleset",
           "PuntoBancaRuleset", "RouletteRuleset", "RulesetInvalid", "RulesetModel", "RulesetOptions", "models",
           "validate_ruleset"]
