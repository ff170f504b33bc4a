"""The simulator's own payout table: what a correct dealer hands back for each bet.

Written directly from the regulations (the seed texts under ``pitwatch/rules/seeds``), apart from
the rules engine: this module imports nothing from :mod:`pitwatch.rules` and keeps its own
ratios. The simulator records these amounts in ``settlement_recorded``; the engine computes
its own expectation from the ruleset files. A clean simulated round therefore shows no alert
only when both agree, and a wrong ratio or rounding in either one becomes a
``payout_discrepancy``.

Amounts are euros as ``Decimal``. A :class:`Payment` gives ``returned``, the gross euros handed
back (the stake kept plus the winnings; 0 for a lost bet), and ``commission``, the euros the
house deducts from it. The texts set no rounding: a derived amount with a fraction of a cent
(a half-back refund, 3:2 or 1:2 winnings on odd cents, a deduction) is rounded down to the
cent, so the house never hands over a fraction of a cent it does not owe, nor keeps one.

Sources (seed file and lines, Galicia ``000``, Asturias ``001``, Andalucía ``004``):
roulette 000 L121-L153 and 004 L217-L324; blackjack 000 L289-L311 and 004 L733-L805;
punto y banca 000 L467, L477; 001 L78-L80, L170-L172; 004 L1699-L1704, L1722-L1724;
chemin de fer 000 L570, L598, L612, L666; 004 L2089-L2091, L2119-L2129; bacará a dos paños 000 L751, L763,
L799, L803, L811, L823-L829; 004 L2472-L2484, L2515-L2519, L2641-L2652, L2672-L2673, L2716-L2723, L2744-L2755.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_DOWN, Decimal
from typing import Iterable, Mapping, Sequence

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
HALF = Decimal("0.5")
INSURANCE_SUFFIX = "/insurance"
"""Settlement id of an insurance: ``<main bet_id>/insurance`` (the event contract's encoding)."""


def cents_down(amount: Decimal) -> Decimal:
    """``amount`` euros rounded down to the cent."""
    return amount.quantize(CENT, rounding=ROUND_DOWN)


@dataclass(frozen=True)
class Payment:
    """What the dealer records for one bet: ``outcome`` (a short word: ``win``, ``lose``,
    ``push``, ``blackjack``, ``surrender``, ``half_back``, ``en_prison``, ``released``...),
    ``returned`` and ``commission`` in euros."""

    bet_id: str
    outcome: str
    returned: Decimal
    commission: Decimal = ZERO


# --------------------------------------------------------------------------- French roulette

ROULETTE_WINNINGS: dict[str, Decimal] = {
    "straight": Decimal(35),   # pleno: 000 L133 «treinta y cinco veces su postura»; 004 L221-L224
    "split": Decimal(17),      # pareja o caballo: 000 L135 «diecisiete veces»; 004 L226-L229
    "street": Decimal(11),     # fila transversal, also 0-1-2 / 0-2-3: 000 L137; 004 L231-L240
    "corner": Decimal(8),      # cuadro, also 0-1-2-3: 000 L139-L141 «ocho veces»; 004 L242-L249
    "sixline": Decimal(5),     # seisena: 000 L143 «cinco veces la apuesta»; 004 L261-L264
    "column": Decimal(2),      # columna: 000 L145 «dos veces»; 004 L266-L269
    "dozen": Decimal(2),       # docena: 000 L147 «dos veces»; 004 L271-L275
    "columns": HALF,           # dos columnas: 000 L149 «la mitad de la postura»; 004 L277-L280
    "dozens": HALF,            # dos docenas: 000 L151 «la mitad de la postura»; 004 L282-L285
    "simple": Decimal(1),      # suertes sencillas: 000 L123 «al valor de la cantidad apostada»; 004 L287-L290
}
"""Net winnings per euro staked on a winning bet, by kind; the winner also keeps the stake
(000 L123, L153; 004 L217-L219, L287-L288)."""

RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
"""The red numbers: digit sum odd, except 10 and 29 (black) and 19 (red) (000 L93; 004 L143-L150)."""

SIMPLE_CHANCES: dict[str, frozenset[int]] = {
    "red": RED,
    "black": frozenset(range(1, 37)) - RED,
    "even": frozenset(range(2, 37, 2)),
    "odd": frozenset(range(1, 37, 2)),
    "manque": frozenset(range(1, 19)),   # falta, 1-18 (000 L121; 004 L298-L299)
    "passe": frozenset(range(19, 37)),   # pasa, 19-36 (000 L121; 004 L301-L302)
}
"""The simple chances and the numbers they win on (zero is in none of them)."""

ZERO_FLOOR: dict[str, str] = {
    # «Si está por debajo del mínimo de la mesa, la apuesta debe quedar en prisión» (000 L127):
    # the bet's value after the k-th zero halved it, i.e. what a half back would return.
    "french_roulette.galicia": "refund",
    # «la cantidad de la apuesta mantenida fuese inferior a la apuesta mínima» (004 L316-L319):
    # the amount the bet keeps in prison.
    "french_roulette.andalucia": "kept",
}
"""Which amount the table minimum is compared with from the second consecutive zero on, when it
decides that a simple chance may no longer be halved and must stay in prison."""


def roulette_kind(spot: str) -> str:
    """Bet kind of a spot code (``"straight:17"`` -> ``"straight"``, ``"red"`` -> ``"simple"``)."""
    return "simple" if spot in SIMPLE_CHANCES else spot.partition(":")[0]


def roulette_numbers(spot: str) -> frozenset[int]:
    """The numbers a spot code wins on. Inside bets list them (``"corner:1-2-4-5"``); columns
    are 1, 4 ... 34 / 2, 5 ... 35 / 3, 6 ... 36 (000 L97, L145; 004 L160-L162, L266-L269), dozens
    1-12 / 13-24 / 25-36 (000 L147; 004 L271-L275); ``columns:1-2`` and ``dozens:2-3`` join two
    of them. Raises ``ValueError`` for a code that is none of these shapes."""
    if spot in SIMPLE_CHANCES:
        return SIMPLE_CHANCES[spot]
    kind, _, rest = spot.partition(":")
    parts = [int(p) for p in rest.split("-")]
    if kind in ("straight", "split", "street", "corner", "sixline"):
        return frozenset(parts)
    if kind in ("column", "columns"):
        return frozenset(n for c in parts for n in range(c, 37, 3))
    if kind in ("dozen", "dozens"):
        return frozenset(n for d in parts for n in range(12 * d - 11, 12 * d + 1))
    raise ValueError(f"not a roulette spot: {spot!r}")


def zero_refund(initial: Decimal, k: int) -> Decimal:
    """Half-back refund of a simple chance of ``initial`` euros at the k-th consecutive zero:
    the half, the quarter, the eighth... of the initial stake (000 L125, L129; 004 L304-L307,
    L320-L324)."""
    return cents_down(initial / 2 ** k)


def zero_kept(initial: Decimal, k: int) -> Decimal:
    """Euros a simple chance left in prison at the k-th consecutive zero holds (and gets back,
    without winnings, when released): the whole stake after the first zero, half of it after
    the second... (000 L125-L127; 004 L307-L316)."""
    return cents_down(initial / 2 ** (k - 1))


def half_back_allowed(ruleset_id: str, initial: Decimal, k: int, table_minimum: Decimal) -> bool:
    """Whether a simple chance hit by the k-th consecutive zero may still take its half back:
    always at the first zero; from the second on, not when the amount of :data:`ZERO_FLOOR` is
    below the table minimum (000 L127; 004 L316-L319). Raises ``KeyError`` for a ruleset that is
    not French roulette."""
    if k < 2:
        return True
    amount = zero_refund(initial, k) if ZERO_FLOOR[ruleset_id] == "refund" else zero_kept(initial, k)
    return amount >= table_minimum


def zero_fate(ruleset_id: str, choice: str, initial: Decimal, k: int, last_spin: bool,
              table_minimum: Decimal) -> str:
    """What happens to a simple chance hit by the k-th consecutive zero when the player chose
    ``choice`` (``half_back`` or ``en_prison``): ``forced`` (the last spin of the session: the
    refund is compulsory, 000 L129; 004 L320-L324), ``half_back``, or ``en_prison`` (also when
    the half back is no longer allowed, :func:`half_back_allowed`)."""
    if last_spin:
        return "forced"
    if choice == "half_back" and half_back_allowed(ruleset_id, initial, k, table_minimum):
        return "half_back"
    return "en_prison"


@dataclass(frozen=True)
class Prisoner:
    """A simple chance in prison: its ``spot``, ``initial`` stake (euros) and how many
    consecutive ``zeros`` hit it so far."""

    spot: str
    initial: Decimal
    zeros: int


def roulette_payments(ruleset_id: str, number: int, bets: Iterable[tuple[str, str, Decimal]],
                      prisoners: Mapping[str, Prisoner], choices: Mapping[str, str], *,
                      last_spin: bool, table_minimum: Decimal) -> list[Payment]:
    """Payments of one spin that landed on ``number``: every bet ``(bet_id, spot, stake)`` of the
    spin, then every bet in prison. ``choices`` gives, for each simple chance hit by a zero, the
    player's choice (``half_back``/``en_prison``; the table default when the player said
    nothing). A winning bet returns its stake plus :data:`ROULETTE_WINNINGS`; a simple chance hit
    by a zero returns its refund (half back, or forced on the last spin) or stays in prison
    (returned 0); a prisoner whose chance wins is released with the amount it holds, one that
    loses is lost (000 L121-L153; 004 L217-L324)."""
    def zero_hit(bet_id: str, initial: Decimal, k: int) -> Payment:
        fate = zero_fate(ruleset_id, choices.get(bet_id, "en_prison"), initial, k, last_spin, table_minimum)
        if fate == "en_prison":
            return Payment(bet_id, "en_prison", ZERO)
        return Payment(bet_id, "half_back", zero_refund(initial, k))

    out: list[Payment] = []
    for bet_id, spot, stake in bets:
        if number == 0 and roulette_kind(spot) == "simple":
            out.append(zero_hit(bet_id, stake, 1))
        elif number in roulette_numbers(spot):
            winnings = cents_down(stake * ROULETTE_WINNINGS[roulette_kind(spot)])
            out.append(Payment(bet_id, "win", stake + winnings))
        else:
            out.append(Payment(bet_id, "lose", ZERO))
    for bet_id, p in prisoners.items():
        if number == 0:
            out.append(zero_hit(bet_id, p.initial, p.zeros + 1))
        elif number in SIMPLE_CHANCES[p.spot]:
            out.append(Payment(bet_id, "released", zero_kept(p.initial, p.zeros)))
        else:
            out.append(Payment(bet_id, "lose", ZERO))
    return out


# --------------------------------------------------------------------------- blackjack

BLACKJACK_WINNINGS = Decimal(1)          # «a la par» (000 L293; 004 L742-L743)
BLACKJACK_NATURAL = Decimal("1.5")       # «tres por dos» (000 L293; 004 L743-L745)
INSURANCE_WINNINGS = Decimal(2)          # «dos por uno» (000 L297; 004 L763)
SURRENDER_KEPT = HALF                    # retiro «perdiendo la mitad» (000 L311; Galicia only)


def blackjack_points(cards: Sequence[str]) -> tuple[int, bool]:
    """Best total of blackjack ``cards`` (codes such as ``"AS"``) and whether it is soft: court
    cards 10, an ace 11 when that does not pass 21, else 1 (000 L245, L285; 004 L721-L724)."""
    low = sum(1 if c[0] == "A" else 10 if c[0] in "TJQK" else int(c[0]) for c in cards)
    if any(c[0] == "A" for c in cards) and low <= 11:
        return low + 10, True
    return low, False


@dataclass(frozen=True)
class BlackjackHand:
    """A finished player hand: its ``cards``, whether it was ``doubled`` (the stake is twice the
    bet's) or ``surrendered``, and whether it comes from a ``split`` (never a blackjack)."""

    cards: tuple[str, ...]
    doubled: bool = False
    surrendered: bool = False
    split: bool = False

    @property
    def natural(self) -> bool:
        """Blackjack: 21 with the first two cards of an unsplit hand (000 L293, L305; 004 L743-L744, L795-L798)."""
        return not self.split and len(self.cards) == 2 and blackjack_points(self.cards)[0] == 21


def dealer_blackjack(dealer: Sequence[str]) -> bool:
    """The dealer's blackjack: 21 with his first two cards (000 L297; 004 L761-L763)."""
    return len(dealer) == 2 and blackjack_points(dealer)[0] == 21


def blackjack_hand_result(hand: BlackjackHand, stake: Decimal, dealer: Sequence[str]) -> tuple[str, Decimal]:
    """``(outcome, returned)`` for ``stake`` euros on ``hand`` against the ``dealer``'s cards.

    Surrender returns half the stake (000 L311-L313); over 21 loses (000 L281; 004 L709-L713);
    a blackjack is paid 3:2 and ties a dealer blackjack (000 L291-L293; 004 L738-L746); every
    other hand loses to a dealer blackjack (no hole card: 000 L297; 004 L761-L763); otherwise the
    higher total wins at par and an equal total is void, the stake returned (000 L289-L293;
    004 L733-L743). 21 after a split is paid once the stake (000 L305; 004 L795-L798)."""
    total = blackjack_points(hand.cards)[0]
    if hand.surrendered:
        return "surrender", cents_down(stake * SURRENDER_KEPT)
    if total > 21:
        return "lose", ZERO
    if hand.natural:
        if dealer_blackjack(dealer):
            return "push", stake
        return "blackjack", stake + cents_down(stake * BLACKJACK_NATURAL)
    if dealer_blackjack(dealer):
        return "lose", ZERO
    dealer_total = blackjack_points(dealer)[0]
    if dealer_total > 21 or total > dealer_total:
        return "win", stake + cents_down(stake * BLACKJACK_WINNINGS)
    if total == dealer_total:
        return "push", stake
    return "lose", ZERO


def blackjack_payment(bet_id: str, stake: Decimal, hands: Sequence[BlackjackHand],
                      dealer: Sequence[str]) -> Payment:
    """Payment of a main bet of ``stake`` euros on a box played as ``hands`` (one, or several
    after splits; each split hand carries a stake equal to the bet, a doubled hand twice it:
    000 L299, L307; 004 L777-L779, L800-L803). ``outcome`` is the hands' common outcome, or
    ``split`` when they differ."""
    outcomes, returned = [], ZERO
    for hand in hands:
        outcome, amount = blackjack_hand_result(hand, stake * (2 if hand.doubled else 1), dealer)
        outcomes.append(outcome)
        returned += amount
    return Payment(bet_id, outcomes[0] if len(set(outcomes)) == 1 else "split", returned)


def insurance_payment(bet_id: str, amount: Decimal, dealer: Sequence[str]) -> Payment:
    """Payment of an insurance of ``amount`` euros on main bet ``bet_id``: paid 2:1 when the
    dealer makes blackjack, else lost (000 L297; 004 L761-L765). Andalucía's even money on a
    blackjack is recorded as an insurance of half the stake (004 L767-L772)."""
    if dealer_blackjack(dealer):
        return Payment(bet_id + INSURANCE_SUFFIX, "win", amount + cents_down(amount * INSURANCE_WINNINGS))
    return Payment(bet_id + INSURANCE_SUFFIX, "lose", ZERO)


# --------------------------------------------------------------------------- punto y banca

PUNTO_BANCA_WINNINGS: dict[str, Decimal] = {
    "punto": Decimal(1),   # at par: 004 L1702-L1704 «pagadas a la par» (000 and 001 imply it)
    "banca": Decimal(1),   # at par, less the house deduction below
    "tie": Decimal(8),     # «a razón de ocho a uno» (000 L477; 001 L80); «ocho veces» (004 L1722-L1724)
}
"""Net winnings per euro staked on the winning spot."""


@dataclass(frozen=True)
class Deduction:
    """The house's deduction on a winning banca bet: ``rate`` of the winnings, only when the banca
    wins with one of ``totals`` (``None``: whatever its total)."""

    rate: Decimal
    totals: frozenset[int] | None = None


BANCA_DEDUCTION: dict[str, Deduction] = {
    # «una deducción del 5 por 100 de las apuestas ganadoras» (000 L467)
    "punto_banca.galicia": Deduction(Decimal("0.05")),
    # «una deduccion del 5% de las apuestas ganadoras» (001 L170-L172)
    "punto_banca.asturias": Deduction(Decimal("0.05")),
    # «ganadora la mano de la banca con una puntuación de 6, ... una deducción del 50 por 100
    # de las apuestas ganadoras» (004 L1699-L1702); no other deduction in this text
    "punto_banca.andalucia": Deduction(Decimal("0.50"), frozenset({6})),
}


def punto_banca_points(cards: Sequence[str]) -> int:
    """Total of a punto y banca hand: tens and court cards 0, ace 1, others their pip value; the
    tens of the sum are dropped (000 L475; 001 L73-L77; 004 L1714-L1721)."""
    return sum(0 if c[0] in "TJQK" else 1 if c[0] == "A" else int(c[0]) for c in cards) % 10


def punto_banca_payment(ruleset_id: str, bet_id: str, spot: str, stake: Decimal,
                        punto: Sequence[str], banca: Sequence[str]) -> Payment:
    """Payment of ``stake`` euros on ``spot`` (``punto``, ``banca`` or ``tie``) after a coup dealt
    ``punto`` and ``banca``. The hand nearer nine wins (000 L475-L477; 001 L77-L78; 004 L1721-L1722);
    on a tie the punto and banca bets are void and returned (000 L477; 001 L78-L79; Andalucía
    says nothing, the same reading) and the tie bets win 8:1; a winning banca bet owes the
    deduction of :data:`BANCA_DEDUCTION` as ``commission``. Raises ``KeyError`` for a ruleset
    that is not punto y banca."""
    p, b = punto_banca_points(punto), punto_banca_points(banca)
    winner = "tie" if p == b else "punto" if p > b else "banca"
    if spot != "tie" and winner == "tie":
        return Payment(bet_id, "push", stake)
    if spot != winner:
        return Payment(bet_id, "lose", ZERO)
    winnings = stake * PUNTO_BANCA_WINNINGS[spot]
    commission = ZERO
    deduction = BANCA_DEDUCTION[ruleset_id]
    if spot == "banca" and (deduction.totals is None or b in deduction.totals):
        commission = cents_down(winnings * deduction.rate)
    return Payment(bet_id, "win", cents_down(stake + winnings), commission)


# --------------------------------------------------------------------------- chemin de fer

CAGNOTTE_RATE: dict[str, Decimal] = {
    # «un 5% sobre las cantidades ganadas por la banca en cada jugada» (000 L598)
    "chemin_de_fer.galicia": Decimal("0.05"),
    # «un 5 por 100 sobre las cantidades ganadas por el banquero en cada jugada» (004 L2089-L2091)
    "chemin_de_fer.andalucia": Decimal("0.05"),
}
"""The house's cagnotte on the bank's winnings of a coup, per ruleset (rounded down to the cent)."""


def chemin_de_fer_winner(punto: Sequence[str], banca: Sequence[str]) -> str:
    """``punto``, ``banca`` or ``tie`` (void, «la jugada es considerada nula») for the cards of a coup:
    the values are punto y banca's (000 L612; 004 L2119-L2125)."""
    p, b = punto_banca_points(punto), punto_banca_points(banca)
    return "tie" if p == b else "punto" if p > b else "banca"


def chemin_de_fer_stake_payment(bet_id: str, stake: Decimal, covered: Decimal, winner: str) -> Payment:
    """A stake of ``stake`` euros against the bank, ``covered`` of it in play: the punter «ganará o
    perderá en iguales condiciones que la banca» (000 L570), even money (the texts print no other ratio);
    the part the bank does not cover is handed back whatever happens (000 L594, L604); nothing in play:
    ``refused``, the stake back; a tie is void: the stake back (000 L612)."""
    if covered == 0:
        return Payment(bet_id, "refused", stake)
    if winner == "tie":
        return Payment(bet_id, "push", stake)
    if winner == "punto":
        return Payment(bet_id, "win", stake + covered)
    return Payment(bet_id, "lose", stake - covered)


def chemin_de_fer_bank_payment(ruleset_id: str, bet_id: str, in_play: Decimal, winner: str) -> tuple[Payment, Decimal]:
    """The bank's settlement and the cagnotte of a coup whose bank had ``in_play`` euros covered by
    the stakes: when it wins, the bank back and the stakes it won, less the cagnotte (000 L598,
    L666; 004 L2089-L2091, the rate of :data:`CAGNOTTE_RATE`, rounded down); when it loses, nothing;
    a tie, the bank back. Returns ``(payment, cagnotte)``."""
    if winner == "banca":
        cagnotte = cents_down(in_play * CAGNOTTE_RATE[ruleset_id])
        return Payment(bet_id, "win", in_play + in_play - cagnotte), cagnotte
    if winner == "tie":
        return Payment(bet_id, "push", in_play), ZERO
    return Payment(bet_id, "lose", ZERO), ZERO


# --------------------------------------------------------------------------- bacará a dos paños

PANOS = ("pano1", "pano2")
"""The two paños, the first (at the banker's right, 000 L761; 004 L2506-L2513) first."""
DOS_PANOS_CAGNOTTE_RATE: dict[str, Decimal] = {
    # «un dos por ciento sobre las cantidades ganadas en cada jugada por la banca para la banca limitada»
    # (000 L799); «un 2 por 100 ... en la modalidad de banca limitada» (004 L2641-L2645)
    "limitada": Decimal("0.02"),
    # «y en un 1,25 por 100 para la banca libre» (000 L799); «y en 1,25 por 100 para la modalidad de banca
    # libre» (004 L2644-L2645)
    "libre": Decimal("0.0125"),
}
"""The cagnotte's rate per modality of the bank (the table option ``bank``), the same in both texts."""
RAYA_PANO = {"pano1_raya": "pano1", "pano2_raya": "pano2"}
"""A stake on the line between a player's zone and a paño's betting zone: «juegan a la mitad» (000 L823;
004 L2716-L2718)."""


def dos_panos_parts(spot: str, amount: Decimal, unit: Decimal) -> list[tuple[str, Decimal]]:
    """``(paño, euros)`` of a stake of ``amount`` on ``spot`` offered to the bank, the first paño first: on
    a paño, all of it there; on the line of a player's zone (:data:`RAYA_PANO`), half, rounded down to the
    cent (the rest is handed back); «a caballo» (on the line between the paños, 000 L763, L823) or a
    banco (the whole bank «comprenderá los dos paños», 000 L813), half on each, and when the half is not
    a whole number of ``unit`` (the table minimum) «la fracción más fuerte juega al primer paño» (000
    L825; 004 L2722-L2723): the first paño the half rounded up to whole units, the second the rest."""
    if spot in PANOS:
        return [(spot, amount)]
    if spot in RAYA_PANO:
        return [(RAYA_PANO[spot], cents_down(amount * HALF))]
    first = min(amount, (amount / 2 / unit).to_integral_value(rounding=ROUND_CEILING) * unit)
    return [(p, a) for p, a in zip(PANOS, (first, amount - first)) if a > 0]


def dos_panos_winner(pano: Sequence[str], bank: Sequence[str]) -> str:
    """``punto`` (the paño wins), ``banca`` or ``tie`` (void on that paño, 000 L612) for a paño's cards
    against the bank's: the nearer to nine wins (000 L612, applicable by L803), except that «un 8 con las
    dos primeras cartas gana siempre a un 8 ó 9 utilizando una tercera carta» (000 L811; 004 L2672-L2673),
    read for a two-card 9 too (it beats what a two-card 8 beats)."""
    p, b = punto_banca_points(pano), punto_banca_points(bank)
    if len(pano) == 2 and p >= 8 and len(bank) == 3 and b >= 8:
        return "punto"
    if len(bank) == 2 and b >= 8 and len(pano) == 3 and p >= 8:
        return "banca"
    return "tie" if p == b else "punto" if p > b else "banca"


def dos_panos_stake_payment(bet_id: str, stake: Decimal, covered: dict[str, Decimal],
                            winners: dict[str, str]) -> Payment:
    """A stake of ``stake`` euros of which ``covered[paño]`` plays on each paño, ``winners[paño]`` the
    result there: each part is paid as a chemin de fer stake on its paño (even money, a tie void: 000 L803,
    L829, L612), what did not play comes back. ``refused`` when nothing played; else ``win``, ``lose`` or
    ``push`` by what comes back against the stake (a stake a caballo may win on one paño, lose on the
    other)."""
    played = sum(covered.values(), ZERO)
    if played == 0:
        return Payment(bet_id, "refused", stake)
    back = stake - played
    for pano, part in covered.items():
        back += part + part if winners[pano] == "punto" else part if winners[pano] == "tie" else ZERO
    return Payment(bet_id, "win" if back > stake else "lose" if back < stake else "push", back)


def dos_panos_bank_payment(modality: str, bet_id: str, in_play: dict[str, Decimal],
                           winners: dict[str, str]) -> tuple[Payment, Decimal]:
    """The bank's settlement and the cagnotte of a coup whose bank had ``in_play[paño]`` euros against the
    stakes of each paño: on each paño the bank back and the stakes won, or nothing, or (a tie) the bank
    back; less the cagnotte, the rate of :data:`DOS_PANOS_CAGNOTTE_RATE` on the bank's net win of the coup,
    rounded down, when «la banca gane en los dos paños, o su ganancia en uno sea superior a la pérdida en
    otro» (000 L829; 004 L2748-L2752). Returns ``(payment, cagnotte)``."""
    net = sum((a if winners[p] == "banca" else -a if winners[p] == "punto" else ZERO for p, a in in_play.items()), ZERO)
    cagnotte = cents_down(net * DOS_PANOS_CAGNOTTE_RATE[modality]) if net > 0 else ZERO
    total = sum(in_play.values(), ZERO)
    back = total + net - cagnotte
    return Payment(bet_id, "win" if back > total else "lose" if back < total else "push", back), cagnotte
