"""Bacará a dos paños as a game of the engine: one coup is one round.

The events of a coup are chemin de fer's with the additions of :mod:`pitwatch.schemas.dos_panos`. The
round follows the coup under the ruleset ``bacara_dos_panos.<jurisdiction>`` and the table's options
(``bank``: ``limitada`` or ``libre``; ``bank_maximum``):

- **The bank** (:mod:`.bank`): adjudicated at an auction to the highest bidder, offered in turn at the
  initial amount, kept with its winnings, a new deposit after it «saltó», no return in the shoe for a
  banker who left winning; a limited bank constituted above the table's maximum.
- **The stakes** (:mod:`.stakes`): on a paño, on the lines (half; «a caballo» half on each paño), banco
  on both paños once a partida (repeated up to twice after a «juego nulo»); a limited bank covers them
  in the order of priority up to its amount, a free bank all of them; chips of several punters in one
  stake are a ``prohibited_play`` (000 L815; 004 L2686).
- **The deal** (:mod:`.deal`): the order of the cards, the naturals, the punto rule on each paño (free for
  a banco), the banker's one draw (on «bacará», and by the tableau he asked for where it says the same
  for both paños), cards lost voiding a paño or the coup; the holders of the paños' cards.
- **The house** takes the cagnotte on the bank's net win over both paños (``rake_taken``); a cagnotte
  recorded other than the rate of the modality x that net, rounded with the ruleset, is a
  ``rake_discrepancy``.

For the engine's accounting each stake is one settlement (its ``bet_placed`` id) and the bank one more,
bet id ``<round_id>:bank``, spot ``bank``: its stake the bank in play on both paños, returned what the
banker gets back (each paño's part back, plus what it won there, less the cagnotte). Every euro staked
comes back to a punter or the banker except the cagnotte: the table's win on a coup is its cagnotte.
"""

from __future__ import annotations

from decimal import Decimal

from pitwatch.rules.base import Bet, ExpectedSettlement, Violation, ViolationKind
from pitwatch.rules.chemin_de_fer.bank import PutUp
from pitwatch.rules.chemin_de_fer.banked import BANK_SPOT, BankedRound, bank_bet_id
from pitwatch.rules.chemin_de_fer.coup import BANK_HAND
from pitwatch.rules.dos_panos.bank import PanosBank, PanosCarry, barred, check_put_up, new_shoe
from pitwatch.rules.dos_panos.deal import NAMES, hands, judge_deal, results, rules_of
from pitwatch.rules.dos_panos.stakes import (
    BANCO,
    PanosCover,
    bank_net,
    bank_settlement,
    cagnotte,
    cover,
    juego_nulo,
    stake_settlement,
)
from pitwatch.rules.game import TableContext
from pitwatch.rules.models.bacara_dos_panos import DosPanosRuleset
from pitwatch.rules.spec import GameSpec, Gap
from pitwatch.schemas.chemin_de_fer import BankPutUp, StakeJoined
from pitwatch.schemas.dos_panos import PANOS, BankAuctioned, CardsLost
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import ShoeCut, ShoeLoaded
from pitwatch.schemas.money import ZERO


class DosPanosRound(BankedRound):
    """One coup of bacará a dos paños (module docstring)."""

    game = "bacara_dos_panos"
    carry_type = PanosCarry
    label = "bacará a dos paños"

    def __init__(self, ctx: TableContext, round_id: str, last_of_session: bool = False):
        super().__init__(ctx, round_id, last_of_session)
        self.rules = rules_of(ctx.ruleset)
        self.prev = ctx.carry_as(PanosCarry).bank
        self.auction: tuple[str, Decimal, str] | None = None
        """The coup's ``bank_auctioned``: (banker, amount, event id)."""
        self.lost: set[str] = set()
        """The hands whose cards fell into the cesta unseen."""

    # ------------------------------------------------------------------ helpers
    def free_bank(self) -> bool:
        """Whether the table plays a banca libre (option ``bank``)."""
        return self.ctx.option("bank") == "libre"

    def _cover(self) -> PanosCover:
        bank = None if self.free_bank() else (self.put.amount if self.put is not None else ZERO)
        return cover(self.stakes(), bank, self.ctx.min_bet, self.rules.raya_fraction)

    def _won(self) -> dict[str, str | None]:
        return results(self.rules, self.cards, frozenset(self.lost))

    def _cagnotte(self, net: Decimal) -> Decimal:
        return cagnotte(net, self.rules.rates[self.ctx.option("bank")], self.ctx.ruleset.rounding)

    # ------------------------------------------------------------------ events
    def on_bet(self, bet: Bet) -> list[Violation]:
        """A stake: a spot of the game, at least the table minimum and, with a limited bank, at most the
        table maximum (000 L791, L795; 004 L2615-L2618, L2625-L2627)."""
        ev = (bet.event_id,)
        if bet.spot not in self.rules.spots:
            return [self._flag(ViolationKind.INVALID_BET, f"bet {bet.bet_id}: {bet.spot!r} is not a stake of bacará a "
                               f"dos paños ({', '.join(self.rules.spots)})", "bets", ev, bet.player_id, bet.stake,
                               bet.bet_id)]
        if bet.stake < self.ctx.min_bet:
            return [self._flag(ViolationKind.BET_BELOW_MINIMUM, f"stake {bet.bet_id} of {bet.stake} is below the table "
                               f"minimum {self.ctx.min_bet}", "stake_limits", ev, bet.player_id,
                               self.ctx.min_bet - bet.stake, bet.bet_id)]
        if bet.stake > self.ctx.max_bet and not self.free_bank():
            return [self._flag(ViolationKind.BET_ABOVE_MAXIMUM, f"stake {bet.bet_id} of {bet.stake} is above the table "
                               f"maximum {self.ctx.max_bet}", "stake_limits", ev, bet.player_id,
                               bet.stake - self.ctx.max_bet, bet.bet_id)]
        return []

    def on_event(self, event: EventBase) -> list[Violation]:
        """The events bacará a dos paños adds (``cards_lost``, ``bank_auctioned``), each to its own operation;
        the others as at chemin de fer (:meth:`BankedRound.on_event`)."""
        if type(event) is CardsLost:
            return self.cards_lost(event)
        if type(event) is BankAuctioned:
            return self.bank_auctioned(event)
        return super().on_event(event)

    def cards_lost(self, event: CardsLost) -> list[Violation]:
        """Cards of a hand fell into the cesta unseen: that paño (the bank's: both) is void, judged at the end
        of the coup. Returns no violation."""
        self.lost.add(event.hand)
        return []

    def bank_auctioned(self, event: BankAuctioned) -> list[Violation]:
        """The bank adjudicated to the highest bidder; equal bids drawn by lot (000 L783; 004 L2584-L2587)."""
        eid = str(event.event_id)
        self.auction = (event.banker_id, event.amount, eid)
        top = max(b.amount for b in event.bids)
        best = sorted({b.player_id for b in event.bids if b.amount == top})
        if event.amount == top and event.banker_id in best:
            return []
        return [self._flag(ViolationKind.PROCEDURE, f"the bank was adjudicated to {event.banker_id} for {event.amount}; "
                           f"the highest bid was {top}, by {', '.join(best)}", "bank_auction", (eid,), event.banker_id,
                           event.amount)]

    def bank_put_up(self, event: BankPutUp) -> list[Violation]:
        """The bank put up for the coup: a second one in a coup, and each rule of the bank it breaks after the
        last coup and the auction (:func:`~pitwatch.rules.dos_panos.bank.check_put_up`), a ``procedure``
        violation."""
        eid = str(event.event_id)
        if self.put is not None:
            return [self._flag(ViolationKind.PROCEDURE, f"a second bank put up in coup {self.round_id}", "bank_kept",
                               (eid,), event.banker_id, event.amount)]
        self.put = PutUp(event.banker_id, event.amount, event.seat, event.taken, event.garage, eid)
        maximum = self.ctx.option("bank_maximum")
        limit = Decimal(maximum) if maximum and not self.free_bank() else None
        eids = (eid,) if self.auction is None else (self.auction[2], eid)
        return [self._flag(ViolationKind.PROCEDURE, message, key, eids, event.banker_id, event.amount)
                for key, message in check_put_up(self.prev, self.put, self.auction, limit)]

    def stake_joined(self, event: StakeJoined) -> list[Violation]:
        """Chips of another punter in a stake: «juego en asociación», forbidden to every punto (000 L815;
        004 L2686)."""
        eid = str(event.event_id)
        bet = self.bets.get(event.bet_id)
        if bet is None:
            return [self._flag(ViolationKind.PROCEDURE, f"{event.player_id} joined stake {event.bet_id}, which is not "
                               "on the table", "association", (eid,), event.player_id, event.amount)]
        self.joined.setdefault(bet.bet_id, []).append((event.player_id, event.seat, eid))
        return [self._flag(ViolationKind.PROHIBITED_PLAY, f"{event.player_id} joined {event.amount} to {bet.player_id}'s "
                           f"stake {bet.bet_id}: the puntos may not play in association", "association",
                           (bet.event_id, eid), event.player_id, event.amount, bet.bet_id)]

    # ------------------------------------------------------------------ the verdict
    def settle(self) -> list[ExpectedSettlement]:
        """One settlement per stake and one for the bank (module docstring)."""
        cov = self._cover()
        won = self._won()
        score = self._score(won)
        out = []
        for s in self.stakes():
            outcome, back = stake_settlement(s, cov, won, self.rules.payout)
            played = cov.played(s.bet_id)
            key = {"void": "void_round", "push": "void_round", "refused": "banco" if cov.banco else "modality"}.get(
                outcome, "stake_pays")
            out.append(ExpectedSettlement(s.bet_id, s.player_id, s.spot, s.amount, outcome, back, ZERO, self._cite(key),
                                          f"{score}: {played} of the stake in play against the bank",
                                          initial=played if played != s.amount and outcome != "refused" else None))
        in_play = sum(cov.in_play.values(), ZERO)
        if self.put is not None and in_play > 0:
            net = bank_net(cov, won, self.rules.payout)
            cag = self._cagnotte(net)
            outcome, back = bank_settlement(cov, won, self.rules.payout, cag)
            key = "cagnotte_net" if cag > 0 else "stake_pays" if outcome in ("win", "lose") else "void_round"
            out.append(ExpectedSettlement(bank_bet_id(self.round_id), self.put.banker, BANK_SPOT, in_play, outcome,
                                          back, ZERO, self._cite(key), f"{score}: bank {self.put.amount}, "
                                          f"{in_play} in play, net {net}, cagnotte {cag}"))
        return out

    def void(self, reason: str) -> list[ExpectedSettlement]:
        """A void coup: every stake and the bank in play are handed back."""
        out = super().void(reason)
        in_play = sum(self._cover().in_play.values(), ZERO)
        if self.put is not None and in_play > 0:
            out.append(ExpectedSettlement(bank_bet_id(self.round_id), self.put.banker, BANK_SPOT, in_play, "void",
                                          in_play, ZERO, self._cite("void_round"), f"coup voided: {reason}"))
        return out

    def check(self) -> list[Violation]:
        """The deal (:func:`~pitwatch.rules.dos_panos.deal.judge_deal`), the banco, the holders of the
        cards and the cagnotte."""
        cov = self._cover()
        out = self._deal(cov) + self._banco_checks(cov) + self._holder_checks(cov)
        net = bank_net(cov, self._won(), self.rules.payout)
        return out + self._rake_check(self._cagnotte(net), self.rules.rates[self.ctx.option("bank")], net,
                                      "cagnotte_net")

    def _deal(self, cov: PanosCover) -> list[Violation]:
        free = frozenset(PANOS) if cov.banco is not None else frozenset()
        faults = judge_deal(self.rules, self.cards, lost=frozenset(self.lost), tableau_bound=self.tableau_asked,
                            free=free, said={h: e for h, (_, _, e) in self.said.items()})
        banker = self.put.banker if self.put else None
        banco = cov.banco.player_id if cov.banco else None
        return [self._flag(f.kind, f.message, f.rule, (f.event_id,),
                           banker if f.hand == BANK_HAND else self.said[f.hand][0] if f.hand in self.said else banco)
                for f in faults]

    def _banco_checks(self, cov: PanosCover) -> list[Violation]:
        """A banco: the whole bank, called once at the start of the partida, repeated by its player after a
        juego nulo at most ``banco_repeats`` times (000 L813; 004 L2675-L2684)."""
        out = []
        first = self.prev is None or self.prev.coups == 0
        for s in self.stakes():
            if s.spot != BANCO:
                continue
            ev = (self.bets[s.bet_id].event_id,)
            if self.put is not None and s.amount != self.put.amount:
                out.append(self._flag(ViolationKind.PROCEDURE, f"{s.player_id} called banco with {s.amount}: a banco is a "
                                      f"stake of the whole bank, {self.put.amount}", "banco", ev, s.player_id, s.amount,
                                      s.bet_id))
            if first or self.prev is None:
                continue
            if self.prev.banco == s.player_id and self.prev.repeats >= self.rules.banco_repeats:
                out.append(self._flag(ViolationKind.PROCEDURE, f"{s.player_id}'s banco repeated after a juego nulo "
                                      f"{self.prev.repeats + 1} times: at most {self.rules.banco_repeats}", "juego_nulo",
                                      ev, s.player_id, s.amount, s.bet_id))
            elif self.prev.banco != s.player_id:
                out.append(self._flag(ViolationKind.PROCEDURE, f"{s.player_id} called banco in coup {self.prev.coups + 1} "
                                      "of the partida: banco is called once, at its start (or repeated after a juego "
                                      "nulo)", "banco", ev, s.player_id, s.amount, s.bet_id))
        return out

    def _holder_checks(self, cov: PanosCover) -> list[Violation]:
        """The cards of a paño in the hands of a seated player (or the banco's), passed on when the bank won
        the paño (000 L779; 004 L2564-L2573)."""
        out = []
        seated = {b.player_id for b in self.bets.values() if b.box is not None}
        for p in PANOS:
            if p not in self.said:
                continue
            player, _, eid = self.said[p]
            if cov.banco is not None:
                if player != cov.banco.player_id:
                    out.append(self._flag(ViolationKind.PROCEDURE, f"{player} held the cards of {NAMES[p]}: they were "
                                          f"{cov.banco.player_id}'s, who made banco", "banco", (eid,), player))
                continue
            if player not in seated:
                out.append(self._flag(ViolationKind.PROCEDURE, f"{player} held the cards of {NAMES[p]} without a seated "
                                      "stake: only the players seated in the numbered seats handle the cards",
                                      "card_holder", (eid,), player))
            elif self.prev is not None and p in self.prev.bank_won and self.prev.holders.get(p) == player:
                out.append(self._flag(ViolationKind.PROCEDURE, f"{player} held the cards of {NAMES[p]} again after the "
                                      "bank won it: the cards pass to the next seat", "card_holder", (eid,), player))
        return out

    def finish(self) -> None:
        """Carry the bank to the next coup (:class:`~pitwatch.rules.dos_panos.bank.PanosBank`)."""
        if self.put is None:
            return
        prev, put = self.prev, self.put
        cov = self._cover()
        won = self._won()
        net = bank_net(cov, won, self.rules.payout)
        same = prev is not None and prev.banker == put.banker
        banco, repeats = None, 0
        if cov.banco is not None and juego_nulo(won):
            banco = cov.banco.player_id
            repeats = prev.repeats + 1 if prev is not None and prev.banco == banco and prev.coups > 0 else 0
        state = PanosBank(
            banker=put.banker, seat=put.seat, initial=prev.initial if same and prev is not None else put.amount,
            after=put.amount + net - self._cagnotte(net), barred=barred(prev, put),
            coups=(prev.coups if prev is not None else 0) + 1,
            holders={p: self.said[p][0] for p in PANOS if p in self.said},
            bank_won=tuple(p for p in PANOS if won[p] == "banca"), banco=banco, repeats=repeats)
        self.ctx.carry_as(PanosCarry).bank = state

    def _score(self, won: dict[str, str | None]) -> str:
        dealt = hands(self.cards)
        parts = [f"{NAMES[h]} {' '.join(dealt.get(h, [])) or '-'}" + (" (lost)" if h in self.lost else "")
                 for h in (*PANOS, BANK_HAND)]
        verdict = ", ".join(f"{NAMES[p]}: {won[p] or 'void'}" for p in PANOS)
        return f"{'; '.join(parts)} => {verdict}" + ("; juego nulo" if juego_nulo(won) else "")

    def outcome(self) -> str:
        """E.g. ``"the first paño KH 7S; the second paño 2C 3D 9H; the bank 3D 3C 2S => the first paño:
        punto, the second paño: tie; bank 500.00 of A"``."""
        who = f"bank {self.put.amount} of {self.put.banker}" if self.put else "no bank"
        return f"{self._score(self._won())}; {who}"

    @staticmethod
    def on_table_event(ctx: TableContext, event: EventBase) -> list[Violation]:
        """Decks in the shoe (``shoe_loaded``, a new partida: the bank's state for the new shoe) and cards
        under the stop card (``shoe_cut``), each a ``procedure`` violation citing the ruleset; any other table
        event: none."""
        if type(event) is ShoeLoaded:
            return DosPanosRound.shoe_loaded(ctx, event)
        if type(event) is ShoeCut:
            return DosPanosRound.shoe_cut(ctx, event)
        return []

    @staticmethod
    def shoe_loaded(ctx: TableContext, event: ShoeLoaded) -> list[Violation]:
        """A new partida: the bank's state for the new shoe (:func:`new_shoe`), and a procedure violation for
        a shoe of other than the ruleset's ``decks``."""
        carry = ctx.carry_as(PanosCarry)
        carry.bank = new_shoe(carry.bank)
        return BankedRound.shoe_decks(ctx, event, rules_of(ctx.ruleset).decks)

    @staticmethod
    def shoe_cut(ctx: TableContext, event: ShoeCut) -> list[Violation]:
        """The stop card placed with fewer than the ruleset's ``cut_cards_behind`` cards below it (other than
        them, where ``cut_exact``)."""
        rules = rules_of(ctx.ruleset)
        behind = event.cards_behind
        if behind < rules.cut_cards_behind or (rules.cut_exact and behind != rules.cut_cards_behind):
            need = "" if rules.cut_exact else "at least "
            return [Violation(ViolationKind.PROCEDURE, f"stop card placed with {behind} cards below it; the rules "
                              f"require {need}{rules.cut_cards_behind}", ctx.ruleset.cite("cut_card"),
                              (str(event.event_id),))]
        return []



__all__ = ["DosPanosRound"]


SPEC = GameSpec(
    game="bacara_dos_panos", round=DosPanosRound, model=DosPanosRuleset, title="Bacará a dos paños",
    names=("Bacará a dos paños", "Baccarat à deux tableaux"), simulator="pitwatch.sim.dos_panos",
    edges="pitwatch.rules.edges.dos_panos", peer=True, baccarat_hands=True,
    cited_by={
        "spots": ("bets", "a_caballo", "raya", "banco", "stake_priority"),
        "payouts.stake": ("stake_pays",),
        "cagnotte.limitada": ("cagnotte_rate",),
        "cagnotte.libre": ("cagnotte_rate",),
        "cagnotte.base": ("cagnotte_net",),
        "stakes.raya_fraction": ("raya",),
        "stakes.caballo_odd_to": ("a_caballo",),
        "stakes.banco_repeats": ("juego_nulo",),
        "deal.decks": ("cards",),
        "deal.cut_cards_behind": ("cut_card",),
        "deal.cut_rule": ("cut_card",),
        "deal.initial_order": ("coup_deal",),
        "deal.naturals": ("naturals",),
        "deal.natural_beats_drawn": ("natural_eight",),
        "deal.punto_draws": ("punto_rule",),
        "deal.punto_options": ("punto_rule",),
        "deal.punto_stands": ("punto_rule",),
        "deal.banca_draws": ("banker_rule",),
        "tableau": ("banca_tableau",),
        "options.bank": ("modality", "cagnotte_rate"),
        "options.bank_maximum": ("bank_limitada_max",),
    },
    not_checked={
        "galicia": (
            Gap("the lot between the paños when both call banco, and between equal bids for the bank", "000 L777, L783"),
            Gap("the minimum of two players per paño", "000 L817"),
            Gap("stakes placed right next to the bank or the croupier", "000 L821"),
            Gap("the bank's deposit at the cash desk; the free bank's one table and two sessions", "000 L785, L797"),
            Gap("the remedies of the errors: the coup is settled on the cards dealt", "000 L833-L885"),
        ),
        "andalucia": (
            Gap("the lot between the paños when both call banco, and between equal bids for the bank",
                "004 L2560-L2562, L2585-L2587"),
            Gap("the minimum of two players per paño", "004 L2688-L2692"),
            Gap("stakes placed right next to the banker or the croupier", "004 L2712-L2714"),
            Gap("the bank's deposit at the cash desk; the free bank's one table and two sessions",
                "004 L2589-L2593, L2636-L2639"),
            Gap("the remedies of the errors: the coup is settled on the cards dealt", "004 L2760-L2899"),
        ),
    },
)
"""The game's spec (:mod:`pitwatch.rules.registry`): its round, ruleset model, edges, labels, simulator,
and the ruleset keys' citations for the generated docs."""
