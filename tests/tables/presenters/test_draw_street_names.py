"""The felt names a draw game's draw while it is being made (issue 49, item 11: it said
"After the first draw" before anyone had drawn)."""

from engine.hand import Hand, HandConfig
from tables.presenters.shared_screen import street_name

TRIPLE = HandConfig(game="27-triple-draw", betting="fixed-limit", small_blind=1, big_blind=2)
SINGLE = HandConfig(game="five-card-draw", betting="no-limit", small_blind=1, big_blind=2)


def bet_to_the_draw(hand: Hand) -> None:
    while not hand.draw_due:
        hand.check() if hand.legal.check else hand.call()


def test_each_draw_is_named_while_it_is_made_then_the_betting_after_it():
    hand = Hand(TRIPLE, [100, 100, 100], 0, list(range(52)))
    assert street_name(hand.view(None)) == "Before the draw"
    for ordinal in ("first", "second", "third"):
        bet_to_the_draw(hand)
        assert street_name(hand.view(None)) == f"The {ordinal} draw"
        hand.discard(hand.hole[hand.actor][:1])
        assert street_name(hand.view(None)) == f"The {ordinal} draw"  # two still to draw
        hand.discard(())
        hand.discard(())
        for seat in (None, 0, 1, 2):
            assert street_name(hand.view(seat)) == f"After the {ordinal} draw"


def test_a_single_draw_is_the_draw():
    hand = Hand(SINGLE, [100, 100], 0, list(range(52)))
    bet_to_the_draw(hand)
    assert street_name(hand.view(1)) == "The draw"
    hand.discard(())
    hand.discard(())
    assert street_name(hand.view(1)) == "After the first draw"
