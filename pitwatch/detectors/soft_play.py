"""Soft play at póquer en círculo: two players who do not bet into each other.

**What it reads.** The decisions of each poker hand (:attr:`pitwatch.detectors.digest.RoundDigest.decisions`,
walked by :func:`pitwatch.detectors.poker_play.situations`). A decision counts when the hand is
**heads-up** (the player and one opponent are all that is left of it) and the player could bet or
raise (the engine says so: chips beyond the call, the betting open to him). It is a **hit** when he bets
or raises (he puts his opponent to a decision), else a check, a call or a fold.

**Reasoning.** Partners who play as a pair (004 L4222, V.a) do not fight over a pot between them:
left alone in a hand, they check it down or call, and keep their bets for the others. A player's
aggression heads-up depends on him (a loose or a timid player) and on the opponent (everybody bets
into a player who folds easily): the test compares A's rate of betting into B with the log5 null of
A's rate against everybody else and B's rate of being bet into by everybody else
(:mod:`pitwatch.detectors.pair_rates`), not with the table's rate. Both directions (A into B, B into
A) are combined (:mod:`pitwatch.detectors.pair_behaviour`); fewer hits than the null is the ring's
direction. Heads-up decisions are the clean case: in a multiway pot, a player who checks may be
checking to the others. A call of an all-in bet is no decision: nothing is left to raise.

**Thresholds** (:data:`DEFAULTS`): ``z`` at least 5.5 (a one-sided p of about 2e-8: a casino
follows tens of thousands of pairs), at least 30 heads-up decisions of the pair and 100 of each
player with the others. Their figures (false alarms on honest simulated and real hands, recall on
injected rings) are in DETECTION.md.

**Emits** ``soft_play`` alerts naming both players; ``amount`` is the euros both put in the hands
they played heads-up against each other.
"""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar

from pitwatch.detectors.digest import RoundDigest
from pitwatch.detectors.pair_behaviour import PairBehaviourDetector, PairThresholds
from pitwatch.detectors.poker_play import AGGRESSIVE, situations
from pitwatch.rules.base import ViolationKind

KIND = ViolationKind.SOFT_PLAY
CITATION = ("prohibitions of póquer en círculo (jugar por parejas, la connivencia entre jugadores): "
            "004_5c9c19b250457762.txt L4222-L4227 (I.1.10 V.a, V.d)")
DEFAULTS = PairThresholds(z_min=5.5, min_decisions=30, min_baseline=100)


class SoftPlayDetector(PairBehaviourDetector):
    """The soft-play detector (module docstring). A :class:`pitwatch.detectors.base.Detector`."""

    name: ClassVar[str] = KIND
    kind: ClassVar[str] = KIND
    SIGN: ClassVar[int] = -1
    CITATION: ClassVar[str] = CITATION
    DEFAULTS: ClassVar[PairThresholds] = DEFAULTS
    WHAT: ClassVar[str] = "bet or raised heads-up into"

    def counted(self, digest: RoundDigest) -> list[tuple[str, str, bool]]:
        """Each heads-up decision: ``(player, his one opponent, bet or raise)``."""
        out = []
        for s in situations(digest.decisions):
            if len(s.live) == 2 and s.open:
                (opponent,) = s.opponents()
                out.append((s.player, opponent, s.action in AGGRESSIVE))
        return out

    def at_stake(self, digest: RoundDigest, pair: tuple[str, str], hits: int) -> Decimal:
        """What both players put in the hand."""
        return sum((b.stake for b in digest.bets if b.player_id in pair), Decimal("0.00"))


__all__ = ["CITATION", "DEFAULTS", "KIND", "SoftPlayDetector"]
