"""Random all-in hands of pokerkit's no-limit hold'em and pot-limit Omaha in which the
players choose how many times the board runs, played by pokerkit itself and written as PHH
by pokerkit: the engine reads and replays them (``test_run_twice_differential``)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from pokerkit import (
    Automation,
    ChipsPushing,
    HandHistory,
    Mode,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
)

# Every chore automated except the choice of runs, which the players make.
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
GAMES = {"holdem": NoLimitTexasHoldem, "omaha": PotLimitOmahaHoldem}


@dataclass(frozen=True)
class PlayedHand:
    """pokerkit's PHH text, finishing stacks (PHH player order), the runs it dealt
    (``None``: nobody was asked: no all-in with board to come) and the chips it pushed from
    each pot on each run (``(pot, run)``, runs from 0)."""

    text: str
    stacks: list[int]
    runout_count: int | None
    pushed: dict[tuple[int, int], int]


def random_game(rng: random.Random, game: str):
    """A pokerkit game (blinds, sometimes an ante for everyone) and stacks that cover the
    blind and ante (short blinds and antes are house rules of ``test_hand_differential``)."""
    small = rng.choice((1, 2, 5))
    big = 2 * small
    ante = rng.choice((0, 0, 0, small))
    players = rng.randint(2, 6 if game == "holdem" else 5)
    stacks = [
        rng.randint(big + ante + 1, 8 * big) if rng.random() < 0.5 else rng.randint(8, 80) * big
        for _ in range(players)
    ]
    built = GAMES[game](AUTOMATIONS, True, ante, (small, big), big, mode=Mode.CASH_GAME)
    return built, stacks


def random_decision(state, rng: random.Random) -> None:
    """A random legal decision, biased to all-ins and calls so most hands end all in
    before the river."""
    roll = rng.random()
    if state.can_complete_bet_or_raise_to() and roll < 0.45:
        lo = state.min_completion_betting_or_raising_to_amount
        hi = state.max_completion_betting_or_raising_to_amount
        state.complete_bet_or_raise_to(hi if roll < 0.35 else rng.randint(lo, hi))
    elif state.checking_or_calling_amount and roll > 0.9:
        state.fold()
    else:
        state.check_or_call()


def play(seed: int, game: str, twice_share: float = 0.95, runs: int = 2) -> PlayedHand:
    """One hand. Asked for the runs, each player says ``runs`` (twice, or three times) with
    ``twice_share`` odds, else once (pokerkit runs once unless everyone says the same; the
    engine's table takes the lowest offer: the same outcome for these answers)."""
    rng = random.Random(seed)
    random.seed(seed)  # pokerkit shuffles its deck with the random module
    built, stacks = random_game(rng, game)
    state = built(stacks, len(stacks))
    while state.status:
        if state.can_select_runout_count():
            state.select_runout_count(runs if rng.random() < twice_share else 1)
        else:
            random_decision(state, rng)
    text = HandHistory.from_game_state(built, state).dumps()
    return PlayedHand(text, list(state.stacks), state.runout_count, pushed_chips(state))


def pushed_chips(state) -> dict[tuple[int, int], int]:
    """The chips pokerkit pushed from each pot on each run: ``{(pot, run): chips}``."""
    pushed: dict[tuple[int, int], int] = {}
    for operation in state.operations:
        if isinstance(operation, ChipsPushing):
            key = (operation.pot_index, operation.board_index or 0)
            pushed[key] = pushed.get(key, 0) + sum(operation.amounts)
    return pushed
