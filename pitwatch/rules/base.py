"""Rules-engine building blocks shared by every game: rulesets, settlements, violations.

Pure: nothing here does I/O at verdict time (ruleset files are read once, at import of a
ruleset, and cached), reads a clock or draws a random number.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from pitwatch.rules.models import RulesetInvalid, RulesetModel, validate_ruleset
from pitwatch.schemas.money import ZERO, round_cents

RULESETS_DIR = Path(__file__).parent / "rulesets"


class RuleError(ValueError):
    """An event the rules reject (unknown ruleset, a ruleset of another game, a table option
    the law does not allow...). The engine leaves the table unchanged; the event is evidence
    and becomes a ``rejected_event`` violation citing ``citation`` (the rule broken, or the
    engine's own contract when no regulation applies)."""

    def __init__(self, message: str, citation: str = ""):
        super().__init__(message)
        self.citation = citation



class RoundTooLong(RuntimeError):
    """The open round already holds :data:`~pitwatch.rules.engine.MAX_ROUND_EVENTS` events: the
    event is not applied (nothing changes). Not a :class:`RuleError`: no rule is broken, the table
    cannot be kept. (Defined here, in an interpreted module: a compiled module's classes cannot
    derive from a built-in exception.)"""

# --------------------------------------------------------------------------- rulesets


M = TypeVar("M", bound=RulesetModel)


@dataclass(frozen=True)
class Ruleset:
    """One game in one jurisdiction, loaded from ``rules/rulesets/<id>.toml``.

    ``model`` is the file validated against the model of its game (:mod:`pitwatch.rules.models`:
    :class:`~pitwatch.rules.models.RouletteRuleset`, :class:`~pitwatch.rules.models.BlackjackRuleset`
    or :class:`~pitwatch.rules.models.PuntoBancaRuleset`), which every game module reads through
    :meth:`model_as`; the common keys are ``id``, ``game``, ``jurisdiction``, ``title``, ``seed``,
    ``rounding``, ``[citations]`` and ``[[ambiguities]]``. Unknown keys, missing keys and values
    outside the law's range are refused when the ruleset is built (``RuleError``). ``data`` is
    the parsed TOML (money and ratios as ``Decimal``), kept for backward compatibility: the
    engine does not read it.

    ``content_hash`` is the SHA-256 (hex) of the file's bytes and ``source`` its text: a
    version of a ruleset is ``(id, content_hash)``. Every verdict records the version that
    judged it, and the warehouse keeps the source of every version it has used, so a round
    can be judged again with the law as it was (:func:`load_ruleset` with a hash). ``origin``
    says where the text came from (``rulesets/<id>.toml``), for error messages.
    """

    id: str
    game: str
    jurisdiction: str
    data: dict[str, Any]
    content_hash: str = ""
    source: str = field(default="", repr=False, compare=False)
    origin: str = field(default="", repr=False, compare=False)
    model: RulesetModel = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        where = self.origin or f"ruleset {self.id or '?'}"
        try:
            model = validate_ruleset(self.data)
        except RulesetInvalid as exc:
            raise RuleError(f"{where}: invalid ruleset: {exc}") from None
        if (model.id, model.game, model.jurisdiction) != (self.id, self.game, self.jurisdiction):
            raise RuleError(f"{where}: id, game, jurisdiction {self.id}, {self.game}, {self.jurisdiction} "
                            f"are not the file's {model.id}, {model.game}, {model.jurisdiction}")
        object.__setattr__(self, "model", model)

    def model_as(self, cls: type[M]) -> M:
        """``model`` as the model ``cls`` of a game; raises ``RuleError`` if this ruleset is of
        another game (e.g. a blackjack round handed a roulette ruleset)."""
        if not isinstance(self.model, cls):
            raise RuleError(f"ruleset {self.id} is a {self.game} ruleset, not a {cls.__name__}")
        return self.model

    @property
    def rounding(self) -> str:
        """Rounding mode of derived euro amounts (``down``, ``half_up``, ``half_even``)."""
        return self.model.rounding

    def cite(self, key: str) -> str:
        """Citation string for rule ``key``; raises ``RuleError`` if the ruleset lacks it."""
        try:
            return self.model.citations[key]
        except KeyError:
            raise RuleError(f"ruleset {self.id} has no citation for {key!r}") from None

    def round(self, amount: Decimal) -> Decimal:
        """Round a derived euro amount with this ruleset's rounding mode."""
        return round_cents(amount, self.rounding)


def content_hash(source: bytes) -> str:
    """SHA-256 (hex, 64 characters) of a ruleset file's bytes: the id of its version."""
    return hashlib.sha256(source).hexdigest()


def parse_ruleset(source: str, origin: str = "") -> Ruleset:
    """Build a :class:`Ruleset` from the text of a ruleset file (TOML, UTF-8), validated against
    the model of its game. ``origin`` names the text in error messages (e.g. ``rulesets/x.toml``).

    Raises ``RuleError`` naming ``origin``, the key path and the problem if it is not TOML or does
    not match the model (unknown game, unknown or missing key, value of the wrong type or range)."""
    where = origin or "ruleset text"
    try:
        data = tomllib.loads(source, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(f"{where}: not a ruleset file: TOMLDecodeError: {exc}") from None
    return Ruleset(id=str(data.get("id", "")), game=str(data.get("game", "")),
                   jurisdiction=str(data.get("jurisdiction", "")), data=data,
                   content_hash=content_hash(source.encode("utf-8")), source=source, origin=where)


_PAST_VERSIONS: dict[tuple[str, str], Ruleset] = {}


def register_ruleset_version(source: str) -> Ruleset:
    """Make a version of a ruleset (its file text, e.g. read back from the warehouse's
    ``rulesets`` table) loadable by :func:`load_ruleset` with its hash. Returns it.

    Versions are content-addressed, so registering is idempotent and never changes what an
    ``(id, hash)`` pair means. Raises ``RuleError`` for text that is not a ruleset, or that does
    not match this release's model of its game."""
    r = parse_ruleset(source, f"ruleset version {content_hash(source.encode('utf-8'))[:12]}")
    return _PAST_VERSIONS.setdefault((r.id, r.content_hash), r)


@lru_cache(maxsize=None)
def _shipped(ruleset_id: str) -> Ruleset:
    path = RULESETS_DIR / f"{ruleset_id}.toml"
    if "/" in ruleset_id or not path.is_file():
        known = ", ".join(sorted(p.stem for p in RULESETS_DIR.glob("*.toml")))
        raise RuleError(f"unknown ruleset {ruleset_id!r} (known: {known})")
    return parse_ruleset(path.read_bytes().decode("utf-8"), f"{RULESETS_DIR.name}/{path.name}")


def load_ruleset(ruleset_id: str, version: str | None = None) -> Ruleset:
    """Load ruleset ``ruleset_id`` (e.g. ``"french_roulette.galicia"``): the version shipped
    with this release, or, given ``version`` (a content hash), that version, which must be
    the shipped one or one registered with :func:`register_ruleset_version`. Its ``model`` is
    the file validated against the model of its game.

    Raises ``RuleError`` if no such ruleset, or no such version of it, is known, or if the
    file does not match the model of its game (naming the file, the key path and the problem).
    """
    current = _shipped(ruleset_id)
    if version is None or version == current.content_hash:
        return current
    past = _PAST_VERSIONS.get((ruleset_id, version))
    if past is None:
        raise RuleError(f"version {version[:12]} of ruleset {ruleset_id!r} is not known to this release "
                        f"(shipped: {current.content_hash[:12]}); register its source first")
    return past


def list_rulesets() -> list[str]:
    """Ids of every ruleset shipped with pitwatch."""
    return sorted(p.stem for p in RULESETS_DIR.glob("*.toml"))


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Violation:
    """A breach of a rule found by the engine or a detector.

    ``kind`` is one of :data:`pitwatch.rules.base.ViolationKind` names; ``amount`` is the
    euros at stake (signed for payout discrepancies: positive = over-payment);
    ``event_ids`` are the evidence; ``citation`` is the seed and lines of the rule.
    """

    kind: str
    message: str
    citation: str
    event_ids: tuple[str, ...] = ()
    bet_id: str | None = None
    player_id: str | None = None
    amount: Decimal | None = None


class ViolationKind:
    """The violation/alert kinds the engine and detectors emit."""

    PAYOUT_DISCREPANCY = "payout_discrepancy"
    UNKNOWN_BET_SETTLED = "unknown_bet_settled"
    BET_BELOW_MINIMUM = "bet_below_minimum"
    BET_ABOVE_MAXIMUM = "bet_above_maximum"
    INVALID_BET = "invalid_bet"
    PAST_POSTING = "past_posting"
    DEALER_MISDRAW = "dealer_misdraw"
    ILLEGAL_DECISION = "illegal_decision"
    SPIN_DIRECTION = "spin_direction"
    PROCEDURE = "procedure"
    SEQUENCE_GAP = "sequence_gap"
    DUPLICATE_EVENT = "duplicate_event"
    REJECTED_EVENT = "rejected_event"
    TABLE_QUARANTINED = "table_quarantined"
    QUARANTINE_RELEASED = "quarantine_released"
    FLOAT_DISCREPANCY = "float_discrepancy"
    DEALER_PLAYER_COLLUSION = "dealer_player_collusion"
    RAKE_DISCREPANCY = "rake_discrepancy"
    PROHIBITED_PLAY = "prohibited_play"
    CHIP_DUMPING = "chip_dumping"
    SOFT_PLAY = "soft_play"
    WHIPSAW = "whipsaw"
    ASSOCIATION = "association"

    ALL: ClassVar[tuple[str, ...]] = (
        PAYOUT_DISCREPANCY, UNKNOWN_BET_SETTLED, BET_BELOW_MINIMUM, BET_ABOVE_MAXIMUM,
        INVALID_BET, PAST_POSTING, DEALER_MISDRAW, ILLEGAL_DECISION, SPIN_DIRECTION,
        PROCEDURE, SEQUENCE_GAP, DUPLICATE_EVENT, REJECTED_EVENT, TABLE_QUARANTINED,
        QUARANTINE_RELEASED, FLOAT_DISCREPANCY, DEALER_PLAYER_COLLUSION, RAKE_DISCREPANCY, PROHIBITED_PLAY,
        CHIP_DUMPING, SOFT_PLAY, WHIPSAW, ASSOCIATION,
    )


REFUSED = "refused"
"""Expected outcome of a bet (or a decision's extra stake) that is no wager: placed after «No
va más», off the layout, or a decision the rules do not allow. ``returned`` = the stake (the
chips are handed back). Recording nothing for it is correct too (the dealer refused the chips);
recording more is an over-payment, less (the chips kept) an under-payment."""


@dataclass(slots=True, unsafe_hash=True)
class ExpectedSettlement:
    """What the regulation says must happen to one bet in one round.

    ``stake`` is the total euros the bet has at risk (initial stake plus doubles and split
    stakes in blackjack); ``returned`` the gross euros due back to the player (stake back plus
    winnings; 0 if lost); ``commission`` the euros the house takes (player nets
    ``returned - commission``); ``outcome`` a short word (``win``, ``lose``, ``push``,
    ``half_back``, ``en_prison``, ``released``, ``void``, ``blackjack``...);
    ``citation`` the rule applied; ``detail`` a human explanation (hands, totals).

    For accounting (:mod:`pitwatch.rules.accounting`): ``carried`` is what stays on the layout
    for a later round (a roulette bet kept en prison: its held amount; 0 when this round
    resolves the bet); ``initial`` the bet's original stake when ``stake`` differs from it (a
    blackjack double or split, a prisoner's held amount), else ``None``; ``forced`` the part of
    ``stake`` the rules forced before any decision of the player (at poker his antes and blinds,
    004 L4425-L4448), 0 elsewhere.

    Built once per bet per round and never changed afterwards. Not a ``frozen`` dataclass (nor
    :class:`RecordedSettlement`, :class:`BetCheck` and
    :class:`pitwatch.rules.accounting.BetFigures`): a frozen one takes about five times as long
    to build (each field set through ``object.__setattr__``), and these are built for every
    bet; they hash by value as before (``unsafe_hash``). See BENCHMARKS.md.
    """

    bet_id: str
    player_id: str
    spot: str
    stake: Decimal
    outcome: str
    returned: Decimal
    commission: Decimal = ZERO
    citation: str = ""
    detail: str = ""
    carried: Decimal = ZERO
    initial: Decimal | None = None
    forced: Decimal = ZERO

    @property
    def net(self) -> Decimal:
        """Euros the player nets: ``returned - commission``."""
        return self.returned - self.commission

    @property
    def wager(self) -> Decimal:
        """The bet's original stake (euros): ``initial`` if given, else ``stake``."""
        return self.stake if self.initial is None else self.initial


@dataclass(slots=True, unsafe_hash=True)
class RecordedSettlement:
    """What the dealer recorded for a bet (from ``settlement_recorded``)."""

    bet_id: str
    outcome: str
    returned: Decimal
    commission: Decimal
    event_id: str

    @property
    def net(self) -> Decimal:
        return self.returned - self.commission


@dataclass(slots=True, unsafe_hash=True)
class BetCheck:
    """Expected vs recorded settlement of one bet; ``discrepancy`` = recorded net - expected net
    (positive: the player was over-paid)."""

    expected: ExpectedSettlement
    recorded: RecordedSettlement | None
    discrepancy: Decimal


@dataclass(slots=True)
class Bet:
    """A bet on the layout. ``stake`` may grow in blackjack (double, split)."""

    bet_id: str
    player_id: str
    spot: str
    stake: Decimal
    box: int | None
    event_id: str
    round_id: str


@dataclass(frozen=True)
class RoundVerdict:
    """The engine's verdict on one round: every bet's expected vs recorded settlement and
    every violation, with citations. Times are the UTC ``occurred_at`` of the round's first
    and last events."""

    casino_id: str
    table_id: str
    game: str
    ruleset_id: str
    round_id: str
    dealer_id: str | None
    started_at: Any
    ended_at: Any
    outcome: str
    checks: tuple[BetCheck, ...]
    violations: tuple[Violation, ...]
    event_ids: tuple[str, ...] = field(default=(), repr=False)
    ruleset_hash: str = ""
    """:attr:`Ruleset.content_hash` of the ruleset version that judged the round."""
    figures: tuple[Any, ...] = field(default=(), repr=False)
    """The accounting figures of each check, in order
    (:class:`pitwatch.rules.accounting.BetFigures`)."""
    decisions: tuple[tuple[int, str, str, bool], ...] = field(default=(), repr=False)
    """The players' decisions in the order taken, ``(interval, player_id, action, open)`` (``open``:
    he could have bet or raised instead)
    (:meth:`pitwatch.rules.game.GameRound.actions_taken`; at poker every ``poker_action``, forced bets
    included, the interval counted from 0; empty for the house-banked games)."""


def limit_violations(
    bet: Bet, minimum: Decimal, maximum: Decimal, citation: str, what: str | None = None
) -> list[Violation]:
    """Violations for ``bet`` if its stake is below ``minimum`` or above ``maximum`` euros."""
    label = what or bet.spot
    if bet.stake < minimum:
        return [Violation(
            ViolationKind.BET_BELOW_MINIMUM,
            f"bet {bet.bet_id} of {bet.stake} EUR on {label} is below the minimum {minimum} EUR",
            citation, (bet.event_id,), bet.bet_id, bet.player_id, minimum - bet.stake,
        )]
    if bet.stake > maximum:
        return [Violation(
            ViolationKind.BET_ABOVE_MAXIMUM,
            f"bet {bet.bet_id} of {bet.stake} EUR on {label} is above the maximum {maximum} EUR",
            citation, (bet.event_id,), bet.bet_id, bet.player_id, bet.stake - maximum,
        )]
    return []
