"""French roulette (single zero): spots, payouts, limits, the zero rule («en prison»), spin direction.

Game value ``french_roulette``; rulesets ``french_roulette.galicia`` (seed
``000_e1555249d49967be.txt`` L81-L193, «01 Ruleta francesa») and
``french_roulette.andalucia`` (seed ``004_5c9c19b250457762.txt`` L109-L439, «I.1.1.A Ruleta
francesa ordinaria»). Every ratio, limit multiplier and citation is read from the ruleset file.

Canonical spot codes (numbers ascending, no leading zeros; anything else is ``invalid_bet``):

=====================================  ==========================================  ======
code                                   covers                                      pays
=====================================  ==========================================  ======
``straight:N`` (N = 0..36)             N                                           35:1
``split:A-B``                          two numbers adjacent on the layout          17:1
                                       (incl. 0-1, 0-2, 0-3)
``street:A-B-C``                       a row (1-2-3 ... 34-35-36), or 0-1-2, 0-2-3 11:1
``corner:A-B-C-D``                     a 2x2 square of the layout, or 0-1-2-3       8:1
``sixline:A-...-F``                    two consecutive rows                          5:1
``column:1|2|3``                       column 1 = 1,4,...,34; 2 = 2,5,...; 3 = 3,6,...  2:1
``dozen:1|2|3``                        1-12, 13-24, 25-36                            2:1
``columns:1-2`` ``columns:2-3``        two adjacent columns                          1:2
``dozens:1-2`` ``dozens:2-3``          two adjacent dozens                           1:2
``red`` ``black`` ``even`` ``odd``     simple chances (0 excluded)                   1:1
``manque`` (1-18) ``passe`` (19-36)
=====================================  ==========================================  ======

The zero rule (simple chances only). At the k-th consecutive zero a simple-chance bet of initial
stake S either comes back as a half-back refund of ``S/2^k`` or stays in prison holding
``S/2^(k-1)``; a prisoner is settled by the next spin that is not voided: released (the held
amount back, no winnings) if its chance wins, lost if it loses, or hit by another zero. On the
last spin of a session (``round_started.last_of_session``) a zero forces the refund. State that
crosses rounds: the bets in prison stand in the table's book of standing bets (``ctx.book``,
:class:`~pitwatch.rules.book.Book`: each ``working``, ``initial`` its first stake, ``at_stake`` the amount
held, ``detail["zeros"]`` the consecutive zeros it has seen); the table's :class:`RouletteCarry` keeps the
direction of the previous wheel spin of the session (``None`` before the first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any, Mapping

from mypy_extensions import mypyc_attr

from pitwatch.rules.base import (
    Bet,
    ExpectedSettlement,
    RuleError,
    Violation,
    ViolationKind,
    limit_violations,
)
from pitwatch.rules.book import WORKING, StandingBet
from pitwatch.rules.game import Carry, GameRound, TableContext
from pitwatch.rules.models import RouletteRuleset
from pitwatch.rules.models.roulette import KIND_NAMES, RouletteLimits
from pitwatch.rules.spec import GameSpec, Gap
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import (
    BallLanded,
    LimitsChanged,
    PlayerDecision,
    TableClosed,
    TableOpened,
    WheelSpun,
)
from pitwatch.schemas.money import ZERO

# --------------------------------------------------------------------------- layout


def is_red(n: int) -> bool:
    """Colour of pocket ``n`` (1-36) by the rule of the texts: numbers whose digit sum is even
    are black, and so are 10 and 29; 19 is the exception (red); 0 is neither.
    Source: 000_e1555249d49967be.txt L93 (III); 004_5c9c19b250457762.txt L143-L150 (II.1.d)."""
    if not 1 <= n <= 36:
        return False
    if n in (10, 29):
        return False
    if n == 19:
        return True
    return sum(int(d) for d in str(n)) % 2 == 1


RED: frozenset[int] = frozenset(n for n in range(1, 37) if is_red(n))
BLACK: frozenset[int] = frozenset(range(1, 37)) - RED

SIMPLE_CHANCES: dict[str, frozenset[int]] = {
    "red": RED,
    "black": BLACK,
    "even": frozenset(range(2, 37, 2)),
    "odd": frozenset(range(1, 37, 2)),
    "manque": frozenset(range(1, 19)),
    "passe": frozenset(range(19, 37)),
}
"""The simple chances («suertes sencillas»): code -> winning numbers (0 is never in them)."""

KINDS = KIND_NAMES
"""Bet kinds; each has a payout, a maximum row and citations in the ruleset."""


def _row(r: int) -> tuple[int, int, int]:
    return (3 * r - 2, 3 * r - 1, 3 * r)


def _column(c: int) -> frozenset[int]:
    return frozenset(range(c, 37, 3))


def _dozen(d: int) -> frozenset[int]:
    return frozenset(range(12 * d - 11, 12 * d + 1))


@dataclass(frozen=True)
class Spot:
    """A parsed spot: ``kind`` (one of :data:`KINDS`), the winning ``numbers``, and ``zero``
    (True for the 0-1-2 / 0-2-3 streets and the 0-1-2-3 corner, which cite their own clause)."""

    code: str
    kind: str
    numbers: frozenset[int]
    zero: bool = False

    @property
    def simple(self) -> bool:
        return self.kind == "simple"

    @property
    def payout_key(self) -> str:
        return f"payout_{self.kind}_zero" if self.zero else f"payout_{self.kind}"


def _valid_spots() -> dict[str, Spot]:
    spots: dict[str, Spot] = {}

    def add(kind: str, nums: tuple[int, ...] | frozenset[int], code: str | None = None,
            zero: bool = False) -> None:
        c = code or f"{kind}:" + "-".join(str(n) for n in sorted(nums))
        spots[c] = Spot(c, kind, frozenset(nums), zero)

    for n in range(37):
        add("straight", (n,))
    for z in (1, 2, 3):
        add("split", (0, z))
    for n in range(1, 37):
        if n % 3 != 0:
            add("split", (n, n + 1))          # side by side in a row
        if n <= 33:
            add("split", (n, n + 3))          # one above the other in a column
    for r in range(1, 13):
        add("street", _row(r))
    add("street", (0, 1, 2), zero=True)
    add("street", (0, 2, 3), zero=True)
    for n in range(1, 33):
        if n % 3 != 0:
            add("corner", (n, n + 1, n + 3, n + 4))
    add("corner", (0, 1, 2, 3), zero=True)
    for r in range(1, 12):
        add("sixline", _row(r) + _row(r + 1))
    for c in (1, 2, 3):
        add("column", _column(c), f"column:{c}")
        add("dozen", _dozen(c), f"dozen:{c}")
    for a in (1, 2):
        add("columns", _column(a) | _column(a + 1), f"columns:{a}-{a + 1}")
        add("dozens", _dozen(a) | _dozen(a + 1), f"dozens:{a}-{a + 1}")
    for code, nums in SIMPLE_CHANCES.items():
        add("simple", nums, code)
    return spots


SPOTS: dict[str, Spot] = _valid_spots()
"""Every valid spot code of the layout -> :class:`Spot` (the closed list of 000 L117)."""

_CODE = re.compile(r"^[a-z]+(:\d+(-\d+)*)?$")


@lru_cache(maxsize=4096)
def parse_spot(code: str) -> Spot:
    """Parse a canonical spot code (see the module docstring).

    Returns the :class:`Spot`. Raises :class:`RuleError` with the reason for a malformed code,
    an unknown bet kind, numbers not in ascending canonical form, or a combination that is not
    on the layout (e.g. ``split:1-5``, ``corner:3-4-6-7``, ``columns:1-3``).
    Source: 000 L97, L117, L133-L151; 004 L160-L167, L211-L302.
    """
    spot = SPOTS.get(code)
    if spot is not None:
        return spot
    if not _CODE.match(code):
        raise RuleError(f"malformed roulette spot {code!r}")
    kind, _, rest = code.partition(":")
    if kind not in {"straight", "split", "street", "corner", "sixline", "column", "dozen",
                    "columns", "dozens"}:
        raise RuleError(f"unknown roulette bet kind in {code!r}")
    parts = rest.split("-") if rest else []
    nums = [int(p) for p in parts]
    if [str(n) for n in nums] != parts or nums != sorted(nums) or len(set(nums)) != len(nums):
        raise RuleError(f"spot {code!r}: numbers must be distinct, ascending, without leading zeros")
    raise RuleError(f"spot {code!r} is not a {kind} of the layout")


# --------------------------------------------------------------------------- ruleset helpers


def rules_of(ctx: TableContext) -> RouletteRuleset:
    """The roulette model of the table's ruleset; raises ``RuleError`` for another game's ruleset."""
    return ctx.ruleset.model_as(RouletteRuleset)


def limits_of(ctx: TableContext) -> RouletteLimits:
    """The French roulette limits of the table's ruleset: those of any roulette ruleset that takes them
    from French roulette (American roulette's, by 000 L199 and 004 L547-L552). Raises ``RuleError`` for a
    ruleset without them."""
    limits = getattr(ctx.ruleset.model, "limits", None)
    if not isinstance(limits, RouletteLimits):
        raise RuleError(f"ruleset {ctx.ruleset.id} has no roulette limits")
    return limits


def _opt_int(ctx: TableContext, name: str) -> int:
    raw = ctx.option(name)
    try:
        return int(str(raw))
    except (TypeError, ValueError):
        raise RuleError(f"table option {name}={raw!r} is not an integer") from None


def tier(ctx: TableContext) -> int:
    """The maximum tier (1, 2 or 3) of option ``max_tier``; raises ``RuleError`` otherwise.
    Source: 000 L161-L163; 004 L338-L352."""
    t = _opt_int(ctx, "max_tier")
    if t not in (1, 2, 3):
        raise RuleError(f"max_tier must be 1, 2 or 3, not {t}")
    return t


def simple_min_multiple(ctx: TableContext) -> Decimal:
    """Option ``simple_chance_min_multiple`` as a Decimal in [1, 5]; raises ``RuleError``
    otherwise. Source: 000 L159; 004 L340-L344."""
    raw = ctx.option("simple_chance_min_multiple")
    try:
        m = Decimal(str(raw))
    except ArithmeticError:
        raise RuleError(f"simple_chance_min_multiple={raw!r} is not a number") from None
    top = limits_of(ctx).simple_chance_min_multiple_max
    if not (Decimal(1) <= m <= top):
        raise RuleError(f"simple_chance_min_multiple must be between 1 and {top}, not {m}")
    return m


def bet_limits(ctx: TableContext, kind: str) -> tuple[Decimal, Decimal, str]:
    """``(minimum, maximum, citation)`` in euros for a bet of ``kind`` at this table.

    Minimum: the table minimum, times option ``simple_chance_min_multiple`` for simple chances.
    Maximum: ``max_multiples[kind][tier-1] x table minimum`` (option ``max_rule = "tiers"``),
    or the table's ``max_bet`` (``max_rule = "authorisation"``, Andalucía 004 L328-L336).
    Raises ``RuleError`` for an invalid option value. Any ruleset with French roulette's limits
    (:func:`limits_of`: American roulette's too), each citing its own text's keys.
    Source: 000 L159-L163; 004 L328-L352.
    """
    return ctx.derived(("roulette_bet_limits", kind), lambda: _bet_limits(ctx, kind))  # type: ignore[no-any-return]


def _bet_limits(ctx: TableContext, kind: str) -> tuple[Decimal, Decimal, str]:
    rs = ctx.ruleset
    minimum = ctx.min_bet
    cite = rs.cite("limit_simple" if kind == "simple" else "limit_multiple")
    if kind == "simple":
        minimum = rs.round(ctx.min_bet * simple_min_multiple(ctx))
        cite = f"{rs.cite('limit_simple_minimum')}; {cite}"
    rule = ctx.option("max_rule")
    if rule == "tiers":
        maximum = ctx.min_bet * limits_of(ctx).max_multiples.of(kind)[tier(ctx) - 1]
    elif rule == "authorisation" and "limit_authorisation" in rs.model.citations:
        maximum = ctx.max_bet
        cite = rs.cite("limit_authorisation")
        if kind == "simple":
            cite = f"{rs.cite('limit_simple_minimum')}; {cite}"
    else:
        raise RuleError(f"ruleset {rs.id} has no max_rule {rule!r}")
    return minimum, maximum, cite


def _fraction(ctx: TableContext, k: int) -> Decimal:
    return rules_of(ctx).zero.refund_fraction ** k


def refund_amount(ctx: TableContext, initial: Decimal, k: int) -> Decimal:
    """Half-back (or forced last-spin) refund at the ``k``-th consecutive zero: ``initial/2^k``
    rounded by the ruleset. Source: 000 L125-L129; 004 L304-L324."""
    return ctx.ruleset.round(initial * _fraction(ctx, k))


def held_amount(ctx: TableContext, initial: Decimal, k: int) -> Decimal:
    """Amount a bet kept in prison at the ``k``-th consecutive zero has at stake (returned if it
    is released): ``initial/2^(k-1)`` rounded by the ruleset. Source: 000 L125-L127; 004 L304-L316."""
    return ctx.ruleset.round(initial * _fraction(ctx, k - 1))


def half_back_allowed(ctx: TableContext, initial: Decimal, k: int) -> bool:
    """Whether the half-back option exists at the ``k``-th consecutive zero: not when the
    compared amount (ruleset ``zero.floor_basis``: the refund ``initial/2^k`` in Galicia, the
    kept amount ``initial/2^(k-1)`` in Andalucía) is below the table minimum, from zero
    ``zero.floor_from_zero`` on. Source: 000 L127; 004 L316-L319."""
    z = rules_of(ctx).zero
    if k < z.floor_from_zero:
        return True
    amount = refund_amount(ctx, initial, k) if z.floor_basis == "refund" else held_amount(ctx, initial, k)
    return amount >= ctx.min_bet


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (pitwatch.native), still subclassable
class RouletteCarry(Carry):
    """A roulette table's state across spins: ``last_direction``, the way the wheel turned at the last spin of
    the session (``None`` before the first; each spin must turn the other way, 000 L183; 004 L386-L390).
    Stored as ``{"version": 1, "last_direction": ...}``."""

    def __init__(self) -> None:
        self.last_direction: str | None = None

    def fields(self) -> dict[str, Any]:
        """``{"last_direction": ...}`` (a key only once a spin was recorded, as before the carry was typed)."""
        return {} if self.last_direction is None else {"last_direction": self.last_direction}

    def load(self, fields: Mapping[str, Any], version: int) -> None:
        """From :meth:`fields`."""
        direction = fields.get("last_direction")
        self.last_direction = None if direction is None else str(direction)


def spin_outcome(number: int | None) -> str:
    """A spin's result in words: ``"17 black"``, ``"0 zero"``; ``"no result"`` for ``None`` (no ball)."""
    if number is None:
        return "no result"
    if number == 0:
        return "0 zero"
    return f"{number} {'red' if number in RED else 'black'}"


def spin_violations(ctx: TableContext, spins: list[tuple[str, str]], direction: str, eid: str) -> list[Violation]:
    """Record a ``wheel_spun`` of ``direction`` (event ``eid``) in ``spins``; a ``spin_direction``
    violation if the wheel turns as the previous spin of the session did (the last of ``spins``, else
    the :class:`RouletteCarry`'s ``last_direction``): it must turn the opposite way each spin (000 L183;
    004 L386-L390)."""
    prev = spins[-1][0] if spins else ctx.carry_as(RouletteCarry).last_direction
    spins.append((direction, eid))
    if prev is not None and prev == direction:
        return [Violation(ViolationKind.SPIN_DIRECTION,
                          f"wheel spun {direction} again: it must turn opposite to the previous spin",
                          ctx.ruleset.cite("spin_direction"), (eid,))]
    return []


def spot_violations(ctx: TableContext, bet: Bet) -> tuple[Spot | None, list[Violation]]:
    """``bet``'s spot and what is wrong with it: ``(None, [invalid_bet])`` for a code not on the layout;
    else the spot and its stake's violations against the limits of its kind (:func:`bet_limits`:
    ``bet_below_minimum`` / ``bet_above_maximum``, or ``procedure`` when an option leaves them unknown).
    Source: 000 L159-L163; 004 L328-L352."""
    try:
        spot = parse_spot(bet.spot)
    except RuleError as exc:
        return None, [Violation(ViolationKind.INVALID_BET, f"bet {bet.bet_id}: {exc}", ctx.ruleset.cite("layout"),
                                (bet.event_id,), bet.bet_id, bet.player_id, bet.stake)]
    try:
        lo, hi, cite = bet_limits(ctx, spot.kind)
    except RuleError as exc:
        return spot, [Violation(ViolationKind.PROCEDURE, f"limits of {spot.kind} unknown: {exc}",
                                ctx.ruleset.cite("limit_minimum"), (bet.event_id,), bet.bet_id, bet.player_id)]
    return spot, limit_violations(bet, lo, hi, cite, f"{bet.spot} ({spot.kind})")


def after_the_ball(ctx: TableContext, bet: Bet, number: int | None, ball_event: str | None,
                   bets_closed: bool) -> list[Violation]:
    """``past_posting`` for a bet placed once the ball landed (``number``, event ``ball_event``) when no
    «No va más» was recorded (``bets_closed`` false; after it, the engine flags the bet itself)."""
    if number is None or bets_closed:
        return []
    return [Violation(ViolationKind.PAST_POSTING,
                      f"bet {bet.bet_id} of {bet.stake} EUR on {bet.spot} placed after the ball landed",
                      ctx.ruleset.cite("no_more_bets"), (bet.event_id, ball_event or ""), bet.bet_id,
                      bet.player_id, bet.stake)]


def second_ball(ctx: TableContext, number: int | None, ball_event: str | None, landed: int,
                eid: str) -> list[Violation]:
    """A ``procedure`` violation if a spin that already has a result (``number``, from event
    ``ball_event``) gets a second ``ball_landed`` (``landed``, event ``eid``)."""
    if number is None:
        return []
    return [Violation(ViolationKind.PROCEDURE, f"second ball_landed ({landed} after {number}) in one spin",
                      ctx.ruleset.cite("result"), (ball_event or "", eid))]


def prisoners(ctx: TableContext) -> dict[str, StandingBet]:
    """The bets in prison at this table, ``bet_id -> StandingBet`` in book order (see the module
    docstring): a roulette table's book holds only them."""
    return {b.bet_id: b for b in ctx.book}


def prisoner(bet: Bet | StandingBet, round_id: str, initial: Decimal, held: Decimal, zeros: int) -> StandingBet:
    """The standing bet of a simple chance kept in prison at its ``zeros``-th consecutive zero, holding
    ``held`` of its ``initial`` stake (euros)."""
    return StandingBet(bet.bet_id, bet.player_id, bet.spot, initial, held, WORKING, round_id, bet.event_id,
                       detail={"zeros": zeros})


def zeros_of(p: StandingBet) -> int:
    """The consecutive zeros a bet in prison has seen."""
    return int(p.detail["zeros"])


def book_prisoners(ctx: TableContext, old: Mapping[str, Any]) -> None:
    """Stand in ``ctx.book`` the bets in prison a table state written before the book of standing bets kept
    in its carry's ``"prisoners"`` (``old``: bet_id -> ``player_id``, ``spot``, ``initial`` (euros as a
    string), ``zeros``, ``round_id``, ``event_id``), in the same order (the snapshot upcaster,
    :mod:`pitwatch.detectors.snapshot`)."""
    for bid, p in old.items():
        initial, zeros = Decimal(p["initial"]), int(p["zeros"])
        ctx.book.stand(StandingBet(bid, p["player_id"], p["spot"], initial, held_amount(ctx, initial, zeros),
                                   WORKING, p["round_id"], p["event_id"], detail={"zeros": zeros}))


# --------------------------------------------------------------------------- the round


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (pitwatch.native), still subclassable
class RouletteRound(GameRound):
    """One spin of French roulette (see the module docstring for spots and the zero rule).

    Violations emitted: ``invalid_bet`` (spot not on the layout), ``bet_below_minimum`` /
    ``bet_above_maximum`` (per kind), ``past_posting`` (bet after the ball landed without a
    «No va más»), ``spin_direction`` (wheel spun the same way as the previous spin, 000 L183 /
    004 L386-L390), ``illegal_decision`` (zero decision without a zero, on a bet that is not a
    simple chance hit by it, half-back below the floor, en prison on the last spin), and
    ``procedure`` (no ball, two balls, ball without a recorded spin or without «No va más»,
    limits changed in a Galician session, table closed with bets in prison).
    """

    game = "french_roulette"
    carry_type = RouletteCarry

    def __init__(self, ctx: TableContext, round_id: str, last_of_session: bool = False):
        super().__init__(ctx, round_id, last_of_session)
        self.number: int | None = None
        self.ball_event: str | None = None
        self.spins: list[tuple[str, str]] = []            # (direction, event_id)
        self.decisions: dict[str, tuple[str, str]] = {}   # bet_id -> (decision, event_id)
        self.prisoners: dict[str, StandingBet] = prisoners(ctx)
        self.voided = False

    # ------------------------------------------------------------------ helpers

    def _cite(self, key: str) -> str:
        return self.ctx.ruleset.cite(key)

    def _zero_count(self, bet_id: str) -> tuple[Decimal, int] | None:
        """(initial stake, k) for a simple-chance bet hit by this round's zero, else None."""
        if bet_id in self.prisoners:
            p = self.prisoners[bet_id]
            return p.initial, zeros_of(p) + 1
        bet = self.bets.get(bet_id)
        if bet is not None and bet.spot in SIMPLE_CHANCES:
            return bet.stake, 1
        return None

    def _zero_fate(self, bet_id: str, initial: Decimal, k: int) -> str:
        """``"forced"`` (last spin), ``"half_back"`` or ``"en_prison"`` for a simple chance hit
        by the k-th zero, from the recorded decision or the table default."""
        if self.last_of_session:
            return "forced"
        rec = self.decisions.get(bet_id)
        choice = rec[0] if rec else self.ctx.option("zero_default")
        if choice == "half_back" and not half_back_allowed(self.ctx, initial, k):
            return "en_prison"
        return "half_back" if choice == "half_back" else "en_prison"

    # ------------------------------------------------------------------ hooks

    def on_bet(self, bet: Bet) -> list[Violation]:
        """Validate the spot (``invalid_bet``) and the limits of its kind; flag a bet placed
        after the ball landed when no «No va más» was recorded (``past_posting``)."""
        spot, out = spot_violations(self.ctx, bet)
        if spot is None:
            return out
        out.extend(after_the_ball(self.ctx, bet, self.number, self.ball_event, self.bets_closed))
        if bet.bet_id in self.prisoners:
            out.append(Violation(ViolationKind.PROCEDURE,
                                 f"bet id {bet.bet_id} reused while that bet is in prison",
                                 self._cite("zero_choice"), (bet.event_id,), bet.bet_id, bet.player_id))
        return out

    def on_event(self, event: EventBase) -> list[Violation]:
        """Apply ``wheel_spun`` (direction check), ``ball_landed`` and ``player_decision``
        (``en_prison``/``half_back``); any other game event is a procedure violation."""
        if type(event) is WheelSpun:
            return self.wheel_spun(event)
        if type(event) is BallLanded:
            return self.ball_landed(event)
        if type(event) is PlayerDecision:
            return self.player_decision(event)
        return [Violation(ViolationKind.PROCEDURE, f"{event.type} is not a roulette event", self._cite("layout"),
                          (str(event.event_id),))]

    def wheel_spun(self, event: WheelSpun) -> list[Violation]:
        """A spin of the wheel: recorded, and a ``spin_direction`` violation if it turns as the previous spin
        of the session did (:func:`spin_violations`)."""
        return spin_violations(self.ctx, self.spins, event.direction, str(event.event_id))

    def ball_landed(self, event: BallLanded) -> list[Violation]:
        """The result of the spin; a second one in the spin is a ``procedure`` violation (:func:`second_ball`)
        and replaces the first."""
        eid = str(event.event_id)
        out = second_ball(self.ctx, self.number, self.ball_event, event.number, eid)
        self.number, self.ball_event = event.number, eid
        return out

    def player_decision(self, event: PlayerDecision) -> list[Violation]:
        """A player's choice at zero for a simple chance (``en_prison`` or ``half_back``), recorded when the
        ball landed on zero and the bet is one it hit; an ``illegal_decision`` for any other decision, a
        bet the zero did not hit, no zero, en prison on the last spin of the session, or a half-back
        below the floor (see the class docstring)."""
        eid = str(event.event_id)
        bad = None
        cite = self._cite("zero_choice")
        hit = self._zero_count(event.bet_id) if event.bet_id else None
        if event.decision not in ("en_prison", "half_back"):
            bad = f"decision {event.decision} does not exist in roulette"
        elif hit is None:
            bad = f"{event.decision} on {event.bet_id}, which is not a simple-chance bet of this spin or in prison"
        elif self.number != 0:
            bad = f"{event.decision} on {event.bet_id} although the ball did not land on zero" + (
                "" if self.number is not None else " (no result yet)")
        elif event.decision == "en_prison" and self.last_of_session:
            bad = f"en_prison on {event.bet_id} on the last spin of the session: the refund is compulsory"
            cite = self._cite("zero_last_spin")
        elif event.decision == "half_back" and not self.last_of_session and not half_back_allowed(self.ctx, *hit):
            bad = (f"half_back on {event.bet_id} at zero number {hit[1]}: its value is below the table "
                   f"minimum {self.ctx.min_bet}, it must stay in prison")
            cite = self._cite("zero_floor")
        if hit is not None and event.bet_id is not None and self.number == 0 and event.decision in (
                "en_prison", "half_back"):  # a hit is always of a bet id
            self.decisions[event.bet_id] = (event.decision, eid)
        if bad is None:
            return []
        player = self.bets[event.bet_id].player_id if event.bet_id in self.bets else (
            p.player_id if (p := self.prisoners.get(event.bet_id or "")) is not None else None)
        return [Violation(ViolationKind.ILLEGAL_DECISION, bad, cite, (eid,), event.bet_id, player)]

    # ------------------------------------------------------------------ verdict

    def settle(self) -> list[ExpectedSettlement]:
        """One settlement per bet of the spin and per bet in prison (see the module docstring).

        Without a result (no ``ball_landed``) the spin's stakes are returned (outcome ``void``;
        :meth:`check` reports it) and prisoners are left for the next spin.
        """
        ctx, n = self.ctx, self.number
        out: list[ExpectedSettlement] = []
        for bet in self.bets.values():
            out.append(self._settle_bet(bet, n))
        if n is None:
            return out
        for bid, p in self.prisoners.items():
            initial, zeros = p.initial, zeros_of(p)
            held = held_amount(ctx, initial, zeros)
            since = f"in prison since round {p.round_id} after {zeros} zero(s)"
            if n == 0:
                out.append(self._zero_settlement(bid, p.player_id, p.spot, held, initial, zeros + 1, since))
            elif n in SIMPLE_CHANCES[p.spot]:
                out.append(ExpectedSettlement(bid, p.player_id, p.spot, held, "released", held, ZERO,
                                              self._cite("prison_release") if zeros == 1 else
                                              f"{self._cite('prison_release')}; {self._cite('zero_repeat')}",
                                              f"{n}: {p.spot} wins, released without winnings ({since})",
                                              initial=initial))
            else:
                out.append(ExpectedSettlement(bid, p.player_id, p.spot, held, "lose", ZERO, ZERO,
                                              self._cite("prison_release"),
                                              f"{n}: {p.spot} loses, lost for good ({since})", initial=initial))
        return out

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
        if spot.simple and n == 0:
            return self._zero_settlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, bet.stake, 1,
                                         "fresh bet")
        cite = self._cite(spot.payout_key)
        if n in spot.numbers:
            ratio = rules_of(self.ctx).payouts.ratio(spot.kind)
            returned = rs.round(bet.stake + bet.stake * ratio)
            return ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "win", returned, ZERO,
                                      cite, f"{n} wins {bet.spot}: stake kept + {ratio} x stake")
        return ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "lose", ZERO, ZERO, cite,
                                  f"{n} not in {bet.spot}")

    def _zero_settlement(self, bet_id: str, player_id: str, spot: str, stake: Decimal, initial: Decimal,
                         k: int, what: str) -> ExpectedSettlement:
        fate = self._zero_fate(bet_id, initial, k)
        repeat = k >= 2
        if fate == "forced":
            amount = refund_amount(self.ctx, initial, k)
            return ExpectedSettlement(bet_id, player_id, spot, stake, "half_back", amount, ZERO,
                                      self._cite("zero_last_spin"),
                                      f"zero number {k} on the last spin: compulsory refund of {amount} "
                                      f"of the initial {initial} ({what})", initial=initial)
        if fate == "half_back":
            amount = refund_amount(self.ctx, initial, k)
            cite = self._cite("zero_choice")
            if repeat:
                cite = f"{cite}; {self._cite('zero_repeat')}"
            return ExpectedSettlement(bet_id, player_id, spot, stake, "half_back", amount, ZERO, cite,
                                      f"zero number {k}: half back, {amount} of the initial {initial} ({what})",
                                      initial=initial)
        forced = self.decisions.get(bet_id, ("",))[0] == "half_back" or (
            bet_id not in self.decisions and self.ctx.option("zero_default") == "half_back")
        cite = self._cite("zero_floor") if forced else (
            f"{self._cite('zero_choice')}; {self._cite('zero_repeat')}" if repeat else self._cite("zero_choice"))
        kept = held_amount(self.ctx, initial, k)
        return ExpectedSettlement(bet_id, player_id, spot, stake, "en_prison", ZERO, ZERO, cite,
                                  f"zero number {k}: en prison holding {kept} of the initial {initial} ({what})"
                                  + (" — below the table minimum, it must stay in prison" if forced else ""),
                                  carried=kept, initial=initial)

    def check(self) -> list[Violation]:
        """End-of-spin procedure checks: a spin with bets (or prisoners) but no result; a result
        without a recorded wheel spin (direction unauditable) or without «No va más»."""
        out: list[Violation] = []
        if self.number is None:
            if self.bets or self.prisoners:
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
        """«Tirada nula»: the spin's stakes come back; bets in prison stay in prison
        (000 L189-L191; 004 L429-L436)."""
        self.voided = True
        return super().void(reason)

    def finish(self) -> None:
        """Update the table: the last wheel direction (the table's :class:`RouletteCarry`), and the book (``ctx.book``): the
        prisoners settled by this spin leave it, new ones from this spin's zero and survivors of a repeated
        zero stand in it (in that order). A voided spin, or one without a result, leaves the prisoners
        unchanged."""
        if self.spins:
            self.ctx.carry_as(RouletteCarry).last_direction = self.spins[-1][0]
        if self.voided or self.number is None:
            return
        new: list[StandingBet] = []
        if self.number == 0:
            for bet in self.bets.values():
                if bet.spot in SIMPLE_CHANCES and self._zero_fate(bet.bet_id, bet.stake, 1) == "en_prison":
                    new.append(prisoner(bet, self.round_id, bet.stake, held_amount(self.ctx, bet.stake, 1), 1))
            for bid, p in self.prisoners.items():
                k = zeros_of(p) + 1
                if self._zero_fate(bid, p.initial, k) == "en_prison":
                    new.append(prisoner(p, p.round_id, p.initial, held_amount(self.ctx, p.initial, k), k))
        book = self.ctx.book
        for bid in self.prisoners:  # each was settled by this spin: released, lost or hit again
            book.resolve(bid)
        for b in new:
            book.stand(b)

    def outcome(self) -> str:
        """E.g. ``"17 black"``, ``"0 zero"``; ``"no result"`` without a ball (:func:`spin_outcome`)."""
        return spin_outcome(self.number)

    @staticmethod
    def on_table_event(ctx: TableContext, event: EventBase) -> list[Violation]:
        """``table_opened``: validate the roulette options (procedure violation if out of the
        law's range). ``limits_changed``: a procedure violation where the ruleset forbids
        changing limits during a session (Galicia 000 L169). ``table_closed``: bets still in
        prison were never settled (procedure violation, 000 L129 / 004 L320-L324); the
        prisoners and the last spin direction are cleared for the next session."""
        if type(event) is TableOpened:
            return table_opened(ctx, event)
        if type(event) is LimitsChanged:
            return limits_changed(ctx, event)
        if type(event) is TableClosed:
            return table_closed(ctx, event)
        return []


def table_opened(ctx: TableContext, event: TableOpened) -> list[Violation]:
    """The options of a roulette table just opened: a ``procedure`` violation for each out of the law's
    range (``max_tier``, ``simple_chance_min_multiple``, ``zero_default``, ``max_rule``); see
    :meth:`RouletteRound.on_table_event`."""
    return limit_option_violations(ctx, str(event.event_id), zero_default=True)


def limit_option_violations(ctx: TableContext, eid: str, zero_default: bool = False) -> list[Violation]:
    """The limit options of a table of the roulette family just opened (event ``eid``): a ``procedure``
    violation for a ``max_tier`` or ``simple_chance_min_multiple`` out of the law's range (000 L159-L169;
    004 L326-L379), for a ``max_rule`` the ruleset does not offer and, with ``zero_default``, for a zero
    default other than en prison or half back (French roulette's zero, 000 L121-L129)."""
    rs = ctx.ruleset
    out: list[Violation] = []
    for check in (tier, simple_min_multiple):
        try:
            check(ctx)
        except RuleError as exc:
            out.append(Violation(ViolationKind.PROCEDURE, f"table option: {exc}",
                                 rs.cite("limit_multiple"), (eid,)))
    if zero_default and ctx.option("zero_default") not in ("en_prison", "half_back"):
        out.append(Violation(ViolationKind.PROCEDURE, f"zero_default={ctx.option('zero_default')!r} "
                             "must be en_prison or half_back", rs.cite("zero_choice"), (eid,)))
    rule = ctx.option("max_rule")
    if rule != "tiers" and not (rule == "authorisation" and "limit_authorisation" in rs.model.citations):
        out.append(Violation(ViolationKind.PROCEDURE, f"max_rule={rule!r} not available in {rs.id}",
                             rs.cite("limit_multiple"), (eid,)))
    return out


def limits_changed(ctx: TableContext, event: LimitsChanged) -> list[Violation]:
    """New table limits (applied by the engine after this call, ``ctx`` still holds the old ones): a
    ``procedure`` violation where the ruleset forbids changing them during a session; see
    :meth:`RouletteRound.on_table_event`."""
    return limits_change_violations(ctx, event, rules_of(ctx).limits.change_during_session)


def limits_change_violations(ctx: TableContext, event: LimitsChanged, allowed: bool) -> list[Violation]:
    """A ``procedure`` violation for new limits (``event``) that differ from the table's when the ruleset
    does not allow changing them during a session (``allowed`` false: Galicia, 000 L169)."""
    changed = (event.min_bet, event.max_bet) != (ctx.min_bet, ctx.max_bet)
    if not changed or allowed:
        return []
    return [Violation(ViolationKind.PROCEDURE,
                      f"limits changed during the session from {ctx.min_bet}-{ctx.max_bet} "
                      f"to {event.min_bet}-{event.max_bet} EUR", ctx.ruleset.cite("limits_change"),
                      (str(event.event_id),))]


def table_closed(ctx: TableContext, event: TableClosed) -> list[Violation]:
    """The session ends: a ``procedure`` violation for the bets still in prison (cleared from the book),
    and the last spin direction forgotten; see :meth:`RouletteRound.on_table_event`."""
    out: list[Violation] = []
    left = ctx.book.clear()
    if left:
        amount = sum((p.initial for p in left), ZERO)
        out.append(Violation(ViolationKind.PROCEDURE,
                             f"table closed with {len(left)} bet(s) in prison never settled: "
                             + ", ".join(sorted(p.bet_id for p in left)), ctx.ruleset.cite("zero_last_spin"),
                             tuple(p.event_id for p in left), amount=amount))
    ctx.carry_as(RouletteCarry).last_direction = None
    return out


SPEC = GameSpec(
    game="french_roulette", round=RouletteRound, model=RouletteRuleset, title="French roulette",
    names=("Ruleta francesa", "French roulette"), simulator="pitwatch.sim.roulette",
    edges="pitwatch.rules.edges.roulette",
    cited_by={
        **{f"payouts.{k}": (f"payout_{k}",) for k in KIND_NAMES},
        **{f"limits.max_multiples.{k}": ("limit_simple" if k == "simple" else "limit_multiple",) for k in KIND_NAMES},
        "limits.simple_chance_min_multiple_max": ("limit_simple_minimum",),
        "limits.change_during_session": ("limits_change",),
        "options.max_tier": ("limit_simple", "limit_multiple"),
        "options.simple_chance_min_multiple": ("limit_simple_minimum",),
        "options.zero_default": ("zero_choice",),
        "options.max_rule": ("limit_multiple", "limit_authorisation"),
        "zero.refund_fraction": ("zero_repeat", "zero_last_spin"),
        "zero.floor_basis": ("zero_floor",),
        "zero.floor_from_zero": ("zero_floor",),
    },
    not_checked={
        "galicia": (
            Gap("the order of payment (columns and dozens first, straight-ups last): a settlement carries no order",
                "000 L187"),
            Gap("at least one table of the casino open at the authorised minimum (a rule across tables)", "000 L171-L173"),
        ),
        "andalucia": (
            Gap("bets announced before «no va más» and placed after it: reported as past_posting for an inspector "
                "to clear (no event marks an announced bet)", "004 L403-L408"),
            Gap("a change of the minimum announced over the last three spins (limits_changed is accepted; the announcement "
                "is no event)",
                "004 L362-L367"),
            Gap("at least one table of the casino open at the authorised minimum (a rule across tables)", "004 L369-L372"),
        ),
    },
)
"""The game's spec (:mod:`pitwatch.rules.registry`): its round, ruleset model, edges, labels, simulator,
and the ruleset keys' citations for the generated docs."""
