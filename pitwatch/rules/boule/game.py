"""One round of boule: the bets on the paños, «No va más», the ball in a hole, the settlement.

Game value ``boule``; rulesets ``boule.galicia`` (``000_e1555249d49967be.txt`` L331-L378), ``boule.espana``
(``002_b26436a6fc4fb8e8.txt`` L9-L63) and ``boule.andalucia`` (``004_5c9c19b250457762.txt`` L903-L1027). Every
payout, number, simple chance and limit is read from the ruleset (:mod:`pitwatch.rules.boule.model`).

Spot codes (the roulette grammar's; anything else is an ``invalid_bet``):

==========================================  =====================================  =====
code                                        wins on                                pays
==========================================  =====================================  =====
``straight:N`` (N = 1..9)                   N (two holes of eighteen)              7:1
``red`` ``black``                           2, 4, 7, 9 / 1, 3, 6, 8                1:1
``odd`` ``even``                            1, 3, 7, 9 / 2, 4, 6, 8                1:1
``manque`` ``passe``                        1-4 / 6-9                              1:1
==========================================  =====================================  =====

The 5 is in no simple chance: when it comes out every simple chance loses (000 L363; 002 L43; 004 L976-L978),
and a bet on ``straight:5`` wins like any number. A bet's ``box`` is its paño (1 or 2); its minimum is that
paño's (table option ``panos``), its maximum the authorisation's multiple of the authorised minimum (options
``max_straight_multiple`` and ``max_simple_multiple``), applied to each player's total on the spot.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from mypy_extensions import mypyc_attr

from pitwatch.rules.base import (
    Bet,
    ExpectedSettlement,
    Violation,
    ViolationKind,
)
from pitwatch.rules.boule.model import CHANCES, KINDS, BouleRuleset, multiples_text
from pitwatch.rules.game import GameRound, TableContext
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import BallLanded, TableOpened, WheelSpun
from pitwatch.schemas.money import ZERO


@dataclass(frozen=True)
class Spot:
    """A spot of the paño: its ``code``, ``kind`` (``straight`` or ``simple``) and the ``numbers`` it wins on."""

    code: str
    kind: str
    numbers: frozenset[int]


def rules_of(ctx: TableContext) -> BouleRuleset:
    """The boule model of the table's ruleset; raises ``RuleError`` for another game's ruleset."""
    return ctx.ruleset.model_as(BouleRuleset)


def layout_spots(model: BouleRuleset) -> dict[str, Spot]:
    """Every spot of the paño -> :class:`Spot`: ``straight:1`` .. ``straight:9`` and the six simple chances
    («Sólo se pueden usar dos combinaciones», 000 L359-L363; 002 L41-L43; 004 L966-L978)."""
    out = {f"straight:{n}": Spot(f"straight:{n}", "straight", frozenset({n}))
           for n in range(1, model.layout.numbers + 1)}
    for chance in CHANCES:
        out[chance] = Spot(chance, "simple", model.layout.chances.of(chance))
    return out


def spots(ctx: TableContext) -> dict[str, Spot]:
    """:func:`layout_spots` of the table's ruleset, computed once per table."""
    return ctx.derived(("boule_spots",), lambda: layout_spots(rules_of(ctx)))  # type: ignore[no-any-return]


@dataclass(frozen=True)
class TableLimits:
    """The limits of a boule table, in euros: ``panos``, the minimum of each paño (paño 1 first);
    ``maximum``, bet kind -> the most one player may have on one spot; ``problems``, what was wrong with the
    table options (each then replaced by the ruleset's default), as ``(citation key, message)``."""

    panos: tuple[Decimal, ...]
    maximum: dict[str, Decimal]
    problems: tuple[tuple[str, str], ...]


def table_limits(ctx: TableContext) -> TableLimits:
    """The table's :class:`TableLimits` from its ``min_bet`` (the authorised minimum) and options, computed once
    per table and limits. Paño minima: ``min_bet`` x each multiple of option ``panos`` (1 or 2, one of them 1:
    000 L365-L367; 002 L47; 004 L980-L989); maxima: ``min_bet`` x options ``max_straight_multiple`` (40-100) and
    ``max_simple_multiple`` (200-500) (000 L369; 002 L49; 004 L991-L996). An option outside the law is a
    problem and the ruleset's default is used instead."""
    return ctx.derived(("boule_limits",), lambda: _table_limits(ctx))  # type: ignore[no-any-return]


def _table_limits(ctx: TableContext) -> TableLimits:
    m = rules_of(ctx)
    problems: list[tuple[str, str]] = []
    raw = ctx.option("panos")
    try:
        multiples = multiples_text(raw)
    except ValueError as exc:
        multiples, why = multiples_text(m.options.panos), str(exc)
    else:
        why = ""
        if not 1 <= len(multiples) <= m.limits.max_panos:
            why = f"{len(multiples)} paños (1 to {m.limits.max_panos})"
        elif any(x not in m.limits.pano_minimum_multiples for x in multiples):
            why = f"a paño's minimum must be {' or '.join(map(str, m.limits.pano_minimum_multiples))} times the authorised one"
        elif 1 not in multiples:
            why = "no paño keeps the authorised minimum"
        if why:
            multiples = multiples_text(m.options.panos)
    if why:
        problems.append(("limit_pano_minimum", f"panos={raw!r}: {why}; judged as {m.options.panos!r}"))
    maximum: dict[str, Decimal] = {}
    for kind in KINDS:
        name = f"max_{kind}_multiple"
        low, high = m.limits.max_range(kind)
        value = ctx.option(name)
        if not (value.strip().isdigit() and low <= int(value) <= high):
            default = getattr(m.options, name)
            problems.append(("limit_max_number" if kind == "straight" else "limit_max_simple",
                             f"{name}={value!r} is not a whole number from {low} to {high}; judged as {default}"))
            value = default
        maximum[kind] = ctx.min_bet * int(value)
    return TableLimits(tuple(ctx.min_bet * x for x in multiples), maximum, tuple(problems))


@mypyc_attr(allow_interpreted_subclasses=True)
class BouleRound(GameRound):
    """One launch of the ball (see the module docstring for the spots and the limits).

    Violations emitted: ``invalid_bet`` (a spot not on the paño, a box that is no paño of the table),
    ``bet_below_minimum`` (below its paño's minimum), ``bet_above_maximum`` (a player's total on a spot above
    the maximum of its kind), ``past_posting`` (a bet after the ball landed without «No va más»), and
    ``procedure`` (two results, a result that is no number of the platform, a round without a result, a result
    without «No va más», table options outside the law, an event boule does not have)."""

    game = "boule"

    def __init__(self, ctx: TableContext, round_id: str, last_of_session: bool = False):
        super().__init__(ctx, round_id, last_of_session)
        self.number: int | None = None
        """The number the ball landed on (as recorded, valid or not)."""
        self.valid = False
        """Whether :attr:`number` is a number of the platform."""
        self.ball_event: str | None = None

    def _cite(self, key: str) -> str:
        return self.ctx.ruleset.cite(key)

    # ------------------------------------------------------------------ hooks

    def on_bet(self, bet: Bet) -> list[Violation]:
        """Judge a new bet: its spot (``invalid_bet`` off the paño), its box (the paño: ``invalid_bet`` beyond
        the table's), its paño's minimum (000 L365-L367; 002 L47; 004 L980-L989), the maximum of its kind on
        the player's total on the spot (000 L369; 002 L49-L51; 004 L991-L1000), and a bet after the ball
        landed without «No va más» (``past_posting``, 000 L373; 002 L59; 004 L1012-L1017)."""
        spot = spots(self.ctx).get(bet.spot)
        if spot is None:
            return [Violation(ViolationKind.INVALID_BET,
                              f"bet {bet.bet_id}: {bet.spot!r} is not a bet of boule (a number 1-9 or a simple chance)",
                              self._cite("layout"), (bet.event_id,), bet.bet_id, bet.player_id, bet.stake)]
        limits = table_limits(self.ctx)
        if bet.box is not None and bet.box > len(limits.panos):
            return [Violation(ViolationKind.INVALID_BET,
                              f"bet {bet.bet_id} on paño {bet.box}: the table has {len(limits.panos)} paño(s)",
                              self._cite("panos"), (bet.event_id,), bet.bet_id, bet.player_id, bet.stake)]
        out: list[Violation] = []
        minimum = min(limits.panos) if bet.box is None else limits.panos[bet.box - 1]
        where = "the table" if bet.box is None else f"paño {bet.box}"
        if bet.stake < minimum:
            out.append(Violation(ViolationKind.BET_BELOW_MINIMUM,
                                 f"bet {bet.bet_id} of {bet.stake} EUR on {bet.spot} is below the minimum "
                                 f"{minimum} EUR of {where}",
                                 f"{self._cite('limit_minimum')}; {self._cite('limit_pano_minimum')}",
                                 (bet.event_id,), bet.bet_id, bet.player_id, minimum - bet.stake))
        maximum = limits.maximum[spot.kind]
        total = bet.stake
        if rules_of(self.ctx).limits.max_per_player:
            total = sum((b.stake for b in self.bets.values()
                         if b.player_id == bet.player_id and b.spot == bet.spot and b.bet_id != bet.bet_id), bet.stake)
        if total > maximum:
            over = min(bet.stake, total - maximum)
            whose = f"; {bet.player_id}'s total on it {total} EUR" if total != bet.stake else ""
            key = "limit_max_number" if spot.kind == "straight" else "limit_max_simple"
            out.append(Violation(ViolationKind.BET_ABOVE_MAXIMUM,
                                 f"bet {bet.bet_id} of {bet.stake} EUR on {bet.spot}{whose}: above the maximum "
                                 f"{maximum} EUR", f"{self._cite(key)}; {self._cite('limit_per_player')}",
                                 (bet.event_id,), bet.bet_id, bet.player_id, over))
        if self.number is not None and not self.bets_closed:
            out.append(Violation(ViolationKind.PAST_POSTING,
                                 f"bet {bet.bet_id} of {bet.stake} EUR on {bet.spot} placed after the ball landed",
                                 self._cite("no_more_bets"), (bet.event_id, self.ball_event or ""), bet.bet_id,
                                 bet.player_id, bet.stake))
        return out

    def on_event(self, event: EventBase) -> list[Violation]:
        """Apply ``wheel_spun`` (the croupier launches the ball: recorded, boule has no direction rule) and
        ``ball_landed`` (the number of the hole, 000 L375; 002 L61; 004 L1019-L1021); a number that is not on
        the platform (1-9), or a second result, is a procedure violation; any other game event too."""
        if type(event) is WheelSpun:
            return self.wheel_spun(event)
        if type(event) is BallLanded:
            return self.ball_landed(event)
        return [Violation(ViolationKind.PROCEDURE, f"{event.type} is not a boule event", self._cite("game"),
                          (str(event.event_id),))]

    def wheel_spun(self, event: WheelSpun) -> list[Violation]:
        """The croupier launches the ball: nothing to judge (boule has no direction rule)."""
        return []

    def ball_landed(self, event: BallLanded) -> list[Violation]:
        """The number of the hole (see :meth:`on_event`); a ``procedure`` violation for a second result
        (it replaces the first) or a number that is not on the platform."""
        eid = str(event.event_id)
        out: list[Violation] = []
        if self.number is not None:
            out.append(Violation(ViolationKind.PROCEDURE,
                                 f"second ball_landed ({event.number} after {self.number}) in one launch",
                                 self._cite("result_announced"), (self.ball_event or "", eid)))
        n = int(event.number)
        self.number, self.ball_event = n, eid
        self.valid = n in spots(self.ctx).get(f"straight:{n}", _NO_SPOT).numbers
        if not self.valid:
            out.append(Violation(ViolationKind.PROCEDURE,
                                 f"ball_landed on {n}: the platform's holes are numbered 1 to "
                                 f"{rules_of(self.ctx).layout.numbers}; no valid result, the stakes come back",
                                 self._cite("holes"), (eid,)))
        return out

    # ------------------------------------------------------------------ verdict

    def settle(self) -> list[ExpectedSettlement]:
        """One settlement per bet: a winning number returns the stake and 7 times it, a winning simple chance the
        stake and as much again (000 L361-L363, L377; 002 L43, L63; 004 L969-L978, L1023-L1027); a simple chance
        loses on the 5 (000 L363; 002 L43; 004 L976-L978). Without a valid result every stake comes back
        (outcome ``void``; :meth:`check` or :meth:`on_event` reports why)."""
        rs = self.ctx.ruleset
        m = rules_of(self.ctx)
        table = spots(self.ctx)
        n = self.number if self.valid else None
        out: list[ExpectedSettlement] = []
        for bet in self.bets.values():
            spot = table[bet.spot]  # refused bets (off the paño) never stay in self.bets
            if n is None:
                why = "no result recorded" if self.number is None else f"{self.number} is not a number of the platform"
                out.append(ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "void", bet.stake, ZERO,
                                              self._cite("result_announced"), f"{why}: stake returned"))
                continue
            cite = self._cite("payout_number" if spot.kind == "straight" else "payout_simple")
            if n in spot.numbers:
                ratio = m.payouts.ratio(spot.kind)
                out.append(ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "win",
                                              rs.round(bet.stake + bet.stake * ratio), ZERO, cite,
                                              f"{n} wins {bet.spot}: stake kept + {ratio} x stake"))
            elif spot.kind == "simple" and n == m.layout.neutral:
                out.append(ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "lose", ZERO, ZERO,
                                              self._cite("five"), f"{n}: every simple chance loses"))
            else:
                out.append(ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "lose", ZERO, ZERO,
                                              cite, f"{n} not in {bet.spot}"))
        return out

    def check(self) -> list[Violation]:
        """End-of-round checks: bets but no result; a result without «No va más» (000 L373; 002 L59;
        004 L1012-L1017)."""
        if self.number is None:
            if self.bets:
                return [Violation(ViolationKind.PROCEDURE, f"round {self.round_id} ended without a result",
                                  self._cite("result_announced"), ())]
            return []
        if self.bets and not self.bets_closed:
            return [Violation(ViolationKind.PROCEDURE, "ball landed without «No va más» being announced",
                              self._cite("no_more_bets"), (self.ball_event or "",))]
        return []

    def outcome(self) -> str:
        """E.g. ``"7 red"``, ``"5 neither colour"``; ``"no result"`` without a ball, ``"12 not on the
        platform"`` for a number that is not one of its holes."""
        n = self.number
        if n is None:
            return "no result"
        if not self.valid:
            return f"{n} not on the platform"
        chances = rules_of(self.ctx).layout.chances
        colour = "red" if n in chances.red else "black" if n in chances.black else "neither colour"
        return f"{n} {colour}"

    @staticmethod
    def on_table_event(ctx: TableContext, event: EventBase) -> list[Violation]:
        """``table_opened``: a procedure violation for each table option outside the law (paños: 000 L367; 002
        L47; 004 L984-L989; maxima: 000 L369; 002 L49; 004 L991-L996); the table is then judged with the
        ruleset's default for it."""
        if type(event) is TableOpened:
            return table_opened(ctx, event)
        return []


def table_opened(ctx: TableContext, event: TableOpened) -> list[Violation]:
    """A ``procedure`` violation for each option of the boule table just opened that is outside the law
    (:func:`table_limits`); see :meth:`BouleRound.on_table_event`."""
    return [Violation(ViolationKind.PROCEDURE, f"table option: {message}", ctx.ruleset.cite(key),
                      (str(event.event_id),)) for key, message in table_limits(ctx).problems]


_NO_SPOT = Spot("", "", frozenset())


__all__ = ["BouleRound", "Spot", "TableLimits", "layout_spots", "rules_of", "spots", "table_limits"]

