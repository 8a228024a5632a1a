"""Shuffling and dealing: unbiased, injectable, and provably fair when seeded.

* ``shuffled_deck()`` shuffles with Fisher–Yates driven by ``secrets.SystemRandom`` (the
  operating system's CSPRNG); tests pass ``rng=random.Random(7)`` to get a fixed order.
* Seeded, provably fair hands: before the deal the server publishes ``commitment(seed)`` =
  ``sha256(seed)``; the deck is ``seeded_deck(seed)``, a Fisher–Yates shuffle whose random
  numbers come from an HMAC-SHA256 counter stream keyed by the seed, with rejection sampling
  so that every index is exactly uniform (no modulo bias). After the hand the seed is
  revealed and anyone can run ``verify(seed, commitment, deck)``.
* ``deal_round_robin`` deals as at a real table: one card to each player in turn.
* ``stacked_deck`` builds the deck that deals a recorded hand's cards (hand histories).
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import random
import secrets
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import TypeVar

from engine.cards import ALL_CARDS, Card
from engine.errors import CardError

T = TypeVar("T")

__all__ = [
    "SeedStream",
    "commitment",
    "deal_round_robin",
    "fisher_yates",
    "fresh_deck",
    "new_seed",
    "seeded_deck",
    "shuffled_deck",
    "stacked_deck",
    "stacked_stud_deck",
    "verify",
]

_SYSTEM_RANDOM = secrets.SystemRandom()


def fresh_deck() -> list[Card]:
    """A new deck in order: 2c 2d 2h 2s 3c ... As."""
    return list(ALL_CARDS)


def fisher_yates(items: list[T], randbelow: Callable[[int], int]) -> list[T]:
    """Shuffle ``items`` in place: for i from the end, swap with a uniform j in 0..i.

    ``randbelow(n)`` must return a uniform integer in ``0..n-1``. Every one of the ``n!``
    orders is equally likely when it does.
    """
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def shuffled_deck(rng: random.Random | None = None) -> list[Card]:
    """A shuffled deck. ``rng`` is any ``random.Random``-like object (``randrange``);
    by default the system CSPRNG, which is what play uses."""
    rng = _SYSTEM_RANDOM if rng is None else rng
    return fisher_yates(fresh_deck(), rng.randrange)


def new_seed() -> str:
    """A fresh secret seed for a provably fair hand: 32 random bytes as 64 hex digits."""
    return secrets.token_hex(32)


def _seed_bytes(seed: str) -> bytes:
    if not isinstance(seed, str) or not seed:
        raise ValueError(f"a seed is a non-empty string, got {seed!r}")
    return seed.encode("utf-8")


def commitment(seed: str) -> str:
    """What to publish before the deal: the SHA-256 of the seed (UTF-8), as hex."""
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


class SeedStream:
    """Deterministic uniform integers from a seed: HMAC-SHA256(seed, counter) blocks.

    ``randbelow(n)`` takes the fewest whole bytes that cover ``n``, masks them to the bit
    length of ``n - 1`` and rejects values ``>= n``: every result is exactly uniform.
    """

    def __init__(self, seed: str) -> None:
        self._key = _seed_bytes(seed)
        self._counter = 0
        self._buffer = b""
        self._position = 0

    def _bytes(self, count: int) -> bytes:
        while len(self._buffer) - self._position < count:
            block = hmac.new(self._key, self._counter.to_bytes(8, "big"), hashlib.sha256).digest()
            self._counter += 1
            self._buffer = self._buffer[self._position :] + block
            self._position = 0
        out = self._buffer[self._position : self._position + count]
        self._position += count
        return out

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        bits = (n - 1).bit_length()
        if bits == 0:
            return 0
        size, mask = (bits + 7) // 8, (1 << bits) - 1
        while True:
            value = int.from_bytes(self._bytes(size), "big") & mask
            if value < n:
                return value


def seeded_deck(seed: str) -> list[Card]:
    """The deck a seed stands for; the same seed always gives the same order.

    ``fisher_yates`` driven by ``SeedStream(seed).randbelow``, written out: every draw of a
    deck is below 256, so each takes one byte of the stream, and the stream is read byte by
    byte (every deal shuffles: the method calls cost more than the hashing)."""
    deck = fresh_deck()
    stream = _stream_bytes(_seed_bytes(seed))
    for i in range(len(deck) - 1, 0, -1):
        mask = (1 << i.bit_length()) - 1  # ``randbelow(i + 1)``: the bits of ``i``
        j = next(stream) & mask
        while j > i:
            j = next(stream) & mask
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _stream_bytes(key: bytes) -> Iterator[int]:
    """``SeedStream``'s bytes one by one: HMAC-SHA256(key, counter) blocks, in order."""
    for counter in itertools.count():
        yield from hmac.digest(key, counter.to_bytes(8, "big"), "sha256")


def verify(seed: str, commitment_hex: str, deck: Sequence[int]) -> bool:
    """Anyone's check of a provably fair hand: the seed matches the published commitment
    and the deck dealt is the one the seed stands for."""
    try:
        if not hmac.compare_digest(commitment(seed), str(commitment_hex).lower()):
            return False
        return [int(card) for card in deck] == seeded_deck(seed)
    except (ValueError, TypeError):
        return False


def deal_round_robin(
    deck: Sequence[Card] | Iterator[Card], players: int, cards_each: int
) -> list[list[Card]]:
    """Deal ``cards_each`` cards to each of ``players``, one card to each player in turn,
    from the top of ``deck`` (index 0). Returns one list per player, in seat order."""
    if players < 1 or cards_each < 0:
        raise CardError(f"cannot deal {cards_each} cards to {players} players")
    cards = list(deck)
    if players * cards_each > len(cards):
        raise CardError(
            f"{players} players x {cards_each} cards needs "
            f"{players * cards_each} cards, the deck has {len(cards)}"
        )
    hands: list[list[Card]] = [[] for _ in range(players)]
    for round_ in range(cards_each):
        for seat in range(players):
            hands[seat].append(cards[round_ * players + seat])
    return hands


def stacked_deck(
    holes: Sequence[Sequence[int] | None],
    board: Sequence[int],
    hole_count: int,
    playing: Collection[int] | None = None,
    *,
    later_runs: Sequence[Sequence[int]] | None = None,
    streets: Sequence[Sequence[int]] | None = None,
) -> list[Card]:
    """The deck that deals these cards in ``engine.hand``'s order: ``holes`` one per seat in
    dealing order (from the seat left of the button round to the button; ``None`` when
    unknown), then burn and flop, burn and turn, burn and river from ``board`` (0 to 5 cards;
    a board run twice: up to 10, the second run's cards after the first's, each street burning
    first). ``later_runs``, instead of the cards after the fifth: every street of the later
    runs in the order dealt, each burning first (a board run three times, whose streets the
    count of cards does not tell). ``streets``, instead of ``board``: every dealing of board
    cards in order, each burning first (a double board: board one's flop, board two's, ...).
    Unknown cards and burns are the unused cards in order,
    those of ``playing`` (the game's deck, when it is not all 52) first, so the hand, which
    deals only its game's cards of the 52, deals these. ``CardError`` names a card given
    twice or a board of more than 10 cards."""
    if streets is not None:
        board = [card for street in streets for card in street]
    elif later_runs is not None:
        board = [*board[:5], *(card for street in later_runs for card in street)]
    elif len(board) > 10:
        raise CardError(f"{len(board)} board cards: at most 5, or 10 when run twice")
    seen: set[int] = set()
    for card in [c for cards in holes if cards for c in cards] + list(board):
        if card in seen:
            raise CardError(f"card {ALL_CARDS[card]} is dealt twice")
        seen.add(card)
    unused = [card for card in ALL_CARDS if card not in seen]
    if playing is not None:
        unused.sort(key=lambda card: card not in playing)  # stable: in order otherwise
    spare = iter(unused)
    deck = []
    for k in range(hole_count):
        for cards in holes:
            deck.append(ALL_CARDS[cards[k]] if cards else next(spare))
    if streets is not None:
        for dealt in streets:
            deck.append(next(spare))  # burn
            deck.extend(ALL_CARDS[card] for card in dealt)
        deck.extend(spare)
        return deck
    for size, street in zip((3, 1, 1), (board[:3], board[3:4], board[4:5]), strict=True):
        deck.append(next(spare))  # burn
        deck.extend(ALL_CARDS[card] for card in street)
        deck.extend(next(spare) for _ in range(size - len(street)))
    if later_runs is not None:
        for street in later_runs:
            deck.append(next(spare))  # burn
            deck.extend(ALL_CARDS[card] for card in street)
        deck.extend(spare)
        return deck
    second = board[5:]
    sizes = (3, 1, 1)[3 - {5: 3, 2: 2, 1: 1, 0: 0}.get(len(second), 3) :]
    start = 0
    for size in sizes:  # the second run: the same streets as the first run-out, in order
        deck.append(next(spare))  # burn
        deck.extend(ALL_CARDS[card] for card in second[start : start + size])
        start += size
    if start != len(second):
        raise CardError(
            f"a second run of {len(second)} cards: it repeats a river, a turn and "
            "river, or a flop, turn and river"
        )
    deck.extend(spare)
    return deck


def stacked_stud_deck(
    dealt: Sequence[Sequence[int | None]], common: Sequence[int] = ()
) -> list[Card]:
    """The deck that deals these stud cards in ``engine.hand``'s order: ``dealt`` one list per
    seat in dealing order (from the left of the button), the cards it was dealt street by
    street (``None`` when unknown; a seat that folded has fewer), and the seventh-street
    ``common`` card if the deck ran short. Third street deals three rounds; each later street
    burns one and deals one card to each seat that has one on that street (the common card:
    a burn only if two cards are left). Unknown cards and burns are the unused cards in
    order. ``CardError`` names a card given twice."""
    known = [c for cards in dealt for c in cards if c is not None] + list(common)
    seen: set[int] = set()
    for card in known:
        if card in seen:
            raise CardError(f"card {ALL_CARDS[card]} is dealt twice")
        seen.add(card)
    spare = iter([card for card in ALL_CARDS if card not in seen])

    def card_of(value: int | None) -> Card:
        return ALL_CARDS[value] if value is not None else next(spare)

    deck: list[Card] = []
    for k in range(3):
        deck.extend(card_of(cards[k] if len(cards) > k else None) for cards in dealt)
    for street in range(3, 7):
        if street == 6 and common:
            if 52 - len(deck) >= 2:
                deck.append(next(spare))  # burn
            deck.append(ALL_CARDS[common[0]])
            break
        if not any(len(cards) > street for cards in dealt):
            break
        deck.append(next(spare))  # burn
        deck.extend(card_of(cards[street]) for cards in dealt if len(cards) > street)
    deck.extend(spare)
    return deck
