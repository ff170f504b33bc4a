"""Ruleta francesa abreviada round generator for the casino-floor simulator (004_5c9c19b250457762.txt L441-L454).

The game of I.1.1.B is the ordinary French roulette's (004 L443-L446), so a spin is played as
:mod:`pitwatch.sim.roulette` plays one: the players' bets, the wheel spun in the direction opposite to the
previous spin (004 L386-L390, :func:`pitwatch.sim.roulette.bet_limits` and its maxima for the stakes),
«No va más» (bets_closed), the ball landing uniformly on 0-36 (``table.rng``); but the layout «carecerá de
lugares para colocar las apuestas sencillas, docenas y columnas» (004 L447-L450), so the players bet only on
sixlines, streets, corners (0-1-2-3, «cuatro primeros», included), splits and straight-ups (004 L452-L454),
and a zero needs no decision: it wins the bets that cover it and loses every other. About 45-60 s a spin.

Player styles: ``regular`` (2-7 bets, mostly straight-ups and splits around a few favourite numbers, some
corners, streets, sixlines), ``cautious`` (one or two sixlines, streets or corners at the minimum),
``high_roller`` (2-5 straight-ups, splits and corners near their maximum).

Every bet is paid from this module's own payout table (:data:`WINNINGS`, written from the seed's lines, not
from the engine), so a wrong payout in the engine shows as a discrepancy on a clean spin.

Faults injected on request, each labelled: ``late_bet`` (a bet placed after «No va más»), ``over_limit_bet``
(one chip above the maximum of the bet's kind), ``spin_direction`` (the wheel spun the same way as the
previous spin; never on the first spin of a table), ``off_layout_bet`` (a player puts a chip on a simple
chance, a dozen or a column as at the ordinary roulette; the dealer hands it back: settled ``refused``,
the stake returned; the engine's ``invalid_bet``, 004 L447-L454).

State kept in ``table.state``: ``last_direction`` (str), ``favourites`` (player_id -> list of numbers).
"""

from __future__ import annotations

from decimal import ROUND_CEILING, Decimal
from typing import Any

from pitwatch.sim import roulette as ordinary
from pitwatch.sim.base import TableSpec
from pitwatch.sim.payouts import ZERO, Payment, cents_down, roulette_kind, roulette_numbers

GAME = "french_roulette_abreviada"
RULESET = "french_roulette_abreviada.andalucia"

WINNINGS: dict[str, Decimal] = {
    "straight": Decimal(35),   # pleno: 004 L221-L224 «treinta y cinco veces el valor de su apuesta»
    "split": Decimal(17),      # pareja o caballo: 004 L226-L229 «diecisiete veces»
    "street": Decimal(11),     # fila transversal, also 0-1-2 / 0-2-3: 004 L231-L240 «once veces»
    "corner": Decimal(8),      # cuadro, also 0-1-2-3 («cuatro primeros», L453-L454): 004 L242-L249 «ocho veces»
    "sixline": Decimal(5),     # seisena: 004 L261-L264 «cinco veces»
}
"""Net winnings per euro staked on a winning bet of each kind of the abbreviated layout (004 L452-L454); the
winner also keeps the stake (004 L217-L219 «conservará la cantidad apostada»)."""

LAYOUT: dict[str, list[str]] = {k: v for k, v in ordinary._layout().items() if k in WINNINGS}
"""The spot codes of the abbreviated layout by kind: the ordinary layout's (:mod:`pitwatch.sim.roulette`) of
the kinds of 004 L452-L454."""

OFF_LAYOUT: tuple[str, ...] = ("red", "black", "even", "odd", "manque", "passe", "column:1", "column:2",
                               "column:3", "dozen:1", "dozen:2", "dozen:3", "columns:1-2", "dozens:2-3")
"""Spots of the ordinary roulette the abbreviated layout has no place for (004 L447-L450): the
``off_layout_bet`` fault's."""

FAULTS: dict[str, frozenset[str]] = {"off_layout_bet": frozenset({"invalid_bet"})}
"""The fault kind only this game injects -> the alert that catches it (:data:`pitwatch.sim.base.SIMULATOR_TRAITS`):
a bet off the abbreviated layout is the engine's ``invalid_bet`` (see the module docstring)."""

DROPPABLE = frozenset({"settlement_recorded"})
"""Event types a ``dropped_event`` fault may remove: only settlements (a lost spin would change the next
spin's direction check)."""

_WEIGHTS = {"regular": (45, 25, 12, 8, 10), "cautious": (0, 0, 35, 25, 40), "high_roller": (50, 35, 15, 0, 0)}
_KINDS = ("straight", "split", "corner", "street", "sixline")


def table(table_id: str = "AND-FA-01", casino_id: str = "and-marbella", ruleset_id: str = RULESET) -> TableSpec:
    """A ruleta francesa abreviada table of Andalucía: minimum 5.00 EUR, maximum 900.00 EUR (the tier-1
    maxima of the multiple bets, 10 to 60 times the minimum, 004 L346-L352, stay below it), seven seats."""
    return TableSpec(table_id, casino_id, GAME, ruleset_id, Decimal("5.00"), Decimal("900.00"))


PREFIX = "FA"
"""The two letters of an abreviada table's id (``AND-FA-13``)."""


def prepare(table: Any, emit: Any) -> None:
    """No table-level events between spins (no shoe): nothing to emit."""
    return None


def payments(number: int, bets: list[tuple[str, str, Decimal]]) -> list[Payment]:
    """The payment of every bet ``(bet_id, spot, stake)`` of a spin that landed on ``number``: a bet whose
    numbers include it returns its stake plus :data:`WINNINGS` of its kind (004 L217-L264), the zero
    included (a bet on 0 wins like any other); every other bet is lost."""
    out = []
    for bet_id, spot, stake in bets:
        if number in roulette_numbers(spot):
            out.append(Payment(bet_id, "win", stake + cents_down(stake * WINNINGS[roulette_kind(spot)])))
        else:
            out.append(Payment(bet_id, "lose", ZERO))
    return out


def _stake_for(table: Any, player: Any, kind: str, near_max: bool = False) -> Decimal:
    """A stake within [minimum, maximum] of ``kind`` (:func:`pitwatch.sim.roulette.bet_limits`)."""
    lo, hi = ordinary.bet_limits(table, kind)
    if near_max:
        units = int(hi // table.min_bet)
        frac = 1.0 if table.rng.random() < 0.35 else table.rng.uniform(0.6, 1.0)
        stake = table.min_bet * max(1, int(units * frac))
    else:
        stake = table.stake(player, maximum=hi)
    if stake < lo:
        stake = table.min_bet * (lo / table.min_bet).to_integral_value(rounding=ROUND_CEILING)
    return min(max(stake, lo), hi)


def _spot(table: Any, player: Any) -> str:
    rng = table.rng
    kind = rng.choices(_KINDS, _WEIGHTS[player.style])[0]
    favourites = table.state.setdefault("favourites", {})
    if player.player_id not in favourites:
        favourites[player.player_id] = rng.sample(range(37), rng.randint(3, 6))
    fav = favourites[player.player_id]
    if kind != "sixline" and rng.random() < 0.75:
        n = rng.choice(fav)
        options = [c for c in LAYOUT[kind] if n in roulette_numbers(c)]
        if options:
            return rng.choice(options)
    return rng.choice(LAYOUT[kind])


def _player_bets(table: Any, player: Any) -> list[tuple[str, Decimal]]:
    """The (spot, stake) bets of one player for one spin, by style."""
    rng = table.rng
    count = {"cautious": rng.choice((1, 1, 2)), "regular": rng.randint(2, 7), "high_roller": rng.randint(2, 5)}
    bets: list[tuple[str, Decimal]] = []
    for _ in range(count[player.style]):
        spot = _spot(table, player)
        if spot not in (s for s, _ in bets):
            bets.append((spot, _stake_for(table, player, roulette_kind(spot), player.style == "high_roller")))
    return bets


def play_round(table: Any, round_id: str, emit: Any, faults: Any) -> list[Payment]:
    """Emit one spin's bets, wheel spin, «No va más» and result (see the module docstring); inject and label
    the ``late_bet``, ``over_limit_bet``, ``spin_direction`` and ``off_layout_bet`` faults when
    ``faults.hit`` says so. Returns the payment of every bet (:func:`payments`), and ``refused`` with the
    stake handed back for a bet off the layout (the late bet is no wager: nothing is paid on it)."""
    rng, state = table.rng, table.state
    plan: list[tuple[Any, str, Decimal]] = []
    for player in table.players:
        if rng.random() < 0.85:
            plan.extend((player, spot, stake) for spot, stake in _player_bets(table, player))
    over_idx = off_idx = None
    if plan and faults.hit("over_limit_bet"):
        over_idx = rng.randrange(len(plan))
        player, spot, _ = plan[over_idx]
        _, hi = ordinary.bet_limits(table, roulette_kind(spot))
        plan[over_idx] = (player, spot, hi + table.min_bet)
    if table.players and faults.hit("off_layout_bet"):
        off_idx = rng.randrange(len(plan) + 1)
        plan.insert(off_idx, (rng.choice(table.players), rng.choice(OFF_LAYOUT), table.min_bet))
        if over_idx is not None and over_idx >= off_idx:
            over_idx += 1
    spin_at = int(len(plan) * rng.uniform(0.5, 0.9))
    placed: list[tuple[str, str, Decimal]] = []
    refused: list[Payment] = []

    def spin_wheel() -> None:
        prev = state.get("last_direction")
        if prev is None:
            direction = rng.choice(("clockwise", "counterclockwise"))
        elif faults.hit("spin_direction"):
            direction = prev
            faults.label("spin_direction", round_id, None, f"wheel spun {prev} twice in a row")
        else:
            direction = "counterclockwise" if prev == "clockwise" else "clockwise"
        state["last_direction"] = direction
        emit("wheel_spun", dt=rng.uniform(2, 5), direction=direction)

    prev_player = None
    for i, (player, spot, stake) in enumerate(plan):
        if i == spin_at:
            spin_wheel()
        dt = rng.uniform(6, 12) if i == 0 else rng.uniform(1, 2.5) if player is prev_player else rng.uniform(2, 4)
        bet_id = table.new_bet_id()
        emit("bet_placed", actor=("player", player.player_id), dt=dt, bet_id=bet_id,
             player_id=player.player_id, spot=spot, stake=stake)
        prev_player = player
        if i == off_idx:
            faults.label("off_layout_bet", round_id, bet_id, f"{stake} EUR on {spot}, not on the abbreviated layout")
            refused.append(Payment(bet_id, "refused", stake))
            continue
        placed.append((bet_id, spot, stake))
        if i == over_idx:
            faults.label("over_limit_bet", round_id, bet_id, f"{stake} EUR on {spot} above its maximum")
    if spin_at >= len(plan):
        spin_wheel()
    emit("bets_closed", dt=rng.uniform(6, 12))

    if table.players and faults.hit("late_bet"):
        player = rng.choice(table.players)
        spot = rng.choice(LAYOUT["straight"])
        stake = _stake_for(table, player, "straight")
        bet_id = table.new_bet_id()
        emit("bet_placed", actor=("player", player.player_id), dt=rng.uniform(0.5, 2), bet_id=bet_id,
             player_id=player.player_id, spot=spot, stake=stake)
        faults.label("late_bet", round_id, bet_id, f"{stake} EUR on {spot} after «No va más»")

    number = rng.randint(0, 36)
    emit("ball_landed", dt=rng.uniform(5, 10), number=number)
    return refused + payments(number, placed)


__all__ = ["DROPPABLE", "LAYOUT", "OFF_LAYOUT", "WINNINGS", "payments", "play_round", "prepare", "table"]
