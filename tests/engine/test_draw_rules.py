"""The draw games' draw round (``engine.hand.drawing``): discards in turn from the left of the
button, the replacements after a burn, the reshuffled stub when the deck runs out, and what
each viewer sees of it (counts, never others' cards)."""

import random

import pytest

from engine.cards import parse_cards
from engine.errors import IllegalAction, PokerError
from engine.hand import Action, ActionKind, EventKind, Hand, HandConfig

TRIPLE = HandConfig(game="27-triple-draw", betting="fixed-limit", small_blind=1, big_blind=2)


def deck_starting(text: str, seed: int = 0) -> list[int]:
    """A fixed deck: the given cards first, the rest in a seeded order."""
    head = [int(c) for c in parse_cards(text)]
    rest = [c for c in range(52) if c not in head]
    random.Random(seed).shuffle(rest)
    return head + rest


def limp_to_draw(hand: Hand) -> None:
    while not hand.draw_due:
        hand.check() if hand.legal.check else hand.call()


def test_the_draw_is_in_turn_from_the_left_of_the_button_and_deals_after_a_burn():
    deck = list(range(52))
    hand = Hand(TRIPLE, [100, 100, 100], 0, deck)
    # dealt one at a time from the left of the button: seat 1 gets 0,3,6,9,12
    assert [int(c) for c in hand.hole[1]] == [0, 3, 6, 9, 12]
    limp_to_draw(hand)
    assert hand.street == "draw1" and hand.actor == 1 and hand.legal.discard
    assert not (hand.legal.fold or hand.legal.check or hand.legal.min_raise_to)
    with pytest.raises(IllegalAction, match="draw"):
        hand.check()
    thrown = hand.hole[1][:2]
    events = hand.discard(thrown)
    assert events[0].kind is EventKind.DISCARD and events[0].amount == 2
    hand.discard(())  # seat 2 stands pat
    events = hand.act(Action(ActionKind.DISCARD, cards=hand.hole[0][:1]))
    draws = [e for e in events if e.kind is EventKind.DRAW]
    # 15 dealt, card 15 burned, then seat 1 gets 16-17 and seat 0 gets 18
    assert [(e.seat, [int(c) for c in e.cards]) for e in draws] == [(1, [16, 17]), (0, [18])]
    assert hand.street == "draw1" and hand.actor == 1
    assert hand.drawn == [[1], [2], [0]]
    assert len(hand.hole[1]) == 5 and not set(thrown) & set(hand.hole[1])


def test_a_discard_must_be_of_one_s_own_cards_and_changes_nothing_otherwise():
    hand = Hand(TRIPLE, [100, 100, 100], 0, list(range(52)))
    limp_to_draw(hand)
    before = (hand.hole[1], len(hand.events))
    other = hand.hole[2][0]
    with pytest.raises(IllegalAction, match="not in your hand"):
        hand.discard([other])
    with pytest.raises(PokerError, match="discarded once"):
        hand.discard([hand.hole[1][0], hand.hole[1][0]])
    with pytest.raises(IllegalAction, match="out of turn"):
        hand.discard((), seat=2)
    assert (hand.hole[1], len(hand.events)) == before
    with pytest.raises(IllegalAction, match="no draw now"):
        Hand(TRIPLE, [100, 100], 0, list(range(52))).discard(())


def test_others_see_how_many_were_drawn_never_which():
    hand = Hand(TRIPLE, [100, 100, 100], 0, list(range(52)))
    limp_to_draw(hand)
    mine = hand.hole[1][:3]
    hand.discard(mine)
    hand.discard(hand.hole[2][:1])
    hand.discard(())
    new = [e for e in hand.events if e.kind is EventKind.DRAW and e.seat == 1][0].cards
    for viewer in (None, 0, 2):
        seen = hand.view(viewer)
        lines = [e.line for e in seen.events]
        assert "p2 sd ??????" in lines and "d dh p2 ??????" in lines
        shown = {c for e in seen.events for c in e.cards}
        assert not (set(mine) | set(new)) & shown
        assert not (set(mine) | set(new)) & hand.visible_cards(viewer)
    own = hand.view(1)
    assert {c for e in own.events for c in e.cards} >= set(mine) | set(new)
    assert set(mine) <= hand.visible_cards(1)


def test_a_six_handed_triple_draw_runs_the_deck_out_and_reshuffles_the_discards():
    """30 cards dealt, everyone draws five three times: the stub runs out on the second draw
    and the cards out of play (never a live hand) make a new one; every card stays once."""
    hand = Hand(TRIPLE, [100] * 6, 0, list(range(52)))
    reshuffles = 0
    while not hand.is_over:
        if hand.draw_due:
            hand.discard(hand.hole[hand.actor])
            live = [c for s in range(6) for c in hand.hole[s]]
            assert len(live) == len(set(live))
        else:
            hand.check() if hand.legal.check else hand.call()
        reshuffles = sum(1 for e in hand.events if e.kind is EventKind.RESHUFFLE)
    assert reshuffles >= 2
    assert sum(hand.stacks) == 600
    assert all(len(h) == 5 for h in hand.hole)
    again = Hand.replay(TRIPLE, [100] * 6, 0, list(range(52)), hand.actions)
    assert again.hole == hand.hole and again.stacks == hand.stacks  # seeded by the deck


def test_all_in_seats_still_draw_and_the_hand_plays_out():
    hand = Hand(TRIPLE, [3, 100, 100], 0, list(range(52)))
    while not hand.draw_due:
        legal = hand.legal
        hand.all_in() if hand.actor == 0 else (hand.check() if legal.check else hand.call())
    drawers = []
    while hand.draw_due:
        drawers.append(hand.actor)
        hand.discard(())
    assert 0 in drawers


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"straddle": 4}, "no straddles"),
        ({"bomb_pot": 2}, "no straddles or bomb pots"),
        ({"run_it_twice": True}, "not run twice"),
    ],
)
def test_draw_games_refuse_what_has_no_place_in_them(config, message):
    with pytest.raises(PokerError, match=message):
        HandConfig(game="27-triple-draw", betting="fixed-limit", **config)


def test_actions_parse_and_print_discards():
    action = Action.parse("discard 7h 2c")
    assert str(action) == "discard 7h2c" and Action.parse(str(action)) == action
    assert Action.parse("stand_pat") == Action(ActionKind.DISCARD) == Action.parse("discard")
    assert Action.from_dict(action.to_dict()) == action
    with pytest.raises(PokerError):
        Action(ActionKind.CALL, cards=tuple(parse_cards("7h")))


def test_the_winner_is_the_game_s_low():
    # seat 1 (left of the button) is dealt 7-5-4-3-2, seat 0 a pair of aces; both stand pat
    config = HandConfig(game="27-single-draw", betting="no-limit", small_blind=1, big_blind=2)
    order = "7s As 5d Ad 4c Kc 3h Qh 2s Js"
    hand = Hand(config, [50, 50], 0, deck_starting(order))
    while not hand.is_over:
        if hand.draw_due:
            hand.discard(())
        else:
            hand.check() if hand.legal.check else hand.call()
    assert hand.result.net[1] > 0


def play_out(hand: Hand, rng: random.Random) -> Hand:
    from engine.randomhands import random_action

    while not hand.is_over:
        if hand.draw_due:
            hole = list(hand.hole[hand.actor])
            hand.discard(rng.sample(hole, rng.randint(0, len(hole))))
        else:
            hand.act(random_action(hand, rng))
    return hand


@pytest.mark.parametrize(
    ("game", "betting", "code"),
    [
        ("27-triple-draw", "fixed-limit", "F2L3D"),
        ("27-single-draw", "no-limit", "N2L1D"),
        ("badugi", "fixed-limit", "FB"),
    ],
)
def test_phh_writes_and_reads_the_draws_back(game, betting, code):
    from engine import phh

    for seed in range(12):
        rng = random.Random(seed)
        config = HandConfig(game=game, betting=betting, small_blind=1, big_blind=2)
        seats = rng.randint(2, config.max_seats)
        stacks = [rng.randint(3, 200) for _ in range(seats)]
        hand = play_out(Hand(config, stacks, seats - 1, deck_starting("", seed)), rng)
        text = phh.dumps(hand)
        assert f'variant = "{code}"' in text
        thrown = [e for e in hand.events if e.kind is EventKind.DISCARD]
        assert sum(f"sd {''.join(map(str, e.cards))}".rstrip() in text for e in thrown) == len(
            thrown
        )
        again = phh.loads(text).replay()
        assert again.stacks == hand.stacks and again.hole == hand.hole


def test_a_viewer_s_phh_hides_others_draws():
    from engine import phh

    rng = random.Random(3)
    hand = play_out(Hand(TRIPLE, [100] * 4, 3, deck_starting("", 3)), rng)
    text = phh.dumps(hand, reveal_mucked=False, known_cards=hand.visible_cards(0))
    shown = set(hand.result.shown)
    for e in hand.events:
        if e.kind is EventKind.DISCARD and e.seat != 0 and e.cards:
            assert "".join(map(str, e.cards)) not in text
        if e.kind is EventKind.DRAW and e.seat not in shown and e.seat != 0:
            assert "".join(map(str, e.cards)) not in text


def test_five_card_draw_has_no_phh_code_and_is_refused_by_name():
    from engine import phh
    from engine.errors import HandHistoryError

    config = HandConfig(game="five-card-draw", betting="pot-limit", small_blind=1, big_blind=2)
    hand = play_out(Hand(config, [50, 80, 20], 2, deck_starting("", 1)), random.Random(1))
    with pytest.raises(HandHistoryError, match="PHH has no variant for five-card-draw pot-limit"):
        phh.dumps(hand)


def test_run_out_odds_and_pkstate_refuse_the_draw_games_by_name():
    from engine import pkstate
    from engine.errors import HandHistoryError
    from engine.runout import runout_streets

    hand = Hand(TRIPLE, [3, 100], 0, list(range(52)))
    while not hand.is_over:
        if hand.draw_due:
            hand.discard(())
        elif hand.actor == 0:
            hand.all_in()
        else:
            hand.check() if hand.legal.check else hand.call()
    assert hand.no_more_betting
    with pytest.raises(PokerError, match="not 27-triple-draw"):
        runout_streets(hand)
    with pytest.raises(HandHistoryError, match="27-triple-draw"):
        pkstate.dumps(hand)


def test_all_in_hands_stay_down_through_the_draws():
    """In hold'em every live hand is turned up once nobody can bet; in a draw game the draws
    still to come are decisions, so the hands stay down until the showdown."""
    hand = Hand(TRIPLE, [3, 100], 0, list(range(52)))
    hand.all_in()
    hand.call()
    assert hand.no_more_betting and hand.draw_due
    assert hand.view(0).seats[1].cards == (None,) * 5
    assert not set(hand.hole[1]) & hand.visible_cards(0)
    while not hand.is_over:
        hand.discard(())
    assert set(hand.hole[1]) <= hand.visible_cards(0)
