"""The wheel of fortune's :class:`~pitwatch.rules.spec.GameSpec` (its catalogue entry names this module)."""

from __future__ import annotations

from pitwatch.rules.spec import GameSpec, Gap
from pitwatch.rules.wheel_of_fortune.events import SYMBOLS
from pitwatch.rules.wheel_of_fortune.game import WheelOfFortuneRound
from pitwatch.rules.wheel_of_fortune.model import WheelOfFortuneRuleset

SPEC = GameSpec(
    game="wheel_of_fortune", round=WheelOfFortuneRound, model=WheelOfFortuneRuleset, title="Wheel of fortune",
    names=("Rueda de la fortuna", "Wheel of fortune"), simulator="pitwatch.sim.wheel_of_fortune",
    edges="pitwatch.rules.wheel_of_fortune.edges",
    cited_by={
        "wheel.segments": ("wheel",),
        "wheel.direction": ("wheel_spin", "wheel_direction"),
        "wheel.impulses": ("wheel_spin",),
        "wheel.min_turns": ("wheel_spin", "wheel_turns"),
        **{f"symbols.{s}.segments": ("wheel", "combinations") for s in SYMBOLS},
        **{f"symbols.{s}.payout": ("payouts", "stake_returned") for s in SYMBOLS},
        "procedure.void_if_obstructed": ("void_round", "void_obstruction"),
        "procedure.pay_smallest_first": ("stake_returned", "payment_order"),
        "procedure.void_only_listed": ("void_round",),
    },
    not_checked={
        "galicia": (
            Gap("the wheel's «numerosas vueltas» before it stops: the text gives no number, so the turns are not "
                "judged", "000 L1095"),
        ),
        "andalucia": (
            Gap("the second impulse given at the same time as «no va más» is announced: the order of the two "
                "events (wheel_spun, bets_closed) is not judged", "004 L5762-L5765"),
        ),
    },
)
"""The game's spec (:mod:`pitwatch.rules.registry`): its round, ruleset model, edges, labels, simulator,
and the ruleset keys' citations for the generated docs."""
