"""The draw games' draw rounds (2-7 triple and single draw, badugi, five-card draw).

After each betting round but the last, every seat still in the hand (all-in ones too) throws
away none to all of its cards, one seat at a time from the left of the button (``discard``;
none is standing pat). When the last has discarded, one card is burned and each is dealt as
many as it threw away, in the same order, from the rest of the deck (the stub); then the next
betting round begins, the seat left of the button acting first.

When the stub runs out, the cards out of play (burns, discards, folded hands: never a live
hand, never the stub) are shuffled into a new stub below what is left of the old one, as
pokerkit does (``State._consume_cards``: the burn cards, the muck and the discards so far,
this round's included). The engine takes no randomness: the shuffle is seeded from the
hand's own deck order, so the same deck always deals the same hand.

What others see (``engine.hand.views``): how many cards each seat threw away and was dealt,
never which.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import ALL_CARDS, Card, format_cards
from engine.errors import IllegalAction, PokerError
from engine.hand.betting import BettingRules
from engine.hand.dealing import Dealing
from engine.types import Action, ActionKind, Event, EventKind, discard_cards

__all__ = ["Drawing"]


class Drawing(Dealing, BettingRules):
    """The draw round: ``discard``, the replacements, the reshuffled stub."""

    def _begin_round(self, first: int) -> None:
        raise NotImplementedError  # the betting rounds are ``Hand``'s

    def deal_recorded_draws(self, draws: Sequence[Sequence[Card | None]]) -> None:
        """Deal each seat these cards at its draws, in order, instead of the stub's: a
        recorded hand's replay (``engine.phh``), whose reshuffles were another dealer's. An
        unknown card (``None``) and any draw past the record come from the stub."""
        if len(draws) != self._n:
            raise PokerError(f"recorded draws for {len(draws)} seats, the hand has {self._n}")
        self._recorded = [list(cards) for cards in draws]

    def _begin_draw(self) -> None:
        self._drawers = [s for s in self._order() if not self._folded[s]]
        self._draw_due = True
        self._actor = self._drawers.pop(0)

    def discard(self, cards: object = (), *, seat: int | None = None) -> list[Event]:
        """Throw away ``cards`` (none: stand pat) and be dealt as many once every seat in the
        hand has discarded. ``cards``: ``Card`` values or their text (``"7h2c"``)."""
        j = self._actor
        if not self._draw_due or j is None:
            raise IllegalAction(
                "no draw now: cards are thrown away only in a draw game's draw round",
                "no_draw_now",
            )
        if seat is not None and seat != j:
            raise IllegalAction(
                f"out of turn: seat {seat} acted but seat {j} is to act", "not_your_turn"
            )
        thrown = discard_cards(cards)
        action = Action(ActionKind.DISCARD, cards=thrown)
        hole = self.hole[j]
        foreign = [c for c in thrown if c not in hole]
        if foreign:
            raise IllegalAction(
                f"not in your hand: {format_cards(foreign, ' ')} (you hold "
                f"{format_cards(hole, ' ')})",
                "discard_not_held",
            )
        mark = len(self.events)
        self._actions.append(action)
        self.hole[j] = tuple(c for c in hole if c not in thrown)
        self.up[j] = (False,) * len(self.hole[j])
        self._to_draw[j] = len(thrown)
        self._discarded[j].extend(thrown)
        self._deal_index[j].append(len(self.events))
        self.events.append(Event(EventKind.DISCARD, j, len(thrown), thrown))
        if self._drawers:
            self._actor = self._drawers.pop(0)
        else:
            self._deal_draws()
        return self.events[mark:]

    def _deal_draws(self) -> None:
        self._draw_due = False
        self._actor = None
        self._take(1)  # burn
        for seat in self._order():
            count = self._to_draw[seat]
            if self._folded[seat] or count is None:
                continue
            self._to_draw[seat] = None
            self.drawn[seat].append(count)
            if not count:
                continue
            cards = self._recorded_or_taken(seat, count)
            self.hole[seat] += cards
            self.up[seat] += (False,) * count
            self._deal_index[seat].append(len(self.events))
            self.events.append(Event(EventKind.DRAW, seat, count, cards))
        self._begin_round((self.button + 1) % self._n)

    def _recorded_or_taken(self, seat: int, count: int) -> tuple[Card, ...]:
        record = self._recorded[seat] if self._recorded else []
        head = record[:count]
        if not head or any(card is None for card in head):
            return self._take(count)
        del record[:count]
        cards = tuple(ALL_CARDS[c] for c in head if c is not None)
        live = {c for s in range(self._n) if not self._folded[s] for c in self.hole[s]}
        if len(cards) != count or live & set(cards):
            raise PokerError(f"recorded draw {format_cards(cards)} is not {count} free cards")
        return cards

    def _take(self, count: int) -> tuple[Card, ...]:
        """The next ``count`` cards of the stub, reshuffling the cards out of play under it
        first when it has fewer."""
        if len(self._deck) - self._next_card < count:
            self._reshuffle()
        cards = tuple(self._deck[self._next_card : self._next_card + count])
        self._next_card += count
        return cards

    def _reshuffle(self) -> None:
        stub = self._deck[self._next_card :]
        keep = set(stub)
        for seat in range(self._n):
            if not self._folded[seat]:
                keep.update(self.hole[seat])
        out_of_play = [ALL_CARDS[c] for c in sorted(self.config.variant.deck) if c not in keep]
        self._reshuffles += 1
        dealt_from = ",".join(str(int(c)) for c in self._dealt_from)
        seed = f"{dealt_from}/{self._reshuffles}"  # the same deck, the same stub
        random.Random(seed).shuffle(out_of_play)
        if not out_of_play:
            raise PokerError("no cards left to draw: every card is in a live hand")
        self._deck = stub + out_of_play
        self._next_card = 0
        self.events.append(Event(EventKind.RESHUFFLE, None, len(out_of_play)))
