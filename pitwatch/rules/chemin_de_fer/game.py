"""Chemin de fer as a game of the engine: one coup is one round.

The events of a coup are described in :mod:`pitwatch.schemas.chemin_de_fer`. The round follows the coup
under the ruleset ``chemin_de_fer.<jurisdiction>`` and the table's options (``banco_free_play``,
``bank_unlimited``):

- **The bank** (:mod:`.bank`): who holds it and how much is in play; passed on after a loss, never reduced
  by a banker who goes on, taken in turn at no less than a bank given up, the garage.
- **The stakes** (:mod:`.stakes`): who holds the punto's cards (the banco calls and their precedence, the
  highest seated stake), which stakes cover the bank, the rest handed back; a seated player's stake
  joined to others' is a ``prohibited_play`` (000 L650; 004 L2236-L2238).
- **The coup** (:mod:`.coup`): the deal, the naturals, the punto rule, the banker's draw (free but on
  «bacará», bound by the tableau once he asked for it).
- **The house** takes the cagnotte on the bank's winnings (``rake_taken``); a cagnotte recorded other than
  the rate x the bank's winnings, rounded with the ruleset, is a ``rake_discrepancy`` of the difference.

For the engine's accounting each stake is one settlement (its ``bet_placed`` id) and the bank is one
more, bet id ``<round_id>:bank``, player the banker, spot ``bank``: its stake is the bank in play (the
stakes covering it: the rest of the bank is the garaje obligatorio, not in play), returned what the
banker gets back (the bank, plus the stakes it won less the cagnotte; nothing if it lost; the bank on a
tie). The croupier's ``settlement_recorded`` of each (the bank's too) are compared with them. Every euro
staked comes back to a punter or the banker except the cagnotte: the table's win on a coup is exactly
its cagnotte.
"""

from __future__ import annotations

from decimal import Decimal

from pitwatch.rules.base import Bet, ExpectedSettlement, Violation, ViolationKind
from pitwatch.rules.chemin_de_fer.bank import CheminCarry, PutUp, after_coup, check_put_up
from pitwatch.rules.chemin_de_fer.banked import BANK_SPOT, BankedRound, bank_bet_id
from pitwatch.rules.chemin_de_fer.coup import BANK_HAND, PUNTO_HAND, judge_coup, rules_of, totals
from pitwatch.rules.chemin_de_fer.stakes import BANCO_SPOTS, Cover, bank_return, cover, stake_return, winner
from pitwatch.rules.game import TableContext
from pitwatch.rules.models.chemin_de_fer import CheminDeFerRuleset
from pitwatch.rules.spec import GameSpec, Gap
from pitwatch.schemas.chemin_de_fer import BankPutUp, StakeJoined
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import ShoeCut, ShoeLoaded
from pitwatch.schemas.money import ZERO


class CheminDeFerRound(BankedRound):
    """One coup of chemin de fer (module docstring)."""

    game = "chemin_de_fer"
    carry_type = CheminCarry
    label = "chemin de fer"

    def __init__(self, ctx: TableContext, round_id: str, last_of_session: bool = False):
        super().__init__(ctx, round_id, last_of_session)
        self.rules = rules_of(ctx.ruleset)
        self.prev = ctx.carry_as(CheminCarry).bank

    def bank_in_play(self) -> Decimal:
        """The bank the stakes may cover: the amount put up, at most ``max_multiple`` x the table minimum
        unless the table plays an unlimited bank (the rest is the garaje impropio); 0 before ``bank_put_up``."""
        if self.put is None:
            return ZERO
        if self.ctx.option("bank_unlimited") == "true":
            return self.put.amount
        return min(self.put.amount, self.rules.bank_max_multiple * self.ctx.min_bet)

    def _cover(self) -> Cover:
        seguido = self.prev.seguido if self.prev is not None else None
        return cover(self.stakes(), self.bank_in_play(), self.put.seat if self.put else None, seguido)

    def _cagnotte(self, won: str | None, in_play: Decimal) -> Decimal:
        return self.ctx.ruleset.round(in_play * self.rules.cagnotte_rate) if won == "banca" else ZERO

    # ------------------------------------------------------------------ events
    def on_bet(self, bet: Bet) -> list[Violation]:
        """A stake: a spot of the game, at least the punto minimum (the table minimum)."""
        if bet.spot not in self.rules.spots:
            return [self._flag(ViolationKind.INVALID_BET, f"bet {bet.bet_id}: {bet.spot!r} is not a stake of chemin de "
                               f"fer ({', '.join(self.rules.spots)})", "bets", (bet.event_id,), bet.player_id,
                               bet.stake, bet.bet_id)]
        if bet.stake < self.ctx.min_bet:
            return [self._flag(ViolationKind.BET_BELOW_MINIMUM, f"stake {bet.bet_id} of {bet.stake} is below the punto "
                               f"minimum {self.ctx.min_bet}", "punto_limits", (bet.event_id,), bet.player_id,
                               self.ctx.min_bet - bet.stake, bet.bet_id)]
        return []

    def bank_put_up(self, event: BankPutUp) -> list[Violation]:
        """The bank put up for the coup: a second one in a coup, and each rule of the bank it breaks after the
        last coup (:func:`~pitwatch.rules.chemin_de_fer.bank.check_put_up`), a ``procedure`` violation."""
        eid = str(event.event_id)
        if self.put is not None:
            return [self._flag(ViolationKind.PROCEDURE, f"a second bank put up in coup {self.round_id}", "bank_passes",
                               (eid,), event.banker_id, event.amount)]
        self.put = PutUp(event.banker_id, event.amount, event.seat, event.taken, event.garage, eid)
        return [self._flag(ViolationKind.PROCEDURE, message, key, (eid,), event.banker_id, event.amount)
                for key, message in check_put_up(self.prev, self.put, self.ctx.min_bet, self.rules.garage_min_multiple)]

    def stake_joined(self, event: StakeJoined) -> list[Violation]:
        """A player's chips joined to another's stake: forbidden when either player is seated (000 L650;
        004 L2236-L2238)."""
        eid = str(event.event_id)
        bet = self.bets.get(event.bet_id)
        if bet is None:
            return [self._flag(ViolationKind.PROCEDURE, f"{event.player_id} joined stake {event.bet_id}, which is not "
                               "on the table", "joined_stakes", (eid,), event.player_id, event.amount)]
        self.joined.setdefault(bet.bet_id, []).append((event.player_id, event.seat, eid))
        seated = [f"{p} (seat {s})" for p, s in ((event.player_id, event.seat), (bet.player_id, bet.box)) if s is not None]
        if not seated:
            return []
        return [self._flag(ViolationKind.PROHIBITED_PLAY, f"{event.player_id} joined {event.amount} to {bet.player_id}'s "
                           f"stake {bet.bet_id}: a seated player's stake may not be joined to others' "
                           f"({', '.join(seated)} seated)", "joined_stakes", (bet.event_id, eid), event.player_id,
                           event.amount, bet.bet_id)]

    # ------------------------------------------------------------------ the verdict
    def settle(self) -> list[ExpectedSettlement]:
        """One settlement per stake and one for the bank (module docstring)."""
        cov = self._cover()
        won = winner(totals(self.cards))
        res = totals(self.cards)
        score = "coup not completely dealt" if res is None else f"punto {res[0]}, banca {res[1]}"
        out = []
        for b in self.bets.values():
            part = cov.covered.get(b.bet_id, ZERO)
            outcome, back = stake_return(b.stake, part, won, self.rules.payout)
            key = {"void": "void_round", "push": "void_round", "refused": "punto_limits"}.get(outcome, "stake_pays")
            out.append(ExpectedSettlement(b.bet_id, b.player_id, b.spot, b.stake, outcome, back, ZERO, self._cite(key),
                                          f"{score}: {part} of the stake in play against the bank",
                                          initial=part if part != b.stake and outcome != "refused" else None))
        if self.put is not None and cov.in_play > 0:
            cag = self._cagnotte(won, cov.in_play)
            outcome, back = bank_return(cov.in_play, won, self.rules.payout, cag)
            key = {"win": "cagnotte", "lose": "stake_pays"}.get(outcome, "void_round")
            out.append(ExpectedSettlement(bank_bet_id(self.round_id), self.put.banker, BANK_SPOT, cov.in_play, outcome,
                                          back, ZERO, self._cite(key),
                                          f"{score}: bank {self.put.amount}, {cov.in_play} in play, cagnotte {cag}"))
        return out

    def void(self, reason: str) -> list[ExpectedSettlement]:
        """A void coup: every stake and the bank in play are handed back."""
        out = super().void(reason)
        cov = self._cover()
        if self.put is not None and cov.in_play > 0:
            out.append(ExpectedSettlement(bank_bet_id(self.round_id), self.put.banker, BANK_SPOT, cov.in_play, "void",
                                          cov.in_play, ZERO, self._cite("void_round"), f"coup voided: {reason}"))
        return out

    def check(self) -> list[Violation]:
        """The deal (:func:`~pitwatch.rules.chemin_de_fer.coup.judge_coup`), the stakes against the bank, the
        player holding the cards and the cagnotte."""
        cov = self._cover()
        out = self._deal(cov) + self._stake_checks(cov)
        due = self._cagnotte(winner(totals(self.cards)), cov.in_play)
        return out + self._rake_check(due, self.rules.cagnotte_rate, cov.in_play, "cagnotte")

    def _deal(self, cov: Cover) -> list[Violation]:
        holder = cov.holder
        free = (holder is not None and holder.spot in BANCO_SPOTS and self.ctx.option("banco_free_play") == "true")
        faults = judge_coup(self.rules, self.cards, tableau_bound=self.tableau_asked, punto_free=free,
                            said={h: e for h, (_, _, e) in self.said.items()})
        banker = self.put.banker if self.put else None
        punto = self.said[PUNTO_HAND][0] if PUNTO_HAND in self.said else (holder.player_id if holder else None)
        return [self._flag(f.kind, f.message, f.rule, (f.event_id,), banker if f.hand == BANK_HAND else punto)
                for f in faults]

    def _stake_checks(self, cov: Cover) -> list[Violation]:
        out = []
        bank = self.bank_in_play()
        seguido = self.prev.seguido if self.prev is not None else None
        for b in self.bets.values():
            ev = (b.event_id,)
            if self.put is not None and b.stake > bank:
                out.append(self._flag(ViolationKind.BET_ABOVE_MAXIMUM, f"stake {b.bet_id} of {b.stake} is above the bank "
                                      f"of {bank}: the most a punto may stake", "punto_limits", ev, b.player_id,
                                      b.stake - bank, b.bet_id))
            elif b.spot in BANCO_SPOTS and self.put is not None and b.stake != bank:
                out.append(self._flag(ViolationKind.PROCEDURE, f"{b.player_id} called {b.spot} with {b.stake}: a banco is "
                                      f"a stake of the whole bank, {bank}", "punto_limits", ev, b.player_id, b.stake,
                                      b.bet_id))
            if b.spot == "banco_con_la_mesa" and self.put is not None and b.stake != bank * self.rules.con_la_mesa_fraction:
                out.append(self._flag(ViolationKind.PROCEDURE, f"{b.player_id} called banco con la mesa with {b.stake}: "
                                      f"its stake is half the bank, {bank * self.rules.con_la_mesa_fraction}",
                                      "banco_con_la_mesa", ev, b.player_id, b.stake, b.bet_id))
            if b.spot == "banco_seguido" and b.player_id != seguido:
                out.append(self._flag(ViolationKind.PROCEDURE, f"{b.player_id} called banco seguido without the right to "
                                      "it (only the player who made banco and lost): it counts as a banco",
                                      "banco_seguido", ev, b.player_id, b.stake, b.bet_id))
        said = self.said.get(PUNTO_HAND)
        if said is not None and cov.holder is not None and said[0] != cov.holder.player_id:
            key = "banco_priority" if cov.holder.spot in BANCO_SPOTS else (
                "banco_con_la_mesa" if cov.holder.spot in ("banco_con_la_mesa", "ultimo_completo") else "card_holder")
            out.append(self._flag(ViolationKind.PROCEDURE, f"{said[0]} held the punto's cards; they were "
                                  f"{cov.holder.player_id}'s ({cov.holder.spot} {cov.holder.amount})", key, (said[2],),
                                  said[0]))
        return out

    def finish(self) -> None:
        """Carry the bank to the next coup (:func:`~pitwatch.rules.chemin_de_fer.bank.after_coup`)."""
        if self.put is None:
            return
        cov = self._cover()
        won = winner(totals(self.cards))
        holder = cov.holder
        seguido = None
        if won == "banca" and holder is not None and (holder.spot in BANCO_SPOTS or len(self.bets) == 1):
            seguido = holder.player_id
        state = after_coup(self.prev, self.put, won, cov.in_play, self._cagnotte(won, cov.in_play), seguido)
        self.ctx.carry_as(CheminCarry).bank = state

    def outcome(self) -> str:
        """E.g. ``"punto 7 (KH 7S) - banca 6 (3D 3C): punto; bank 100.00 of P-1"``."""
        punto = " ".join(c for h, c, _ in self.cards if h == PUNTO_HAND)
        bank = " ".join(c for h, c, _ in self.cards if h == BANK_HAND)
        res = totals(self.cards)
        who = f"bank {self.put.amount} of {self.put.banker}" if self.put else "no bank"
        if res is None:
            return f"incomplete deal: punto {punto or '-'}, banca {bank or '-'}; {who}"
        return f"punto {res[0]} ({punto}) - banca {res[1]} ({bank}): {winner(res)}; {who}"

    @staticmethod
    def on_table_event(ctx: TableContext, event: EventBase) -> list[Violation]:
        """Decks in the shoe (``shoe_loaded``) and cards under the stop card (``shoe_cut``), each a
        ``procedure`` violation citing the ruleset; any other table event: none."""
        if type(event) is ShoeLoaded:
            return CheminDeFerRound.shoe_loaded(ctx, event)
        if type(event) is ShoeCut:
            return CheminDeFerRound.shoe_cut(ctx, event)
        return []

    @staticmethod
    def shoe_loaded(ctx: TableContext, event: ShoeLoaded) -> list[Violation]:
        """A shoe of other than the ruleset's ``decks`` (:meth:`BankedRound.shoe_decks`)."""
        return BankedRound.shoe_decks(ctx, event, rules_of(ctx.ruleset).decks)

    @staticmethod
    def shoe_cut(ctx: TableContext, event: ShoeCut) -> list[Violation]:
        """The stop card placed with other than the ruleset's ``cut_cards_behind`` cards below it."""
        rules = rules_of(ctx.ruleset)
        if event.cards_behind != rules.cut_cards_behind:
            return [Violation(ViolationKind.PROCEDURE, f"stop card placed with {event.cards_behind} cards below it; the "
                              f"rules require {rules.cut_cards_behind}", ctx.ruleset.cite("cut_card"),
                              (str(event.event_id),))]
        return []



__all__ = ["BANK_SPOT", "CheminDeFerRound", "bank_bet_id"]


SPEC = GameSpec(
    game="chemin_de_fer", round=CheminDeFerRound, model=CheminDeFerRuleset, title="Chemin de fer",
    names=("Chemin de fer", "Chemin de fer"), simulator="pitwatch.sim.chemin_de_fer",
    edges="pitwatch.rules.edges.chemin_de_fer", peer=True, baccarat_hands=True,
    cited_by={
        "spots": ("bets", "banco_priority", "banco_con_la_mesa", "banco_seguido"),
        "payouts.stake": ("stake_pays",),
        "cagnotte": ("cagnotte",),
        "bank.max_multiple": ("bank_limits", "garage"),
        "bank.garage_min_multiple": ("garage",),
        "bank.con_la_mesa_fraction": ("banco_con_la_mesa",),
        "deal.decks": ("cards",),
        "deal.cut_cards_behind": ("cut_card",),
        "deal.initial_order": ("coup_deal",),
        "deal.naturals": ("naturals",),
        "deal.punto_draws": ("punto_rule",),
        "deal.punto_options": ("punto_rule",),
        "deal.punto_stands": ("punto_rule",),
        "deal.banca_draws": ("banker_rule",),
        "tableau": ("banca_tableau",),
        "options.banco_free_play": ("banco_free_play",),
        "options.bank_unlimited": ("bank_limits",),
    },
    not_checked={
        "galicia": (
            Gap("the bank's rotation, its offers and auction, the previous banker's one-coup right to the cards and "
                "the new banker's duty to deal once (offers declined and bids are no events)", "000 L568-L590"),
            Gap("the minimum of four players at the table", "000 L632"),
            Gap("the remedies of the errors (cards reassigned, discarded, deemed 9 or bacará): the coup is settled on "
                "the cards dealt", "000 L691-L741"),
            Gap("stakes on the line playing half", "000 L741"),
        ),
        "andalucia": (
            Gap("the bank's rotation, its offers and auction, the previous banker's one-coup right to the cards and "
                "the new banker's duty to deal once (offers declined and bids are no events)", "004 L1983-L2068"),
            Gap("the minimum of four players at the table", "004 L2180-L2181"),
            Gap("the remedies of the errors (cards reassigned, discarded, deemed 9 or bacará): the coup is settled on "
                "the cards dealt", "004 L2311-L2458"),
            Gap("stakes on the line playing half", "004 L2449-L2450"),
        ),
    },
)
"""The game's spec (:mod:`pitwatch.rules.registry`): its round, ruleset model, edges, labels, simulator,
and the ruleset keys' citations for the generated docs."""
