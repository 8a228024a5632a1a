"""The hand state machine: one hand of hold'em, Omaha (high or hi-lo) or seven-card stud
(stud, stud hi-lo, razz), any betting structure.

Seats are indices ``0..n-1`` of the ``stacks``/``players`` lists, clockwise; ``button`` is one
of them. Only decisions are left open: posting, dealing, collecting, returning uncalled bets,
side pots, showdown and payouts happen by themselves.

Dealing order (so a hand is fully determined by its deck): hole cards one at a time,
round-robin, starting with the seat left of the button (heads-up: the big blind) and ending
with the button, as many rounds as the game has hole cards; then burn one card and deal three
(flop), burn and deal one (turn), burn and deal one (river). Stud: third street deals one card
at a time round-robin from the left of the button, three rounds (two down, one up), no burn;
each later street burns one and deals one card to each live seat in the same order (up on
fourth to sixth, down on seventh). When the deck cannot give every live seat its seventh-street
card, one common card is dealt face up instead (burning first only when a card is to spare),
and it plays in everyone's hand.

Each command (``fold``, ``check``, ``call``, ``bet_or_raise_to``, ``all_in``) verifies first and
raises ``IllegalAction`` naming the rule broken, changing nothing; otherwise it returns the
events it caused. ``view(seat)`` is the one place hidden information is filtered.

House rules implemented (see DESIGN.md), with the choices this engine makes where the
rules leave room:

* Heads-up the button posts the small blind, acts first before the flop and last after it.
* Forced bets are posted in this order: per-player antes (each seat from the left of the
  button), small blind, big blind, the big-blind ante (after the blind: the blind has
  priority when the stack is short), straddles (the seat left of the big blind, then each
  next seat re-straddles double the previous; or the button alone). Anyone short posts what
  they have and is all-in.
* Preflop the seat left of the last straddle acts first, so that straddle acts last (the
  button straddle: the small blind first); a straddle all-in for no more than the bet
  before it is a short call, not a blind raise, and moves nobody.
* A big-blind ante is dead money: it is in the pot but does not count toward the big
  blind's bet. Per-player antes are dead too (they never count as a bet).
* A big blind (or small blind) posted all-in for less still makes the others call the full
  big blind. A full straddle is a blind raise: the next full raise is to twice the straddle.
* No-limit: a bet is at least the big blind, a raise at least the largest full bet or raise
  this street; all-in for less is always allowed. A short all-in does not reopen betting for
  a seat that already acted, unless the raises since that seat last acted add up to a full
  raise. Folding is only allowed when facing a bet (otherwise check). Raising is not allowed
  when no other player left could put in more than the current bet.
* Pot-limit: the largest raise is to the pot after calling. Fixed limit: bets and raises are
  one small bet (preflop, flop) or big bet (turn, river); one bet and three raises per street
  (the big blind counts as the preflop bet); no cap while only two players are in the hand.
  An all-in for less than a full bet is not a raise that counts toward the cap.
* A seat that is the only one left who can act only acts when it faces more chips than it
  has put in; otherwise the remaining board is dealt out.
* The uncalled part of the largest bet is returned at the end of each betting round.
* Side pots are built from contributions; each pot goes to the best eligible hand(s); odd
  chips go one at a time to the winners in seat order starting left of the button.
* Stud: per-player antes, then the bring-in (``engine.hand.stud``) posts it (``call``) or
  completes to the small bet (``raise``); neither folding nor checking is open to it. The
  completion is a full bet: it reopens the betting for everyone, the bring-in too. Small bets
  on third and fourth street, big bets from fifth; one bet and three raises per street (the
  completion is the bet). From fourth street the best showing hand acts first; no optional
  big bet on an open pair on fourth street.
* Hi-lo and razz showdowns: ``engine.hand.showdown``. A hi-lo hand is shown when it is at
  least as good as the best shown so far for high or for low.
* Bomb pot: every seat antes ``bomb_pot`` (no blinds) and the flop comes at once.
* Once nobody can bet any more with two or more hands live (``no_more_betting``), every live
  hand is face up in every view. With ``run_it_twice`` and the board not complete, the hand
  then waits for ``run_once``/``run_twice``; run twice, the rest of the board is dealt again
  from the same deck after the first run, and each pot is split between the runs (odd chip
  to the first), each half awarded on its own board.
* Showdown order: the last aggressor of the last betting round shows first, else the first
  live seat left of the button. Auto-muck rule: if any live seat is all-in (an all-in
  showdown) every live hand is shown; otherwise, in showdown order, a hand is shown when it is
  at least as good as the best hand shown so far and mucked unseen when it is beaten.
  Winning hands are therefore always shown.

Past 500 lines because the state machine is one idea: every rule above acts on the same
per-seat state. What does not need that state lives beside it: which stud seat brings it in
and acts first (``engine.hand.stud``) and who wins each pot (``engine.hand.showdown``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.cards import ALL_CARDS, Card, check_deck
from engine.errors import IllegalAction, PokerError
from engine.evaluate import (
    LowRank,
    evaluate,
    evaluate_low,
    evaluate_low8,
    evaluate_omaha,
    evaluate_omaha_low8,
)
from engine.hand.showdown import award_pots, split_between_runs
from engine.hand.stud import bring_in_seat, first_to_act
from engine.pots import Pot, build_pots, uncalled
from engine.types import (
    ANTE_MODES,
    BETTINGS,
    GAMES,
    MAX_SEATS,
    STREETS,
    STUD_STREETS,
    Action,
    ActionKind,
    Award,
    Event,
    EventKind,
    HandConfig,
    Legal,
    Result,
    is_whole,
)
from engine.view import SeatView, View

# The typed values are made here; their home is engine.types and engine.view (imported from
# here too).
__all__ = [
    "ANTE_MODES",
    "BETTINGS",
    "GAMES",
    "MAX_SEATS",
    "STREETS",
    "STUD_STREETS",
    "Action",
    "ActionKind",
    "Award",
    "Event",
    "EventKind",
    "Hand",
    "HandConfig",
    "Legal",
    "Result",
    "SeatView",
    "View",
]

_BOARD_SIZES = (0, 3, 1, 1)


def _board_streets(cards: int) -> tuple[int, ...]:
    """The streets (0 preflop .. 3 river) a board of this many cards has been dealt for."""
    return tuple(s for s in range(4) if sum(_BOARD_SIZES[: s + 1]) <= cards)


# The decisions a command records (one shared, immutable object each).
_FOLD, _CHECK, _CALL, _ALL_IN, _RUN_ONCE, _RUN_TWICE = (
    Action(k)
    for k in (
        ActionKind.FOLD,
        ActionKind.CHECK,
        ActionKind.CALL,
        ActionKind.ALL_IN,
        ActionKind.RUN_ONCE,
        ActionKind.RUN_TWICE,
    )
)


class Hand:
    """One hand; see the module docstring for the rules and the dealing order."""

    def __init__(
        self,
        config: HandConfig | Mapping[str, Any],
        stacks: Sequence[int],
        button: int,
        deck: Iterable[int],
        players: Sequence[str] | None = None,
    ) -> None:
        config = HandConfig.from_dict(config) if not isinstance(config, HandConfig) else config
        stacks = list(stacks)
        n = len(stacks)
        if not 2 <= n <= config.max_seats:
            raise PokerError(f"{config.game} needs 2 to {config.max_seats} seats, got {n}")
        for s in stacks:
            if not is_whole(s) or s < 1:
                raise PokerError(f"every stack must be a whole number of chips >= 1, got {s!r}")
        if not is_whole(button) or not 0 <= button < n:
            raise PokerError(f"button must be a seat index 0..{n - 1}, got {button!r}")
        deck = list(deck)
        check_deck(deck)
        if players is None:
            players = [f"p{i + 1}" for i in range(n)]
        players = [str(p) for p in players]
        if len(players) != n:
            raise PokerError(f"{len(players)} player names for {n} stacks")
        if config.straddles and n < config.straddles + 2:
            raise PokerError(
                "a straddle needs three or more players"
                if config.straddles == 1
                else f"{config.straddles} straddles need {config.straddles + 2} or more players"
            )
        stud = config.is_stud

        self.config = config
        self.players = tuple(players)
        self.button = button
        self.starting_stacks = tuple(stacks)
        self._n = n
        self._deck = [ALL_CARDS[c] for c in deck]
        self._next_card = 0
        self._stacks = stacks
        self._bets = [0] * n
        self._committed = [0] * n
        self._folded = [False] * n
        self._all_in = [False] * n
        self._to_act = [False] * n
        self._acted_at: list[int | None] = [None] * n
        self.hole: list[tuple[Card, ...]] = [()] * n
        # Which of each seat's cards are face up (stud), parallel to ``hole``.
        self.up: list[tuple[bool, ...]] = [()] * n
        self.board: list[Card] = []
        # Run it twice: the second run's whole board (the cards before the run-out, then its
        # own), the runs chosen (None until asked), whether the hand waits for that choice.
        self.second_board: list[Card] = []
        self._runs: int | None = None
        self._runs_due = False
        self._run_from = 0  # the street the runs part from
        # Events before the moment no more betting was possible with two or more hands live.
        self._betting_closed: int | None = None
        self._stud = stud
        self._last_street = 4 if stud else 3
        # Stud: the bring-in is still to be posted or completed; the completion's target.
        self._bring_in_due = False
        self._completion_to = 0
        # Seats whose lone check the hand skipped (the only one left who could act, facing
        # nothing): (seat, decisions made before it). A PHH file may still write that check.
        self.skipped_checks: list[tuple[int, int]] = []
        self._street = 0
        self._over = False
        self._actor: int | None = None
        self._current_bet = 0
        self._last_full = config.big_blind
        self._raises = 0
        self._aggressor: int | None = None
        self._round_aggressor: int | None = None
        self._round_start = 0
        self._dead = 0  # a big-blind ante: in the pot, but nobody's contribution
        self.events: list[Event] = []
        # For ``view``: each event as other seats see it, where each seat's hole cards were
        # dealt, and the spectator's view of the latest state with its event count.
        self._others_see: list[Event] = []
        self._deal_index: dict[int, list[int]] = {}
        self._public: tuple[int, View] | None = None
        self._actions: list[Action] = []
        self._result: Result | None = None
        self._shown: dict[int, tuple[tuple[Card, ...], str]] = {}
        self._mucked: set[int] = set()
        self.small_blind_seat: int | None
        self.big_blind_seat: int | None
        if stud or config.bomb_pot:
            self.small_blind_seat = self.big_blind_seat = None
        elif n == 2:
            self.small_blind_seat, self.big_blind_seat = button, (button + 1) % n
        else:
            self.small_blind_seat, self.big_blind_seat = (button + 1) % n, (button + 2) % n
        # Under the gun and the re-straddles after it, or the button alone.
        self.straddle_seats: tuple[int, ...] = (
            (button,)
            if config.button_straddle
            else tuple((button + 3 + k) % n for k in range(config.straddles))
        )
        self.straddle_seat = self.straddle_seats[0] if self.straddle_seats else None
        if stud:
            self._start_stud()
        else:
            self._start()

    # ------------------------------------------------------------------ set-up
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

    def _order(self) -> list[int]:
        """Every seat, from the left of the button round to the button."""
        n = self._n
        return [(self.button + k) % n for k in range(1, n + 1)]

    def _start(self) -> None:
        c = self.config
        n = self._n
        order = self._order()
        if c.bomb_pot:
            for seat in order:
                self._post(seat, c.bomb_pot, EventKind.ANTE, False)
            self._deal_holes(order)
            self._end_round()  # no preflop betting: straight to the flop
            return
        assert self.small_blind_seat is not None and self.big_blind_seat is not None
        if c.ante and c.ante_mode == "per-player":
            for seat in order:
                self._post(seat, c.ante, EventKind.ANTE, False)
        self._post(self.small_blind_seat, c.small_blind, EventKind.SMALL_BLIND, True)
        self._post(self.big_blind_seat, c.big_blind, EventKind.BIG_BLIND, True)
        if c.ante and c.ante_mode == "big-blind":
            before = self._committed[self.big_blind_seat]
            self._post(self.big_blind_seat, c.ante, EventKind.ANTE, False)
            self._dead = self._committed[self.big_blind_seat] - before
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
        self._deal_holes(order)
        self._begin_round(first)

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

    def _start_stud(self) -> None:
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
        self._begin_round(bring_in_seat(up, razz=c.game == "razz"))

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
        return first_to_act(up, self._order(), razz=self.config.game == "razz")

    def _begin_round(self, first: int) -> None:
        to_act = self._to_act
        for i in range(self._n):
            to_act[i] = not self._folded[i] and not self._all_in[i]
            self._acted_at[i] = None
        self._round_aggressor = None
        self._round_start = len(self._actions)
        actor = self._find_actor(first)
        if actor is None:
            self._end_round()
        else:
            self._actor = actor

    def _find_actor(self, start: int) -> int | None:
        n = self._n
        to_act = self._to_act
        active = 0
        for i in range(n):
            if not self._folded[i] and not self._all_in[i]:
                active += 1
        bets = self._bets
        for k in range(n):
            j = (start + k) % n
            if to_act[j]:
                if active >= 2:
                    return j
                # the only seat that can act: only if it faces more chips than it put in
                mine = bets[j]
                for i in range(n):
                    if i != j and not self._folded[i] and bets[i] > mine:
                        return j
                to_act[j] = False
                self.skipped_checks.append((j, len(self._actions)))
        return None

    def _deal_board(self, count: int) -> None:
        deck = self._deck
        pos = self._next_card + 1  # burn one
        cards = tuple(deck[pos : pos + count])
        self._next_card = pos + count
        self.board.extend(cards)
        self.events.append(Event(EventKind.DEAL_BOARD, None, 0, cards))

    def _return_uncalled(self) -> None:
        back = uncalled(self._bets)
        if back is not None:
            seat, amount = back
            self._stacks[seat] += amount
            self._committed[seat] -= amount
            self._bets[seat] -= amount
            if amount and self._all_in[seat]:
                self._all_in[seat] = False
            self.events.append(Event(EventKind.RETURN, seat, amount))

    def _end_round(self) -> None:
        self._return_uncalled()
        bets = self._bets
        for i in range(self._n):
            bets[i] = 0
        if len(self._actions) > self._round_start:  # a betting round took place
            self._aggressor = self._round_aggressor
        self._actor = None
        self._bring_in_due = False
        self._completion_to = 0
        if self._betting_closed is None:
            live = [i for i in range(self._n) if not self._folded[i]]
            if len(live) >= 2 and sum(1 for i in live if not self._all_in[i]) <= 1:
                self._betting_closed = len(self.events)
        if self._street == self._last_street:
            self._showdown()
            return
        if self.config.run_it_twice and self._betting_closed is not None and self._runs is None:
            self._runs_due = True  # wait for run_once or run_twice
            return
        self._next_street()

    def _next_street(self) -> None:
        self._street += 1
        self._current_bet = 0
        c = self.config
        if c.betting == "fixed-limit":
            self._last_full = c.fixed_small_bet if self._street < 2 else c.fixed_big_bet
        else:
            self._last_full = c.big_blind
        self._raises = 0
        if self._stud:
            self._deal_stud_street()
            self._begin_round(self._stud_first_to_act())
            return
        self._deal_board(_BOARD_SIZES[self._street])
        self._begin_round((self.button + 1) % self._n)

    def choose_runs(self, runs: int) -> list[Event]:
        """Run the rest of the board once or twice (``run_it_twice``: the players' agreement,
        asked for when nobody can bet any more before the river)."""
        if not self._runs_due:
            raise IllegalAction(
                "no run-out to choose: the board is run twice only when the table runs it "
                "twice and nobody can bet any more before the river"
            )
        if runs not in (1, 2):
            raise IllegalAction(f"the board is run once or twice, not {runs!r} times")
        mark = len(self.events)
        self._actions.append(_RUN_TWICE if runs == 2 else _RUN_ONCE)
        self._runs_due = False
        self._runs = runs
        self._run_from = self._street
        self.events.append(Event(EventKind.RUNS, None, runs))
        self._next_street()
        return self.events[mark:]

    def _deal_second_run(self) -> None:
        """The second run: the streets after the one the runs part from, burning first as
        for the first run, from the same deck after the first run's cards."""
        board = list(self.board[: sum(_BOARD_SIZES[: self._run_from + 1])])
        pos = self._next_card
        for street in range(self._run_from + 1, 4):
            size = _BOARD_SIZES[street]
            cards = tuple(self._deck[pos + 1 : pos + 1 + size])
            pos += 1 + size
            board.extend(cards)
            self.events.append(Event(EventKind.DEAL_SECOND_BOARD, None, 0, cards))
        self._next_card = pos
        self.second_board = board

    def rabbit_hunt(self) -> tuple[Card, ...]:
        """The board cards that would have come had the hand not ended before the river,
        dealt from this hand's deck as the dealer would have (burning before each street);
        empty when the board is complete. Changes nothing; only once the hand is over."""
        if not self._over:
            raise IllegalAction("no rabbit hunt while the hand is being played")
        if self._stud:
            raise IllegalAction("no rabbit hunt in stud: it has no board")
        cards: list[Card] = []
        pos = self._next_card
        for street in range(len(_board_streets(len(self.board))), 4):
            size = _BOARD_SIZES[street]
            cards.extend(self._deck[pos + 1 : pos + 1 + size])
            pos += 1 + size
        return tuple(cards)

    # ------------------------------------------------------------------ queries
    @property
    def runs_due(self) -> bool:
        """The hand waits for ``run_once`` or ``run_twice`` (``choose_runs``)."""
        return self._runs_due

    @property
    def runs(self) -> int:
        """How many times the board was run (2 only after ``run_twice``)."""
        return self._runs or 1

    @property
    def no_more_betting(self) -> bool:
        """Nobody can bet any more and two or more hands are live (an all-in run-out or
        showdown): the moment every live hand may be turned face up."""
        return self._betting_closed is not None

    @property
    def runout_start(self) -> int | None:
        """How many events the hand had when no more betting became possible (the run-out's
        cards are the board events after it), or ``None``."""
        return self._betting_closed

    @property
    def actor(self) -> int | None:
        """Seat to act, or ``None`` when the hand is over."""
        return self._actor

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def street(self) -> str:
        if self._over:
            return "over"
        return STUD_STREETS[self._street] if self._stud else STREETS[self._street]

    @property
    def stacks(self) -> tuple[int, ...]:
        return tuple(self._stacks)

    @property
    def bets(self) -> tuple[int, ...]:
        """Chips each seat has in front of it on this street (not yet in the pot)."""
        return tuple(self._bets)

    @property
    def committed(self) -> tuple[int, ...]:
        return tuple(self._committed)

    @property
    def folded(self) -> tuple[bool, ...]:
        return tuple(self._folded)

    @property
    def all_in_seats(self) -> tuple[bool, ...]:
        return tuple(self._all_in)

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def seats(self) -> int:
        return self._n

    @property
    def current_bet(self) -> int:
        return self._current_bet

    @property
    def pots(self) -> list[Pot]:
        """Pots from the chips already collected (bets of the current street excluded)."""
        collected = [c - b for c, b in zip(self._committed, self._bets, strict=True)]
        if self.big_blind_seat is not None:
            collected[self.big_blind_seat] -= self._dead
        live = [not f for f in self._folded]
        return build_pots(collected, live, self._dead)

    @property
    def total_pot(self) -> int:
        return sum(self._committed)

    @property
    def result(self) -> Result | None:
        return self._result

    @property
    def legal(self) -> Legal | None:
        """The actor's legal actions, or ``None`` when the hand is over."""
        j = self._actor
        if j is None:
            return None
        to_call = self._current_bet - self._bets[j]
        stack = self._stacks[j]
        if self._bring_in_due:  # post the bring-in (a call) or complete (a raise)
            lo, hi = self._raise_bounds(j)
            return Legal(False, False, min(self.config.bring_in, stack), lo, hi)
        if to_call > 0:
            fold, check, call = True, False, min(to_call, stack)
        else:
            fold, check, call = False, True, 0
        lo, hi = self._raise_bounds(j)
        return Legal(fold, check, call, lo, hi)

    def _raise_block(self, j: int) -> tuple[str, str] | None:
        """Why seat ``j`` may not bet or raise now, as (message, code); ``None`` when it may."""
        to_call = self._current_bet - self._bets[j]
        if self._stacks[j] <= to_call:
            return "not enough chips to raise: the stack only covers a call", "stack_covers_call"
        current = self._current_bet
        for i in range(self._n):
            if (
                i != j
                and not self._folded[i]
                and not self._all_in[i]
                and self._bets[i] + self._stacks[i] > current
            ):
                break
        else:
            return (
                "no raise when no other player could call more than the current bet",
                "nobody_to_raise",
            )
        acted = self._acted_at[j]
        if acted is not None and self._current_bet - acted < self._last_full:
            return (
                "betting was not reopened: a short all-in raise does not reopen the "
                "betting for a player who already acted",
                "betting_not_reopened",
            )
        if (
            self.config.betting == "fixed-limit"
            and self._raises >= 4
            and sum(1 for f in self._folded if not f) > 2
        ):
            return "fixed-limit cap: one bet and three raises per street", "raise_cap_reached"
        return None

    def _raise_bounds(self, j: int) -> tuple[int | None, int | None]:
        if self._raise_block(j) is not None:
            return None, None
        everything = self._bets[j] + self._stacks[j]
        current = self._current_bet
        betting = self.config.betting
        if betting == "fixed-limit":
            full = (
                self._completion_to if current < self._completion_to else current + self._last_full
            )
            target = min(full, everything)
            return target, target
        lo = current + self._last_full
        hi = everything
        if betting == "pot-limit":
            to_call = current - self._bets[j]
            hi = min(hi, current + sum(self._committed) + to_call)
        return min(lo, hi), hi

    # ------------------------------------------------------------------ commands
    def _check_turn(self, seat: int | None) -> int:
        j = self._actor
        if j is None:  # only when the hand is over
            raise IllegalAction("the hand is over: no more actions", "hand_over")
        if seat is not None and seat != j:
            raise IllegalAction(
                f"out of turn: seat {seat} acted but seat {j} is to act", "not_your_turn"
            )
        return j

    def _refuse_bring_in(self) -> None:
        if self._bring_in_due:
            raise IllegalAction(
                f"post the bring-in ({self.config.bring_in}: call) or complete to "
                f"{self._completion_to} (raise)",
                "bring_in_required",
            )

    def fold(self, *, seat: int | None = None) -> list[Event]:
        j = self._check_turn(seat)
        self._refuse_bring_in()
        if self._current_bet - self._bets[j] <= 0:
            raise IllegalAction("no folding when checking is free: check instead", "fold_when_free")
        mark = len(self.events)
        self._actions.append(_FOLD)
        self._folded[j] = True
        self._to_act[j] = False
        self.events.append(Event(EventKind.FOLD, j))
        live = [i for i in range(self._n) if not self._folded[i]]
        if len(live) == 1:
            self._win_uncontested(live[0])
        else:
            self._next(j)
        return self.events[mark:]

    def check(self, *, seat: int | None = None) -> list[Event]:
        j = self._check_turn(seat)
        self._refuse_bring_in()
        if self._current_bet - self._bets[j] > 0:
            raise IllegalAction(
                f"no checking when facing a bet: call "
                f"{min(self._current_bet - self._bets[j], self._stacks[j])} or fold",
                "check_facing_bet",
            )
        mark = len(self.events)
        self._actions.append(_CHECK)
        self._to_act[j] = False
        self._acted_at[j] = self._current_bet
        self.events.append(Event(EventKind.CHECK, j))
        self._next(j)
        return self.events[mark:]

    def call(self, *, seat: int | None = None) -> list[Event]:
        j = self._check_turn(seat)
        if self._bring_in_due:
            return self._post_bring_in(j)
        to_call = self._current_bet - self._bets[j]
        if to_call <= 0:
            raise IllegalAction("nothing to call: check instead", "nothing_to_call")
        mark = len(self.events)
        self._actions.append(_CALL)
        self._pay(j, min(to_call, self._stacks[j]))
        self._to_act[j] = False
        self._acted_at[j] = self._current_bet
        self.events.append(Event(EventKind.CALL, j, self._bets[j]))
        self._next(j)
        return self.events[mark:]

    def _post_bring_in(self, j: int) -> list[Event]:
        mark = len(self.events)
        self._actions.append(_CALL)
        self._bring_in_due = False
        self._pay(j, min(self.config.bring_in, self._stacks[j]))
        self._current_bet = self._bets[j]
        self._to_act[j] = False  # acts again only if someone completes
        self.events.append(Event(EventKind.BRING_IN, j, self._bets[j]))
        self._next(j)
        return self.events[mark:]

    def _pay(self, j: int, amount: int) -> None:
        self._stacks[j] -= amount
        self._bets[j] += amount
        self._committed[j] += amount
        if self._stacks[j] == 0:
            self._all_in[j] = True

    def bet_or_raise_to(self, amount: int, *, seat: int | None = None) -> list[Event]:
        j = self._check_turn(seat)
        self._verify_raise(j, amount)
        mark = len(self.events)
        self._actions.append(Action(ActionKind.RAISE, amount))
        self._raise(j, amount)
        return self.events[mark:]

    def _verify_raise(self, j: int, amount: int) -> None:
        if not is_whole(amount):
            raise IllegalAction(
                f"a bet or raise is a whole number of chips, got {amount!r}", "invalid_amount"
            )
        why = self._raise_block(j)
        if why is not None:
            raise IllegalAction(*why)
        lo, hi = self._raise_bounds(j)
        assert lo is not None and hi is not None  # no block: both bounds
        everything = self._bets[j] + self._stacks[j]
        word = "bet" if self._current_bet == 0 else "raise"
        if amount > everything:
            raise IllegalAction(
                f"more chips than the stack: can {word} to at most {everything}", "above_stack"
            )
        if amount > hi:
            limit = "pot-limit" if self.config.betting == "pot-limit" else "fixed-limit"
            raise IllegalAction(
                f"{word} above the {limit} maximum: at most {hi}", "above_max_raise"
            )
        if amount <= self._current_bet:
            raise IllegalAction(
                f"a raise must be to more than the current bet of {self._current_bet}",
                "below_min_raise",
            )
        if amount < lo and amount != everything:
            raise IllegalAction(
                f"{word} below the minimum: at least {lo} (or all-in for less)", "below_min_raise"
            )

    def _raise(self, j: int, amount: int) -> None:
        current = self._current_bet
        kind = EventKind.BET if current == 0 else EventKind.RAISE
        self._pay(j, amount - self._bets[j])
        self._bring_in_due = False
        increment = amount - current
        if current < self._completion_to <= amount:
            # the completion is the street's full bet: it reopens the betting for everyone
            self._raises += 1
            for i in range(self._n):
                self._acted_at[i] = None
        elif increment >= self._last_full:
            if self.config.betting != "fixed-limit":
                self._last_full = increment
            self._raises += 1
        self._current_bet = amount
        self._round_aggressor = j
        self._acted_at[j] = amount
        to_act = self._to_act
        for i in range(self._n):
            to_act[i] = i != j and not self._folded[i] and not self._all_in[i]
        self.events.append(Event(kind, j, amount))
        self._next(j)

    def all_in(self, *, seat: int | None = None) -> list[Event]:
        """Put in the whole stack: a call when it does not cover more, else a bet or raise."""
        j = self._check_turn(seat)
        everything = self._bets[j] + self._stacks[j]
        if self._bring_in_due and everything <= self.config.bring_in:
            return self._post_bring_in(j)
        if everything <= self._current_bet:
            mark = len(self.events)
            self._actions.append(_ALL_IN)
            self._pay(j, self._stacks[j])
            self._to_act[j] = False
            self._acted_at[j] = self._current_bet
            self.events.append(Event(EventKind.CALL, j, self._bets[j]))
            self._next(j)
            return self.events[mark:]
        self._verify_raise(j, everything)
        mark = len(self.events)
        self._actions.append(_ALL_IN)
        self._raise(j, everything)
        return self.events[mark:]

    def act(
        self, action: Action | str | Mapping[str, Any], *, seat: int | None = None
    ) -> list[Event]:
        """Any decision: an ``Action``, its text or its dict (``Action.coerce``)."""
        action = Action.coerce(action)
        kind = action.kind
        if kind is ActionKind.RAISE:
            assert action.amount is not None  # Action checks a raise has one
            return self.bet_or_raise_to(action.amount, seat=seat)
        if kind is ActionKind.FOLD:
            return self.fold(seat=seat)
        if kind is ActionKind.CHECK:
            return self.check(seat=seat)
        if kind is ActionKind.CALL:
            return self.call(seat=seat)
        if kind is ActionKind.RUN_ONCE or kind is ActionKind.RUN_TWICE:
            return self.choose_runs(2 if kind is ActionKind.RUN_TWICE else 1)
        return self.all_in(seat=seat)

    def _next(self, j: int) -> None:
        actor = self._find_actor(j + 1)
        if actor is None:
            self._end_round()
        else:
            self._actor = actor

    # ------------------------------------------------------------------ the end
    def _win_uncontested(self, winner: int) -> None:
        self._return_uncalled()
        self._bets = [0] * self._n
        self._actor = None
        amount = sum(self._committed)
        self._stacks[winner] += amount
        self.events.append(Event(EventKind.WIN, winner, amount))
        self._finish((Award(0, amount, (winner,), (amount,), ""),))

    def _finish(self, awards: tuple[Award, ...]) -> None:
        self._over = True
        self._actor = None
        net = tuple(s - s0 for s, s0 in zip(self._stacks, self.starting_stacks, strict=True))
        self._result = Result(net, awards, dict(self._shown))

    def _showdown_order(self, live: list[int]) -> list[int]:
        n = self._n
        if self._aggressor is not None and not self._folded[self._aggressor]:
            start = self._aggressor
        else:
            start = (self.button + 1) % n
        return sorted(live, key=lambda s: (s - start) % n)

    def _strengths(
        self, live: list[int], board: list[Card]
    ) -> tuple[dict[int, int], dict[int, LowRank | None] | None, dict[int, str]]:
        """Each live seat's high strength (razz: its low), its eight-or-better low in the
        hi-lo games, and the description of its hand, with this board."""
        game = self.config.game
        high: dict[int, int] = {}
        low: dict[int, LowRank | None] | None = {} if self.config.is_hilo else None
        text: dict[int, str] = {}
        for s in live:
            if self._stud:
                cards = list(self.hole[s]) + board
                rank = evaluate_low(cards) if game == "razz" else evaluate(cards)
                if low is not None:
                    low[s] = evaluate_low8(cards)
            else:
                if game == "holdem":
                    rank = evaluate(list(self.hole[s]) + board)
                else:
                    rank = evaluate_omaha(self.hole[s], board)
                if low is not None:
                    low[s] = evaluate_omaha_low8(self.hole[s], board)
            high[s] = rank
            low_s = low.get(s) if low is not None else None
            text[s] = rank.description + (f", {low_s.description}" if low_s else "")
        return high, low, text

    def _showdown(self) -> None:
        n = self._n
        live = [i for i in range(n) if not self._folded[i]]
        boards = [self.board]
        if self._runs == 2:
            self._deal_second_run()
            boards.append(self.second_board)
        runs = [self._strengths(live, board) for board in boards]
        high, low, text = runs[0]
        if len(runs) == 2:
            text = {s: f"first run: {runs[0][2][s]}; second run: {runs[1][2][s]}" for s in live}
        all_in_showdown = any(self._all_in[s] for s in live)
        best_high: int | None = None
        best_low: int | None = None
        for s in self._showdown_order(live):
            h, lo = high[s], (low[s] if low is not None else None)
            wins_high = best_high is None or h >= best_high
            wins_low = lo is not None and (best_low is None or lo >= best_low)
            if all_in_showdown or wins_high or wins_low:
                self._shown[s] = (self.hole[s], text[s])
                self.events.append(Event(EventKind.SHOW, s, 0, self.hole[s], text[s]))
                best_high = h if best_high is None or h > best_high else best_high
                if lo is not None and (best_low is None or lo > best_low):
                    best_low = lo
            else:
                self._mucked.add(s)
                self.events.append(Event(EventKind.MUCK, s))
        contributions = list(self._committed)
        if self.big_blind_seat is not None:
            contributions[self.big_blind_seat] -= self._dead
        pots = build_pots(contributions, [not f for f in self._folded], self._dead)
        awards: list[Award] = []
        for k, (run_pots, (run_high, run_low, _)) in enumerate(
            zip(split_between_runs(pots, len(runs)), runs, strict=True)
        ):
            names = {s: str(h) for s, h in run_high.items()}
            low_names = {s: str(v) for s, v in (run_low or {}).items() if v is not None}
            for award in award_pots(run_pots, run_high, run_low, self.button, n, names, low_names):
                if not award.amount:
                    continue  # the second run's share of a one-chip pot
                if len(runs) == 2:
                    run = "first" if k == 0 else "second"
                    board = " ".join(str(card) for card in boards[k])
                    award = replace(award, description=f"{run} run ({board}): {award.description}")
                awards.append(award)
        for award in awards:
            for w, share in zip(award.winners, award.amounts, strict=True):
                self._stacks[w] += share
                self.events.append(Event(EventKind.WIN, w, share, (), award.description))
        self._finish(tuple(awards))

    # ------------------------------------------------------------------ replay and view
    @classmethod
    def replay(
        cls,
        config: HandConfig | Mapping[str, Any],
        stacks: Sequence[int],
        button: int,
        deck: Iterable[int],
        actions: Iterable[Action | str | Mapping[str, Any]],
        players: Sequence[str] | None = None,
    ) -> Hand:
        """Rebuild a hand from its inputs; the same inputs always give the same hand."""
        hand = cls(config, stacks, button, deck, players)
        for action in actions:
            hand.act(action)
        return hand

    def _check_viewer(self, viewer: int | None) -> None:
        if viewer is not None and not (is_whole(viewer) and 0 <= viewer < self._n):
            raise PokerError(f"no seat {viewer!r} in this hand")

    def _sees_hole(self, viewer: int | None, seat: int) -> bool:
        """The hidden-card rule: a viewer sees its own hole cards, the hands shown and, once
        nobody can bet any more, every live hand, face up for the run-out (and, in stud,
        everyone's up-cards: ``_seen_cards``)."""
        return (
            seat == viewer
            or seat in self._shown
            or (self._betting_closed is not None and not self._folded[seat])
        )

    def _seen_cards(self, viewer: int | None, seat: int) -> tuple[Card | None, ...]:
        """``seat``'s cards as ``viewer`` sees them: ``None`` for each hidden one."""
        if self._sees_hole(viewer, seat):
            return self.hole[seat]
        return tuple(
            card if up else None for card, up in zip(self.hole[seat], self.up[seat], strict=True)
        )

    def visible_cards(self, seat: int | None = None) -> frozenset[Card]:
        """Every card ``seat`` (or a spectator, ``None``) may see now, by ``view``'s rule:
        the board, its own hole cards, the up-cards of seats still in the hand and the hands
        shown at showdown."""
        self._check_viewer(seat)
        seen = set(self.board) | set(self.second_board)
        for i in range(self._n):
            if self._sees_hole(seat, i) or not (self._folded[i] or i in self._mucked):
                seen.update(c for c in self._seen_cards(seat, i) if c is not None)
        return frozenset(seen)

    def view(self, seat: int | None = None) -> View:
        """The hand as ``seat`` (or a spectator, ``None``) may see it.

        Shows the viewer's own hole cards and the hands shown at showdown; every other hole
        card is ``None`` in ``seats`` and absent from ``events``. Never the deck, burn cards
        or mucked cards. ``legal`` only in the actor's own view.
        """
        self._check_viewer(seat)
        public = self._public_view()
        if seat is None:
            return public
        events = public.events
        for own in self._deal_index[seat]:
            events = events[:own] + (self.events[own],) + events[own + 1 :]
        return View(
            seat,
            public.config,
            public.street,
            public.button,
            public.seats[:seat] + (self._seat_view(seat, seat),) + public.seats[seat + 1 :],
            public.board,
            public.pots,
            public.total_pot,
            public.current_bet,
            public.actor,
            self.legal if seat == self._actor else None,
            events,
            public.result,
            public.no_more_betting,
            public.runs_due,
            public.second_board,
        )

    def _public_view(self) -> View:
        """What a spectator sees, built once per state (each change appends events, so their
        count names the state): every viewer's view is this one with their own seat swapped
        in, as ``view`` is asked for every viewer after every change."""
        events = self.events
        cached = self._public
        if cached is not None and cached[0] == len(events):
            return cached[1]
        others_see = self._others_see
        for e in events[len(others_see) :]:  # events are only ever appended
            others_see.append(replace(e, cards=()) if e.kind is EventKind.DEAL_HOLE else e)
        view = View(
            None,
            self.config,
            self.street,
            self.button,
            tuple(self._seat_view(i, None) for i in range(self._n)),
            tuple(self.board),
            tuple(self.pots),
            sum(self._committed),
            self._current_bet,
            self._actor,
            None,
            tuple(others_see),
            self._result,
            self.no_more_betting,
            self._runs_due,
            tuple(self.second_board),
        )
        self._public = (len(events), view)
        return view

    def _seat_view(self, i: int, viewer: int | None) -> SeatView:
        cards: tuple[Card | None, ...]
        if self._sees_hole(viewer, i):
            cards = self.hole[i]
        elif self._folded[i] or i in self._mucked:
            cards = ()
        else:
            cards = self._seen_cards(viewer, i)
        return SeatView(
            i,
            self.players[i],
            self._stacks[i],
            self._bets[i],
            self._committed[i],
            self._folded[i],
            self._all_in[i],
            cards,
            self.up[i] if cards else (),
            i in self._shown,
            i == self.button,
            i == self.small_blind_seat,
            i == self.big_blind_seat,
            i in self.straddle_seats,
        )

    def __repr__(self) -> str:
        return (
            f"<Hand {self.config.game} {self.config.betting} {self._n} seats "
            f"street={self.street} actor={self._actor} stacks={self._stacks}>"
        )
