"""The spec of American roulette with one zero (:class:`pitwatch.rules.spec.GameSpec`): its round, ruleset
model, edges, simulator, names, and which citations explain each ruleset key in the generated docs."""

from __future__ import annotations

from pitwatch.rules.american_roulette.game import AmericanRouletteRound
from pitwatch.rules.american_roulette.model import AmericanRouletteRuleset
from pitwatch.rules.models.roulette import KIND_NAMES
from pitwatch.rules.spec import GameSpec

SPEC = GameSpec(
    game="american_roulette", round=AmericanRouletteRound, model=AmericanRouletteRuleset,
    title="American roulette (one zero)", names=("Ruleta americana", "American roulette"),
    simulator="pitwatch.sim.american_roulette", edges="pitwatch.rules.american_roulette.edges",
    cited_by={
        **{f"payouts.{k}": ("same_principles", f"payout_{k}") for k in KIND_NAMES},
        **{f"limits.max_multiples.{k}": ("limit_simple" if k == "simple" else "limit_multiple",) for k in KIND_NAMES},
        "limits.simple_chance_min_multiple_max": ("limit_simple_minimum",),
        "limits.change_during_session": ("limits_change",),
        "options.max_tier": ("limit_simple", "limit_multiple"),
        "options.simple_chance_min_multiple": ("limit_simple_minimum",),
        "options.max_rule": ("limit_multiple", "limit_authorisation"),
        "zero.simple_lost_fraction": ("zero_half",),
        "colours.default_value": ("colour_default",),
        "colours.value_maximum_kind": ("colour_value",),
        "colours.payable_with_minimum": ("payable_with_minimum", "colour_value"),
    },
)
"""The game's spec (:mod:`pitwatch.rules.registry`)."""
