"""Seat etiquette, through the services with fixed decks: a newcomer waits for the big blind
or posts now; sitting out next hand or at the next big blind; missed blinds posted (the small
dead, the big live) or waited out, as the host chose. Chips are conserved throughout."""

import pytest

from tables.models import Seat
from tables.services import (
    hand_start,
    seat_post_now,
    seat_sit_in,
    seat_sit_out,
    seat_sit_out_next,
    seat_take,
)
from tables.services.errors import InvalidChoice

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(make_player):
    return [make_player(name) for name in ("alice", "bob", "carol", "dave")]


def seat(player):
    return Seat.objects.get(player=player)


def deal(table, play):
    """Deal the next hand and play it out (check or call); the hand as it was dealt."""
    hand = hand_start(table=table)
    play.play_out(table)
    return hand


def dealt_seats(hand):
    return [start["seat"] for start in hand.seats]


def posts(hand):
    return hand.config.get("posts", [])


@pytest.fixture
def three_playing(four, make_table, play):
    """alice, bob and carol in seats 0, 2 and 4, one hand played (button 0, big blind 4)."""
    table = make_table(name="Etiquette")
    for player, number in zip(four[:3], (0, 2, 4), strict=False):
        seat_take(table=table, player=player, buy_in=200, seat_number=number)
    first = deal(table, play)
    assert dealt_seats(first) == [0, 2, 4]
    return table


def test_before_the_first_hand_everyone_seated_is_dealt(four, make_table, play):
    table = make_table(name="Fresh")
    for player in four:
        seat_take(table=table, player=player, buy_in=200)
    assert not any(seat(p).wait_for_big_blind for p in four)
    assert dealt_seats(deal(table, play)) == [0, 1, 2, 3]


def test_a_newcomer_waits_for_the_big_blind(three_playing, four, play, assert_chips_conserved):
    dave = four[3]
    seat_take(table=three_playing, player=dave, buy_in=200, seat_number=1)
    assert seat(dave).wait_for_big_blind  # the default
    second = deal(three_playing, play)  # the big blind moves from seat 4 to seat 0
    assert dealt_seats(second) == [0, 2, 4]
    third = deal(three_playing, play)  # from 0 to 2: it passes seat 1, dave is dealt
    assert dealt_seats(third) == [0, 1, 2, 4]
    assert third.seats[third.button]["seat"] == 4
    assert posts(third) == []  # dave is the big blind: that is all he posts
    assert not seat(dave).wait_for_big_blind
    assert_chips_conserved()


def test_post_now_deals_at_once_with_a_live_big_blind(
    three_playing, four, play, assert_chips_conserved
):
    dave = four[3]
    seat_take(table=three_playing, player=dave, buy_in=200, seat_number=1, post_now=True)
    assert (seat(dave).wait_for_big_blind, seat(dave).owes_blinds) == (False, "big")
    hand = hand_start(table=three_playing)
    assert dealt_seats(hand) == [0, 1, 2, 4]
    assert hand.seats[hand.button]["seat"] == 1  # dave on the button posts a live big blind
    assert posts(hand) == [[1, 0, 2]]
    assert seat(dave).stack == 198 and seat(dave).owes_blinds == ""
    play.play_out(three_playing)
    assert_chips_conserved()


def test_a_waiting_player_may_post_now(three_playing, four, play):
    dave = four[3]
    seat_take(table=three_playing, player=dave, buy_in=200, seat_number=1)
    seat_post_now(table=three_playing, player=dave)
    assert dealt_seats(hand_start(table=three_playing)) == [0, 1, 2, 4]
    with pytest.raises(InvalidChoice):
        seat_post_now(table=three_playing, player=dave)  # not waiting any more


def test_sit_out_next_hand_plays_the_hand_on_and_sits_out_after_it(three_playing, four, play):
    alice = four[0]
    hand_start(table=three_playing)
    seat_sit_out_next(table=three_playing, player=alice, when="hand")
    assert not seat(alice).sitting_out  # still in the hand being played
    play.play_out(three_playing)
    nxt = hand_start(table=three_playing)
    assert dealt_seats(nxt) == [2, 4]
    assert seat(alice).sitting_out and seat(alice).sit_out_next == ""


def test_sit_out_at_the_next_big_blind(three_playing, four, play, assert_chips_conserved):
    alice, bob, carol, dave = four
    seat_take(table=three_playing, player=dave, buy_in=200, seat_number=5, post_now=True)
    seat_sit_out_next(table=three_playing, player=alice, when="big_blind")
    second = deal(three_playing, play)  # button 2, blinds 4 and 5: alice plays
    assert dealt_seats(second) == [0, 2, 4, 5]
    assert not seat(alice).sitting_out
    third = deal(three_playing, play)  # button 4, blinds 5 and 0: hers, so she sits out
    assert dealt_seats(third) == [2, 4, 5]
    assert seat(alice).sitting_out and seat(alice).sit_out_next == ""
    assert seat(alice).owes_blinds == "missed"
    assert_chips_conserved()


def test_missed_blinds_are_posted_the_small_dead_the_big_live(
    four, make_table, play, assert_chips_conserved
):
    table = make_table(name="Missed")
    for player in four:
        seat_take(table=table, player=player, buy_in=200)
    dave = four[3]
    deal(table, play)  # button 0, blinds 1 and 2
    seat_sit_out(table=table, player=dave)
    deal(table, play)  # the big blind goes from seat 2 to seat 0, past dave's seat 3
    assert seat(dave).owes_blinds == "missed"
    deal(table, play)
    seat_sit_in(table=table, player=dave)
    before = seat(dave).stack
    back = hand_start(table=table)
    assert back.seats[back.button]["seat"] == 3  # dave on the button: not a blind
    assert posts(back) == [[3, 1, 2]]  # the small blind dead, the big blind live
    assert seat(dave).stack == before - 3 and seat(dave).owes_blinds == ""
    play.play_out(table)
    assert_chips_conserved()


def test_the_host_may_have_missed_blinds_waited_out(four, make_table, play, assert_chips_conserved):
    table = make_table(name="Wait", missed_blinds="wait")
    for player in four:
        seat_take(table=table, player=player, buy_in=200)
    dave = four[3]
    deal(table, play)
    seat_sit_out(table=table, player=dave)
    deal(table, play)
    deal(table, play)
    seat_sit_in(table=table, player=dave)
    assert dealt_seats(deal(table, play)) == [0, 1, 2]  # the big blind has not reached him
    back = deal(table, play)
    assert dealt_seats(back) == [0, 1, 2, 3]
    assert posts(back) == []  # he is the big blind
    assert seat(dave).owes_blinds == ""
    assert_chips_conserved()


def test_a_sit_out_choice_must_be_one_offered(three_playing, four):
    with pytest.raises(InvalidChoice):
        seat_sit_out_next(table=three_playing, player=four[0], when="soon")
    assert seat(four[0]).sit_out_next == ""


def test_coming_back_takes_back_a_sit_out_at_the_next_hand(three_playing, four, play):
    alice = four[0]
    seat_sit_out_next(table=three_playing, player=alice, when="hand")
    seat_sit_in(table=three_playing, player=alice)
    assert 0 in dealt_seats(hand_start(table=three_playing))


def test_the_croupier_deals_no_hand_when_sitting_out_next_leaves_one_player(
    players, make_table, play
):
    from django.utils import timezone

    from tables.models import Hand
    from tables.services.clock import clock_tick

    table = make_table(name="Two")
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=200)
    seat_take(table=table, player=bob, buy_in=200)
    seat_sit_out_next(table=table, player=bob, when="hand")
    assert clock_tick(table=table, now=timezone.now()) is None  # not an error: nothing due
    assert not Hand.objects.exists()


def test_the_table_page_offers_the_choices_beside_sit_out(three_playing, four):
    from django.test import Client

    dave = four[3]
    client = Client()
    client.force_login(dave.user)
    free = client.get(f"/tables/{three_playing.pk}/").content.decode()
    assert 'name="post_now"' in free  # the sit-down form: wait for the big blind or post now
    seat_take(table=three_playing, player=dave, buy_in=200, seat_number=1)
    waiting = client.get(f"/tables/{three_playing.pk}/").content.decode()
    assert "Waiting for the big blind" in waiting and 'class="post-now"' in waiting
    assert "waiting for the big blind</span>" in waiting  # on the seat, for everyone
    client.force_login(four[0].user)
    seated = client.get(f"/tables/{three_playing.pk}/").content.decode()
    assert 'class="sit-out-next"' in seated and 'class="sit-out-big-blind"' in seated
    seat_sit_out_next(table=three_playing, player=four[0], when="big_blind")
    later = client.get(f"/tables/{three_playing.pk}/").content.decode()
    assert "Sitting out at the big blind" in later and 'class="play-on"' in later


def test_the_socket_requests_carry_the_choices(three_playing, four):
    from tables.operations import run_op
    from tables.text import BadFrame

    alice, dave = four[0], four[3]
    said = run_op(
        table_id=three_playing.pk,
        user=dave.user,
        data={"op": "take_seat", "buy_in": "200", "seat": "2", "post_now": "1"},
    )
    assert "next hand" in said and seat(dave).owes_blinds == "big"
    run_op(
        table_id=three_playing.pk,
        user=alice.user,
        data={"op": "sit_out_next", "when": "hand"},
    )
    assert seat(alice).sit_out_next == "hand"
    with pytest.raises(BadFrame):
        run_op(table_id=three_playing.pk, user=alice.user, data={"op": "sit_out_next", "when": 3})
    assert seat(alice).sit_out_next == "hand"


def test_the_host_chooses_the_missed_blinds_rule(make_player):
    from tables.services.errors import InvalidSettings
    from tables.services.hosting import table_create, table_host_update

    host = make_player("host")
    game = table_create(host=host, name="Friday")
    assert game.missed_blinds == "post"  # the default: the small dead, the big live
    table_host_update(table=game, by=host.user, changes={"missed_blinds": "wait"})
    game.refresh_from_db()
    assert game.missed_blinds == "wait"
    with pytest.raises(InvalidSettings) as refused:
        table_host_update(table=game, by=host.user, changes={"missed_blinds": "never"})
    assert "missed_blinds" in refused.value.errors
    game.refresh_from_db()
    assert game.missed_blinds == "wait"
