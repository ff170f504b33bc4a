"""The bank of bacará a dos paños from coup to coup: what the table context carries
(the table's :class:`PanosCarry`) and the checks of a ``bank_put_up`` against it.

The bank is adjudicated (announced, offered in turn, or auctioned to the highest bidder: 000 L783, L789;
004 L2580-L2587, L2607-L2613) and held until the banker gives it up after a coup or it has «saltado»
(000 L787; 004 L2595-L2605); its winnings become part of it (000 L829; 004 L2754-L2755).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Mapping

from pitwatch.rules.chemin_de_fer.bank import PutUp
from pitwatch.rules.game import Carry


@dataclass(frozen=True)
class PanosBank:
    """The bank after a coup: ``banker`` and his ``seat``; ``initial`` his first deposit; ``after`` the bank
    as it stood after the coup (the amount put up, plus the net win less the cagnotte, or less the net
    loss); ``barred`` the bankers who left with more than their first deposit in this shoe; ``coups`` the
    coups of the partida (the shoe) so far; ``holders`` paño -> who held its cards; ``bank_won`` the paños
    the bank won; ``banco`` the player whose banco ended in a juego nulo (``None`` otherwise) and
    ``repeats`` the repetitions of it so far."""

    banker: str
    seat: int | None
    initial: Decimal
    after: Decimal
    barred: tuple[str, ...] = ()
    coups: int = 0
    holders: dict[str, str] = field(default_factory=dict)
    bank_won: tuple[str, ...] = ()
    banco: str | None = None
    repeats: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON form (money as strings). Inverse: :meth:`from_dict`."""
        return {"banker": self.banker, "seat": self.seat, "initial": str(self.initial), "after": str(self.after),
                "barred": list(self.barred), "coups": self.coups, "holders": dict(self.holders),
                "bank_won": list(self.bank_won), "banco": self.banco, "repeats": self.repeats}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "PanosBank | None":
        """Rebuild from :meth:`to_dict`; ``None`` for ``None`` (no coup yet at the table)."""
        if d is None:
            return None
        return cls(str(d["banker"]), d["seat"], Decimal(d["initial"]), Decimal(d["after"]), tuple(d["barred"]),
                   int(d["coups"]), dict(d["holders"]), tuple(d["bank_won"]), d["banco"], int(d["repeats"]))


class PanosCarry(Carry):
    """A bacará a dos paños table's state across coups: ``bank``, the :class:`PanosBank` after the last coup
    (``None`` before the first). Stored as ``{"version": 1, "bank": PanosBank.to_dict()}`` (no ``bank``
    before a coup)."""

    def __init__(self) -> None:
        self.bank: PanosBank | None = None

    def fields(self) -> dict[str, Any]:
        """``{"bank": ...}`` once a coup was played."""
        return {} if self.bank is None else {"bank": self.bank.to_dict()}

    def load(self, fields: Mapping[str, Any], version: int) -> None:
        """From :meth:`fields`."""
        self.bank = PanosBank.from_dict(fields.get("bank"))


def new_shoe(bank: PanosBank | None) -> PanosBank | None:
    """The bank at a new shoe (a new partida): no coup yet, nobody barred, no banco repeated."""
    if bank is None:
        return None
    return replace(bank, coups=0, barred=(), banco=None, repeats=0)


def barred(prev: PanosBank | None, put: PutUp) -> tuple[str, ...]:
    """Who may not hold the bank again in this shoe once ``put`` is up: the ones barred before, and the
    last banker when he gave it up holding more than his first deposit (000 L787; 004 L2595-L2598) in this
    shoe: not when a new shoe was loaded after his last coup (``prev.coups`` 0), he gave it up in the one
    before («durante el mismo sabot»)."""
    if prev is None:
        return ()
    if (put.banker != prev.banker and prev.coups > 0 and prev.after > prev.initial
            and prev.banker not in prev.barred):
        return (*prev.barred, prev.banker)
    return prev.barred


def check_put_up(prev: PanosBank | None, put: PutUp, auction: tuple[str, Decimal, str] | None,
                 bank_maximum: Decimal | None) -> list[tuple[str, str]]:
    """(citation key, message) for each rule of the bank that ``put`` breaks after ``prev`` (``None``: no
    coup yet at the table). ``auction`` is the coup's ``bank_auctioned`` (banker, amount, event id), if
    any; ``bank_maximum`` the most a limited bank may be constituted with (``None``: not checked)."""
    out: list[tuple[str, str]] = []
    if put.taken == "auction" and auction is None:
        out.append(("bank_auction", f"{put.banker} took the bank at an auction no bank_auctioned shows"))
    elif auction is not None and (put.banker, put.amount) != auction[:2]:
        out.append(("bank_auction", f"the bank was adjudicated to {auction[0]} for {auction[1]}; {put.banker} put up "
                    f"{put.amount}"))
    if prev is None or put.banker != prev.banker:
        if bank_maximum is not None and put.amount > bank_maximum:
            out.append(("bank_limitada_max", f"bank of {put.amount} constituted by {put.banker}: a limited bank is "
                        f"constituted with at most {bank_maximum}"))
        if prev is None:
            return out
        if put.banker in barred(prev, put):
            out.append(("bank_withdrawn", f"{put.banker} gave up the bank with winnings in this shoe: he may not hold "
                        "it again before the next shoe"))
        if put.taken == "rotation" and put.amount != prev.initial:
            out.append(("bank_offered", f"{put.banker} took the bank {prev.banker} gave up with {put.amount}: it is "
                        f"offered at the same initial amount, {prev.initial}"))
    elif prev.after <= 0 and put.amount < prev.initial:
        out.append(("bank_saltado", f"{put.banker} goes on after his bank «saltó» with {put.amount}: a new deposit "
                    f"is at least the first, {prev.initial}"))
    elif prev.after > 0 and put.amount < prev.after:
        out.append(("bank_kept", f"{put.banker} goes on with {put.amount}: his bank stood at {prev.after}, its "
                    "winnings part of it"))
    return out


__all__ = ["PanosBank", "PanosCarry", "barred", "check_put_up", "new_shoe"]
