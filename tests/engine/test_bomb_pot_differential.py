"""Bomb pots against pokerkit 0.7, both ways.

pokerkit has no bomb pot: its hold'em and Omaha always have a betting round before the flop,
and PHH has no field for one. The nearest hand it plays is the same one: the bomb as
everyone's ante, no blinds, and that round checked around (with no blinds, checking is
free for everyone and no chip moves). PHH writes both as ``antes`` = the bomb and
``blinds_or_straddles`` all zero; the engine reads such a file as a bomb pot, whose hand
starts on the flop, and skips the checks pokerkit writes before it (refusing any other
action there). The flop, the betting after it and the showdown are the same game, so:

* pokerkit plays random bomb pots (checking before the flop, random decisions after, the
  board run twice where all agree) and writes them; the engine replays them to the same
  finishing stacks, differences named after their house rule as in
  ``test_run_twice_differential`` (``odd_chips_of_a_tie``, ``short_ante``,
  ``odd_chip_per_side_pot``, ``short_all_in_reopening``);
* the engine plays random bomb pots and writes them; pokerkit reads the file (its reader
  fills in the checks before the flop that the engine does not write) to the same finishing
  stacks, except ``short_ante`` (a stack shorter than the bomb: pokerkit puts every ante in a
  main pot it can win) and ``odd_chips_of_a_tie``. Only hands run once: pokerkit 0.7.7
  cannot read a run-twice file, its own included ("Unable to repair the hand history").
"""

import random
from collections import Counter

import pytest

from engine import phh
from engine.errors import HandHistoryError
from engine.hand import Hand, HandConfig
from engine.randomhands import random_action, random_deck, random_stacks

pytest.importorskip("pokerkit")
from tests.engine.pokerkit_bomb_pots import play_bomb_pot, pokerkit_replay_stacks  # noqa: E402
from tests.engine.test_run_twice_differential import (  # noqa: E402
    check_odd_chips_of_a_tie,
    check_short_ante,
    odd_chips,
    run,
    short_antes,
)

POKERKIT_BOMB_POT = """\
variant = 'NT'
antes = [5, 5, 5]
blinds_or_straddles = [0, 0, 0]
min_bet = 2
starting_stacks = [100, 3, 50]
actions = ['d dh p1 Ad7h', 'd dh p2 4d2h', 'd dh p3 JdJh', 'p1 cc', 'p3 cc', 'd db 4sTs3d',
  'p1 cc', 'p3 cc', 'd db As', 'p1 cc', 'p3 cc', 'd db 5s', 'p1 cc', 'p3 cc',
  'p1 sm Ad7h', 'p2 sm 4d2h', 'p3 sm JdJh']
"""


def test_the_checks_pokerkit_writes_before_a_bomb_pots_flop_are_skipped():
    hand = phh.loads(POKERKIT_BOMB_POT).replay()
    assert hand.config.bomb_pot == 5 and hand.is_over
    assert list(hand.stacks) == [99, 9, 45]  # pokerkit's finishing stacks
    # the engine's own form, without them, is the same hand
    assert phh.loads(phh.dumps(hand)).replay().stacks == hand.stacks


def test_a_bet_before_a_bomb_pots_flop_is_refused_by_name():
    text = POKERKIT_BOMB_POT.replace("'p1 cc', 'p3 cc', 'd db 4sTs3d'", "'p1 cbr 4', 'd db 4sTs3d'")
    history = phh.loads(text)
    with pytest.raises(HandHistoryError, match="a bomb pot has no betting before the flop"):
        history.replay()
    assert history.actions[3] == "p1 cbr 4"  # nothing changed


@pytest.mark.slow
@pytest.mark.parametrize("game", ["holdem", "omaha"])
def test_bomb_pots_pokerkit_plays_replay_in_the_engine_to_the_same_stacks(game):
    outcome = run(game, 200, play_bomb_pot)
    assert outcome["same"] >= 185, outcome
    assert outcome["runs_2"] >= 5, outcome  # some were run twice too


def engine_bomb_pot(rng: random.Random) -> Hand:
    players = rng.randint(2, 6)
    game = rng.choice(("holdem", "omaha"))
    big = rng.choice((2, 4, 10))
    config = HandConfig(
        game=game,
        betting="no-limit" if game == "holdem" else "pot-limit",
        small_blind=big // 2,
        big_blind=big,
        bomb_pot=rng.choice((1, 2, 5)) * big,
    )
    stacks = random_stacks(rng, players, config.bomb_pot)
    deck = random_deck(rng, players, config.hole_count, False)
    hand = Hand(config, stacks, players - 1, deck)  # button last: our seats are PHH's order
    while not hand.is_over:
        hand.act(random_action(hand, rng))
    return hand


@pytest.mark.slow
def test_bomb_pots_the_engine_plays_replay_in_pokerkit_to_the_same_stacks():
    rng = random.Random(5)
    outcome: Counter[str] = Counter()
    for _ in range(200):
        hand = engine_bomb_pot(rng)
        theirs = pokerkit_replay_stacks(phh.dumps(hand))
        if list(hand.stacks) == theirs:
            outcome["same"] += 1
        elif short_antes(hand):
            check_short_ante(hand, theirs)
            outcome["short_ante"] += 1
        else:
            assert odd_chips(hand), theirs
            check_odd_chips_of_a_tie(hand, theirs)
            outcome["odd_chips_of_a_tie"] += 1
    assert outcome["same"] >= 170, outcome
