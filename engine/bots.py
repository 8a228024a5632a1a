"""Bots: policies that see only a viewer's state (``Hand.view(seat)``) and return a legal action.

* ``RandomBot``: a random legal action (folds only when facing a bet, never at stud's
  bring-in, which must be posted or completed).
* ``SensibleBot``: estimates its equity against random hands for the live opponents by a
  small Monte Carlo run (``samples`` boards, default 120: a few milliseconds) and compares it
  with the pot odds: folds when the price is too high, calls when it is right, bets or raises
  with strong hands, sized at about two thirds of the pot. Omaha hi-lo counts its high
  hand's equity; the stud games take an average hand's share (one in the live hands, a
  little noise on top) as theirs: no Monte Carlo of up-cards. It posts a bring-in due.

At a draw game's draw (``Legal.discard``) ``RandomBot`` throws away a random few of its
cards and ``SensibleBot`` keeps what the game's ``Variant.keeps`` says a plain player keeps
(the draw games' equity is taken like stud's: an average share, a little noise on top).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card
from engine.evaluate import evaluate, evaluate_omaha
from engine.types import Action, ActionKind, Legal
from engine.view import View


def _as_view(view: View | Mapping[str, Any]) -> View:
    """A typed view; clients that hold the ``?state=json`` view pass its JSON dict."""
    return view if isinstance(view, View) else View.from_dict(view)


def _own_cards(view: View) -> list[Card]:
    me = view.me
    assert me is not None  # only the actor's own view has legal actions
    return [c for c in me.cards if c is not None]


def _keep_policy_discards(view: View) -> Action:
    """Throw away what the game's ``keeps`` policy does not keep (none: stand pat)."""
    hole = _own_cards(view)
    keeps = view.config.variant.keeps
    kept = keeps(hole) if keeps is not None else frozenset(hole)
    return Action(ActionKind.DISCARD, cards=tuple(c for c in hole if c not in kept))


def _legal(view: View) -> Legal:
    legal = view.legal
    if legal is None:
        raise ValueError("this view has no legal actions: the viewer is not the actor")
    return legal


class RandomBot:
    """A random legal action; raises pick a random size between the minimum and maximum."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def decide(self, view: View | Mapping[str, Any]) -> Action:
        view = _as_view(view)
        legal = _legal(view)
        rng = self.rng
        if legal.discard:
            hole = _own_cards(view)
            thrown = rng.sample(hole, rng.randint(0, len(hole)))
            return Action(ActionKind.DISCARD, cards=tuple(thrown))
        if legal.check:
            options = [ActionKind.CHECK]
        else:
            options = [ActionKind.FOLD, ActionKind.CALL] if legal.fold else [ActionKind.CALL]
        lo, hi = legal.min_raise_to, legal.max_raise_to
        if lo is not None:
            options.append(ActionKind.RAISE)
        kind = rng.choice(options)
        if kind is ActionKind.RAISE:
            assert lo is not None and hi is not None  # both or neither
            amount = lo if rng.random() < 0.5 else rng.randint(lo, hi)
            return Action(ActionKind.RAISE, amount)
        return Action(kind)


def estimate_equity(
    hole: Sequence[Card],
    board: Sequence[Card],
    opponents: int,
    samples: int,
    rng: random.Random,
    omaha: bool = False,
) -> float:
    """Share of the pot won against ``opponents`` random hands, by Monte Carlo."""
    if opponents < 1:
        return 1.0
    mine_cards: list[int] = list(hole)
    board_cards: list[int] = list(board)
    known = set(mine_cards) | set(board_cards)
    rest = [c for c in range(52) if c not in known]
    need = opponents * len(mine_cards) + 5 - len(board_cards)
    total = 0.0
    for _ in range(samples):
        draw = rng.sample(rest, need)
        full = board_cards + [Card(c) for c in draw[: 5 - len(board_cards)]]
        others = draw[5 - len(board_cards) :]
        if omaha:
            mine = evaluate_omaha(mine_cards, full)
            theirs = [evaluate_omaha(others[i * 4 : i * 4 + 4], full) for i in range(opponents)]
        else:
            mine = evaluate(mine_cards + full)
            theirs = [evaluate(others[i * 2 : i * 2 + 2] + full) for i in range(opponents)]
        best = max(theirs)
        if mine > best:
            total += 1.0
        elif mine == best:
            total += 1.0 / (1 + sum(1 for t in theirs if t == best))
    return total / samples


class SensibleBot:
    """Equity against random hands versus pot odds; see the module docstring."""

    def __init__(self, rng: random.Random | None = None, samples: int = 120) -> None:
        self.rng = rng or random.Random()
        self.samples = samples

    def decide(self, view: View | Mapping[str, Any]) -> Action:
        view = _as_view(view)
        legal = _legal(view)
        if legal.discard:
            return _keep_policy_discards(view)
        me = view.me
        assert me is not None  # the actor's view is a seat's
        hole = [c for c in me.cards if c is not None]
        opponents = sum(1 for s in view.seats if not s.folded and s.seat != me.seat)
        game = view.config.variant
        if game.is_stud or game.is_draw or game.deck_size != 52:
            eq = 1.0 / (opponents + 1) + 0.2 * self.rng.random()
        else:
            omaha = view.config.variant.hole_cards_used == 2
            eq = estimate_equity(hole, view.board, min(opponents, 4), self.samples, self.rng, omaha)
        pot = view.total_pot
        call = legal.call
        lo, hi = legal.min_raise_to, legal.max_raise_to
        if lo is not None and hi is not None and eq > 0.6 + 0.1 * self.rng.random():
            target = view.current_bet + call + (2 * (pot + call)) // 3
            return Action(ActionKind.RAISE, max(lo, min(hi, target)))
        if legal.check:
            return Action(ActionKind.CHECK)
        if not legal.fold or eq >= call / (pot + call):  # no fold: stud's bring-in
            return Action(ActionKind.CALL)
        return Action(ActionKind.FOLD)
