"""Posts besides the blinds (``HandConfig.posts``): a player back from missing their blinds
puts the small blind in dead and the big blind in live (PokerNow's "posts a missing small
blind" and "posts a missed big blind"); the rules in engine/hand/dealing.py."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction, PokerError
from engine.hand import Hand, HandConfig
from engine.phh import dumps, loads

# five seats, button 4: seat 0 the small blind, 1 the big blind, 2 under the gun; seat 3
# comes back and posts 1 dead and 2 live
BACK = HandConfig(small_blind=1, big_blind=2, posts=((3, 1, 2),))


def _hand(config: HandConfig = BACK) -> Hand:
    return Hand(config, [100] * 5, 4, range(52))


def test_the_dead_part_is_in_the_pot_and_the_live_part_is_a_bet() -> None:
    hand = _hand()
    assert hand.committed == (1, 2, 0, 3, 0)
    assert hand.bets == (1, 2, 0, 2, 0)
    assert hand.current_bet == 2 and hand.actor == 2  # under the gun acts first, as always
    hand.call()
    # the live big blind acts in its turn and may check: nobody raised it
    assert hand.actor == 3
    hand.check()
    hand.call()
    hand.call()
    hand.check()  # the big blind's option closes the round
    assert hand.street == "flop"
    assert hand.total_pot == 11  # five big blinds and the dead small blind


def test_a_raise_makes_the_live_post_call_the_difference() -> None:
    hand = _hand()
    hand.bet_or_raise_to(6)
    with pytest.raises(IllegalAction):
        hand.check()  # seat 3 faces 4 more
    hand.call()
    assert hand.committed[3] == 7  # the dead chip is no part of the call


def test_phh_writes_dead_posts_as_antes_and_live_ones_as_blinds_and_reads_them_back() -> None:
    hand = _hand()
    text = dumps(hand)
    assert "antes = [0, 0, 0, 1, 0]" in text
    assert "blinds_or_straddles = [1, 2, 0, 2, 0]" in text
    history = loads(text)
    assert history.config().posts == ((3, 1, 2),)
    assert history.replay().committed == hand.committed


def test_a_straddle_and_a_live_post_in_one_hand_read_apart() -> None:
    config = HandConfig(small_blind=1, big_blind=2, straddle=4, posts=((3, 0, 2),))
    history = loads(dumps(Hand(config, [100] * 5, 4, range(52))))
    assert history.blinds_or_straddles == [1, 2, 4, 2, 0]
    assert (history.config().straddle, history.config().posts) == (4, ((3, 0, 2),))


def test_the_config_keeps_posts_out_of_its_dict_unless_there_are_some() -> None:
    assert "posts" not in HandConfig().to_dict()
    data = BACK.to_dict()
    assert data["posts"] == [[3, 1, 2]]
    assert HandConfig.from_dict(data) == BACK  # JSON's lists become the triples again


@pytest.mark.parametrize(
    ("posts", "problem"),
    [
        (((3, 1, 3),), "a live big blind"),
        (((3, 0, 0),), "a live big blind"),
        (((3, 1, 0), (3, 0, 2)), "each seat once"),
        ((("x", 1, 0),), "triples"),
    ],
)
def test_a_post_that_is_not_a_missed_blind_is_refused(
    posts: tuple[tuple[int, int, int], ...], problem: str
) -> None:
    with pytest.raises(PokerError, match=problem):
        HandConfig(small_blind=1, big_blind=2, posts=posts)


def test_a_post_for_a_seat_not_at_the_table_is_refused() -> None:
    with pytest.raises(PokerError, match="past the 3 seats"):
        Hand(BACK, [100] * 3, 2, range(52))


def test_a_bomb_pot_has_no_missed_blinds() -> None:
    with pytest.raises(PokerError, match="need the two blinds"):
        HandConfig(small_blind=0, big_blind=2, bomb_pot=4, posts=((1, 1, 0),))


def test_the_dead_small_blind_goes_to_the_pot_not_back_to_its_poster() -> None:
    # everyone checks down: the dead chip is in the one pot, won with it; it is no part of
    # the poster's contribution, so it never makes a side pot that only they can win
    hand = _hand()
    hand.call()
    hand.check()
    hand.call()
    hand.call()
    hand.check()
    assert [pot.amount for pot in hand.pots] == [11]
    while not hand.is_over:
        hand.check()
    assert hand.result is not None
    assert [award.pot for award in hand.result.awards] == [0]
    assert sum(award.amount for award in hand.result.awards) == 11
    assert sum(hand.result.net) == 0
