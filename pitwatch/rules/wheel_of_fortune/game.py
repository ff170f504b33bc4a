"""One spin of the wheel of fortune: the bets on the symbols, the spin, the result, the payment.

Game value ``wheel_of_fortune``; rulesets ``wheel_of_fortune.galicia`` (seed 000_e1555249d49967be.txt
L1053-L1097, «10. Ruleta de la fortuna») and ``wheel_of_fortune.andalucia`` (seed
004_5c9c19b250457762.txt L5665-L5796, «I.1.11 Rueda de la Fortuna»). Every segment count, payout,
spin rule and citation is read from the ruleset file.

Spot codes: a bet is on one symbol, its spot code the symbol's code
(:data:`~pitwatch.rules.wheel_of_fortune.events.SYMBOLS`, a bare word: ``fortune_24``, ``fortune_15``,
``fortune_7``, ``fortune_4``, ``fortune_2``, and Galicia's ``fortune_joker_red`` / ``fortune_joker_black``
or Andalucía's ``fortune_figure_1`` / ``fortune_figure_2``). A symbol the table's wheel does not show (a
figure at a Galician table, a roulette spot) is ``invalid_bet``. A bet on a symbol wins when the wheel
stops on one of its segments: the stake back plus ``payout`` x the stake; any other stop loses it.

The spin (the events: :mod:`pitwatch.rules.wheel_of_fortune.events`): ``wheel_spun`` per impulse
(``[wheel] impulses`` of them, each in ``[wheel] direction``), ``bets_closed``, one ``wheel_stopped``.
A spin is void by the text (Andalucía 004 L5769-L5786) when the pointer rests on a pivot, when the wheel
made fewer than ``[wheel] min_turns`` full turns after the last impulse, or when it was obstructed
(``[procedure] void_if_obstructed``); a wheel on a pivot gives no result in Galicia either (000 L1095).
Such a spin is due as a void round (every stake back), and a round not voided is a procedure violation.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from pitwatch.rules.base import (
    Bet,
    ExpectedSettlement,
    Violation,
    ViolationKind,
    limit_violations,
)
from pitwatch.rules.game import GameRound, TableContext
from pitwatch.rules.wheel_of_fortune.events import WheelStopped
from pitwatch.rules.wheel_of_fortune.model import WheelOfFortuneRuleset
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import WheelSpun
from pitwatch.schemas.money import ZERO


def rules_of(ctx: TableContext) -> WheelOfFortuneRuleset:
    """The wheel of fortune model of the table's ruleset; raises ``RuleError`` for another game's."""
    return ctx.ruleset.model_as(WheelOfFortuneRuleset)


def payouts(ctx: TableContext) -> dict[str, Decimal]:
    """Symbol code -> net winnings per euro staked on it, for the table's wheel (computed once per
    table: ``ctx.derived``). Source: 000 L1085; 004 L5731-L5748."""
    return ctx.derived(("wheel_of_fortune_payouts",),  # type: ignore[no-any-return]
                       lambda: {code: s.payout for code, s in rules_of(ctx).symbols.items()})


@dataclass(frozen=True)
class Stop:
    """Where the wheel came to rest (a ``wheel_stopped`` event): ``symbol`` (``None`` on a pivot),
    ``on_pivot``, ``turns`` (full turns after the last impulse, ``None`` if not measured),
    ``obstructed`` and the event's id."""

    symbol: str | None
    on_pivot: bool
    turns: int | None
    obstructed: bool
    event_id: str


class WheelOfFortuneRound(GameRound):
    """One spin of the wheel of fortune (see the module docstring for the spots and the void spins).

    Violations emitted: ``invalid_bet`` (a symbol not on the table's wheel), ``bet_below_minimum`` /
    ``bet_above_maximum`` (the table's limits), ``past_posting`` (a bet after the wheel stopped without a
    «No va más»: 000 L1095; 004 L5793-L5796), ``spin_direction`` (an impulse against the ruleset's
    direction: 004 L5756-L5760), and ``procedure``: a void spin not voided, impulses other than the
    ruleset's number or after the wheel stopped, a second ``wheel_stopped``, a result without «No va más»,
    no result, winning bets not paid from the smallest stake up (004 L5788-L5789), an event of another game.
    """

    game = "wheel_of_fortune"

    def __init__(self, ctx: TableContext, round_id: str, last_of_session: bool = False):
        super().__init__(ctx, round_id, last_of_session)
        self.impulses: list[tuple[str, str]] = []   # (direction, event_id), in order
        self.stop: Stop | None = None
        self.late_impulses: list[str] = []          # event ids of impulses after the wheel stopped
        self.extra_stops: list[str] = []            # event ids of further wheel_stopped events

    # ------------------------------------------------------------------ helpers

    def _cite(self, key: str) -> str:
        return self.ctx.ruleset.cite(key)

    def _cite_any(self, *keys: str) -> str:
        """The citation of the first of ``keys`` the ruleset has (an optional rule falls back)."""
        cited = self.ctx.ruleset.model.citations
        return next(cited[k] for k in (*keys, "wheel_result") if k in cited)

    def void_reason(self) -> tuple[str, str] | None:
        """``(reason, citation)`` when the recorded stop makes the spin void by the ruleset, else ``None``:
        the pointer on a pivot (004 L5778-L5780; no result in a casilla, 000 L1095), fewer full turns than
        ``[wheel] min_turns`` (004 L5769-L5772), an obstructed wheel where ``[procedure]
        void_if_obstructed`` (004 L5778-L5782)."""
        stop, m = self.stop, rules_of(self.ctx)
        if stop is None:
            return None
        if stop.on_pivot:
            return "the pointer rests on a pivot between two segments", self._cite_any("void_pivot")
        if m.wheel.min_turns is not None and stop.turns is not None and stop.turns < m.wheel.min_turns:
            return (f"the wheel made {stop.turns} full turn(s) after the last impulse, fewer than "
                    f"{m.wheel.min_turns}", self._cite("wheel_turns"))
        if stop.obstructed and m.procedure.void_if_obstructed:
            return "a person or an object hindered the wheel", self._cite("void_obstruction")
        return None

    # ------------------------------------------------------------------ hooks

    def on_bet(self, bet: Bet) -> list[Violation]:
        """Validate the symbol (``invalid_bet``) and the table's limits; flag a bet placed after the wheel
        stopped when no «No va más» was recorded (``past_posting``: 000 L1095; 004 L5793-L5796).
        Source of the limits: 000 L1089; 004 L5750-L5753."""
        if bet.spot not in payouts(self.ctx):
            return [Violation(ViolationKind.INVALID_BET,
                              f"bet {bet.bet_id}: {bet.spot!r} is not a symbol of this wheel "
                              f"({', '.join(payouts(self.ctx))})", self._cite("combinations"),
                              (bet.event_id,), bet.bet_id, bet.player_id, bet.stake)]
        out = limit_violations(bet, self.ctx.min_bet, self.ctx.max_bet, self._cite("limits"))
        if self.stop is not None and not self.bets_closed:
            out.append(Violation(
                ViolationKind.PAST_POSTING,
                f"bet {bet.bet_id} of {bet.stake} EUR on {bet.spot} placed after the wheel stopped: "
                "not a wager, the chips are handed back",
                self._cite_any("no_bets_during_payment", "no_more_bets"), (bet.event_id, self.stop.event_id),
                bet.bet_id, bet.player_id, bet.stake))
        return out

    def on_event(self, event: EventBase) -> list[Violation]:
        """Apply ``wheel_spun`` (an impulse: its direction against ``[wheel] direction``, 004 L5756-L5760)
        and ``wheel_stopped`` (the result); any other game event is a procedure violation."""
        if type(event) is WheelSpun:
            return self.wheel_spun(event)
        if type(event) is WheelStopped:
            return self.wheel_stopped(event)
        return [Violation(ViolationKind.PROCEDURE, f"{event.type} is not a wheel of fortune event",
                          self._cite("wheel_result"), (str(event.event_id),))]

    def wheel_spun(self, event: WheelSpun) -> list[Violation]:
        """An impulse of the croupier (see :meth:`on_event`): one after the wheel stopped, or against the
        ruleset's direction, is a violation."""
        return self._impulse(event.direction, str(event.event_id))

    def wheel_stopped(self, event: WheelStopped) -> list[Violation]:
        """The wheel's result: recorded; a second one in the spin (the first stands), or a symbol this wheel
        does not show (no result: every stake is due back), is a ``procedure`` violation."""
        eid = str(event.event_id)
        if self.stop is not None:
            self.extra_stops.append(eid)
            return [Violation(ViolationKind.PROCEDURE,
                              f"second wheel_stopped in one spin ({event.symbol or 'on a pivot'} after "
                              f"{self.stop.symbol or 'on a pivot'}): the first stands",
                              self._cite("wheel_result"), (self.stop.event_id, eid))]
        self.stop = Stop(event.symbol, event.on_pivot, event.turns, event.obstructed, eid)
        if event.symbol is not None and event.symbol not in payouts(self.ctx):
            return [Violation(ViolationKind.PROCEDURE,
                              f"the wheel stopped on {event.symbol}, which this wheel does not show: no result, "
                              "every stake is due back", self._cite("wheel"), (eid,))]
        return []

    def _impulse(self, direction: str, eid: str) -> list[Violation]:
        out: list[Violation] = []
        if self.stop is not None:
            self.late_impulses.append(eid)
            out.append(Violation(ViolationKind.PROCEDURE,
                                 "the wheel was spun again after it stopped: a new play is a new round",
                                 self._cite("wheel_spin"), (self.stop.event_id, eid)))
        else:
            self.impulses.append((direction, eid))
        wanted = rules_of(self.ctx).wheel.direction
        if wanted != "any" and direction != wanted:
            out.append(Violation(ViolationKind.SPIN_DIRECTION,
                                 f"wheel spun {direction}: every impulse must turn it {wanted}",
                                 self._cite("wheel_direction"), (eid,)))
        return out

    # ------------------------------------------------------------------ verdict

    def settle(self) -> list[ExpectedSettlement]:
        """One settlement per bet: ``win`` (the stake back plus ``payout`` x the stake: 000 L1085, L1097;
        004 L5731-L5748, L5788-L5791) or ``lose`` (nothing back); ``void`` (the stake back) when the spin
        is void by the ruleset (:meth:`void_reason`) or the round has no result."""
        stop = self.stop
        if stop is None:
            return self._all_back("no result recorded for the spin, stake returned", self._cite("wheel_result"))
        why = self.void_reason()
        if why is not None:
            return self._all_back(f"void spin ({why[0]}): stake returned", why[1])
        symbol = stop.symbol
        ratios = payouts(self.ctx)
        if symbol not in ratios:
            return self._all_back(f"the wheel does not show {symbol}: no result, stake returned", self._cite("wheel"))
        assert symbol is not None
        cite = f"{self._cite('payouts')}; {self._cite('stake_returned')}"
        out: list[ExpectedSettlement] = []
        for bet in self.bets.values():
            if bet.spot == symbol:
                ratio = ratios[symbol]
                returned = self.ctx.ruleset.round(bet.stake + bet.stake * ratio)
                out.append(ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "win", returned,
                                              ZERO, cite, f"the wheel stopped on {symbol}: stake kept + {ratio} x stake"))
            else:
                out.append(ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "lose", ZERO, ZERO,
                                              cite, f"the wheel stopped on {symbol}, not {bet.spot}"))
        return out

    def _all_back(self, detail: str, cite: str) -> list[ExpectedSettlement]:
        return [ExpectedSettlement(b.bet_id, b.player_id, b.spot, b.stake, "void", b.stake, ZERO, cite, detail)
                for b in self.bets.values()]

    def void_violations(self, reason: str, event_id: str) -> list[Violation]:
        """Where the ruleset voids a spin only in the cases its text lists (``[procedure] void_only_listed``:
        fewer turns than the minimum, the pointer on a pivot, an obstructed wheel, 004 L5769-L5782), a spin
        voided although its stop shows none of them is a ``procedure`` violation (its stakes still come
        back). A round voided before the wheel stopped is accepted."""
        stop = self.stop
        if stop is None or not rules_of(self.ctx).procedure.void_only_listed or self.void_reason() is not None:
            return []
        return [Violation(ViolationKind.PROCEDURE,
                          f"spin voided ({reason}) although the wheel stopped on {stop.symbol} with none of the "
                          "cases that void a spin (too few turns, the pointer on a pivot, an obstructed wheel)",
                          self._cite("void_round"), (event_id, stop.event_id))]

    def check(self) -> list[Violation]:
        """End-of-spin procedure checks: bets but no result; a void spin (:meth:`void_reason`) the round
        did not void (004 L5784-L5786); impulses other than ``[wheel] impulses`` (000 L1095;
        004 L5756-L5767); a result without «No va más»; the winning bets paid out of the order of their
        stakes where ``[procedure] pay_smallest_first`` (004 L5788-L5789)."""
        out: list[Violation] = []
        stop = self.stop
        if stop is None:
            if self.bets:
                out.append(Violation(ViolationKind.PROCEDURE, f"round {self.round_id} ended without a result",
                                     self._cite("wheel_result"), ()))
            return out
        why = self.void_reason()
        if why is not None:
            out.append(Violation(ViolationKind.PROCEDURE,
                                 f"void spin ({why[0]}) not declared void: every stake is due back and the "
                                 "play starts again", why[1], (stop.event_id,)))
        wanted = rules_of(self.ctx).wheel.impulses
        if len(self.impulses) != wanted:
            out.append(Violation(ViolationKind.PROCEDURE,
                                 f"{len(self.impulses)} impulse(s) recorded before the wheel stopped, not {wanted}",
                                 self._cite("wheel_spin"), (*(e for _, e in self.impulses), stop.event_id)))
        if self.bets and not self.bets_closed:
            out.append(Violation(ViolationKind.PROCEDURE, "the wheel stopped without «No va más» being announced",
                                 self._cite("no_more_bets"), (stop.event_id,)))
        if why is None and rules_of(self.ctx).procedure.pay_smallest_first:
            out.extend(self._payment_order(stop.symbol))
        return out

    def _payment_order(self, symbol: str | None) -> list[Violation]:
        """A procedure violation for each winning bet paid after a larger winning stake (the recorded
        settlements in the order recorded; 004 L5788-L5789)."""
        out: list[Violation] = []
        largest: tuple[Decimal, str, str] | None = None     # (stake, bet_id, event_id) paid so far
        for bet_id, rec in self.recorded.items():
            bet = self.bets.get(bet_id)
            if bet is None or bet.spot != symbol or rec.returned <= 0:
                continue
            if largest is not None and bet.stake < largest[0]:
                out.append(Violation(
                    ViolationKind.PROCEDURE,
                    f"winning bet {bet_id} of {bet.stake} EUR paid after {largest[1]} of {largest[0]} EUR: "
                    "the winning bets are paid from the smallest to the largest",
                    self._cite("payment_order"), (largest[2], rec.event_id), bet_id, bet.player_id))
            elif largest is None or bet.stake > largest[0]:
                largest = (bet.stake, bet_id, rec.event_id)
        return out

    def outcome(self) -> str:
        """E.g. ``"fortune_24 (pays 1:1)"``, ``"on a pivot"``, ``"no result"``."""
        stop = self.stop
        if stop is None:
            return "no result"
        if stop.symbol is None:
            return "on a pivot"
        ratio = payouts(self.ctx).get(stop.symbol)
        return f"{stop.symbol} (pays {ratio}:1)" if ratio is not None else f"{stop.symbol} (not on this wheel)"


__all__ = ["Stop", "WheelOfFortuneRound", "payouts", "rules_of"]
