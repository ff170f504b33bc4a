"""The stakes of bacará a dos paños against the bank: how each plays on the paños, which the bank covers
and how each is settled, with the bank's net and its cagnotte. Pure functions on euros (``Decimal``).

A stake on a paño plays there; one on the line between a player's zone and the betting zone plays half
(000 L823; 004 L2716-L2717, rounded down to the cent); a stake «a caballo» on the line between the paños
plays half on each, the larger part on the first paño when it cannot be halved in whole units (000
L823-L825; 004 L2718-L2723; the unit is the table minimum); a banco is the whole bank on both paños, split
the same way (000 L813; 004 L2675-L2681). A limited bank answers only for its amount, a free bank for
every stake (000 L751; 004 L2472-L2484). Each part is settled as a chemin de fer stake on its paño
(:func:`~pitwatch.rules.chemin_de_fer.stakes.stake_return`, even money, a tie void).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal
from typing import Sequence

from pitwatch.rules.chemin_de_fer.stakes import Stake, bank_return, priority, stake_return
from pitwatch.schemas.dos_panos import PANOS
from pitwatch.schemas.money import ZERO, round_cents

BANCO = "banco"
CABALLO = "a_caballo"
RAYA = {"pano1_raya": "pano1", "pano2_raya": "pano2"}
"""Spot on the line between a player's zone and a paño's betting zone -> the paño."""


def split(amount: Decimal, unit: Decimal) -> tuple[Decimal, Decimal]:
    """(first paño, second paño) of ``amount`` played on both: halves when they are whole numbers of
    ``unit``, else the first paño takes the half rounded up to whole units and the second the rest
    (70 in units of 10: 40 and 30). ``unit`` below a cent counts as a cent."""
    unit = max(unit, Decimal("0.01"))
    first = min(amount, (amount / 2 / unit).to_integral_value(rounding=ROUND_CEILING) * unit)
    return first, amount - first


def parts(stake: Stake, unit: Decimal, raya_fraction: Decimal) -> list[tuple[str, Decimal]]:
    """(paño, euros) of ``stake`` offered to the bank on each paño, the first paño first; none for a spot
    that is not one of the game's."""
    if stake.spot in PANOS:
        return [(stake.spot, stake.amount)]
    if stake.spot in RAYA:
        return [(RAYA[stake.spot], round_cents(stake.amount * raya_fraction))]
    if stake.spot in (CABALLO, BANCO):
        return [(p, a) for p, a in zip(PANOS, split(stake.amount, unit)) if a > 0]
    return []


@dataclass(frozen=True)
class PanosCover:
    """Which stakes play: ``banco`` the stake that took the bank (``None`` without), ``covered`` (bet id,
    paño) -> the euros of it in play, ``in_play`` paño -> the bank in play against it (the parts covered)."""

    banco: Stake | None
    covered: dict[tuple[str, str], Decimal]
    in_play: dict[str, Decimal]

    def played(self, bet_id: str) -> Decimal:
        """The euros of stake ``bet_id`` in play, both paños."""
        return sum((self.covered.get((bet_id, p), ZERO) for p in PANOS), ZERO)


def cover(stakes: Sequence[Stake], bank: Decimal | None, unit: Decimal, raya_fraction: Decimal) -> PanosCover:
    """The stakes in play against a bank of ``bank`` euros over both paños (``None``: a free bank, every
    stake in play). A banco takes the bank: the first in the order of priority plays, every other stake
    is out. Otherwise the stakes cover it in the order of priority (seated players by seat number, then
    standing players in the order they staked: :func:`~pitwatch.rules.chemin_de_fer.stakes.priority`
    from seat 1), a stake's first paño part first, until the bank is covered."""
    ordered = sorted(stakes, key=lambda s: priority(s, None))
    bancos = [s for s in ordered if s.spot == BANCO]
    playing = bancos[:1] or ordered
    left = bank
    covered: dict[tuple[str, str], Decimal] = {}
    in_play = {p: ZERO for p in PANOS}
    for s in playing:
        for pano, amount in parts(s, unit, raya_fraction):
            part = amount if left is None else min(amount, left)
            covered[(s.bet_id, pano)] = part
            in_play[pano] += part
            left = None if left is None else left - part
    return PanosCover(bancos[0] if bancos else None, covered, in_play)


def stake_settlement(stake: Stake, cov: PanosCover, won: dict[str, str | None], payout: Decimal) -> tuple[str, Decimal]:
    """(outcome, euros handed back) of ``stake``: what is not in play comes back, each part in play is
    settled on its paño (``won`` paño -> ``punto``, ``banca``, ``tie`` or ``None`` void). Outcome
    ``refused`` when none of it played, ``void`` when it played only on void paños, else ``win``,
    ``lose`` or ``push`` by what comes back against the stake."""
    back = stake.amount - cov.played(stake.bet_id)
    if back == stake.amount:
        return "refused", back
    if all(won[p] is None for p in PANOS if cov.covered.get((stake.bet_id, p), ZERO) > 0):
        return "void", stake.amount
    for p in PANOS:
        part = cov.covered.get((stake.bet_id, p), ZERO)
        if part > 0:
            back += stake_return(part, part, won[p], payout)[1]
    return ("win" if back > stake.amount else "lose" if back < stake.amount else "push"), back


def bank_net(cov: PanosCover, won: dict[str, str | None], payout: Decimal) -> Decimal:
    """The bank's net win of the coup: the stakes it won on one or both paños less what it paid on the
    other (negative when it lost more)."""
    net = ZERO
    for p in PANOS:
        if won[p] == "banca":
            net += cov.in_play[p]
        elif won[p] == "punto":
            net -= cov.in_play[p] * payout
    return net


def cagnotte(net: Decimal, rate: Decimal, rounding: str) -> Decimal:
    """The cagnotte on the bank's ``net`` win of a coup: ``rate`` x ``net`` rounded to the cent with
    ``rounding`` (:func:`~pitwatch.schemas.money.round_cents`) when the bank won on both paños or more on one
    than it lost on the other, else 0 (000 L829; 004 L2748-L2752)."""
    return round_cents(net * rate, rounding) if net > 0 else ZERO


def bank_settlement(cov: PanosCover, won: dict[str, str | None], payout: Decimal,
                    cagnotte: Decimal) -> tuple[str, Decimal]:
    """(outcome, euros back to the banker) of the bank in play on both paños: each paño's part settled as
    chemin de fer's bank (:func:`~pitwatch.rules.chemin_de_fer.stakes.bank_return`), less ``cagnotte``."""
    back = sum((bank_return(cov.in_play[p], won[p], payout, ZERO)[1] for p in PANOS), ZERO) - cagnotte
    total = sum(cov.in_play.values(), ZERO)
    if all(won[p] is None for p in PANOS if cov.in_play[p] > 0):
        return "void", back
    return ("win" if back > total else "lose" if back < total else "push"), back


def juego_nulo(won: dict[str, str | None]) -> bool:
    """Whether neither paño won or lost (ties or void paños): «juego nulo» (000 L813; 004 L2682-L2684)."""
    return all(w in ("tie", None) for w in won.values())


__all__ = ["BANCO", "CABALLO", "RAYA", "PanosCover", "bank_net", "bank_settlement", "cagnotte", "cover", "juego_nulo", "parts",
           "split", "stake_settlement"]
