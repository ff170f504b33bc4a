"""Wheel of fortune round generator for the casino-floor simulator.

One call of :func:`play_round` emits one spin after ``round_started``, as the texts describe it
(Galicia 000_e1555249d49967be.txt L1093-L1097; Andalucía 004_5c9c19b250457762.txt L5756-L5796):

- Galicia: the players' bets from «Hagan sus apuestas», the wheel spun once (either way), «No va más»
  while it turns, the stop;
- Andalucía: the wheel impelled clockwise as the bets open, the bets, a second clockwise impulse with
  «no va más», at least four turns, the stop; the winning bets paid from the smallest stake up.

The wheel stops on a segment drawn with the segments of each symbol as weights (``table.rng``). Now and
then the stop is void: the pointer on a pivot (both texts: no result in a casilla), fewer than four turns
or an obstructed wheel (Andalucía); the croupier then declares the spin void (``round_voided``) and hands
every stake back. Every bet is paid from the simulator's own reading of the texts (:data:`WHEELS`,
written here apart from the rules engine and its rulesets), so that a wrong ratio in either shows as a
payout discrepancy on a clean round.

Faults injected on request: ``late_bet`` (a bet placed after «No va más»), ``over_limit_bet`` (one chip
above the table maximum), ``spin_direction`` (Andalucía only, where the direction is the law: the second
impulse given counterclockwise); ``wrong_payout`` is the framework's. Nothing is kept in ``table.state``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pitwatch.sim.base import TableSpec
from pitwatch.sim.payouts import Payment, cents_down

DROPPABLE = frozenset({"settlement_recorded"})
"""Event types a ``dropped_event`` fault may remove: only settlements (a lost bet or stop would change
what the rest of the round means)."""


@dataclass(frozen=True)
class WheelRules:
    """One text's wheel: ``symbols`` (code -> (segments, net winnings per euro)), the impulses of a spin,
    their direction (``None``: the text sets none), the fewest full turns after the last impulse (``None``:
    no number), whether an obstructed wheel is void, and whether the winners are paid smallest stake first."""

    symbols: dict[str, tuple[int, Decimal]]
    impulses: int
    direction: str | None
    min_turns: int | None
    void_if_obstructed: bool
    pay_smallest_first: bool


WHEELS: dict[str, WheelRules] = {
    # 000 L1063 «cincuenta y cuatro divisiones»; 000 L1085 «24 posiciones ... 1 a 1; apostar 15 posiciones,
    # pagándose 2 a 1; a 7 posiciones pagándose 5 a 1; a 4 posiciones, pagándose 10 a 1; a 2 posiciones
    # pagándose 20 a 1»; the two jokers (000 L1085 «se paga 45 a 1»), one segment each (the 54 less the 52);
    # one spin (000 L1095 «la rueda se hace girar»).
    "wheel_of_fortune.galicia": WheelRules(
        {"fortune_24": (24, Decimal(1)), "fortune_15": (15, Decimal(2)), "fortune_7": (7, Decimal(5)),
         "fortune_4": (4, Decimal(10)), "fortune_2": (2, Decimal(20)), "fortune_joker_red": (1, Decimal(45)),
         "fortune_joker_black": (1, Decimal(45))},
        impulses=1, direction=None, min_turns=None, void_if_obstructed=False, pay_smallest_first=False),
    # 004 L5735-L5748 «Una vez», «Dos veces», «Cinco veces», «Diez veces», «Veinte veces» and, for each of
    # the two figures, «Cuarenta y cinco veces el valor de la apuesta»; two clockwise impulses, four turns
    # (004 L5756-L5772 «nuevo impulso»); void on a pivot or obstructed (004 L5778-L5782 «pivote»); the
    # winners paid smallest stake first (004 L5788-L5789 «por orden de menor a mayor»).
    "wheel_of_fortune.andalucia": WheelRules(
        {"fortune_24": (24, Decimal(1)), "fortune_15": (15, Decimal(2)), "fortune_7": (7, Decimal(5)),
         "fortune_4": (4, Decimal(10)), "fortune_2": (2, Decimal(20)), "fortune_figure_1": (1, Decimal(45)),
         "fortune_figure_2": (1, Decimal(45))},
        impulses=2, direction="clockwise", min_turns=4, void_if_obstructed=True, pay_smallest_first=True),
}
"""Ruleset id -> the simulator's own reading of its text (independent of the rulesets the engine reads)."""

WHEEL_TABLES: tuple[tuple[str, str, str], ...] = (
    ("GAL-WF-01", "gal-coruna", "wheel_of_fortune.galicia"),
    ("AND-WF-02", "and-marbella", "wheel_of_fortune.andalucia"),
)
"""The simulator's wheel of fortune tables: (table id, casino, ruleset)."""

_VOID_ODDS = {"pivot": 0.01, "short": 0.01, "obstructed": 0.005}
"""Chance per spin of each accident of the wheel (a void spin where the text makes it one)."""


def wheel_tables() -> list[TableSpec]:
    """One table per ruleset (:data:`WHEEL_TABLES`): stakes from 5.00 to 500.00 EUR (the authorisation's
    limits, the same for every symbol), seven seats."""
    return [TableSpec(tid, casino, "wheel_of_fortune", rid, Decimal("5.00"), Decimal("500.00"))
            for tid, casino, rid in WHEEL_TABLES]


def table(table_id: str, casino_id: str, ruleset_id: str) -> TableSpec:
    """A wheel of fortune table of ``ruleset_id`` for a floor (:func:`pitwatch.sim.base.catalogue_tables`):
    stakes from 5.00 to 500.00 EUR, as :func:`wheel_tables`."""
    return TableSpec(table_id, casino_id, "wheel_of_fortune", ruleset_id, Decimal("5.00"), Decimal("500.00"))


PREFIX = "WF"
"""The two letters of a wheel of fortune table's id (``GAL-WF-13``)."""


def prepare(table: Any, emit: Any) -> None:
    """The wheel has no table-level events between spins: nothing to emit."""
    return None


WIN_CAP = 50
"""The most a player's bet may win, in table minimums: players stake less on the long shots (at 45 to 1 a
handful of chips), and a round's winnings stay within the float the pit keeps at the table."""


def _cap(table: Any, rules: WheelRules, spot: str) -> Decimal:
    """The most a player stakes on ``spot``: what wins at most :data:`WIN_CAP` table minimums, in whole
    minimums, at least one and at most the table maximum."""
    units = max(1, int(WIN_CAP / rules.symbols[spot][1]))
    return min(table.max_bet, table.min_bet * units)


def _player_bets(table: Any, player: Any, rules: WheelRules) -> list[tuple[str, Decimal]]:
    """The (symbol, stake) bets of one player for one spin, by style: cautious players on the 24 or the 15,
    regular ones and high rollers on one to three symbols."""
    rng = table.rng
    symbols = list(rules.symbols)
    if player.style == "cautious":
        picks = [rng.choice(symbols[:2])]
    elif player.style == "regular":
        picks = rng.sample(symbols, rng.randint(1, 3))
    else:
        picks = rng.sample(symbols, rng.randint(2, 3))
    return [(s, table.stake(player, maximum=_cap(table, rules, s))) for s in picks]


def payment(rules: WheelRules, bet_id: str, spot: str, stake: Decimal, stop: str | None) -> Payment:
    """What a correct croupier hands back for a bet of ``stake`` euros on ``spot`` when the wheel stops on
    ``stop`` (``None``: a void spin, every stake back): the stake plus its winnings on its symbol, nothing
    on any other."""
    if stop is None:
        return Payment(bet_id, "void", stake)
    if spot == stop:
        return Payment(bet_id, "win", cents_down(stake + stake * rules.symbols[spot][1]))
    return Payment(bet_id, "lose", Decimal("0.00"))


def play_round(table: Any, round_id: str, emit: Any, faults: Any) -> list[Payment]:
    """Emit one spin's impulses, bets, «No va más», stop (and ``round_voided`` for a void spin), see the
    module docstring; inject and label the ``late_bet``, ``over_limit_bet`` and ``spin_direction`` faults
    when ``faults.hit`` says so. Returns the payment of every bet of the spin, the winners ordered by stake
    where the text says so (the late bet is no wager: nothing is paid on it)."""
    rng = table.rng
    rules = WHEELS[table.ruleset_id]
    symbols = list(rules.symbols)

    def impulse(wrong: bool = False) -> None:
        if rules.direction is None:
            direction = rng.choice(("clockwise", "counterclockwise"))
        else:
            direction = "counterclockwise" if wrong else rules.direction
        emit("wheel_spun", dt=rng.uniform(1, 3), direction=direction)

    plan = [(p, s, stake) for p in table.players if rng.random() < 0.85 for s, stake in _player_bets(table, p, rules)]
    over = rng.randrange(len(plan)) if plan and faults.hit("over_limit_bet") else None
    if over is not None:  # on the 24, whose 1 to 1 the float can bear
        plan[over] = (plan[over][0], symbols[0], table.max_bet + table.min_bet)

    if rules.impulses == 2:
        impulse()                                   # «hagan sus apuestas»: the wheel set turning
    placed: list[tuple[str, str, Decimal]] = []
    for i, (player, spot, stake) in enumerate(plan):
        bet_id = table.new_bet_id()
        emit("bet_placed", actor=("player", player.player_id), dt=rng.uniform(1.5, 4), bet_id=bet_id,
             player_id=player.player_id, spot=spot, stake=stake)
        placed.append((bet_id, spot, stake))
        if i == over:
            faults.label("over_limit_bet", round_id, bet_id, f"{stake} EUR on {spot} above the table maximum")
    wrong = rules.direction is not None and faults.hit("spin_direction")
    if wrong:
        faults.label("spin_direction", round_id, None, f"an impulse given against {rules.direction}")
    for n in range(rules.impulses - (rules.impulses == 2)):
        impulse(wrong and n == 0)                   # Galicia's one spin, Andalucía's second impulse
    emit("bets_closed", dt=rng.uniform(3, 6))

    if table.players and faults.hit("late_bet"):
        player = rng.choice(table.players)
        spot, bet_id = rng.choice(symbols), table.new_bet_id()
        stake = table.stake(player, maximum=_cap(table, rules, spot))
        emit("bet_placed", actor=("player", player.player_id), dt=rng.uniform(0.5, 2), bet_id=bet_id,
             player_id=player.player_id, spot=spot, stake=stake)
        faults.label("late_bet", round_id, bet_id, f"{stake} EUR on {spot} after «No va más»")

    # --- the stop
    accident = rng.random()
    turns = rng.randint(4, 9)
    obstructed = False
    stop: str | None = rng.choices(symbols, [rules.symbols[s][0] for s in symbols])[0]
    void = None
    if accident < _VOID_ODDS["pivot"]:
        stop, void = None, "the pointer rests on a pivot between two segments"
    elif accident < _VOID_ODDS["pivot"] + _VOID_ODDS["short"] and rules.min_turns is not None:
        turns, void = rng.randint(1, rules.min_turns - 1), "fewer full turns than the text requires"
    elif accident < sum(_VOID_ODDS.values()):
        obstructed = True
        if rules.void_if_obstructed:
            void = "a player's arm hindered the wheel"
    emit("wheel_stopped", dt=rng.uniform(8, 15), symbol=stop, on_pivot=stop is None, turns=turns,
         obstructed=obstructed)
    if void is not None:
        emit("round_voided", actor=("inspector", "I-1"), dt=rng.uniform(2, 4), reason=void)

    # --- the payments (the simulator's own table, WHEELS)
    due = [payment(rules, bid, spot, stake, None if void else stop) for bid, spot, stake in placed]
    if rules.pay_smallest_first:
        stakes = {bid: stake for bid, _, stake in placed}
        due.sort(key=lambda p: (p.outcome == "win", stakes[p.bet_id] if p.outcome == "win" else 0))
    return due


__all__ = ["DROPPABLE", "WHEELS", "WHEEL_TABLES", "WIN_CAP", "WheelRules", "payment", "play_round", "prepare",
           "wheel_tables"]
