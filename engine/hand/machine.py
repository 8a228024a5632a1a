"""The hand state machine: one hand of any game of the registry (hold'em, Omaha, the stud
games, short deck, the draw games), any betting structure it is played with.

Only decisions are left open: posting, dealing, collecting, returning uncalled bets, side
pots, showdown and payouts happen by themselves. Each command (``fold``, ``check``, ``call``,
``bet_or_raise_to``, ``all_in``, ``choose_runs``) verifies first and raises ``IllegalAction``
naming the rule broken, changing nothing; otherwise it returns the events it caused.

``Hand`` is built from the parts of the package, each with the house rules it implements
(see DESIGN.md): the state and its queries (``engine.hand.state``), forced bets, the
dealing order and the run-outs' later boards (``engine.hand.dealing``), the betting rules
(``engine.hand.betting``), the showdown (``engine.hand.payout``) and the views
(``engine.hand.views``). Here: the betting rounds and the commands.

* Heads-up the button posts the small blind, acts first before the flop and last after it.
* A seat that is the only one left who can act only acts when it faces more chips than it
  has put in; otherwise the remaining board is dealt out.
* The uncalled part of the largest bet is returned at the end of each betting round.
* Stud: from fourth street the best showing hand acts first (``engine.hand.stud``).
* Draw games: a draw round between betting rounds (``engine.hand.drawing``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.errors import IllegalAction
from engine.hand.drawing import Drawing
from engine.hand.payout import Payout
from engine.hand.state import BOARD_SIZES
from engine.hand.views import Views
from engine.types import RUN_ACTIONS, RUNS_WORDS, Action, ActionKind, Event, EventKind, HandConfig

__all__ = ["Hand"]

_FOLD, _CHECK, _CALL, _ALL_IN = (
    Action(k) for k in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.ALL_IN)
)
_RUNS_OF_ACTION = {kind: runs for runs, kind in RUN_ACTIONS.items()}


class Hand(Views, Payout, Drawing):
    """One hand; see the module docstrings of ``engine.hand``'s parts for the rules."""

    def __init__(
        self,
        config: HandConfig | Mapping[str, Any],
        stacks: Sequence[int],
        button: int,
        deck: Iterable[int],
        players: Sequence[str] | None = None,
    ) -> None:
        super().__init__(config, stacks, button, deck, players)
        first = self._start_stud() if self._stud else self._start()
        if first is None:
            self._end_round()  # a bomb pot: no preflop betting, straight to the flop
        else:
            self._begin_round(first)

    # ------------------------------------------------------------------ betting rounds
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
        if (
            self.config.run_it_twice
            and not self.config.double_board  # two boards already: never run twice
            and self._betting_closed is not None
            and self._runs is None
        ):
            self._runs_due = True  # wait for run_once or run_twice
            return
        self._next_street()

    def _next_street(self) -> None:
        self._street += 1
        self.street_starts.append((len(self.events), len(self._actions)))
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
        if self._draw:
            self._begin_draw()  # the betting round starts once everyone has drawn
            return
        self._deal_board(BOARD_SIZES[self._street])
        self._begin_round((self.button + 1) % self._n)

    def choose_runs(self, runs: int) -> list[Event]:
        """Run the rest of the board once, twice or three times (``run_it_twice``: the
        players' agreement, asked for when nobody can bet any more before the river)."""
        if not self._runs_due:
            raise IllegalAction(
                "no run-out to choose: the board is run twice only when the table runs it "
                "twice and nobody can bet any more before the river"
            )
        if runs not in RUN_ACTIONS:
            raise IllegalAction(f"the board is run once, twice or three times, not {runs!r} times")
        if runs > self.most_runs:
            raise IllegalAction(
                f"the deck has cards left to run the board {RUNS_WORDS[self.most_runs]}, "
                f"not {RUNS_WORDS[runs]}"
            )
        mark = len(self.events)
        self._actions.append(Action(RUN_ACTIONS[runs]))
        self._runs_due = False
        self._runs = runs
        self._run_from = self._street
        self.events.append(Event(EventKind.RUNS, None, runs))
        self._next_street()
        return self.events[mark:]

    # ------------------------------------------------------------------ commands
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

    def bet_or_raise_to(self, amount: int, *, seat: int | None = None) -> list[Event]:
        j = self._check_turn(seat)
        self._verify_raise(j, amount)
        mark = len(self.events)
        self._actions.append(Action(ActionKind.RAISE, amount))
        self._raise(j, amount)
        return self.events[mark:]

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
        if kind in _RUNS_OF_ACTION:
            return self.choose_runs(_RUNS_OF_ACTION[kind])
        if kind is ActionKind.DISCARD:
            return self.discard(action.cards, seat=seat)
        return self.all_in(seat=seat)

    def _next(self, j: int) -> None:
        actor = self._find_actor(j + 1)
        if actor is None:
            self._end_round()
        else:
            self._actor = actor

    # ------------------------------------------------------------------ replay
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

    def __repr__(self) -> str:
        return (
            f"<Hand {self.config.game} {self.config.betting} {self._n} seats "
            f"street={self.street} actor={self._actor} stacks={self._stacks}>"
        )
