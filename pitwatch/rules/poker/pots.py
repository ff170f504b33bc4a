"""Pots of a poker «mano» (póquer en círculo, Andalucía): side pots, the house's rake, split pots.

Pure arithmetic on euros (``Decimal``), no I/O. The regulation gives the rules; where it is silent
the construction used is the standard one, named here (the game's ruleset will record the choice):

- **Pots** (:func:`build_pots`). A player who cannot match a bet with his whole stack («resto»)
  plays «por la parte proporcional» (004 L4541-L4545, IX.8; L4576-L4578, IX.14); the regulation
  names a separate pot («bote aparte») a player takes no part in (004 L5110-L5120). Construction:
  the levels are the total contributions of the all-in players that are still in the hand, then
  the largest contribution matched by another player; pot *j* takes from every player (folded ones
  included) what he put in between level *j-1* and level *j*; its eligible players are those
  still in the hand who put in at least level *j*. What the largest contributor put in above what
  anybody matched is an **uncalled** bet and goes back to him (a bet nobody called wins nothing:
  004 L4547-L4551, IX.9, gives the last bettor «el bote», not his own unmatched chips).
- **Rake** (:func:`rake`). Up to 5 per 100 «sobre el dinero aportado en cada mano», put in the
  «cagnotte» before the winner is paid, at a rate fixed by the casino and announced before the
  game (004 L4082-L4088, II.4.a). Taken here on the pots (uncalled bets are not «aportado» to the
  hand: nobody played for them), rounded down to the cent; the regulation says neither.
- **Split** (:func:`split_pot`). Equal hands share the pot after the deductions; a chip left over
  from the division goes to the player who made the last bet («el último envite»), and nobody gets
  more than one such chip (004 L4651-L4657, IX.24): the remainder is dealt one smallest chip at a
  time, starting with the last bettor if he is among the winners, then in the order given. Within
  one division nobody can get two chips anyway (fewer chips are left than winners), so the last
  sentence is read across the pots of a hand: a winner who had an odd chip from an earlier pot of
  the hand comes after those who had none (the ruleset's ambiguity «Odd chips of several pots»).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal
from typing import Collection, Mapping, Sequence

CENT = Decimal("0.01")

MAX_RAKE_RATE = Decimal("0.05")
"""The most the house may take of each hand's money: 5 per 100 (004 L4082-L4088, II.4.a)."""


class PotError(ValueError):
    """Contributions, winners or a rate the pot rules cannot apply to (the message says which)."""


@dataclass(frozen=True)
class Pot:
    """One pot: ``amount`` euros, the players who may win it (``eligible``, in seat order) and the
    contribution ``level`` that bounds it (the main pot has the lowest)."""

    amount: Decimal
    eligible: tuple[str, ...]
    level: Decimal


@dataclass(frozen=True)
class Pots:
    """What a hand's contributions make: the ``pots`` (main first) and the uncalled bet ``returned``
    to its player (``("", 0)`` when every chip was matched)."""

    pots: tuple[Pot, ...]
    returned_to: str
    returned: Decimal

    @property
    def total(self) -> Decimal:
        """The euros in the pots (the contributions less the uncalled bet)."""
        return sum((p.amount for p in self.pots), Decimal("0"))


def build_pots(contributions: Mapping[str, Decimal], folded: Sequence[str] = (),
               all_in: Sequence[str] = ()) -> Pots:
    """The pots of a hand from each player's total ``contributions`` (euros, in seat order; antes
    and blinds included), the players who ``folded`` and those ``all_in`` (module docstring).

    Raises :class:`PotError` for a negative contribution, an unknown folded or all-in player, a
    hand where everybody folded, or a player still in the hand, not all-in, who put in less than the
    others (IX.8: the betting is not over)."""
    if any(c < 0 for c in contributions.values()):
        raise PotError("a contribution cannot be negative")
    unknown = (set(folded) | set(all_in)) - set(contributions)
    if unknown:
        raise PotError(f"players {sorted(unknown)} put nothing in this hand")
    live = [p for p in contributions if p not in set(folded)]
    if not live:
        raise PotError("every player folded: somebody must win the hand")
    ordered = sorted(contributions.values(), reverse=True)
    top = ordered[0]
    matched = ordered[1] if len(ordered) > 1 else Decimal("0")
    returned_to, returned = "", Decimal("0")
    if top > matched:
        returned_to = next(p for p, c in contributions.items() if c == top)
        returned = top - matched
    capped = {p: (c - returned if p == returned_to else c) for p, c in contributions.items()}
    live_max = max(capped[p] for p in live)
    short = [p for p in live if p not in set(all_in) and capped[p] != live_max]
    if short:
        raise PotError(f"players {short} are still in the hand, not all-in, and did not put in the {live_max} "
                       "the others did (004 L4541-L4545, IX.8)")
    levels = sorted({capped[p] for p in all_in if p in live} | {live_max})
    pots: list[Pot] = []
    below = Decimal("0")
    for level in levels:
        if level <= below:
            continue
        amount = sum((min(c, level) - min(c, below) for c in capped.values()), Decimal("0"))
        pots.append(Pot(amount, tuple(p for p in live if capped[p] >= level), level))
        below = level
    extra = sum(capped.values(), Decimal("0")) - sum((p.amount for p in pots), Decimal("0"))
    if extra and pots:  # chips folded players put in above the last live level join the last pot
        pots[-1] = Pot(pots[-1].amount + extra, pots[-1].eligible, pots[-1].level)
    elif extra:  # the players still in put in nothing: every chip is theirs to win
        pots.append(Pot(extra, tuple(live), live_max))
    return Pots(tuple(pots), returned_to, returned)


def rake(pots: Pots, rate: Decimal) -> Decimal:
    """The house's take of a hand: ``rate`` x the euros in its pots, rounded down to the cent
    (module docstring). Raises :class:`PotError` for a rate outside 0..5 per 100."""
    if not Decimal("0") <= rate <= MAX_RAKE_RATE:
        raise PotError(f"a rake of {rate:%} is outside 0..5% (004 L4082-L4088)")
    return (pots.total * rate).quantize(CENT, rounding=ROUND_DOWN)


def split_pot(amount: Decimal, winners: Sequence[str], last_bettor: str = "", chip: Decimal = CENT,
              had_odd: Collection[str] = ()) -> dict[str, Decimal]:
    """``amount`` shared by equal ``winners`` (in seat order): equal parts in whole ``chip``s, the
    chips left over one each, first to ``last_bettor`` if he is a winner, then in order, the winners
    in ``had_odd`` (an odd chip of an earlier pot of the hand) last (004 L4651-L4657, IX.24; module
    docstring). Raises :class:`PotError` without winners, for a winner named twice, or an amount that
    is not a whole number of chips."""
    if not winners or len(set(winners)) != len(winners):
        raise PotError("a pot is split between distinct winners, at least one")
    chips, rest = divmod(amount, chip)
    if rest:
        raise PotError(f"{amount} is not a whole number of {chip} chips")
    each, odd = divmod(int(chips), len(winners))
    first = ([last_bettor] if last_bettor in winners else []) + [w for w in winners if w != last_bettor]
    order = [w for w in first if w not in had_odd] + [w for w in first if w in had_odd]
    return {w: chip * (each + (1 if order.index(w) < odd else 0)) for w in winners}


__all__ = ["CENT", "MAX_RAKE_RATE", "Pot", "PotError", "Pots", "build_pots", "rake", "split_pot"]
