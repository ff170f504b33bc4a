"""The spec of ruleta francesa abreviada (:class:`pitwatch.rules.spec.GameSpec`), read by the registry."""

from __future__ import annotations

from pitwatch.rules.french_roulette_abreviada.game import AbreviadaRound
from pitwatch.rules.french_roulette_abreviada.model import ABSENT_KINDS, ALLOWED_KINDS, GAME, AbreviadaRuleset
from pitwatch.rules.spec import GameSpec

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
)
"""The game's spec: its round, ruleset model, edges, labels, simulator, and the ruleset keys' citations
for the generated docs."""

__all__ = ["SPEC"]
