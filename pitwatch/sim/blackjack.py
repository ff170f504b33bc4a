"""Simulator round generator for blackjack (see :mod:`pitwatch.sim.base` for the framework).

The shoe follows the texts (000 L243, L325-L329; 004 L583, L882-L896): six 52-card decks
shuffled with the table's RNG, cut by a seated player, a cut card with one to two decks behind
it (at least one deck), the first five cards burned. When the cut card comes out the round in
progress is finished and the next round starts with a new shoe.

A round: every seated player bets on the box of their seat (sometimes a second, vacant box);
standing back-bettors add bets on some boxes (at most three players per box, the box total
within the per-hand maximum); «No va más»; one card to each box from the croupier's left, one
to the dealer, a second card to each box (no hole card). If the dealer shows an ace, insurance
is offered (some cautious players take it; a blackjack may take even money in Andalucía); if
not, Galicia's players may surrender (basic strategy: hard 15/16 against a ten, 16 against a
nine). Each box then plays in order with basic strategy for a six-deck, stand-on-soft-17
game: split pairs (aces one card each, no re-split of aces), double on 9-11 (Andalucía also
soft doubles), hit/stand by the usual table. The dealer then draws to 17 while a contested
hand remains; otherwise he takes only the card a blackjack or an insurance depends on.
About 55-65 rounds per hour with the framework's round_started/settlement/round_ended events.
Every bet and insurance is paid from the simulator's own payout table
(:func:`pitwatch.sim.payouts.blackjack_payment`, :func:`~pitwatch.sim.payouts.insurance_payment`),
never from the rules engine, so that a wrong payout in the engine shows up as a detection error;
a double or surrender the rules refuse is paid as if it had not been asked.

Faults (each labelled, only when it really happened in the round): ``late_bet`` (a back bet
placed after the first deal, i.e. after bets_closed), ``over_limit_bet`` (a box's first bet
above the per-hand maximum), ``dealer_misdraw`` (the dealer hits a 17 or stands on 15/16
while a contested hand remains), ``illegal_decision`` (Galicia: a double on a hard 12-20;
Andalucía: a surrender, which does not exist there, or an insurance above half the stake
against an ace).
"""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal

from pitwatch.rules.models import BlackjackRuleset
from pitwatch.schemas.cards import RANKS, SUITS, blackjack_value
from pitwatch.sim.payouts import BlackjackHand, Payment, blackjack_payment, insurance_payment
from pitwatch.sim.payouts import blackjack_points as hand_total

DROPPABLE = frozenset({"settlement_recorded", "card_dealt", "bet_placed"})
"""Event types a ``dropped_event`` fault may remove (their loss stays inside the round)."""

BET_PROBABILITY = {"cautious": 0.85, "regular": 0.9, "high_roller": 0.95}
CENT = Decimal("0.01")


def dealer_must_draw(cards: list[str]) -> bool:
    """The dealer draws below 17 and stands on every 17, an ace counting 11 when that reaches
    17 to 21 (soft 17 included) (000 L285; 004 L717-L724)."""
    return hand_total(cards)[0] < 17


def table_maximum(table) -> Decimal:
    """Per-box maximum in euros: the table maximum, capped by option ``max_multiplier`` times the
    table minimum (000 L319; 004 L863-L865)."""
    multiplier = int(str(table.ctx.option("max_multiplier", "200")))
    return min(table.max_bet, (table.min_bet * multiplier).quantize(CENT))


# --------------------------------------------------------------------------- shoe


def prepare(table, emit) -> None:
    """Load, shuffle, cut and burn a new shoe when there is none or its cut card came out.

    Emits table-level ``shoe_loaded`` (ruleset decks, 6), ``shoe_shuffled``, ``shoe_cut`` (by a
    seated player, 52-104 cards behind the cut card) and ``cards_burned`` (the ruleset's 5).
    """
    st = table.state
    if st.get("shoe") is not None and not st.get("cut_out"):
        return
    rules = table.ctx.ruleset.model_as(BlackjackRuleset).rules
    decks = rules.decks
    cards = [r + s for _ in range(decks) for s in SUITS for r in RANKS]
    table.rng.shuffle(cards)
    st["shoe_n"] = st.get("shoe_n", 0) + 1
    shoe_id = f"{table.table_id}-S{st['shoe_n']:03d}"
    emit.table_event("shoe_loaded", dt=60, shoe_id=shoe_id, decks=decks)
    emit.table_event("shoe_shuffled", dt=120, shoe_id=shoe_id)
    behind = table.rng.randint(rules.cut_card_min_behind, 104)
    if table.players:
        cutter = table.rng.choice(table.players).player_id
        emit.table_event("shoe_cut", actor=("player", cutter), dt=15, shoe_id=shoe_id, cut_by=cutter,
                         cards_behind=behind)
    else:
        emit.table_event("shoe_cut", dt=15, shoe_id=shoe_id, cards_behind=behind)
    burn = rules.burn
    emit.table_event("cards_burned", dt=8, count=burn)
    st.update(shoe=cards, pos=burn, cut_at=len(cards) - behind, cut_out=False)


def _draw(table) -> str:
    st = table.state
    if st["pos"] >= len(st["shoe"]):        # cannot happen with >= 52 cards behind the cut card
        raise RuntimeError("shoe exhausted")
    card = st["shoe"][st["pos"]]
    st["pos"] += 1
    if st["pos"] >= st["cut_at"]:
        st["cut_out"] = True
    return card


# --------------------------------------------------------------------------- strategy


def _up(card: str) -> int:
    """Dealer up-card value for the strategy tables: 2-10, ace 11."""
    v = blackjack_value(card)
    return 11 if v == 1 else v


def _can_double(cards: list[str], allowed: list[int]) -> bool:
    if len(cards) != 2 or hand_total(cards)[0] >= 21:
        return False
    low = sum(blackjack_value(c) for c in cards)
    return not allowed or low in allowed or (any(c[0] == "A" for c in cards) and low + 10 in allowed)


def basic_decision(cards: list[str], up: int, *, can_split: bool, allowed_doubles: list[int],
                   split_aces: bool) -> str:
    """Basic strategy (six decks, dealer stands on soft 17, no hole card, double after split):
    ``split``, ``double``, ``hit`` or ``stand`` for ``cards`` against dealer up-card ``up``
    (2-11), restricted to what the ruleset allows."""
    total, soft = hand_total(cards)
    if split_aces and len(cards) >= 2:
        return "stand"
    if total >= 21:
        return "stand"
    if can_split and len(cards) == 2 and blackjack_value(cards[0]) == blackjack_value(cards[1]):
        v = blackjack_value(cards[0])
        if v == 1 or (v == 8 and up <= 9) or (v == 9 and up in (2, 3, 4, 5, 6, 8, 9)) \
                or (v == 7 and up <= 7) or (v == 6 and up <= 6) or (v in (2, 3) and up <= 7) \
                or (v == 4 and up in (5, 6)):
            return "split"
    dbl = _can_double(cards, allowed_doubles)
    if soft:
        if dbl and not allowed_doubles and ((total in (13, 14) and up in (5, 6)) or
                                            (total in (15, 16) and up in (4, 5, 6)) or
                                            (total in (17, 18) and up in (3, 4, 5, 6))):
            return "double"
        if total >= 19 or (total == 18 and up <= 8):
            return "stand"
        return "hit"
    if dbl and ((total == 11 and up <= 10) or (total == 10 and up <= 9) or (total == 9 and 3 <= up <= 6)):
        return "double"
    if total >= 17:
        return "stand"
    if total >= 13:
        return "stand" if up <= 6 else "hit"
    if total == 12:
        return "stand" if 4 <= up <= 6 else "hit"
    return "hit"


# --------------------------------------------------------------------------- round


class _Hand:
    __slots__ = ("hid", "box", "cards", "split", "split_aces", "doubled", "surrendered", "refused")

    def __init__(self, hid: str, box: int, cards: list[str] | None = None, split: bool = False,
                 split_aces: bool = False):
        self.hid, self.box = hid, box
        self.cards = cards or []
        self.split, self.split_aces = split, split_aces
        self.doubled = self.surrendered = False
        self.refused = False    # its double or surrender is an illegal decision: no wager, not paid

    def settled(self) -> BlackjackHand:
        """The hand as it is paid: a refused double or surrender does not count."""
        return BlackjackHand(tuple(self.cards), self.doubled and not self.refused,
                             self.surrendered and not self.refused, self.split)

    @property
    def total(self) -> int:
        return hand_total(self.cards)[0]

    @property
    def natural(self) -> bool:
        return not self.split and len(self.cards) == 2 and self.total == 21


def _round_down(x: Decimal) -> Decimal:
    return x.quantize(CENT, rounding=ROUND_DOWN)


def play_round(table, round_id: str, emit, faults) -> list[Payment]:
    """Emit one blackjack round after ``round_started``: bets, «No va más», the deal, insurance/
    surrender, each box's play, the dealer's draw (see the module docstring). Returns the
    payment of every main bet and every insurance, by :mod:`pitwatch.sim.payouts` (nothing on
    a late bet, which is no wager)."""
    rng = table.rng
    ctx = table.ctx
    model = ctx.ruleset.model_as(BlackjackRuleset)  # the jurisdiction's options, not its payouts
    rules = model.rules
    limits = model.limits
    maximum = table_maximum(table)
    lo = table.min_bet
    allowed_doubles = list(rules.double_totals)
    surrender_ok = rules.surrender
    even_money = rules.even_money
    cap = limits.max_bettors_per_box
    nboxes = limits.boxes

    # ---------------------------------------------------------------- bets
    boxes: dict[int, list[dict]] = {}          # box -> bets [{bet_id, player, stake}]
    placed: list[dict] = []                    # every bet, in placement order
    controller: dict[int, str] = {}

    def place(box: int, player: str, stake: Decimal, dt: float) -> str:
        bid = table.new_bet_id()
        emit("bet_placed", actor=("player", player), dt=dt, bet_id=bid, player_id=player, spot="main",
             stake=stake, box=box)
        bet = {"bet_id": bid, "player": player, "stake": stake, "box": box}
        boxes.setdefault(box, []).append(bet)
        placed.append(bet)
        controller.setdefault(box, player)
        return bid

    players = sorted(table.players, key=lambda p: p.seat)
    bettors = [p for p in players if rng.random() < BET_PROBABILITY.get(p.style, 0.9)]
    if len(bettors) < 2:                       # Galicia: at least two hands (000 L263)
        bettors = players[:2] if len(players) >= 2 else players
    over_limit_box = None
    if faults.hit("over_limit_bet") and bettors:
        over_limit_box = rng.choice(bettors).seat
    for p in bettors:
        if p.seat in boxes:
            continue
        if p.seat == over_limit_box:
            stake = maximum + lo * rng.choice((1, 2, 5))
            bid = place(p.seat, p.player_id, stake, rng.uniform(1, 3))
            faults.label("over_limit_bet", round_id, bid, f"{stake} on box {p.seat} (max {maximum})")
            continue
        place(p.seat, p.player_id, table.stake(p, maximum), rng.uniform(1, 3))
        if p.style != "cautious" and rng.random() < 0.12:   # also plays a vacant box
            free = [b for b in range(1, nboxes + 1) if b not in boxes and b not in {q.seat for q in players}]
            if free:
                place(rng.choice(free), p.player_id, table.stake(p, maximum), rng.uniform(1, 2.5))
    # standing back-bettors
    pool = table.state.setdefault("backers", [f"P-{table.table_id}-W{i:02d}" for i in range(1, 7)])
    for box in list(boxes):
        if box == over_limit_box:
            continue
        while len({b["player"] for b in boxes[box]}) < cap and rng.random() < 0.15:
            room = maximum - sum(b["stake"] for b in boxes[box])
            if room < lo:
                break
            backer = rng.choice([w for w in pool if w not in {b["player"] for b in boxes[box]}])
            units = rng.choice((1, 1, 2, 3))
            place(box, backer, min(lo * units, (room // lo) * lo), rng.uniform(1, 2.5))
    emit("bets_closed", dt=2)

    # ---------------------------------------------------------------- deal (no hole card)
    order = sorted(boxes)
    hands: dict[int, list[_Hand]] = {b: [_Hand(str(b), b)] for b in order}
    dealer: list[str] = []

    def deal(hand: _Hand | None, dt: float = 0.9) -> str:
        c = _draw(table)
        if hand is None:
            dealer.append(c)
            emit("card_dealt", dt=dt, hand="dealer", card=c)
        else:
            hand.cards.append(c)
            emit("card_dealt", dt=dt, hand=hand.hid, card=c)
        return c

    for b in order:
        deal(hands[b][0])
    deal(None)
    for b in order:
        deal(hands[b][0])
    up = _up(dealer[0])

    if faults.hit("late_bet"):
        free = [b for b in order if len({x["player"] for x in boxes[b]}) < cap
                and maximum - sum(x["stake"] for x in boxes[b]) >= lo and b != over_limit_box]
        if free:
            box = rng.choice(free)
            backer = rng.choice([w for w in pool if w not in {x["player"] for x in boxes[box]}])
            bid = place(box, backer, lo, 1.5)
            placed[-1]["late"] = True
            faults.label("late_bet", round_id, bid, f"bet on box {box} after the first deal")

    illegal = faults.hit("illegal_decision")
    illegal_done = False

    def decide(box: int, decision: str, hand: _Hand, dt: float | None = None) -> None:
        emit("player_decision", actor=("player", controller[box]), dt=dt or rng.uniform(1, 2.5),
             decision=decision, hand=hand.hid)

    # ---------------------------------------------------------------- insurance / surrender
    insured: dict[str, Decimal] = {}           # bet_id -> insurance (euros), in decision order
    if dealer[0][0] == "A":
        if illegal and not rules.surrender:
            # Andalucía: an insurance above half the stake (004 L758-L760)
            b = rng.choice(order)
            bet = boxes[b][0]
            amount = _round_down(bet["stake"] * Decimal("0.75"))
            emit("player_decision", actor=("player", bet["player"]), dt=3, decision="insurance",
                 bet_id=bet["bet_id"], amount=amount)
            insured[bet["bet_id"]] = amount
            # a limit breach of the insurance (its maximum), not an illegal decision
            faults.label("over_limit_bet", round_id, bet["bet_id"], f"insurance {amount} on {bet['stake']}")
            illegal_done = True
        for b in order:
            for bet in boxes[b]:
                if bet["bet_id"] in insured:
                    continue
                natural = hands[b][0].natural
                style = next((p.style for p in players if p.player_id == bet["player"]), "regular")
                want = (natural and even_money and rng.random() < 0.5) or \
                       (style == "cautious" and rng.random() < 0.25) or rng.random() < 0.04
                if want:
                    amount = _round_down(bet["stake"] / 2)
                    if amount > 0:
                        emit("player_decision", actor=("player", bet["player"]), dt=rng.uniform(1, 3),
                             decision="insurance", bet_id=bet["bet_id"], amount=amount)
                        insured[bet["bet_id"]] = amount
    else:
        if illegal and not surrender_ok:
            # Andalucía: no «retiro» exists (004 I.1.3 V.1)
            cand = [b for b in order if hands[b][0].total < 21]
            if cand:
                b = rng.choice(cand)
                decide(b, "surrender", hands[b][0])
                hands[b][0].surrendered = hands[b][0].refused = True
                faults.label("illegal_decision", round_id, boxes[b][0]["bet_id"], f"surrender on box {b}")
                illegal_done = True
        if surrender_ok:
            for b in order:
                h = hands[b][0]
                t, soft = hand_total(h.cards)
                if h.surrendered or soft:
                    continue
                if (t == 16 and up in (9, 10)) or (t == 15 and up == 10):
                    if rng.random() < 0.6:
                        decide(b, "surrender", h)
                        h.surrendered = True

    # ---------------------------------------------------------------- players' turns
    for b in order:
        queue = list(hands[b])
        while queue:
            h = queue.pop(0)
            if h.surrendered:
                continue
            if len(h.cards) == 1:          # second card of a split hand
                deal(h)
            while True:
                t = h.total
                if t >= 21 or h.doubled or (h.split_aces and len(h.cards) >= 2):
                    break
                if illegal and not illegal_done and allowed_doubles and len(h.cards) == 2:
                    low = sum(blackjack_value(c) for c in h.cards)
                    if 12 <= t <= 20 and not hand_total(h.cards)[1] and low not in allowed_doubles:
                        decide(b, "double", h)
                        h.doubled = h.refused = True
                        deal(h)
                        faults.label("illegal_decision", round_id, boxes[b][0]["bet_id"],
                                     f"double on {t} (hand {h.hid})")
                        illegal_done = True
                        break
                can_split = len(h.cards) == 2 and not h.split_aces
                d = basic_decision(h.cards, up, can_split=can_split, allowed_doubles=allowed_doubles,
                                   split_aces=h.split_aces)
                if d == "split":
                    decide(b, "split", h)
                    n = len(hands[b]) + 1
                    aces = h.cards[0][0] == "A" and h.cards[1][0] == "A"
                    new = _Hand(f"{b}-{n}", b, [h.cards[1]], split=True, split_aces=aces)
                    h.cards = [h.cards[0]]
                    h.split, h.split_aces = True, aces
                    hands[b].append(new)
                    queue.append(new)
                    deal(h)
                    continue
                decide(b, d, h)
                if d == "stand":
                    break
                if d == "double":
                    h.doubled = True
                deal(h)

    # ---------------------------------------------------------------- dealer
    all_hands = [h for b in order for h in hands[b]]
    live = [h for h in all_hands if not h.surrendered and h.total <= 21]
    contested = [h for h in live if not h.natural]
    misdraw = faults.hit("dealer_misdraw") and bool(contested)
    if contested:
        while True:
            total = hand_total(dealer)[0]
            if misdraw and len(dealer) >= 2 and total in (15, 16):
                faults.label("dealer_misdraw", round_id, None, f"dealer stood on {total}: {' '.join(dealer)}")
                break
            if dealer_must_draw(dealer):
                deal(None, 1.5)
                continue
            if misdraw and total == 17:
                deal(None, 1.5)
                faults.label("dealer_misdraw", round_id, None, f"dealer drew on 17: {' '.join(dealer)}")
                misdraw = False
                continue
            break
    else:
        needs_second = (live and blackjack_value(dealer[0]) in (1, 10)) or (insured and dealer[0][0] == "A")
        if needs_second:
            deal(None, 1.5)

    # ---------------------------------------------------------------- payments
    out = [blackjack_payment(bet["bet_id"], bet["stake"], [h.settled() for h in hands[bet["box"]]], dealer)
           for bet in placed if not bet.get("late")]
    late = {bet["bet_id"] for bet in placed if bet.get("late")}
    out.extend(insurance_payment(bid, amount, dealer) for bid, amount in insured.items() if bid not in late)
    return out
