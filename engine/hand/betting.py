"""The betting rules: what the actor may do now (``legal``), whether and how far it may bet
or raise, and the checks every command makes first (``engine.hand.machine.Hand`` applies the
decisions).

* No-limit: a bet is at least the big blind, a raise at least the largest full bet or raise
  this street; all-in for less is always allowed. A short all-in does not reopen betting for
  a seat that already acted, unless the raises since that seat last acted add up to a full
  raise. Folding is only allowed when facing a bet (otherwise check). Raising is not allowed
  when no other player left could put in more than the current bet.
* Pot-limit: the largest raise is to the pot after calling. Fixed limit: bets and raises are
  one small bet (preflop, flop) or big bet (turn, river); one bet and three raises per street
  (the big blind counts as the preflop bet); no cap while only two players are in the hand.
  An all-in for less than a full bet is not a raise that counts toward the cap.
* Stud: the bring-in posts it (``call``) or completes to the small bet (``raise``); neither
  folding nor checking is open to it. The completion is a full bet: it reopens the betting
  for everyone, the bring-in too. Small bets on third and fourth street, big bets from fifth;
  one bet and three raises per street (the completion is the bet). No optional big bet on an
  open pair on fourth street.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.hand.state import HandState
from engine.types import Legal, is_whole

__all__ = ["BettingRules"]


class BettingRules(HandState):
    """The actor's legal actions and the checks made before any decision is applied."""

    @property
    def legal(self) -> Legal | None:
        """The actor's legal actions, or ``None`` when the hand is over."""
        j = self._actor
        if j is None:
            return None
        if self._draw_due:
            return Legal(False, False, 0, None, None, discard=True)
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

    def _check_turn(self, seat: int | None) -> int:
        j = self._actor
        if j is None:  # only when the hand is over
            raise IllegalAction("the hand is over: no more actions", "hand_over")
        if seat is not None and seat != j:
            raise IllegalAction(
                f"out of turn: seat {seat} acted but seat {j} is to act", "not_your_turn"
            )
        if self._draw_due:
            raise IllegalAction(
                "the draw: throw away none to all of your cards (discard), nothing else",
                "draw_due",
            )
        return j

    def _refuse_bring_in(self) -> None:
        if self._bring_in_due:
            raise IllegalAction(
                f"post the bring-in ({self.config.bring_in}: call) or complete to "
                f"{self._completion_to} (raise)",
                "bring_in_required",
            )

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
