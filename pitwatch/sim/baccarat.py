"""Simulator round generator for punto y banca (see :mod:`pitwatch.sim.base` for the framework).

The shoe follows the texts (000 L435, L506-510; 001 L121-135; 004 L1529, L1843-1864): six
52-card decks shuffled with the table's RNG, cut by a player, a cut card with seven cards below
it, a burn of the exposed first card plus as many cards as its value (tens and courts 10). The
shoe ends when the cut card has come out; the coup in progress is completed (a coup uses at most
six cards, so the seven cards under the cut card always suffice).

A coup: seated players bet (of all bets ~47% banca, ~38% punto, ~10% tie: a few add a tie side bet), the
croupier calls «No va más», cards go P B P B then the third cards per the punto rule and the
banca tableau (:func:`next_hand`, the simulator's own reading of the texts), with realistic
pauses (the punto hand is shown by its largest bettor). About 80 coups an hour with the
framework's round_started/settlement/round_ended events. Every bet is paid from the simulator's
own payout table (:func:`pitwatch.sim.payouts.punto_banca_payment`), never from the rules
engine, so that a wrong payout or deduction in the engine shows up as a detection error.

Faults (each labelled): ``late_bet`` (a bet_placed after bets_closed), ``over_limit_bet`` (a tie
bet above 10% of the table maximum, or a punto/banca bet above the maximum), ``dealer_misdraw``
(banca's third card dealt or withheld contrary to the tableau, or punto drawing after a natural or on 6-7).
"""

from __future__ import annotations

from decimal import Decimal

from pitwatch.schemas.cards import RANKS, SUITS
from pitwatch.sim.payouts import Payment, punto_banca_payment
from pitwatch.sim.payouts import punto_banca_points as points

DROPPABLE = frozenset({"settlement_recorded", "card_dealt", "bet_placed"})
"""Event types a ``dropped_event`` fault may remove (their loss stays inside the round)."""

SPOT_WEIGHTS = (("banca", 0.52), ("punto", 0.42), ("tie", 0.06))
TIE_SIDE_BET = 0.04  # a punto/banca bettor also backs the tie: ~10% of all bets are ties
BET_PROBABILITY = {"cautious": 0.75, "regular": 0.85, "high_roller": 0.95}
DECKS = 6  # 000 L435; 004 L1529-L1531 (Asturias' Resolución does not say)
CARDS_BEHIND_CUT = 7  # 000 L506; 001 L121-L122; 004 L1843-L1848
TIE_MAX_FRACTION = Decimal("0.10")  # tie bets up to 10% of the table maximum: 000 L477; 001 L80; 004 L1724-L1726


def banca_draws(banca: int, punto_third: int | None) -> bool:
    """Whether the banca takes a third card with two-card total ``banca`` when punto's third card
    is worth ``punto_third`` (``None``: punto stood). The printed tableau (000 L489-L504;
    001 L92-L116; 004 L1740-L1755), row by row: 0-2 always draw; 3 draws unless punto's third
    card is an 8; 4 draws on 2-7; 5 on 4-7; 6 on 6-7; 7 stands; with punto standing, 0-5 draw."""
    if punto_third is None:
        return banca <= 5
    draws_on = {3: set(range(10)) - {8}, 4: set(range(2, 8)), 5: set(range(4, 8)), 6: {6, 7}, 7: set()}
    return banca <= 2 or punto_third in draws_on[banca]


def next_hand(dealt: list[tuple[str, str]]) -> str | None:
    """The hand that takes the next card of a coup after ``dealt`` ((hand, card) pairs), or ``None``
    when the coup is complete: punto, banca, punto, banca (000 L510; 001 L133-L135; 004 L1860-L1864);
    a natural 8 or 9 of either hand ends it (000 L479; 001 L82-L83; 004 L1728-L1731); punto draws
    on 0-5 and stands on 6-7 (000 L485-L487; 001 L89-L90; 004 L1735-L1738); then
    :func:`banca_draws`."""
    if len(dealt) < 4:
        return ("punto", "banca")[len(dealt) % 2]
    punto = [c for h, c in dealt if h == "punto"]
    banca = [c for h, c in dealt if h == "banca"]
    p2, b2 = points(punto[:2]), points(banca[:2])
    if p2 >= 8 or b2 >= 8 or len(banca) == 3:
        return None
    if len(punto) == 2:
        if p2 <= 5:
            return "punto"
        return "banca" if banca_draws(b2, None) else None
    return "banca" if banca_draws(b2, points(punto[2:])) else None


def _burn_value(card: str) -> int:
    """Value of the exposed burn card: ace 1, tens and courts 10 (000 L508; 001 L126-128; 004 L1855-1856)."""
    r = card[0]
    return 1 if r == "A" else 10 if r in "TJQK" else int(r)


def prepare(table, emit) -> None:
    """Load, shuffle, cut and burn a new shoe when there is none or its cut card came out
    (:func:`load_shoe`)."""
    load_shoe(table, emit)


def load_shoe(table, emit, burn_cards: bool = True, cards_behind: int = CARDS_BEHIND_CUT) -> None:
    """Load, shuffle, cut and (``burn_cards``) burn a new shoe when there is none or its cut card came out.

    Emits table-level ``shoe_loaded`` (decks), ``shoe_shuffled``, ``shoe_cut`` (cut by a seated
    player, ``cards_behind`` cards below the cut card: punto y banca's 7) and, with ``burn_cards``,
    ``cards_burned`` (1 + value of the first card). Chemin de fer's shoe is the same (six decks, the stop
    card before the last seven: 000 L532, L636; 004 L1772-L1777, L2194-L2199) without the burn, which its
    texts do not have; bacará a dos paños' too, with ten cards below the stop card (000 L819; 004
    L2694-L2698).
    """
    st = table.state
    if st.get("shoe") is not None and not st.get("cut_out"):
        return
    decks = DECKS
    cards = [r + s for _ in range(decks) for s in SUITS for r in RANKS]
    table.rng.shuffle(cards)
    st["shoe_n"] = st.get("shoe_n", 0) + 1
    shoe_id = f"{table.table_id}-S{st['shoe_n']:03d}"
    emit.table_event("shoe_loaded", dt=90, shoe_id=shoe_id, decks=decks)
    emit.table_event("shoe_shuffled", dt=150, shoe_id=shoe_id)
    behind = cards_behind
    if table.players:
        cutter = table.rng.choice(table.players).player_id
        emit.table_event("shoe_cut", actor=("player", cutter), dt=15, shoe_id=shoe_id, cut_by=cutter,
                         cards_behind=behind)
    else:
        emit.table_event("shoe_cut", dt=15, shoe_id=shoe_id, cards_behind=behind)
    burn = 0
    if burn_cards:
        burn = 1 + _burn_value(cards[0])
        emit.table_event("cards_burned", dt=10, count=burn)
    st.update(shoe=cards, pos=burn, cut_at=len(cards) - behind, cut_out=False)


def _draw(table) -> str:
    st = table.state
    card = st["shoe"][st["pos"]]
    st["pos"] += 1
    return card


def _spot(table) -> str:
    r = table.rng.random()
    acc = 0.0
    for spot, w in SPOT_WEIGHTS:
        acc += w
        if r < acc:
            return spot
    return "banca"


def _max_for(table, spot: str) -> Decimal:
    return table.max_bet * TIE_MAX_FRACTION if spot == "tie" else table.max_bet


def _bet(table, emit, round_id: str, player, spot: str, stake: Decimal, dt: float) -> str:
    bet_id = table.new_bet_id()
    emit("bet_placed", actor=("player", player.player_id), dt=dt, bet_id=bet_id,
         player_id=player.player_id, spot=spot, stake=stake)
    return bet_id


def play_round(table, round_id: str, emit, faults) -> list[Payment]:
    """Bets, «No va más», the deal; faults late_bet / over_limit_bet / dealer_misdraw on demand.
    Returns the payment of every bet on the cards dealt, by
    :func:`pitwatch.sim.payouts.punto_banca_payment` (nothing on a late bet, which is no wager)."""
    rng = table.rng
    players = list(table.players)
    rng.shuffle(players)
    bets: list[tuple[str, str, Decimal]] = []   # (bet_id, spot, stake) placed before «No va más»

    def place(player, spot: str, stake: Decimal, dt: float) -> str:
        bet_id = _bet(table, emit, round_id, player, spot, stake, dt)
        bets.append((bet_id, spot, stake))
        return bet_id

    over_limit = faults.hit("over_limit_bet") and players
    over_player = rng.choice(players) if over_limit else None
    for p in players:
        if p is over_player or rng.random() >= BET_PROBABILITY.get(p.style, 0.85):
            continue
        spot = _spot(table)
        place(p, spot, table.stake(p, _max_for(table, spot)), rng.uniform(1.5, 4.0))
        if spot != "tie" and rng.random() < TIE_SIDE_BET:
            place(p, "tie", table.stake(p, _max_for(table, "tie")), rng.uniform(1, 2.5))
    if over_player is not None:
        spot = "tie" if rng.random() < 0.6 else rng.choice(("banca", "punto"))
        cap = _max_for(table, spot)
        stake = (cap // table.min_bet + rng.randint(1, 3)) * table.min_bet
        bet_id = place(over_player, spot, stake, rng.uniform(1.5, 4.0))
        faults.label("over_limit_bet", round_id, bet_id, f"{stake} EUR on {spot}, maximum {cap} EUR")

    emit("bets_closed", dt=rng.uniform(2, 4))

    if faults.hit("late_bet") and players:
        p = rng.choice(players)
        spot = _spot(table)
        bet_id = _bet(table, emit, round_id, p, spot, table.stake(p, _max_for(table, spot)), rng.uniform(1, 3))
        faults.label("late_bet", round_id, bet_id, f"{spot} bet placed after «No va más»")

    # The legal deal, card by card from the shoe.
    dealt: list[tuple[str, str]] = []
    while (hand := next_hand(dealt)) is not None:
        dealt.append((hand, _draw(table)))
    if faults.hit("dealer_misdraw"):
        if len(dealt) == 4:
            natural = points([c for h, c in dealt if h == "punto"]) >= 8 or \
                points([c for h, c in dealt if h == "banca"]) >= 8
            dealt.append(("punto", _draw(table)))
            detail = "punto drew after a natural" if natural else "punto drew on 6 or 7"
        elif dealt[-1][0] == "banca" and len(dealt) >= 5:
            dealt.pop()
            table.state["pos"] -= 1
            detail = "banca did not draw although the tableau says draw"
        else:
            dealt.append(("banca", _draw(table)))
            detail = "banca drew although the tableau says stand"
        faults.label("dealer_misdraw", round_id, None, detail)

    for i, (hand, card) in enumerate(dealt):
        if i == 0:
            dt = rng.uniform(3, 5)          # «Cartas»: the shoe holder deals
        elif i < 4:
            dt = rng.uniform(1, 2)
        else:
            dt = rng.uniform(4, 7)          # totals announced, «Carta para ...»
        emit("card_dealt", dt=dt, hand=hand, card=card)
    st = table.state
    if st["pos"] >= st["cut_at"]:
        st["cut_out"] = True

    punto = [c for h, c in dealt if h == "punto"]
    banca = [c for h, c in dealt if h == "banca"]
    return [punto_banca_payment(table.ruleset_id, bet_id, spot, stake, punto, banca)
            for bet_id, spot, stake in bets]
