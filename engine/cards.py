"""Cards as small ints.

A card is ``rank * 4 + suit`` with rank 0..12 for 2..A and suit 0..3 for clubs, diamonds,
hearts, spades, so sorting cards sorts them by rank. ``Card`` is an ``int`` subclass: it
costs nothing in hot loops and prints itself back as ``As``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.errors import CardError, DuplicateCardError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
RANK_PLURALS = (
    "Twos",
    "Threes",
    "Fours",
    "Fives",
    "Sixes",
    "Sevens",
    "Eights",
    "Nines",
    "Tens",
    "Jacks",
    "Queens",
    "Kings",
    "Aces",
)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = "♣♦♥♠"

_RANK_OF_TEXT = {r: i for i, r in enumerate(RANKS)} | {r.lower(): i for i, r in enumerate(RANKS)}
_RANK_OF_TEXT["10"] = RANKS.index("T")
_SUIT_OF_TEXT = {s: i for i, s in enumerate(SUITS)} | {s.upper(): i for i, s in enumerate(SUITS)}
_SUIT_OF_TEXT |= {"♣": 0, "♦": 1, "♥": 2, "♠": 3, "♧": 0, "♢": 1, "♡": 2, "♤": 3}
# One card: a rank (10 or one character) then a suit (letter or symbol).
_CARD_TOKEN = re.compile(r"(10|[2-9TJQKAtjqka])([cdhsCDHS♣♦♥♠♧♢♡♤])")


class Card(int):
    """One playing card; ``Card("As") == Card.parse("As")`` and ``str(card) == "As"``."""

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 52:
            raise CardError(f"not a card number (0..51): {value!r}")
        return _ALL[value]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: ``As``, ``Td``, ``10d``, ``ah``, ``A♠``."""
        stripped = text.strip() if isinstance(text, str) else text
        match = _CARD_TOKEN.fullmatch(stripped) if isinstance(stripped, str) else None
        if match is None:
            raise CardError(f"not a card: {text!r}")
        return _ALL[_RANK_OF_TEXT[match[1]] * 4 + _SUIT_OF_TEXT[match[2]]]

    @property
    def rank(self) -> int:
        """0 for a two up to 12 for an ace."""
        return self >> 2

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return self & 3

    @property
    def unicode(self) -> str:
        """The card with its suit symbol: ``A♠``, ``T♦`` (as pkstate YAML writes cards)."""
        return RANKS[self >> 2] + SUIT_SYMBOLS[self & 3]

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card('{_TEXT[self]}')"

    def __format__(self, spec: str) -> str:
        return format(_TEXT[self], spec)

    def to_cactus_kev(self) -> int:
        """The card as Cactus Kev's 32-bit integer ``xxxbbbbb bbbbbbbb cdhsrrrr xxpppppp``:
        one bit per rank (deuce lowest), one bit per suit, the rank 0..12 and its prime.

        >>> hex(Card("Kd").to_cactus_kev())
        '0x8004b25'
        """
        return _CACTUS_KEV[self]

    @classmethod
    def from_cactus_kev(cls, number: int) -> Card:
        """The card a Cactus-Kev integer encodes; ``CardError`` naming any other number."""
        card = _OF_CACTUS_KEV.get(number) if _is_whole(number) else None
        if card is None:
            shown = f"{number!r} ({number:#x})" if _is_whole(number) else repr(number)
            raise CardError(f"not a Cactus-Kev card integer: {shown}")
        return card


_TEXT = tuple(r + s for r in RANKS for s in SUITS)
_ALL = tuple(int.__new__(Card, i) for i in range(52))
ALL_CARDS: tuple[Card, ...] = _ALL
_DECK = frozenset(range(52))
_CARD_TYPES = frozenset({int, Card})

# Cactus Kev's encoding: the rank's prime, the rank, the suit bit (clubs 8, diamonds 4,
# hearts 2, spades 1, so clubs is the highest of the four) and the rank bit.
_RANK_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_CACTUS_KEV = tuple(
    _RANK_PRIMES[c.rank] | c.rank << 8 | (8 >> c.suit) << 12 | 1 << (16 + c.rank) for c in _ALL
)
_OF_CACTUS_KEV = {number: card for card, number in zip(_ALL, _CACTUS_KEV, strict=True)}


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_cards(text: str, *, distinct: bool = True) -> list[Card]:
    """Parse several cards: ``"AsKd"``, ``"As Kd"``, ``"As,Kd"`` or ``""`` (no cards).

    Raises ``CardError`` naming the part that is not a card, and ``DuplicateCardError``
    when ``distinct`` and a card repeats.
    """
    if not isinstance(text, str):
        raise CardError(f"cards must be text, got {text!r}")
    cards: list[Card] = []
    for chunk in re.split(r"[\s,]+", text.strip()):
        position = 0
        while position < len(chunk):
            match = _CARD_TOKEN.match(chunk, position)
            if match is None:
                bad = chunk[position : position + _card_width(chunk, position)]
                raise CardError(f"not a card: {bad!r} in {text!r}")
            cards.append(_ALL[_RANK_OF_TEXT[match[1]] * 4 + _SUIT_OF_TEXT[match[2]]])
            position = match.end()
    if distinct:
        ensure_distinct(cards)
    return cards


def _card_width(text: str, position: int) -> int:
    """How much of ``text`` from ``position`` one card spells: a rank and a suit, the rank
    ``10`` being two characters (so "1xKh" names '1x', not '1xK')."""
    return 3 if text.startswith("10", position) else 2


def ensure_distinct(cards: Iterable[int]) -> None:
    """Raise ``DuplicateCardError`` naming the first card that appears twice."""
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(f"duplicate card: {_TEXT[card]}")
        seen.add(card)


def check_deck(cards: Iterable[int]) -> None:
    """Prove ``cards`` is a whole deck: 52 cards, each a valid card, all distinct."""
    cards = list(cards)
    if len(cards) == 52 and _CARD_TYPES.issuperset(map(type, cards)) and _DECK.issubset(cards):
        return  # the usual case, proved at C speed: 52 ints that hold every card
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
            raise CardError(f"not a card in the deck: {card!r}")
    ensure_distinct(cards)
    if len(cards) != 52:
        raise CardError(f"a deck has 52 cards, this one has {len(cards)}")


def format_cards(cards: Iterable[int], sep: str = "") -> str:
    """``[Card('As'), Card('Kd')]`` -> ``"AsKd"`` (PHH style) or with a separator."""
    return sep.join(_TEXT[c] for c in cards)
