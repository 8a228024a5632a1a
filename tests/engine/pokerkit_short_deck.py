"""Short-deck hold'em hands both ways with pokerkit 0.7's ``NoLimitShortDeckHoldem``:
``pokerkit_hand`` has pokerkit play a random hand and write it as PHH; ``engine_hand`` has the
engine play one and write it; ``pokerkit_replay`` replays a PHH file in pokerkit
(``test_short_deck_differential`` and ``bench/check_variants_pokerkit.py``)."""

from __future__ import annotations

import random

from pokerkit import HandHistory, Mode, NoLimitShortDeckHoldem

from engine import phh
from engine.deck import shuffled_deck
from engine.errors import HandHistoryError
from engine.hand import Hand, HandConfig
from engine.randomhands import random_action
from tests.engine.pokerkit_games import AUTOMATIONS, random_decision


def random_table(rng: random.Random) -> tuple[int, int, list[int]]:
    """(ante, button blind, stacks): 2-10 players, uneven stacks, some short (all-ins)."""
    blind = rng.choice((2, 4, 10))
    ante = rng.choice((0, 1, blind // 2, blind))
    players = rng.randint(2, 10)
    stacks = [
        rng.randint(ante + 1, 4 * blind) if rng.random() < 0.3 else rng.randint(5, 60) * blind
        for _ in range(players)
    ]
    return ante, blind, stacks


def pokerkit_hand(seed: int) -> tuple[str, list[int]]:
    """pokerkit plays one hand: its PHH text and finishing stacks (player order)."""
    rng = random.Random(seed)
    random.seed(seed)  # pokerkit shuffles its deck with the random module
    ante, blind, stacks = random_table(rng)
    game = NoLimitShortDeckHoldem(AUTOMATIONS, True, ante, {-1: blind}, blind, mode=Mode.CASH_GAME)
    state = game(stacks, len(stacks))
    while state.status:
        random_decision(state, rng)
    return HandHistory.from_game_state(game, state).dumps(), list(state.stacks)


def engine_hand(seed: int) -> Hand:
    """The engine plays one hand to its end with random legal decisions."""
    rng = random.Random(seed)
    ante, blind, stacks = random_table(rng)
    config = HandConfig(game="short-deck", small_blind=0, big_blind=blind, ante=ante)
    hand = Hand(config, stacks, rng.randrange(len(stacks)), shuffled_deck(rng))
    while not hand.is_over:
        hand.act(random_action(hand, rng))
    return hand


def pokerkit_replay(text: str) -> list[int]:
    """pokerkit replays a PHH file: its finishing stacks (player order)."""
    states = list(HandHistory.loads(text))
    assert states and not states[-1].status
    return list(states[-1].stacks)


def short_blind(ante: int, blinds: list[int], stacks: list[int]) -> bool:
    """The blind's poster cannot cover ante and blind: the engine still makes the others call
    the full blind (house rule), pokerkit only what was posted."""
    poster = len(stacks) - 1 if len(stacks) > 2 else 0  # heads-up pokerkit reverses it
    return stacks[poster] <= ante + max(blinds)


def odd_chips(hand: Hand, theirs: list[int]) -> bool:
    """The stacks differ by no more than the split pots' odd chips (the engine gives them
    from the left of the button, pokerkit elsewhere), and no chip is made or lost."""
    ours = list(hand.stacks)
    odd = sum(a.amount % len(a.winners) for a in hand.result.awards) if hand.result else 0
    return (
        sum(ours) == sum(theirs)
        and odd > 0
        and all(abs(a - b) <= odd for a, b in zip(ours, theirs, strict=True))
    )


def pokerkit_to_engine(seed: int) -> str:
    """pokerkit plays, the engine replays: ``same``, or the house rule that explains it."""
    text, theirs = pokerkit_hand(seed)
    history = phh.loads(text, f"short deck seed {seed}")
    shorted = short_blind(history.antes[0], history.blinds_or_straddles, history.starting_stacks)
    try:
        hand = history.replay()
    except HandHistoryError as error:
        if "not reopened" in str(error):
            return "short_all_in_reopening"
        if shorted:
            return "short_blind"
        raise
    if list(hand.stacks) == theirs:
        return "same"
    if shorted:
        return "short_blind"
    assert odd_chips(hand, theirs), f"pokerkit's short-deck hand {seed} ends otherwise"
    return "odd_chips"


def engine_to_pokerkit(seed: int) -> str:
    """The engine plays, pokerkit replays: ``same``, or the house rule that explains it."""
    hand = engine_hand(seed)
    text = phh.dumps(hand)
    history = phh.loads(text)
    shorted = short_blind(history.antes[0], history.blinds_or_straddles, history.starting_stacks)
    try:
        theirs = pokerkit_replay(text)
    except ValueError:  # pokerkit cannot follow the file's betting
        assert shorted, f"pokerkit refuses the engine's short-deck hand {seed}"
        return "short_blind"
    ours = [hand.stacks[(hand.button + 1 + k) % hand.seats] for k in range(hand.seats)]
    if ours == theirs:
        return "same"
    if shorted:
        return "short_blind"
    assert sum(ours) == sum(theirs), f"chips made or lost in short-deck hand {seed}"
    odd = sum(a.amount % len(a.winners) for a in hand.result.awards) if hand.result else 0
    assert odd and all(abs(a - b) <= odd for a, b in zip(ours, theirs, strict=True)), seed
    return "odd_chips"
