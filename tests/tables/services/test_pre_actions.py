"""Acting in advance (issue 50): ticking a choice, and the server taking it in the same step
as the action that brings the turn, while it still means what it meant."""

import pytest

from engine.hand import Hand as EngineHand
from engine.pre_actions import FOLD, PreAction, meaning, offers
from tables.models import HandAction, Player, Seat, Table
from tables.selectors.hands import hand_state
from tables.services import hand_act, hand_start, seat_sit_out, seat_take
from tables.services.errors import (
    HandNotRunning,
    InvalidChoice,
    NotSeated,
    NotYourTurn,
)
from tables.services.pre_actions import pre_action_set
from tests.tables.helpers import act, current_hand, fresh

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealt(players, table):
    """alice, bob and carol dealt in: the button first to act preflop, then the small blind
    and the big blind. Returns (button, small blind, big blind)."""
    for player in players:
        seat_take(table=table, player=player, buy_in=100)
    hand = hand_start(table=table)
    state = hand_state(hand)
    by_index = [Player.objects.get(pk=s["player_id"]) for s in hand.seats]
    button = state.actor
    return by_index[button], by_index[(button + 1) % 3], by_index[(button + 2) % 3]


def tick(table, player, kind, amount=None):
    return pre_action_set(table=table, player=player, kind=kind, amount=amount)


def ticked(player):
    seat = Seat.objects.get(player=player)
    return seat.pre_action, seat.pre_action_amount


def log(table):
    hand = current_hand(table) if fresh(table).hands.filter(status="running").exists() else None
    hand = hand or fresh(table).hands.order_by("-number").first()
    return list(hand.actions.order_by("index").values_list("seat", "kind", "source"))


def state_of(table) -> EngineHand:
    return hand_state(fresh(table).hands.order_by("-number").first())


def to_flop(table):
    """Everyone limps preflop (button calls, small blind calls, big blind checks)."""
    act(table, "call")
    act(table, "call")
    act(table, "check")
    assert state_of(table).street == "flop"


def test_check_fold_folds_to_a_bet_in_the_same_step(table, dealt, assert_chips_conserved):
    button, small, big = dealt
    tick(table, big, "check_fold")  # nothing to call yet (the big blind's own bet)
    version = fresh(table).version
    act(table, "raise 6")  # the button raises: the big blind's check/fold means fold
    act(table, "fold", player=small)  # the small blind folds: the big blind folds at once
    assert [kind for _, kind, _ in log(table)] == ["raise", "fold", "fold"]
    assert log(table)[-1][2] == HandAction.Source.PRE_ACTION
    assert fresh(table).version == version + 2  # one version per request, both folds in one
    hand = fresh(table).hands.get()
    assert not hand.is_running
    assert ticked(big) == ("", 0)  # the hand ended: nothing ticked outlives it
    assert not fresh(table).pre_actions
    assert_chips_conserved()


def test_check_fold_checks_and_several_players_act_in_one_step(table, dealt):
    button, small, big = dealt
    to_flop(table)
    assert hand_state(current_hand(table)).actor is not None
    tick(table, big, "check_fold")
    tick(table, button, "check")
    version = fresh(table).version
    act(table, "check", player=small)  # small blind, big blind (pre), button (pre): turn
    assert [(kind, source) for _, kind, source in log(table)[-3:]] == [
        ("check", "player"),
        ("check", "pre"),
        ("check", "pre"),
    ]
    assert fresh(table).version == version + 1
    assert state_of(table).street == "turn"
    assert ticked(big) == ticked(button) == ("", 0)


def test_a_call_ticked_for_an_amount_is_taken_while_that_is_the_amount(table, dealt):
    button, small, big = dealt
    tick(table, small, "call", 1)  # the small blind owes 1
    assert ticked(small) == ("call", 1)
    act(table, "call", player=button)  # a limp: still 1 to call
    hand = current_hand(table)
    index = {s["player_id"]: i for i, s in enumerate(hand.seats)}
    assert log(table) == [(index[button.pk], "call", "player"), (index[small.pk], "call", "pre")]
    assert hand_state(hand).actor == index[big.pk]
    assert ticked(small) == ("", 0)


def test_a_raise_voids_a_call_of_the_old_amount(table, dealt, assert_chips_conserved):
    button, small, big = dealt
    tick(table, small, "call", 1)
    act(table, "raise 6", player=button)
    assert ticked(small) == ("", 0)  # cleared at once: it meant 1 chip, now it is 5
    hand = current_hand(table)
    assert hand.seats[hand_state(hand).actor]["player_id"] == small.pk  # not taken
    assert [kind for _, kind, _ in log(table)] == ["raise"]
    assert_chips_conserved()


def test_a_bet_voids_a_check(table, dealt):
    button, small, big = dealt
    to_flop(table)
    tick(table, big, "check")
    act(table, "raise 4", player=small)  # a bet: the big blind's check means nothing now
    assert ticked(big) == ("", 0)
    hand = current_hand(table)
    assert hand.seats[hand_state(hand).actor]["player_id"] == big.pk
    assert log(table)[-1][1:] == ("raise", "player")


def test_call_any_calls_a_bet_and_checks_when_there_is_none(table, dealt):
    button, small, big = dealt
    to_flop(table)
    tick(table, button, "call_any")
    act(table, "raise 10", player=small)
    act(table, "fold", player=big)  # the button calls the 10 at once: the turn comes
    assert log(table)[-1][1:] == ("call", "pre")
    assert state_of(table).street == "turn"
    assert ticked(button) == ("", 0)  # taken: it does not stay for the turn
    tick(table, button, "call_any")
    act(table, "check", player=small)  # nothing to call: call any checks
    assert log(table)[-1][1:] == ("check", "pre")
    assert state_of(table).street == "river"


def test_a_choice_left_over_at_the_end_of_the_street_is_cleared(table, dealt):
    button, small, big = dealt
    to_flop(table)
    act(table, "check", player=small)
    tick(table, small, "check")  # already checked: nobody bets, so it is never needed
    act(table, "check", player=big)
    act(table, "check", player=button)
    assert state_of(table).street == "turn"
    assert ticked(small) == ("", 0)
    hand = current_hand(table)
    assert hand.seats[hand_state(hand).actor]["player_id"] == small.pk  # the turn: not taken


def test_ticking_does_not_make_the_others_actions_stale(table, dealt):
    button, small, big = dealt
    seen = fresh(table).version
    tick(table, big, "check_fold")
    assert fresh(table).version == seen + 1  # the screens show the tick
    hand = current_hand(table)
    hand_act(table=table, player=button, hand_id=hand.pk, version=seen, action="call")
    assert log(table)[0][1:] == ("call", "player")


def test_what_makes_no_sense_is_refused(table, dealt, make_player):
    button, small, big = dealt
    with pytest.raises(NotYourTurn):
        tick(table, button, "check_fold")  # the button is to act
    with pytest.raises(InvalidChoice):
        tick(table, small, "check")  # the small blind faces a chip to call
    with pytest.raises(InvalidChoice):
        tick(table, big, "fold")  # the big blind could check for free
    with pytest.raises(InvalidChoice):
        tick(table, small, "call", 5)  # the amount to call is 1
    with pytest.raises(InvalidChoice):
        tick(table, small, "raise")
    with pytest.raises(NotSeated):
        tick(table, make_player("dave"), "check")
    dave = make_player("erin")
    seat_take(table=table, player=dave, buy_in=100)  # seated, not dealt in
    with pytest.raises(HandNotRunning):
        tick(table, dave, "check")
    assert not Seat.objects.exclude(pre_action="").exists()
    tick(table, small, "fold")
    tick(table, small, "")  # taken back
    assert ticked(small) == ("", 0)
    act(table, "call", player=button)
    assert hand_state(current_hand(table)).actor is not None
    assert log(table)[-1][1:] == ("call", "player")  # the small blind was not folded


def test_offers_follow_what_there_is_to_call(table, dealt):
    button, small, big = dealt
    hand = current_hand(table)
    state = hand_state(hand)
    index = {s["player_id"]: i for i, s in enumerate(hand.seats)}
    assert offers(state, index[button.pk]) == []  # to act
    assert [(o.kind, o.amount) for o in offers(state, index[small.pk])] == [
        ("fold", 0),
        ("call", 1),
        ("call_any", 0),
    ]
    assert [o.kind for o in offers(state, index[big.pk])] == ["check_fold", "check", "call_any"]
    # "fold" is void where checking is free (it is never offered there)
    assert meaning(PreAction(FOLD, 0, hand.pk, "preflop"), state, index[big.pk], hand.pk) is None
    assert meaning(PreAction(FOLD, 0, hand.pk, "preflop"), state, index[small.pk], hand.pk) == (
        "fold"
    )
    assert meaning(PreAction(FOLD, 0, hand.pk, "flop"), state, index[small.pk], hand.pk) is None


def test_a_player_sitting_out_keeps_their_tick_and_it_is_taken(table, dealt):
    button, small, big = dealt
    tick(table, big, "check_fold")
    seat_sit_out(table=table, player=big)  # still dealt into this hand
    act(table, "raise 6", player=button)
    act(table, "fold", player=small)
    assert log(table)[-1][1:] == ("fold", "pre")
    assert not Table.objects.get(pk=table.pk).hands.filter(status="running").exists()
