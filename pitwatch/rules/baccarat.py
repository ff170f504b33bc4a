"""Punto y banca (punto banco): the house-banked baccarat of Galicia, Asturias and Andalucía.

Canonical encodings (validated here):

- Bet spots (``bet_placed.spot``): ``"punto"`` (the player hand), ``"banca"`` (the bank hand),
  ``"tie"`` (empate / igualdad). The texts allow no other bet (no pairs): anything else is an
  ``invalid_bet`` and settles as void (stake returned).
- Hands (``card_dealt.hand``): ``"punto"`` and ``"banca"``, in the dealing order the texts
  prescribe: 1st and 3rd card to punto, 2nd and 4th to banca, then punto's third card if it
  draws, then banca's third card if the tableau says so.

The law is data: naturals, the punto rule, the banca third-card tableau (exactly as printed),
payouts, the house deduction and the limits live in ``rules/rulesets/punto_banca.<jurisdiction>.toml``
(Galicia 000 L427-522, Asturias 001 L67-188, Andalucía 004 L1517-1755 + L1842-1888). This module
only interprets them. Money is ``Decimal`` euros; derived amounts (the deduction) are rounded with
``ctx.ruleset.round``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Sequence

from mypy_extensions import mypyc_attr

from pitwatch.rules.base import (
    Bet,
    ExpectedSettlement,
    RuleError,
    Ruleset,
    Violation,
    ViolationKind,
    limit_violations,
)
from pitwatch.rules.game import GameRound, TableContext
from pitwatch.rules.models import PuntoBancaRuleset
from pitwatch.rules.spec import GameSpec, Gap
from pitwatch.schemas.cards import baccarat_value
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import CardDealt, CardsBurned, LimitsChanged, ShoeCut, ShoeLoaded, TableOpened
from pitwatch.schemas.money import ZERO

HANDS = ("punto", "banca")
STOOD = "P"
"""Tableau column key for "punto took no third card" (the printed column «P»)."""


# --------------------------------------------------------------------------- the law as data


@dataclass(frozen=True)
class PuntoBancaRules:
    """The punto y banca sections of one ruleset, in the shape the deal and settlement read
    (built from the validated :class:`~pitwatch.rules.models.PuntoBancaRuleset` by :func:`parse_rules`).

    ``tableau[(banca_total, column)]`` is True when the banca must draw; ``column`` is punto's
    third-card value ``"0"``..``"9"`` or ``"P"`` (punto stood). Ratios are net winnings per euro.
    ``decks`` is ``None`` where the sources do not give the number of decks (Asturias): not checked.
    """

    ruleset_id: str
    spots: tuple[str, ...]
    payouts: dict[str, Decimal]
    deduction_rate: Decimal
    deduction_totals: frozenset[int]
    tie_max_fraction: Decimal
    ratio_min: Decimal
    ratio_max: Decimal
    ratios: tuple[Decimal, ...]
    stake_unit_rule: str
    decks: int | None
    cut_cards_behind: int
    burn_min: int
    burn_max: int
    initial_order: tuple[str, ...]
    naturals: frozenset[int]
    punto_draws: frozenset[int]
    punto_stands: frozenset[int]
    tableau: dict[tuple[int, str], bool]

    def banca_draws(self, banca_total: int, punto_third: int | None) -> bool:
        """Whether the banca must draw a third card with two-card total ``banca_total`` (0-7)
        when punto's third card has value ``punto_third`` (0-9) or punto stood (``None``).

        Source: the ruleset's ``[tableau]`` (e.g. 000 L489-504). Raises ``RuleError`` for a total
        that has no row (8 and 9 are naturals: the coup is over).
        """
        col = STOOD if punto_third is None else str(punto_third)
        try:
            return self.tableau[(banca_total, col)]
        except KeyError:
            raise RuleError(f"tableau of {self.ruleset_id} has no cell ({banca_total}, {col})") from None


_PARSED: dict[tuple[str, str], PuntoBancaRules] = {}


def rules_of(ruleset: Ruleset) -> PuntoBancaRules:
    """The :class:`PuntoBancaRules` of a punto y banca ruleset (cached per ruleset version:
    id and content hash).

    Raises ``RuleError`` if ``ruleset`` is not a punto y banca ruleset.
    """
    key = (ruleset.id, ruleset.content_hash)
    rules = _PARSED.get(key)
    if rules is None:
        rules = _PARSED[key] = parse_rules(ruleset)
    return rules


def parse_rules(ruleset: Ruleset) -> PuntoBancaRules:
    """Build the :class:`PuntoBancaRules` of ``ruleset`` from its validated model
    (:class:`~pitwatch.rules.models.PuntoBancaRuleset`; see the ruleset files for the meaning of
    each key). The tableau cells are the printed T/P (case-insensitive: the Asturias OCR prints «p»),
    checked when the ruleset was loaded.

    Raises ``RuleError`` if ``ruleset`` is not a punto y banca ruleset.
    """
    m = ruleset.model_as(PuntoBancaRuleset)
    deal, lim, ded = m.deal, m.limits, m.deduction
    return PuntoBancaRules(
        ruleset_id=ruleset.id,
        spots=tuple(m.spots),
        payouts={"punto": m.payouts.punto, "banca": m.payouts.banca, "tie": m.payouts.tie},
        deduction_rate=ded.rate,
        deduction_totals=frozenset(ded.banca_totals),
        tie_max_fraction=lim.tie_max_fraction,
        ratio_min=lim.table_max_ratio_min,
        ratio_max=lim.table_max_ratio_max,
        ratios=tuple(lim.table_max_ratios),
        stake_unit_rule=lim.stake_unit_rule,
        decks=deal.decks,
        cut_cards_behind=deal.cut_cards_behind,
        burn_min=deal.burn_count_min,
        burn_max=deal.burn_count_max,
        initial_order=tuple(deal.initial_order),
        naturals=frozenset(deal.naturals),
        punto_draws=frozenset(deal.punto_draws),
        punto_stands=frozenset(deal.punto_stands),
        tableau=m.tableau.draws(),
    )


# --------------------------------------------------------------------------- hands and the deal


def hand_total(cards: Sequence[str]) -> int:
    """Punto y banca total of ``cards`` (card codes): sum of values, tens dropped (0-9).

    Values: ten and court cards 0, ace 1, others their pip value (000 L475; 001 L73-77; 004 L1714-1721).
    """
    return sum(baccarat_value(c) for c in cards) % 10


@dataclass(frozen=True)
class NextCard:
    """What the rules require next in a coup: ``hand`` to receive the next card (``None``: the coup
    is complete, no further card), the ruleset citation key that requires it, and why."""

    hand: str | None
    rule: str
    reason: str


def next_card(rules: PuntoBancaRules, dealt: Sequence[tuple[str, str]]) -> NextCard:
    """The hand that must receive the next card after the legal prefix ``dealt`` ((hand, card) pairs).

    Order: the ruleset's ``initial_order`` for the first four cards; then naturals end the coup;
    punto draws on its ``punto_draws`` totals; banca follows the tableau with punto's third card
    (or column «P» if punto stood). ``dealt`` must itself be legal (callers stop at the first deviation).
    """
    n = len(dealt)
    if n < len(rules.initial_order):
        return NextCard(rules.initial_order[n], "deal_order", f"card {n + 1} of the deal goes to {rules.initial_order[n]}")
    punto = [c for h, c in dealt if h == "punto"]
    banca = [c for h, c in dealt if h == "banca"]
    p2, b2 = hand_total(punto[:2]), hand_total(banca[:2])
    if p2 in rules.naturals or b2 in rules.naturals:
        return NextCard(None, "natural", f"natural (punto {p2}, banca {b2}): the coup ends")
    if len(punto) == 2 and len(banca) == 2:
        if p2 in rules.punto_draws:
            return NextCard("punto", "punto_rule", f"punto has {p2}: must draw")
        if rules.banca_draws(b2, None):
            return NextCard("banca", "banca_tableau", f"punto stood on {p2}, banca has {b2}: must draw")
        return NextCard(None, "banca_tableau", f"punto stood on {p2}, banca has {b2}: must stand")
    if len(punto) == 3 and len(banca) == 2:
        third = baccarat_value(punto[2])
        if rules.banca_draws(b2, third):
            return NextCard("banca", "banca_tableau", f"banca has {b2}, punto's third card is {third}: must draw")
        return NextCard(None, "banca_tableau", f"banca has {b2}, punto's third card is {third}: must stand")
    return NextCard(None, "banca_tableau", "both hands are complete")


def legal_deal(rules: PuntoBancaRules, cards: Sequence[str]) -> list[tuple[str, str]]:
    """Deal ``cards`` (in shoe order) to the hands as the rules require; returns (hand, card) pairs.

    Raises ``RuleError`` if ``cards`` runs out before the coup is complete (at most 6 are used).
    """
    out: list[tuple[str, str]] = []
    it = iter(cards)
    while (nxt := next_card(rules, out)).hand is not None:
        try:
            out.append((nxt.hand, next(it)))
        except StopIteration:
            raise RuleError("not enough cards to complete the coup") from None
    return out


# --------------------------------------------------------------------------- the round


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (pitwatch.native), still subclassable
class PuntoBancaRound(GameRound):
    """One coup of punto y banca. See the module docstring for spots and hands.

    ``cards`` collects ``card_dealt`` events as (hand, card, event_id) in arrival order. The deal is
    judged at the end of the coup (:meth:`check`): the first card dealt contrary to the order, the
    punto rule, the naturals or the banca tableau, or a required card never dealt, is one
    ``dealer_misdraw`` violation. Bets are settled on the cards actually dealt.
    """

    game = "punto_banca"

    def __init__(self, ctx: TableContext, round_id: str, last_of_session: bool = False):
        super().__init__(ctx, round_id, last_of_session)
        self.rules = rules_of(ctx.ruleset)
        self.cards: list[tuple[str, str, str]] = []

    # -- bets --------------------------------------------------------------------------

    def limits_for(self, spot: str) -> tuple[Decimal, Decimal, str]:
        """(minimum, maximum, citation key) in euros for bets on ``spot``.

        punto/banca: the table limits (000 L469; 001 L174-178; 004 L1704-1711); tie: the table
        minimum up to ``tie_max_fraction`` x the table maximum (000 L477; 001 L80; 004 L1724-1726).
        """
        if spot == "tie":
            return self.ctx.min_bet, self.ctx.max_bet * self.rules.tie_max_fraction, "tie_limit"
        return self.ctx.min_bet, self.ctx.max_bet, "limits"

    def on_bet(self, bet: Bet) -> list[Violation]:
        """Validate the spot code and the stake (limits of its kind, optional stake unit)."""
        cite = self.ctx.ruleset.cite
        if bet.spot not in self.rules.spots:
            return [Violation(
                ViolationKind.INVALID_BET,
                f"bet {bet.bet_id}: unknown punto y banca spot {bet.spot!r} (expected one of "
                f"{', '.join(self.rules.spots)})", cite("bets"), (bet.event_id,), bet.bet_id,
                bet.player_id, bet.stake)]
        out: list[Violation] = []
        unit_opt = self.ctx.option("stake_unit").strip()
        if unit_opt:
            try:
                unit = Decimal(unit_opt)
            except InvalidOperation:
                raise RuleError(f"table option stake_unit={unit_opt!r} is not an amount") from None
            if unit > 0 and bet.stake % unit != 0:
                out.append(Violation(
                    ViolationKind.INVALID_BET,
                    f"bet {bet.bet_id} of {bet.stake} EUR is not a multiple of the stake unit {unit} EUR",
                    cite("stake_unit"), (bet.event_id,), bet.bet_id, bet.player_id, bet.stake))
        lo, hi, key = self.limits_for(bet.spot)
        out.extend(limit_violations(bet, lo, hi, cite(key)))
        return out

    # -- cards -------------------------------------------------------------------------

    def on_event(self, event: EventBase) -> list[Violation]:
        """A ``card_dealt`` (:meth:`card_dealt`); any other outcome event does not belong to this game:
        a ``procedure`` violation citing the deal order."""
        if type(event) is CardDealt:
            return self.card_dealt(event)
        return [Violation(
            ViolationKind.PROCEDURE, f"event {event.type} does not belong to punto y banca",
            self.ctx.ruleset.cite("deal_order"), (str(event.event_id),))]

    def card_dealt(self, event: CardDealt) -> list[Violation]:
        """Keep a card in the order dealt, as ``(hand, card, event id)``; the deal is judged at the end of
        the coup (:meth:`check`). Returns no violation."""
        self.cards.append((event.hand, event.card, str(event.event_id)))
        return []

    def _hands(self) -> tuple[list[str], list[str]]:
        punto = [c for h, c, _ in self.cards if h == "punto"]
        banca = [c for h, c, _ in self.cards if h == "banca"]
        return punto, banca

    def result(self) -> tuple[int, int] | None:
        """(punto total, banca total) of the cards dealt, or ``None`` if a hand has under two cards."""
        punto, banca = self._hands()
        if len(punto) < 2 or len(banca) < 2:
            return None
        return hand_total(punto), hand_total(banca)

    def check(self) -> list[Violation]:
        """``dealer_misdraw`` for the first card dealt contrary to the rules (wrong hand or order, a
        draw after a natural, contrary to the punto rule or the tableau) or a required card missing."""
        cite = self.ctx.ruleset.cite
        legal: list[tuple[str, str]] = []
        for i, (hand, card, eid) in enumerate(self.cards):
            nxt = next_card(self.rules, legal)
            if hand != nxt.hand:
                want = f"to {nxt.hand}" if nxt.hand else "no further card"
                rule = nxt.rule
                if hand == "punto" and i == len(self.rules.initial_order) and rule == "banca_tableau":
                    rule = "punto_rule"  # punto drew on a standing total: the punto rule was broken
                return [Violation(
                    ViolationKind.DEALER_MISDRAW,
                    f"card {i + 1} ({card}) dealt to {hand!r}; the rules required {want} ({nxt.reason})",
                    cite(rule), (eid,))]
            legal.append((hand, card))
        nxt = next_card(self.rules, legal)
        if nxt.hand is not None:
            last = (self.cards[-1][2],) if self.cards else ()
            return [Violation(
                ViolationKind.DEALER_MISDRAW,
                f"coup ended after {len(legal)} cards; the rules required a card to {nxt.hand} ({nxt.reason})",
                cite(nxt.rule), last)]
        return []

    # -- settlement --------------------------------------------------------------------

    def settle(self) -> list[ExpectedSettlement]:
        """One settlement per bet on the cards dealt (see the ruleset for every ratio).

        punto/banca: win -> stake x (1 + ratio); banca wins also owe the deduction
        (``commission`` = ruleset.round(rate x winnings), only on the totals listed if any); a tie
        returns the stake (push). tie: stake x (1 + 8) on a tie, else 0. Unknown spots and coups
        whose hands are incomplete settle as void (stake returned).
        """
        res = self.result()
        return [self._settle(bet, res) for bet in self.bets.values()]

    def _settle(self, bet: Bet, res: tuple[int, int] | None) -> ExpectedSettlement:
        cite = self.ctx.ruleset.cite
        rules = self.rules
        s = bet.stake

        def es(outcome: str, returned: Decimal, key: str, detail: str,
               commission: Decimal = ZERO) -> ExpectedSettlement:
            return ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, s, outcome, returned,
                                      commission, cite(key), detail)

        if bet.spot not in rules.spots:
            return es("void", s, "bets", f"unknown spot {bet.spot!r}: stake returned")
        if res is None:
            return es("void", s, "void_round", "coup not completely dealt: stake returned")
        p, b = res
        score = f"punto {p}, banca {b}"
        if bet.spot == "tie":
            if p == b:
                return es("win", s * (1 + rules.payouts["tie"]), "tie_pays",
                          f"{score}: tie pays {rules.payouts['tie']} to 1")
            return es("lose", ZERO, "tie_pays", f"{score}: no tie")
        if p == b:
            return es("push", s, "tie_push", f"{score}: tie, {bet.spot} stake returned")
        winner = "punto" if p > b else "banca"
        if bet.spot != winner:
            return es("lose", ZERO, "winner", f"{score}: {winner} wins")
        winnings = s * rules.payouts[bet.spot]
        if bet.spot == "banca" and rules.deduction_rate and (
                not rules.deduction_totals or b in rules.deduction_totals):
            commission = self.ctx.ruleset.round(winnings * rules.deduction_rate)
            return es("win", s + winnings, "banca_deduction",
                      f"{score}: banca wins, deduction {rules.deduction_rate * 100:g}% of {winnings} "
                      f"= {commission}", commission)
        return es("win", s + winnings, f"{bet.spot}_pays", f"{score}: {winner} wins, paid at par")

    def outcome(self) -> str:
        """E.g. ``"punto 7 (KH 7S) - banca 6 (3D 3C): punto"``."""
        punto, banca = self._hands()
        res = self.result()
        if res is None:
            return f"incomplete deal: punto {' '.join(punto) or '-'}, banca {' '.join(banca) or '-'}"
        p, b = res
        who = "tie" if p == b else ("punto" if p > b else "banca")
        return f"punto {p} ({' '.join(punto)}) - banca {b} ({' '.join(banca)}): {who}"

    # -- table events ------------------------------------------------------------------

    @staticmethod
    def on_table_event(ctx: TableContext, event: EventBase) -> list[Violation]:
        """Table-level checks: table maximum/minimum ratio (table_opened, limits_changed), decks in
        the shoe (shoe_loaded), cards under the cut card (shoe_cut), burn count (cards_burned),
        stake unit allowed. Each a ``procedure`` violation citing the ruleset; any other table
        event: none."""
        if type(event) is TableOpened:
            return PuntoBancaRound.table_opened(ctx, event)
        if type(event) is LimitsChanged:
            return PuntoBancaRound.limits_changed(ctx, event)
        if type(event) is ShoeLoaded:
            return PuntoBancaRound.shoe_loaded(ctx, event)
        if type(event) is ShoeCut:
            return PuntoBancaRound.shoe_cut(ctx, event)
        if type(event) is CardsBurned:
            return PuntoBancaRound.cards_burned(ctx, event)
        return []

    @staticmethod
    def table_opened(ctx: TableContext, event: TableOpened) -> list[Violation]:
        """The limits the table opens with (:meth:`limit_ratio`), then the table option ``stake_unit``:
        the table minimum, or a fraction of it where the ruleset allows (``stake_unit_rule``)."""
        eid = (str(event.event_id),)
        lo = event.min_bet
        out = PuntoBancaRound.limit_ratio(ctx, lo, event.max_bet, eid)
        if lo <= 0:
            return out
        rules = rules_of(ctx.ruleset)
        unit_opt = ctx.option("stake_unit").strip()
        if unit_opt:
            try:
                unit = Decimal(unit_opt)
            except InvalidOperation:
                unit = Decimal(0)
            fraction_ok = unit > 0 and (lo / unit) == (lo / unit).to_integral_value()
            good = unit == lo or (rules.stake_unit_rule == "minimum_or_fraction" and fraction_ok)
            if not good:
                out.append(Violation(
                    ViolationKind.PROCEDURE,
                    f"stake unit {unit_opt} EUR is not allowed with a {lo} EUR minimum "
                    f"({rules.stake_unit_rule.replace('_', ' ')})", ctx.ruleset.cite("stake_unit"), eid))
        return out

    @staticmethod
    def limits_changed(ctx: TableContext, event: LimitsChanged) -> list[Violation]:
        """The new limits (:meth:`limit_ratio`)."""
        return PuntoBancaRound.limit_ratio(ctx, event.min_bet, event.max_bet, (str(event.event_id),))

    @staticmethod
    def limit_ratio(ctx: TableContext, lo: Decimal, hi: Decimal, eid: tuple[str, ...]) -> list[Violation]:
        """A table minimum ``lo`` (euros) that is not positive, or a maximum ``hi`` whose ratio to it is not
        one the ruleset allows (``ratios``, or ``ratio_min`` to ``ratio_max``): a ``procedure`` violation
        citing ``eid`` (the event's id)."""
        rules = rules_of(ctx.ruleset)
        out: list[Violation] = []
        if lo <= 0:
            out.append(Violation(ViolationKind.PROCEDURE, "table minimum must be positive",
                                 ctx.ruleset.cite("limits"), eid))
            return out
        ratio = hi / lo
        ok = ratio in rules.ratios if rules.ratios else rules.ratio_min <= ratio <= rules.ratio_max
        if not ok:
            allowed = (", ".join(f"{r:g}" for r in rules.ratios) if rules.ratios
                       else f"{rules.ratio_min:g} to {rules.ratio_max:g}")
            out.append(Violation(
                ViolationKind.PROCEDURE,
                f"table maximum {hi} EUR is {ratio.normalize():f} x the minimum {lo} EUR; "
                f"allowed: {allowed} x", ctx.ruleset.cite("table_max"), eid))
        return out

    @staticmethod
    def shoe_loaded(ctx: TableContext, event: ShoeLoaded) -> list[Violation]:
        """A shoe of other than the ruleset's ``decks`` (when it sets them)."""
        rules = rules_of(ctx.ruleset)
        if rules.decks is not None and event.decks != rules.decks:
            return [Violation(ViolationKind.PROCEDURE,
                              f"shoe {event.shoe_id} loaded with {event.decks} decks; the rules require {rules.decks}",
                              ctx.ruleset.cite("cards"), (str(event.event_id),))]
        return []

    @staticmethod
    def shoe_cut(ctx: TableContext, event: ShoeCut) -> list[Violation]:
        """The cut card placed with other than the ruleset's ``cut_cards_behind`` cards below it."""
        rules = rules_of(ctx.ruleset)
        if event.cards_behind != rules.cut_cards_behind:
            return [Violation(ViolationKind.PROCEDURE,
                              f"cut card placed with {event.cards_behind} cards below it; the rules require "
                              f"{rules.cut_cards_behind}", ctx.ruleset.cite("cut_card"), (str(event.event_id),))]
        return []

    @staticmethod
    def cards_burned(ctx: TableContext, event: CardsBurned) -> list[Violation]:
        """A burn of fewer than ``burn_min`` or more than ``burn_max`` cards."""
        rules = rules_of(ctx.ruleset)
        if not rules.burn_min <= event.count <= rules.burn_max:
            return [Violation(ViolationKind.PROCEDURE,
                              f"{event.count} cards burned; the first card's value (1-10) plus the card "
                              f"itself allows {rules.burn_min} to {rules.burn_max}", ctx.ruleset.cite("burn"),
                              (str(event.event_id),))]
        return []


SHOE_ROTATION = "who deals and who holds the cards: the shoe's rotation, the punto hand to the largest punto stake, " \
                "the shoe passing when the banca loses (the events do not say who holds the shoe)"
"""The part of every punto y banca section the engine does not judge (:attr:`SPEC`'s ``not_checked``):
the events do not say who holds the shoe."""

SPEC = GameSpec(
    game="punto_banca", round=PuntoBancaRound, model=PuntoBancaRuleset, title="Punto y banca",
    names=("Punto y banca", "Punto banco"), simulator="pitwatch.sim.baccarat",
    edges="pitwatch.rules.edges.baccarat", baccarat_hands=True,
    cited_by={
        "spots": ("bets",),
        "payouts.punto": ("punto_pays",),
        "payouts.banca": ("banca_pays",),
        "payouts.tie": ("tie_pays",),
        "deduction": ("banca_deduction",),
        "limits.tie_max_fraction": ("tie_limit",),
        "limits.table_max_ratio_min": ("table_max",),
        "limits.table_max_ratio_max": ("table_max",),
        "limits.table_max_ratios": ("table_max",),
        "limits.stake_unit_rule": ("stake_unit",),
        "deal.decks": ("cards",),
        "deal.cut_cards_behind": ("cut_card",),
        "deal.burn_count_min": ("burn",),
        "deal.burn_count_max": ("burn",),
        "deal.initial_order": ("deal_order",),
        "deal.naturals": ("natural",),
        "deal.punto_draws": ("punto_rule",),
        "deal.punto_stands": ("punto_rule",),
        "tableau": ("banca_tableau",),
        "options.stake_unit": ("stake_unit",),
    },
    not_checked={
        "galicia": (
            Gap(SHOE_ROTATION, "000 L463-L465"),
        ),
        "asturias": (
            Gap(SHOE_ROTATION + "; the shoe holder's compulsory stake on the banca", "001 L155-L164"),
            Gap("E) mini punto y banca: its table (seven seats, blackjack-sized) is no event; its coups, whose rules "
                "are those of punto y banca, are judged as punto y banca", "001 L180-L188"),
        ),
        "andalucia": (
            Gap(SHOE_ROTATION, "004 L1674-L1689"),
            Gap("mini and midi punto y banca: the table kind is no event (nor that the croupier deals and the players "
                "may not touch the cards); their coups are judged as punto y banca", "004 L1595-L1604, L1691-L1694"),
        ),
    },
)
"""The game's spec (:mod:`pitwatch.rules.registry`): its round, ruleset model, edges, labels, simulator,
and the ruleset keys' citations for the generated docs."""
