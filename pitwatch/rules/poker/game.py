"""Póquer en círculo as a game of the engine: one «mano» is one round.

The events of a hand are described in :mod:`pitwatch.schemas.poker`. The round follows the hand as
the croupier must run it, under the ruleset ``poker.<jurisdiction>`` and the table's options
(``variant``, ``structure``, ``rake_rate``, ``ante``):

- **Variants**: the table's ``variant`` is a ``[variants.<name>]`` of the ruleset; what stud and draw
  add (up cards and the bring-in, the discard) are the hooks of :mod:`pitwatch.rules.poker.variants`.
- **Forced bets** (004 L4425-L4448, VIII): an ante at most half the table minimum, the small blind
  half the minimum and the big blind the minimum (less only when it is the player's whole stack),
  posted by the first seat after the «marca» and the next one.
- **Betting** (:class:`~pitwatch.rules.poker.betting.BettingRound`, 004 IX.6-IX.8): the first
  interval starts at the seat after the big blind (after the «marca» when there are no blinds); each
  later one at the first live seat after the «marca» (heads-up: see the ruleset's ambiguities).
  A board card dealt while an interval is still open is a premature card (004 L5312-L5333).
  An action the rules refuse is an ``illegal_decision`` citing the rule; the round still follows
  what happened at the table (the chips that crossed the line are in the pot).
- **The house's revenue** (004 L4082-L4088, II.4.a): ``rake_rate`` x the hand's pots, rounded down
  to the cent, taken off the main pot first; a rake recorded other than that is a
  ``rake_discrepancy`` of the difference (positive: the house took more). Under a session form of
  the benefit no rake is due (:mod:`pitwatch.rules.poker.revenue`).
- **Awards**: the pots (:func:`~pitwatch.rules.poker.pots.build_pots`) go to the best shown hands of
  their eligible players (:func:`~pitwatch.rules.poker.showdown.winners`), split with the odd-chip
  rule; an uncontested pot goes to the last player in without showing (IX.9); an uncalled bet goes
  back to its player.

- **List V** (004 L4217-L4275), a ``prohibited_play`` each, where the events show it: chips added
  to a stack once the hand has begun (V.e) or cashed during it (V.g), chips passed between players
  (V.f), cards shown while the betting is open (V.l), one player in two places (V.o).

For the engine's accounting each player's part in the hand is one settlement: the bet id
``<round_id>:<player_id>``, spot ``pot``, stake what he put in, returned what he is due (pots won
and the uncalled bet back). The dealer's ``pot_awarded`` and ``bet_returned`` events are summed per
player into the recorded settlement. The table's win on a hand is then exactly its rake.
"""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal

from pitwatch.rules.base import Bet, ExpectedSettlement, RecordedSettlement, RuleError, Violation, ViolationKind
from pitwatch.rules.game import GameRound, TableContext
from pitwatch.rules.models.poker import PokerRuleset, PokerVariant
from pitwatch.rules.poker import revenue
from pitwatch.rules.poker.betting import BettingError, BettingRound
from pitwatch.rules.poker.pots import CENT, Pot, PotError, Pots, build_pots, split_pot
from pitwatch.rules.poker.showdown import ShowdownError, winners
from pitwatch.rules.poker.variants import rules_for
from pitwatch.rules.spec import GameSpec, Gap
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import CardDealt, ChipsBought, ChipsCashed, ChipsTransferred, TableClosed, TableOpened
from pitwatch.schemas.money import ZERO
from pitwatch.schemas.poker import (
    BetReturned,
    ButtonPlaced,
    CardsDiscarded,
    HandMucked,
    HandShown,
    PokerAction,
    PotAwarded,
    RakeTaken,
    SessionFeeTaken,
    StackCounted,
)

SPOT = "pot"
"""The spot of a player's part in a hand (the engine's settlements)."""

_RULE_CITATION = {"turn": "turn", "over": "turn", "action": "turn", "stack": "all_in", "check": "check",
                  "call": "call", "bet": "bet", "raise": "raise", "reopen": "all_in"}
"""A :class:`BettingError` rule -> the ruleset's citation key."""


def bet_id_of(round_id: str, player_id: str) -> str:
    """The id of ``player_id``'s settlement in hand ``round_id``: ``"<round_id>:<player_id>"``."""
    return f"{round_id}:{player_id}"


class PokerRound(GameRound):
    """One hand of póquer en círculo (module docstring)."""

    game = "poker"
    carry_type = revenue.PokerCarry

    def __init__(self, ctx: TableContext, round_id: str, last_of_session: bool = False):
        super().__init__(ctx, round_id, last_of_session)
        model = ctx.derived(("poker_model",), lambda: ctx.ruleset.model_as(PokerRuleset))
        self.model: PokerRuleset = model
        name = ctx.option("variant")
        if name not in model.variants:
            raise RuleError(f"table option variant={name!r} is not a variant of {ctx.ruleset.id} "
                            f"({', '.join(sorted(model.variants))})", ctx.ruleset.cite("holdem"))
        self.variant: PokerVariant = model.variants[name]
        self.button: int | None = None
        self.seats: dict[str, int] = {}
        self.stacks: dict[str, Decimal] = {}
        self.put: dict[str, Decimal] = {}
        self.blinds: dict[str, Decimal] = {}
        self.blind_actions: list[tuple[str, str]] = []
        """``(player, small_blind | big_blind)`` in the order posted."""
        self.antes = ZERO
        self.forced: dict[str, Decimal] = {}
        """Antes and blinds per player (the part of what he put in that no decision of his put)."""
        self.folded: set[str] = set()
        self.mucked: set[str] = set()
        self.shown: dict[str, list[str]] = {}
        self.board: list[str] = []
        self.interval: BettingRound | None = None
        self.street = 0
        self.pot_before = ZERO
        self.last_bettor = ""
        self.rake_recorded = ZERO
        self.rake_events: list[str] = []
        self.awarded: dict[str, Decimal] = {}
        self._awards: tuple[dict[str, Decimal], dict[str, str], Decimal] | None = None
        """:meth:`expected_awards` as computed since the last event (settle and check both read it)."""
        self.taken: list[tuple[int, str, str, bool]] = []
        """Every ``poker_action`` in order, ``(interval, player, action, could bet or raise)``
        (:meth:`actions_taken`)."""
        self.begun = False
        """Whether the hand has begun: a card dealt (004 L4228-L4233 counts from the first card)."""
        self.rules = rules_for(self)
        """The variant's hooks (stud, draw; none for hold'em and Omaha)."""

    # ------------------------------------------------------------------ helpers
    def _cite(self, key: str) -> str:
        return self.ctx.ruleset.cite(key)

    def _violation(self, kind: str, message: str, key: str, eid: str, player: str | None = None,
                   amount: Decimal | None = None) -> Violation:
        return Violation(kind, message, self._cite(key), (eid,), None, player, amount)

    def _clockwise_after(self, seat: int, players: list[str]) -> list[str]:
        """``players`` in seat order, starting at the first seat after ``seat`` (clockwise)."""
        return sorted(players, key=lambda p: (self.seats[p] - seat - 1) % 100)

    def _behind(self, player: str) -> Decimal:
        return self.stacks[player] - self.put[player]

    # ------------------------------------------------------------------ the hand's events
    def on_bet(self, bet: Bet) -> list[Violation]:
        return [Violation(ViolationKind.INVALID_BET, f"bet {bet.bet_id} on {bet.spot}: poker has no layout; the "
                          "chips go to the pot with a poker_action", self._cite("no_more_bets"), (bet.event_id,),
                          bet.bet_id, bet.player_id, bet.stake)]

    def on_event(self, event: EventBase) -> list[Violation]:
        """A hand's event, each to its own operation (``poker_action``, ``card_dealt``, ``stack_counted``,
        ``button_placed``, ``hand_shown``, ``hand_mucked``, ``rake_taken``, ``pot_awarded``,
        ``bet_returned``, the variant's ``cards_discarded``, a ``session_fee_taken`` given a round);
        returns the violations it reveals at once. Any other event: none."""
        self._awards = None  # the hand changes: the awards are derived again when asked
        if type(event) is PokerAction:
            return self.poker_action(event)
        if type(event) is CardDealt:
            return self.card_dealt(event)
        if type(event) is StackCounted:
            return self.stack_counted(event)
        if type(event) is ButtonPlaced:
            return self.button_placed(event)
        if type(event) is HandShown:
            return self.hand_shown(event)
        if type(event) is HandMucked:
            return self.hand_mucked(event)
        if type(event) is RakeTaken:
            return self.rake_taken(event)
        if type(event) is PotAwarded:
            return self.pot_awarded(event)
        if type(event) is BetReturned:
            return self.bet_returned(event)
        if type(event) is CardsDiscarded:
            return self.rules.cards_discarded(event, str(event.event_id))
        if type(event) is SessionFeeTaken:  # a table-level event that names the hand
            return revenue.fee_taken(self.ctx, event)
        return []

    def button_placed(self, event: ButtonPlaced) -> list[Violation]:
        """The «marca» at a seat for this hand. Returns no violation."""
        self.button = event.seat
        return []

    def poker_action(self, event: PokerAction) -> list[Violation]:
        """A forced bet (:meth:`_forced`) or a betting action (:meth:`_act`) of a player dealt in, and
        whether another player took it for him (:meth:`_delegated`)."""
        eid = str(event.event_id)
        if event.player_id not in self.seats:
            return [self._violation(ViolationKind.PROCEDURE, f"{event.player_id} acted ({event.action}) but was not "
                                    "dealt in (no stack_counted)", "seats", eid, event.player_id, event.amount)]
        delegated = self._delegated(event, eid)
        if event.action in ("ante", "small_blind", "big_blind"):
            self.taken.append((self.street, event.player_id, event.action, False))
            self.put[event.player_id] += event.amount
            self.forced[event.player_id] = self.forced.get(event.player_id, ZERO) + event.amount
            return delegated + self._forced(event, eid)
        if event.action == "bring_in":  # forced up to the table minimum (004 L5009-L5017)
            self.forced[event.player_id] = self.forced.get(event.player_id, ZERO) + min(event.amount, self.ctx.min_bet)
        return delegated + self._act(event, eid)

    def card_dealt(self, event: CardDealt) -> list[Violation]:
        """A card: the hand has begun; a board card (:meth:`_board_card`) or a seat's (the variant's
        ``seat_card``)."""
        self.begun = True
        eid = str(event.event_id)
        if event.hand != "board":
            return self.rules.seat_card(event, eid)
        return self._board_card(event, eid)

    def hand_shown(self, event: HandShown) -> list[Violation]:
        """The cards a player shows (read by the variant's ``shown_cards``), and whether he showed them
        with the betting open (:meth:`_shown_early`)."""
        self.shown[event.player_id] = self.rules.shown_cards(event.player_id, list(event.cards))
        return self._shown_early(event, str(event.event_id))

    def hand_mucked(self, event: HandMucked) -> list[Violation]:
        """A player gives up the pot. Returns no violation."""
        self.mucked.add(event.player_id)
        return []

    def rake_taken(self, event: RakeTaken) -> list[Violation]:
        """Rake put in the cagnotte, compared with the rake due at the end of the hand (:meth:`check`)."""
        self.rake_recorded += event.amount
        self.rake_events.append(str(event.event_id))
        return []

    def pot_awarded(self, event: PotAwarded) -> list[Violation]:
        """A pot paid to a player: part of his recorded settlement (:meth:`_paid`)."""
        return self._paid(event.player_id, event.amount, str(event.event_id))

    def bet_returned(self, event: BetReturned) -> list[Violation]:
        """An uncalled bet given back to its player: part of his recorded settlement (:meth:`_paid`)."""
        return self._paid(event.player_id, event.amount, str(event.event_id))

    def _paid(self, player: str, amount: Decimal, eid: str) -> list[Violation]:
        """``amount`` euros paid to ``player`` (a pot or his uncalled bet), summed into his recorded
        settlement, compared with his expected one by the engine. Returns no violation."""
        self.awarded[player] = self.awarded.get(player, ZERO) + amount
        bid = bet_id_of(self.round_id, player)
        self.recorded[bid] = RecordedSettlement(bid, "awarded", self.awarded[player], ZERO, eid)
        return []

    def _delegated(self, event: PokerAction, eid: str) -> list[Violation]:
        """A player's action taken by another player (the event's actor), his play left in another's
        hands (004 L4248-L4252, V.j). The croupier moving a player's chips is no delegation."""
        actor = event.actor
        if actor.role != "player" or actor.id == event.player_id:
            return []
        return [self._violation(ViolationKind.PROHIBITED_PLAY, f"{actor.id} took {event.player_id}'s action "
                                f"({event.action} {event.amount}): a player's bets are his own to make",
                                "prohibited_delegation", eid, event.player_id, event.amount)]

    def _shown_early(self, event: HandShown, eid: str) -> list[Violation]:
        """A player who shows his cards while the betting is still open, not folded and with chips
        behind (004 L4259-L4262, V.l)."""
        p = event.player_id
        rnd = self.interval
        if (p not in self.seats or p in self.folded or self._behind(p) <= 0 or rnd is None or rnd.over
                or p not in rnd.players):
            return []
        return [self._violation(ViolationKind.PROHIBITED_PLAY, f"{p} showed his cards with {self._behind(p)} behind while "
                                "the betting was open", "prohibited_show", eid, p)]

    def on_movement(self, event: EventBase) -> list[Violation]:
        """Chips bought by a player of the hand once it has begun (004 L4228-L4233, V.e), or cashed
        by him during it (his stack kept back, 004 L4238, V.g)."""
        if type(event) is ChipsBought:
            return self.chips_bought(event)
        if type(event) is ChipsCashed:
            return self.chips_cashed(event)
        return []

    def chips_bought(self, event: ChipsBought) -> list[Violation]:
        """Chips bought by a player dealt in, once the first card is dealt: a ``prohibited_play`` (V.e)."""
        p = event.player_id
        if p in self.seats and self.begun:
            return [self._violation(ViolationKind.PROHIBITED_PLAY, f"{p} bought {event.amount} of chips during the hand: "
                                    "no chips are added to a stack once the first card is dealt", "prohibited_add_chips",
                                    str(event.event_id), p, event.amount)]
        return []

    def chips_cashed(self, event: ChipsCashed) -> list[Violation]:
        """Chips cashed by a player dealt in, during the hand: a ``prohibited_play`` (V.g)."""
        p = event.player_id
        if p in self.seats:
            return [self._violation(ViolationKind.PROHIBITED_PLAY, f"{p} cashed {event.amount} of chips during the hand: "
                                    "a stack stays in play", "prohibited_rathole", str(event.event_id), p, event.amount)]
        return []

    def stack_counted(self, event: StackCounted) -> list[Violation]:
        """A player dealt in at a seat with his stack: a player in two places (V.o), or a seat already
        held, is flagged; the later count stands."""
        eid = str(event.event_id)
        taken = next((p for p, s in self.seats.items() if s == event.seat and p != event.player_id), None)
        out = []
        if event.player_id in self.seats:
            out.append(self._violation(ViolationKind.PROHIBITED_PLAY, f"{event.player_id} counted at seat {event.seat} "
                                       f"and at seat {self.seats[event.player_id]}: more than one place at the table",
                                       "prohibited_seats", eid, event.player_id))
        elif taken is not None:
            out.append(self._violation(ViolationKind.PROCEDURE, f"{event.player_id} counted at seat {event.seat}, "
                                       f"already held by {taken}: one player per seat", "seats", eid, event.player_id))
        self.seats[event.player_id] = event.seat
        self.stacks[event.player_id] = event.amount
        self.put.setdefault(event.player_id, ZERO)
        return out

    def _forced(self, event: PokerAction, eid: str) -> list[Violation]:
        p, amount, minimum = event.player_id, event.amount, self.ctx.min_bet
        fb = self.model.forced_bets
        all_in = self._behind(p) == 0
        if event.action == "ante":
            self.antes += amount
            if amount > fb.ante_max_fraction * minimum:
                return [self._violation(ViolationKind.ILLEGAL_DECISION, f"{p}'s ante of {amount} is above half the table "
                                        f"minimum ({fb.ante_max_fraction * minimum})", "ante", eid, p, amount)]
            return []
        self.blinds[p] = self.blinds.get(p, ZERO) + amount
        self.blind_actions.append((p, event.action))
        due = self.ctx.ruleset.round((fb.small_blind if event.action == "small_blind" else fb.big_blind) * minimum)
        if amount == due or (all_in and amount < due):
            return []
        return [self._violation(ViolationKind.ILLEGAL_DECISION, f"{p} posted a {event.action.replace('_', ' ')} of "
                                f"{amount}: it is {due} at a table of minimum {minimum}", "blinds", eid, p, amount)]

    def _posters(self) -> dict[str, str]:
        """``{"small_blind": player, "big_blind": player}`` as posted (the last poster of each)."""
        return {action: p for p, action in self.blind_actions}

    def _blind_posters(self, eid: str) -> list[Violation]:
        """The blinds are the «mano»'s (the first seat after the marca: half the minimum) and the next
        seat's (the minimum) (004 L4440-L4445, VIII.2.b); heads-up the marca posts the small blind
        (the ruleset's ambiguity). Checked when the first interval opens, if the hand has a marca and
        blinds; a missing small blind is a blind not posted."""
        if self.button is None or not self.blinds or len(self.seats) < 2:
            return []
        order = self._clockwise_after(self.button, list(self.seats))
        small, big = (order[-1], order[0]) if len(order) == 2 else (order[0], order[1])
        posted = self._posters()
        if posted.get("small_blind") == small and posted.get("big_blind") == big:
            return []
        return [self._violation(ViolationKind.PROCEDURE, f"blinds posted by {posted.get('small_blind', 'nobody')} (small) "
                                f"and {posted.get('big_blind', 'nobody')} (big): they are {small}'s, the first seat after "
                                f"the marca at seat {self.button}, and {big}'s", "blinds", eid)]

    def _open_interval(self) -> BettingRound:
        live = [p for p in self.seats if p not in self.folded]
        opener = self.rules.opener()
        if opener is not None:  # the variant's: stud's up cards, draw's opener
            start = self.seats[opener] - 1
        elif self.street == 0 and self.blinds:  # after the big blind (heads-up: the marca, who posted the small)
            start = self.seats[self._posters().get("big_blind") or max(self.blinds, key=lambda q: self.blinds[q])]
        else:  # after the marca (heads-up: the big blind first, the marca last)
            start = self.button if self.button is not None else 0
        order = self._clockwise_after(start, live)
        structure = self.ctx.option("structure")
        low = self.street < self.model.betting.fixed_limit_low_streets
        increment = self.ctx.min_bet * (1 if low else 2)
        put = self.blinds if self.street == 0 else {}
        stacks = {p: self._behind(p) for p in order}
        pot = self.pot_before + (self.antes if self.street == 0 else ZERO)
        shoved = [p for p in order if self._behind(p) == 0]
        return BettingRound(order, stacks, structure, self.ctx.min_bet, put, pot, increment, shoved)  # type: ignore[arg-type]

    def _act(self, event: PokerAction, eid: str) -> list[Violation]:
        p, action, amount = event.player_id, event.action, event.amount
        out: list[Violation] = []
        if self.interval is None:
            if self.street == 0:
                out.extend(self._blind_posters(eid))
            self.interval = self._open_interval()
        rnd = self.interval
        self.taken.append((self.street, p, action, rnd.may_raise(p)))
        self.put[p] += amount
        if p in self.folded or p not in rnd.players:
            return [self._violation(ViolationKind.PROCEDURE, f"{p} {action} after folding", "fold", eid, p, amount)]
        out.extend(self.rules.before_action(event, eid, rnd))
        action = "bet" if action == "bring_in" else action
        try:
            rnd.verify(p, action, amount)
        except BettingError as exc:
            out.append(self._violation(ViolationKind.ILLEGAL_DECISION, str(exc), _RULE_CITATION.get(exc.rule, "turn"),
                                       eid, p, amount))
        # follow the table whatever the verdict: the turn passes, the chips are in
        rnd.act(p, action, amount, check=False)
        if action == "fold":
            self.folded.add(p)
        if action in ("bet", "raise"):
            self.last_bettor = p
        return out

    def _board_card(self, event: CardDealt, eid: str) -> list[Violation]:
        out: list[Violation] = []
        bounds = [sum(self.variant.streets[:k]) for k in range(len(self.variant.streets))]
        if len(self.board) in bounds:  # the first card of a street: the interval before it must be over
            if self.interval is not None and not self.interval.over and len(self.interval.live) > 1:
                out.append(self._violation(ViolationKind.PROCEDURE, f"board card {event.card} turned before the "
                                           "betting interval was over (a premature card)", "premature_board", eid))
            self._close_interval()
        self.board.append(event.card)
        return out

    def _close_interval(self) -> None:
        if self.interval is not None:
            self.pot_before = self.interval.pot_now()
        elif self.street == 0:
            self.pot_before = self.antes + sum(self.blinds.values(), ZERO)
        self.interval = None
        self.street += 1

    # ------------------------------------------------------------------ the verdict
    def _pots(self) -> Pots:
        contributing = {p: self.put[p] for p in self.seats if self.put[p] > 0 or p not in self.folded}
        folded = [p for p in self.folded if p in contributing]
        all_in = [p for p in contributing if p not in self.folded and self._behind(p) == 0]
        try:
            return build_pots(contributing, folded, all_in)
        except PotError:  # the hand ended with the betting open: each plays for what he put in (check())
            return build_pots(contributing, folded, [p for p in contributing if p not in self.folded])

    def _rakes(self, pots: Pots) -> list[Decimal]:
        """The rake off each pot: the rate x all the pots, rounded down, main pot first."""
        rate = revenue.rake_rate(self.ctx)
        left = (pots.total * rate).quantize(CENT, rounding=ROUND_DOWN)
        out = []
        for pot in pots.pots:
            take = min(left, pot.amount)
            out.append(take)
            left -= take
        return out

    def _winners(self, pot: Pot, live: list[str]) -> tuple[tuple[str, ...], str]:
        barred = self.rules.barred()
        contenders = [p for p in pot.eligible if p not in self.mucked and p not in barred]
        if len(live) == 1:
            return (live[0],), "uncontested"
        if len(contenders) == 1:
            return (contenders[0],), "muck"
        try:
            return winners(pot, {p: c for p, c in self.shown.items() if p in contenders}, self.board,
                           self.variant.hand), "cards_speak"
        except ShowdownError:
            return tuple(contenders or pot.eligible), "showdown"

    def expected_awards(self) -> tuple[dict[str, Decimal], dict[str, str], Decimal]:
        """``(player -> euros due back, player -> citation key of why, the rake due)``, derived once
        per state of the hand (the pots and the showdown are the costly part of a hand). Raises
        :class:`~pitwatch.rules.poker.pots.PotError` when the chips cannot make pots."""
        if self._awards is None:
            self._awards = self._derive_awards()
        return self._awards

    def _derive_awards(self) -> tuple[dict[str, Decimal], dict[str, str], Decimal]:
        due: dict[str, Decimal] = {p: ZERO for p in self.put}
        if not any(self.put.values()):
            return due, {}, ZERO
        pots = self._pots()
        why: dict[str, str] = {}
        if pots.returned:
            due[pots.returned_to] += pots.returned
            why[pots.returned_to] = "side_pots"
        live = [p for p in self.seats if p not in self.folded]
        rakes = self._rakes(pots)
        had_odd: set[str] = set()  # one odd chip per player in the hand (IX.24, pots.split_pot)
        for pot, taken in zip(pots.pots, rakes):
            won, key = self._winners(pot, live)
            shares = split_pot(pot.amount - taken, won, self.last_bettor, had_odd=had_odd)
            low = min(shares.values())
            had_odd.update(p for p, amount in shares.items() if amount > low)
            for p, amount in shares.items():
                due[p] += amount
                why[p] = "split_pot" if len(won) > 1 else key
        return due, why, sum(rakes, ZERO)

    def settle(self) -> list[ExpectedSettlement]:
        try:
            due, why, _ = self.expected_awards()
        except PotError as exc:
            raise RuleError(f"hand {self.round_id}: {exc}", self._cite("side_pots")) from None
        out = []
        for p, stake in self.put.items():
            back = due.get(p, ZERO)
            if stake == 0 and back == 0:
                continue
            outcome = ("win" if back > stake else "push" if back == stake and stake > 0
                       else "fold" if p in self.folded else "lose")
            out.append(ExpectedSettlement(
                bet_id_of(self.round_id, p), p, SPOT, stake, outcome, back, ZERO,
                self._cite(why.get(p, "fold" if p in self.folded else "showdown")),
                f"{p} put in {stake}, is due {back}", forced=self.forced.get(p, ZERO)))
        return out

    def check(self) -> list[Violation]:
        try:
            _, _, rake_due = self.expected_awards()
        except PotError:
            return []
        out = self.rules.check()
        if self.interval is not None and not self.interval.over:
            out.append(Violation(ViolationKind.PROCEDURE, f"hand {self.round_id} ended with the betting interval open "
                                 f"({self.interval.to_act} to act): each player in plays for what he put in",
                                 self._cite("side_pots")))
        diff = self.rake_recorded - rake_due
        if diff == 0:
            return out
        form = self.ctx.option("revenue")
        how = (f"{revenue.rake_rate(self.ctx)} of the pots, rounded down" if form == "rake"
               else f"the table takes its benefit per session ({form}), no rake")
        return out + [Violation(ViolationKind.RAKE_DISCREPANCY,
                          f"hand {self.round_id}: {self.rake_recorded} EUR put in the cagnotte, {rake_due} due "
                          f"({how}): {abs(diff)} EUR {'too much' if diff > 0 else 'too little'}",
                          self._cite("rake"), tuple(self.rake_events), None, None, diff)]

    def void(self, reason: str) -> list[ExpectedSettlement]:
        cite = self._cite("void_round")
        return [ExpectedSettlement(bet_id_of(self.round_id, p), p, SPOT, s, "void", s, ZERO, cite,
                                   f"hand voided: {reason}") for p, s in self.put.items()]

    def finish(self) -> None:
        """Count the hand in the session (:func:`pitwatch.rules.poker.revenue.hand_played`)."""
        revenue.hand_played(self.ctx)

    @staticmethod
    def on_table_event(ctx: TableContext, event: EventBase) -> list[Violation]:
        """``chips_transferred`` between players is a loan (004 L4235-L4236, V.f); the session's
        benefit at the opening, at each ``session_fee_taken`` and at the close
        (:mod:`pitwatch.rules.poker.revenue`)."""
        if type(event) is TableOpened:
            return revenue.table_opened(ctx, event)
        if type(event) is SessionFeeTaken:
            return revenue.fee_taken(ctx, event)
        if type(event) is TableClosed:
            return revenue.session_closed(ctx, event)
        if type(event) is ChipsTransferred:
            return PokerRound.chips_transferred(ctx, event)
        return []

    @staticmethod
    def chips_transferred(ctx: TableContext, event: ChipsTransferred) -> list[Violation]:
        """Chips passed from one player to another: money lent between players, a ``prohibited_play``
        (V.f)."""
        return [Violation(ViolationKind.PROHIBITED_PLAY, f"{event.amount} of chips passed from {event.from_player} to "
                          f"{event.to_player}: money lent between players", ctx.ruleset.cite("prohibited_loans"),
                          (str(event.event_id),), None, event.from_player, event.amount)]

    def actions_taken(self) -> tuple[tuple[int, str, str, bool], ...]:
        """Every ``poker_action`` of the hand in order, ``(interval, player, action, open)``: forced
        bets and the first interval are 0, each board card street one more; ``open`` whether he could
        have bet or raised instead (:meth:`~pitwatch.rules.poker.betting.BettingRound.may_raise`;
        false for a forced bet)."""
        return tuple(self.taken)

    def outcome(self) -> str:
        board = " ".join(self.board)
        paid = ", ".join(f"{p} {a}" for p, a in self.awarded.items() if a > 0)
        return f"board {board or '-'}; paid {paid or 'nobody'}"



__all__ = ["SPOT", "PokerRound", "bet_id_of"]


SPEC = GameSpec(
    game="poker", round=PokerRound, model=PokerRuleset, title="Póquer en círculo",
    names=("Póquer en círculo", "Circle poker"), simulator="pitwatch.sim.poker",
    edges="pitwatch.rules.edges.poker", peer=True,
    cited_by={
        "variants.holdem": ("holdem",),
        "variants.omaha": ("omaha",),
        "variants.stud": ("stud",),
        "variants.stud.players": ("stud",),
        "variants.stud.first_opener": ("bring_in",),
        "variants.stud.suits": ("bring_in",),
        "variants.stud.later_opener": ("stud_opener",),
        "variants.stud.hole_cards": ("stud", "stud_cards"),
        "variants.draw": ("draw",),
        "variants.draw.opening_pair": ("draw_open", "false_opener"),
        "variants.draw.max_discard": ("draw_discard",),
        "variants.draw.later_opener": ("draw_order",),
        "forced_bets.small_blind": ("blinds",),
        "forced_bets.big_blind": ("blinds",),
        "forced_bets.ante_max_fraction": ("ante",),
        "betting.raise_multiple": ("raise",),
        "betting.fixed_limit_raises": ("fixed_limit",),
        "betting.fixed_limit_low_streets": ("fixed_limit",),
        "revenue": ("rake",),
        "revenue.session_rate_min": ("session_rate",),
        "revenue.session_rate_max": ("session_rate",),
        "revenue.session_postre": ("session_length",),
        "options.variant": ("holdem", "omaha", "stud", "draw"),
        "options.structure": ("no_limit", "pot_limit", "fixed_limit", "stud_limits"),
        "options.rake_rate": ("rake",),
        "options.revenue": ("rake", "session_rate", "session_fee"),
        "options.session_rate": ("session_rate",),
        "options.session_base": ("session_rate",),
        "options.initial_stack": ("session_rate",),
        "options.session_fee": ("session_fee",),
    },
    not_checked={
        "andalucia": (
            Gap("five stud póquer is not played by the engine", "004 L5187-L5232"),
            Gap("Omaha cinco cartas is not played by the engine", "004 L5352-L5396"),
            Gap("Omaha high low is not played by the engine", "004 L5398-L5440"),
            Gap("doble hold'em is not played by the engine", "004 L5475-L5538"),
            Gap("póquer sintético is not played by the engine", "004 L5540-L5663"),
            Gap("the marca advancing one seat each deal (across hands)", "004 L4453-L4458"),
            Gap("five-card draw: blank hands and the higher opening pairs after them (across hands); the 32-card deck",
                "004 L4863-L4873, L4833-L4835"),
            Gap("seven stud: the common seventh card when the deck runs out, and the remedies of the dealing errors",
                "004 L5085-L5185"),
            Gap("prohibitions no event records: cards taken from view, comments on the play, influencing it, hidden "
                "chips, cascading bets", "004 L4239-L4246, L4254-L4257, L4264-L4272"),
        ),
    },
)
"""The game's spec (:mod:`pitwatch.rules.registry`): its round, ruleset model, edges, labels, simulator,
and the ruleset keys' citations for the generated docs."""
