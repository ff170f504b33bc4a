"""One betting interval of póquer en círculo (Andalucía): whose turn it is and what he may do.

:class:`BettingRound` follows one interval («intervalo o fase de apuestas») from its first player to
its close and refuses, with the rule and its citation (:class:`BettingError`), any action the
regulation does not allow. Chips are euros (``Decimal``); an action's ``amount`` is what the
player puts in with it. The rules (004_5c9c19b250457762.txt, I.1.10):

- **Turn.** Players act in turn, to the left of the last to act (004 L4529-L4533, IX.6.d; the
  order of the interval is given: the variant and the «marca» decide it).
- **Fold** («retirarse», IX.6.a, 004 L4505-L4517): always, in turn; the folder gives up what he put in.
- **Check** («pasar», IX.6.b, 004 L4519-L4522): only when nobody bet in the interval (so the big
  blind may check when everybody called him: the blinds' option, 004 L4445-L4448).
- **Call** («cubrir» o «ver», IX.6.c, 004 L4524-L4527): exactly the highest bet, never more; with
  fewer chips, all of them (the player is then all-in and plays for the proportional part, IX.8).
- **Bet**: the first bet of the interval, at least the table minimum (``minimum``) unless all-in;
  pot limit: at most the pot (004 L4395-L4402, VII.1.b); fixed limit: exactly the increment.
- **Raise** («subir», IX.6.d, 004 L4529-L4533; VII.2, 004 L4417-L4420): no limit and pot limit, to
  at least double the highest bet; pot limit, to at most the highest bet plus the pot once the
  call is in (004 L4395-L4402); fixed limit, by exactly the increment, at most three raises an
  interval unless only two players are left (004 L4384-L4388, VII.1.a; 004 L4535-L4539, IX.7).
- **All-in** («resto»): a raise short of the minimum with the whole stack is accepted but is no
  increment: it does not reopen the betting for a player who already acted (004 L4420-L4423,
  VII.2): he may only call or fold.
- **Close.** The interval is over when every player still in and not all-in has acted since the
  last full raise and put in the highest bet (IX.8, 004 L4541-L4545), or only one player is left.

Pure: no I/O; the state is plain data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal, Mapping, Sequence

Structure = Literal["no_limit", "pot_limit", "fixed_limit"]
Action = Literal["fold", "check", "call", "bet", "raise"]
ACTIONS: tuple[str, ...] = ("fold", "check", "call", "bet", "raise")
STRUCTURES: tuple[str, ...] = ("no_limit", "pot_limit", "fixed_limit")
MAX_FIXED_RAISES = 3
"""Raises an interval allows at fixed limit, unless only two players are left (004 L4384-L4388)."""
ZERO = Decimal("0")


class BettingError(ValueError):
    """An action the regulation does not allow; ``rule`` names it (``turn``, ``check``, ``call``,
    ``bet``, ``raise``, ``reopen``, ``over``) and the message cites it."""

    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.rule = rule


@dataclass
class BettingRound:
    """One interval: ``order`` is the players still able to act, in acting order from the first;
    ``stacks`` the chips each has behind; ``put`` what each already put in this interval (the
    blinds); ``pot`` the chips from earlier intervals; ``minimum`` the table's minimum bet;
    ``increment`` the fixed-limit bet of this interval; ``all_in`` who already has no chips left.

    Raises ``ValueError`` for an unknown structure, a negative stack or a player twice."""

    order: Sequence[str]
    stacks: Mapping[str, Decimal]
    structure: Structure = "no_limit"
    minimum: Decimal = ZERO
    put: Mapping[str, Decimal] = field(default_factory=dict)
    pot: Decimal = ZERO
    increment: Decimal = ZERO
    all_in: Sequence[str] = ()
    players: list[str] = field(init=False)
    behind: dict[str, Decimal] = field(init=False)
    bets: dict[str, Decimal] = field(init=False)
    folded: set[str] = field(init=False)
    shoved: set[str] = field(init=False)
    acted: set[str] = field(init=False)
    raises: int = field(init=False, default=0)
    turn: int = field(init=False, default=0)
    last_bettor: str = field(init=False, default="")

    def __post_init__(self) -> None:
        if self.structure not in STRUCTURES:
            raise ValueError(f"betting structure {self.structure!r} is not one of {', '.join(STRUCTURES)}")
        if len(set(self.order)) != len(self.order) or any(self.stacks[p] < 0 for p in self.order):
            raise ValueError("each player once, with a stack of at least 0")
        self.players = list(self.order)
        self.behind = {p: Decimal(self.stacks[p]) for p in self.players}
        self.bets = {p: Decimal(self.put.get(p, ZERO)) for p in self.players}
        self.folded, self.acted = set(), set()
        self.shoved = set(self.all_in) | {p for p in self.players if self.behind[p] == 0}
        self._skip()

    # ------------------------------------------------------------------ what the table shows
    @property
    def highest(self) -> Decimal:
        """The highest bet of the interval so far (the blinds included)."""
        return max(self.bets.values(), default=ZERO)

    @property
    def live(self) -> list[str]:
        """The players who have not folded, in order."""
        return [p for p in self.players if p not in self.folded]

    @property
    def to_act(self) -> str | None:
        """Whose turn it is, or ``None`` when the interval is over."""
        return None if self.over else self.players[self.turn]

    @property
    def over(self) -> bool:
        """Whether the interval is closed (module docstring)."""
        live = self.live
        if len(live) <= 1:
            return True
        waiting = [p for p in live if p not in self.shoved]
        if len(waiting) <= 1 and not any(self._owes(p) for p in waiting):
            return True  # nobody left to bet against
        return all(p in self.acted and not self._owes(p) for p in waiting)

    def to_call(self, player: str) -> Decimal:
        """What ``player`` must put in to call (at most his stack)."""
        return min(self.highest - self.bets[player], self.behind[player])

    def may_raise(self, player: str) -> bool:
        """Whether ``player`` could bet or raise now, whatever he does: he is in with chips beyond the
        call, another player in can still answer, and, facing a bet, the betting is open to him (he
        has not acted since the last full raise, VII.2; at fixed limit, raises are left, VII.1.a)."""
        if player not in self.behind or player in self.folded or player in self.shoved:
            return False
        if self.behind[player] <= self.highest - self.bets[player]:
            return False
        if not any(q != player and q not in self.folded and q not in self.shoved for q in self.players):
            return False
        if self.highest <= 0:
            return True
        if player in self.acted:
            return False
        return not (self.structure == "fixed_limit" and self.raises >= MAX_FIXED_RAISES and len(self.live) != 2)

    def pot_now(self) -> Decimal:
        """The pot: earlier intervals and every bet of this one."""
        return self.pot + sum(self.bets.values(), ZERO)

    # ------------------------------------------------------------------ acting
    def verify(self, player: str, action: str, amount: Decimal = ZERO) -> None:
        """Raise :class:`BettingError` unless ``player`` may ``action`` with ``amount`` now (module
        docstring); change nothing."""
        if self.over:
            raise BettingError("over", f"the betting interval is over: {player} cannot {action} (004 L4541-L4545, IX.8)")
        if action not in ACTIONS:
            raise BettingError("action", f"{action!r} is not a betting action ({', '.join(ACTIONS)})")
        if player != self.players[self.turn]:
            raise BettingError("turn", f"{player} acted out of turn: it is {self.players[self.turn]}'s (004 L4529-L4533, IX.6)")
        if amount < 0 or amount > self.behind[player]:
            raise BettingError("stack", f"{player} put in {amount} with {self.behind[player]} behind")
        owe = self.highest - self.bets[player]
        if action == "fold":
            return
        if action == "check":
            if owe > 0:
                raise BettingError("check", f"{player} checked facing a bet of {self.highest}: «pasar» only when "
                                            "nobody bet in the interval (004 L4519-L4522, IX.6.b)")
            return
        if action == "call":
            if amount != min(owe, self.behind[player]) or owe <= 0:
                raise BettingError("call", f"{player} called with {amount}: a call is exactly the highest bet "
                                           f"({owe} more), never more (004 L4524-L4527, IX.6.c)")
            return
        total = self.bets[player] + amount
        all_in = amount == self.behind[player]
        if action == "bet":
            if self.highest > 0:
                raise BettingError("bet", f"{player} bet into a bet of {self.highest}: that is a raise")
            self._verify_bet(player, amount, all_in)
            return
        if self.highest <= 0:
            raise BettingError("raise", f"{player} raised with no bet to raise: that is a bet")
        if player in self.acted:
            raise BettingError("reopen", f"{player} raised after a short all-in: a raise short of the minimum is no "
                                         "increment and does not reopen the betting (004 L4420-L4423, VII.2)")
        self._verify_raise(player, total, all_in)

    def act(self, player: str, action: str, amount: Decimal = ZERO, *, check: bool = True) -> None:
        """:meth:`verify` (unless ``check`` is false: an auditor that flagged the action still
        follows what happened at the table), then apply the action and pass the turn to the next
        player after ``player`` who can act. Raises :class:`BettingError`."""
        if check:
            self.verify(player, action, amount)
        before = self.highest
        if action == "fold":
            self.folded.add(player)
        else:
            self.bets[player] += amount
            self.behind[player] -= amount
            if self.behind[player] == 0 and action != "check":
                self.shoved.add(player)
        if action in ("bet", "raise"):
            self.last_bettor = player
            full = self._full_raise(before, self.bets[player])
            if full:
                self.acted = set()
                if action == "raise":
                    self.raises += 1
        self.acted.add(player)
        self.turn = self.players.index(player)  # after an action out of turn, play goes on from its player
        self._advance()

    # ------------------------------------------------------------------ rules
    def _verify_bet(self, player: str, amount: Decimal, all_in: bool) -> None:
        if self.structure == "fixed_limit":
            if amount != self.increment and not (all_in and amount < self.increment):
                raise BettingError("bet", f"{player} bet {amount}: at fixed limit the bet is {self.increment} "
                                          "(004 L4388-L4390, VII.1.a)")
            return
        if amount < self.minimum and not all_in:
            raise BettingError("bet", f"{player} bet {amount}, below the table minimum {self.minimum} "
                                      "(004 L4404-L4407, VII.1.c)")
        if self.structure == "pot_limit" and amount > self.pot_now():
            raise BettingError("bet", f"{player} bet {amount}, above the pot of {self.pot_now()} "
                                      "(004 L4395-L4402, VII.1.b)")

    def _verify_raise(self, player: str, total: Decimal, all_in: bool) -> None:
        if self.structure == "fixed_limit":
            heads_up = len(self.live) == 2
            if self.raises >= MAX_FIXED_RAISES and not heads_up:
                raise BettingError("raise", f"{player} made a raise after {self.raises}: at fixed limit at most "
                                            f"{MAX_FIXED_RAISES} an interval unless two players are left "
                                            "(004 L4384-L4388, VII.1.a; 004 L4535-L4539, IX.7)")
            if total != self.highest + self.increment and not (all_in and total < self.highest + self.increment):
                raise BettingError("raise", f"{player} raised to {total}: at fixed limit a raise adds "
                                            f"{self.increment} (004 L4388-L4390, VII.1.a)")
            return
        if total < 2 * self.highest and not all_in:
            raise BettingError("raise", f"{player} raised to {total}, less than double the highest bet "
                                        f"{self.highest} (004 L4529-L4533, IX.6.d; 004 L4417-L4420, VII.2)")
        if self.structure == "pot_limit":
            call = self.highest - self.bets[player]
            ceiling = self.highest + self.pot_now() + call
            if total > ceiling:
                raise BettingError("raise", f"{player} raised to {total}, above the highest bet and the pot once "
                                            f"called ({ceiling}) (004 L4395-L4402, VII.1.b)")

    def _full_raise(self, before: Decimal, total: Decimal) -> bool:
        """Whether a bet, or a raise to ``total`` over ``before``, reopens the betting: every bet
        does; a raise short of the minimum does not (VII.2)."""
        if before <= 0:
            return True
        if self.structure == "fixed_limit":
            return total >= before + self.increment
        return total >= 2 * before

    def _owes(self, player: str) -> bool:
        return self.bets[player] < self.highest and self.behind[player] > 0

    def _skip(self) -> None:
        """Move the turn to the next player who can act (not folded, not all-in)."""
        n = len(self.players)
        for _ in range(n):
            p = self.players[self.turn]
            if p not in self.folded and p not in self.shoved:
                return
            self.turn = (self.turn + 1) % n

    def _advance(self) -> None:
        self.turn = (self.turn + 1) % len(self.players)
        self._skip()


__all__ = ["ACTIONS", "MAX_FIXED_RAISES", "STRUCTURES", "BettingError", "BettingRound"]
