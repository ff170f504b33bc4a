"""The bank from coup to coup: what the table context carries (its :class:`CheminCarry`) and the checks of a
``bank_put_up`` against it.

The carry holds JSON types only (money as strings): ``banker``, ``seat``, ``after`` (the bank as it stood
after the last coup: the amount put up, plus the stakes won less the cagnotte, or less the stakes lost),
``result`` (``banca``, ``punto``, ``tie`` or ``None``), ``winnings`` (the banker's winnings net of the
cagnotte since he took the bank, less what he set aside) and ``seguido`` (the player with the right to a
banco seguido in the next coup, or ``None``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping

from pitwatch.rules.game import Carry
from pitwatch.schemas.money import ZERO


@dataclass(frozen=True)
class BankState:
    """The bank after a coup (see the module docstring)."""

    banker: str
    seat: int | None
    after: Decimal
    result: str | None
    winnings: Decimal
    seguido: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form (money as strings). Inverse: :meth:`from_dict`."""
        return {"banker": self.banker, "seat": self.seat, "after": str(self.after), "result": self.result,
                "winnings": str(self.winnings), "seguido": self.seguido}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "BankState | None":
        """Rebuild from :meth:`to_dict`; ``None`` for ``None`` (no coup yet this session)."""
        if d is None:
            return None
        return cls(str(d["banker"]), d["seat"], Decimal(d["after"]), d["result"], Decimal(d["winnings"]), d["seguido"])


class CheminCarry(Carry):
    """A chemin de fer table's state across coups: ``bank``, the bank after the last coup (``None`` before
    the first). Stored as ``{"version": 1, "bank": BankState.to_dict()}`` (no ``bank`` before a coup)."""

    def __init__(self) -> None:
        self.bank: BankState | None = None

    def fields(self) -> dict[str, Any]:
        """``{"bank": ...}`` once a coup was played."""
        return {} if self.bank is None else {"bank": self.bank.to_dict()}

    def load(self, fields: Mapping[str, Any], version: int) -> None:
        """From :meth:`fields`."""
        self.bank = BankState.from_dict(fields.get("bank"))


@dataclass(frozen=True)
class PutUp:
    """A ``bank_put_up``: the banker, the euros he puts in play, his seat, how he took the bank, the winnings
    he sets aside (garage) and the event id."""

    banker: str
    amount: Decimal
    seat: int | None
    taken: str
    garage: Decimal
    event_id: str


def check_put_up(prev: BankState | None, put: PutUp, minimum: Decimal,
                 garage_min_multiple: int) -> list[tuple[str, str]]:
    """(citation key, message) for each rule of the bank's passing that ``put`` breaks after ``prev``
    (``None``: the first coup of the session, only the minimum is checked); ``minimum`` is the punto
    minimum (the table minimum)."""
    out: list[tuple[str, str]] = []
    if put.amount < minimum:
        out.append(("bank_limits", f"bank of {put.amount} put up by {put.banker}: it may not be below the punto "
                    f"minimum {minimum}"))
    if prev is None:
        return out
    same = put.banker == prev.banker
    if same and prev.result == "punto":
        out.append(("bank_passes", f"{put.banker} lost the last coup and holds the bank again: on a loss the bank "
                    "passes to the player at his right"))
    elif same and put.taken == "auction":
        out.append(("bank_auction", f"{put.banker}, who held the bank, took it at the auction of the hand he passed"))
    elif same:
        if put.amount + put.garage < prev.after:
            out.append(("bank_kept", f"{put.banker} goes on with {put.amount} (and {put.garage} set aside): his bank "
                        f"stood at {prev.after}, and it may be increased, never reduced"))
        if put.garage > 0 and (prev.winnings <= garage_min_multiple * minimum or put.garage > prev.winnings):
            out.append(("garage", f"{put.banker} set {put.garage} of winnings aside holding {prev.winnings} of "
                        f"winnings: only winnings above {garage_min_multiple} x the punto minimum "
                        f"({garage_min_multiple * minimum}) may be set aside"))
    elif put.taken == "rotation" and prev.result in ("banca", "tie") and put.amount < prev.after:
        out.append(("bank_taken", f"{put.banker} took in turn the bank {prev.banker} gave up at {prev.after}, with "
                    f"{put.amount}: at least the same amount is due"))
    elif put.taken == "imposed" and put.amount != minimum:
        out.append(("bank_imposed", f"the bank returned to {put.banker} nobody else took is accepted at the table "
                    f"minimum {minimum}, not {put.amount}"))
    return out


def after_coup(prev: BankState | None, put: PutUp, won: str | None, in_play: Decimal, cagnotte: Decimal,
               seguido: str | None) -> BankState:
    """The bank after a coup in which ``put`` played ``in_play`` euros and ``won`` (as
    :func:`pitwatch.rules.chemin_de_fer.stakes.winner`); ``seguido`` the player with the right to a banco
    seguido next."""
    held = prev.winnings - put.garage if prev is not None and prev.banker == put.banker else ZERO
    if won == "banca":
        net = in_play - cagnotte
    elif won == "punto":
        net = -in_play
    else:
        net = ZERO
    return BankState(put.banker, put.seat, put.amount + net, won, held + net, seguido)


__all__ = ["BankState", "PutUp", "after_coup", "check_put_up"]
