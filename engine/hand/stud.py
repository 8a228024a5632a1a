"""The seven-card stud rules that depend on the cards showing: who brings it in and who acts
first on the later streets. Pure functions of the up-cards (``engine.hand.dealing`` asks).

Ranks are compared with the ace high in stud and stud hi-lo and low in razz; suits break
ties between single cards, clubs lowest, then diamonds, hearts, spades.

* The bring-in: the lowest up-card in stud and stud hi-lo, the highest in razz (a king is the
  highest there, the ace the lowest).
* From fourth street the best showing hand acts first: in stud and stud hi-lo the best high
  hand of the up-cards (pairs, two pair, trips, quads; straights and flushes do not count
  with fewer than five cards), in razz the best ace-to-five low. Equal showing hands: the
  first of them from the seat left of the button (as pokerkit orders them).

>>> from engine.cards import parse_cards
>>> bring_in_seat({0: parse_cards("2d"), 1: parse_cards("2c"), 2: parse_cards("Ks")}, razz=False)
1
>>> bring_in_seat({0: parse_cards("Kd"), 1: parse_cards("Ks"), 2: parse_cards("2s")}, razz=True)
1
>>> first_to_act({0: parse_cards("Ad Kd"), 1: parse_cards("3c 3d"), 2: parse_cards("Qs 2h")},
...              [0, 1, 2], razz=False)
1
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engine.cards import Card

__all__ = ["bring_in_seat", "first_to_act", "showing_strength"]


def _rank(card: Card, razz: bool) -> int:
    """0..12, higher is a higher card: ace high, or (razz) ace low."""
    return (card.rank + 1) % 13 if razz else card.rank


def bring_in_seat(up_cards: Mapping[int, Sequence[Card]], razz: bool) -> int:
    """The seat whose third-street up-card brings it in (``up_cards``: seat -> its up-card)."""

    def key(seat: int) -> tuple[int, int]:
        card = up_cards[seat][0]
        return _rank(card, razz), card.suit

    return max(up_cards, key=key) if razz else min(up_cards, key=key)


def showing_strength(cards: Sequence[Card], razz: bool) -> tuple[int, tuple[int, ...]]:
    """How good the up-cards look, comparable between hands of as many cards: the shape
    (nothing, a pair, two pair, trips, quads) then the ranks by count and rank. In stud the
    larger is better; in razz (ranks ace-low) the smaller is the better low."""
    counts = Counter(_rank(c, razz) for c in cards)
    groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = tuple(sorted(counts.values(), reverse=True))
    pairs = sum(1 for n in shape if n == 2)
    category = 4 if 4 in shape else 3 if 3 in shape else pairs
    return category, tuple(groups)


def first_to_act(up_cards: Mapping[int, Sequence[Card]], order: Sequence[int], razz: bool) -> int:
    """The live seat with the best showing hand (``order``: seats from the left of the
    button, which breaks ties)."""
    seats = [s for s in order if s in up_cards]
    strengths = {s: showing_strength(up_cards[s], razz) for s in seats}
    best = min(strengths.values()) if razz else max(strengths.values())
    return next(s for s in seats if strengths[s] == best)
