"""Random hands of pokerkit's stud, razz, stud hi-lo and Omaha hi-lo games, played by
pokerkit itself with random legal decisions and written as PHH by pokerkit: the engine reads
and replays them (``test_games_differential``)."""

from __future__ import annotations

import random

from pokerkit import (
    Automation,
    FixedLimitOmahaHoldemHighLowSplitEightOrBetter,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    HandHistory,
    Mode,
)

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
STUD = {
    "stud": FixedLimitSevenCardStud,
    "stud-hilo": FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    "razz": FixedLimitRazz,
}


def _stacks(rng: random.Random, players: int, floor: int, big: int) -> list[int]:
    # every stack covers the ante (a short ante is a named house rule of the hold'em test)
    return [
        rng.randint(floor, 6 * big) if rng.random() < 0.3 else rng.randint(6 * big, 60 * big)
        for _ in range(players)
    ]


def random_game(rng: random.Random, game: str):
    """A pokerkit game object and its stacks. Omaha hi-lo is pokerkit 0.7's
    ``FixedLimitOmahaHoldemHighLowSplitEightOrBetter``, which plays pot-limit."""
    small = rng.choice((2, 4, 10))
    if game in STUD:
        players = rng.randint(2, 8)
        ante = rng.choice((0, 1, small // 2))
        bring_in = rng.choice((1, small // 2))
        built = STUD[game](AUTOMATIONS, True, ante, bring_in, small, 2 * small, mode=Mode.CASH_GAME)
        return built, _stacks(rng, players, ante + 1, 2 * small)
    players = rng.randint(2, 9)
    blinds = (small // 2, small)
    built = FixedLimitOmahaHoldemHighLowSplitEightOrBetter(
        AUTOMATIONS, True, 0, blinds, small, small, mode=Mode.CASH_GAME
    )
    return built, _stacks(rng, players, 1, small)


def random_decision(state, rng: random.Random) -> None:
    if state.can_post_bring_in():
        if state.can_complete_bet_or_raise_to() and rng.random() < 0.3:
            state.complete_bet_or_raise_to()
        else:
            state.post_bring_in()
        return
    roll = rng.random()
    if state.can_complete_bet_or_raise_to() and roll < 0.3:
        lo = state.min_completion_betting_or_raising_to_amount
        hi = state.max_completion_betting_or_raising_to_amount
        state.complete_bet_or_raise_to(rng.choice((lo, hi, rng.randint(lo, hi))))
    elif state.checking_or_calling_amount and roll < 0.5:
        state.fold()
    else:
        state.check_or_call()


def play(seed: int, game: str) -> tuple[str, list[int]]:
    """One hand: pokerkit's PHH text and its finishing stacks (player order)."""
    rng = random.Random(seed)
    random.seed(seed)  # pokerkit shuffles its deck with the random module
    built, stacks = random_game(rng, game)
    state = built(stacks, len(stacks))
    while state.status:
        random_decision(state, rng)
    text = HandHistory.from_game_state(built, state).dumps()
    return text, list(state.stacks)
