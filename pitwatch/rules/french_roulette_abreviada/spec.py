"""The spec of ruleta francesa abreviada (:class:`pitwatch.rules.spec.GameSpec`), read by the registry."""

from __future__ import annotations

from pitwatch.rules.french_roulette_abreviada.game import AbreviadaRound
from pitwatch.rules.french_roulette_abreviada.model import ABSENT_KINDS, ALLOWED_KINDS, GAME, AbreviadaRuleset
from pitwatch.rules.spec import GameSpec, Gap

SPEC = GameSpec(
    game=GAME, round=AbreviadaRound, model=AbreviadaRuleset, title="French roulette, abbreviated",
    names=("Ruleta francesa abreviada", "Abbreviated French roulette"),
    simulator="pitwatch.sim.french_roulette_abreviada",
    edges="pitwatch.rules.french_roulette_abreviada.edges",
    cited_by={
        **{f"payouts.{k}": (f"payout_{k}",) for k in ALLOWED_KINDS},
        **{f"payouts.{k}": ("abbreviated_layout",) for k in ABSENT_KINDS},
        **{f"limits.max_multiples.{k}": ("limit_multiple",) for k in ALLOWED_KINDS},
        **{f"limits.max_multiples.{k}": ("abbreviated_layout",) for k in ABSENT_KINDS},
        "limits.simple_chance_min_multiple_max": ("abbreviated_layout",),
        "limits.change_during_session": ("limits_change",),
        "options.max_tier": ("limit_multiple",),
        "options.simple_chance_min_multiple": ("abbreviated_layout",),
        "options.zero_default": ("abbreviated_layout",),
        "options.max_rule": ("limit_multiple", "limit_authorisation"),
        "zero": ("abbreviated_layout",),
    },
    not_checked={
        "andalucia": (
            Gap("bets announced before «no va más» and placed after it: reported as past_posting for an inspector "
                "to clear (no event marks an announced bet)", "004 L403-L408"),
            Gap("a change of the minimum announced over the last three spins (limits_changed is accepted; the "
                "announcement is no event)", "004 L362-L367"),
            Gap("at least one table of the casino open at the authorised minimum (a rule across tables)",
                "004 L369-L372"),
        ),
    },
)
"""The game's spec: its round, ruleset model, edges, labels, simulator, the ruleset keys' citations for
the generated docs, and what the engine does not judge: French roulette's Andalusian gaps, whose rules
apply (004 L443-L446)."""

__all__ = ["SPEC"]
