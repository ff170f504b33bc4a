"""The stakes against a player's bank: who holds the punto's cards, which stakes cover the bank and how
each is settled. Pure functions on euros (``Decimal``).

Precedence (the rulesets' ambiguity «Precedence of the banco calls»): a banco seguido by the player who
has the right to it, then a banco by one player, then a banco in association, each in the order of
priority (seated players from the seat at the banker's right, then standing players in the order they
staked); then «con la mesa y último completo» and «banco con la mesa»; then the seated player with the
highest stake. A banco takes the whole bank; otherwise the holder's stake covers first and the others
follow in the order of priority, until the bank is covered.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Sequence

from pitwatch.schemas.money import ZERO

SEATS = 20
"""Seats a table may number (``bet_placed.box`` 1-20)."""

BANCO_SPOTS = frozenset({"banco", "banco_seguido"})
"""Stakes of the whole bank («hacer banco»)."""


@dataclass(frozen=True)
class Stake:
    """One stake against the bank: ``seat`` none for a player standing behind, ``order`` its place among
    the coup's stakes (arrival), ``joined`` whether other players' chips are in it (an association)."""

    bet_id: str
    player_id: str
    spot: str
    amount: Decimal
    seat: int | None
    order: int
    joined: bool = False


def rank(stake: Stake, seguido: str | None) -> int:
    """The precedence class of ``stake`` (lower first): 0 banco seguido with the right to it (``seguido``
    is the player who has it), 1 banco by one player, 2 banco in association, 3 último completo, 4 banco
    con la mesa, 5 an ordinary stake."""
    if stake.spot in BANCO_SPOTS:
        if stake.spot == "banco_seguido" and stake.player_id == seguido and not stake.joined:
            return 0
        return 2 if stake.joined else 1
    return {"ultimo_completo": 3, "banco_con_la_mesa": 4}.get(stake.spot, 5)


def priority(stake: Stake, banker_seat: int | None) -> tuple[int, int, int]:
    """Sort key of the order of priority: seated before standing; seated players from the seat at the
    banker's right (the next number; from seat 1 when the banker stands); then arrival."""
    if stake.seat is None:
        return (1, 0, stake.order)
    return (0, (stake.seat - (banker_seat or 0) - 1) % SEATS, stake.order)


@dataclass(frozen=True)
class Cover:
    """Which stakes play: ``holder`` the stake whose player holds the punto's cards (``None`` without
    stakes), ``covered`` bet id -> the euros of it in play, ``in_play`` their sum (the bank in play)."""

    holder: Stake | None
    covered: dict[str, Decimal]
    in_play: Decimal


def cover(stakes: Sequence[Stake], bank: Decimal, banker_seat: int | None, seguido: str | None) -> Cover:
    """The stakes in play against a bank of ``bank`` euros (module docstring for the order)."""
    if not stakes:
        return Cover(None, {}, ZERO)
    ordered = sorted(stakes, key=lambda s: (rank(s, seguido), priority(s, banker_seat)))
    first = ordered[0]
    if rank(first, seguido) <= 2:
        amount = min(first.amount, bank)
        return Cover(first, {first.bet_id: amount}, amount)
    by_priority = sorted(stakes, key=lambda s: priority(s, banker_seat))
    mesa = [s for s in by_priority if s.spot == "banco_con_la_mesa"]
    if mesa:
        completo = [s for s in by_priority if s.spot == "ultimo_completo"]
        holder = completo[0] if completo else mesa[0]
        head = [mesa[0], *completo]
    else:
        seated = [s for s in by_priority if s.seat is not None] or by_priority
        holder = max(seated, key=lambda s: (s.amount, -seated.index(s)))
        head = [holder]
    covered: dict[str, Decimal] = {}
    left = bank
    for s in [*head, *(s for s in by_priority if s not in head)]:
        part = min(s.amount, left)
        covered[s.bet_id] = part
        left -= part
    return Cover(holder, covered, bank - left)


def winner(result: tuple[int, int] | None) -> str | None:
    """``punto``, ``banca`` or ``tie`` for (punto total, bank total); ``None`` for an incomplete coup."""
    if result is None:
        return None
    p, b = result
    return "tie" if p == b else "punto" if p > b else "banca"


def stake_return(amount: Decimal, covered: Decimal, won: str | None, payout: Decimal) -> tuple[str, Decimal]:
    """(outcome, euros handed back) of a stake of ``amount`` of which ``covered`` played, when ``won``
    (``punto``, ``banca``, ``tie``, ``None`` for a coup not completely dealt). The part not covered comes
    back whatever happens; ``refused`` when none of it played."""
    if won is None:
        return "void", amount
    if covered == 0:
        return "refused", amount
    if won == "tie":
        return "push", amount
    if won == "punto":
        return "win", amount + covered * payout
    return "lose", amount - covered


def bank_return(in_play: Decimal, won: str | None, payout: Decimal, cagnotte: Decimal) -> tuple[str, Decimal]:
    """(outcome, euros back to the banker) of the bank in play ``in_play``: on a win the bank back, the stakes
    it won, less ``cagnotte``; on a loss nothing; on a tie or an incomplete coup the bank back."""
    if won is None:
        return "void", in_play
    if won == "tie":
        return "push", in_play
    if won == "banca":
        return "win", in_play + in_play - cagnotte
    return "lose", in_play - in_play * payout


__all__ = ["BANCO_SPOTS", "SEATS", "Cover", "Stake", "bank_return", "cover", "priority", "rank", "stake_return",
           "winner"]
