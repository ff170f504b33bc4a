"""One coup of a player-banked baccarat: the rules of the ruleset in the shape the deal reads, the
judgement of the cards dealt (order, naturals, the punto rule, the banker's draw) and the result.

Card values and hand totals are punto y banca's (:func:`pitwatch.rules.baccarat.hand_total`): the texts
give both games the same values (000 L612; 004 L2119-L2125). The deal is judged on the cards as dealt,
in order; each fault names the rule (a citation key of the ruleset) and the hand whose act broke it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Callable, Protocol, Sequence, TypeVar

from pitwatch.rules.baccarat import STOOD, hand_total
from pitwatch.rules.base import Ruleset, ViolationKind
from pitwatch.rules.models.chemin_de_fer import CheminDeFerRuleset
from pitwatch.schemas.cards import baccarat_value

BANK_HAND = "banca"
PUNTO_HAND = "punto"


@dataclass(frozen=True)
class CoupRules:
    """The rules of a coup and of the bank, from a validated
    :class:`~pitwatch.rules.models.chemin_de_fer.CheminDeFerRuleset` (:func:`rules_of`).

    ``tableau[(bank total, column)]`` is the printed letter (``T``, ``P``, ``O``, ``-``; column the punto's
    third card ``"0"``..``"9"`` or ``"P"`` when he stood), ``None`` where the ruleset prints no tableau.
    Money ratios are ``Decimal``."""

    ruleset_id: str
    spots: tuple[str, ...]
    payout: Decimal
    cagnotte_rate: Decimal
    bank_max_multiple: int
    garage_min_multiple: int
    con_la_mesa_fraction: Decimal
    decks: int
    cut_cards_behind: int
    initial_order: tuple[str, ...]
    naturals: frozenset[int]
    punto_draws: frozenset[int]
    punto_options: frozenset[int]
    punto_stands: frozenset[int]
    banca_draws: frozenset[int]
    tableau: dict[tuple[int, str], str] | None

    def cell(self, bank_total: int, punto_third: int | None) -> str:
        """The tableau's letter for the bank's two-card total and the punto's third card (``None``: he
        stood); ``""`` where the ruleset has no tableau or no such row."""
        return tableau_cell(self.tableau, bank_total, punto_third)


def tableau_cell(tableau: dict[tuple[int, str], str] | None, bank_total: int, punto_third: int | None) -> str:
    """The letter of ``tableau`` (``(bank total, column) -> letter``) for the bank's two-card total and
    the punto's third card (``None``: he stood); ``""`` without a tableau or such a row."""
    if tableau is None:
        return ""
    return tableau.get((bank_total, STOOD if punto_third is None else str(punto_third)), "")


_PARSED: dict[tuple[str, str], CoupRules] = {}
R = TypeVar("R")


def per_version(cache: dict[tuple[str, str], R], ruleset: Ruleset, build: Callable[[Ruleset], R]) -> R:
    """``build(ruleset)``, kept in ``cache`` per ruleset version (id, content hash) and built once."""
    key = (ruleset.id, ruleset.content_hash)
    value = cache.get(key)
    if value is None:
        value = cache[key] = build(ruleset)
    return value


def rules_of(ruleset: Ruleset) -> CoupRules:
    """The :class:`CoupRules` of a chemin de fer ruleset, cached per version (id, content hash).
    Raises ``RuleError`` for a ruleset of another game."""
    return per_version(_PARSED, ruleset, _coup_rules)


def _coup_rules(ruleset: Ruleset) -> CoupRules:
    m = ruleset.model_as(CheminDeFerRuleset)
    d = m.deal
    return CoupRules(
        ruleset_id=ruleset.id, spots=tuple(m.spots), payout=m.payouts.stake, cagnotte_rate=m.cagnotte.rate,
        bank_max_multiple=m.bank.max_multiple, garage_min_multiple=m.bank.garage_min_multiple,
        con_la_mesa_fraction=m.bank.con_la_mesa_fraction, decks=d.decks, cut_cards_behind=d.cut_cards_behind,
        initial_order=tuple(d.initial_order), naturals=frozenset(d.naturals),
        punto_draws=frozenset(d.punto_draws), punto_options=frozenset(d.punto_options),
        punto_stands=frozenset(d.punto_stands), banca_draws=frozenset(d.banca_draws),
        tableau=None if m.tableau is None else m.tableau.cells())


@dataclass(frozen=True)
class Fault:
    """A card dealt (or not dealt) against the rules: ``kind`` a violation kind, ``rule`` the citation
    key, ``hand`` whose act it was (``punto``: the player holding the cards; ``banca``: the banker, who
    also deals), ``event_id`` the evidence."""

    kind: str
    rule: str
    message: str
    event_id: str
    hand: str


def totals(cards: Sequence[tuple[str, str, str]]) -> tuple[int, int] | None:
    """(punto total, bank total) of ``cards`` ((hand, card, event id) in order), or ``None`` while a
    hand has fewer than two cards."""
    punto = [c for h, c, _ in cards if h == PUNTO_HAND]
    bank = [c for h, c, _ in cards if h == BANK_HAND]
    if len(punto) < 2 or len(bank) < 2:
        return None
    return hand_total(punto), hand_total(bank)


def judge_coup(rules: CoupRules, cards: Sequence[tuple[str, str, str]], *, tableau_bound: bool, punto_free: bool,
               said: dict[str, str] | None = None) -> list[Fault]:
    """The faults of the cards ``cards`` ((hand, card, event id) in the order dealt), at most one for the
    deal and one per decision:

    - the first four cards alternate, punto first (``coup_deal``: a ``dealer_misdraw``);
    - after a two-card 8 or 9 no card is dealt (``naturals``: an ``illegal_decision``);
    - the punto draws on ``punto_draws``, stands on ``punto_stands``, chooses on ``punto_options``
      (``punto_rule``), unless ``punto_free`` (a banco allowed to play freely);
    - the banker draws on ``banca_draws`` whatever else (``banker_rule``) and, when ``tableau_bound`` (he
      asked for it), as the tableau says where it prints «T» or «P» (``banca_tableau``); «O» and blank
      cells are free;
    - no card after both hands are complete (``coup_deal``).

    ``said`` maps a hand to the event id of its draw decision, the evidence of a stand."""
    said = said or {}
    n0 = len(rules.initial_order)
    for i, (hand, card, eid) in enumerate(cards[:n0]):
        if hand != rules.initial_order[i]:
            return [Fault(ViolationKind.DEALER_MISDRAW, "coup_deal", f"card {i + 1} ({card}) dealt to {hand}: the "
                          f"deal alternates, card {i + 1} goes to {rules.initial_order[i]}", eid, BANK_HAND)]
    if len(cards) < n0:
        if not cards:
            return []
        return [Fault(ViolationKind.DEALER_MISDRAW, "coup_deal", f"the coup ended after {len(cards)} cards: each hand "
                      "receives two", cards[-1][2], BANK_HAND)]
    res = totals(cards[:n0])
    assert res is not None
    p2, b2 = res
    rest = list(cards[n0:])
    last = cards[-1][2]
    if p2 in rules.naturals or b2 in rules.naturals:
        if rest:
            hand, card, eid = rest[0]
            return [Fault(ViolationKind.ILLEGAL_DECISION, "naturals", f"{card} dealt to {hand} after a natural (punto "
                          f"{p2}, banca {b2}): the hands are turned over and the coup is over", eid, hand)]
        return []
    out: list[Fault] = []
    k = 0
    third: int | None = None
    if rest and rest[0][0] == PUNTO_HAND:
        third, k = baccarat_value(rest[0][1]), 1
    fault = punto_fault(rules, p2, k == 1, punto_free, rest[0][2] if k else said.get(PUNTO_HAND, rest[0][2] if rest else last))
    if fault is not None:
        out.append(fault)
    drew = k < len(rest) and rest[k][0] == BANK_HAND
    evidence = rest[k][2] if drew else said.get(BANK_HAND, last)
    seen = "the punto " + ("stood" if third is None else f"drew a {third}")
    fault = banker_fault(rules, b2, drew, [rules.cell(b2, third)] if tableau_bound else [], seen, evidence)
    if fault is not None:
        out.append(fault)
    k += 1 if drew else 0
    if k < len(rest):
        hand, card, eid = rest[k]
        out.append(Fault(ViolationKind.DEALER_MISDRAW, "coup_deal", f"card {n0 + k + 1} ({card}) dealt to {hand}: "
                         "both hands were complete", eid, BANK_HAND))
    return out


class DrawRules(Protocol):
    """What :func:`punto_fault` and :func:`banker_fault` read of a game's rules (chemin de fer's
    :class:`CoupRules`, bacará a dos paños' ``PanosRules``): the totals of the punto rule and those the
    banker must draw on."""

    @property
    def punto_draws(self) -> frozenset[int]: ...
    @property
    def punto_options(self) -> frozenset[int]: ...
    @property
    def punto_stands(self) -> frozenset[int]: ...
    @property
    def banca_draws(self) -> frozenset[int]: ...


def punto_fault(rules: DrawRules, total: int, drew: bool, free: bool, evidence: str, hand: str = PUNTO_HAND,
                who: str = "the punto") -> Fault | None:
    """The ``punto_rule`` fault of ``who`` (holding ``hand``) who ``drew`` (or stood) on a two-card
    ``total``: a draw on ``punto_stands`` or a stand on ``punto_draws``; ``None`` when he was free
    (``free``, or ``punto_options``) or kept the rule. ``evidence``: the event id of his card or his
    word."""
    if free:
        return None
    if drew and total in rules.punto_stands:
        return Fault(ViolationKind.ILLEGAL_DECISION, "punto_rule", f"{who} drew on {total}: he must stand on "
                     f"{_list(rules.punto_stands)}", evidence, hand)
    if not drew and total in rules.punto_draws:
        return Fault(ViolationKind.ILLEGAL_DECISION, "punto_rule", f"{who} stood on {total}: he must draw on "
                     f"{_list(rules.punto_draws)}", evidence, hand)
    return None


def banker_fault(rules: DrawRules, total: int, drew: bool, cells: Sequence[str], seen: str,
                 evidence: str) -> Fault | None:
    """The fault of a banker who ``drew`` (or stood) on a two-card ``total``: a stand on ``banca_draws``
    («bacará», ``banker_rule``); else, ``cells`` being the tableau's letters for each hand he plays
    against (empty when he did not ask for the tableau), a draw or a stand against them where they all
    say the same «T» or «P» (``banca_tableau``); «O», blank cells and cells that differ leave him free.
    ``seen`` says what the other hands did (``"the punto stood"``)."""
    if total in rules.banca_draws and not drew:
        return Fault(ViolationKind.ILLEGAL_DECISION, "banker_rule", f"the banker stood on {total} (bacará): he must "
                     "draw", evidence, BANK_HAND)
    if len(set(cells)) != 1:
        return None
    cell = cells[0]
    if (cell == "T" and not drew) or (cell == "P" and drew):
        did, must = ("drew", "stand") if drew else ("stood", "draw")
        both = " for both paños" if len(cells) > 1 else ""
        return Fault(ViolationKind.ILLEGAL_DECISION, "banca_tableau", f"the banker {did} on {total} when {seen}; he "
                     f"asked for the tableau, which says {must}{both} («{cell}»)", evidence, BANK_HAND)
    return None


def _list(totals_: frozenset[int]) -> str:
    return ", ".join(str(t) for t in sorted(totals_))


__all__ = ["BANK_HAND", "PUNTO_HAND", "CoupRules", "DrawRules", "Fault", "banker_fault", "judge_coup", "per_version",
           "punto_fault", "rules_of", "tableau_cell", "totals"]
