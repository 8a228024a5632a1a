"""Forced bets and dealing: antes, blinds, straddles and the stud bring-in's set-up, the hole
cards, the board and the stud streets, the later runs' boards and the rabbit hunt's cards
(``engine.hand.machine.Hand`` runs the betting rounds and asks for the runs).

Dealing order (so a hand is fully determined by its deck): hole cards one at a time,
round-robin, starting with the seat left of the button (heads-up: the big blind) and ending
with the button, as many rounds as the game has hole cards; then burn one card and deal three
(flop), burn and deal one (turn), burn and deal one (river). Stud: third street deals one card
at a time round-robin from the left of the button, three rounds (two down, one up), no burn;
each later street burns one and deals one card to each live seat in the same order (up on
fourth to sixth, down on seventh). When the deck cannot give every live seat its seventh-street
card, one common card is dealt face up instead (burning first only when a card is to spare),
and it plays in everyone's hand.

Forced bets, with the choices this engine makes where the rules leave room:

* They are posted in this order: per-player antes (each seat from the left of the button),
  small blind, big blind, the big-blind ante (after the blind: the blind has priority when the
  stack is short), straddles (the seat left of the big blind, then each next seat re-straddles
  double the previous; or the button alone). Anyone short posts what they have and is all-in.
* Preflop the seat left of the last straddle acts first, so that straddle acts last (the
  button straddle: the small blind first); a straddle all-in for no more than the bet before
  it is a short call, not a blind raise, and moves nobody.
* A big-blind ante is dead money: it is in the pot but does not count toward the big blind's
  bet. Per-player antes are dead too (they never count as a bet).
* A big blind (or small blind) posted all-in for less still makes the others call the full
  big blind. A full straddle is a blind raise: the next full raise is to twice the straddle.
* Posts besides the blinds (``HandConfig.posts``, a player back from missing their blinds)
  come last: the dead part is in the pot as an ante is, the live big blind is that seat's bet
  (it acts in its turn and may check if nobody raised).
* Bomb pot: every seat antes ``bomb_pot`` (no blinds) and the flop comes at once. A double
  board (``double_board``): each street burns and deals board one's cards, then burns and
  deals board two's (``second_board``).
* Stud: per-player antes, then the bring-in (``engine.hand.stud``) acts first.
* Short deck: per-player antes, then the button's blind (heads-up the other seat's, as
  pokerkit reverses the blinds there); the seat left of the blind acts first.

Run-outs: once nobody can bet any more with two or more hands live (``no_more_betting``),
every live hand is face up in every view. With ``run_it_twice`` and the board not complete,
the hand then waits for ``run_once``/``run_twice``/``run_thrice``; run two or three times, the
rest of the board is dealt again for each later run, from the same deck after the runs before
it (each street burning first, as for the first run), and each pot is split between the runs
(its odd chips one at a time to the runs from the first), each part awarded on its own board
(``engine.hand.showdown``). The odds of a run-out: ``engine.runout``.
"""

from __future__ import annotations

from engine.cards import Card
from engine.errors import IllegalAction
from engine.hand.state import BOARD_SIZES, HandState
from engine.hand.stud import bring_in_seat, first_to_act
from engine.types import RUN_BOARD_EVENTS, Event, EventKind

__all__ = ["Dealing"]


def _board_streets(cards: int) -> tuple[int, ...]:
    """The streets (0 preflop .. 3 river) a board of this many cards has been dealt for."""
    return tuple(s for s in range(4) if sum(BOARD_SIZES[: s + 1]) <= cards)


class Dealing(HandState):
    """Posting the forced bets and dealing the cards, street by street; the later runs'
    boards and the rabbit hunt."""

    def _post(self, seat: int, amount: int, kind: EventKind, bet: bool) -> None:
        amount = min(amount, self._stacks[seat])
        if amount <= 0:
            return
        self._stacks[seat] -= amount
        self._committed[seat] += amount
        if bet:
            self._bets[seat] += amount
        if self._stacks[seat] == 0:
            self._all_in[seat] = True
        self.events.append(Event(kind, seat, amount))

    def _start(self) -> int | None:
        """Post the forced bets and deal the hole cards: the seat that acts first preflop, or
        ``None`` for a bomb pot (no preflop betting: straight to the flop)."""
        c = self.config
        n = self._n
        order = self._order()
        if c.bomb_pot:
            for seat in order:
                self._post(seat, c.bomb_pot, EventKind.ANTE, False)
            self._deal_holes(order)
            return None
        assert self.big_blind_seat is not None
        if c.ante and c.ante_mode == "per-player":
            for seat in order:
                self._post(seat, c.ante, EventKind.ANTE, False)
        if self.small_blind_seat is not None:  # short deck: the button's blind alone
            self._post(self.small_blind_seat, c.small_blind, EventKind.SMALL_BLIND, True)
        self._post(self.big_blind_seat, c.big_blind, EventKind.BIG_BLIND, True)
        if c.ante and c.ante_mode == "big-blind":
            before = self._committed[self.big_blind_seat]
            self._post(self.big_blind_seat, c.ante, EventKind.ANTE, False)
            self._dead_by_seat[self.big_blind_seat] = self._committed[self.big_blind_seat] - before
        self._current_bet = c.big_blind
        self._last_full = c.fixed_small_bet if c.betting == "fixed-limit" else c.big_blind
        self._raises = 1
        first = (self.big_blind_seat + 1) % n
        for s, amount in zip(self.straddle_seats, c.straddle_amounts, strict=True):
            self._post(s, amount, EventKind.STRADDLE, True)
            if self._bets[s] > self._current_bet:
                self._current_bet = self._bets[s]
                if self._bets[s] == amount:  # a full straddle is a blind raise
                    self._last_full = amount
                    self._raises += 1
                first = (s + 1) % n  # the last straddle that raised the bet acts last
        for seat, dead, live in c.posts:  # missed blinds: dead chips, a live big blind
            before = self._committed[seat]
            self._post(seat, dead, EventKind.ANTE, False)
            self._dead_by_seat[seat] += self._committed[seat] - before
            self._post(seat, live, EventKind.BIG_BLIND, True)
        self._deal_holes(order)
        return first

    def _deal_holes(self, order: list[int]) -> None:
        c = self.config
        n = self._n
        deck = self._deck
        pos = 0
        holes: list[list[Card]] = [[] for _ in range(n)]
        for _ in range(c.hole_count):
            for seat in order:
                holes[seat].append(deck[pos])
                pos += 1
        self._next_card = pos
        self.hole = [tuple(h) for h in holes]
        self.up = [(False,) * len(h) for h in holes]
        for seat in order:
            self._deal_index[seat] = [len(self.events)]
            self.events.append(Event(EventKind.DEAL_HOLE, seat, 0, self.hole[seat]))

    def _start_stud(self) -> int:
        """Post the antes and deal third street: the seat that brings it in."""
        c = self.config
        order = self._order()
        for seat in order:
            self._post(seat, c.ante, EventKind.ANTE, False)
        deck = self._deck
        n = self._n
        self.hole = [()] * n
        for k, seat in enumerate(order):
            self.hole[seat] = (deck[k], deck[n + k], deck[2 * n + k])
            self.up[seat] = (False, False, True)
        self._next_card = 3 * n
        for seat in order:
            self._deal_index[seat] = [len(self.events)]
            self.events.append(Event(EventKind.DEAL_HOLE, seat, 0, self.hole[seat][:2]))
            self.events.append(Event(EventKind.DEAL_UP, seat, 0, self.hole[seat][2:]))
        self._last_full = c.fixed_small_bet
        self._raises = 0
        self._bring_in_due = True
        self._completion_to = c.fixed_small_bet
        up = {seat: self.hole[seat][2:] for seat in order}
        return bring_in_seat(up, razz=c.variant.low_main)

    def _deal_stud_street(self) -> None:
        """One card to each live seat (up on 4th to 6th street, down on 7th), or the common
        card when the deck is too short for that."""
        live = [s for s in self._order() if not self._folded[s]]
        deck = self._deck
        left = len(deck) - self._next_card
        if left < len(live) + 1:
            if left >= 2:
                self._next_card += 1  # burn
            card = deck[self._next_card]
            self._next_card += 1
            self.board.append(card)
            self.events.append(Event(EventKind.DEAL_BOARD, None, 0, (card,)))
            return
        self._next_card += 1  # burn
        face_up = self._street < self._last_street
        for seat in live:
            card = deck[self._next_card]
            self._next_card += 1
            self.hole[seat] += (card,)
            self.up[seat] += (face_up,)
            if not face_up:
                self._deal_index[seat].append(len(self.events))
            kind = EventKind.DEAL_UP if face_up else EventKind.DEAL_HOLE
            self.events.append(Event(kind, seat, 0, (card,)))

    def _stud_first_to_act(self) -> int:
        up = {
            s: tuple(c for c, shown in zip(self.hole[s], self.up[s], strict=True) if shown)
            for s in range(self._n)
            if not self._folded[s]
        }
        return first_to_act(up, self._order(), razz=self.config.variant.low_main)

    def _deal_board(self, count: int) -> None:
        deck = self._deck
        pos = self._next_card + 1  # burn one
        cards = tuple(deck[pos : pos + count])
        self._next_card = pos + count
        self.board.extend(cards)
        self.events.append(Event(EventKind.DEAL_BOARD, None, 0, cards))
        if self.config.double_board:  # board two's street: a burn, then its cards
            pos = self._next_card + 1
            cards = tuple(deck[pos : pos + count])
            self._next_card = pos + count
            self.second_board.extend(cards)
            self.events.append(Event(EventKind.DEAL_BOARD_TWO, None, 0, cards))

    def _deal_later_runs(self) -> None:
        """Each run after the first (``_runs``), in turn: the streets after the one the runs
        part from, burning first as for the first run, from the same deck after the cards
        of the runs before it."""
        for run in range(2, (self._runs or 1) + 1):
            board = list(self.board[: sum(BOARD_SIZES[: self._run_from + 1])])
            pos = self._next_card
            for street in range(self._run_from + 1, 4):
                size = BOARD_SIZES[street]
                cards = tuple(self._deck[pos + 1 : pos + 1 + size])
                pos += 1 + size
                board.extend(cards)
                self.events.append(Event(RUN_BOARD_EVENTS[run], None, 0, cards))
            self._next_card = pos
            if run == 2:
                self.second_board = board
            else:
                self.third_board = board

    def rabbit_hunt(self) -> tuple[Card, ...]:
        """The board cards that would have come had the hand not ended before the river,
        dealt from this hand's deck as the dealer would have (burning before each street);
        empty when the board is complete. Changes nothing; only once the hand is over."""
        if not self._over:
            raise IllegalAction("no rabbit hunt while the hand is being played")
        if self._stud:
            raise IllegalAction("no rabbit hunt in stud: it has no board")
        if self._draw:  # the stub's cards are nobody's to see
            raise IllegalAction("no rabbit hunt in a draw game: it has no board")
        if self.config.double_board:  # which cards were whose board would be a guess
            raise IllegalAction("no rabbit hunt on a double board")
        cards: list[Card] = []
        pos = self._next_card
        for street in range(len(_board_streets(len(self.board))), 4):
            size = BOARD_SIZES[street]
            cards.extend(self._deck[pos + 1 : pos + 1 + size])
            pos += 1 + size
        return tuple(cards)
