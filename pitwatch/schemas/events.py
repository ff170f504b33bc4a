"""The event contract: an envelope shared by every table event and a payload discriminated by ``type``.

Wire format: one JSON object per event, envelope fields and payload fields side by side::

    {"event_id": "4f0c...", "schema_version": 1, "casino_id": "gal-coruna",
     "table_id": "RF-01", "game": "french_roulette", "seq": 42, "round_id": "RF-01-0007",
     "occurred_at": "2026-11-21T21:04:05.120Z", "actor": {"role": "player", "id": "P-0012"},
     "type": "bet_placed", "bet_id": "B-000123", "player_id": "P-0012",
     "spot": "split:17-20", "stake": "10.00"}

Envelope (every event): ``event_id`` (UUID, the idempotency key), ``schema_version``,
``casino_id``, ``table_id``, ``game``, ``seq`` (per table, strictly increasing from 1:
a gap means lost events), ``round_id`` (null for table-level events), ``occurred_at``
(UTC, millisecond precision), ``actor`` (role and id). Everything else is the payload of
the event ``type``. Money is a JSON string of euros with two decimals (``"12.50"``;
JSON numbers are accepted on input). Times are UTC.

Canonical encodings (bet spots, cards, hand ids) are documented in ``docs/events.md``
("Canonical encodings") and, per game, in ``docs/encodings.md``. Their grammar is validated here
(:mod:`pitwatch.schemas.codes`; the patterns are in the JSON Schemas exported by ``pitwatch schema export``, so a producer in
another language only needs those); whether a well-formed code is legal at the table (a spot
on the layout, a hand that exists) is judged by each game's rules module.
"""

from __future__ import annotations

import importlib
import json
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import Field, TypeAdapter

from pitwatch.catalogue import CATALOGUE
from pitwatch.schemas.chemin_de_fer import BankPutUp, DrawDecision, StakeJoined, TableauRequested  # noqa: F401
from pitwatch.schemas.codes import CardCode, DecisionCheck, HandId, SpotCode
from pitwatch.schemas.dos_panos import BankAuctioned, CardsLost  # noqa: F401
from pitwatch.schemas.envelope import (  # noqa: F401  (the contract's names, here as before)
    SCHEMA_VERSION,
    Actor,
    ActorRole,
    EventBase,
    EventId,
    Game,
    Id,
    OptionName,
    OptionValue,
    RoundEvent,
    UtcMs,
    utc_ms,
)
from pitwatch.schemas.money import Money
from pitwatch.schemas.poker import (  # noqa: F401  (re-exported: the contract's names, here as before)
    BetReturned,
    ButtonPlaced,
    CardsDiscarded,
    HandMucked,
    HandShown,
    PokerAction,
    PotAwarded,
    RakeTaken,
    SessionFeeTaken,
    StackCounted,
)

# --------------------------------------------------------------------------- table lifecycle


class TableOpened(EventBase):
    """The table opens for a session with a ruleset, limits and its float («anticipo»).

    ``ruleset_id`` names a ruleset data file (e.g. ``french_roulette.galicia``);
    ``min_bet``/``max_bet`` are the table minimum and maximum in euros; ``options`` holds
    ruleset options chosen by the casino's authorisation (e.g. the roulette maximum tier),
    as strings; each ruleset documents the options it reads. At most 32 options, names of at most
    64 characters, values of at most 256: the table's state keeps them, and an unbounded
    value would make the state too large to store (the worker could not go on).
    """

    type: Literal["table_opened"] = "table_opened"
    ruleset_id: Id
    jurisdiction: Id
    min_bet: Money
    max_bet: Money
    float_amount: Money
    options: Annotated[dict[OptionName, OptionValue], Field(max_length=32)] = Field(default_factory=dict)


class TableClosed(EventBase):
    """The table closes (end of session). Closing with a round open is a procedure violation.

    ``closing_count`` is the chips counted at the table at the close, in euros (the float tray
    and the commission slot; not the tips): with it, the float of the session is reconciled
    against the bets' win (see :mod:`pitwatch.rules.accounting`). Without it nothing is
    reconciled."""

    type: Literal["table_closed"] = "table_closed"
    closing_count: Money | None = None


class DealerAssigned(EventBase):
    """A dealer (croupier) takes the table."""

    type: Literal["dealer_assigned"] = "dealer_assigned"
    dealer_id: Id


class LimitsChanged(EventBase):
    """The table minimum/maximum change (Galicia forbids it during a session: 000 L169)."""

    type: Literal["limits_changed"] = "limits_changed"
    min_bet: Money
    max_bet: Money


class ShoeLoaded(EventBase):
    """A shoe («sabot») with ``decks`` decks is put on the table."""

    type: Literal["shoe_loaded"] = "shoe_loaded"
    shoe_id: Id
    decks: Annotated[int, Field(ge=1, le=12)]


class ShoeShuffled(EventBase):
    """The cards of the shoe were shuffled."""

    type: Literal["shoe_shuffled"] = "shoe_shuffled"
    shoe_id: Id


class ShoeCut(EventBase):
    """The shuffled block was cut and the cut card placed with ``cards_behind`` cards behind it."""

    type: Literal["shoe_cut"] = "shoe_cut"
    shoe_id: Id
    cut_by: Id | None = None
    cards_behind: Annotated[int, Field(ge=0, le=624)]


class CardsBurned(EventBase):
    """``count`` cards were burned (discarded unseen) from the shoe."""

    type: Literal["cards_burned"] = "cards_burned"
    count: Annotated[int, Field(ge=1, le=20)]


# --------------------------------------------------------------------------- players and chips


class PlayerSeated(EventBase):
    """A player takes seat (box) ``seat``."""

    type: Literal["player_seated"] = "player_seated"
    player_id: Id
    seat: Annotated[int, Field(ge=1, le=20)]


class PlayerLeft(EventBase):
    """A player leaves the table."""

    type: Literal["player_left"] = "player_left"
    player_id: Id


class ChipsBought(EventBase):
    """A player buys chips at the table for ``amount`` euros (part of the drop)."""

    type: Literal["chips_bought"] = "chips_bought"
    player_id: Id
    amount: Money


class ChipsCashed(EventBase):
    """A player colours up / cashes ``amount`` euros of chips at the table."""

    type: Literal["chips_cashed"] = "chips_cashed"
    player_id: Id
    amount: Money


class ChipsTransferred(EventBase):
    """Chips worth ``amount`` pass from one player to another."""

    type: Literal["chips_transferred"] = "chips_transferred"
    from_player: Id
    to_player: Id
    amount: Money


class TableFill(EventBase):
    """A fill: chips worth ``amount`` euros brought from the cage to the table's float
    (``slip_id``: the fill slip, if any)."""

    type: Literal["table_fill"] = "table_fill"
    amount: Money
    slip_id: Id | None = None


class TableCredit(EventBase):
    """A credit: chips worth ``amount`` euros taken from the table's float to the cage
    (``slip_id``: the credit slip, if any)."""

    type: Literal["table_credit"] = "table_credit"
    amount: Money
    slip_id: Id | None = None


class TipReceived(EventBase):
    """A tip («propina») of ``amount`` euros put in the tips slot, from ``player_id`` if known
    (000 L443, L453; 004 L1591, L1647): the employees', not part of the table's float or win."""

    type: Literal["tip_received"] = "tip_received"
    amount: Money
    player_id: Id | None = None


# --------------------------------------------------------------------------- rounds


class RoundStarted(RoundEvent):
    """A round (spin, hand, coup) starts. ``last_of_session`` marks the announced last round
    of the session (roulette: the last spin, which forces imprisoned bets out, 000 L129)."""

    type: Literal["round_started"] = "round_started"
    last_of_session: bool = False


class BetPlaced(RoundEvent):
    """A bet of ``stake`` euros by ``player_id`` on ``spot`` (canonical spot code of the game,
    see ``docs/encodings.md``), in blackjack on box ``box``. ``bet_id`` is unique per table. A spot outside
    the code grammar is a schema error ("did you mean ...?"); a well-formed spot that is not on
    the game's layout (``split:1-5``) is valid here and an ``invalid_bet`` for the rules."""

    type: Literal["bet_placed"] = "bet_placed"
    bet_id: Id
    player_id: Id
    spot: SpotCode
    stake: Money
    box: Annotated[int, Field(ge=1, le=20)] | None = None


class BetWithdrawn(RoundEvent):
    """A bet is taken back from the layout."""

    type: Literal["bet_withdrawn"] = "bet_withdrawn"
    bet_id: Id


class BetsClosed(RoundEvent):
    """«No va más»: no bet may be placed or withdrawn after this event (000 L185)."""

    type: Literal["bets_closed"] = "bets_closed"


class WheelSpun(RoundEvent):
    """The roulette cylinder was spun in ``direction`` (must alternate every spin: 000 L183)."""

    type: Literal["wheel_spun"] = "wheel_spun"
    direction: Literal["clockwise", "counterclockwise"]


class BallLanded(RoundEvent):
    """The roulette ball came to rest in pocket ``number`` (0-36)."""

    type: Literal["ball_landed"] = "ball_landed"
    number: Annotated[int, Field(ge=0, le=36)]


class CardDealt(RoundEvent):
    """Card ``card`` (e.g. ``"QH"``) dealt to hand ``hand`` (``"dealer"``, a blackjack box hand
    such as ``"3"`` or ``"3-2"``, or ``"punto"``/``"banca"``). A hand or card outside the grammar
    is a schema error with a "did you mean ...?" hint."""

    type: Literal["card_dealt"] = "card_dealt"
    hand: HandId
    card: CardCode
    face_up: bool = True


DecisionKind = Literal[
    "hit", "stand", "double", "split", "insurance", "surrender",
    "en_prison", "half_back",
]


class PlayerDecision(RoundEvent):
    """A player's decision on a hand or bet.

    Blackjack: ``hit``/``stand``/``double``/``split``/``surrender`` on ``hand``;
    ``insurance`` with ``bet_id`` (the main bet insured) and ``amount``; ``double`` adds a
    stake equal to each bet's stake on that hand. Roulette: ``en_prison``/``half_back`` with
    ``bet_id`` after a zero on a simple chance.
    """

    type: Literal["player_decision"] = "player_decision"
    decision: Annotated[DecisionKind, DecisionCheck]
    hand: Annotated[str, Field(min_length=1, max_length=16)] | None = None
    bet_id: Id | None = None
    amount: Money | None = None


class RoundVoided(RoundEvent):
    """«Tirada nula» / void round: every stake of the round is returned (000 L189-191)."""

    type: Literal["round_voided"] = "round_voided"
    reason: Annotated[str, Field(min_length=1, max_length=200)]


class SettlementRecorded(RoundEvent):
    """What the dealer actually did with a bet: the audited fact.

    ``returned`` is the gross amount handed back to the player for the bet (stake back plus
    winnings; 0 for a lost bet, the half stake for a half-back), ``commission`` the amount the
    house takes on it (punto y banca bank commission), so the player nets
    ``returned - commission``. ``outcome`` is the dealer's word for it (``win``, ``lose``,
    ``push``, ``half_back``, ``en_prison``, ``released``, ``void``...).
    """

    type: Literal["settlement_recorded"] = "settlement_recorded"
    bet_id: Id
    outcome: Annotated[str, Field(min_length=1, max_length=32)]
    returned: Money
    commission: Money = Decimal("0.00")


class CommissionCollected(RoundEvent):
    """Commission of ``amount`` euros collected (informational; the audited figure is the
    ``commission`` of each settlement)."""

    type: Literal["commission_collected"] = "commission_collected"
    amount: Money
    bet_id: Id | None = None


class RoundEnded(RoundEvent):
    """The round is over: the engine settles it."""

    type: Literal["round_ended"] = "round_ended"


CORE_EVENT_TYPES: tuple[type[EventBase], ...] = (
    TableOpened, TableClosed, DealerAssigned, LimitsChanged,
    ShoeLoaded, ShoeShuffled, ShoeCut, CardsBurned,
    PlayerSeated, PlayerLeft, ChipsBought, ChipsCashed, ChipsTransferred,
    TableFill, TableCredit, TipReceived,
    RoundStarted, BetPlaced, BetWithdrawn, BetsClosed, WheelSpun, BallLanded, CardDealt,
    PlayerDecision, RoundVoided, SettlementRecorded, CommissionCollected, RoundEnded,
)
"""The event types of this module: the table, the chips, and the rounds of every game."""


def _game_event_types() -> tuple[type[EventBase], ...]:
    """The event types of each game's own ``events`` module in the catalogue
    (:data:`pitwatch.catalogue.CATALOGUE`), in catalogue order, each once."""
    found: dict[type[EventBase], None] = {}
    for e in CATALOGUE:
        if e.events is not None:
            found.update(dict.fromkeys(importlib.import_module(e.events).EVENT_TYPES))
    return tuple(found)


EVENT_TYPES: tuple[type[EventBase], ...] = CORE_EVENT_TYPES + _game_event_types()
"""Every event type of the contract: :data:`CORE_EVENT_TYPES`, then the games' own."""

if TYPE_CHECKING:
    Event = Any  # the union is built from the catalogue at import: its members are not known statically
else:
    Event = Annotated[Union[EVENT_TYPES], Field(discriminator="type")]
"""Any table event; pydantic picks the class from ``type``."""

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)
#: pydantic-core's validator of :data:`EVENT_ADAPTER` (``TypeAdapter.validator``), called
#: directly by :func:`parse_event`: the same validation and errors without the Python wrapper
#: of ``TypeAdapter.validate_json``, about 0.9 us of the 7 us a line takes (BENCHMARKS.md)
_VALIDATE_JSON = EVENT_ADAPTER.validator.validate_json
ENVELOPE_FIELDS = frozenset(EventBase.model_fields) | {"type"}
EVENT_CLASS_BY_TYPE: dict[str, type[EventBase]] = {
    cls.model_fields["type"].default: cls for cls in EVENT_TYPES
}


class InvalidEvent(ValueError):
    """Raised by :func:`parse_event` for bytes that are not a valid event; ``reason`` says why.

    ``table_id`` and ``seq`` are the envelope's, when the bytes are a JSON object whose
    ``table_id`` is a non-empty string and ``seq`` a positive integer (else ``None``): the
    sequence check uses them so that the invalid message is not reported a second time as a
    missing event (:meth:`pitwatch.detectors.sequence.SequenceChecker.excuse`)."""

    def __init__(self, reason: str, table_id: str | None = None, seq: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.table_id = table_id
        self.seq = seq


_TABLE_ID_FIELD = re.compile(rb'"table_id"\s*:\s*"([^"\\]{1,64})"')
_SEQ_FIELD = re.compile(rb'"seq"\s*:\s*([0-9]{1,18})\b')


def _envelope_hint(raw: bytes | str) -> tuple[str | None, int | None]:
    """``(table_id, seq)`` read from a message that failed validation, where readable: from
    the JSON object, or, for bytes that are not JSON (a truncated line), from the one
    ``"table_id"`` and the one ``"seq"`` field they hold (none if either is absent or repeated)."""
    try:
        doc: Any = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        data = raw.encode("utf-8", "replace") if isinstance(raw, str) else raw
        tids, seqs = _TABLE_ID_FIELD.findall(data), _SEQ_FIELD.findall(data)
        if len(tids) != 1 or len(seqs) != 1:
            return None, None
        doc = {"table_id": tids[0].decode("utf-8", "replace"), "seq": int(seqs[0])}
    if not isinstance(doc, dict):
        return None, None
    tid, seq = doc.get("table_id"), doc.get("seq")
    if not isinstance(tid, str) or not tid or type(seq) is not int or seq < 1:
        return None, None
    return tid, seq


def parse_event(raw: bytes | str) -> Event:
    """Parse and validate one JSON event.

    Returns the typed event. Raises :class:`InvalidEvent` with a one-line reason for malformed
    JSON, an unknown ``type``, missing or invalid fields.
    """
    try:
        return _VALIDATE_JSON(raw)
    except Exception as exc:  # pydantic.ValidationError or decoding errors
        tid, seq = _envelope_hint(raw)
        errors = getattr(exc, "errors", None)
        if callable(errors):
            parts = []
            for err in errors()[:5]:
                loc = ".".join(str(p) for p in err.get("loc", ()) if p not in EVENT_CLASS_BY_TYPE)
                parts.append(f"{loc or '<event>'}: {err.get('msg')}")
            raise InvalidEvent("; ".join(parts), tid, seq) from None
        raise InvalidEvent(str(exc), tid, seq) from None


def dump_event(event: EventBase) -> bytes:
    """Serialize an event to its canonical JSON bytes (UTF-8)."""
    return event.__pydantic_serializer__.to_json(event)


def payload_of(event: EventBase) -> dict[str, Any]:
    """The payload fields of ``event`` (everything but the envelope), JSON-ready."""
    data = event.model_dump(mode="json")
    return {k: v for k, v in data.items() if k not in ENVELOPE_FIELDS}
