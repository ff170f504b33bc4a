"""The events of the player-banked baccarat: chemin de fer (ferrocarril, bacará; Galicia 000 L524-L741,
Andalucía 004 L1758-L2458). Bacará a dos paños, the same bank against two tableaux, reuses them
(:mod:`pitwatch.schemas.dos_panos` adds what it needs).

A coup is a round (``round_started`` ... ``round_ended``) whose events are, in order:

1. ``bank_put_up``: who holds the bank, from which seat, how he took it and the amount he puts in
   play («Hay ... euros en la banca», 000 L638; 004 L2201-L2206);
2. the stakes against the bank, as ``bet_placed`` (spot ``punto`` an ordinary stake, ``banco``,
   ``banco_seguido``, ``banco_con_la_mesa``, ``ultimo_completo``; ``box`` the seat of a seated player,
   none for a player standing behind); ``stake_joined`` when players put their chips together in one
   stake (forbidden to a seated player: 000 L650; 004 L2236-L2238); then ``bets_closed`` («No van
   más apuestas»);
3. ``tableau_requested`` if the banker asks the croupier for the «cuadro de jugadas de la banca»
   (000 L630; 004 L2172-L2175): he must then follow it;
4. the cards, ``card_dealt`` to ``punto`` (the hand of the player facing the bank) and ``banca``, and
   the draw decisions, ``draw_decision`` («carta» / «no»);
5. what the croupier did with the chips: ``rake_taken`` (the cagnotte put in its slot, 000 L666;
   004 L2286-L2292) and one ``settlement_recorded`` per stake and one for the bank (bet id
   ``<round_id>:bank``). These are the audited facts; the engine re-derives them and compares.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import Field

from pitwatch.schemas.envelope import Id, RoundEvent
from pitwatch.schemas.money import Money

TableSeat = Annotated[int, Field(ge=1, le=20)]
"""A seat («departamento») of the table, numbered from the croupier's right (000 L536; 004 L1790-L1793)."""

BANK_TAKEN = ("rotation", "kept", "auction", "imposed")
"""How the banker took the bank (``bank_put_up.taken``)."""

BankTaken = Literal["rotation", "kept", "auction", "imposed"]


class BankPutUp(RoundEvent):
    """``banker_id`` holds the bank for this coup and puts ``amount`` euros in play (the croupier
    announces «Hay ... euros en la banca»: 000 L638; 004 L2201-L2206). ``seat`` is his seat, none
    when he stands. ``taken``: ``rotation`` (offered in turn), ``kept`` (he won the last coup and goes
    on), ``auction`` (adjudicated to the highest bidder), ``imposed`` (nobody took it: it returns to
    the player at the right of the banker who passed, at the table minimum). ``garage`` is the part of
    his winnings the banker sets aside from play this coup (the «garaje voluntario»)."""

    type: Literal["bank_put_up"] = "bank_put_up"
    banker_id: Id
    amount: Money
    seat: TableSeat | None = None
    taken: BankTaken = "rotation"
    garage: Money = Decimal("0.00")


class StakeJoined(RoundEvent):
    """``player_id`` (at ``seat``, none when standing) puts ``amount`` euros of his own in stake
    ``bet_id`` of another player: the stake as placed already counts them (a «banco en asociación» when
    the stake is a banco)."""

    type: Literal["stake_joined"] = "stake_joined"
    bet_id: Id
    player_id: Id
    amount: Money
    seat: TableSeat | None = None


class DrawDecision(RoundEvent):
    """``player_id`` says whether ``hand`` takes a third card: ``draw`` («carta») or ``stand`` («no»);
    ``hand`` ``punto`` or ``banca``, at bacará a dos paños ``pano1``, ``pano2`` or ``banca``."""

    type: Literal["draw_decision"] = "draw_decision"
    player_id: Id
    hand: Literal["punto", "banca", "pano1", "pano2"]
    decision: Literal["draw", "stand"]


class TableauRequested(RoundEvent):
    """The banker ``player_id`` asks the croupier for the bank's tableau: he must now follow it."""

    type: Literal["tableau_requested"] = "tableau_requested"
    player_id: Id


EVENT_TYPES: tuple[type[RoundEvent], ...] = (BankPutUp, StakeJoined, TableauRequested, DrawDecision)
"""Every chemin de fer event class, in the order of a coup."""

__all__ = ["BANK_TAKEN", "EVENT_TYPES", "BankPutUp", "BankTaken", "DrawDecision", "StakeJoined",
           "TableSeat", "TableauRequested"]
