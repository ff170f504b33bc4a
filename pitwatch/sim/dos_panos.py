"""Simulator coups of bacará a dos paños (banca francesa), one player's bank against two tableaux (see
:mod:`pitwatch.sim.base` for the framework). Written from the texts (Galicia 000 L743-L885; Andalucía 004
L2460-L2899; chemin de fer's rules «aplicables con carácter general», 000 L803; 004 L2648-L2652), apart
from the rules engine: the engine's verdicts on these coups test it. What the logic shares with chemin de
fer's table is that module's code (:mod:`pitwatch.sim.chemin_de_fer`: the tableau, the joined stake, the
ring, the cagnotte put in its slot).

**The shoe** is chemin de fer's (:func:`pitwatch.sim.baccarat.load_shoe`: six decks, no burn) with ten
cards below the stop card (000 L819; 004 L2694-L2698); a shoe is a «partida».

**The table** (:func:`pitwatch.sim.base.dos_panos_table`): ten seats, 1-5 the first paño's (at the
banker's right, numbered from the bank), 6-10 the second's (000 L761; 004 L2506-L2513); the banker sits at
the bank, not in a numbered seat (``bank_put_up.seat`` none). The modality is the table option ``bank``
(``limitada``: the bank answers for its amount; ``libre``: for every stake, 000 L751; 004 L2472-L2484);
a limited table also sets ``bank_maximum``, the most a bank is constituted with (000 L753, L793).

**The bank** (:func:`_bank`): at the opening the inspección announces a banker and his bank, or, with
nobody, auctions it to the highest bidder, equal bids drawn by lot (``bank_auctioned``; 000 L783; 004
L2580-L2587). The banker keeps it coup after coup, its winnings part of it (000 L829); after a coup he may
give it up (000 L787): it is offered in turn to the next seated player at the same initial amount (000
L789), and when nobody takes it, auctioned, and a new shoe begins. When it «saltó» (nothing left: a free
bank may lose more than it holds) the banker goes on with a new deposit of his first one, or gives it up.
A banker who gives it up holding more than his first deposit may not hold it again in the same shoe (000
L787; 004 L2595-L2598). A banker who leaves the table gives it up.

**The stakes** (:func:`_stakes`): at the first coup of a partida a punter may call «banco», the whole bank
on both paños; after a juego nulo (no paño won or lost) the same player may repeat it twice (000 L813; 004
L2675-L2684); a banco takes the bank, no other stake plays. Otherwise each punter stakes at the rate of his
style on his paño, on the line of his zone (half plays), «a caballo» (half on each paño) or on the other
paño (:data:`SPOTS`); each paño gets at least one stake. A limited bank is covered in the order of the seat
numbers, a stake a caballo's first paño part first (000 L775; 004 L2551-L2558; :func:`cover`), the rest
handed back; a free bank covers every stake.

**The cards' holders** (:func:`_holders`): each paño's cards go to a seated player who staked on it, by
turn in its seats' order, kept while the bank does not win the paño, passed on when it does (000 L779;
004 L2564-L2573); the player who made banco holds both.

**The coup** (:func:`_deal`): the banker deals first paño, second paño, bank, twice (000 L827; 004
L2725-L2727); a bank's two-card 8 or 9 ends the coup, a paño's turns it over (000 L807). Each paño's holder
says «carta» on 0-4, «no» on 6-7 and chooses on 5 (000 L807, L622), the one who made banco as he likes;
their third cards come in order, then the banker's: he must draw on 0 («bacará», 000 L624) and is
otherwise free, playing chemin de fer's printed tableau (:func:`pitwatch.sim.chemin_de_fer.cell`) where it
says the same against both paños still in play, as he likes where it does not; now and then he asks the
croupier for the tableau first (000 L809) and then follows it where it says the same for both paños (000
L809, L859; Andalucía prints no tableau: :data:`TABLEAU_PRINTED`). Each paño against the bank: nine or
nearest, a tie void there, a two-card 8 or 9 beating a drawn one (000 L811;
:func:`pitwatch.sim.payouts.dos_panos_winner`).

**The croupier** pays each stake and the bank from the simulator's own payouts
(:func:`pitwatch.sim.payouts.dos_panos_stake_payment`, :func:`~pitwatch.sim.payouts.dos_panos_bank_payment`,
bet id ``<round_id>:bank``) and puts the cagnotte on the bank's net win (2% limitada, 1.25% libre) in its
slot (``rake_taken``). The bank in play goes on the layout for the framework's chip count
(``table.state["layout_in"]``).

Faults (each labelled): ``wrong_cagnotte`` (a few chips too many or too few in the slot),
``illegal_decision`` (the banker stands on bacará, or plays against the tableau he asked for where it binds
him), ``joined_stake`` (a punter joins chips to another's stake: «juego en asociación», forbidden to every
punto, 000 L815; 004 L2686), ``association`` (the ring of :func:`pitwatch.sim.base.ring_parties`: on the
fault's share of the coups both are punters, the second stakes exactly when the first does, on the same
spot, :data:`~pitwatch.sim.chemin_de_fer.RING_RATIO` times his amount; each such coup labelled); the
framework adds ``wrong_payout``, dropped and duplicated events and the rest.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from pitwatch.sim.baccarat import _draw, load_shoe
from pitwatch.sim.base import BACCARAT_RINGS
from pitwatch.sim.chemin_de_fer import (
    FREE_DEVIATION,
    STAKE_PROBABILITY,
    TABLEAU_ASKED,
    _after,
    _Stake,
    banker_says,
    cell,
    follow_ring,
    join_fault,
    place_stake,
    ring_of,
    take_cagnotte,
)
from pitwatch.sim.payouts import (
    PANOS,
    RAYA_PANO,
    ZERO,
    Payment,
    dos_panos_bank_payment,
    dos_panos_parts,
    dos_panos_stake_payment,
    dos_panos_winner,
    punto_banca_points,
)

DROPPABLE = frozenset({"settlement_recorded", "rake_taken"})
"""Event types a ``dropped_event`` fault may remove: only settlements and the cagnotte (as chemin de fer)."""
MIN_PLAYERS = 5
"""Bacará a dos paños needs two players per paño and the banker (000 L817); they are seated before a coup
while the table has fewer."""
RINGS = BACCARAT_RINGS
"""The rings of two punters a bacará a dos paños table plays (both stay all evening)."""

CARDS_BEHIND_CUT = 10
"""Cards below the stop card: «queden 10 cartas» (000 L819), «un mínimo de diez naipes» (004 L2697-L2698)."""
SEATS_PER_PANO = 5
"""Numbered seats of each paño: 1-5 the first's, 6-10 the second's."""
SEATS = 2 * SEATS_PER_PANO
TABLEAU_PRINTED = frozenset({"bacara_dos_panos.galicia"})
"""The rulesets whose text prints the bank's tableau (Andalucía refers to one it does not print)."""
ANNOUNCED = 0.7
"""The chance the inspección has a banker to announce at the opening (else the bank is auctioned)."""
GIVE_UP = 0.1
"""The chance a banker gives the bank up after a coup (twice it when it holds less than 5 minimums)."""
REDEPOSIT = 0.5
"""The chance a banker whose bank «saltó» goes on with a new deposit."""
OFFER_TAKEN = 0.8
"""The chance a bank given up is taken in turn at its initial amount (else it is auctioned)."""
BANCO_CALL = 0.3
"""The chance a punter calls banco at the first coup of a partida."""
BANCO_REPEAT = 0.8
"""The chance the player whose banco was a juego nulo repeats it (twice at most)."""
BANCO_WHIM = 0.15
"""The chance the player who made banco, free, plays a paño against the punto rule."""
SPOTS = (("own", 0.7), ("raya", 0.1), ("a_caballo", 0.15), ("other", 0.05))
"""Where a punter stakes: his paño, the line of his zone, a caballo, the other paño."""
BANK_UNITS = {"limitada": (10, 20, 50, 100), "libre": (50, 100, 200)}
"""A bank constituted, in table minimums, per modality."""


def pano_of(seat: int) -> str:
    """The paño of a numbered seat (module docstring)."""
    return "pano1" if seat <= SEATS_PER_PANO else "pano2"


def panos_of(spot: str) -> tuple[str, ...]:
    """The paños a stake on ``spot`` plays on."""
    if spot in PANOS:
        return (spot,)
    if spot in RAYA_PANO:
        return (RAYA_PANO[spot],)
    return PANOS


def prepare(table: Any, emit: Any) -> None:
    """A new shoe when there is none, its stop card came out or a bank was auctioned (module docstring)."""
    load_shoe(table, emit, burn_cards=False, cards_behind=CARDS_BEHIND_CUT)


def cover(stakes: list[_Stake], bank: Decimal | None, unit: Decimal) -> dict[tuple[str, str], Decimal]:
    """``(bet id, paño) -> euros in play`` of the coup's stakes against a limited bank of ``bank`` euros
    (``None``: a free bank, every stake plays): in the order of the seat numbers, each stake's parts
    (:func:`pitwatch.sim.payouts.dos_panos_parts`, the first paño's first) until the bank is covered."""
    out: dict[tuple[str, str], Decimal] = {}
    left = bank
    for s in sorted(stakes, key=lambda s: (s.player.seat, s.order)):
        for pano, amount in dos_panos_parts(s.spot, s.amount, unit):
            part = amount if left is None else min(amount, left)
            out[(s.bet_id, pano)] = part
            left = None if left is None else left - part
    return out


def _modality(table: Any) -> str:
    return table.options.get("bank", "limitada")


def _fresh(table: Any) -> Decimal:
    """A bank constituted now: a few minimums, within the limited bank's maximum."""
    amount = table.min_bet * table.rng.choice(BANK_UNITS[_modality(table)])
    maximum = table.options.get("bank_maximum")
    return min(amount, Decimal(maximum)) if maximum and _modality(table) == "limitada" else amount


def _bank(table: Any, emit: Any) -> dict[str, Any]:
    """Who holds the bank this coup and with how much (module docstring); emits ``bank_auctioned`` and
    ``bank_put_up``. Returns ``banker``, ``amount``, ``initial`` (his first deposit)."""
    rng, st = table.rng, table.state
    prev = st.get("bank")
    plan = st.pop("plan", None)
    seated = {p.player_id: p for p in table.players}
    free = [p for p in table.players if st.get("barred", {}).get(p.player_id) != st["shoe_n"]]
    if prev is None:
        plan = "announce" if rng.random() < ANNOUNCED else "auction"
    elif prev["banker"] not in seated and plan in ("keep", "redeposit"):
        plan = "offer"
    others = [p for p in free if prev is None or p.player_id != prev["banker"]]
    if plan == "offer" and not others:  # nobody may take it (players left since): the banker goes on
        plan = "keep" if prev["after"] > 0 else "redeposit"
    if plan == "keep":
        banker, taken, amount, initial = seated[prev["banker"]], "kept", prev["after"], prev["initial"]
    elif plan == "redeposit":
        banker, taken, amount, initial = seated[prev["banker"]], "kept", prev["initial"], prev["initial"]
    elif plan == "offer":
        banker, taken = _after(prev["seat"], others), "rotation"
        amount = initial = prev["initial"]
    elif plan == "announce":
        banker, taken = rng.choice(table.players), "rotation"
        amount = initial = _fresh(table)
    else:
        bidders = rng.sample(others, min(len(others), rng.randint(1, 3)))
        bids = [(p, _fresh(table)) for p in bidders]
        top = max(a for _, a in bids)
        banker, taken = rng.choice([p for p, a in bids if a == top]), "auction"  # equal bids: the lot
        amount = initial = top
        emit("bank_auctioned", actor=("inspector", "I-01"), dt=rng.uniform(20, 40), banker_id=banker.player_id,
             amount=amount, bids=[{"player_id": p.player_id, "amount": f"{a:.2f}"} for p, a in bids])
    emit("bank_put_up", actor=("player", banker.player_id), dt=rng.uniform(3, 6), banker_id=banker.player_id,
         amount=amount, seat=None, taken=taken)
    return {"banker": banker, "amount": amount, "initial": initial}


def _banco(table: Any, punters: list[Any], bank: dict[str, Any]) -> Any:
    """The punter who calls banco this coup, or ``None`` (module docstring): at the first coup of a partida,
    or repeating his banco after a juego nulo; at a limited table only a bank within the table maximum."""
    rng, st = table.rng, table.state
    if _modality(table) == "limitada" and bank["amount"] > table.max_bet or not punters:
        return None
    if st["coups"] == 0:
        return rng.choice(punters) if rng.random() < BANCO_CALL else None
    last = st.get("banco")
    if last is not None and last["repeats"] < 2 and rng.random() < BANCO_REPEAT:
        return next((p for p in punters if p.player_id == last["player"]), None)
    return None


def _spot(table: Any, p: Any) -> str:
    own = pano_of(p.seat)
    where = table.rng.choices([w for w, _ in SPOTS], [x for _, x in SPOTS])[0]
    return {"own": own, "raya": f"{own}_raya", "a_caballo": "a_caballo",
            "other": PANOS[1 - PANOS.index(own)]}[where]


def _stakes(table: Any, round_id: str, emit: Any, faults: Any, bank: dict[str, Any]) -> list[_Stake]:
    """The stakes of the coup (module docstring), emitted as ``bet_placed``; the faults of the stakes."""
    rng, minimum, st = table.rng, table.min_bet, table.state
    punters = [p for p in table.players if p is not bank["banker"]]
    rng.shuffle(punters)
    out: list[_Stake] = []

    def place(p: Any, spot: str, amount: Decimal) -> _Stake:
        return place_stake(table, emit, out, p, spot, amount)

    banco = _banco(table, punters, bank)
    if banco is not None:
        place(banco, "banco", bank["amount"])
        return out
    ring = ring_of(table, round_id, punters, faults)
    for p in punters:
        if ring and p.player_id == ring[1]:
            continue
        if rng.random() >= STAKE_PROBABILITY.get(p.style, 0.55):
            continue
        s = place(p, _spot(table, p), table.stake(p, max(minimum, bank["amount"])))
        if ring and p.player_id == ring[0]:
            follow_ring(table, emit, out, faults, round_id, ring, punters, s, table.max_bet, f" on {s.spot}")
    for pano in PANOS:  # each paño needs a hand: a player who may hold its cards stakes the minimum on it
        barred = _barred_holder(st, pano)
        if any(pano in panos_of(s.spot) and s.player.player_id != barred for s in out):
            continue
        idle = [p for p in punters if p.player_id != barred and all(s.player is not p for s in out)]
        if idle:
            place(min(idle, key=lambda p: (pano_of(p.seat) != pano, p.seat)), pano, minimum)
    join_fault(table, round_id, emit, faults, out, punters)
    return out


def _barred_holder(st: dict[str, Any], pano: str) -> str | None:
    """Who may not hold ``pano``'s cards this coup: its holder of the last coup when the bank won it."""
    return st.get("holders", {}).get(pano) if pano in st.get("bank_won", ()) else None


def _holders(table: Any, stakes: list[_Stake]) -> dict[str, Any]:
    """paño -> the player who holds its cards (module docstring)."""
    st = table.state
    if len(stakes) == 1 and stakes[0].spot == "banco":
        return {pano: stakes[0].player for pano in PANOS}
    out = {}
    for pano in PANOS:
        barred = _barred_holder(st, pano)
        on = sorted({s.player.seat: s.player for s in stakes if pano in panos_of(s.spot)}.items())
        players = [p for _, p in on if p.player_id != barred] or [
            s.player for s in sorted(stakes, key=lambda s: s.player.seat) if s.player.player_id != barred]
        last = st.get("holders", {}).get(pano)
        keep = next((p for p in players if p.player_id == last), None)
        if keep is None and last is not None and players:
            seat = st.get("holder_seats", {}).get(pano, 0)
            keep = min(players, key=lambda p: (p.seat <= seat, p.seat))  # the next seat in turn
        out[pano] = keep or players[0]
    return out


def _deal(table: Any, emit: Any, faults: Any, round_id: str, holders: dict[str, Any], banker: Any,
          banco: bool) -> dict[str, list[str]]:
    """The cards and the draw decisions of the coup (module docstring); the banker's misdraw fault."""
    rng = table.rng
    asked = rng.random() < TABLEAU_ASKED
    if asked:
        emit("tableau_requested", actor=("player", banker.player_id), dt=rng.uniform(1, 2), player_id=banker.player_id)
    hands: dict[str, list[str]] = {"pano1": [], "pano2": [], "banca": []}
    for i in range(6):
        hand = ("pano1", "pano2", "banca")[i % 3]
        hands[hand].append(_draw(table))
        emit("card_dealt", dt=rng.uniform(3, 5) if i == 0 else rng.uniform(1, 2), hand=hand, card=hands[hand][-1])
    two = {h: punto_banca_points(c) for h, c in hands.items()}
    active = [p for p in PANOS if two[p] < 8] if two["banca"] < 8 else []
    if not active:
        return hands
    thirds: dict[str, int] = {}
    for pano in active:
        draws = two[pano] <= 4 or (two[pano] == 5 and rng.random() < 0.5)
        if banco and rng.random() < BANCO_WHIM:
            draws = not draws
        holder = holders[pano]
        emit("draw_decision", actor=("player", holder.player_id), dt=rng.uniform(2, 4), player_id=holder.player_id,
             hand=pano, decision="draw" if draws else "stand")
        if draws:
            hands[pano].append(_draw(table))
            emit("card_dealt", dt=rng.uniform(2, 4), hand=pano, card=hands[pano][-1])
            thirds[pano] = punto_banca_points(hands[pano][2:])
    b2 = two["banca"]
    letters = [cell(b2, thirds.get(p)) for p in active]
    habits = {"T": True, "-": True, "P": False}
    wants = {habits.get(x) for x in letters}
    if b2 == 0:
        bank_draws = True
    elif len(wants) == 1 and None not in wants:
        bank_draws = bool(wants.pop())
        if not asked and rng.random() < FREE_DEVIATION:
            bank_draws = not bank_draws
    else:
        bank_draws = rng.random() < 0.5
    binding = b2 == 0 or (asked and table.ruleset_id in TABLEAU_PRINTED and len(set(letters)) == 1
                          and letters[0] in "TP")
    banker_says(table, emit, faults, round_id, banker, b2, bank_draws, binding, hands["banca"])
    return hands


def play_round(table: Any, round_id: str, emit: Any, faults: Any) -> list[Payment]:
    """One coup (module docstring). Returns the payment of every stake and of the bank; emits the cagnotte."""
    rng, st = table.rng, table.state
    if st.get("partida") != st["shoe_n"]:  # a new shoe: a new partida
        st.update(partida=st["shoe_n"], coups=0, banco=None)
    bank = _bank(table, emit)
    stakes = _stakes(table, round_id, emit, faults, bank)
    emit("bets_closed", dt=rng.uniform(2, 4))
    banco = len(stakes) == 1 and stakes[0].spot == "banco"
    holders = _holders(table, stakes)
    hands = _deal(table, emit, faults, round_id, holders, bank["banker"], banco)
    if st["pos"] >= st["cut_at"]:
        st["cut_out"] = True
    won = {p: dos_panos_winner(hands[p], hands["banca"]) for p in PANOS}
    modality = _modality(table)
    covered = cover(stakes, None if modality == "libre" else bank["amount"], table.min_bet)
    payments = [dos_panos_stake_payment(s.bet_id, s.amount, {p: a for (b, p), a in covered.items() if b == s.bet_id},
                                        won) for s in stakes]
    in_play = {p: sum((a for (_, q), a in covered.items() if q == p), ZERO) for p in PANOS}
    total = sum(in_play.values(), ZERO)
    cagnotte = ZERO
    if total > 0:
        pay, cagnotte = dos_panos_bank_payment(modality, f"{round_id}:bank", in_play, won)
        payments.append(take_cagnotte(table, round_id, emit, faults, pay, cagnotte))
    net = sum((a if won[p] == "banca" else -a if won[p] == "punto" else ZERO for p, a in in_play.items()), ZERO)
    _after_coup(table, bank, bank["amount"] + net - cagnotte)
    nulo = all(w == "tie" for w in won.values())
    last = st.get("banco")
    st["banco"] = ({"player": stakes[0].player.player_id,
                    "repeats": last["repeats"] + 1 if last and last["player"] == stakes[0].player.player_id else 0}
                   if banco and nulo else None)
    st["holders"] = {p: h.player_id for p, h in holders.items()}
    st["holder_seats"] = {p: h.seat for p, h in holders.items()}
    st["bank_won"] = tuple(p for p in PANOS if won[p] == "banca")
    st["coups"] += 1
    st["layout_in"] = total
    return payments


def _after_coup(table: Any, bank: dict[str, Any], after: Decimal) -> None:
    """The bank as it stands after the coup and what the banker does next (module docstring): ``plan``
    ``keep``, ``redeposit``, ``offer`` or ``auction`` (a new shoe first)."""
    rng, st, banker = table.rng, table.state, bank["banker"]
    st.setdefault("barred", {})
    st["bank"] = {"banker": banker.player_id, "seat": banker.seat, "initial": bank["initial"], "after": after}
    if after <= 0 and rng.random() < REDEPOSIT:
        st["plan"] = "redeposit"
        return
    if after > 0 and rng.random() >= GIVE_UP * (2 if after < 5 * table.min_bet else 1):
        st["plan"] = "keep"
        return
    if after > bank["initial"]:
        st["barred"][banker.player_id] = st["shoe_n"]
    takers = [p for p in table.players if p is not banker and st["barred"].get(p.player_id) != st["shoe_n"]]
    if len(takers) > 1 and rng.random() < OFFER_TAKEN:
        st["plan"] = "offer"
    else:
        st["plan"] = "auction"
        st["cut_out"] = True
