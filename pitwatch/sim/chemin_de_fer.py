"""Simulator coups of chemin de fer, the player-banked baccarat (see :mod:`pitwatch.sim.base` for the
framework). Written from the texts (Galicia 000 L524-L741; Andalucía 004 L1758-L2458), apart from the
rules engine: the engine's verdicts on these coups test it.

**The shoe** is punto y banca's (:func:`pitwatch.sim.baccarat.load_shoe`: six decks, the stop card before
the last seven cards, 000 L532, L636), without a burn.

**The bank** (:func:`_bank`): the first banker of the session puts up a bank of his choice, at least the
table minimum and at most 100 times it (000 L596; 004 L2081-L2083). After a loss the bank passes to the
seated player at his right, the next seat (000 L572); after a win or a tie the banker goes on with the
bank as it stands (the bank, plus the stakes won, less the cagnotte: «las ganancias ... pasarán a formar
parte de la banca», 000 L666), now and then setting aside part of his winnings above 50 times the minimum
(«garaje voluntario», 000 L602), or gives it up: the next player takes it with at least the same amount
(000 L574). A banker who leaves the table passes it likewise.

**The stakes** (:func:`_stakes`): a player who made banco and lost may call «banco seguido» (000 L652);
else now and then a seated player calls «banco» (the whole bank in play); else each seated player stakes
at the rate of his style (:data:`STAKE_PROBABILITY`), up to the bank. Who holds the punto's cards and which
stakes the bank covers follow the text (:func:`cover`): a banco takes the whole bank; else the seated
player with the highest stake holds the cards (000 L648) and covers first, then the others from the seat
at the banker's right (000 L554); stakes beyond the bank are handed back (000 L594, L604).

**The coup**: the banker deals punto, bank, punto, bank (000 L614, L664); a two-card 8 or 9 ends it; the
holder says «carta» on 0-4, «no» on 6-7 and chooses on 5 (000 L616-L622); the banker draws on 0 (bacará)
and is otherwise free (000 L624), playing the printed tableau of Galicia (:data:`TABLEAU`, 000 L672-L681)
as a habit, its «O» cells at his whim and now and then against it; now and then he asks the croupier for
the tableau first (:data:`TABLEAU_ASKED`, 000 L630) and then follows it. The croupier takes the cagnotte
of a bank that wins (``rake_taken``) and pays each stake and the bank
(:func:`pitwatch.sim.payouts.chemin_de_fer_stake_payment`, :func:`~pitwatch.sim.payouts.chemin_de_fer_bank_payment`,
bet id ``<round_id>:bank``). The bank in play is put on the layout for the framework's chip count
(``table.state["layout_in"]``).

Faults (each labelled): ``wrong_cagnotte`` (the croupier puts a few chips too many or too few in the
cagnotte, the banker's return moved the other way), ``illegal_decision`` (the banker who asked for the
tableau draws against a «T» or «P» cell of a printed tableau, or stands on bacará), ``joined_stake`` (a
seated player joins chips to another seated player's stake: 000 L650; 004 L2236-L2238),
``over_limit_bet`` (a stake above the bank), ``association`` (the ring of :func:`pitwatch.sim.base.ring_parties`:
on the fault's share of the coups both are seated and neither holds the bank, the second player stakes
exactly when the first does, :data:`RING_RATIO` times his amount; each such coup labelled); the
framework adds ``wrong_payout``, dropped and duplicated events and the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pitwatch.sim.baccarat import _draw, load_shoe
from pitwatch.sim.base import BACCARAT_RINGS, ring_parties
from pitwatch.sim.payouts import (
    ZERO,
    Payment,
    chemin_de_fer_bank_payment,
    chemin_de_fer_stake_payment,
    chemin_de_fer_winner,
    punto_banca_points,
)

DROPPABLE = frozenset({"settlement_recorded", "rake_taken"})
"""Event types a ``dropped_event`` fault may remove: only settlements and the cagnotte. A lost card, stake or
bank would change the bank the next coup is judged against."""
MIN_PLAYERS = 4
"""Chemin de fer is played with at least four players (000 L632); they are seated before a coup while the
table has fewer."""
RINGS = BACCARAT_RINGS
"""The rings of two punters a chemin de fer table plays (both stay all evening)."""

BANK_MAX_MULTIPLE = 100
"""The bank in play is at most 100 times the punto minimum (000 L596; 004 L2081-L2083)."""
GARAGE_MIN_MULTIPLE = 50
"""Winnings may be set aside only above 50 times the punto minimum (000 L602; 004 L2097-L2102)."""
STAKE_PROBABILITY = {"cautious": 0.4, "regular": 0.55, "high_roller": 0.7}
"""The chance a seated player stakes against the bank in a coup, by style."""
BANCO_CALL = 0.06
"""The chance a seated player calls banco in a coup (the whole bank)."""
SEGUIDO_CALL = 0.5
"""The chance a player with the right to «banco seguido» calls it when the banker goes on."""
KEEP_GOING = 0.75
"""The chance a banker who won (or tied) goes on."""
GARAGE = 0.2
"""The chance a banker who may set winnings aside does so (half of them)."""
TABLEAU_ASKED = 0.2
"""The chance the banker asks for the tableau before the cards."""
FREE_DEVIATION = 0.1
"""The chance a banker who did not ask for the tableau plays against a «T» or «P» cell (he is free)."""
RING_RATIO = 2
"""The ring's second player stakes this many times the first's stake (capped at the bank)."""
TABLEAU_PRINTED = frozenset({"chemin_de_fer.galicia"})
"""The rulesets whose text prints the bank's tableau (Andalucía names it without printing it)."""

_COLUMNS = "0123456789P"
TABLEAU: dict[int, str] = {
    # «Tercera carta de la mano de la persona jugadora» 0-9 and P (stood), as printed at 000 L672-L681;
    # rows 0-2 leave the column P blank ("-")
    0: "TTTTTTTTTT-", 1: "TTTTTTTTTT-", 2: "TTTTTTTTTT-", 3: "TTTTTTTTPOT",
    4: "PPTTTTTTPPT", 5: "PPPPOTTTPPT", 6: "PPPPPPTTPPP", 7: "PPPPPPPPPPP",
}
"""The bank's tableau: row the bank's two-card total, column the punto's third card (``P``: he stood)."""


def cell(bank_total: int, punto_third: int | None) -> str:
    """The printed letter (``T`` draw, ``P`` stand, ``O`` optional, ``-`` blank) of :data:`TABLEAU`."""
    return TABLEAU[bank_total][_COLUMNS.index("P" if punto_third is None else str(punto_third))]


def prepare(table: Any, emit: Any) -> None:
    """A new shoe when there is none or its stop card came out (no burn: module docstring)."""
    load_shoe(table, emit, burn_cards=False)


@dataclass
class _Stake:
    bet_id: str
    player: Any
    spot: str
    amount: Decimal
    order: int


def _after(seat: int, players: list[Any]) -> Any:
    """The seated player at the right of ``seat``: the next seat number, round the table."""
    ordered = sorted(players, key=lambda p: (p.seat <= seat, p.seat))
    return ordered[0]


def cover(stakes: list[_Stake], bank: Decimal, banker_seat: int) -> tuple[_Stake | None, dict[str, Decimal]]:
    """``(holder, bet id -> euros in play)`` of the coup's stakes against ``bank`` euros (module docstring)."""
    if not stakes:
        return None, {}
    bancos = [s for s in stakes if s.spot in ("banco", "banco_seguido")]
    if bancos:
        return bancos[0], {bancos[0].bet_id: min(bancos[0].amount, bank)}
    by_priority = sorted(stakes, key=lambda s: (s.player.seat <= banker_seat, s.player.seat, s.order))
    holder = max(by_priority, key=lambda s: (s.amount, -by_priority.index(s)))
    covered: dict[str, Decimal] = {}
    left = bank
    for s in [holder, *(s for s in by_priority if s is not holder)]:
        covered[s.bet_id] = min(s.amount, left)
        left -= covered[s.bet_id]
    return holder, covered


def _bank(table: Any, emit: Any) -> dict[str, Any]:
    """Who holds the bank this coup and with how much (module docstring); emits ``bank_put_up``.
    Returns the coup's bank: ``banker``, ``amount``, ``garage``, ``held`` (his winnings before)."""
    rng, minimum, st = table.rng, table.min_bet, table.state
    prev = st.get("bank")
    seated = {p.player_id: p for p in table.players}
    cap = minimum * BANK_MAX_MULTIPLE
    fresh = minimum * rng.choice((5, 10, 20, 50, 100))
    garage = ZERO
    if prev is None:
        banker, taken, amount, held = rng.choice(table.players), "rotation", fresh, ZERO
    elif prev["result"] == "punto" or prev["banker"] not in seated:
        banker = _after(prev["seat"], [p for p in table.players if p.player_id != prev["banker"]])
        taken, held = "rotation", ZERO
        amount = fresh if prev["result"] == "punto" else max(fresh, prev["after"])
    elif rng.random() < KEEP_GOING:
        banker, taken, held = seated[prev["banker"]], "kept", prev["winnings"]
        amount = prev["after"]
        if held > GARAGE_MIN_MULTIPLE * minimum and rng.random() < GARAGE:
            garage = min((held / 2 // minimum) * minimum, amount - minimum)
            amount -= garage
    else:
        banker = _after(prev["seat"], [p for p in table.players if p.player_id != prev["banker"]])
        taken, amount, held = "rotation", max(fresh, prev["after"]), ZERO
    emit("bank_put_up", actor=("player", banker.player_id), dt=rng.uniform(3, 6), banker_id=banker.player_id,
         amount=amount, seat=banker.seat, taken=taken, garage=garage)
    return {"banker": banker, "amount": amount, "garage": garage, "held": held - garage, "taken": taken,
            "in_play": min(amount, cap)}


def _stakes(table: Any, round_id: str, emit: Any, faults: Any, bank: dict[str, Any]) -> list[_Stake]:
    """The stakes of the coup (module docstring), emitted as ``bet_placed``; the faults of the stakes."""
    rng, minimum, st = table.rng, table.min_bet, table.state
    banker = bank["banker"]
    punters = [p for p in table.players if p is not banker]
    rng.shuffle(punters)
    limit: Decimal = bank["in_play"]
    out: list[_Stake] = []

    def place(p: Any, spot: str, amount: Decimal) -> _Stake:
        return place_stake(table, emit, out, p, spot, amount)

    seguido = st.get("bank", {}) or {}
    right = seguido.get("seguido")
    if bank["taken"] == "kept" and right and any(p.player_id == right for p in punters) and rng.random() < SEGUIDO_CALL:
        place(next(p for p in punters if p.player_id == right), "banco_seguido", limit)
        return out
    if punters and rng.random() < BANCO_CALL:
        place(rng.choice(punters), "banco", limit)
        return out
    ring = ring_of(table, round_id, punters, faults)
    over = rng.choice(punters) if punters and faults.hit("over_limit_bet") else None
    for p in punters:
        if ring and p.player_id == ring[1]:
            continue
        if p is over:
            s = place(p, "punto", (limit // minimum + rng.randint(1, 3)) * minimum)
            faults.label("over_limit_bet", round_id, s.bet_id, f"{s.amount} EUR against a bank of {limit} EUR")
            continue
        if rng.random() >= STAKE_PROBABILITY.get(p.style, 0.55):
            continue
        s = place(p, "punto", table.stake(p, limit))
        if ring and p.player_id == ring[0]:
            follow_ring(table, emit, out, faults, round_id, ring, punters, s, max(minimum, limit // minimum * minimum))
    if not out and punters:  # a coup needs a punto: the first punter stakes the minimum
        place(punters[0], "punto", minimum)
    join_fault(table, round_id, emit, faults, out, punters)
    return out


def place_stake(table: Any, emit: Any, stakes: list[_Stake], p: Any, spot: str, amount: Decimal) -> _Stake:
    """Player ``p`` stakes ``amount`` on ``spot`` (``bet_placed``, ``box`` his seat), appended to ``stakes``."""
    s = _Stake(table.new_bet_id(), p, spot, amount, len(stakes))
    emit("bet_placed", actor=("player", p.player_id), dt=table.rng.uniform(1.5, 4.0), bet_id=s.bet_id,
         player_id=p.player_id, spot=spot, stake=amount, box=p.seat)
    stakes.append(s)
    return s


def follow_ring(table: Any, emit: Any, stakes: list[_Stake], faults: Any, round_id: str, ring: tuple[str, str],
                punters: list[Any], lead: _Stake, cap: Decimal, where: str = "") -> None:
    """The ring's second player stakes on the spot of the first's stake ``lead``, :data:`RING_RATIO` times
    its amount (at most ``cap``); the coup labelled ``association`` (``where``: the detail's end)."""
    partner = next(q for q in punters if q.player_id == ring[1])
    place_stake(table, emit, stakes, partner, lead.spot, min(lead.amount * RING_RATIO, cap))
    faults.label("association", round_id, lead.bet_id, f"{ring[0]} and {ring[1]} stake together{where}")


def join_fault(table: Any, round_id: str, emit: Any, faults: Any, stakes: list[_Stake], punters: list[Any]) -> None:
    """The ``joined_stake`` fault: on its share of the coups a punter without a stake joins chips (the table
    minimum, at most the stake) to another's stake, ``stake_joined`` (the stake as placed counts them)."""
    rng = table.rng
    joiners = [p for p in punters if p.player_id not in {s.player.player_id for s in stakes}]
    if joiners and faults.hit("joined_stake"):
        s = rng.choice(stakes)
        j = rng.choice(joiners)
        amount = min(table.min_bet, s.amount)
        emit("stake_joined", actor=("player", j.player_id), dt=rng.uniform(1, 2), bet_id=s.bet_id,
             player_id=j.player_id, amount=amount, seat=j.seat)
        faults.label("joined_stake", round_id, s.bet_id, f"{j.player_id} (seat {j.seat}) joined {amount} to "
                     f"{s.player.player_id}'s stake (seat {s.player.seat})")


def ring_of(table: Any, round_id: str, punters: list[Any], faults: Any) -> tuple[str, str] | None:
    """The ring of :data:`pitwatch.sim.base.BACCARAT_RINGS` that plays this coup (both seated punters, on
    the fault's share of those coups), or ``None``."""
    for kind in BACCARAT_RINGS:
        a, b = ring_parties(kind, table.table_id)
        if {a, b} <= {p.player_id for p in punters} and faults.hit(kind):
            return a, b
    return None


def _deal(table: Any, emit: Any, faults: Any, round_id: str, holder: Any, banker: Any) -> tuple[list[str], list[str]]:
    """The cards and the draw decisions of the coup (module docstring); the banker's misdraw fault."""
    rng = table.rng
    asked = rng.random() < TABLEAU_ASKED
    if asked:
        emit("tableau_requested", actor=("player", banker.player_id), dt=rng.uniform(1, 2), player_id=banker.player_id)
    first = [_draw(table) for _ in range(4)]  # punto, bank, punto, bank
    punto, banca = first[0::2], first[1::2]
    for i, card in enumerate(first):
        emit("card_dealt", dt=rng.uniform(3, 5) if i == 0 else rng.uniform(1, 2), hand="punto" if i % 2 == 0 else "banca",
             card=card)
    p2, b2 = punto_banca_points(punto), punto_banca_points(banca)
    if p2 >= 8 or b2 >= 8:
        return punto, banca
    draws = p2 <= 4 or (p2 == 5 and rng.random() < 0.5)
    emit("draw_decision", actor=("player", holder.player_id), dt=rng.uniform(2, 4), player_id=holder.player_id,
         hand="punto", decision="draw" if draws else "stand")
    third = None
    if draws:
        punto.append(_draw(table))
        emit("card_dealt", dt=rng.uniform(2, 4), hand="punto", card=punto[-1])
        third = punto_banca_points(punto[2:])
    letter = cell(b2, third)
    if b2 == 0:
        bank_draws = True
    elif letter == "O":
        bank_draws = rng.random() < 0.5
    else:
        bank_draws = letter in "T-"
        if not asked and rng.random() < FREE_DEVIATION:
            bank_draws = not bank_draws
    binding = b2 == 0 or (asked and letter in "TP" and table.ruleset_id in TABLEAU_PRINTED)
    banker_says(table, emit, faults, round_id, banker, b2, bank_draws, binding, banca)
    return punto, banca


def banker_says(table: Any, emit: Any, faults: Any, round_id: str, banker: Any, b2: int, draws: bool,
                binding: bool, banca: list[str]) -> None:
    """The banker on a two-card ``b2`` says «carta» when he ``draws`` (else «no») and his third card is
    dealt into ``banca``; where the rule binds him (``binding``: bacará, or the tableau he asked for) the
    ``illegal_decision`` fault makes him do the other."""
    rng = table.rng
    if binding and faults.hit("illegal_decision"):
        draws = not draws
        faults.label("illegal_decision", round_id, None, f"the banker {'drew' if draws else 'stood'} on {b2} "
                     f"against {'bacará' if b2 == 0 else 'the tableau he asked for'}")
    emit("draw_decision", actor=("player", banker.player_id), dt=rng.uniform(2, 4), player_id=banker.player_id,
         hand="banca", decision="draw" if draws else "stand")
    if draws:
        banca.append(_draw(table))
        emit("card_dealt", dt=rng.uniform(2, 4), hand="banca", card=banca[-1])


def take_cagnotte(table: Any, round_id: str, emit: Any, faults: Any, pay: Payment, cagnotte: Decimal) -> Payment:
    """The croupier puts ``cagnotte`` in its slot (``rake_taken``, none when it is 0) and hands the banker
    ``pay``; the ``wrong_cagnotte`` fault puts a few chips too many or too few in the slot, the banker's
    return moved the other way. Returns the bank's payment as recorded."""
    rng = table.rng
    recorded = cagnotte
    if cagnotte > 0 and faults.hit("wrong_cagnotte"):
        delta = rng.choice((Decimal("0.01"), Decimal("1.00"), table.min_bet)) * rng.choice((1, -1))
        recorded = max(ZERO, cagnotte + delta)
        pay = Payment(pay.bet_id, pay.outcome, pay.returned + cagnotte - recorded)
        faults.label("wrong_cagnotte", round_id, pay.bet_id, f"{recorded} put in the cagnotte, {cagnotte} due")
    if recorded > 0:
        emit("rake_taken", dt=rng.uniform(2, 3), amount=recorded)
    return pay


def play_round(table: Any, round_id: str, emit: Any, faults: Any) -> list[Payment]:
    """One coup (module docstring). Returns the payment of every stake and of the bank; emits the cagnotte."""
    rng, st = table.rng, table.state
    bank = _bank(table, emit)
    stakes = _stakes(table, round_id, emit, faults, bank)
    emit("bets_closed", dt=rng.uniform(2, 4))
    holder, covered = cover(stakes, bank["in_play"], bank["banker"].seat)
    punto, banca = _deal(table, emit, faults, round_id, holder.player if holder else bank["banker"], bank["banker"])
    if st["pos"] >= st["cut_at"]:
        st["cut_out"] = True
    won = chemin_de_fer_winner(punto, banca)
    payments = [chemin_de_fer_stake_payment(s.bet_id, s.amount, covered.get(s.bet_id, ZERO), won) for s in stakes]
    in_play = sum(covered.values(), ZERO)
    cagnotte = ZERO
    if in_play > 0:
        pay, cagnotte = chemin_de_fer_bank_payment(table.ruleset_id, f"{round_id}:bank", in_play, won)
        payments.append(take_cagnotte(table, round_id, emit, faults, pay, cagnotte))
    net = in_play - cagnotte if won == "banca" else -in_play if won == "punto" else ZERO
    seguido = None
    if won == "banca" and holder is not None and (holder.spot in ("banco", "banco_seguido") or len(stakes) == 1):
        seguido = holder.player.player_id
    st["bank"] = {"banker": bank["banker"].player_id, "seat": bank["banker"].seat, "result": won,
                  "after": bank["amount"] + net, "winnings": bank["held"] + net, "seguido": seguido}
    st["layout_in"] = in_play
    return payments
