"""The hand state machine: one hand of hold'em or Omaha, any betting structure.

Seats are indices ``0..n-1`` of the ``stacks``/``players`` lists, clockwise; ``button`` is one
of them. Only decisions are left open: posting, dealing, collecting, returning uncalled bets,
side pots, showdown and payouts happen by themselves.

Dealing order (so a hand is fully determined by its deck): hole cards one at a time,
round-robin, starting with the seat left of the button (heads-up: the big blind) and ending
with the button, as many rounds as the game has hole cards; then burn one card and deal three
(flop), burn and deal one (turn), burn and deal one (river).

Each command (``fold``, ``check``, ``call``, ``bet_or_raise_to``, ``all_in``) verifies first and
raises ``IllegalAction`` naming the rule broken, changing nothing; otherwise it returns the
events it caused. ``view(seat)`` is the one place hidden information is filtered.

House rules implemented (see DESIGN.md), with the choices this engine makes where the
rules leave room:

* Heads-up the button posts the small blind, acts first before the flop and last after it.
* Forced bets are posted in this order: per-player antes (each seat from the left of the
  button), small blind, big blind, the big-blind ante (after the blind: the blind has
  priority when the stack is short), straddle (the seat left of the big blind; needs three or
  more players). Anyone short posts what they have and is all-in.
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
* Showdown order: the last aggressor of the last betting round shows first, else the first
  live seat left of the button. Auto-muck rule: if any live seat is all-in (an all-in
  showdown) every live hand is shown; otherwise, in showdown order, a hand is shown when it is
  at least as good as the best hand shown so far and mucked unseen when it is beaten.
  Winning hands are therefore always shown.

Past 500 lines because the state machine is one idea: every rule above acts on the same
per-seat state, and splitting it would spread one hand's invariants over several modules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.cards import ALL_CARDS, Card, check_deck
from engine.errors import IllegalAction, PokerError
from engine.evaluate import HandRank, evaluate, evaluate_omaha
from engine.pots import Pot, build_pots, split_pot, uncalled
from engine.types import (
    ANTE_MODES,
    BETTINGS,
    GAMES,
    MAX_SEATS,
    STREETS,
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
# The decisions a command records (one shared, immutable object each).
_FOLD, _CHECK, _CALL, _ALL_IN = (
    Action(k) for k in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.ALL_IN)
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
        if config.straddle and n < 3:
            raise PokerError("a straddle needs three or more players")

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
        self.board: list[Card] = []
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
        self._deal_index: dict[int, int] = {}
        self._public: tuple[int, View] | None = None
        self._actions: list[Action] = []
        self._result: Result | None = None
        self._shown: dict[int, tuple[tuple[Card, ...], str]] = {}
        self._mucked: set[int] = set()
        if n == 2:
            self.small_blind_seat, self.big_blind_seat = button, (button + 1) % n
        else:
            self.small_blind_seat, self.big_blind_seat = (button + 1) % n, (button + 2) % n
        self.straddle_seat = (button + 3) % n if config.straddle else None
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

    def _start(self) -> None:
        c = self.config
        n = self._n
        order = [(self.button + k) % n for k in range(1, n + 1)]
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
        if self.straddle_seat is not None:
            s = self.straddle_seat
            self._post(s, c.straddle, EventKind.STRADDLE, True)
            if self._bets[s] > c.big_blind:
                self._current_bet = self._bets[s]
                if self._bets[s] == c.straddle:
                    self._last_full = c.straddle
                    self._raises = 2
            first = (s + 1) % n
        # deal hole cards
        deck = self._deck
        pos = 0
        holes: list[list[Card]] = [[] for _ in range(n)]
        for _ in range(c.hole_count):
            for seat in order:
                holes[seat].append(deck[pos])
                pos += 1
        self._next_card = pos
        self.hole = [tuple(h) for h in holes]
        for seat in order:
            self._deal_index[seat] = len(self.events)
            self.events.append(Event(EventKind.DEAL_HOLE, seat, 0, self.hole[seat]))
        self._begin_round(first)

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
        if self._street == 3:
            self._showdown()
            return
        self._street += 1
        self._current_bet = 0
        c = self.config
        if c.betting == "fixed-limit":
            self._last_full = c.fixed_small_bet if self._street < 2 else c.fixed_big_bet
        else:
            self._last_full = c.big_blind
        self._raises = 0
        self._deal_board(_BOARD_SIZES[self._street])
        self._begin_round((self.button + 1) % self._n)

    # ------------------------------------------------------------------ queries
    @property
    def actor(self) -> int | None:
        """Seat to act, or ``None`` when the hand is over."""
        return self._actor

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def street(self) -> str:
        return "over" if self._over else STREETS[self._street]

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
            target = min(current + self._last_full, everything)
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

    def fold(self, *, seat: int | None = None) -> list[Event]:
        j = self._check_turn(seat)
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
        increment = amount - current
        if increment >= self._last_full:
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

    def _showdown(self) -> None:
        n = self._n
        live = [i for i in range(n) if not self._folded[i]]
        board = self.board
        ranks: dict[int, HandRank] = {}
        if self.config.game == "omaha":
            for s in live:
                ranks[s] = evaluate_omaha(self.hole[s], board)
        else:
            for s in live:
                ranks[s] = evaluate(list(self.hole[s]) + board)
        all_in_showdown = any(self._all_in[s] for s in live)
        best = None
        for s in self._showdown_order(live):
            r = ranks[s]
            if all_in_showdown or best is None or r >= best:
                self._shown[s] = (self.hole[s], r.description)
                self.events.append(Event(EventKind.SHOW, s, 0, self.hole[s], r.description))
                if best is None or r > best:
                    best = r
            else:
                self._mucked.add(s)
                self.events.append(Event(EventKind.MUCK, s))
        contributions = list(self._committed)
        contributions[self.big_blind_seat] -= self._dead
        pots = build_pots(contributions, [not f for f in self._folded], self._dead)
        awards = []
        for index, pot in enumerate(pots):
            top = max(ranks[s] for s in pot.eligible)
            winners = tuple(s for s in pot.eligible if ranks[s] == top)
            shares = tuple(split_pot(pot.amount, winners, self.button, n))
            for w, share in zip(winners, shares, strict=True):
                self._stacks[w] += share
                self.events.append(Event(EventKind.WIN, w, share, (), top.description))
            awards.append(Award(index, pot.amount, winners, shares, top.description))
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
        """The hidden-card rule: a viewer sees its own hole cards and the hands shown."""
        return seat == viewer or seat in self._shown

    def visible_cards(self, seat: int | None = None) -> frozenset[Card]:
        """Every card ``seat`` (or a spectator, ``None``) may see now, by ``view``'s rule:
        the board, its own hole cards and the hands shown at showdown."""
        self._check_viewer(seat)
        seen = set(self.board)
        for i in range(self._n):
            if self._sees_hole(seat, i):
                seen.update(self.hole[i])
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
        own = self._deal_index[seat]
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
            public.events[:own] + (self.events[own],) + public.events[own + 1 :],
            public.result,
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
            cards = (None,) * len(self.hole[i])
        return SeatView(
            i,
            self.players[i],
            self._stacks[i],
            self._bets[i],
            self._committed[i],
            self._folded[i],
            self._all_in[i],
            cards,
            i in self._shown,
            i == self.button,
            i == self.small_blind_seat,
            i == self.big_blind_seat,
            i == self.straddle_seat,
        )

    def __repr__(self) -> str:
        return (
            f"<Hand {self.config.game} {self.config.betting} {self._n} seats "
            f"street={self.street} actor={self._actor} stacks={self._stacks}>"
        )
