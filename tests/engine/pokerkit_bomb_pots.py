"""Bomb pots as pokerkit can play them: no blinds, everyone antes the bomb, and a betting
round before the flop in which everyone checks (pokerkit's hold'em and Omaha always bet
before the flop; ``test_bomb_pot_differential`` says why this is the same hand)."""

from __future__ import annotations

import random

from pokerkit import HandHistory, Mode

from tests.engine.pokerkit_runs import (
    AUTOMATIONS,
    GAMES,
    PlayedHand,
    pushed_chips,
    random_decision as random_betting,
)


def random_bomb_pot(rng: random.Random, game: str):
    """A pokerkit game with the bomb as everyone's ante and no blinds (``min_bet``: the
    table's big blind, the engine's smallest bet after the flop), and stacks; a few are
    shorter than the bomb."""
    big = rng.choice((2, 4, 10))
    bomb = rng.choice((1, 2, 5)) * big
    players = rng.randint(2, 6 if game == "holdem" else 5)
    stacks = [
        rng.randint(1, bomb) if rng.random() < 0.1 else rng.randint(2, 60) * bomb
        for _ in range(players)
    ]
    built = GAMES[game](AUTOMATIONS, True, bomb, (0, 0), big, mode=Mode.CASH_GAME)
    return built, stacks


def play_bomb_pot(seed: int, game: str, twice_share: float = 0.5) -> PlayedHand:
    """One bomb pot: everyone checks before the flop, then random decisions; asked for the
    runs, each player says twice with ``twice_share`` odds."""
    rng = random.Random(seed)
    random.seed(seed)  # pokerkit shuffles its deck with the random module
    built, stacks = random_bomb_pot(rng, game)
    state = built(stacks, len(stacks))
    while state.status:
        if state.can_select_runout_count():
            state.select_runout_count(2 if rng.random() < twice_share else 1)
        elif state.street_index == 0 and state.actor_index is not None:
            state.check_or_call()  # the bomb pot's flop comes with no betting
        else:
            random_betting(state, rng)
    text = HandHistory.from_game_state(built, state).dumps()
    return PlayedHand(text, list(state.stacks), state.runout_count, pushed_chips(state))


def pokerkit_replay_stacks(text: str) -> list[int]:
    """pokerkit's finishing stacks for a PHH file (its reader fills in the checks the
    file leaves out, here the betting round before a bomb pot's flop)."""
    states = list(HandHistory.loads(text))
    assert states and not states[-1].status
    return list(states[-1].stacks)
