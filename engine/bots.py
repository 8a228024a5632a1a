"""Bots: policies that see only a viewer's state (``Hand.view(seat)``) and return a legal action.

* ``RandomBot``: a random legal action (folds only when facing a bet).
* ``SensibleBot``: estimates its equity against random hands for the live opponents by a
  small Monte Carlo run (``samples`` boards, default 120: a few milliseconds) and compares it
  with the pot odds: folds when the price is too high, calls when it is right, bets or raises
  with strong hands, sized at about two thirds of the pot.
"""

from __future__ import annotations

import random

from engine.cards import Card
from engine.hand import Action


def _legal(view: dict) -> dict:
    legal = view.get("legal")
    if legal is None:
        raise ValueError("this view has no legal actions: the viewer is not the actor")
    return legal


class RandomBot:
    """A random legal action; raises pick a random size between the minimum and maximum."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def decide(self, view: dict) -> Action:
        legal = _legal(view)
        rng = self.rng
        options = ["check"] if legal["check"] else ["fold", "call"]
        if legal["min_raise_to"] is not None:
            options.append("raise")
        kind = rng.choice(options)
        if kind == "raise":
            lo, hi = legal["min_raise_to"], legal["max_raise_to"]
            amount = lo if rng.random() < 0.5 else rng.randint(lo, hi)
            return Action("raise", amount)
        return Action(kind)


def estimate_equity(hole: list[Card], board: list[Card], opponents: int, samples: int,
                    rng: random.Random, omaha: bool = False) -> float:
    """Share of the pot won against ``opponents`` random hands, by Monte Carlo."""
    from engine.evaluate import evaluate, evaluate_omaha

    if opponents < 1:
        return 1.0
    known = set(hole) | set(board)
    rest = [c for c in range(52) if c not in known]
    per_hand = len(hole)
    need = opponents * per_hand + 5 - len(board)
    total = 0.0
    for _ in range(samples):
        draw = rng.sample(rest, need)
        full = board + [Card(c) for c in draw[:5 - len(board)]]
        others = draw[5 - len(board):]
        if omaha:
            mine = evaluate_omaha(hole, full)
            theirs = [evaluate_omaha(others[i * 4:i * 4 + 4], full) for i in range(opponents)]
        else:
            mine = evaluate(hole + full)
            theirs = [evaluate(others[i * 2:i * 2 + 2] + full) for i in range(opponents)]
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

    def decide(self, view: dict) -> Action:
        legal = _legal(view)
        me = view["seats"][view["viewer"]]
        hole = [Card.parse(c) for c in me["cards"]]
        board = [Card.parse(c) for c in view["board"]]
        opponents = sum(1 for s in view["seats"] if not s["folded"] and s["seat"] != me["seat"])
        omaha = view["config"]["game"] == "omaha"
        eq = estimate_equity(hole, board, min(opponents, 4), self.samples, self.rng, omaha)
        pot = view["total_pot"]
        call = legal["call"]
        can_raise = legal["min_raise_to"] is not None
        if can_raise and eq > 0.6 + 0.1 * self.rng.random():
            target = view["current_bet"] + call + (2 * (pot + call)) // 3
            amount = max(legal["min_raise_to"], min(legal["max_raise_to"], target))
            return Action("raise", amount)
        if legal["check"]:
            return Action("check")
        if eq >= call / (pot + call):
            return Action("call")
        return Action("fold")
