"""Whipsaw (collusive raising) at póquer en círculo: two players who raise and re-raise each other
with a third player caught between them.

**What it reads.** The decisions of each poker hand (:attr:`pitwatch.detectors.digest.RoundDigest.decisions`,
walked by :func:`pitwatch.detectors.poker_play.situations`). A decision counts when the player
faces a bet or raise of another player (the interval's last aggressor), at least one third player
is still in the hand, and he could raise (the engine says so: chips beyond the call, the betting
open to him; a raise is only possible for players deep enough, so counting the others would make
two deep stacks look like a ring). It is a **hit** when he raises (re-raises the aggressor).

**Reasoning.** A whipsaw ring (004 L4222-L4227, V.a and V.d: playing as a pair, connivance) traps a
third player between two raisers: each raise of one is re-raised by the other, so the player in
the middle must put in more and more chips or give up what he put in. Honest players re-raise now
and then; how often depends on the re-raiser (an aggressive player re-raises everybody) and on the
raiser (everybody re-raises a player who bluffs). The test compares A's rate of re-raising B with
the log5 null of A's re-raises of everybody else and B's rate of being re-raised by everybody else
(:mod:`pitwatch.detectors.pair_rates`), both directions combined
(:mod:`pitwatch.detectors.pair_behaviour`); more hits than the null is the ring's direction.

**Thresholds** (:data:`DEFAULTS`): ``z`` at least 5.5, at least 20 decisions of the pair facing each
other's bets with a third player in, and 100 such decisions of each player with the others. Their
figures are in DETECTION.md.

**Emits** ``whipsaw`` alerts naming both players; ``amount`` is the euros the other players put in
the hands where the pair re-raised each other.
"""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar

from pitwatch.detectors.digest import RoundDigest
from pitwatch.detectors.pair_behaviour import PairBehaviourDetector, PairThresholds
from pitwatch.detectors.poker_play import situations
from pitwatch.rules.base import ViolationKind

KIND = ViolationKind.WHIPSAW
CITATION = ("prohibitions of póquer en círculo (jugar por parejas, la connivencia entre jugadores): "
            "004_5c9c19b250457762.txt L4222-L4227 (I.1.10 V.a, V.d)")
DEFAULTS = PairThresholds(z_min=5.5, min_decisions=20, min_baseline=100)


class WhipsawDetector(PairBehaviourDetector):
    """The whipsaw detector (module docstring). A :class:`pitwatch.detectors.base.Detector`."""

    name: ClassVar[str] = KIND
    kind: ClassVar[str] = KIND
    SIGN: ClassVar[int] = 1
    CITATION: ClassVar[str] = CITATION
    DEFAULTS: ClassVar[PairThresholds] = DEFAULTS
    WHAT: ClassVar[str] = "re-raised, a third player in,"

    def counted(self, digest: RoundDigest) -> list[tuple[str, str, bool]]:
        """Each decision facing another's bet with a third player in: ``(player, aggressor, raise)``."""
        return [(s.player, s.aggressor, s.action == "raise") for s in situations(digest.decisions)
                if s.open and s.aggressor and s.aggressor != s.player and len(s.opponents() - {s.aggressor}) >= 1]

    def at_stake(self, digest: RoundDigest, pair: tuple[str, str], hits: int) -> Decimal:
        """What the other players put in the hand, when the pair re-raised each other in it."""
        if not hits:
            return Decimal("0.00")
        return sum((b.stake for b in digest.bets if b.player_id not in pair), Decimal("0.00"))


__all__ = ["CITATION", "DEFAULTS", "KIND", "WhipsawDetector"]
