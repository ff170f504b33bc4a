"""House edge of blackjack's main bet (optimal play under the ruleset's rules) and of insurance.

**Main bet.** The expected loss per unit of initial stake of a player who makes the best decision
(stand, hit, double, split, surrender, each only where the ruleset and the engine allow it) with every
hand, computed from the ruleset's ``[rules]`` and ``[payouts]``:

- the shoe: ``rules.decks`` decks of 52 cards (000 L243; 004 L583), blackjack values of the engine
  (:func:`pitwatch.schemas.cards.blackjack_value`: ace 1 or 11, court cards 10);
- the dealer draws by the engine's own rule (:func:`pitwatch.rules.blackjack.dealer_must_draw` with
  ``rules.dealer_stands_on`` and ``rules.dealer_hits_soft_17``: 000 L283-L285; 004 L715-L724);
- European no hole card (000 L277-L283, L297; 004 L695-L702, L761-L763): the dealer's second card
  comes after the players have played, a dealer blackjack takes every stake of a hand, doubles and
  splits included; a player blackjack pays ``payouts.blackjack`` and pushes a dealer blackjack;
- doubling: on a first two-card hand whose total (aces as 1, or one ace as 11) is in
  ``rules.double_totals`` (any if empty), not on 21, one card; after a split if
  ``rules.double_after_split`` (000 L307-L309; 004 L800-L805);
- splitting: two cards of equal value; re-splitting as often as wanted if ``rules.resplit`` (aces:
  ``rules.resplit_aces``); a split ace takes one card and stands; 21 after a split is paid
  ``payouts.win`` (000 L299-L305; 004 L774-L798);
- surrender («retiro», ``rules.surrender``): the unsplit first two cards, not against an ace, returns
  ``payouts.surrender_returned`` of the stake whatever the dealer then draws (000 L311-L313).

Approximation (documented in every :class:`~pitwatch.rules.edges.common.EdgeLine` it produces): the
probabilities of the three first cards (the player's two, the dealer's first) are exact for the finite
shoe, and every later card is drawn from the shoe less those three, without further removal
(a "three-card removal" model, between the infinite-deck model and a full combinatorial analysis).
The dealer's blackjack chance is thereby exact. Surrender is assumed offered before any box takes a
third card (the engine refuses it afterwards), and each box is played alone (the other boxes' cards
are unseen, so on average they change nothing). Cut card and burn are not modelled. Computed in
``Decimal`` at 34 significant digits, reported to 12 decimal places.

**Insurance** (000 L295-L297; 004 L748-L765): pays ``payouts.insurance`` if the dealer's second card,
drawn from the shoe less his ace, is worth ten: 16 x decks of the 52 x decks - 1 cards. Exact, per
unit insured: edge = 1 - (1 + ratio) x 16d / (52d - 1) (6 decks, 2:1: 23/311 = 7.3955 %; an infinite
deck: 1/13). Even money on a blackjack (Andalucía, 004 L767-L772) is an insurance of half the stake
(the engine records it so): same edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction

from pitwatch.rules.base import RuleError, Ruleset
from pitwatch.rules.blackjack import MAIN_SPOT, dealer_must_draw
from pitwatch.rules.edges.common import EdgeLine, VersionCache, percent_text, ratio_text
from pitwatch.rules.models import BlackjackRuleset
from pitwatch.rules.spec import EdgeCalculation
from pitwatch.schemas.cards import ALL_CARDS, blackjack_value

INSURANCE_SPOT = "insurance"
"""Spot of an insurance settlement (:meth:`pitwatch.rules.blackjack.BlackjackRound.settle`)."""

VALUES = tuple(range(1, 11))
"""Card values 1 (ace) to 10 (ten and court cards)."""

PER_DECK: dict[int, int] = {v: sum(1 for c in ALL_CARDS if blackjack_value(c) == v) for v in VALUES}
"""Cards of each value in one 52-card deck: 4 of 1..9, 16 worth ten."""

PLACES = 12
"""Decimal places to which the main bet's edge is reported (the calculation carries 34 digits)."""

_BUST = 22
_BJ = 23


@dataclass(frozen=True)
class Play:
    """The rules the calculation reads, from a :class:`~pitwatch.rules.models.BlackjackRuleset`."""

    decks: int
    stands_on: int
    hits_soft_17: bool
    double_totals: frozenset[int]
    double_after_split: bool
    resplit: bool
    resplit_aces: bool
    surrender: bool
    win: Decimal
    blackjack: Decimal
    surrender_returned: Decimal

    @classmethod
    def of(cls, ruleset: Ruleset, decks: int | None = None) -> Play:
        """The rules of ``ruleset``, with ``decks`` decks instead of ``rules.decks`` if given.
        Raises ``RuleError`` for another game's ruleset or fewer than one deck."""
        m = ruleset.model_as(BlackjackRuleset)
        r, p = m.rules, m.payouts
        n = r.decks if decks is None else decks
        if n < 1:
            raise RuleError(f"a shoe needs at least one deck, not {n}")
        return cls(n, r.dealer_stands_on, r.dealer_hits_soft_17, frozenset(r.double_totals), r.double_after_split,
                   r.resplit, r.resplit_aces, r.surrender, p.win, p.blackjack, p.surrender_returned)

    def may_double(self, low: int, ace: bool) -> bool:
        """Whether a two-card hand of value ``low`` (aces as 1), holding an ace or not, may double
        (as :meth:`pitwatch.rules.blackjack.BlackjackRound._double` judges it)."""
        if _total(low, ace) >= 21:
            return False
        allowed = self.double_totals
        return not allowed or low in allowed or (ace and low + 10 in allowed)


def _total(low: int, ace: bool) -> int:
    """Best total of a hand of value ``low`` with aces as 1, one ace counting 11 if that stays <= 21."""
    return low + 10 if ace and low <= 11 else low


def _cards(low: int, ace: bool) -> list[str]:
    """Card codes of some hand of value ``low`` (aces as 1), with an ace iff ``ace``."""
    cards = ["AS"] if ace else []
    rest = low - (1 if ace else 0)
    while rest > 0:
        if rest == 1:
            cards.append("AH")
            rest = 0
        elif rest <= 10:
            cards.append("TS" if rest == 10 else f"{rest}S")
            rest = 0
        else:
            take = 9 if rest == 11 else 10
            cards.append("9S" if take == 9 else "TS")
            rest -= take
    return cards


_MAX_LOW = 31  # a dealer drawing on at most 21 reaches at most 31


def draw_table(play: Play) -> dict[tuple[int, bool], bool]:
    """``{(low, ace): must the dealer draw}`` for every dealer hand of two or more cards, from the
    engine's :func:`~pitwatch.rules.blackjack.dealer_must_draw`."""
    return {(low, ace): dealer_must_draw(_cards(low, ace), play.stands_on, play.hits_soft_17)
            for low in range(2, _MAX_LOW + 1) for ace in (False, True) if low <= 21}


def dealer_outcomes(up: int, q: dict[int, Decimal], must: dict[tuple[int, bool], bool],
                    stands_on: int = 17, hits_soft_17: bool = False) -> list[Decimal]:
    """Probabilities of the dealer's final hand from first card ``up``: index t = 0..21 a final
    total t, 22 a bust, 23 a blackjack; later cards of value v come with probability ``q[v]``."""
    out = [Decimal(0)] * 24
    mass: dict[tuple[int, bool], Decimal] = {}
    up_ace = up == 1
    if not dealer_must_draw(_cards(up, up_ace), stands_on, hits_soft_17):
        out[_total(up, up_ace)] = Decimal(1)
        return out
    for x in VALUES:
        if {up, x} == {1, 10}:
            out[_BJ] += q[x]
        else:
            key = (up + x, up_ace or x == 1)
            mass[key] = mass.get(key, Decimal(0)) + q[x]
    for low in range(2, _MAX_LOW + 1):
        for ace in (False, True):
            m = mass.get((low, ace))
            if not m:
                continue
            t = _total(low, ace)
            if t > 21:
                out[_BUST] += m
            elif must[(low, ace)]:
                for x in VALUES:
                    key = (low + x, ace or x == 1)
                    mass[key] = mass.get(key, Decimal(0)) + m * q[x]
            else:
                out[t] += m
    return out


class _Hand:
    """The player's values against one dealer first card with one card distribution ``q``."""

    def __init__(self, play: Play, up: int, q: dict[int, Decimal], dealer: list[Decimal]):
        self.play, self.up, self.q = play, up, q
        self.dealer_bj = dealer[_BJ]
        win = play.win
        self.stand: list[Decimal] = []
        for t in range(22):
            below = dealer[_BUST] + sum(dealer[d] for d in range(t))
            above = self.dealer_bj + sum(dealer[d] for d in range(t + 1, 22))
            self.stand.append(win * below - above)
        self.memo: dict[tuple[int, bool], Decimal] = {}

    def settled(self, low: int, ace: bool) -> Decimal:
        """Value of standing on a hand (-1 if bust)."""
        t = _total(low, ace)
        return Decimal(-1) if t > 21 else self.stand[t]

    def best(self, low: int, ace: bool) -> Decimal:
        """Value of a hand that may only hit or stand, played best."""
        key = (low, ace)
        v = self.memo.get(key)
        if v is None:
            t = _total(low, ace)
            v = Decimal(-1) if t > 21 else self.stand[21] if t == 21 else max(self.stand[t], self.hit(low, ace))
            self.memo[key] = v
        return v

    def hit(self, low: int, ace: bool) -> Decimal:
        """Value of taking one card, then playing best."""
        return sum((self.q[x] * self.best(low + x, ace or x == 1) for x in VALUES), Decimal(0))

    def double(self, low: int, ace: bool) -> Decimal:
        """Value of doubling (one card, twice the stake)."""
        return 2 * sum((self.q[x] * self.settled(low + x, ace or x == 1) for x in VALUES), Decimal(0))

    def split_hand(self, c: int, x: int) -> Decimal:
        """Value of a split hand of ``c`` that drew ``x``, played best without re-splitting."""
        low, ace = c + x, c == 1 or x == 1
        if c == 1:
            return self.settled(low, ace)  # a split ace takes one card and stands
        v = self.best(low, ace)
        if self.play.double_after_split and self.play.may_double(low, ace):
            v = max(v, self.double(low, ace))
        return v

    def split(self, c: int) -> Decimal:
        """Value of splitting a pair of ``c`` (both hands, per unit of the initial stake)."""
        q = self.q
        s = sum((q[x] * self.split_hand(c, x) for x in VALUES if x != c), Decimal(0))
        v = s + q[c] * self.split_hand(c, c)
        if (self.play.resplit_aces if c == 1 else self.play.resplit) and 2 * q[c] < 1:
            v = max(v, s / (1 - 2 * q[c]))  # re-splitting every new pair: v = s + q[c] * 2v
        return 2 * v

    def first(self, a: int, b: int) -> Decimal:
        """Value of the first two cards ``a``, ``b``, played best."""
        play = self.play
        low, ace = a + b, a == 1 or b == 1
        if ace and low == 11:
            options = [play.blackjack * (1 - self.dealer_bj)]  # blackjack: pushes a dealer blackjack
        else:
            options = [self.best(low, ace)]
            if play.may_double(low, ace):
                options.append(self.double(low, ace))
            if a == b:
                options.append(self.split(a))
        if play.surrender and self.up != 1:
            options.append(play.surrender_returned - 1)
        return max(options)


def main_edge_decimal(play: Play) -> Decimal:
    """The main bet's edge per unit of initial stake under ``play`` (see the module docstring)."""
    with localcontext() as ctx:
        ctx.prec = 34
        counts = {v: PER_DECK[v] * play.decks for v in VALUES}
        n = sum(counts.values())
        must = draw_table(play)
        total = Decimal(0)
        for up in VALUES:
            for a in VALUES:
                for b in VALUES[a - 1:]:
                    left = dict(counts)
                    weight = left[a]
                    left[a] -= 1
                    weight *= left[b] * (1 if a == b else 2)
                    left[b] -= 1
                    weight *= left[up]
                    left[up] -= 1
                    if weight <= 0:
                        continue
                    q = {x: Decimal(left[x]) / (n - 3) for x in VALUES}
                    hand = _Hand(play, up, q, dealer_outcomes(up, q, must, play.stands_on, play.hits_soft_17))
                    total += weight * hand.first(a, b)
        ev = total / (n * (n - 1) * (n - 2))
        return (-ev).quantize(Decimal(1).scaleb(-PLACES))


_MAIN: VersionCache[int, Fraction] = VersionCache()


def main_edge(ruleset: Ruleset, decks: int | None = None) -> Fraction:
    """The main bet's edge under ``ruleset`` (``decks`` decks if given), cached per ruleset version."""
    play = Play.of(ruleset, decks)
    return _MAIN.get_or_compute(ruleset, play.decks, lambda: Fraction(main_edge_decimal(play)))


def insurance_edge(ruleset: Ruleset, decks: int | None = None) -> Fraction:
    """Insurance's edge per unit insured: 1 - (1 + ``payouts.insurance``) x tens / (cards - 1)."""
    play = Play.of(ruleset, decks)
    ratio = Fraction(ruleset.model_as(BlackjackRuleset).payouts.insurance)
    tens, cards = PER_DECK[10] * play.decks, sum(PER_DECK.values()) * play.decks
    return 1 - (1 + ratio) * Fraction(tens, cards - 1)


MAIN_VARIANCE_BASE = Fraction("1.308")
"""Variance of the main bet per unit of initial stake squared, basic strategy, 6 decks, dealer hits
soft 17, no double after split, no surrender, no re-split aces: the published simulation of the
Wizard of Odds, "Variance in blackjack" (wizardofodds.com/games/blackjack/appendix/4, summary
table; Wong's *Professional Blackjack* gives 1.28 for the stand-on-soft-17 row, 1.295 there)."""

MAIN_VARIANCE_EFFECTS: tuple[tuple[str, Fraction], ...] = (
    ("dealer stands on soft 17", Fraction("-0.00838")),
    ("double after split", Fraction("0.03753")),
    ("surrender", Fraction("-0.03629")),
    ("re-split aces", Fraction("0.00207")),
    ("8 or more decks", Fraction("0.00071")),
    ("1 or 2 decks", Fraction("-0.00530")),
)
"""The same source's effect of each rule on that variance ("Effect of rule variation" table)."""


def main_variance(ruleset: Ruleset, decks: int | None = None) -> Fraction:
    """Variance of the main bet's net result per unit of initial stake squared (σ ≈ 1.14): not
    derived from the deal like the edge but :data:`MAIN_VARIANCE_BASE` plus the
    :data:`MAIN_VARIANCE_EFFECTS` of the ruleset's rules (an approximation: basic strategy, a hole
    card, 3 to 7 decks counted as 6; the European no-hole-card rule is not in the source)."""
    play = Play.of(ruleset, decks)
    applies = {"dealer stands on soft 17": not play.hits_soft_17, "double after split": play.double_after_split,
               "surrender": play.surrender, "re-split aces": play.resplit_aces,
               "8 or more decks": play.decks >= 8, "1 or 2 decks": play.decks <= 2}
    return MAIN_VARIANCE_BASE + sum((v for k, v in MAIN_VARIANCE_EFFECTS if applies[k]), Fraction(0))


def insurance_variance(ruleset: Ruleset, decks: int | None = None) -> Fraction:
    """Insurance's variance per unit insured squared, exact: wins ``payouts.insurance`` with the
    probability of :func:`insurance_edge`, else loses 1 (2:1 on 6 decks: σ ≈ 1.39)."""
    play = Play.of(ruleset, decks)
    ratio = Fraction(ruleset.model_as(BlackjackRuleset).payouts.insurance)
    tens, cards = PER_DECK[10] * play.decks, sum(PER_DECK.values()) * play.decks
    p = Fraction(tens, cards - 1)
    mean = -insurance_edge(ruleset, decks)
    return p * ratio * ratio + (1 - p) - mean * mean


def spot_variance(ruleset: Ruleset, spot: str, decks: int | None = None) -> Fraction:
    """Variance of the main bet (:func:`main_variance`) or of insurance (:func:`insurance_variance`).
    Raises ``RuleError`` (a ``ValueError``) for any other spot."""
    if spot == MAIN_SPOT:
        return main_variance(ruleset, decks)
    if spot == INSURANCE_SPOT:
        return insurance_variance(ruleset, decks)
    raise RuleError(f"{spot!r} is not a blackjack bet (spots: {MAIN_SPOT!r}, {INSURANCE_SPOT!r})")


def spot_edge(ruleset: Ruleset, spot: str, decks: int | None = None) -> Fraction:
    """Edge of the main bet (``spot`` ``"main"``) or of insurance (``"insurance"``). Raises
    ``RuleError`` (a ``ValueError``) for any other spot."""
    if spot == MAIN_SPOT:
        return main_edge(ruleset, decks)
    if spot == INSURANCE_SPOT:
        return insurance_edge(ruleset, decks)
    raise RuleError(f"{spot!r} is not a blackjack bet (spots: {MAIN_SPOT!r}, {INSURANCE_SPOT!r})")


def _rules_text(play: Play) -> str:
    dealer = f"dealer {'hits' if play.hits_soft_17 else 'stands on'} soft {play.stands_on}"
    double = ("double any two cards" if not play.double_totals
              else "double on " + ", ".join(map(str, sorted(play.double_totals))))
    parts = [f"{play.decks} decks", dealer, double, "double after split" if play.double_after_split else "no double after split",
             "re-split" + ("" if play.resplit else ": no") + (", aces too" if play.resplit_aces else ", not aces"),
             f"surrender returns {percent_text(play.surrender_returned)}, not v. ace" if play.surrender else "no surrender",
             "no hole card: a dealer blackjack takes doubles and splits"]
    return "; ".join(parts)


def edge_table(ruleset: Ruleset, decks: int | None = None) -> list[EdgeLine]:
    """The main bet and insurance."""
    play = Play.of(ruleset, decks)
    m = ruleset.model_as(BlackjackRuleset)
    main_cites = ["win", "push", "lose", "blackjack", "split_21", "double", "split", "hit", "dealer_draw",
                  "no_hole_card", "shoe"]
    if play.surrender:
        main_cites.append("surrender")
    tens, cards = PER_DECK[10] * play.decks, sum(PER_DECK.values()) * play.decks
    ins_cites = ("insurance", "shoe") + (("even_money",) if m.rules.even_money else ())
    return [
        EdgeLine(MAIN_SPOT, "", MAIN_SPOT, main_edge(ruleset, decks),
                 f"{ratio_text(play.win)}, blackjack {ratio_text(play.blackjack)}",
                 f"best play of every hand ({_rules_text(play)}); exact odds of the first three cards, later "
                 "cards from the shoe less those three (approximation); unlimited re-splits",
                 tuple(main_cites), exact=False),
        EdgeLine(INSURANCE_SPOT, "", INSURANCE_SPOT, insurance_edge(ruleset, decks), ratio_text(m.payouts.insurance),
                 f"dealer's second card worth ten: {tens} of the {cards - 1} cards left after his ace"
                 + ("; even money is an insurance of half the stake" if m.rules.even_money else ""),
                 ins_cites),
    ]



CALCULATION = EdgeCalculation(
    table=lambda r, o, d: edge_table(r, d),
    edge=lambda r, s, o, d: spot_edge(r, s, d),
    variance=lambda r, s, o, d: spot_variance(r, s, d),
)
"""This calculation in the shape every game's has (:class:`pitwatch.rules.spec.EdgeCalculation`)."""

__all__ = ["INSURANCE_SPOT", "MAIN_VARIANCE_BASE", "MAIN_VARIANCE_EFFECTS", "PER_DECK", "PLACES", "Play", "dealer_outcomes",
           "draw_table", "edge_table", "insurance_edge", "insurance_variance", "main_edge", "main_edge_decimal",
           "main_variance", "spot_edge", "spot_variance"]
