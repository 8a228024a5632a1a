"""Random hands for tests and benchmarks: random configs, uneven stacks, random legal play.

``random_hand(rng)`` plays one hand through ``Hand`` choosing random legal actions (biased
towards calls and all-ins so that short all-ins, side pots and uncalled bets are common; some
boards are rigged to a broadway straight so that split pots are common too) and returns its
inputs as a ``HandSpec``: replaying the spec gives the same hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.hand import Hand
from engine.types import Action, ActionKind, EventKind, HandConfig

_STAKES = ((1, 2), (5, 10), (2, 5), (25, 50), (3, 6), (10, 25))
# Broadway on the board: with five different... two suits at most repeat, so no flush.
_BROADWAY = (8 * 4 + 0, 9 * 4 + 1, 10 * 4 + 2, 11 * 4 + 3, 12 * 4 + 0)  # Tc Jd Qh Ks Ac


@dataclass(frozen=True)
class HandSpec:
    """A hand's inputs plus the decisions taken, as the engine's events record them
    (``ops``: ``("f",)``, ``("cc",)`` or ``("cbr", to)``, for other engines)."""

    config: HandConfig
    stacks: tuple[int, ...]
    button: int
    deck: tuple[int, ...]
    actions: tuple[Action, ...]
    ops: tuple[tuple[str, int] | tuple[str], ...]

    def replay(self) -> Hand:
        return Hand.replay(self.config, self.stacks, self.button, self.deck, self.actions)


def random_config(
    rng: random.Random,
    players: int,
    bettings: Sequence[str] = ("no-limit",),
    games: Sequence[str] = ("holdem",),
    antes: bool = True,
    straddles: bool = False,
) -> HandConfig:
    sb, bb = rng.choice(_STAKES)
    betting = rng.choice(bettings)
    game = rng.choice(games)
    ante, mode = 0, "per-player"
    if antes and rng.random() < 0.3:
        ante = rng.choice((1, bb // 2 or 1, bb))
        mode = rng.choice(("per-player", "big-blind"))
    straddle = 2 * bb if straddles and players >= 3 and rng.random() < 0.2 else 0
    return HandConfig(
        game=game,
        betting=betting,
        small_blind=sb,
        big_blind=bb,
        ante=ante,
        ante_mode=mode,
        straddle=straddle,
    )


def random_stacks(rng: random.Random, players: int, big_blind: int) -> list[int]:
    stacks = []
    for _ in range(players):
        roll = rng.random()
        if roll < 0.15:
            stacks.append(rng.randint(1, 3 * big_blind))
        elif roll < 0.6:
            stacks.append(rng.randint(3 * big_blind, 40 * big_blind))
        else:
            stacks.append(rng.randint(40 * big_blind, 300 * big_blind))
    return stacks


def random_deck(rng: random.Random, players: int, hole_count: int, rig_split: bool) -> list[int]:
    deck = list(range(52))
    rng.shuffle(deck)
    if rig_split:
        rest = [c for c in deck if c not in _BROADWAY]
        head = rest[: players * hole_count]
        tail = rest[players * hole_count :]
        board = list(_BROADWAY)
        rng.shuffle(board)
        # burn, flop, burn, turn, burn, river
        deck = head + [tail[0]] + board[:3] + [tail[1], board[3], tail[2], board[4]] + tail[3:]
    return deck


def random_action(hand: Hand, rng: random.Random) -> Action:
    legal, actor = hand.legal, hand.actor
    if legal is None or actor is None:
        raise ValueError("the hand is over: no action to choose")
    roll = rng.random()
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is not None and hi is not None and roll < 0.3:
        pick = rng.random()
        if pick < 0.35:
            return Action(ActionKind.RAISE, lo)
        if pick < 0.6:
            stack_all = hand.bets[actor] + hand.stacks[actor]
            return Action(ActionKind.ALL_IN) if hi == stack_all else Action(ActionKind.RAISE, hi)
        return Action(ActionKind.RAISE, rng.randint(lo, hi))
    if legal.fold and roll < 0.45:
        return Action(ActionKind.FOLD)
    if legal.check:
        return Action(ActionKind.CHECK)
    if rng.random() < 0.1:
        all_in = legal.call == hand.stacks[actor]
        return Action(ActionKind.ALL_IN if all_in else ActionKind.CALL)
    return Action(ActionKind.CALL)


def random_hand(
    rng: random.Random,
    min_players: int = 2,
    max_players: int = 9,
    bettings: Sequence[str] = ("no-limit",),
    games: Sequence[str] = ("holdem",),
    antes: bool = True,
    straddles: bool = False,
    make_config: Callable[[random.Random, int], HandConfig] | None = None,
) -> HandSpec:
    """One random hand; ``make_config(rng, players)``, when given, makes its config instead
    of ``random_config``."""
    players = rng.randint(min_players, max_players)
    if make_config is not None:
        config = make_config(rng, players)
    else:
        config = random_config(rng, players, bettings, games, antes, straddles)
    stacks = random_stacks(rng, players, config.big_blind)
    button = rng.randrange(players)
    deck = random_deck(rng, players, config.hole_count, rng.random() < 0.2)
    hand = Hand(config, stacks, button, deck)
    ops: list[tuple[str, int] | tuple[str]] = []
    while not hand.is_over:
        action = random_action(hand, rng)
        events = hand.act(action)
        first = events[0]
        if first.kind is EventKind.BET or first.kind is EventKind.RAISE:
            ops.append(("cbr", first.amount))
        elif first.kind is EventKind.FOLD:
            ops.append(("f",))
        else:
            ops.append(("cc",))
    return HandSpec(config, tuple(stacks), button, tuple(deck), hand.actions, tuple(ops))
