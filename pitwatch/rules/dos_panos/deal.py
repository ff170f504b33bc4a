"""The cards of a coup of bacará a dos paños: the rules of the ruleset in the shape the deal reads, the
judgement of the cards dealt and the result on each paño.

The bank's one hand plays against the hand of each paño (000 L805; 004 L2654-L2656). Cards are dealt one
at a time, first paño, second paño, bank (000 L827; 004 L2725-L2727); a paño or the bank with a
two-card 8 or 9 turns it over (000 L807; 004 L2658-L2662; read «8 ó 9» in Andalucía); the holders of the
paños speak in order, before the banker (000 L827; 004 L2735-L2739), so third cards come in the same
order. The punto rule and the banker's draw are chemin de fer's
(:func:`~pitwatch.rules.chemin_de_fer.coup.punto_fault`, :func:`~pitwatch.rules.chemin_de_fer.coup.banker_fault`).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Sequence

from pitwatch.rules.baccarat import hand_total
from pitwatch.rules.base import Ruleset, ViolationKind
from pitwatch.rules.chemin_de_fer.coup import BANK_HAND, Fault, banker_fault, per_version, punto_fault, tableau_cell
from pitwatch.rules.chemin_de_fer.stakes import winner
from pitwatch.rules.models.bacara_dos_panos import DosPanosRuleset
from pitwatch.schemas.cards import baccarat_value
from pitwatch.schemas.dos_panos import PANOS

NAMES = {"pano1": "the first paño", "pano2": "the second paño", BANK_HAND: "the bank"}
"""A hand id -> its name in messages."""


@dataclass(frozen=True)
class PanosRules:
    """The rules of a coup and of the bank, from a validated
    :class:`~pitwatch.rules.models.bacara_dos_panos.DosPanosRuleset` (:func:`rules_of`). Money ratios are
    ``Decimal``; ``rates`` maps the bank's modality (``limitada``, ``libre``) to the cagnotte's rate;
    ``tableau`` as chemin de fer's ``CoupRules.tableau``."""

    ruleset_id: str
    spots: tuple[str, ...]
    payout: Decimal
    rates: dict[str, Decimal]
    raya_fraction: Decimal
    banco_repeats: int
    decks: int
    cut_cards_behind: int
    cut_exact: bool
    initial_order: tuple[str, ...]
    naturals: frozenset[int]
    natural_beats_drawn: frozenset[int]
    punto_draws: frozenset[int]
    punto_options: frozenset[int]
    punto_stands: frozenset[int]
    banca_draws: frozenset[int]
    tableau: dict[tuple[int, str], str] | None


_PARSED: dict[tuple[str, str], PanosRules] = {}


def rules_of(ruleset: Ruleset) -> PanosRules:
    """The :class:`PanosRules` of a bacará a dos paños ruleset, cached per version (id, content hash).
    Raises ``RuleError`` for a ruleset of another game."""
    return per_version(_PARSED, ruleset, _panos_rules)


def _panos_rules(ruleset: Ruleset) -> PanosRules:
    m = ruleset.model_as(DosPanosRuleset)
    d = m.deal
    return PanosRules(
        ruleset_id=ruleset.id, spots=tuple(m.spots), payout=m.payouts.stake,
        rates={"limitada": m.cagnotte.limitada, "libre": m.cagnotte.libre},
        raya_fraction=m.stakes.raya_fraction, banco_repeats=m.stakes.banco_repeats, decks=d.decks,
        cut_cards_behind=d.cut_cards_behind, cut_exact=d.cut_rule == "exact", initial_order=tuple(d.initial_order),
        naturals=frozenset(d.naturals), natural_beats_drawn=frozenset(d.natural_beats_drawn),
        punto_draws=frozenset(d.punto_draws), punto_options=frozenset(d.punto_options),
        punto_stands=frozenset(d.punto_stands), banca_draws=frozenset(d.banca_draws),
        tableau=None if m.tableau is None else m.tableau.cells())


def hands(cards: Sequence[tuple[str, str, str]], lost: frozenset[str] = frozenset()) -> dict[str, list[str]]:
    """hand id -> its cards in order, for the cards not of a hand in ``lost``."""
    out: dict[str, list[str]] = {}
    for hand, card, _ in cards:
        if hand not in lost:
            out.setdefault(hand, []).append(card)
    return out


def compare(rules: PanosRules, pano: Sequence[str], bank: Sequence[str]) -> str:
    """``punto`` (the paño wins), ``banca`` or ``tie`` for complete hands: the nearer to nine wins, except
    that a two-card total of ``natural_beats_drawn`` beats a three-card 8 or 9 (000 L811; 004 L2672-L2673)."""
    p, b = hand_total(list(pano)), hand_total(list(bank))
    if len(pano) == 2 and p in rules.natural_beats_drawn and len(bank) > 2 and b >= 8:
        return "punto"
    if len(bank) == 2 and b in rules.natural_beats_drawn and len(pano) > 2 and p >= 8:
        return "banca"
    return winner((p, b)) or "tie"


def results(rules: PanosRules, cards: Sequence[tuple[str, str, str]], lost: frozenset[str]) -> dict[str, str | None]:
    """paño -> ``punto``, ``banca``, ``tie``, or ``None`` when the coup is void for it: its cards or the
    bank's were lost (000 L853; 004 L2811-L2814), or it or the bank has fewer than two cards."""
    dealt = hands(cards, lost)
    bank = dealt.get(BANK_HAND, [])
    out: dict[str, str | None] = {}
    for p in PANOS:
        own = dealt.get(p, [])
        out[p] = compare(rules, own, bank) if p not in lost and len(own) >= 2 and len(bank) >= 2 else None
    return out


def judge_deal(rules: PanosRules, cards: Sequence[tuple[str, str, str]], *, lost: frozenset[str], tableau_bound: bool,
               free: frozenset[str], said: dict[str, str]) -> list[Fault]:
    """The faults of ``cards`` ((hand, card, event id) in the order dealt), leaving out the hands in
    ``lost`` (nothing is judged when the bank's cards were lost):

    - the first six cards go first paño, second paño, bank, twice (``coup_deal``: a ``dealer_misdraw``);
    - after the bank's two-card 8 or 9 no card is dealt, nor to a paño with one (``naturals``);
    - each paño still in play draws on ``punto_draws``, stands on ``punto_stands`` (``punto_rule``),
      unless it is in ``free`` (held by the player who made banco, 000 L807; 004 L2662-L2663); its third
      card comes before the next paño's and the bank's;
    - the banker draws on ``banca_draws`` (``banker_rule``) and, when ``tableau_bound``, as the tableau
      says where it says the same for every paño still in play (``banca_tableau``, 000 L809, L859;
      004 L2665-L2670, L2826-L2828);
    - no card after every hand is complete (``coup_deal``).

    ``said`` maps a hand to the event id of its draw decision, the evidence of a stand."""
    if BANK_HAND in lost:
        return []
    dealt = [c for c in cards if c[0] not in lost]
    order = [h for h in rules.initial_order if h not in lost]
    n0 = len(order)
    for i, (hand, card, eid) in enumerate(dealt[:n0]):
        if hand != order[i]:
            return [Fault(ViolationKind.DEALER_MISDRAW, "coup_deal", f"card {i + 1} ({card}) dealt to {NAMES[hand]}: the "
                          f"cards go first paño, second paño, bank; card {i + 1} goes to {NAMES[order[i]]}", eid,
                          BANK_HAND)]
    if len(dealt) < n0:
        if not dealt:
            return []
        return [Fault(ViolationKind.DEALER_MISDRAW, "coup_deal", f"the coup ended after {len(dealt)} cards: each paño "
                      "and the bank receive two", dealt[-1][2], BANK_HAND)]
    two = {h: hand_total(cs) for h, cs in hands(dealt[:n0]).items()}
    rest = dealt[n0:]
    last = dealt[-1][2]
    b2 = two[BANK_HAND]
    active = [p for p in PANOS if p in two and two[p] not in rules.naturals] if b2 not in rules.naturals else []
    if not active:
        if rest:
            hand, card, eid = rest[0]
            return [Fault(ViolationKind.ILLEGAL_DECISION, "naturals", f"{card} dealt to {NAMES[hand]} after the naturals "
                          f"({_scores(two)}): the hands are turned over and the coup is over", eid, hand)]
        return []
    out: list[Fault] = []
    k = 0
    thirds: dict[str, int] = {}
    for p in active:
        drew = k < len(rest) and rest[k][0] == p
        evidence = rest[k][2] if drew else said.get(p, rest[k][2] if k < len(rest) else last)
        if drew:
            thirds[p] = baccarat_value(rest[k][1])
            k += 1
        fault = punto_fault(rules, two[p], drew, p in free, evidence, p, f"the holder of {NAMES[p]}")
        if fault is not None:
            out.append(fault)
    drew = k < len(rest) and rest[k][0] == BANK_HAND
    evidence = rest[k][2] if drew else said.get(BANK_HAND, last)
    seen = " and ".join(f"{NAMES[p]} " + (f"drew a {thirds[p]}" if p in thirds else "stood") for p in active)
    cells = [tableau_cell(rules.tableau, b2, thirds.get(p)) for p in active] if tableau_bound else []
    fault = banker_fault(rules, b2, drew, cells, seen, evidence)
    if fault is not None:
        out.append(fault)
    k += 1 if drew else 0
    if k < len(rest):
        hand, card, eid = rest[k]
        out.append(Fault(ViolationKind.DEALER_MISDRAW, "coup_deal", f"{card} dealt to {NAMES[hand]}: every hand was "
                         "complete (third cards go first paño, second paño, bank)", eid, BANK_HAND))
    return out


def _scores(two: dict[str, int]) -> str:
    return ", ".join(f"{NAMES[h]} {t}" for h, t in sorted(two.items()))


__all__ = ["NAMES", "PanosRules", "compare", "hands", "judge_deal", "results", "rules_of"]
