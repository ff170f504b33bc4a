"""Blackjack («Veintiuno o black-jack»): European no-hole-card dealing, Galicia and Andalucía.

Sources: Galicia ``000_e1555249d49967be.txt`` L235-L329 («03. Veintiuno o black-jack»);
Andalucía ``004_5c9c19b250457762.txt`` L570-L901 (I.1.3 «Veintiuno o Black Jack»). Every
payout ratio, limit and rule switch lives in ``rulesets/blackjack.<jurisdiction>.toml``.

Canonical encodings (``docs/encodings.md`` repeats them):

- A main bet is ``bet_placed`` with ``spot = "main"`` and ``box = N`` (1..7, numbered in
  dealing order from the croupier's left). Up to three players may bet on one box; the
  first to bet on a box (the seated player) controls its decisions.
- Hands: ``"dealer"``; a box's first hand is ``"<box>"`` (``"3"``); every split of any hand
  of box 3 creates the next hand ``"3-2"``, ``"3-3"``... The split hand keeps its first card,
  the new hand takes the second.
- Cards: ``card_dealt`` (``hand``, ``card``). The dealer gets one card in the first deal and
  draws after every player has played (no hole card).
- Decisions: ``player_decision`` with ``decision`` hit/stand/double/split/surrender and
  ``hand``; ``insurance`` with ``bet_id`` (the main bet) and ``amount`` (euros).
- A double or split of a hand applies to every bet on its box: each bet adds a stake equal to
  its own stake on that hand. Andalucía's even money (004 L767-L772) is recorded as an
  insurance of half the stake on a blackjack box (same net result, +1x stake).

Settlement: one :class:`ExpectedSettlement` per main bet (``stake`` = everything the bet has at
risk over its hands and doubles, ``returned`` = total due back, ``detail`` lists the hands) and
one per insurance with ``bet_id = "<main bet_id>/insurance"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Iterable, Mapping, Sequence

from mypy_extensions import mypyc_attr

from pitwatch.rules.base import (
    REFUSED,
    Bet,
    ExpectedSettlement,
    Violation,
    ViolationKind,
    limit_violations,
)
from pitwatch.rules.game import Carry, GameRound, TableContext
from pitwatch.rules.models import BlackjackRuleset
from pitwatch.rules.spec import GameSpec, Gap
from pitwatch.schemas.cards import ALL_CARDS, blackjack_value
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import CardDealt, CardsBurned, PlayerDecision, ShoeCut, ShoeLoaded, TableOpened
from pitwatch.schemas.money import ZERO

MAIN_SPOT = "main"
DEALER = "dealer"
INSURANCE_SUFFIX = "/insurance"
_HAND_RE = re.compile(r"^([1-9][0-9]?)(?:-([2-9]|[1-9][0-9]))?$")


# --------------------------------------------------------------------------- pure helpers


def hand_total(cards: Sequence[str]) -> tuple[int, bool]:
    """Best blackjack total of ``cards`` (codes such as ``"AS"``) and whether it is soft.

    An ace counts 11 when that does not take the total over 21, else 1 (000 L245, L285;
    004 L586-L589, L721-L724). Returns ``(total, soft)``; ``soft`` is True when an ace is
    counted as 11.
    """
    low = 0
    ace = False
    for c in cards:
        low += _VALUE[c]
        if c[0] == "A":
            ace = True
    if ace and low <= 11:
        return low + 10, True
    return low, False


_VALUE = {c: blackjack_value(c) for c in ALL_CARDS}


def dealer_must_draw(cards: Sequence[str], stands_on: int = 17, hits_soft_17: bool = False) -> bool:
    """True if a dealer holding ``cards`` must take another card.

    Both texts: «Al llegar a 17 puntos deberá plantarse ... En caso contrario, deberá pedir
    otras cartas hasta que el total de su puntuación alcance 17 o más», an ace counting 11
    when that reaches 17-21 (000 L285; 004 L717-L724): the dealer stands on soft 17.
    ``hits_soft_17`` exists only for a ruleset that says otherwise.
    """
    total, soft = hand_total(cards)
    if total < stands_on:
        return True
    return hits_soft_17 and soft and total == stands_on


def dealer_draw_error(
    cards: Sequence[str], *, must_complete: bool, stands_on: int = 17, hits_soft_17: bool = False
) -> str | None:
    """Why the dealer's card sequence ``cards`` breaks the drawing rule, or ``None``.

    Every card after the first must have been drawn on a total that required drawing (a
    draw at 17 or more is an error). If ``must_complete`` (a contested hand is still in play)
    the final total must not require drawing (standing below 17 is an error).
    """
    for i in range(1, len(cards)):
        before = cards[:i]
        if not dealer_must_draw(before, stands_on, hits_soft_17):
            t, soft = hand_total(before)
            return f"dealer drew {cards[i]} on {'soft ' if soft else ''}{t}"
    if must_complete and dealer_must_draw(cards, stands_on, hits_soft_17):
        t, soft = hand_total(cards)
        return f"dealer stood on {'soft ' if soft else ''}{t} with {len(cards)} card(s)"
    return None


def parse_hand_id(hand: str) -> tuple[int, int] | None:
    """``"3"`` -> ``(3, 1)``, ``"3-2"`` -> ``(3, 2)``; ``None`` if malformed (or ``"dealer"``)."""
    m = _HAND_RE.match(hand)
    if not m:
        return None
    return int(m.group(1)), int(m.group(2) or 1)


def _money(x: Decimal) -> Decimal:
    return x.quantize(Decimal("0.01"))


@dataclass
class Hand:
    """One player hand: cards and the state decisions left on it."""

    hand_id: str
    box: int
    cards: list[str] = field(default_factory=list)
    split: bool = False        # created by, or kept through, a split (never a blackjack)
    split_aces: bool = False   # one of a pair of split aces: one card only
    doubled: bool = False
    surrendered: bool = False
    refused: bool = False      # the second hand of a split the rules do not allow: no wager
    event_ids: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return hand_total(self.cards)[0]

    @property
    def bust(self) -> bool:
        return self.total > 21

    @property
    def natural(self) -> bool:
        """Blackjack: 21 with the first two cards of an unsplit hand (000 L293, L305)."""
        return not self.split and len(self.cards) == 2 and self.total == 21

    def describe(self) -> str:
        tags = "".join([" doubled" if self.doubled else "", " surrendered" if self.surrendered else "",
                        " refused split" if self.refused else ""])
        return f"{self.hand_id}: {' '.join(self.cards)} ({'BJ' if self.natural else self.total}){tags}"


# --------------------------------------------------------------------------- the round


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (pitwatch.native), still subclassable
class BlackjackCarry(Carry):
    """A blackjack table's state across rounds: ``burn_due``, a shoe was cut and its first cards are not yet
    burned (000 L327; 004 L889-L891). Stored as ``{"version": 1, "burn_due": bool}``."""

    def __init__(self) -> None:
        self.burn_due = False

    def fields(self) -> dict[str, Any]:
        """``{"burn_due": bool}``."""
        return {"burn_due": self.burn_due}

    def load(self, fields: Mapping[str, Any], version: int) -> None:
        """From :meth:`fields` (a state written before any shoe was cut has no key: not due)."""
        self.burn_due = bool(fields.get("burn_due", False))


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (pitwatch.native), still subclassable
class BlackjackRound(GameRound):
    """One blackjack round (see the module docstring for encodings and sources).

    Violations emitted: ``invalid_bet`` (spot other than ``main``, missing or impossible box),
    ``bet_below_minimum`` (each bet), ``bet_above_maximum`` (a bet, or the sum of the bets on
    one box, above the per-hand maximum), ``illegal_decision`` (double/split/hit/insurance/
    surrender against the text), ``dealer_misdraw`` (dealer drawing rule),
    ``procedure`` (more than three bettors on a box, fewer than the minimum hands, cards or
    decisions out of the no-hole-card order, face-down cards, shoe/burn/cut-card rules).
    """

    game = "blackjack"
    carry_type = BlackjackCarry

    def __init__(self, ctx: TableContext, round_id: str, last_of_session: bool = False):
        super().__init__(ctx, round_id, last_of_session)
        model = rules_of(ctx)
        self.rules = model.rules
        self.payouts = model.payouts
        self.limits = model.limits
        self.hands: dict[str, Hand] = {}
        self.dealer: list[str] = []
        self.dealer_event_ids: list[str] = []
        self.insurance: dict[str, tuple[Decimal, str]] = {}
        #: insurances the rules refuse (no wager): bet_id -> (amount, event_id)
        self.refused_insurance: dict[str, tuple[Decimal, str]] = {}
        self.box_cards: dict[int, int] = {}
        self.third_card_boxes: list[int] = []
        self.dealer_drawing = False
        self.burn_reported = False

    # ------------------------------------------------------------------ helpers

    def _cite(self, key: str) -> str:
        return self.ctx.ruleset.cite(key)

    def _v(self, kind: str, msg: str, key: str, eids: Iterable[str] = (), bet_id: str | None = None,
           player_id: str | None = None, amount: Decimal | None = None) -> Violation:
        return Violation(kind, msg, self._cite(key), tuple(eids), bet_id, player_id, amount)

    def _stands_on(self) -> int:
        return self.rules.dealer_stands_on

    def _hits_soft(self) -> bool:
        return self.rules.dealer_hits_soft_17

    def maximum(self) -> Decimal:
        """Per-hand maximum in euros: min(table max_bet, max_multiplier x table min_bet)
        (000 L319; 004 L863-L865). An option outside the text's values falls back to the
        text's ceiling (the violation is reported at ``table_opened``)."""
        return table_maximum(self.ctx)

    def box_bets(self, box: int) -> list[Bet]:
        """Bets on ``box`` in placement order."""
        return [b for b in self.bets.values() if b.box == box and b.spot == MAIN_SPOT]

    def box_hands(self, box: int) -> list[Hand]:
        """Hands of ``box`` in creation order (``"3"``, ``"3-2"``, ...)."""
        return [h for h in self.hands.values() if h.box == box]

    def _dealer_first(self) -> str | None:
        return self.dealer[0] if self.dealer else None

    # ------------------------------------------------------------------ bets

    def on_bet(self, bet: Bet) -> list[Violation]:
        """Spot ``main`` on box 1..boxes; each bet >= table minimum; the box total <= maximum;
        at most ``max_bettors_per_box`` distinct players per box (000 L261-L271, L315-L319;
        004 L662-L688, L850-L867)."""
        boxes = self.limits.boxes
        if bet.spot != MAIN_SPOT or bet.box is None or not 1 <= bet.box <= boxes:
            return [self._v(ViolationKind.INVALID_BET,
                            f"bet {bet.bet_id}: spot {bet.spot!r} box {bet.box} is not a blackjack main bet "
                            f"(spot 'main' on a box 1-{boxes})", "spot", (bet.event_id,), bet.bet_id,
                            bet.player_id, bet.stake)]
        out = limit_violations(bet, self.ctx.min_bet, self.maximum(), self._cite(
            "minimum" if bet.stake < self.ctx.min_bet else "maximum"), f"box {bet.box}")
        if not out:
            total = sum((b.stake for b in self.box_bets(bet.box)), ZERO)
            if total > self.maximum():
                out.append(self._v(
                    ViolationKind.BET_ABOVE_MAXIMUM,
                    f"bet {bet.bet_id} of {bet.stake} EUR takes box {bet.box} to {total} EUR, above the "
                    f"per-hand maximum {self.maximum()} EUR", "maximum", (bet.event_id,), bet.bet_id,
                    bet.player_id, total - self.maximum()))
        earlier = [b for b in self.box_bets(bet.box) if b.bet_id != bet.bet_id]
        players = {b.player_id for b in earlier} | {bet.player_id}
        cap = self.limits.max_bettors_per_box
        if bet.player_id not in {b.player_id for b in earlier} and len(players) > cap:
            out.append(self._v(ViolationKind.PROCEDURE,
                               f"{len(players)} players bet on box {bet.box}; at most {cap} may",
                               "bettors_per_box", (bet.event_id,), bet.bet_id, bet.player_id))
        return out

    # ------------------------------------------------------------------ cards and decisions

    def on_event(self, event: EventBase) -> list[Violation]:
        """Apply ``card_dealt`` / ``player_decision``; returns the violations visible at once."""
        if type(event) is CardDealt:
            return self.card_dealt(event)
        if type(event) is PlayerDecision:
            return self.player_decision(event)
        return [self._v(ViolationKind.PROCEDURE, f"event {event.type} does not belong to blackjack",
                        "spot", (str(event.event_id),))]

    def card_dealt(self, ev: CardDealt) -> list[Violation]:
        """A card to a player's hand or the dealer's: a ``procedure`` violation for a card face down, before
        the burn of a new shoe, to a malformed hand, a hand no split created, a box without a bet, or to a
        player after the dealer's second card."""
        eid = str(ev.event_id)
        out: list[Violation] = []
        if not ev.face_up:
            out.append(self._v(ViolationKind.PROCEDURE, f"card for hand {ev.hand} dealt face down",
                               "face_up", (eid,)))
        if self.ctx.carry_as(BlackjackCarry).burn_due and not self.burn_reported:
            self.burn_reported = True
            out.append(self._v(ViolationKind.PROCEDURE,
                               f"cards dealt from a new shoe before the first {self.rules.burn} "
                               "were burned", "shoe", (eid,)))
        if ev.hand == DEALER:
            self.dealer.append(ev.card)
            self.dealer_event_ids.append(eid)
            if len(self.dealer) >= 2:
                self.dealer_drawing = True
            return out
        parsed = parse_hand_id(ev.hand)
        if parsed is None:
            out.append(self._v(ViolationKind.PROCEDURE, f"card dealt to malformed hand {ev.hand!r}", "spot", (eid,)))
            return out
        box, n = parsed
        hand = self.hands.get(ev.hand)
        if hand is None:
            if n != 1:
                out.append(self._v(ViolationKind.PROCEDURE,
                                   f"card dealt to hand {ev.hand}, which no split created", "split", (eid,)))
                return out
            hand = self.hands[ev.hand] = Hand(ev.hand, box)
            if not self.box_bets(box):
                out.append(self._v(ViolationKind.PROCEDURE, f"card dealt to box {box}, which has no bet",
                                   "spot", (eid,)))
        if self.dealer_drawing:
            out.append(self._v(ViolationKind.PROCEDURE,
                               f"card dealt to hand {ev.hand} after the dealer's second card (no hole card: "
                               "the dealer draws after every player)", "no_hole_card", (eid,)))
        hand.cards.append(ev.card)
        hand.event_ids.append(eid)
        self.box_cards[box] = self.box_cards.get(box, 0) + 1
        if self.box_cards[box] == 3:
            self.third_card_boxes.append(box)
        return out

    def player_decision(self, ev: PlayerDecision) -> list[Violation]:
        """A player's decision (``hit``, ``stand``, ``double``, ``split``, ``surrender``, ``insurance``): an
        ``illegal_decision`` where the rules forbid it, a ``procedure`` violation on a hand without cards or
        after the dealer's second card."""
        eid = str(ev.event_id)
        out: list[Violation] = []
        if self.dealer_drawing:
            out.append(self._v(ViolationKind.PROCEDURE,
                               f"decision {ev.decision} after the dealer's second card (no hole card)",
                               "no_hole_card", (eid,)))
        if ev.decision == "insurance":
            return out + self._insure(ev, eid)
        if ev.decision not in ("hit", "stand", "double", "split", "surrender"):
            return out + [self._v(ViolationKind.ILLEGAL_DECISION,
                                  f"decision {ev.decision} does not exist in blackjack", "hit", (eid,))]
        hand = self.hands.get(ev.hand or "")
        if hand is None:
            return out + [self._v(ViolationKind.PROCEDURE,
                                  f"decision {ev.decision} on hand {ev.hand!r}, which has no cards", "spot", (eid,))]
        bad = getattr(self, f"_{ev.decision}")(hand)
        if bad is not None:
            reason, key = bad
            first = self.box_bets(hand.box)
            out.append(self._v(ViolationKind.ILLEGAL_DECISION,
                               f"{ev.decision} on hand {hand.describe()}: {reason}", key,
                               (eid, *hand.event_ids), None, first[0].player_id if first else None))
        return out

    def _hit(self, hand: Hand) -> tuple[str, str] | None:
        if hand.surrendered:
            return "the hand was surrendered", "surrender"
        if hand.doubled:
            return "a doubled hand takes one card only", "double"
        if hand.split_aces and len(hand.cards) >= 2:
            return "a split ace takes one card only", "split"
        total = hand.total
        if total >= 21:
            return f"no card may be asked on {total}", "hit"
        return None

    def _stand(self, hand: Hand) -> tuple[str, str] | None:
        return None

    def _double(self, hand: Hand) -> tuple[str, str] | None:
        bad: tuple[str, str] | None = None
        allowed = self.rules.double_totals
        low = sum(blackjack_value(c) for c in hand.cards)
        has_ace = any(c[0] == "A" for c in hand.cards)
        if hand.doubled:
            bad = ("the hand is already doubled", "double")
        elif len(hand.cards) != 2:
            bad = (f"a double needs the first two cards, the hand has {len(hand.cards)}", "double")
        elif hand.split_aces:
            bad = ("a split ace takes one card only", "split")
        elif hand.split and not self.rules.double_after_split:
            bad = ("no double after a split", "double")
        elif hand.total >= 21:
            bad = (f"no card may be asked on {hand.total}", "hit")
        elif allowed and low not in allowed and not (has_ace and low + 10 in allowed):
            bad = (f"doubling is allowed only on {', '.join(map(str, allowed))}", "double")
        if bad is None:  # a double the rules refuse is no wager: its chips are due back
            hand.doubled = True
        return bad

    def _split(self, hand: Hand) -> tuple[str, str] | None:
        bad: tuple[str, str] | None = None
        if len(hand.cards) != 2:
            return f"a split needs exactly two cards, the hand has {len(hand.cards)}", "split"
        a, b = hand.cards
        if hand.doubled:
            bad = ("the hand is doubled", "double")
        elif blackjack_value(a) != blackjack_value(b):
            bad = (f"{a} and {b} are not of the same value", "split")
        elif hand.split_aces and not self.rules.resplit_aces:
            bad = ("split aces take one card only (no re-split)", "split")
        elif hand.split and not self.rules.resplit:
            bad = ("no re-split", "split")
        n = len(self.box_hands(hand.box)) + 1
        new_id = f"{hand.box}-{n}"
        aces = a[0] == "A" and b[0] == "A"
        hand.cards = [a]
        hand.split = True
        hand.split_aces = aces
        # the cards are split on the table either way; the second hand of a refused split is
        # no wager (its stake is due back) and is left out of the settlement
        self.hands[new_id] = Hand(new_id, hand.box, [b], split=True, split_aces=aces,
                                  refused=bad is not None, event_ids=list(hand.event_ids[-1:]))
        return bad

    def _surrender(self, hand: Hand) -> tuple[str, str] | None:
        bad: tuple[str, str] | None = None
        first = self._dealer_first()
        if not self.rules.surrender:
            bad = ("surrender («retiro») does not exist in this jurisdiction", "surrender")
        elif first is None or first[0] == "A":
            bad = ("surrender is not allowed when the dealer's first card is an ace", "surrender")
        elif self.third_card_boxes:
            bad = (f"box {self.third_card_boxes[0]} already received a third card", "surrender")
        elif hand.split or hand.doubled or len(hand.cards) != 2:
            bad = ("surrender applies to the initial two-card hand only", "surrender")
        if bad is None:  # a refused surrender leaves the hand in play
            hand.surrendered = True
        return bad

    def _insure(self, ev: PlayerDecision, eid: str) -> list[Violation]:
        bet = self.bets.get(ev.bet_id or "")
        if bet is None or bet.spot != MAIN_SPOT:
            return [self._v(ViolationKind.ILLEGAL_DECISION, f"insurance on unknown bet {ev.bet_id!r}",
                            "insurance", (eid,), ev.bet_id)]
        if ev.amount is None or ev.amount <= 0:
            return [self._v(ViolationKind.PROCEDURE, f"insurance on bet {bet.bet_id} without an amount",
                            "insurance", (eid,), bet.bet_id, bet.player_id)]
        if bet.bet_id in self.insurance:
            return [self._v(ViolationKind.ILLEGAL_DECISION, f"bet {bet.bet_id} insured twice", "insurance",
                            (eid, self.insurance[bet.bet_id][1]), bet.bet_id, bet.player_id, ev.amount)]
        first = self._dealer_first()
        key = "insurance"
        refusal: str | None = None
        if first is None or first[0] != "A" or len(self.dealer) != 1:
            refusal = "the dealer's first card is not an ace" if first is None or first[0] != "A" \
                else "the dealer already drew"
        elif self.third_card_boxes:
            box_hand = self.hands.get(str(bet.box))
            even_money = (self.rules.even_money and box_hand is not None
                          and box_hand.natural and not any(b > (bet.box or 0) for b in self.third_card_boxes))
            if not even_money:
                refusal = f"after box {self.third_card_boxes[0]} received a third card"
        if refusal is not None:  # no wager: the insurance chips are due back
            self.refused_insurance[bet.bet_id] = (ev.amount, eid)
            return [self._v(ViolationKind.ILLEGAL_DECISION,
                            f"insurance on bet {bet.bet_id}: {refusal}; not a wager, the chips are due back",
                            key, (eid, *self.dealer_event_ids[:1]), bet.bet_id, bet.player_id, ev.amount)]
        self.insurance[bet.bet_id] = (ev.amount, eid)
        cap = bet.stake * self.payouts.insurance_max_fraction
        if ev.amount > cap:
            return [self._v(ViolationKind.BET_ABOVE_MAXIMUM,
                            f"insurance of {ev.amount} EUR on bet {bet.bet_id} exceeds half the stake "
                            f"({bet.stake} EUR): {cap} EUR at most", key, (eid,), bet.bet_id, bet.player_id,
                            ev.amount - cap)]
        return []

    # ------------------------------------------------------------------ settlement

    def dealer_total(self) -> int:
        return hand_total(self.dealer)[0]

    def dealer_blackjack(self) -> bool:
        """Dealer blackjack: 21 with his first two cards (000 L297; 004 L761-L763)."""
        return len(self.dealer) == 2 and self.dealer_total() == 21

    def hand_result(self, hand: Hand) -> tuple[str, str, Decimal, Decimal]:
        """``(outcome, citation key, returned per euro, winnings per euro)`` of ``hand``:
        returned = stake x factor + round(stake x winnings ratio) (see :meth:`_returned`)."""
        p = self.payouts
        one, zero = Decimal(1), Decimal(0)
        if hand.surrendered:
            return "surrender", "surrender", zero, p.surrender_returned
        if hand.bust:
            return "lose", "lose", zero, zero
        dbj = self.dealer_blackjack()
        if hand.natural:
            if dbj:
                return "push", "push", one, zero
            return "blackjack", "blackjack", one, p.blackjack
        if dbj:
            return "lose", "blackjack", zero, zero
        d = self.dealer_total()
        key = "split_21" if hand.split and hand.total == 21 else "win"
        if d > 21 or hand.total > d:
            return "win", key, one, p.win
        if hand.total == d:
            return "push", "push", one, zero
        return "lose", "lose", zero, zero

    def _returned(self, stake: Decimal, factor: Decimal, extra: Decimal) -> Decimal:
        return _money(stake * factor) + self.ctx.ruleset.round(stake * extra)

    def bet_at_risk(self, bet: Bet) -> Decimal:
        """Euros ``bet`` has at risk: its stake on every hand of its box, doubled hands twice."""
        hands = [h for h in self.box_hands(bet.box or 0) if not h.refused]
        if not hands:
            return bet.stake
        return sum((bet.stake * (2 if h.doubled else 1) for h in hands), ZERO)

    def settle(self) -> list[ExpectedSettlement]:
        """Expected settlement of every main bet and every insurance (side-effect free).

        Per hand: surrender returns half the stake (000 L311); a bust loses (000 L281); a
        blackjack pays 3:2 and beats a 21 of more cards, pushes a dealer blackjack (000 L291,
        L293); against a dealer blackjack every other hand loses every stake (no hole card);
        otherwise the higher total wins 1:1, equal totals push (000 L289-L293; 004 L733-L746);
        21 after a split is paid 1:1 (000 L305; 004 L795-L798). Insurance pays 2:1 if the
        dealer makes blackjack (000 L297; 004 L761-L763).
        """
        out: list[ExpectedSettlement] = []
        dealer_desc = f"dealer {' '.join(self.dealer)} ({'BJ' if self.dealer_blackjack() else self.dealer_total()})"
        for bet in self.bets.values():
            if bet.spot != MAIN_SPOT:
                continue
            hands = [h for h in self.box_hands(bet.box or 0) if not h.refused]
            if not hands:
                out.append(ExpectedSettlement(bet.bet_id, bet.player_id, bet.spot, bet.stake, "void", bet.stake,
                                              ZERO, self._cite("void_round"),
                                              f"box {bet.box} was dealt no cards: stake returned"))
                continue
            stake = returned = ZERO
            words: list[str] = []
            keys: list[str] = []
            parts: list[str] = []
            for h in hands:
                s = bet.stake * (2 if h.doubled else 1)
                word, key, factor, extra = self.hand_result(h)
                r = self._returned(s, factor, extra)
                stake += s
                returned += r
                words.append(word)
                if key not in keys:
                    keys.append(key)
                parts.append(f"{h.describe()} stake {s} -> {word} {r}")
            outcome = words[0] if len(set(words)) == 1 else "split"
            out.append(ExpectedSettlement(
                bet.bet_id, bet.player_id, bet.spot, _money(stake), outcome, _money(returned), ZERO,
                "; ".join(self._cite(k) for k in keys), "; ".join(parts) + f"; {dealer_desc}",
                initial=bet.stake))
        for bet_id, (amount, _eid) in self.insurance.items():
            insured = self.bets.get(bet_id)
            if insured is None:
                continue
            win = self.dealer_blackjack()
            returned = self._returned(amount, Decimal(1), self.payouts.insurance) if win else ZERO
            box_hand = self.hands.get(str(insured.box))
            key = "insurance"
            if self.rules.even_money and box_hand is not None and box_hand.natural \
                    and amount * 2 == insured.stake:
                key = "even_money"
            out.append(ExpectedSettlement(
                bet_id + INSURANCE_SUFFIX, insured.player_id, "insurance", amount, "win" if win else "lose",
                returned, ZERO, self._cite(key),
                f"insurance {amount} on bet {bet_id}; {dealer_desc}"))
        for bet_id, (amount, _eid) in self.refused_insurance.items():
            refused = self.bets.get(bet_id)
            if refused is not None:
                out.append(ExpectedSettlement(
                    bet_id + INSURANCE_SUFFIX, refused.player_id, "insurance", amount, REFUSED, amount, ZERO,
                    self._cite("insurance"), f"insurance {amount} on bet {bet_id} refused by the rules: "
                    "no wager, the chips are due back"))
        return out

    def void(self, reason: str) -> list[ExpectedSettlement]:
        """Void round: every euro at risk (stakes, doubles, splits, insurance) is returned."""
        cite = self._cite("void_round")
        out = []
        for b in self.bets.values():
            at_risk = self.bet_at_risk(b) if b.spot == MAIN_SPOT else b.stake
            out.append(ExpectedSettlement(b.bet_id, b.player_id, b.spot, at_risk, "void", at_risk, ZERO, cite,
                                          f"round voided: {reason}"))
        for bet_id, (amount, _eid) in self.insurance.items():
            insured = self.bets.get(bet_id)
            if insured is not None:
                out.append(ExpectedSettlement(bet_id + INSURANCE_SUFFIX, insured.player_id, "insurance", amount,
                                              "void", amount, ZERO, cite, f"round voided: {reason}"))
        for bet_id, (amount, _eid) in self.refused_insurance.items():
            refused = self.bets.get(bet_id)
            if refused is not None:
                out.append(ExpectedSettlement(bet_id + INSURANCE_SUFFIX, refused.player_id, "insurance", amount,
                                              REFUSED, amount, ZERO, self._cite("insurance"),
                                              "insurance refused by the rules: no wager, the chips are due back"))
        return out

    # ------------------------------------------------------------------ end-of-round checks

    def check(self) -> list[Violation]:
        """Dealer drawing rule (``dealer_misdraw``) and end-of-round procedure (side-effect free).

        The dealer stands on every 17, soft 17 included, and draws below 17 while a contested
        hand (neither bust, surrendered nor blackjack) remains (000 L283-L285; 004 L715-L724).
        With no contested hand he may stop, but must take his second card when a blackjack (first
        card ace or ten) or an insurance (ace) waits on it; where the text says the dealer draws
        only «siempre que queden manos en juego» (004 L716-L717) he must take no card when every
        hand is bust or surrendered (one card when only an insurance is pending). Also: fewer
        than ``min_hands`` boxes bet (000 L263) and boxes with bets but no cards.
        """
        out: list[Violation] = []
        bet_boxes = sorted({b.box for b in self.bets.values() if b.spot == MAIN_SPOT and b.box is not None})
        hands = [h for h in self.hands.values() if h.box in bet_boxes]
        live = [h for h in hands if not h.bust and not h.surrendered]
        contested = [h for h in live if not h.natural]
        pending_insurance = bool(self.insurance)
        first = self._dealer_first()
        so, h17 = self._stands_on(), self._hits_soft()
        if contested:
            err = dealer_draw_error(self.dealer, must_complete=True, stands_on=so, hits_soft_17=h17)
        else:
            err = dealer_draw_error(self.dealer, must_complete=False, stands_on=so, hits_soft_17=h17)
            need_second = first is not None and (
                (live and blackjack_value(first) in (1, 10)) or (pending_insurance and first[0] == "A"))
            if err is None and need_second and len(self.dealer) < 2:
                err = (f"dealer stood on {first} alone although a blackjack or an insurance depended on his "
                       "second card")
            if err is None and self.rules.no_draw_without_hands_in_play and not live:
                allowed = 2 if (pending_insurance and first is not None and first[0] == "A") else 1
                if len(self.dealer) > allowed:
                    err = (f"dealer took {len(self.dealer) - 1} card(s) with no hand left in play "
                           f"({'only an insurance pending' if allowed == 2 else 'every hand bust or surrendered'})")
        if err is not None:
            out.append(self._v(ViolationKind.DEALER_MISDRAW, f"{err}: dealer {' '.join(self.dealer)}",
                               "dealer_draw", self.dealer_event_ids))
        min_hands = self.limits.min_hands
        if min_hands and len(bet_boxes) < min_hands:
            out.append(self._v(ViolationKind.PROCEDURE,
                               f"round played with {len(bet_boxes)} box(es) bet; at least {min_hands} hands are "
                               "required", "min_hands", tuple(b.event_id for b in self.bets.values())))
        for box in bet_boxes:
            if not self.box_hands(box):
                out.append(self._v(ViolationKind.PROCEDURE, f"box {box} has bets but was dealt no cards",
                                   "spot", tuple(b.event_id for b in self.box_bets(box))))
        return out

    def finish(self) -> None:
        """Clear the shoe's burn-due flag once a round has reported it."""
        if self.burn_reported:
            self.ctx.carry_as(BlackjackCarry).burn_due = False

    def outcome(self) -> str:
        """E.g. ``"dealer 19; 1:20 3:BJ 4:bust"``."""
        d = "BJ" if self.dealer_blackjack() else str(self.dealer_total()) if self.dealer else "-"
        parts = []
        for h in self.hands.values():
            parts.append(f"{h.hand_id}:{'BJ' if h.natural else 'surr' if h.surrendered else 'bust' if h.bust else h.total}")
        return f"dealer {d}; " + " ".join(parts)

    # ------------------------------------------------------------------ table events

    @staticmethod
    def on_table_event(ctx: TableContext, event: EventBase) -> list[Violation]:
        """Table option and shoe checks: ``max_multiplier`` among the text's values (000 L319;
        004 L863-L865); shoe of ``decks`` decks (000 L243; 004 L583); cut card leaving at least
        one deck (000 L325; 004 L882-L885); the first ``burn`` cards of a new shoe burned
        (000 L327; 004 L889-L891)."""
        if type(event) is TableOpened:
            return table_opened(ctx, event)
        if type(event) is ShoeLoaded:
            return shoe_loaded(ctx, event)
        if type(event) is ShoeCut:
            return shoe_cut(ctx, event)
        if type(event) is CardsBurned:
            return cards_burned(ctx, event)
        return []


def table_opened(ctx: TableContext, event: TableOpened) -> list[Violation]:
    """A ``procedure`` violation for a table option ``max_multiplier`` the text does not allow; see
    :meth:`BlackjackRound.on_table_event`."""
    out: list[Violation] = []
    raw = ctx.option("max_multiplier")
    if not _multiplier_ok(ctx, raw):
        out.append(Violation(ViolationKind.PROCEDURE,
                             f"table option max_multiplier={raw!r} is not a maximum the text allows",
                             ctx.ruleset.cite("maximum"), (str(event.event_id),)))
    return out


def shoe_loaded(ctx: TableContext, event: ShoeLoaded) -> list[Violation]:
    """A ``procedure`` violation for a shoe of another number of decks than the game's; see
    :meth:`BlackjackRound.on_table_event`."""
    out: list[Violation] = []
    decks = rules_of(ctx).rules.decks
    if event.decks != decks:
        out.append(Violation(ViolationKind.PROCEDURE, f"shoe of {event.decks} decks; the game uses {decks}",
                             ctx.ruleset.cite("shoe"), (str(event.event_id),)))
    return out


def shoe_cut(ctx: TableContext, event: ShoeCut) -> list[Violation]:
    """A ``procedure`` violation for a cut card leaving too few cards behind it; the burn of the new shoe is
    then due; see :meth:`BlackjackRound.on_table_event`."""
    out: list[Violation] = []
    need = rules_of(ctx).rules.cut_card_min_behind
    if event.cards_behind < need:
        out.append(Violation(ViolationKind.PROCEDURE,
                             f"cut card leaves {event.cards_behind} cards behind it; at least {need}",
                             ctx.ruleset.cite("shoe"), (str(event.event_id),)))
    ctx.carry_as(BlackjackCarry).burn_due = True
    return out


def cards_burned(ctx: TableContext, event: CardsBurned) -> list[Violation]:
    """A ``procedure`` violation for a burn of another number of cards than the text's at the start of a
    shoe; the burn is then done; see :meth:`BlackjackRound.on_table_event`."""
    out: list[Violation] = []
    burn = rules_of(ctx).rules.burn
    carry = ctx.carry_as(BlackjackCarry)
    if carry.burn_due and event.count != burn:
        out.append(Violation(ViolationKind.PROCEDURE,
                             f"{event.count} cards burned at the start of the shoe; the text says {burn}",
                             ctx.ruleset.cite("shoe"), (str(event.event_id),)))
    carry.burn_due = False
    return out


def table_maximum(ctx: TableContext) -> Decimal:
    """Per-hand (per-box) maximum in euros for table ``ctx``: min(table ``max_bet``,
    ``max_multiplier`` x table ``min_bet``) (000 L319; 004 L863-L865)."""
    return ctx.derived(("blackjack_table_maximum",), lambda: min(ctx.max_bet, _money(ctx.min_bet * _multiplier(ctx))))  # type: ignore[no-any-return]


def rules_of(ctx: TableContext) -> BlackjackRuleset:
    """The blackjack model of the table's ruleset; raises ``RuleError`` for another game's ruleset."""
    return ctx.ruleset.model_as(BlackjackRuleset)


def _multiplier_ok(ctx: TableContext, raw: str) -> bool:
    try:
        m = int(str(raw))
    except (TypeError, ValueError):
        return False
    return rules_of(ctx).limits.allows(m)


def _multiplier(ctx: TableContext) -> int:
    raw = ctx.option("max_multiplier")
    if _multiplier_ok(ctx, raw):
        return int(str(raw))
    return rules_of(ctx).limits.ceiling()


SPEC = GameSpec(
    game="blackjack", round=BlackjackRound, model=BlackjackRuleset, title="Blackjack",
    names=("Black jack", "Blackjack"), simulator="pitwatch.sim.blackjack",
    edges="pitwatch.rules.edges.blackjack",
    cited_by={
        "options.max_multiplier": ("maximum",),
        "limits.allowed_multipliers": ("maximum",),
        "limits.multiplier_range": ("maximum",),
        "limits.max_bettors_per_box": ("bettors_per_box",),
        "limits.boxes": ("boxes",),
        "limits.min_hands": ("min_hands",),
        "payouts.win": ("win",),
        "payouts.blackjack": ("blackjack",),
        "payouts.insurance": ("insurance",),
        "payouts.surrender_returned": ("surrender",),
        "payouts.insurance_max_fraction": ("insurance",),
        "rules.decks": ("shoe",),
        "rules.burn": ("shoe",),
        "rules.cut_card_min_behind": ("shoe",),
        "rules.dealer_stands_on": ("dealer_draw",),
        "rules.dealer_hits_soft_17": ("dealer_draw",),
        "rules.double_totals": ("double",),
        "rules.double_after_split": ("double",),
        "rules.resplit": ("split",),
        "rules.resplit_aces": ("split",),
        "rules.surrender": ("surrender",),
        "rules.even_money": ("even_money", "insurance"),
        "rules.no_draw_without_hands_in_play": ("dealer_draw",),
    },
    not_checked={
        "galicia": (
            Gap("decisions on a shared box are not checked against the player who controls it (the seated player; "
                "on a vacant box the largest stake)", "000 L267-L269"),
            Gap("the order of dealing (from the croupier's left) and of payment (right to left)", "000 L277, L287"),
            Gap("the announcement of the last coup when the cut card appears", "000 L329"),
        ),
        "andalucia": (
            Gap("the «bolsa» progressive side bet (veintiuno progresivo) is not modelled: a bolsa bet is reported as "
                "invalid_bet", "004 L807-L848"),
            Gap("decisions on a shared box are not checked against the player who orders it (the player in front; "
                "on a vacant box the largest stake)", "004 L668-L673, L682-L688"),
            Gap("the order of dealing (from the croupier's left) and of payment (right to left)", "004 L697-L699, L727-L728"),
            Gap("the announcement of the last coup when the cut card appears", "004 L892-L895"),
        ),
    },
)
"""The game's spec (:mod:`pitwatch.rules.registry`): its round, ruleset model, edges, labels, simulator,
and the ruleset keys' citations for the generated docs."""
