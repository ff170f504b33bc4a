"""Grammar of the canonical codes inside events: bet spots, hand ids, cards, player decisions.

The schema checks the *grammar* only: ``split:1-5`` or ``straight:37`` are well-formed spot
codes that are not on the roulette layout, and judging them is the rules engine's job
(``invalid_bet``). A value outside the grammar is a schema error whose message ends with a
"did you mean ...?" hint computed with :func:`difflib.get_close_matches`.

Spot codes (``docs/encodings.md``, "Spot codes"): ``straight:N``, ``column:N``, ``dozen:N``,
``split:A-B``, ``columns:A-B``, ``dozens:A-B``, ``street:A-B-C``, ``corner:A-B-C-D``,
``sixline:A-B-C-D-E-F`` (numbers without leading zeros), the simple chances ``red``,
``black``, ``even``, ``odd``, ``manque``, ``passe``, blackjack ``main``, punto y banca
``punto``, ``banca``, ``tie``, chemin de fer ``punto``, ``banco``, ``banco_seguido``, ``banco_con_la_mesa``,
``ultimo_completo``, bacará a dos paños ``pano1``, ``pano2``, ``a_caballo``, ``pano1_raya``, ``pano2_raya``
(and ``banco``). Hand ids: ``dealer``, ``punto``, ``banca``, ``pano1``, ``pano2`` (the two paños of bacará
a dos paños), ``board`` (poker's community cards), a blackjack box hand ``N`` / ``N-M`` or a poker seat ``N`` (positive integers
without leading zeros). Cards: rank then suit (:mod:`pitwatch.schemas.cards`), ``AS``, ``TD``, ``QH``.
"""

from __future__ import annotations

import difflib
import re
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field
from pydantic_core import PydanticCustomError

from pitwatch.catalogue import CATALOGUE
from pitwatch.schemas.cards import ALL_CARDS, RANKS, SUITS

_NUM = r"(?:0|[1-9][0-9]*)"
_POS = r"[1-9][0-9]*"

SPOT_ARITY: dict[str, int] = {k: n for e in CATALOGUE for k, n in e.spot_arity.items()}
"""Spot kinds written ``kind:numbers`` and how many numbers each takes (roulette's ``straight``: 1,
``split``: 2 ...): the union of every game's (:data:`pitwatch.catalogue.CATALOGUE`)."""

SPOT_WORDS: tuple[str, ...] = tuple(dict.fromkeys(w for e in CATALOGUE for w in e.spot_words))
"""Spot codes that are a bare word, every game's (``bolsa``: Andalucía's blackjack side bet, 004
L807-L848, not modelled: the engine judges it ``invalid_bet``)."""

SPOT_FORMS: dict[str, str] = {
    **{k: f"{k}:" + "-".join("ABCDEF"[:n]) if n > 1 else f"{k}:N" for k, n in SPOT_ARITY.items()},
    **{w: w for w in SPOT_WORDS},
}
"""Every spot word -> the form of its code (``split`` -> ``split:A-B``)."""

SPOT_PATTERN = "^(?:" + "|".join(
    [f"{k}:{_NUM}" + (f"-{_NUM}" if n == 2 else f"(?:-{_NUM}){{{n - 1}}}" if n > 2 else "")
     for k, n in SPOT_ARITY.items()]
    + list(SPOT_WORDS)) + ")$"
"""JSON Schema / regex pattern of a grammatical spot code."""

HAND_WORDS: tuple[str, ...] = tuple(dict.fromkeys(w for e in CATALOGUE for w in e.hand_words))
HAND_PATTERN = f"^(?:{'|'.join(HAND_WORDS)}|{_POS}(?:-{_POS})?)$"
"""JSON Schema / regex pattern of a hand id: ``dealer``, ``punto``, ``banca``, ``pano1``, ``pano2`` (bacará a
dos paños), ``board`` (poker's community cards), ``N`` (a blackjack box, a poker seat), ``N-M``."""

CARD_PATTERN = f"^[{RANKS}][{SUITS}]$"
"""JSON Schema / regex pattern of a card code (rank, then suit)."""

DECISIONS: tuple[str, ...] = (
    "hit", "stand", "double", "split", "insurance", "surrender", "en_prison", "half_back",
)
"""Values of ``player_decision.decision`` (the ``DecisionKind`` literal of the events)."""

_SPOT_RE = re.compile(SPOT_PATTERN)
_HAND_RE = re.compile(HAND_PATTERN)
_DIGITS = re.compile(r"[0-9]+")
_CARDS = frozenset(ALL_CARDS)
_RANK_WORDS = {"10": "T", "1": "A", "11": "J", "12": "Q", "13": "K", "AS": "A", "ACE": "A", "JACK": "J",
               "QUEEN": "Q", "KING": "K", "TEN": "T"}
_SUIT_WORDS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


def _did_you_mean(value: str, kind: str, noun: str, suggestions: list[str], known: str) -> PydanticCustomError:
    if suggestions:
        hint = " or ".join(repr(s) for s in dict.fromkeys(suggestions))
        msg = f"{value!r} is not a {noun}; did you mean {hint}?"
    else:
        msg = f"{value!r} is not a {noun} (expected {known})"
    # the message goes through the context, so braces in ``value`` are not format fields
    return PydanticCustomError(kind, "{reason}", {"reason": msg})


def spot_suggestions(value: str) -> list[str]:
    """Grammatical spot codes close to ``value`` (best first; empty if none is close).

    Repairs case, surrounding blanks, a misspelt kind (``stright:5`` -> ``straight:5``) and
    leading zeros (``straight:07`` -> ``straight:7``); when the numbers cannot be repaired,
    suggests the form of the kind (``corner:A-B-C-D``).
    """
    word, sep, args = value.strip().lower().partition(":")
    words = [word] if word in SPOT_FORMS else difflib.get_close_matches(word, list(SPOT_FORMS), n=3, cutoff=0.6)
    codes, forms = [], []
    parts = [p.strip() for p in args.split("-")] if sep else []
    for w in words:
        if w in SPOT_ARITY and len(parts) == SPOT_ARITY[w] and all(_DIGITS.fullmatch(p) for p in parts):
            codes.append(f"{w}:" + "-".join(str(int(p)) for p in parts))
        elif w not in SPOT_ARITY:
            codes.append(w)
        else:
            forms.append(SPOT_FORMS[w])
    return codes or forms


def hand_suggestions(value: str) -> list[str]:
    """Grammatical hand ids close to ``value`` (``Dealer`` -> ``dealer``, ``03-1`` -> ``3-1``,
    ``banka`` -> ``banca``); empty if none is close."""
    s = value.strip().lower()
    parts = s.split("-")
    if 1 <= len(parts) <= 2 and all(_DIGITS.fullmatch(p) and int(p) > 0 for p in parts):
        return ["-".join(str(int(p)) for p in parts)]
    return difflib.get_close_matches(s, HAND_WORDS, n=2, cutoff=0.6)


def card_suggestions(value: str) -> list[str]:
    """Card codes close to ``value``: case (``qh`` -> ``QH``), a ten written ``10``
    (``10S`` -> ``TS``), suit symbols (``Q♥`` -> ``QH``), suit first (``HQ`` -> ``QH``);
    empty if none is close."""
    s = "".join(_SUIT_WORDS.get(c, c) for c in value.strip()).upper().replace(" ", "")
    if len(s) < 2 or len(s) > 6:
        return []
    found = []
    for rank_part, suit in ((s[:-1], s[-1]), (s[1:], s[0])):  # rank then suit, or suit then rank
        r = _RANK_WORDS.get(rank_part, rank_part)
        if r + suit in _CARDS:
            found.append(r + suit)
    return found


def check_spot(value: str) -> str:
    """Return ``value`` if it is a grammatical spot code; raises a pydantic error
    (type ``spot_code``) with a "did you mean ...?" hint otherwise."""
    if _SPOT_RE.fullmatch(value):
        return value
    raise _did_you_mean(value, "spot_code", "spot code", spot_suggestions(value),
                        "one of " + ", ".join(SPOT_FORMS.values()))


def check_hand(value: str) -> str:
    """Return ``value`` if it is a grammatical hand id; raises a pydantic error (type
    ``hand_id``) with a "did you mean ...?" hint otherwise."""
    if _HAND_RE.fullmatch(value):
        return value
    raise _did_you_mean(value, "hand_id", "hand id", hand_suggestions(value),
                        "dealer, punto, banca, board, a poker seat N or a blackjack box hand N or N-M such as 3 or 3-2")


def check_card(value: str) -> str:
    """Return ``value`` if it is a card code; raises a pydantic error (type ``card``) with a
    "did you mean ...?" hint otherwise."""
    if value in _CARDS:
        return value
    raise _did_you_mean(value, "card", "card code", card_suggestions(value),
                        "a rank A, 2-9, T, J, Q or K then a suit S, H, D or C, such as AS, TD or QH")


def check_decision(value: Any) -> Any:
    """Before-validator of ``player_decision.decision``: a string outside :data:`DECISIONS`
    raises a pydantic error (type ``decision``) with a "did you mean ...?" hint; anything
    else goes on to the enum (literal) validation."""
    if isinstance(value, str) and value not in DECISIONS:
        close = difflib.get_close_matches(value.strip().lower(), DECISIONS, n=2) if len(value) <= 64 else []
        raise _did_you_mean(value[:64], "decision", "decision", close, "one of " + ", ".join(DECISIONS))
    return value


SpotCode = Annotated[str, Field(min_length=1, max_length=64, json_schema_extra={"pattern": SPOT_PATTERN}),
                     AfterValidator(check_spot)]
"""A ``bet_placed.spot``: grammar checked here (pattern in the JSON Schema), layout by the rules."""

HandId = Annotated[str, Field(min_length=1, max_length=16, json_schema_extra={"pattern": HAND_PATTERN}),
                   AfterValidator(check_hand)]
"""A ``card_dealt.hand``: ``dealer``, ``punto``, ``banca``, ``board``, ``N`` or ``N-M``."""

CardCode = Annotated[str, Field(min_length=1, max_length=16, json_schema_extra={"pattern": CARD_PATTERN}),
                     AfterValidator(check_card)]
"""A ``card_dealt.card``: rank then suit (``QH``)."""

DecisionCheck = BeforeValidator(check_decision)
"""Put in front of the ``DecisionKind`` literal: our message, the literal's enum in the schema."""
