import random

import pytest

from engine.bots import RandomBot, SensibleBot
from engine.hand import Hand, HandConfig

NO_LIMIT_HOLDEM = HandConfig()


def play(bots, seed, config=NO_LIMIT_HOLDEM):
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = Hand(config, [rng.randint(5, 300) for _ in bots], 0, deck)
    while not hand.is_over:
        view = hand.view(hand.actor)
        assert view.legal is not None
        hand.act(bots[hand.actor].decide(view))  # an illegal choice would raise
    return hand


def test_bots_always_choose_legal_actions_from_their_own_view():
    for seed in range(60):
        game = (
            HandConfig(game="omaha", betting="pot-limit")
            if seed % 3 == 0
            else HandConfig(betting=["no-limit", "fixed-limit"][seed % 2])
        )
        bots = [
            RandomBot(random.Random(seed + i)) if i % 2 else SensibleBot(random.Random(i))
            for i in range(2 + seed % 5)
        ]
        hand = play(bots, seed, game)
        assert sum(hand.stacks) == sum(hand.starting_stacks)


def test_sensible_bot_folds_trash_to_a_big_bet_and_raises_aces():
    from tests.engine.test_hand_rules import make_deck

    bot = SensibleBot(random.Random(1))
    hand2 = Hand(HandConfig(), [1000, 1000, 1000], 2, make_deck(3, 2, holes={1: "7c2d"}))
    hand2.bet_or_raise_to(900)  # seat 2 (button) shoves most of it
    hand2.fold()  # seat 0 small blind
    assert bot.decide(hand2.view(1)).kind == "fold"
    aces = Hand(HandConfig(), [1000, 1000], 0, make_deck(2, 0, holes={0: "AsAh"}))
    assert bot.decide(aces.view(0)).kind == "raise"


def test_bots_decide_the_same_from_the_json_view_a_socket_client_holds():
    deck = list(range(52))
    random.Random(7).shuffle(deck)
    hand = Hand(HandConfig(), [200, 150, 300], 1, deck)
    while not hand.is_over:
        view = hand.view(hand.actor)
        for bot in (RandomBot, SensibleBot):
            assert bot(random.Random(3)).decide(view.to_dict()) == bot(random.Random(3)).decide(
                view
            )
        hand.act(SensibleBot(random.Random(len(hand.events))).decide(view.to_dict()))


# --- the games of issue 20 --------------------------------------------------------------------
def _deck(seed) -> list[int]:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return deck


def _bring_in_view():
    config = HandConfig(
        game="stud",
        betting="fixed-limit",
        small_blind=0,
        big_blind=0,
        ante=1,
        bring_in=2,
        small_bet=5,
    )
    hand = Hand(config, stacks=[100, 100, 100], button=0, deck=_deck(3))
    return hand, hand.view(hand.actor)


def test_no_bot_folds_at_the_bring_in_which_must_be_posted_or_completed():
    hand, view = _bring_in_view()
    assert view.legal is not None and not view.legal.fold
    for seed in range(40):
        for bot in (RandomBot(random.Random(seed)), SensibleBot(random.Random(seed), samples=5)):
            action = bot.decide(view)
            assert str(action.kind) in ("call", "raise"), action


@pytest.mark.parametrize("game", ["omaha-hilo", "stud", "stud-hilo", "razz"])
def test_the_sensible_bot_plays_every_new_game_to_its_end(game):
    stud = game != "omaha-hilo"
    config = HandConfig(
        game=game,
        betting="fixed-limit" if stud else "pot-limit",
        small_blind=0 if stud else 1,
        big_blind=0 if stud else 2,
        ante=1 if stud else 0,
        bring_in=2 if stud else 0,
        small_bet=5 if stud else None,
    )
    rng = random.Random(game)
    for _ in range(10):
        hand = Hand(config, stacks=[200, 200, 200], button=0, deck=_deck(rng.random()))
        while not hand.is_over:
            hand.act(SensibleBot(rng, samples=5).decide(hand.view(hand.actor)))
        assert sum(hand.stacks) == 600


def test_both_bots_play_short_deck_legally():
    config = HandConfig(game="short-deck", small_blind=0, big_blind=4, ante=1)
    for seed in range(30):
        bots = [
            RandomBot(random.Random(seed + i)) if i % 2 else SensibleBot(random.Random(i))
            for i in range(2 + seed % 7)
        ]
        hand = play(bots, seed, config)
        assert sum(hand.stacks) == sum(hand.starting_stacks)
        assert all(card.rank >= 4 for seat in range(hand.seats) for card in hand.hole[seat])
