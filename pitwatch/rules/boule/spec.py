"""The spec of boule (:class:`pitwatch.rules.spec.GameSpec`): its round, ruleset model, edges, simulator, names,
and which citations explain each ruleset key in the generated docs."""

from __future__ import annotations

from pitwatch.rules.boule.game import BouleRound
from pitwatch.rules.boule.model import CHANCES, BouleRuleset
from pitwatch.rules.spec import GameSpec, Gap

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
    not_checked={
        "galicia": (
            Gap("the croupiers' rotation in launching the ball, none of them specialising in it (the rotation is "
                "no event; dealer_assigned records who deals)", "000 L353"),
            Gap("the ball's «numerosas vueltas» round the bowl before it reaches the holes (no event counts "
                "them)", "000 L373"),
        ),
        "espana": (
            Gap("the croupiers' rotation in launching the ball, none of them specialising in it (the rotation is "
                "no event; dealer_assigned records who deals)", "002 L31"),
            Gap("the ball's «numerosas vueltas» round the bowl before it reaches the holes (no event counts "
                "them)", "002 L59"),
        ),
        "andalucia": (
            Gap("the croupiers' rotation in launching the ball, none of them specialising in it (the rotation is "
                "no event; dealer_assigned records who deals)", "004 L957-L961"),
            Gap("the ball's «numerosas vueltas» round the bowl before it reaches the holes (no event counts "
                "them)", "004 L1009-L1012"),
        ),
    },
)
"""The game's spec (:mod:`pitwatch.rules.registry`)."""
