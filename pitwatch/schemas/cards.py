"""Playing cards: the canonical two-character encoding used in events.

A card is ``RANK + SUIT``: rank one of ``A 2 3 4 5 6 7 8 9 T J Q K`` (``T`` is the ten),
suit one of ``S H D C`` (spades, hearts, diamonds, clubs). Examples: ``"AS"``, ``"TD"``,
``"KH"``. Decks are standard 52-card French decks, as both Galicia (000 L243-245) and
Andalucía (004, I.1.3 II) prescribe for blackjack and punto y banca.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "SHDC"
ALL_CARDS = tuple(r + s for s in SUITS for r in RANKS)
_CARD_SET = frozenset(ALL_CARDS)


def is_card(code: str) -> bool:
    """True if ``code`` is a canonical card code such as ``"QH"``."""
    return code in _CARD_SET


def rank(code: str) -> str:
    """The rank character of a card code (``"T"`` for ``"TD"``)."""
    return code[0]


def blackjack_value(code: str) -> int:
    """Blackjack value: ace 1 (the hand total decides 1 or 11), court cards 10, else pip value.

    Source: 000_e1555249d49967be.txt L245 (03 Veintiuno, II): «las figuras valen diez
    puntos, el as un punto u once ... y las otras cartas tendrán su valor nominal».
    """
    r = code[0]
    if r == "A":
        return 1
    if r in "TJQK":
        return 10
    return int(r)


def baccarat_value(code: str) -> int:
    """Punto y banca value: ten and court cards 0, ace 1, else pip value (000 L475, 06 Punto y banca)."""
    r = code[0]
    if r == "A":
        return 1
    if r in "TJQK":
        return 0
    return int(r)
