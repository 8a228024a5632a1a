"""Short-deck hold'em in the hand machine: the 36 cards of the 52 it is given, the button's
blind (heads-up the other seat's), antes, its evaluator at showdown, PHH both ways, and its
config's refusals."""

import pytest

from engine import phh
from engine.cards import parse_cards
from engine.errors import HandHistoryError, PokerError
from engine.hand import Hand, HandConfig
from engine.runout import runout_odds

SHORT = HandConfig(game="short-deck", small_blind=0, big_blind=10, ante=5)


def deck(text: str) -> list[int]:
    """These cards first, then the rest of the 52 (the low ones are skipped by the hand)."""
    head = parse_cards(text)
    return head + [c for c in range(52) if c not in head]


def test_the_button_posts_the_blind_and_the_seat_left_of_it_acts_first():
    hand = Hand(SHORT, [500, 500, 500], 0, deck(""))
    posts = [(e.kind, e.seat, e.amount) for e in hand.events if e.amount]
    assert posts == [("ante", 1, 5), ("ante", 2, 5), ("ante", 0, 5), ("big_blind", 0, 10)]
    assert hand.actor == 1
    assert hand.legal.min_raise_to == 20


def test_heads_up_the_other_seat_posts_it_and_the_button_acts_first():
    hand = Hand(SHORT, [500, 500], 0, deck(""))
    assert [(e.kind, e.seat) for e in hand.events if e.kind == "big_blind"] == [("big_blind", 1)]
    assert hand.actor == 0


def test_only_sixes_and_up_are_dealt_in_the_deck_s_order():
    hand = Hand(SHORT, [500, 500, 500], 0, deck("2c 3d As Kd 4h 6c Qs 5s Jh Th"))
    assert [str(c) for c in hand.hole[1]] == ["As", "Qs"]
    assert all(card.rank >= 4 for seat in range(3) for card in hand.hole[seat])


def test_a_flush_beats_a_full_house_at_showdown():
    # heads-up, button 0: seat 1, seat 0, seat 1, seat 0, burn, flop, burn, turn, burn, river
    cards = "Ah 9c Kh 6c 8d Th 7h 9d 8c 9s 8s 6h"
    hand = Hand(SHORT, [100, 100], 0, deck(cards))
    while not hand.is_over:
        hand.act("call" if hand.legal.call else "check")
    (award,) = hand.result.awards
    assert award.winners == (1,)  # A-K-T-7-6 of hearts over nines full of sixes
    assert hand.stacks == (85, 115)


def test_phh_round_trip():
    hand = Hand(SHORT, [300, 200, 150, 90], 2, deck("As Ks Qs Js Ts 9s 8s 7s"))
    while not hand.is_over:
        hand.act("call" if hand.legal.call else "check")
    text = phh.dumps(hand)
    assert 'variant = "NS"' in text
    assert "blinds_or_straddles = [0, 0, 0, 10]" in text
    history = phh.loads(text)
    assert list(history.replay().stacks) == history.finishing_stacks


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"small_blind": 1}, "one blind, the button's"),
        ({"straddle": 20}, "no straddles or bomb pots"),
        ({"run_it_twice": True}, "not run twice"),
        ({"betting": "pot-limit"}, "played no-limit only"),
    ],
)
def test_config_refusals(fields, error):
    with pytest.raises(PokerError, match=error):
        HandConfig(**{**SHORT.to_dict(), **fields})


def test_no_pkstate_and_run_out_odds_by_short_decks_own_ranks():
    from engine import pkstate

    hand = Hand(SHORT, [100, 100], 0, deck(""))
    hand.act("all_in")
    hand.act("call")
    with pytest.raises(HandHistoryError, match="pkstate has no game for short-deck"):
        pkstate.from_hand(hand)
    odds = runout_odds(hand)
    assert [street.street for street in odds] == ["preflop", "flop", "turn", "river"]
    # sampled before the flop (too many boards), exact from it; a pot's shares sum to one
    assert [street.exact for street in odds] == [False, True, True, True]
    for street in odds:
        assert sum(street.share) == pytest.approx(1.0)
