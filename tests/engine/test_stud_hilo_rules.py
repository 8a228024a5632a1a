"""Rules of the new games, each test named after its rule: stud's bring-in and completion,
acting order by the showing hand, the common card, hi-lo splits and the hidden down-cards."""

import pytest

from engine import IllegalAction, PokerError, parse_cards, phh
from engine.cards import ALL_CARDS
from engine.hand import Hand, HandConfig

STUD = {
    "game": "stud",
    "betting": "fixed-limit",
    "small_blind": 0,
    "big_blind": 0,
    "ante": 1,
    "bring_in": 2,
    "small_bet": 5,
    "big_bet": 10,
}


def deck_with(first: str) -> list[int]:
    """A deck whose first cards are ``first`` in order, then the rest of the deck."""
    head = parse_cards(first)
    return head + [c for c in ALL_CARDS if c not in head]


def third_street(downs: list[str], ups: list[str]) -> list[int]:
    """Three rounds from the seat left of the button: first down cards, second, the up-cards."""
    return deck_with(" ".join([d.split()[0] for d in downs] + [d.split()[1] for d in downs] + ups))


def test_stud_config_needs_no_blinds_and_a_bring_in_below_the_small_bet():
    with pytest.raises(PokerError, match="no blinds"):
        HandConfig(**{**STUD, "big_blind": 2})
    with pytest.raises(PokerError, match="bring-in"):
        HandConfig(**{**STUD, "bring_in": 5})
    with pytest.raises(PokerError, match="fixed-limit only"):
        HandConfig(**{**STUD, "betting": "no-limit"})
    assert HandConfig.from_dict(HandConfig(**STUD).to_dict()) == HandConfig(**STUD)


def test_bring_in_is_the_lowest_up_card_suits_breaking_ties():
    # button 2: seats 0, 1, 2 are dealt in that order; up-cards 2d, 2c, Ks
    deck = third_street(["Ah Kh", "Qh Jh", "Th 9h"], ["2d", "2c", "Ks"])
    hand = Hand(STUD, [100, 100, 100], 2, deck)
    assert hand.actor == 1
    legal = hand.legal
    assert (legal.fold, legal.check, legal.call, legal.min_raise_to) == (False, False, 2, 5)
    with pytest.raises(IllegalAction, match="bring-in"):
        hand.fold()


def test_razz_bring_in_is_the_highest_up_card():
    deck = third_street(["Ah 2h", "3h 4h", "5h 6h"], ["Kd", "Ks", "2s"])
    hand = Hand({**STUD, "game": "razz"}, [100, 100, 100], 2, deck)
    assert hand.actor == 1  # the king of spades outranks the king of diamonds


def test_bring_in_may_complete_and_the_completion_reopens_the_betting():
    deck = third_street(["Ah Kh", "Qh Jh", "Th 9h"], ["2d", "2c", "Ks"])
    hand = Hand(STUD, [100, 100, 100], 2, deck)
    hand.call()  # seat 1 posts the bring-in of 2
    assert [e.line for e in hand.events if e.kind == "bring_in"] == ["p2 pb"]
    assert hand.legal.min_raise_to == 5  # seat 2 may complete
    hand.bet_or_raise_to(5)
    hand.call()  # seat 0 calls the completion
    assert hand.actor == 1 and hand.legal.min_raise_to == 10  # the bring-in may raise


def test_from_fourth_street_the_best_showing_hand_acts_first():
    # third street ups 2d (seat 0), 3c (seat 1), 4s (seat 2); fourth street: burn, then
    # 5h, 9c, 3s: seat 2 shows nothing, seat 1 shows nothing; 9-3 beats 5-2: seat 1
    deck = third_street(["Ah Kh", "Qh Jh", "Th 9h"], ["2d", "3c", "4s"])
    fourth = parse_cards("8d 5h 9c 3s")
    deck = deck[:9] + fourth + [c for c in deck[9:] if c not in fourth]
    hand = Hand(STUD, [100, 100, 100], 2, deck)
    hand.call()  # seat 0 brings it in
    hand.call()
    hand.call()
    assert hand.street == "fourth"
    assert hand.actor == 1  # 9-3 showing beats 5-2 and 4-3


def test_common_card_when_the_deck_runs_short():
    hand = Hand({**STUD, "ante": 0}, [1000] * 8, 7, list(ALL_CARDS))
    while not hand.is_over:
        hand.check() if hand.legal.check else hand.call()
    assert len(hand.board) == 1  # one common card on seventh street
    assert all(len(cards) == 6 for cards in hand.hole)
    shown = [cards for cards, _ in hand.result.shown.values()]
    assert all(hand.board[0] not in cards for cards in shown)


def test_no_viewer_sees_another_seats_down_cards():
    hand = Hand(STUD, [100, 100, 100], 2, list(ALL_CARDS))
    while not hand.is_over:
        for viewer in (None, 0, 1, 2):
            view = hand.view(viewer)
            for seat in view.seats:
                for card, up in zip(seat.cards, seat.up, strict=True):
                    if seat.seat != viewer:
                        assert (card is not None) == up
            for event in view.events:
                if event.kind == "deal_hole" and event.seat != viewer:
                    assert event.cards == ()
            downs = {
                c for s in range(3) if s != viewer
                for c, up in zip(hand.hole[s], hand.up[s], strict=True) if not up
            }  # fmt: skip
            assert not downs & hand.visible_cards(viewer)
        hand.check() if hand.legal.check else hand.call()


OMAHA8 = {"game": "omaha-hilo", "betting": "pot-limit", "small_blind": 1, "big_blind": 2}


def test_hi_lo_splits_the_pot_odd_chip_to_the_high_half():
    board = "2c 3d 7h Kd Ks"
    holes = ["Ah 4s Qh Jh", "Qc Kh Js Jd", "9s 9d Tc Th"]  # the low, kings full, nines full
    hand = _omaha8_showdown(holes, board, ante=1)  # pot: 3 antes + 3 x 2 = 9
    awards = [(a.winners, a.amounts) for a in hand.result.awards]
    assert awards == [((1,), (5,)), ((0,), (4,))]


def test_hi_lo_quartering_and_no_low_gives_the_high_all():
    # two equal lows split the low half: each wins a quarter of the pot
    holes = ["Ah 4s Qs Jh", "Ad 4c Qc Js", "Kc 9s 9d Tc"]
    hand = _omaha8_showdown(holes, "2c 3d 7h Kd Ks", ante=0)
    awards = [(a.winners, a.amounts) for a in hand.result.awards]
    assert awards == [((2,), (3,)), ((0, 1), (2, 1))]  # odd chip: left of the button first
    # no qualifying low: one award, the high hand takes the whole pot
    hand = _omaha8_showdown(holes, "9c Td 8h Kd Ks", ante=0)
    assert [(a.winners, a.amount) for a in hand.result.awards] == [((2,), 6)]


def _omaha8_showdown(holes, board, ante):
    """Three seats (button 2) check and call down with these hole cards and board."""
    cards = [h.split() for h in holes]
    head = parse_cards(" ".join(cards[s][k] for k in range(4) for s in range(3)))
    b = parse_cards(board)
    rest = [c for c in ALL_CARDS if c not in head + b]
    deck = head + rest[:1] + b[:3] + rest[1:2] + b[3:4] + rest[2:3] + b[4:] + rest[3:]
    hand = Hand({**OMAHA8, "ante": ante}, [100, 100, 100], 2, deck)
    while not hand.is_over:
        hand.check() if hand.legal.check else hand.call()
    return hand


def test_redundant_check_from_pokerkit_is_accepted_when_reading_phh():
    text = """variant = 'NT'
antes = [1, 1, 1]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [3, 6, 119]
actions = ['d dh p1 JhKh', 'd dh p2 3h2s', 'd dh p3 ThKc', 'p3 f', 'p1 cc', 'p2 cc',
  'p1 sm JhKh', 'p2 sm 3h2s', 'd db 7c6dJd', 'd db As', 'd db 2h']
"""
    assert phh.loads(text).replay().stacks == (7, 3, 118)
    # only that check: another seat's check there is still refused
    with pytest.raises(PokerError, match="already over"):
        phh.loads(text.replace("'p2 cc',", "'p2 cc', 'p1 cc',")).replay()


@pytest.mark.parametrize("game", ["stud", "stud-hilo", "razz"])
def test_stud_phh_round_trip(game):
    hand = Hand({**STUD, "game": game}, [100, 80, 120, 60], 3, list(ALL_CARDS)[::-1])
    while not hand.is_over:
        hand.check() if hand.legal.check else hand.call()
    again = phh.loads(phh.dumps(hand)).replay()
    assert again.stacks == hand.stacks
    assert [e.line for e in again.events] == [e.line for e in hand.events]
