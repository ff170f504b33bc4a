"""House edge of punto, banca and tie in punto y banca, exact, by enumerating the shoe.

Every ordered deal of a full shoe of ``decks`` x 52 cards is weighed (finite shoe: each card drawn
is removed). Card values are those of the engine (:func:`pitwatch.schemas.cards.baccarat_value`:
ten and court cards 0, ace 1, others their pip: 000 L475; 001 L73-L77; 004 L1714-L1721), the deal
follows the ruleset through the engine's own rules (:func:`pitwatch.rules.baccarat.parse_rules`):
naturals (``deal.naturals``), punto's rule (``deal.punto_draws``) and the banca tableau exactly as
printed (``[tableau]``, :meth:`~pitwatch.rules.baccarat.PuntoBancaRules.banca_draws`).

Counts are of 6-card sequences (a coup that uses fewer cards is counted once for every way the unused
positions could be filled), the convention of the published combination tables, so
P(outcome) = count / (N (N-1) ... (N-5)) exactly. Settlement as the engine's
(:meth:`pitwatch.rules.baccarat.PuntoBancaRound.settle`): punto and banca win ``[payouts]`` per euro
and push on a tie; a banca win owes ``deduction.rate`` of its winnings when its total is in
``deduction.banca_totals`` (any total if empty); tie wins ``payouts.tie``. Edges are per coup dealt
from a full shoe (cut card, burn and earlier coups of the shoe are not modelled) and per euro staked,
ties included; the cent rounding of deductions is ignored.
"""

from __future__ import annotations

from fractions import Fraction

from pitwatch.rules.baccarat import PuntoBancaRules, parse_rules
from pitwatch.rules.base import RuleError, Ruleset
from pitwatch.rules.edges.common import EdgeLine, VersionCache, percent_text, quantize, ratio_text
from pitwatch.rules.spec import EdgeCalculation
from pitwatch.schemas.cards import ALL_CARDS, baccarat_value

PER_DECK: tuple[int, ...] = tuple(sum(1 for c in ALL_CARDS if baccarat_value(c) == v) for v in range(10))
"""Cards of each punto y banca value 0..9 in one 52-card deck (16 worth 0, 4 of each other value)."""

ASSUMED_DECKS = 6
"""Decks assumed where the ruleset gives none (Asturias: its sources do not say, ``deal.decks`` absent):
the six of the Galicia (000 L435) and Andalucía (004 L1529-L1531) texts, which the simulator also deals."""


class Counts:
    """Outcome counts of every 6-card sequence of a shoe: ``punto`` wins, ``banca`` wins by banca
    final total (``banca[t]``, t = 0..9), ``tie``; ``total`` = all sequences, N (N-1) ... (N-5)."""

    def __init__(self, punto: int, banca: tuple[int, ...], tie: int, total: int):
        self.punto = punto
        self.banca = banca
        self.tie = tie
        self.total = total

    def p(self, count: int) -> Fraction:
        """``count`` as a probability."""
        return Fraction(count, self.total)


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def enumerate_shoe(rules: PuntoBancaRules, decks: int) -> Counts:
    """Count the outcomes of every ordered 6-card sequence of a ``decks``-deck shoe under ``rules``.

    Punto's and banca's two-card hands are enumerated as unordered pairs of values (the two orders
    weigh the same), then punto's third card if ``punto_draws`` its total, then banca's if the
    tableau says so for its total and punto's third card (column «P» if punto stood).
    """
    c = [n * decks for n in PER_DECK]
    n_cards = sum(c)
    fill = [_falling(n_cards - k, 6 - k) for k in range(7)]  # ways to fill the unused positions
    draws = {(b, p3): rules.banca_draws(b, p3) for b in range(10) if b not in rules.naturals
             for p3 in (None, *range(10))}
    punto_wins = tie = 0
    banca = [0] * 10

    def settle(p: int, b: int, weight: int) -> None:
        nonlocal punto_wins, tie
        if p > b:
            punto_wins += weight
        elif b > p:
            banca[b] += weight
        else:
            tie += weight

    pairs = [(x, y) for x in range(10) for y in range(x, 10)]
    for p1, p2 in pairs:
        wp = c[p1] * (c[p2] - (p1 == p2)) * (1 if p1 == p2 else 2)
        if wp <= 0:
            continue
        c[p1] -= 1
        c[p2] -= 1
        pt = (p1 + p2) % 10
        for b1, b2 in pairs:
            wb = c[b1] * (c[b2] - (b1 == b2)) * (1 if b1 == b2 else 2)
            if wb <= 0:
                continue
            w4 = wp * wb
            bt = (b1 + b2) % 10
            if pt in rules.naturals or bt in rules.naturals:
                settle(pt, bt, w4 * fill[4])
                continue
            c[b1] -= 1
            c[b2] -= 1
            if pt in rules.punto_draws:
                for p3 in range(10):
                    w5 = w4 * c[p3]
                    if not w5:
                        continue
                    pf = (pt + p3) % 10
                    if draws[(bt, p3)]:
                        c[p3] -= 1
                        for b3 in range(10):
                            if c[b3]:
                                settle(pf, (bt + b3) % 10, w5 * c[b3] * fill[6])
                        c[p3] += 1
                    else:
                        settle(pf, bt, w5 * fill[5])
            elif draws[(bt, None)]:
                for b3 in range(10):
                    if c[b3]:
                        settle(pt, (bt + b3) % 10, w4 * c[b3] * fill[5])
            else:
                settle(pt, bt, w4 * fill[4])
            c[b1] += 1
            c[b2] += 1
        c[p1] += 1
        c[p2] += 1
    return Counts(punto_wins, tuple(banca), tie, fill[0])


_COUNTS: VersionCache[int, Counts] = VersionCache()


def shoe_decks(ruleset: Ruleset, decks: int | None = None) -> tuple[int, bool]:
    """``(decks, assumed)``: ``decks`` if given, else the ruleset's ``deal.decks``, else
    :data:`ASSUMED_DECKS` (``assumed`` True). Raises ``RuleError`` for fewer than one deck."""
    rules = parse_rules(ruleset)
    n, assumed = (decks, False) if decks is not None else (
        (rules.decks, False) if rules.decks is not None else (ASSUMED_DECKS, True))
    if n < 1:
        raise RuleError(f"a shoe needs at least one deck, not {n}")
    return n, assumed


def counts(ruleset: Ruleset, decks: int | None = None) -> Counts:
    """The outcome counts of ``ruleset`` for a shoe of ``decks`` decks (default: :func:`shoe_decks`),
    cached per ruleset version and number of decks."""
    n, _ = shoe_decks(ruleset, decks)
    return _COUNTS.get_or_compute(ruleset, n, lambda: enumerate_shoe(parse_rules(ruleset), n))


def _deducted(rules: PuntoBancaRules, total: int) -> bool:
    return bool(rules.deduction_rate) and (not rules.deduction_totals or total in rules.deduction_totals)


def spot_edge(ruleset: Ruleset, spot: str, decks: int | None = None) -> Fraction:
    """Edge of a bet on ``spot`` (``punto``, ``banca`` or ``tie``) per euro staked. Raises ``RuleError``
    (a ``ValueError``) for a spot the ruleset does not accept."""
    rules = parse_rules(ruleset)
    if spot not in rules.spots:
        raise RuleError(f"{spot!r} is not a bet of {ruleset.id} (its spots: {', '.join(rules.spots)})")
    k = counts(ruleset, decks)
    ratio = {s: Fraction(r) for s, r in rules.payouts.items()}
    if spot == "tie":
        return 1 - k.p(k.tie) * (1 + ratio["tie"])
    banca_wins = sum(k.banca)
    if spot == "punto":
        return k.p(banca_wins) - k.p(k.punto) * ratio["punto"]
    rate = Fraction(rules.deduction_rate)
    won = sum((k.p(n) * ratio["banca"] * ((1 - rate) if _deducted(rules, t) else 1) for t, n in enumerate(k.banca)),
              Fraction(0))
    return k.p(k.punto) - won


def spot_variance(ruleset: Ruleset, spot: str, decks: int | None = None) -> Fraction:
    """Variance of the player's net result X of a bet on ``spot`` per euro staked, squared
    (E[X²] - E[X]², E[X] = -edge), exact over the same deals as :func:`spot_edge`: punto wins
    ``payouts.punto`` or loses 1, banca wins its payout less the deduction where owed or loses 1,
    both push on a tie (X = 0); tie wins ``payouts.tie`` or loses 1. Banca 1:1 less 5% on 6 decks:
    σ ≈ 0.93. Raises ``RuleError`` as :func:`spot_edge`."""
    rules = parse_rules(ruleset)
    mean = -spot_edge(ruleset, spot, decks)
    k = counts(ruleset, decks)
    ratio = {s: Fraction(r) for s, r in rules.payouts.items()}
    if spot == "tie":
        square = k.p(k.tie) * ratio["tie"] ** 2 + 1 - k.p(k.tie)
    elif spot == "punto":
        square = k.p(k.punto) * ratio["punto"] ** 2 + k.p(sum(k.banca))
    else:
        rate = Fraction(rules.deduction_rate)
        square = k.p(k.punto) + sum(
            (k.p(n) * (ratio["banca"] * ((1 - rate) if _deducted(rules, t) else 1)) ** 2 for t, n in enumerate(k.banca)),
            Fraction(0))
    return square - mean * mean


def edge_table(ruleset: Ruleset, decks: int | None = None) -> list[EdgeLine]:
    """One :class:`EdgeLine` per spot of the ruleset (punto, banca, tie), in the ruleset's order."""
    rules = parse_rules(ruleset)
    n, assumed = shoe_decks(ruleset, decks)
    k = counts(ruleset, decks)
    shoe = f"{n}-deck shoe" + (" (decks not in the ruleset: assumed)" if assumed else "")
    base = ("card_values", "winner", "natural", "punto_rule", "banca_tableau", "cards")
    frac = {"punto": k.p(k.punto), "banca": k.p(sum(k.banca)), "tie": k.p(k.tie)}
    out = []
    for spot in rules.spots:
        ratio = rules.payouts[spot]
        if spot == "tie":
            payout = ratio_text(ratio)
            how = f"P(tie) = {quantize(frac['tie'], 6)} pays {payout}"
            cites: tuple[str, ...] = (*base, "tie_pays")
        elif spot == "punto":
            payout = ratio_text(ratio)
            how = f"P(punto) = {quantize(frac['punto'], 6)} wins {payout}, P(banca) loses, tie pushes"
            cites = (*base, "punto_pays", "tie_push")
        else:
            on = (" on a banca " + ", ".join(map(str, sorted(rules.deduction_totals)))) if rules.deduction_totals else ""
            payout = ratio_text(ratio) + (f" less {percent_text(rules.deduction_rate)} of winnings{on}"
                                          if rules.deduction_rate else "")
            how = f"P(banca) = {quantize(frac['banca'], 6)} wins {payout}, P(punto) loses, tie pushes"
            cites = (*base, "banca_pays", "banca_deduction", "tie_push")
        out.append(EdgeLine(spot, "", spot, spot_edge(ruleset, spot, decks), payout,
                            f"every deal of a {shoe}, exact; {how}", cites))
    return out



CALCULATION = EdgeCalculation(
    table=lambda r, o, d: edge_table(r, d),
    edge=lambda r, s, o, d: spot_edge(r, s, d),
    variance=lambda r, s, o, d: spot_variance(r, s, d),
)
"""This calculation in the shape every game's has (:class:`pitwatch.rules.spec.EdgeCalculation`)."""

__all__ = ["ASSUMED_DECKS", "PER_DECK", "Counts", "counts", "edge_table", "enumerate_shoe", "shoe_decks", "spot_edge",
           "spot_variance"]
