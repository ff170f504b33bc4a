"""French roulette round generator for the casino-floor simulator.

One call of :func:`play_round` emits one spin after ``round_started``: the players' bets (a
realistic mix by style), the wheel spun in the direction opposite to the previous spin
(000_e1555249d49967be.txt L183; 004_5c9c19b250457762.txt L386-L390), «No va más»
(bets_closed), the ball landing uniformly on 0-36 (``table.rng``), and, after a zero, the
players' en prison / half back decisions on their simple chances (000 L125-L129;
004 L304-L324). Timing: about 45-60 s of play per spin from these events plus the framework's
round start, payments and round end, i.e. roughly 40-60 spins per hour.

Player styles:

- ``regular``: 2-7 inside bets, mostly straight-ups and splits around a few favourite numbers,
  some corners, streets, six-lines, now and then a dozen or column;
- ``cautious``: one or two outside bets, mostly simple chances (red/black, even/odd,
  manque/passe), sometimes a dozen, column or two dozens/columns;
- ``high_roller``: 2-5 bets near the maximum of their kind (straight-ups, splits, corners,
  simple chances).

Stakes always respect the limits of each bet kind (:func:`bet_limits`, the simulator's own
reading of the maxima), so a round without an injected fault is clean. Every bet is paid from
the simulator's own payout table (:func:`pitwatch.sim.payouts.roulette_payments`), never from
the rules engine, so that a wrong payout in the engine shows up as a detection error.

Faults injected on request: ``late_bet`` (a bet placed after «No va más»), ``over_limit_bet``
(one chip above the maximum of the bet's kind), ``spin_direction`` (the wheel spun the same
way as the previous spin; never on the first spin of a table, which has nothing to compare
with).

State kept in ``table.state``: ``last_direction`` (str), ``prisoners`` (bet_id -> dict with
``player_id``, ``spot``, ``initial`` (Decimal euros), ``zeros``), ``favourites``
(player_id -> list of numbers).
"""

from __future__ import annotations

from decimal import ROUND_CEILING, Decimal
from typing import Any

from pitwatch.sim.payouts import (
    SIMPLE_CHANCES,
    Payment,
    Prisoner,
    cents_down,
    half_back_allowed,
    roulette_kind,
    roulette_numbers,
    roulette_payments,
    zero_fate,
)

DROPPABLE = frozenset({"settlement_recorded"})
"""Event types a ``dropped_event`` fault may remove: only settlements. A lost spin, zero decision or bet (a
simple chance can go en prison) would wrongly change the next spin's verdict too."""


def _layout() -> dict[str, list[str]]:
    """Every spot code of the layout, by bet kind: the combinations of 000 L117-L151 and
    004 L211-L302 on the three columns of twelve (000 L97; 004 L160-L162)."""
    by_kind: dict[str, list[str]] = {}

    def add(kind: str, *nums: int) -> None:
        by_kind.setdefault(kind, []).append(f"{kind}:" + "-".join(str(n) for n in nums))

    for n in range(37):
        add("straight", n)
    for z in (1, 2, 3):
        add("split", 0, z)
    for n in range(1, 37):
        if n % 3:
            add("split", n, n + 1)            # side by side in a row
        if n <= 33:
            add("split", n, n + 3)            # one above the other in a column
    for r in range(1, 13):
        add("street", 3 * r - 2, 3 * r - 1, 3 * r)
    add("street", 0, 1, 2)
    add("street", 0, 2, 3)
    for n in range(1, 33):
        if n % 3:
            add("corner", n, n + 1, n + 3, n + 4)
    add("corner", 0, 1, 2, 3)
    for r in range(1, 12):
        add("sixline", *range(3 * r - 2, 3 * r + 4))
    for c in (1, 2, 3):
        add("column", c)
        add("dozen", c)
    for a in (1, 2):
        add("columns", a, a + 1)
        add("dozens", a, a + 1)
    by_kind["simple"] = list(SIMPLE_CHANCES)
    return by_kind


_BY_KIND = _layout()

MAX_MULTIPLES: dict[str, tuple[int, int, int]] = {
    "straight": (10, 20, 30), "split": (20, 40, 60), "street": (30, 60, 90), "corner": (40, 80, 120),
    "sixline": (60, 120, 180), "column": (120, 240, 360), "dozen": (120, 240, 360),
    "columns": (240, 480, 720), "dozens": (240, 480, 720), "simple": (180, 360, 540),
}
"""Maximum of each bet kind as a multiple of the table minimum, for the tiers 1, 2, 3
(000 L161-L163; 004 L338-L352)."""

_HALF_BACK_PROB = {"cautious": 0.6, "regular": 0.5, "high_roller": 0.4}


def prepare(table: Any, emit: Any) -> None:
    """Roulette has no table-level events between spins (no shoe): nothing to emit."""
    return None


def _last_of_session(table: Any, emit: Any) -> bool:
    """Whether the current round is the announced last spin of the session (the framework
    sets ``table.state["last_of_session"]`` before every round)."""
    return bool(table.state.get("last_of_session", False))


def _stake_for(table: Any, player: Any, kind: str, near_max: bool = False) -> Decimal:
    """A stake within [minimum, maximum] of ``kind``, in whole table-minimum chips when possible."""
    lo, hi = bet_limits(table, kind)
    rng = table.rng
    if near_max:
        units = int(hi // table.min_bet)
        frac = 1.0 if rng.random() < 0.35 else rng.uniform(0.6, 1.0)
        stake = table.min_bet * max(1, int(units * frac))
    else:
        stake = table.stake(player, maximum=hi)
    if stake < lo:
        chips = (lo / table.min_bet).to_integral_value(rounding=ROUND_CEILING)
        stake = table.min_bet * chips
    return min(max(stake, lo), hi)


def _favourites(table: Any, player: Any) -> list[int]:
    fav = table.state.setdefault("favourites", {})
    if player.player_id not in fav:
        fav[player.player_id] = table.rng.sample(range(37), table.rng.randint(3, 6))
    return fav[player.player_id]


def _regular_spot(table: Any, player: Any) -> str:
    rng = table.rng
    fav = _favourites(table, player)
    kind = rng.choices(("straight", "split", "corner", "street", "sixline", "dozen", "column"),
                       (45, 25, 12, 7, 5, 3, 3))[0]
    if kind in ("straight", "split", "corner", "street") and rng.random() < 0.75:
        n = rng.choice(fav)
        options = [c for c in _BY_KIND[kind] if n in roulette_numbers(c)]
        if options:
            return rng.choice(options)
    return rng.choice(_BY_KIND[kind])


def _player_bets(table: Any, player: Any) -> list[tuple[str, Decimal]]:
    """The (spot, stake) bets of one player for one spin, by style."""
    rng = table.rng
    bets: list[tuple[str, Decimal]] = []
    if player.style == "cautious":
        for _ in range(rng.choice((1, 1, 1, 2))):
            kind = rng.choices(("simple", "dozen", "column", "dozens", "columns"), (70, 10, 8, 6, 6))[0]
            spot = rng.choice(_BY_KIND[kind])
            if spot not in (s for s, _ in bets):
                bets.append((spot, _stake_for(table, player, roulette_kind(spot))))
    elif player.style == "high_roller":
        for _ in range(rng.randint(2, 5)):
            kind = rng.choices(("straight", "split", "corner", "simple", "dozen"), (35, 25, 10, 25, 5))[0]
            if kind == "straight":
                spot = f"straight:{rng.choice(_favourites(table, player))}"
            else:
                spot = rng.choice(_BY_KIND[kind])
            bets.append((spot, _stake_for(table, player, kind, near_max=True)))
    else:
        for _ in range(rng.randint(2, 7)):
            spot = _regular_spot(table, player)
            bets.append((spot, _stake_for(table, player, roulette_kind(spot))))
        if rng.random() < 0.15:
            spot = rng.choice(_BY_KIND["simple"])
            bets.append((spot, _stake_for(table, player, "simple")))
    return bets


def bet_limits(table: Any, kind: str) -> tuple[Decimal, Decimal]:
    """``(minimum, maximum)`` in euros of a bet of ``kind`` at ``table``: the table minimum (times
    option ``simple_chance_min_multiple`` for simple chances, 000 L159; 004 L340-L344) and
    :data:`MAX_MULTIPLES` for option ``max_tier``, or the table maximum where option ``max_rule``
    is ``authorisation`` (004 L328-L336)."""
    ctx = table.ctx
    lo = table.min_bet
    if kind == "simple":
        lo = cents_down(lo * Decimal(str(ctx.option("simple_chance_min_multiple", "1"))))
    if ctx.option("max_rule", "tiers") == "authorisation":
        return lo, table.max_bet
    return lo, table.min_bet * MAX_MULTIPLES[kind][int(str(ctx.option("max_tier", "1"))) - 1]


def _choice(table: Any, decision: str | None) -> str:
    """The player's zero decision, else the table's ``zero_default`` option."""
    return decision or str(table.ctx.option("zero_default", "en_prison"))


def play_round(table: Any, round_id: str, emit: Any, faults: Any) -> list[Payment]:
    """Emit one spin's bets, wheel spin, «No va más», result and zero decisions (see the
    module docstring); inject and label the ``late_bet``, ``over_limit_bet`` and
    ``spin_direction`` faults when ``faults.hit`` says so. Returns the payment of every bet of
    the spin and of every bet in prison, by :func:`pitwatch.sim.payouts.roulette_payments` (the
    late bet is no wager: nothing is paid on it)."""
    rng, state = table.rng, table.state
    prisoners: dict[str, dict[str, Any]] = state.setdefault("prisoners", {})
    last = _last_of_session(table, emit)

    # --- the players' bets
    plan: list[tuple[Any, str, Decimal]] = []
    for player in table.players:
        if rng.random() < 0.85:
            plan.extend((player, spot, stake) for spot, stake in _player_bets(table, player))
    over_idx = None
    if plan and faults.hit("over_limit_bet"):
        over_idx = rng.randrange(len(plan))
        player, spot, _ = plan[over_idx]
        _, hi = bet_limits(table, roulette_kind(spot))
        plan[over_idx] = (player, spot, hi + table.min_bet)
    spin_at = int(len(plan) * rng.uniform(0.5, 0.9))

    placed: list[tuple[str, Any, str, Decimal]] = []

    def place(player: Any, spot: str, stake: Decimal, dt: float) -> str:
        bet_id = table.new_bet_id()
        emit("bet_placed", actor=("player", player.player_id), dt=dt, bet_id=bet_id,
             player_id=player.player_id, spot=spot, stake=stake)
        placed.append((bet_id, player, spot, stake))
        return bet_id

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
        if i == 0:
            dt = rng.uniform(6, 12)                 # the first chips after the previous payment
        elif player is prev_player:
            dt = rng.uniform(1, 2.5)                # the same player adds a bet
        else:
            dt = rng.uniform(2, 4)
        bet_id = place(player, spot, stake, dt)
        prev_player = player
        if i == over_idx:
            faults.label("over_limit_bet", round_id, bet_id, f"{stake} EUR on {spot} above its maximum")
    if spin_at >= len(plan):
        spin_wheel()
    emit("bets_closed", dt=rng.uniform(6, 12))

    if table.players and faults.hit("late_bet"):
        player = rng.choice(table.players)
        spot = rng.choice(_BY_KIND["straight"])
        stake = _stake_for(table, player, "straight")
        bet_id = table.new_bet_id()
        emit("bet_placed", actor=("player", player.player_id), dt=rng.uniform(0.5, 2), bet_id=bet_id,
             player_id=player.player_id, spot=spot, stake=stake)
        faults.label("late_bet", round_id, bet_id, f"{stake} EUR on {spot} after «No va más»")

    # --- the result
    number = rng.randint(0, 36)
    emit("ball_landed", dt=rng.uniform(5, 10), number=number)

    # --- zero decisions and the prisoners' fate
    minimum = table.min_bet
    hit: list[tuple[str, str, str, Decimal, int]] = []   # bet_id, player_id, spot, initial, k
    for bid, p in prisoners.items():
        hit.append((bid, p["player_id"], p["spot"], p["initial"], p["zeros"] + 1))
    choices: dict[str, str] = {}
    new_prisoners: dict[str, dict[str, Any]] = {}
    if number == 0:
        for bid, player, spot, stake in placed:
            if spot in SIMPLE_CHANCES:
                hit.append((bid, player.player_id, spot, stake, 1))
        styles = {p.player_id: p.style for p in table.players}
        for bid, pid, spot, initial, k in hit:
            decision = None
            if pid in styles and rng.random() < 0.8:
                decision = "half_back" if rng.random() < _HALF_BACK_PROB[styles[pid]] else "en_prison"
                if decision == "half_back" and not last and \
                        not half_back_allowed(table.ruleset_id, initial, k, minimum):
                    decision = "en_prison"      # the croupier would refuse: the bet must stay
                if decision == "en_prison" and last is not False:
                    decision = None             # possibly the last spin: the refund is compulsory
                if decision is not None:
                    emit("player_decision", actor=("player", pid), dt=rng.uniform(2, 4), decision=decision,
                         bet_id=bid)
            choices[bid] = _choice(table, decision)
            if zero_fate(table.ruleset_id, choices[bid], initial, k, last, minimum) == "en_prison":
                new_prisoners[bid] = {"player_id": pid, "spot": spot, "initial": initial, "zeros": k}
    state["prisoners"] = new_prisoners

    # --- the payments (the simulator's own payout table, pitwatch.sim.payouts)
    held = {bid: Prisoner(p["spot"], p["initial"], p["zeros"]) for bid, p in prisoners.items()}
    return roulette_payments(table.ruleset_id, number, [(bid, spot, stake) for bid, _, spot, stake in placed],
                             held, choices, last_spin=last, table_minimum=minimum)
