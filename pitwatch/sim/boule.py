"""Boule round generator for the casino-floor simulator, with its own payout table written from the texts.

One call of :func:`play_round` emits one launch of the ball after ``round_started``: the players' chips on
their paño (a number 1-9 or a simple chance), the croupier launching the ball (``wheel_spun``), more chips
while it turns, «No va más» (``bets_closed``), the ball in one of the eighteen holes (``ball_landed``,
uniform over the holes: 000 L341-L343; 002 L19; 004 L921-L926). Then the framework records the payments
this module computed from :data:`WINNINGS` and :data:`CHANCES`, never from the rules engine, so a wrong
payout in the engine shows as an alert on a clean round.

Players sit at a paño by their seat (seats 1-5 the first paño, 6-10 the second on a table of two); a
cautious player bets one or two simple chances, a regular one a few numbers around his favourites and now
and then a simple chance, a high roller numbers and simple chances near their maxima. Stakes are whole chips
of the table minimum, at least the paño's minimum (one paño may open at twice the authorised minimum:
000 L367; 002 L47; 004 L984-L989) and, per player and spot, at most the maximum of the kind (40 times the
minimum on a number, 200 times on a simple chance by default: 000 L369; 002 L49-L51; 004 L991-L1000).

Faults injected on request: ``late_bet`` (a bet after «No va más»: no wager, nothing paid on it),
``over_limit_bet`` (one chip of the table minimum above the maximum of the bet's kind), and the framework's
``wrong_payout``, ``dropped_event`` (settlements only: :data:`DROPPABLE`), ``duplicated_event``,
``chips_missing`` and ``dealer_collusion``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from pitwatch.sim.base import TableSpec
from pitwatch.sim.payouts import Payment

DROPPABLE = frozenset({"settlement_recorded"})
"""Event types a ``dropped_event`` fault may remove: only settlements (a lost bet or result would change the
verdict of the whole round)."""

WINNINGS: dict[str, Decimal] = {
    "straight": Decimal(7),  # «recibe siete veces el valor de su apuesta» (000 L361; 002 L43; 004 L969-L970)
    "simple": Decimal(1),    # «recupera su apuesta y recibe un valor igual a ella» (000 L363; 002 L43; 004 L975-L976)
}
"""Net winnings per euro staked; the winner keeps his stake (000 L377; 002 L63; 004 L1023-L1027)."""

CHANCES: dict[str, frozenset[int]] = {
    "red": frozenset({2, 4, 7, 9}),
    "black": frozenset({1, 3, 6, 8}),
    "odd": frozenset({1, 3, 7, 9}),
    "even": frozenset({2, 4, 6, 8}),
    "manque": frozenset({1, 2, 3, 4}),
    "passe": frozenset({6, 7, 8, 9}),
}
"""The simple chances and their numbers: black 1, 3, 6, 8 and red 2, 4, 7, 9 (000 L343; 002 L21; 004 L928-L930);
pasa above the 5 and falta below it, the 5 in none, «excluido de la serie impar, pasa o falta» (000 L345)."""

HOLES = tuple(n for n in range(1, 10) for _ in range(2))
"""The eighteen holes of the platform, numbered 1 to 9, each number twice (000 L343; 002 L19; 004 L923-L926)."""

MAX_MULTIPLES = {"straight": 40, "simple": 200}
"""The maxima the simulated authorisations fix, in table minima, unless the table's options say otherwise: the
lowest the law allows (40 on a number, 200 on a simple chance: 000 L369; 002 L49; 004 L991-L996)."""

PREFIX = "BO"
"""The two letters of a boule table's id (``GAL-BO-15``)."""

PANOS: dict[str, str] = {"boule.galicia": "1,1", "boule.andalucia": "1,2", "boule.espana": "2,1"}
"""Option ``panos`` of the simulated table of each ruleset: two paños at the minimum, the second at twice it, the
first at twice it."""


def table(table_id: str, casino_id: str, ruleset_id: str) -> TableSpec:
    """A boule table (:data:`pitwatch.sim.base.SIMULATOR_TRAITS`): authorised minimum 5.00 EUR, ten seats (five per
    paño), option ``panos`` from :data:`PANOS` (``"1,2"`` opens the second paño at 10.00 EUR, 000 L367; 002 L47;
    004 L984-L989). The table maximum is the largest maximum of a kind, 200 x 5.00 EUR on a simple chance
    (000 L369 «doscientas veces»)."""
    return TableSpec(table_id, casino_id, "boule", ruleset_id, Decimal("5.00"), Decimal("1000.00"),
                     {"panos": PANOS.get(ruleset_id, "1,1")}, seats=10)


def kind_of(spot: str) -> str:
    """``straight`` for a number, ``simple`` for a simple chance."""
    return "simple" if spot in CHANCES else "straight"


def payment(bet_id: str, spot: str, stake: Decimal, number: int) -> Payment:
    """What the croupier pays on a bet once the ball is in hole ``number``: the stake and :data:`WINNINGS` on a
    winner, nothing on a loser; every simple chance loses on the 5, «cuando sale el número 5, se pierden todas
    las apuestas realizadas sobre estas suertes sencillas» (000 L363; 002 L43; 004 L976-L978)."""
    won = number in CHANCES[spot] if spot in CHANCES else spot == f"straight:{number}"
    if not won:
        return Payment(bet_id, "lose", Decimal("0.00"))
    return Payment(bet_id, "win", stake + stake * WINNINGS[kind_of(spot)])


def pano_minima(table: Any) -> list[Decimal]:
    """Each paño's minimum in euros: the table minimum times option ``panos``'s multiples (000 L365-L367; 002 L47;
    004 L980-L989)."""
    return [table.min_bet * int(m) for m in str(table.options.get("panos", "1,1")).split(",")]


def maximum(table: Any, kind: str) -> Decimal:
    """The most a player may have on one spot of ``kind``: the table minimum times the option
    ``max_<kind>_multiple`` or :data:`MAX_MULTIPLES` (000 L369; 002 L49-L51; 004 L991-L1000)."""
    return table.min_bet * int(table.options.get(f"max_{kind}_multiple", MAX_MULTIPLES[kind]))


def _pano(table: Any, player: Any) -> int:
    """The paño a player's seat faces: the first for seats 1-5, the second for 6-10 (one paño: always 1)."""
    return 1 if len(pano_minima(table)) == 1 or player.seat <= 5 else 2


def prepare(table: Any, emit: Any) -> None:
    """Boule has no table-level events between launches: nothing to emit."""
    return None


def _stake(table: Any, player: Any, kind: str, near_max: bool) -> Decimal:
    lo, hi = pano_minima(table)[_pano(table, player) - 1], maximum(table, kind)
    if near_max:
        units = int(hi // table.min_bet)
        stake = table.min_bet * max(1, int(units * (1.0 if table.rng.random() < 0.3 else table.rng.uniform(0.5, 1.0))))
    else:
        stake = table.stake(player, maximum=hi)
    return min(max(stake, lo), hi)


def _player_bets(table: Any, player: Any) -> list[tuple[str, Decimal]]:
    """One player's (spot, stake) bets for one launch, by style, at most one bet per spot."""
    rng = table.rng
    fav = table.state.setdefault("favourites", {}).setdefault(player.player_id, rng.sample(range(1, 10), 3))
    spots: list[str] = []
    if player.style == "cautious":
        spots = rng.sample(sorted(CHANCES), rng.choice((1, 1, 2)))
    elif player.style == "regular":
        spots = [f"straight:{n}" for n in rng.sample(fav, rng.randint(1, 3))]
        if rng.random() < 0.4:
            spots.append(rng.choice(sorted(CHANCES)))
    else:
        spots = [f"straight:{rng.choice(fav)}", rng.choice(sorted(CHANCES))]
    near = player.style == "high_roller"
    return [(spot, _stake(table, player, kind_of(spot), near)) for spot in spots]


def play_round(table: Any, round_id: str, emit: Any, faults: Any) -> list[Payment]:
    """Emit one launch's bets, the launch, «No va más» and the ball's hole (see the module docstring); inject and
    label ``late_bet`` and ``over_limit_bet`` when ``faults.hit`` says so. Returns the payment of every bet but
    the late one (:func:`payment`)."""
    rng = table.rng
    plan: list[tuple[Any, str, Decimal]] = []
    for player in table.players:
        if rng.random() < 0.85:
            plan.extend((player, spot, stake) for spot, stake in _player_bets(table, player))
    over = None
    if plan and faults.hit("over_limit_bet"):
        over = rng.randrange(len(plan))
        player, spot, _ = plan[over]
        plan[over] = (player, spot, maximum(table, kind_of(spot)) + table.min_bet)
    launch_at = int(len(plan) * rng.uniform(0.6, 1.0))
    placed: list[tuple[str, str, Decimal]] = []
    for i, (player, spot, stake) in enumerate(plan):
        if i == launch_at:
            emit("wheel_spun", dt=rng.uniform(2, 4), direction=rng.choice(("clockwise", "counterclockwise")))
        bet_id = table.new_bet_id()
        emit("bet_placed", actor=("player", player.player_id), dt=rng.uniform(1, 3) if i else rng.uniform(5, 10),
             bet_id=bet_id, player_id=player.player_id, spot=spot, stake=stake, box=_pano(table, player))
        placed.append((bet_id, spot, stake))
        if i == over:
            faults.label("over_limit_bet", round_id, bet_id, f"{stake} EUR on {spot} above its maximum")
    if launch_at >= len(plan):
        emit("wheel_spun", dt=rng.uniform(2, 4), direction=rng.choice(("clockwise", "counterclockwise")))
    emit("bets_closed", dt=rng.uniform(4, 8))
    if table.players and faults.hit("late_bet"):
        player = rng.choice(table.players)
        spot = f"straight:{rng.randint(1, 9)}"
        bet_id = table.new_bet_id()
        emit("bet_placed", actor=("player", player.player_id), dt=rng.uniform(0.5, 2), bet_id=bet_id,
             player_id=player.player_id, spot=spot, stake=pano_minima(table)[_pano(table, player) - 1],
             box=_pano(table, player))
        faults.label("late_bet", round_id, bet_id, f"{spot} after «No va más»")
    number = rng.choice(HOLES)
    emit("ball_landed", dt=rng.uniform(4, 8), number=number)
    return [payment(bet_id, spot, stake, number) for bet_id, spot, stake in placed]


__all__ = ["CHANCES", "DROPPABLE", "HOLES", "MAX_MULTIPLES", "PANOS", "PREFIX", "WINNINGS", "kind_of", "maximum",
           "pano_minima", "payment", "play_round", "prepare", "table"]
