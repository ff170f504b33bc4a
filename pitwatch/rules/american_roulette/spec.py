"""The spec of American roulette with one zero (:class:`pitwatch.rules.spec.GameSpec`): its round, ruleset
model, edges, simulator, names, and which citations explain each ruleset key in the generated docs."""

from __future__ import annotations

from pitwatch.rules.american_roulette.game import AmericanRouletteRound
from pitwatch.rules.american_roulette.model import AmericanRouletteRuleset
from pitwatch.rules.models.roulette import KIND_NAMES
from pitwatch.rules.spec import GameSpec, Gap

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
    not_checked={
        "galicia": (
            Gap("the order of payment (double columns and columns first, straight-ups last; a player's winning "
                "bets paid at once): a settlement carries no order", "000 L233"),
            Gap("a colour's value fitted to the casino's value chips (their denominations are no event)", "000 L207"),
            Gap("at least one table of the casino open at the authorised minimum (a rule across tables; French "
                "roulette's, by 000 L199)", "000 L171-L173"),
        ),
        "andalucia": (
            Gap("a colour's value fitted to the casino's value chips (their denominations are no event)",
                "004 L484-L486"),
            Gap("bets announced before «no va más» and placed after it: reported as past_posting for an inspector "
                "to clear (no event marks an announced bet)", "004 L403-L408"),
            Gap("a change of the minimum announced over the last three spins (limits_changed is accepted; the "
                "announcement is no event)", "004 L362-L367"),
            Gap("at least one table of the casino open at the authorised minimum (a rule across tables)",
                "004 L369-L372"),
        ),
    },
)
"""The game's spec (:mod:`pitwatch.rules.registry`); ``not_checked`` lists what the engine does not judge
of each section, French roulette's rules included where they apply (000 L199; 004 L564-L568)."""
