"""The end of a hand: the last seat left takes the pot, or the showdown shows or mucks each
live hand, evaluates them on each board and pays each pot out (who wins each pot:
``engine.hand.showdown``), and the result is recorded.

* Showdown order: the last aggressor of the last betting round shows first, else the first
  live seat left of the button. Auto-muck rule: if any live seat is all-in (an all-in
  showdown) every live hand is shown; otherwise, in showdown order, a hand is shown when it is
  at least as good as the best hand shown so far and mucked unseen when it is beaten.
  Winning hands are therefore always shown.
* Hi-lo and razz showdowns: ``engine.hand.showdown``. A hi-lo hand is shown when it is at
  least as good as the best shown so far for high or for low.
* Side pots are built from contributions; each pot goes to the best eligible hand(s); odd
  chips go one at a time to the winners in seat order starting left of the button.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import replace
from typing import Any

from engine.cards import Card
from engine.evaluate import HandRank, LowRank
from engine.evaluate.tables import kicker_over
from engine.hand.dealing import Dealing
from engine.hand.showdown import award_pots, split_between_runs
from engine.pots import build_pots
from engine.types import Award, Event, EventKind, Result

__all__ = ["Payout"]


class Payout(Dealing):
    """Winning uncontested, the showdown and the payouts."""

    def concede_at_showdown(self, seats: Iterable[int]) -> None:
        """Muck these seats' hands at the showdown, unseen, whatever they hold: a hand history
        that records a seat mucking and hides its cards (a viewer's own history) is replayed
        with made-up cards in their place, which must not win what the mucked hand lost. A
        live game never concedes: its showdown mucks only hands beaten by one shown."""
        self._conceded = frozenset(seats)

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
        game = self.config.variant
        high: dict[int, int] = {}
        low: dict[int, LowRank | None] | None = {} if game.low8 is not None else None
        text: dict[int, str] = {}
        for s in live:
            rank = game.strength(self.hole[s], board)
            if low is not None and game.low8 is not None:
                low[s] = game.low8(self.hole[s], board)
            high[s] = rank
            low_s = low.get(s) if low is not None else None
            text[s] = rank.description + (f", {low_s.description}" if low_s else "")
        return high, low, text

    def _show_or_muck(
        self,
        live: list[int],
        runs: list[tuple[dict[int, int], dict[int, LowRank | None] | None, dict[int, str]]],
        text: dict[int, str],
    ) -> None:
        """Each live hand in showdown order, shown or mucked (the module docstring's rule):
        on two boards or runs, shown when it is at least as good as the best shown so far on
        any of them."""
        all_in_showdown = any(self._all_in[s] for s in live)
        best_high: list[int | None] = [None] * len(runs)
        best_low: list[LowRank | None] = [None] * len(runs)
        for s in self._showdown_order(live):
            wins = False
            for k, (high, low, _) in enumerate(runs):
                h, lo = high[s], (low[s] if low is not None else None)
                best_h, best_lo = best_high[k], best_low[k]
                wins = wins or best_h is None or h >= best_h
                wins = wins or (lo is not None and (best_lo is None or lo >= best_lo))
            if s in self._conceded or not (all_in_showdown or wins):
                self._mucked.add(s)
                self.events.append(Event(EventKind.MUCK, s))
                continue
            self._shown[s] = (self.hole[s], text[s])
            self.events.append(Event(EventKind.SHOW, s, 0, self.hole[s], text[s]))
            for k, (high, low, _) in enumerate(runs):
                h, lo = high[s], (low[s] if low is not None else None)
                best_h, best_lo = best_high[k], best_low[k]
                best_high[k] = h if best_h is None or h > best_h else best_h
                if lo is not None and (best_lo is None or lo > best_lo):
                    best_low[k] = lo

    def _showdown(self) -> None:
        n = self._n
        live = [i for i in range(n) if not self._folded[i]]
        self._deal_later_runs()
        boards = self.boards
        runs = [self._strengths(live, board) for board in boards]
        conceded = self._conceded.intersection(live)
        if len(conceded) == len(live):
            conceded = frozenset()  # a file that mucks every hand: the cards decide
        self._conceded = conceded
        if conceded:
            for run_high, run_low, _ in runs:
                lowest = min(run_high.values())
                for s in conceded:  # beaten by every hand still in (a tie is not a win)
                    run_high[s] = lowest - 1
                    if run_low is not None:
                        run_low[s] = None
        text = runs[0][2]
        kind = "board" if self.config.double_board else "run"
        if len(runs) > 1:
            text = {
                s: "; ".join(f"{_RUN_NAMES[k]} {kind}: {run[2][s]}" for k, run in enumerate(runs))
                for s in live
            }
        self._show_or_muck(live, runs, text)
        contributions = [c - d for c, d in zip(self._committed, self._dead_by_seat, strict=True)]
        pots = build_pots(contributions, [not f for f in self._folded], sum(self._dead_by_seat))
        awards: list[Award] = []
        for k, (run_pots, (run_high, run_low, _)) in enumerate(
            zip(split_between_runs(pots, len(runs)), runs, strict=True)
        ):
            names = _with_kickers(run_high, self._shown.keys())
            low_names = {s: str(v) for s, v in (run_low or {}).items() if v is not None}
            for award in award_pots(run_pots, run_high, run_low, self.button, n, names, low_names):
                if not award.amount:
                    continue  # a later run's share of a pot of fewer chips than runs
                if len(runs) > 1:
                    board = " ".join(str(card) for card in boards[k])
                    text_k = f"{_RUN_NAMES[k]} {kind} ({board}): {award.description}"
                    award = replace(award, description=text_k)
                awards.append(award)
        for award in awards:
            for w, share in zip(award.winners, award.amounts, strict=True):
                self._stacks[w] += share
                self.events.append(Event(EventKind.WIN, w, share, (), award.description))
        self._finish(tuple(awards))


_RUN_NAMES = ("first", "second", "third")


def _with_kickers(high: dict[int, Any], shown: Collection[int]) -> dict[int, str]:
    """Each live seat's hand in words, a kicker named where it beats another shown hand of
    the same words ("Pair of Kings, Ace kicker" over "Pair of Kings"). Only a shown hand
    counts: a kicker named over a mucked one would tell the table what it held."""
    names = {}
    for seat, rank in high.items():
        name = str(rank)
        if isinstance(rank, HandRank):
            below = [
                r
                for t, r in high.items()
                if t != seat and t in shown and str(r) == name and r < rank
            ]
            kicker = kicker_over(rank, max(below)) if below else None
            if kicker is not None:
                name += f", {kicker} kicker"
        names[seat] = name
    return names
