"""The interface every game module implements, and the per-table context it reads.

The engine (:mod:`pitwatch.rules.engine`) owns what is common to every game: the table
lifecycle, the bets on the layout, «No va más» (past-posting), recorded settlements and
their comparison with the expected ones. A game module owns what the regulation says about
its game: which spots exist and their limits, how outcome events (spins, cards, decisions)
are interpreted, the expected settlement of each bet, and the procedure checks of a round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable, ClassVar, Mapping, TypeVar

from mypy_extensions import mypyc_attr

from pitwatch.rules.accounting import FloatLedger
from pitwatch.rules.base import (
    Bet,
    ExpectedSettlement,
    RecordedSettlement,
    RuleError,
    Ruleset,
    Violation,
    load_ruleset,
)
from pitwatch.rules.book import Book
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.money import ZERO


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (pitwatch.native), still subclassable
class Carry:
    """A game's state that crosses rounds at one table (the last direction of the wheel, the colour
    markers, the shoe's burn, the bank, the session's fees), kept in :attr:`TableContext.carry` and stored
    in the table state. A game with such state subclasses it (its round's :attr:`GameRound.carry_type`):
    typed attributes with defaults (a new session's state), :meth:`fields` and :meth:`load`.

    Versioned: the stored form is ``{"version": VERSION, **fields}``; a game that changes what it stores
    raises its ``VERSION`` and reads the older forms in :meth:`load` (``version`` says which). The base
    holds nothing (the games without state across rounds)."""

    VERSION: ClassVar[int] = 1

    def fields(self) -> dict[str, Any]:
        """The state as JSON types (money as strings), without the version."""
        return {}

    def load(self, fields: Mapping[str, Any], version: int) -> None:
        """Set the state from :meth:`fields` as stored under ``version`` (at most :attr:`VERSION`). Raises
        ``KeyError``/``ValueError``/``TypeError`` for a malformed form."""

    def to_dict(self) -> dict[str, Any]:
        """The stored form: ``{"version": VERSION, **fields()}``. Inverse: :func:`load_carry`."""
        return {"version": self.VERSION, **self.fields()}

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Carry) and other.to_dict() == self.to_dict()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.fields()!r})"


_C = TypeVar("_C", bound=Carry)


def load_carry(kind: type[_C], stored: Mapping[str, Any]) -> _C:
    """A ``kind`` carry from its stored form (:meth:`Carry.to_dict`). Raises
    :class:`~pitwatch.rules.base.RuleError` for a version newer than ``kind`` reads or a malformed form."""
    version = stored.get("version")
    if type(version) is not int or not 1 <= version <= kind.VERSION:
        raise RuleError(f"{kind.__name__} version {version!r}: this release reads 1 to {kind.VERSION}")
    carry = kind()
    try:
        carry.load(stored, version)
    except (KeyError, ValueError, TypeError, ArithmeticError) as exc:
        raise RuleError(f"{kind.__name__} version {version} malformed: {type(exc).__name__}: {exc}") from None
    return carry


def carry_type(game: str) -> type[Carry]:
    """The :class:`Carry` class of ``game``'s rounds (the base for a game unknown to this release)."""
    from pitwatch.rules.registry import GAMES  # the registry imports the games, which import this module

    cls = GAMES.get(game)
    return Carry if cls is None else cls.carry_type


@dataclass
class TableContext:
    """What the engine knows about a table between rounds.

    ``min_bet``/``max_bet`` are the table limits in euros as opened or changed;
    ``options`` are the ruleset options set by ``table_opened`` (strings);
    ``carry`` is owned by the game module for state that crosses rounds (previous spin direction,
    colour markers, shoe state, the bank): the game's :class:`Carry`, stored in the table snapshot
    (:meth:`carry_as` gives it typed).
    ``ledger`` is the float account of the session (:class:`~pitwatch.rules.accounting.FloatLedger`).
    ``book`` holds the bets standing on the layout across rounds (:class:`~pitwatch.rules.book.Book`:
    roulette's bets en prison).
    """

    casino_id: str
    table_id: str
    game: str
    ruleset: Ruleset
    min_bet: Decimal
    max_bet: Decimal
    options: dict[str, str] = field(default_factory=dict)
    dealer_id: str | None = None
    carry: Carry = field(default_factory=Carry)
    ledger: FloatLedger = field(default_factory=FloatLedger)
    book: Book = field(default_factory=Book)
    memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    """Values derived only from the ruleset, the options and the limits (option values, bet
    limits, house edges), each computed once (:meth:`derived`). Never stored: it is emptied
    whenever ``min_bet`` or ``max_bet`` change, and a context rebuilt from :meth:`to_dict`
    starts without it."""
    _memo_limits: tuple[Decimal, Decimal] | None = field(default=None, repr=False, compare=False)

    def derived(self, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()``, computed once per ``key`` while the table limits stay the same (the
        options and the ruleset of a context never change). ``key`` must name the function and
        its arguments (e.g. ``("roulette_limits", "simple")``); ``compute`` must depend only on
        the ruleset, the options and the limits. Whatever ``compute`` raises propagates and
        nothing is kept."""
        limits = (self.min_bet, self.max_bet)
        if self._memo_limits != limits:
            self.memo.clear()
            self._memo_limits = limits
        try:
            return self.memo[key]
        except KeyError:
            value = self.memo[key] = compute()
            return value

    def option(self, name: str, default: str | None = None) -> str:
        """Table option ``name``: the value ``table_opened`` set, else the ruleset's ``[options]``
        default (every option a game reads is declared, and required, in its ruleset model).

        Raises ``KeyError`` if ``name`` is not an option of the ruleset's game: a misspelt name
        is an error, never a silent default. ``default`` is accepted for backward compatibility
        and never used."""
        if name in self.options:
            return self.options[name]
        return str(self.derived(("option", name), lambda: self.ruleset.model.options.default(name)))

    def carry_as(self, kind: type[_C]) -> _C:
        """:attr:`carry` as the game's own ``kind``. Raises :class:`~pitwatch.rules.base.RuleError` when it
        is another (a context of another game)."""
        carry = self.carry
        if not isinstance(carry, kind):
            raise RuleError(f"table {self.table_id} carries {type(carry).__name__}, not {kind.__name__}")
        return carry

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form of the context (money as strings; ``carry`` as :meth:`Carry.to_dict`). Inverse of
        :meth:`from_dict`."""
        return {
            "casino_id": self.casino_id, "table_id": self.table_id, "game": self.game,
            "ruleset_id": self.ruleset.id, "min_bet": str(self.min_bet), "max_bet": str(self.max_bet),
            "options": dict(self.options), "dealer_id": self.dealer_id,
            "carry": self.carry.to_dict(), "float": self.ledger.to_dict(), "book": self.book.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], versions: Mapping[str, str] | None = None) -> "TableContext":
        """Rebuild a context from :meth:`to_dict`, with the ruleset version pinned in
        ``versions`` (``{ruleset_id: content hash}``) or else the shipped one (a dict without ``book``,
        written before the book existed, gets an empty one). Raises
        :class:`~pitwatch.rules.base.RuleError` if that ruleset or version is unknown, or the book's or
        the carry's version is not one this release reads."""
        rid = d["ruleset_id"]
        return cls(
            casino_id=d["casino_id"], table_id=d["table_id"], game=d["game"],
            ruleset=load_ruleset(rid, (versions or {}).get(rid)), min_bet=Decimal(d["min_bet"]),
            max_bet=Decimal(d["max_bet"]), options=dict(d["options"]), dealer_id=d["dealer_id"],
            carry=load_carry(carry_type(d["game"]), d["carry"]), ledger=FloatLedger.from_dict(d["float"]),
            book=Book.from_dict(d.get("book")),
        )


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (pitwatch.native), still subclassable
class GameRound:
    """One round (spin, hand, coup) of a game. Subclass per game family.

    The engine fills ``bets`` (bet_id -> :class:`Bet`) from ``bet_placed``/``bet_withdrawn``
    and ``recorded`` from ``settlement_recorded``; it calls :meth:`on_bet` for each new bet,
    :meth:`on_event` for each game event (spins, cards, decisions), then at ``round_ended``
    either :meth:`settle` + :meth:`check`, or :meth:`void` for a void round, and last
    :meth:`finish`. :meth:`settle`, :meth:`check` and :meth:`void` are side-effect free (they
    may be called ahead of time, e.g. to inspect a round in progress).
    """

    game: ClassVar[str] = ""
    carry_type: ClassVar[type[Carry]] = Carry
    """The class of the game's state across rounds (:attr:`TableContext.carry`)."""
    bet_events: ClassVar[frozenset[str]] = frozenset()
    """Event types of the game's own that place a bet, as ``bet_placed`` does (American roulette's bet in
    colour chips): the engine turns each into a :class:`Bet` with :meth:`bet_of` and judges it as any bet
    (past-posting, limits, settlement)."""

    def __init__(self, ctx: TableContext, round_id: str, last_of_session: bool = False):
        self.ctx = ctx
        self.round_id = round_id
        self.last_of_session = last_of_session
        self.bets: dict[str, Bet] = {}
        self.recorded: dict[str, RecordedSettlement] = {}
        self.bets_closed = False
        self.closed_event_id: str | None = None
        self.window = 0
        """The betting window of the round now open (0 before the first roll, spin or coup; the engine
        adds one each time :meth:`reopens_betting` opens a new one)."""

    # -- hooks the engine calls -------------------------------------------------------

    def on_bet(self, bet: Bet) -> list[Violation]:
        """Validate a new bet: spot known to the game, stake within the limits of its kind.

        Returns violations (``invalid_bet``, ``bet_below_minimum``, ``bet_above_maximum``).
        """
        return []

    def bet_of(self, event: EventBase, event_id: str) -> Bet:
        """The :class:`Bet` an event of :attr:`bet_events` places (stake in euros). Raises
        :class:`~pitwatch.rules.base.RuleError` for a bet the rules cannot value (the event is then
        not applied)."""
        raise NotImplementedError(f"{type(self).__name__} places no bet with {event.type}")

    def on_event(self, event: EventBase) -> list[Violation]:
        """Apply a game event (``wheel_spun``, ``ball_landed``, ``card_dealt``,
        ``player_decision``); return the violations it reveals at once."""
        return []

    def reopens_betting(self, event: EventBase) -> bool:
        """Whether ``event`` (a game event, after :meth:`on_event` applied it) opens a new betting window
        in the round: craps' dice rolled open the window of the next roll, so a bet placed after them
        and before the next «No va más» is not past-posting. A one-window game (roulette, blackjack,
        baccarat: one ``bets_closed`` per round) keeps the default, never."""
        return False

    def settle(self) -> list[ExpectedSettlement]:
        """Expected settlement of every bet the round must settle."""
        raise NotImplementedError

    def check(self) -> list[Violation]:
        """Procedure violations visible only at the end of the round (dealer draws etc.)."""
        return []

    def void(self, reason: str) -> list[ExpectedSettlement]:
        """A void round («tirada nula»): every stake placed in it is returned unchanged."""
        cite = self.ctx.ruleset.cite("void_round")
        return [
            ExpectedSettlement(b.bet_id, b.player_id, b.spot, b.stake, "void", b.stake, ZERO, cite,
                               f"round voided: {reason}")
            for b in self.bets.values()
        ]

    def void_violations(self, reason: str, event_id: str) -> list[Violation]:
        """The violations of voiding this round («tirada nula», event ``event_id`` giving ``reason``): a void the
        game's rules do not allow (the wheel of fortune in Andalucía voids a spin only in the cases its text
        lists). The default: none, any void is the croupier's call and every stake comes back (:meth:`void`)."""
        return []

    def finish(self) -> None:
        """Called once after :meth:`settle` (or :meth:`void`): update ``ctx.carry`` (the game's
        :attr:`carry_type`) here
        (e.g. imprison roulette bets). :meth:`settle` and :meth:`check` must not mutate."""

    def outcome(self) -> str:
        """A short human description of the round's result (e.g. ``"17 black"``)."""
        return ""

    def actions_taken(self) -> tuple[tuple[int, str, str, bool], ...]:
        """The players' decisions of the round in the order taken, ``(interval, player_id,
        action, open)`` (``open``: he could have bet or raised instead), for the cross-round
        detectors (:attr:`pitwatch.rules.base.RoundVerdict.decisions`).
        Empty unless the game records them (poker does)."""
        return ()

    def on_movement(self, event: EventBase) -> list[Violation]:
        """A chip or cash movement (``chips_bought``, ``chips_cashed``...) while this round is open;
        the violations it reveals (poker: chips added to a stack once the hand has begun)."""
        return []

    @staticmethod
    def on_table_event(ctx: TableContext, event: EventBase) -> list[Violation]:
        """Apply a table-level event (shoe loaded/cut/burned, limits changed) for this game."""
        return []
