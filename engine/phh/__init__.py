"""Poker Hand History (PHH, the TOML format of uoftcprg ``phh-std``): read, replay, write.

``load(path)``/``loads(text)`` give a ``HandHistory``; ``HandHistory.replay()`` rebuilds the
hand through ``engine.hand.Hand`` with a deck consistent with the recorded cards (unknown
cards and burns are filled from the unused cards in order); ``dumps(hand)`` writes any hand.

Seats: PHH lists players from the seat left of the button (heads-up: the big blind first), so
PHH ``p1..pN`` are our seats ``0..N-1`` with the button at ``N-1``. ``blinds_or_straddles`` and
``antes`` are read in pokerkit's convention: entry 0 is the small blind, entry 1 the big blind
(also heads-up), so an ante only at entry 1 is a big-blind ante.

Reading accepts what real files do: show lines before the last board cards, ``pN sm`` with no
cards (a muck), players skipped by the file (they fold, or check where checking is free),
float ``finishing_stacks``. Showdowns, uncalled bets and payouts are the engine's own.

Variants: ``NT``, ``FT``, ``PO``, ``FO/8`` (fixed-limit Omaha hi-lo), ``F7S``, ``F7S/8``,
``FR`` (stud, stud hi-lo, razz: ``antes``, ``bring_in``, ``small_bet``, ``big_bet``; ``pN pb``
posts the bring-in; ``d dh pN ????Th`` deals two down cards and one up) and ``PO/8`` for
pot-limit Omaha hi-lo, which the standard does not name (pokerkit 0.7 writes its pot-limit
Omaha hi-lo game as ``FO/8``). A redundant check is accepted when reading: the check of a
seat the engine no longer asks because it is the only one left who could act, facing
nothing (pokerkit asks for it and writes it); the live game never asks for it. A bomb pot
(antes for everyone, no blinds: the engine's hand starts on the flop) may list checks before
the first board, as pokerkit writes the betting round it plays there; they are skipped, and
any other action before the flop of a bomb pot is refused.
"""

from engine.phh.read import HandHistory, load, loads, read_text
from engine.phh.variants import VARIANT_OF, VARIANTS
from engine.phh.write import check_can_write, dumps, seat_of_phh

__all__ = [
    "VARIANTS",
    "VARIANT_OF",
    "HandHistory",
    "check_can_write",
    "dumps",
    "load",
    "loads",
    "read_text",
    "seat_of_phh",
]
