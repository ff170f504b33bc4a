"""The spec of boule (:class:`pitwatch.rules.spec.GameSpec`): its round, ruleset model, edges, simulator, names,
and which citations explain each ruleset key in the generated docs."""

from __future__ import annotations

from pitwatch.rules.boule.game import BouleRound
from pitwatch.rules.boule.model import CHANCES, BouleRuleset
from pitwatch.rules.spec import GameSpec

SPEC = GameSpec(
    game="boule", round=BouleRound, model=BouleRuleset, title="Boule (bola)", names=("Bola o boule", "Boule"),
    simulator="pitwatch.sim.boule", edges="pitwatch.rules.boule.edges",
    cited_by={
        "payouts.straight": ("payout_number", "payment"),
        "payouts.simple": ("payout_simple", "payment"),
        "layout.numbers": ("holes",),
        "layout.holes_per_number": ("holes",),
        "layout.neutral": ("five", "colours"),
        **{f"layout.chances.{c}": ("colours" if c in ("red", "black") else "simple_chances",) for c in CHANCES},
        "limits.max_panos": ("panos",),
        "limits.pano_minimum_multiples": ("limit_pano_minimum",),
        "limits.straight_max_range": ("limit_max_number",),
        "limits.simple_max_range": ("limit_max_simple",),
        "limits.max_per_player": ("limit_per_player",),
        "options.panos": ("panos", "limit_minimum", "limit_pano_minimum"),
        "options.max_straight_multiple": ("limit_max_number",),
        "options.max_simple_multiple": ("limit_max_simple",),
    },
)
"""The game's spec (:mod:`pitwatch.rules.registry`)."""
