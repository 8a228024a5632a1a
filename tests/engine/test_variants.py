"""The registry of games: every game's rules in one place, and everything derived from it."""

import pytest

from engine import phh, pkstate
from engine.cards import parse_cards
from engine.config import GAMES, HILO_GAMES, MAX_SEATS, STUD_GAMES, HandConfig
from engine.errors import HandHistoryError, PokerError
from engine.hand import Hand
from engine.variants import VARIANTS, variant


def test_the_site_s_names_come_from_the_registry():
    assert list(GAMES) == [
        "holdem",
        "omaha",
        "omaha-hilo",
        "stud",
        "stud-hilo",
        "razz",
        "short-deck",
        "27-triple-draw",
        "27-single-draw",
        "badugi",
        "five-card-draw",
    ]
    assert {name: game.hole_cards for name, game in VARIANTS.items()} == GAMES
    assert MAX_SEATS == {
        "holdem": 12,
        "omaha": 10,
        "omaha-hilo": 10,
        "stud": 8,
        "stud-hilo": 8,
        "razz": 8,
        "short-deck": 10,
        "27-triple-draw": 6,
        "27-single-draw": 6,
        "badugi": 8,
        "five-card-draw": 6,
    }
    assert {"stud", "stud-hilo", "razz"} == STUD_GAMES
    assert {"omaha-hilo", "stud-hilo"} == HILO_GAMES


def test_every_game_has_a_distinct_name_label_and_short_label():
    for field in ("name", "label", "short"):
        values = [getattr(game, field) for game in VARIANTS.values()]
        assert len(set(values)) == len(values), field


def test_format_codes_come_from_the_registry():
    assert phh.VARIANTS["FR"] == ("razz", "fixed-limit")
    assert phh.VARIANT_OF[("omaha-hilo", "pot-limit")] == "PO/8"
    assert pkstate.GAMES["PLO"] == ("omaha", "pot-limit")
    assert variant("stud").pkstate_code("fixed-limit") is None


def test_an_unknown_game_is_refused_by_name():
    with pytest.raises(PokerError, match="unknown game 'whist' \\(one of holdem, omaha"):
        variant("whist")
    with pytest.raises(PokerError, match="unknown game 'whist'"):
        HandConfig(game="whist")


def test_a_betting_the_game_is_not_played_with_is_refused():
    with pytest.raises(PokerError, match="razz is played fixed-limit only"):
        HandConfig(
            game="razz", betting="pot-limit", small_blind=0, big_blind=0, small_bet=2, bring_in=1
        )


def test_exports_without_a_code_for_the_game_refuse_clearly():
    deck = parse_cards("As Kd Qs Jh Tc 9d 8s 7h 6c 5d 4s 3h 2c Ad Kc Qh Jd Ts 9c 8h 7d 6s")
    deck += [c for c in range(52) if c not in deck]
    config = HandConfig(
        game="stud",
        betting="fixed-limit",
        small_blind=0,
        big_blind=0,
        small_bet=2,
        bring_in=1,
        ante=1,
    )
    hand = Hand(config, [100, 100], 0, deck)
    with pytest.raises(HandHistoryError, match="pkstate has no game for stud fixed-limit"):
        pkstate.from_hand(hand)
    omaha_nl = Hand(HandConfig(game="omaha"), [100, 100], 0, deck)
    with pytest.raises(HandHistoryError, match="PHH has no variant for omaha no-limit"):
        phh.dumps(omaha_nl)


def test_the_evaluators_are_the_game_s():
    hole, board = parse_cards("As Ad 2c 3c"), parse_cards("Kh Kd 4c 5h 6s")
    assert variant("holdem").strength(hole[:2], board).description.startswith("Two Pair")
    # Omaha: exactly two hole cards, so the 2-3 makes a straight with the 4-5-6, aces no trips
    assert variant("omaha").strength(hole, board).description == "Straight, Six high"
    assert str(variant("omaha-hilo").low8(hole, board)) == "6-5-4-2-A low"
    assert variant("holdem").low8 is None


def sample_config(game):
    """The smallest config each kind of game accepts, from what its Variant says."""
    if game.is_stud:
        return HandConfig(
            game=game.name,
            betting=game.bettings[0],
            small_blind=0,
            big_blind=0,
            ante=1,
            bring_in=1,
            small_bet=2,
        )
    small = 0 if game.button_blind else 1
    return HandConfig(game=game.name, betting=game.bettings[0], small_blind=small, big_blind=2)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_registered_game_plays_to_its_end_with_the_bots(name):
    import random

    from engine.bots import RandomBot

    game = variant(name)
    for seed in range(5):
        rng = random.Random(seed)
        deck = list(range(52))
        rng.shuffle(deck)
        seats = min(game.max_seats, 2 + seed)
        hand = Hand(sample_config(game), [rng.randint(5, 100) for _ in range(seats)], 0, deck)
        dealt = [c for s in range(seats) for c in hand.hole[s]]
        while not hand.is_over:
            hand.act(RandomBot(rng).decide(hand.view(hand.actor)))
        assert sum(hand.stacks) == sum(hand.starting_stacks)
        assert set(dealt) <= game.deck
