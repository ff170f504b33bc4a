"""The events bacará a dos paños adds to chemin de fer's (Galicia 000_e1555249d49967be.txt L743-L885,
Andalucía 004_5c9c19b250457762.txt L2460-L2899): one bank against two tableaux («paños»).

A coup is a round whose events are chemin de fer's (:mod:`pitwatch.schemas.chemin_de_fer`), read per paño:

1. ``bank_auctioned`` when the inspección auctions the bank (no banker, or a bank abandoned that nobody
   took at its initial amount: 000 L783, L789; 004 L2580-L2587, L2607-L2613), then ``bank_put_up``: the
   amount the banker hands to the croupier (000 L821; 004 L2703-L2706);
2. the stakes, ``bet_placed`` with spot ``pano1`` or ``pano2`` (a stake on one paño), ``a_caballo`` (on
   the line between the two paños' betting zones: half on each), ``pano1_raya`` / ``pano2_raya`` (on the
   line between a player's zone and the betting zone: half in play), ``banco`` (the whole bank, on both
   paños); ``box`` the seat (seats of the first paño are numbered from 1 nearest the bank, the second
   paño's go on from there: 000 L761; 004 L2506-L2513); ``stake_joined`` for chips of several punters in
   one stake (forbidden: 000 L815; 004 L2686); ``bets_closed`` («Ya no va más»);
3. ``tableau_requested`` when the banker asks for the bank's tableau (000 L809; 004 L2665-L2670);
4. ``card_dealt`` to ``pano1``, ``pano2`` and ``banca``, one at a time in that order (000 L827;
   004 L2725-L2727), the third cards in the same order; ``draw_decision`` of each paño's holder and of
   the banker; ``cards_lost`` when cards fall into the cesta unseen (000 L853; 004 L2811-L2817);
5. ``rake_taken`` (the cagnotte) and one ``settlement_recorded`` per stake and one for the bank (bet id
   ``<round_id>:bank``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from pitwatch.schemas.envelope import Id, RoundEvent
from pitwatch.schemas.money import Money

PANOS = ("pano1", "pano2")
"""The two paños (tableaux) as hand ids, the first (at the banker's right) first."""


class AuctionBid(BaseModel):
    """One bid at the auction of the bank: ``player_id`` offers a bank of ``amount`` euros."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    player_id: Id
    amount: Money


class BankAuctioned(RoundEvent):
    """The inspección auctioned the bank: every ``bids`` made, and the bank adjudicated to ``banker_id``
    for ``amount`` euros (to the highest bidder; equal bids drawn by lot: 000 L783; 004 L2584-L2587).
    The ``bank_put_up`` that follows is the adjudicated bank (``taken`` ``auction``)."""

    type: Literal["bank_auctioned"] = "bank_auctioned"
    bids: Annotated[list[AuctionBid], Field(min_length=1, max_length=64)]
    banker_id: Id
    amount: Money


class CardsLost(RoundEvent):
    """Cards of ``hand`` (``pano1``, ``pano2`` or ``banca``) fell into the cesta unseen during the deal:
    the coup is void for that paño, or for both when they were the bank's (000 L853; 004 L2811-L2814)."""

    type: Literal["cards_lost"] = "cards_lost"
    hand: Literal["pano1", "pano2", "banca"]


EVENT_TYPES: tuple[type[RoundEvent], ...] = (BankAuctioned, CardsLost)
"""The event classes bacará a dos paños adds, in the order of a coup."""

__all__ = ["EVENT_TYPES", "PANOS", "AuctionBid", "BankAuctioned", "CardsLost"]
