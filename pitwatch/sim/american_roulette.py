"""American roulette (one zero) round generator for the casino-floor simulator.

The wheel and the bets are French roulette's (000_e1555249d49967be.txt L199; 004_5c9c19b250457762.txt
L531-L533); the table differs in its colour chips and its zero:

- between spins (:func:`prepare`) every player without a colour gets one of :data:`PALETTE`; most set its
  value with the marker (``colour_valued``, a whole number of table minimums, up to the maximum of a
  straight-up: 000 L227; 004 L554-L557), the others leave it at the table minimum (000 L227; 004 L557-L559);
- in a spin (:func:`play_round`) each player bets mostly in his colour chips (``colour_bet_placed``,
  ``chips`` of his colour) and now and then in value chips (``bet_placed``); the wheel turns opposite to the
  previous spin (000 L183; 004 L386-L390), «No va más», the ball lands uniformly on 0-36;
- a simple chance struck by the zero gets half its stake back, always (000 L225; 004 L543-L545).

Stakes respect each kind's limits (French roulette's maxima, :data:`pitwatch.sim.roulette.MAX_MULTIPLES`)
and, at every table, are payable in table-minimum chips (Andalucía's rule, 004 L561-L562: winnings a whole
number of minimums), so a round without an injected fault is clean. Every bet is paid from this module's own
payout table (:data:`WINNINGS`, written from the seeds), never from the rules engine.

Faults on request: ``late_bet`` (a bet, in colour or value chips, after «No va más»), ``over_limit_bet`` (one
minimum above the maximum of its kind), ``spin_direction`` (the wheel spun the same way twice), and
``colour_misvalued`` (this game's own kind, :data:`FAULTS`): the dealer pays a winning colour bet as if each
chip were worth one table minimum more than its marker says. The framework's ``wrong_payout`` applies too.

State kept in ``table.state``: ``last_direction``; ``colours`` (player_id -> ``(colour, value per chip)``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from pitwatch.sim.base import TableSpec
from pitwatch.sim.payouts import Payment, cents_down, roulette_kind, roulette_numbers
from pitwatch.sim.roulette import MAX_MULTIPLES, _layout

FAULTS: dict[str, frozenset[str]] = {"colour_misvalued": frozenset({"payout_discrepancy"})}
"""The fault kind only this game injects -> the alert that catches it (:data:`pitwatch.sim.base.SIMULATOR_TRAITS`):
a colour bet paid at another value than its marker's is settled off what is due (the engine values a colour
chip at its marker's value, see the module docstring), a ``payout_discrepancy``."""

DROPPABLE = frozenset({"settlement_recorded"})
"""Event types a ``dropped_event`` fault may remove: only settlements (a lost marker would change the value
of the next spins' colour bets)."""

WINNINGS: dict[str, Decimal] = {
    "straight": Decimal(35),      # pleno: 000 L133 «treinta y cinco veces su postura»; 004 L221-L224
    "split": Decimal(17),         # pareja o caballo: 000 L135 «diecisiete veces»; 004 L226-L229
    "street": Decimal(11),        # fila transversal, also 0-1-2 / 0-2-3: 000 L137; 004 L231-L240
    "corner": Decimal(8),         # cuadro, also 0-1-2-3: 000 L139-L141; 004 L242-L249
    "sixline": Decimal(5),        # seisena: 000 L143 «cinco veces la apuesta»; 004 L261-L264
    "column": Decimal(2),         # columna: 000 L145 «dos veces»; 004 L266-L269
    "dozen": Decimal(2),          # docena: 000 L147 «dos veces»; 004 L271-L275
    "columns": Decimal("0.5"),    # dos columnas: 000 L149 «la mitad de la postura»; 004 L277-L280
    "dozens": Decimal("0.5"),     # dos docenas: 000 L151 «la mitad de la postura»; 004 L282-L285
    "simple": Decimal(1),         # suertes sencillas: 000 L123 «al valor de la cantidad apostada»; 004 L287-L290
}
"""Net winnings per euro staked on a winning bet, by kind (French roulette's, which the American texts keep:
000 L199; 004 L531-L533); the winner keeps his stake (000 L153; 004 L217-L219)."""

ZERO_KEEPS = Decimal("0.5")
"""Share of a simple chance's stake the player recovers at zero: «se pierde la mitad de la apuesta y se
recupera la otra mitad» (000 L225; 004 L543-L545)."""

PALETTE = ("blue", "green", "pink", "yellow", "orange", "purple", "brown", "grey", "white", "turquoise")
"""The colours of a table's chips, one per player at a time (000 L207; 004 L479-L484)."""

_BY_KIND = _layout()


def american_roulette_table(table_id: str, casino_id: str, ruleset_id: str) -> TableSpec:
    """An American roulette table: minimum 5.00 EUR, maximum 900.00 EUR (tier 1: 180 x 5 on simple chances,
    000 L231; 004 L338-L340), seven seats."""
    return TableSpec(table_id, casino_id, "american_roulette", ruleset_id, Decimal("5.00"), Decimal("900.00"))


table = american_roulette_table
"""A table of the game for a floor (:func:`pitwatch.sim.base.catalogue_tables`)."""
PREFIX = "RA"
"""The two letters of an American roulette table's id (``GAL-RA-13``)."""


def bet_limits(table: Any, kind: str) -> tuple[Decimal, Decimal]:
    """``(minimum, maximum)`` euros of a bet of ``kind`` (the table minimum; French roulette's maxima by
    option ``max_tier``, or the table's maximum where option ``max_rule`` is ``authorisation``:
    000 L229-L231; 004 L328-L352)."""
    ctx = table.ctx
    lo = table.min_bet
    if kind == "simple":
        lo = cents_down(lo * Decimal(str(ctx.option("simple_chance_min_multiple"))))
    if ctx.option("max_rule") == "authorisation":
        return lo, table.max_bet
    return lo, table.min_bet * MAX_MULTIPLES[kind][int(str(ctx.option("max_tier"))) - 1]


def payment(bet_id: str, spot: str, stake: Decimal, number: int) -> Payment:
    """What a correct dealer hands back for a bet of ``stake`` euros on ``spot`` when the ball lands on
    ``number``: stake + :data:`WINNINGS` on a win, :data:`ZERO_KEEPS` of the stake for a simple chance at
    zero, nothing otherwise (000 L121-L153, L225; 004 L217-L302, L543-L545)."""
    kind = roulette_kind(spot)
    if number == 0 and kind == "simple":
        return Payment(bet_id, "half_back", cents_down(stake * ZERO_KEEPS))
    if number in roulette_numbers(spot):
        return Payment(bet_id, "win", stake + cents_down(stake * WINNINGS[kind]))
    return Payment(bet_id, "lose", Decimal("0.00"))


def prepare(table: Any, emit: Any) -> None:
    """Between spins: forget the colours of players who left (the engine frees them at ``player_left``) and
    give each newcomer a free colour, valued with the marker seven times in ten (a whole number of minimums
    up to a straight-up's maximum) or left at the table minimum."""
    rng, state = table.rng, table.state
    colours: dict[str, tuple[str, Decimal]] = state.setdefault("colours", {})
    present = {p.player_id for p in table.players}
    for pid in [p for p in colours if p not in present]:
        del colours[pid]
    for p in table.players:
        if p.player_id in colours:
            continue
        taken = {c for c, _ in colours.values()}
        free = [c for c in PALETTE if c not in taken]
        if not free:
            continue
        colour = rng.choice(free)
        _, top = bet_limits(table, "straight")
        if rng.random() < 0.7:
            units = rng.choice((1, 1, 2, 2, 4, 5, 10))
            value = min(table.min_bet * units, top)
            emit.table_event("colour_valued", actor=("dealer", table.dealer_id or "D-none"), dt=3,
                             player_id=p.player_id, colour=colour, value=value)
        else:
            value = table.min_bet
        colours[p.player_id] = (colour, value)


def _payable(table: Any, stake: Decimal, kind: str) -> bool:
    """Whether the winnings of ``stake`` on ``kind`` are a whole number of table minimums (004 L561-L562)."""
    return (stake * WINNINGS[kind]) % table.min_bet == 0


def _chips_for(table: Any, player: Any, kind: str, value: Decimal, near_max: bool) -> int | None:
    """A number of chips worth ``value`` each within the limits of ``kind`` and payable, or ``None``."""
    lo, hi = bet_limits(table, kind)
    most = int(hi // value)
    least = max(1, int(-(-lo // value)))
    if most < least:
        return None
    rng = table.rng
    if near_max or player.style == "high_roller":
        n = max(least, int(most * rng.uniform(0.5, 1.0)))
    elif player.style == "cautious":
        n = least if rng.random() < 0.7 else min(most, least + 1)
    else:
        n = min(most, least + rng.choice((0, 0, 1, 1, 2, 3)))
    for chips in range(n, least - 1, -1):
        if _payable(table, value * chips, kind):
            return chips
    return None


def _spot(table: Any, player: Any) -> str:
    rng = table.rng
    if player.style == "cautious":
        kind = rng.choices(("simple", "dozen", "column", "dozens", "columns"), (70, 10, 8, 6, 6))[0]
    elif player.style == "high_roller":
        kind = rng.choices(("straight", "split", "corner", "simple", "dozen"), (35, 25, 10, 25, 5))[0]
    else:
        kind = rng.choices(("straight", "split", "corner", "street", "sixline", "dozen", "column", "simple"),
                           (40, 25, 12, 7, 5, 3, 3, 5))[0]
    return str(rng.choice(_BY_KIND[kind]))


def play_round(table: Any, round_id: str, emit: Any, faults: Any) -> list[Payment]:
    """Emit one spin's bets (colour and value chips), the wheel spin, «No va más» and the ball; inject and
    label ``late_bet``, ``over_limit_bet``, ``spin_direction`` and ``colour_misvalued`` when ``faults.hit``
    says so. Returns the payment of every bet in time from :func:`payment` (the late bet is no wager: nothing
    is paid on it). The colour stakes go to ``table.state["layout_in"]`` (the framework's chip count follows
    ``bet_placed`` stakes only)."""
    rng, state = table.rng, table.state
    colours: dict[str, tuple[str, Decimal]] = state.setdefault("colours", {})
    plan: list[tuple[Any, str, str | None, int, Decimal]] = []   # player, spot, colour, chips, stake
    for player in table.players:
        if rng.random() >= 0.85:
            continue
        for _ in range(rng.randint(1, 5)):
            spot = _spot(table, player)
            kind = roulette_kind(spot)
            colour, value = colours.get(player.player_id, (None, table.min_bet))
            if colour is None or rng.random() < 0.2:
                colour, value = None, table.min_bet          # value chips, whole minimums
            n = _chips_for(table, player, kind, value, near_max=False)
            if n is not None:
                plan.append((player, spot, colour, n, value * n))
    over_idx = None
    if plan and faults.hit("over_limit_bet"):
        over_idx = rng.randrange(len(plan))
        player, spot, _, _, _ = plan[over_idx]
        _, hi = bet_limits(table, roulette_kind(spot))
        plan[over_idx] = (player, spot, None, 0, hi + table.min_bet)
    spin_at = int(len(plan) * rng.uniform(0.5, 0.9))
    placed: list[tuple[str, str, Decimal, str | None, int]] = []  # bet_id, spot, stake, colour, chips

    def place(player: Any, spot: str, colour: str | None, n: int, stake: Decimal, dt: float) -> str:
        bet_id = table.new_bet_id()
        if colour is None:
            emit("bet_placed", actor=("player", player.player_id), dt=dt, bet_id=bet_id,
                 player_id=player.player_id, spot=spot, stake=stake)
        else:
            emit("colour_bet_placed", actor=("player", player.player_id), dt=dt, bet_id=bet_id,
                 player_id=player.player_id, spot=spot, colour=colour, chips=n)
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

    for i, (player, spot, colour, n, stake) in enumerate(plan):
        if i == spin_at:
            spin_wheel()
        bet_id = place(player, spot, colour, n, stake, rng.uniform(6, 12) if i == 0 else rng.uniform(1, 4))
        placed.append((bet_id, spot, stake, colour, n))
        if i == over_idx:
            faults.label("over_limit_bet", round_id, bet_id, f"{stake} EUR on {spot} above its maximum")
    if spin_at >= len(plan):
        spin_wheel()
    emit("bets_closed", dt=rng.uniform(6, 12))

    if table.players and faults.hit("late_bet"):
        player = rng.choice(table.players)
        spot = rng.choice(_BY_KIND["straight"])
        colour, value = colours.get(player.player_id, (None, table.min_bet))
        bet_id = place(player, spot, colour, 1, value, rng.uniform(0.5, 2))
        chips = f" in {colour} chips" if colour else ""
        faults.label("late_bet", round_id, bet_id, f"{value} EUR on {spot} after «No va más»{chips}")

    number = rng.randint(0, 36)
    emit("ball_landed", dt=rng.uniform(5, 10), number=number)

    state["layout_in"] = sum((p[2] for p in placed if p[3] is not None), Decimal("0.00"))
    payments = [payment(bid, spot, stake, number) for bid, spot, stake, _, _ in placed]
    winners = [i for i, p in enumerate(placed) if p[3] is not None and payments[i].returned > 0]
    if winners and faults.hit("colour_misvalued"):
        i = rng.choice(winners)
        bid, spot, stake, colour, n = placed[i]
        wrong_value = stake / n + table.min_bet
        right = payments[i]
        payments[i] = payment(bid, spot, wrong_value * n, number)
        faults.label("colour_misvalued", round_id, bid,
                     f"{n} {colour} chips paid at {wrong_value} EUR each instead of the marker's "
                     f"{stake / n} EUR ({payments[i].returned} returned instead of {right.returned})")
    return payments
