"""American roulette with one zero: the round the engine folds, and the colour chips across rounds.

Game value ``american_roulette``; rulesets ``american_roulette.galicia`` (000_e1555249d49967be.txt
L195-L233, «02. Ruleta americana») and ``american_roulette.andalucia`` (004_5c9c19b250457762.txt L456-L569,
«I.1.2. Ruleta americana con un solo cero»). Both refer to French roulette for the wheel, the bets, the
limits and the play (000 L199; 004 L459-L464, L531-L533, L547-L552, L564-L568): the spots, their numbers
and payout kinds are French roulette's (:data:`pitwatch.rules.roulette.SPOTS`,
:func:`~pitwatch.rules.roulette.parse_spot`: ``straight:N``, ``split:A-B`` ... ``red``, ``manque``), the
ratios and maxima are read from the ruleset. What differs from French roulette:

- the zero: a simple chance struck by it loses half its stake and the other half comes back, with no
  choice and no prison (000 L225; 004 L543-L545);
- the colour chips: each player's colour is worth what his marker says (event ``colour_valued``, 000
  L207, L227; 004 L479-L486, L554-L557), or the table minimum when he set none (000 L227; 004 L557-L559);
  a bet in colour chips (``colour_bet_placed``) is ``chips`` x that value in euros. A bet in value chips
  (``bet_placed``) is judged the same way.
- Andalucía only: a bet's winnings must be payable with the table minimum (004 L561-L562).

State that crosses rounds is the table's :class:`AmericanCarry`: the colour markers in force and the
previous wheel spin's direction in the session.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping

from mypy_extensions import mypyc_attr

# The contract first: it imports this game's events module while it builds its event union, and that module,
# imported here before the contract, would meet the contract half-built.
import pitwatch.schemas.events  # noqa: F401
from pitwatch.rules.american_roulette.events import ColourBetPlaced, ColourValued
from pitwatch.rules.american_roulette.model import AmericanRouletteRuleset
from pitwatch.rules.base import (
    Bet,
    ExpectedSettlement,
    RuleError,
    Violation,
    ViolationKind,
)
from pitwatch.rules.game import GameRound, TableContext
from pitwatch.rules.roulette import (  # French roulette's, by 000 L199; 004 L459-L464, L547-L552
    SIMPLE_CHANCES,
    RouletteCarry,
    after_the_ball,
    bet_limits,
    limit_option_violations,
    limits_change_violations,
    parse_spot,
    second_ball,
    simple_min_multiple,
    spin_outcome,
    spin_violations,
    spot_violations,
    tier,
)
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import (
    BallLanded,
    LimitsChanged,
    PlayerDecision,
    PlayerLeft,
    TableClosed,
    TableOpened,
    WheelSpun,
)
from pitwatch.schemas.money import ZERO

COLOURS = "colours"
"""The stored carry's key of the colour markers in force."""


@dataclass(frozen=True)
class ColourMarker:
    """A colour's marker: ``player_id`` holds the colour, each of its chips is worth ``value`` euros, set by
    event ``event_id`` (000 L207, L227; 004 L479-L486, L554-L557)."""

    player_id: str
    value: Decimal
    event_id: str


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (pitwatch.native), still subclassable
class AmericanCarry(RouletteCarry):
    """An American roulette table's state across spins: the last wheel direction (:class:`RouletteCarry`) and
    ``colours``, colour -> its :class:`ColourMarker` in force. Stored as ``{"version": 1, "last_direction":
    ..., "colours": {colour: {"player_id", "value" (euros as a string), "event_id"}}}`` (``colours`` only
    while a marker is in force)."""

    def __init__(self) -> None:
        super().__init__()
        self.colours: dict[str, ColourMarker] = {}

    def fields(self) -> dict[str, Any]:
        """The last direction and the markers as JSON types."""
        out = super().fields()
        if self.colours:
            out[COLOURS] = {c: {"player_id": m.player_id, "value": str(m.value), "event_id": m.event_id}
                            for c, m in self.colours.items()}
        return out

    def load(self, fields: Mapping[str, Any], version: int) -> None:
        """From :meth:`fields`."""
        super().load(fields, version)
        self.colours = {str(c): ColourMarker(str(m["player_id"]), Decimal(m["value"]), str(m["event_id"]))
                        for c, m in (fields.get(COLOURS) or {}).items()}


# --------------------------------------------------------------------------- ruleset helpers


def rules_of(ctx: TableContext) -> AmericanRouletteRuleset:
    """The American roulette model of the table's ruleset; ``RuleError`` for another game's ruleset."""
    return ctx.ruleset.model_as(AmericanRouletteRuleset)


def colour_value_range(ctx: TableContext) -> tuple[Decimal, Decimal]:
    """``(lowest, highest)`` value in euros a player may give his colour: from the table minimum to the
    maximum of a straight-up («del mínimo al máximo ... sobre un número entero», 000 L227; 004 L554-L557).
    ``RuleError`` for an invalid option."""
    _, hi, _ = bet_limits(ctx, rules_of(ctx).colours.value_maximum_kind)
    return ctx.min_bet, hi


def markers(ctx: TableContext) -> dict[str, ColourMarker]:
    """The colour markers in force at this table: colour -> its :class:`ColourMarker`."""
    return ctx.carry_as(AmericanCarry).colours


def colour_value(ctx: TableContext, colour: str) -> tuple[Decimal, str | None]:
    """``(value per chip in euros, holder)`` of ``colour``: its marker's value and player, or the table
    minimum and ``None`` when no marker is in force (000 L227 «cada una de sus fichas representa el mínimo
    de la postura de la mesa»; 004 L557-L559)."""
    m = markers(ctx).get(colour)
    if m is None:
        return ctx.min_bet, None
    return m.value, m.player_id


def set_marker(ctx: TableContext, event: ColourValued) -> list[Violation]:
    """Apply ``colour_valued``: the colour's marker now says ``event.value`` for ``event.player_id``.
    Violations (``procedure``): a value outside :func:`colour_value_range` (000 L207, L227; 004 L479-L486,
    L554-L557), a colour still held by another player (one box per colour, 000 L207; 004 L479-L484). The
    marker is set in every case: the chips are worth what it says."""
    rs = ctx.ruleset
    eid = str(event.event_id)
    out: list[Violation] = []
    try:
        lo, hi = colour_value_range(ctx)
    except RuleError as exc:
        out.append(Violation(ViolationKind.PROCEDURE, f"colour value range unknown: {exc}",
                             rs.cite("colour_value"), (eid,), None, event.player_id))
    else:
        if event.value < lo or event.value > hi:
            what = "below the table minimum" if event.value < lo else "above the maximum of a straight-up"
            out.append(Violation(ViolationKind.PROCEDURE,
                                 f"colour {event.colour} of {event.player_id} valued {event.value} EUR a chip, "
                                 f"{what} ({lo}-{hi} EUR)", rs.cite("colour_value"), (eid,), None,
                                 event.player_id, lo - event.value if event.value < lo else event.value - hi))
    held = markers(ctx).get(event.colour)
    if held is not None and held.player_id != event.player_id:
        out.append(Violation(ViolationKind.PROCEDURE,
                             f"colour {event.colour} valued for {event.player_id} while {held.player_id} "
                             "still holds it", rs.cite("colour_chips"), (held.event_id, eid), None,
                             event.player_id))
    markers(ctx)[event.colour] = ColourMarker(event.player_id, event.value, eid)
    return out


# --------------------------------------------------------------------------- the round


class AmericanRouletteRound(GameRound):
    """One spin of American roulette with one zero (see the module docstring).

    Violations: ``invalid_bet`` (spot not on the layout), ``bet_below_minimum`` / ``bet_above_maximum``
    (per kind), ``past_posting`` (a bet after the ball landed without «No va más»), ``spin_direction``
    (000 L183; 004 L386-L390), ``illegal_decision`` (en prison, which the American zero rule replaces),
    and ``procedure`` (a colour marker out of range or of a colour another player holds, a colour bet by a
    player who does not hold the colour, in Andalucía a bet whose winnings the table minimum cannot pay,
    no ball, two balls, a ball without a spin or without «No va más», limits changed in a Galician session).
    """

    game = "american_roulette"
    carry_type = AmericanCarry
    bet_events = frozenset({"colour_bet_placed"})

    def __init__(self, ctx: TableContext, round_id: str, last_of_session: bool = False):
        super().__init__(ctx, round_id, last_of_session)
        self.number: int | None = None
        self.ball_event: str | None = None
        self.spins: list[tuple[str, str]] = []      # (direction, event_id)
        self.voided = False
        self._notes: dict[str, list[Violation]] = {}  # bet_id -> colour violations, until on_bet

    def _cite(self, key: str) -> str:
        return self.ctx.ruleset.cite(key)

    # ------------------------------------------------------------------ bets

    def bet_of(self, event: EventBase, event_id: str) -> Bet:
        """The bet of a ``colour_bet_placed``: stake = ``chips`` x the colour's value in force
        (:func:`colour_value`; the table minimum without a marker, 000 L227; 004 L557-L559). A bet by a
        player who does not hold the colour is valued at the colour's marker and flagged (``procedure``) by
        :meth:`on_bet`. Never raises for a colour bet: every colour has a value (``NotImplementedError`` for
        another event, which the engine never hands it: :attr:`bet_events`)."""
        if type(event) is ColourBetPlaced:
            return self.colour_bet_placed(event, event_id)
        return super().bet_of(event, event_id)

    def colour_bet_placed(self, event: ColourBetPlaced, event_id: str) -> Bet:
        """The :class:`Bet` of a bet in colour chips (see :meth:`bet_of`), ``event_id`` its event's id."""
        value, holder = colour_value(self.ctx, event.colour)
        bet = Bet(event.bet_id, event.player_id, event.spot, value * event.chips, None, event_id, event.round_id)
        if holder is not None and holder != event.player_id and event.bet_id not in self.bets:
            self._notes[event.bet_id] = [Violation(
                ViolationKind.PROCEDURE,
                f"bet {event.bet_id} of {event.player_id} in colour {event.colour}, which {holder} holds "
                f"(valued at its marker, {value} EUR a chip)", self._cite("colour_chips"),
                (event_id, markers(self.ctx)[event.colour].event_id), event.bet_id, event.player_id)]
        return bet

    def on_bet(self, bet: Bet) -> list[Violation]:
        """Validate the spot (``invalid_bet``), the limits of its kind, in Andalucía that its winnings are
        payable with the table minimum (004 L561-L562); flag a bet placed after the ball landed without
        «No va más» (``past_posting``) and a colour bet in another player's colour."""
        notes = self._notes.pop(bet.bet_id, [])
        spot, found = spot_violations(self.ctx, bet)
        if spot is None:
            return found
        out: list[Violation] = notes + found
        rules = rules_of(self.ctx)
        if rules.colours.payable_with_minimum and self.ctx.min_bet > 0:
            winnings = bet.stake * rules.payouts.ratio(spot.kind)
            if winnings % self.ctx.min_bet != 0:
                out.append(Violation(
                    ViolationKind.PROCEDURE,
                    f"bet {bet.bet_id} of {bet.stake} EUR on {bet.spot}: its winnings {winnings} EUR are not "
                    f"payable with table-minimum chips of {self.ctx.min_bet} EUR",
                    self._cite("payable_with_minimum"), (bet.event_id,), bet.bet_id, bet.player_id))
        out.extend(after_the_ball(self.ctx, bet, self.number, self.ball_event, self.bets_closed))
        return out

    # ------------------------------------------------------------------ game events

    def on_event(self, event: EventBase) -> list[Violation]:
        """Apply ``wheel_spun`` (it must reverse the previous spin: 000 L183; 004 L386-L390),
        ``ball_landed``, ``colour_valued`` (a marker set during the spin, :func:`set_marker`) and
        ``player_decision`` (no decision exists at zero: en prison is an ``illegal_decision``, 000 L225;
        004 L543-L545); any other game event is a procedure violation (``colour_valued`` is a table-level
        event class, its ``round_id`` may be null: the engine hands it here when it carries one)."""
        if type(event) is WheelSpun:
            return self.wheel_spun(event)
        if type(event) is BallLanded:
            return self.ball_landed(event)
        if type(event) is ColourValued:
            return self.colour_valued(event)
        if type(event) is PlayerDecision:
            return self.player_decision(event)
        return [Violation(ViolationKind.PROCEDURE, f"{event.type} is not an American roulette event",
                          self._cite("layout"), (str(event.event_id),))]

    def wheel_spun(self, event: WheelSpun) -> list[Violation]:
        """A spin of the wheel: recorded, and a ``spin_direction`` violation if it turns as the previous spin
        of the session did (French roulette's :func:`~pitwatch.rules.roulette.spin_violations`)."""
        return spin_violations(self.ctx, self.spins, event.direction, str(event.event_id))

    def ball_landed(self, event: BallLanded) -> list[Violation]:
        """The result of the spin; a second one in the spin is a ``procedure`` violation
        (:func:`~pitwatch.rules.roulette.second_ball`) and replaces the first."""
        eid = str(event.event_id)
        out = second_ball(self.ctx, self.number, self.ball_event, event.number, eid)
        self.number, self.ball_event = event.number, eid
        return out

    def colour_valued(self, event: ColourValued) -> list[Violation]:
        """A colour marker set during the spin: :func:`set_marker`."""
        return set_marker(self.ctx, event)

    def player_decision(self, event: PlayerDecision) -> list[Violation]:
        """A player's decision: none exists in American roulette (see :meth:`on_event`), but the half of a
        simple chance at zero, which the rule applies anyway; any other is an ``illegal_decision``."""
        eid = str(event.event_id)
        bet = self.bets.get(event.bet_id or "")
        if (event.decision == "half_back" and bet is not None and bet.spot in SIMPLE_CHANCES
                and self.number == 0):
            return []  # what the rule does anyway
        why = ("en prison does not exist in American roulette: half the stake is lost at zero"
               if event.decision == "en_prison" else
               f"{event.decision} on {event.bet_id}: no decision exists in American roulette but the half lost "
               "on a simple chance at zero")
        return [Violation(ViolationKind.ILLEGAL_DECISION, why, self._cite("zero_half"), (eid,), event.bet_id,
                          bet.player_id if bet is not None else None)]

    # ------------------------------------------------------------------ verdict

    def settle(self) -> list[ExpectedSettlement]:
        """One settlement per bet: a winner keeps its stake and is paid its kind's ratio (French roulette's,
        000 L121-L153; 004 L217-L302); a simple chance struck by the zero gets half its stake back (000 L225;
        004 L543-L545); anything else loses. Without a result every stake comes back (``void``)."""
        return [self._settle_bet(bet, self.number) for bet in self.bets.values()]

    def _settle_bet(self, bet: Bet, n: int | None) -> ExpectedSettlement:
        rs = self.ctx.ruleset
        try:
            spot = parse_spot(bet.spot)
        except RuleError as exc:
            return ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "void", bet.stake, ZERO,
                                      self._cite("layout"), f"not a bet of the layout, stake returned: {exc}")
        if n is None:
            return ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "void", bet.stake, ZERO,
                                      self._cite("result"), "no result recorded for the spin, stake returned")
        rules = rules_of(self.ctx)
        if spot.simple and n == 0:
            back = rs.round(bet.stake * (1 - rules.zero.simple_lost_fraction))
            return ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "half_back", back, ZERO,
                                      self._cite("zero_half"),
                                      f"0 on a simple chance: half lost, {back} of {bet.stake} back")
        cite = self._cite(spot.payout_key)
        if n in spot.numbers:
            ratio = rules.payouts.ratio(spot.kind)
            returned = rs.round(bet.stake + bet.stake * ratio)
            return ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "win", returned, ZERO,
                                      cite, f"{n} wins {bet.spot}: stake kept + {ratio} x stake")
        return ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "lose", ZERO, ZERO, cite,
                                  f"{n} not in {bet.spot}")

    def check(self) -> list[Violation]:
        """End-of-spin checks: bets but no result; a result without a recorded wheel spin or without «No va
        más» (000 L183-L187; 004 L386-L427)."""
        out: list[Violation] = []
        if self.number is None:
            if self.bets:
                out.append(Violation(ViolationKind.PROCEDURE, f"round {self.round_id} ended without a result",
                                     self._cite("result"), ()))
            return out
        if not self.spins:
            out.append(Violation(ViolationKind.PROCEDURE, "ball landed without a recorded wheel spin",
                                 self._cite("spin_direction"), (self.ball_event or "",)))
        if self.bets and not self.bets_closed:
            out.append(Violation(ViolationKind.PROCEDURE, "ball landed without «No va más» being announced",
                                 self._cite("no_more_bets"), (self.ball_event or "",)))
        return out

    def void(self, reason: str) -> list[ExpectedSettlement]:
        """«Tirada nula»: every stake of the spin comes back (000 L189-L191; 004 L429-L436)."""
        self.voided = True
        return super().void(reason)

    def finish(self) -> None:
        """Keep the last wheel direction of the session in the table's carry (voided spins count too)."""
        if self.spins:
            self.ctx.carry_as(AmericanCarry).last_direction = self.spins[-1][0]

    def outcome(self) -> str:
        """E.g. ``"17 black"``, ``"0 zero"``; ``"no result"`` without a ball (French roulette's words)."""
        return spin_outcome(self.number)

    @staticmethod
    def on_table_event(ctx: TableContext, event: EventBase) -> list[Violation]:
        """``table_opened``: the options within the law (procedure violations). ``limits_changed``: a
        procedure violation where the ruleset forbids it (Galicia, 000 L169). ``colour_valued`` between
        spins: :func:`set_marker`. ``player_left``: his colours are free again. ``table_closed``: every
        marker and the last spin direction are cleared for the next session."""
        if type(event) is TableOpened:
            return table_opened(ctx, event)
        if type(event) is LimitsChanged:
            return limits_changed(ctx, event)
        if type(event) is ColourValued:
            return set_marker(ctx, event)
        if type(event) is PlayerLeft:
            return player_left(ctx, event)
        if type(event) is TableClosed:
            return table_closed(ctx, event)
        return []


def table_opened(ctx: TableContext, event: TableOpened) -> list[Violation]:
    """The options of an American roulette table just opened: a ``procedure`` violation for each out of the
    law's range (``max_tier``, ``simple_chance_min_multiple``, ``max_rule``: French roulette's,
    :func:`~pitwatch.rules.roulette.limit_option_violations`); see :meth:`AmericanRouletteRound.on_table_event`."""
    return limit_option_violations(ctx, str(event.event_id))


def limits_changed(ctx: TableContext, event: LimitsChanged) -> list[Violation]:
    """New table limits: a ``procedure`` violation where the ruleset forbids changing them during a session
    (:func:`~pitwatch.rules.roulette.limits_change_violations`); see :meth:`AmericanRouletteRound.on_table_event`."""
    return limits_change_violations(ctx, event, rules_of(ctx).limits.change_during_session)


def player_left(ctx: TableContext, event: PlayerLeft) -> list[Violation]:
    """A player left the table: the colours he held are free again (their markers are removed)."""
    held = markers(ctx)
    for colour in [c for c, m in held.items() if m.player_id == event.player_id]:
        del held[colour]
    return []


def table_closed(ctx: TableContext, event: TableClosed) -> list[Violation]:
    """The session ends: every colour marker and the last spin direction are forgotten."""
    ctx.carry = AmericanCarry()
    return []


__all__ = ["COLOURS", "AmericanCarry", "AmericanRouletteRound", "ColourMarker",
           "bet_limits", "colour_value", "colour_value_range", "markers",
           "rules_of", "set_marker", "simple_min_multiple", "tier"]
