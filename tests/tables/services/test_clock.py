"""The croupier's clock service at an injected time: deadlines, time bank, sitting out,
bots, next hands — each step once, whoever calls it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Hand, HandAction, LedgerEntry, Seat, Table
from tables.selectors.hands import hand_state
from tables.services import hand_start, seat_sit_in, seat_sit_out, seat_take
from tables.services.clock import TIME_BANK_CHUNK, bot_delay, clock_tick

pytestmark = pytest.mark.django_db


def fresh(table):
    return Table.objects.get(pk=table.pk)


@pytest.fixture
def heads_up(players, make_table):
    table = make_table(name="Clock", action_seconds=10, time_bank_seconds=0)
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=1)
    return table, alice, bob


def test_a_hand_starts_when_two_players_sit_in(heads_up):
    table, alice, bob = heads_up
    now = timezone.now()
    assert clock_tick(table=table, now=now) == "started"
    table = fresh(table)
    assert table.action_deadline == now + timedelta(seconds=10)
    assert clock_tick(table=table, now=now) is None  # nothing else due


def test_no_hand_with_one_player_sitting_in(heads_up):
    table, alice, bob = heads_up
    seat_sit_out(table=table, player=bob)
    assert clock_tick(table=table, now=timezone.now()) is None
    assert not Hand.objects.exists()


def test_timeout_checks_when_free_else_folds_and_sits_the_player_out(heads_up, play):
    table, alice, bob = heads_up
    now = timezone.now()
    clock_tick(table=table, now=now)
    hand = play.current_hand(table)
    first = play.actor(hand)  # heads-up the button (small blind) acts first, facing a bet
    assert clock_tick(table=table, now=now + timedelta(seconds=9)) is None  # not yet
    assert clock_tick(table=table, now=now + timedelta(seconds=10)) == "timeout"
    action = HandAction.objects.get()
    assert (action.kind, action.source, action.seat) == (
        "fold",
        "timeout",
        hand.seat_index_of(first.pk),
    )
    assert Seat.objects.get(player=first).sitting_out
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED
    # the next hand waits: only one player is sitting in
    later = now + timedelta(seconds=60)
    assert clock_tick(table=table, now=later) is None
    seat_sit_in(table=table, player=first)
    assert clock_tick(table=table, now=later) == "started"


def test_timeout_checks_when_checking_is_free(heads_up, play):
    table, alice, bob = heads_up
    now = timezone.now()
    clock_tick(table=table, now=now)
    play.act(table, "call")  # the big blind may now check
    hand = play.current_hand(table)
    bb = play.actor(hand)
    table_now = fresh(table)
    clock_tick(table=table, now=table_now.action_deadline)
    last = HandAction.objects.order_by("-index").first()
    assert (last.kind, last.source) == ("check", "timeout")
    assert Seat.objects.get(player=bb).sitting_out


def test_the_time_bank_extends_the_deadline_before_the_clock_acts(players, make_table, play):
    table = make_table(name="Bank", action_seconds=5, time_bank_seconds=15)
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=200)
    seat_take(table=table, player=bob, buy_in=200)
    now = timezone.now()
    clock_tick(table=table, now=now)
    who = play.actor(play.current_hand(table))
    t = now + timedelta(seconds=5)
    assert clock_tick(table=table, now=t) == "time-bank"
    assert fresh(table).action_deadline == t + timedelta(seconds=TIME_BANK_CHUNK)
    assert Seat.objects.get(player=who).time_bank == 15 - TIME_BANK_CHUNK
    t = fresh(table).action_deadline
    assert clock_tick(table=table, now=t) == "time-bank"
    assert Seat.objects.get(player=who).time_bank == 0
    t = fresh(table).action_deadline
    assert clock_tick(table=table, now=t) == "timeout"
    assert HandAction.objects.get().source == "timeout"


def test_a_player_who_sat_out_mid_hand_is_acted_for_at_once(heads_up, play):
    table, alice, bob = heads_up
    now = timezone.now()
    clock_tick(table=table, now=now)
    who = play.actor(play.current_hand(table))
    seat_sit_out(table=table, player=who)
    assert clock_tick(table=table, now=now) == "sat-out"


def test_the_clock_never_acts_twice_for_one_deadline(heads_up, play):
    table, alice, bob = heads_up
    now = timezone.now()
    clock_tick(table=table, now=now)
    late = now + timedelta(seconds=30)
    # two croupiers noticing the same deadline: the second finds a new state
    results = [clock_tick(table=table, now=late), clock_tick(table=table, now=late)]
    assert results[0] == "timeout"
    assert HandAction.objects.filter(source="timeout").count() == 1


def test_the_next_hand_starts_after_the_pause(heads_up, play, settings):
    settings.POKER_HAND_PAUSE_SECONDS = 3
    table, alice, bob = heads_up
    now = timezone.now()
    clock_tick(table=table, now=now)
    play.act(table, "fold")
    seat_sit_in(table=table, player=alice)
    seat_sit_in(table=table, player=bob)
    table = fresh(table)
    pause_end = table.next_hand_at
    assert pause_end is not None
    assert clock_tick(table=table, now=pause_end - timedelta(seconds=1)) is None
    assert clock_tick(table=table, now=pause_end) == "started"
    assert Hand.objects.count() == 2


@pytest.fixture
def bot_table(make_player, make_table):
    table = make_table(name="Bots", bots_allowed=True, bot_seats=2, max_seats=4)
    return table


def test_bots_are_seated_with_granted_chips_and_wait_for_a_person(bot_table, make_player):
    now = timezone.now()
    assert clock_tick(table=bot_table, now=now) == "bots-seated"
    bots = Seat.objects.filter(table=bot_table, player__is_bot=True)
    assert bots.count() == 2
    assert LedgerEntry.objects.filter(player__is_bot=True, kind="admin_grant").count() == 2
    assert clock_tick(table=bot_table, now=now) is None  # only bots: no hand
    seat_take(table=bot_table, player=make_player("dora"), buy_in=200)
    assert clock_tick(table=bot_table, now=now) == "started"


def test_bots_act_after_a_human_like_delay_on_their_own_view(bot_table, make_player, play):
    dora = make_player("dora")
    seat_take(table=bot_table, player=dora, buy_in=200)
    now = timezone.now()
    clock_tick(table=bot_table, now=now)
    clock_tick(table=bot_table, now=now)
    acted = 0
    t = now
    for _ in range(50):
        hand = play.current_hand(bot_table)
        who = play.actor(hand)
        if not who.is_bot:
            break
        delay = bot_delay(hand.pk, hand.actions.count())
        assert 0.5 <= delay <= 3
        turn = fresh(bot_table).action_deadline - timedelta(seconds=bot_table.action_seconds)
        assert clock_tick(table=bot_table, now=turn + timedelta(seconds=delay * 0.9)) is None
        t = turn + timedelta(seconds=delay)
        assert clock_tick(table=bot_table, now=t) == "bot"
        acted += 1
        hand.refresh_from_db()
        if not hand.is_running:
            break
    assert HandAction.objects.filter(source="bot").count() == acted
    assert acted >= 1 or play.actor(play.current_hand(bot_table)) == dora


def test_a_restart_carries_on_from_the_database(heads_up, play):
    """A hand dealt without a deadline (e.g. dealt by a process that died) gets its clock."""
    table, alice, bob = heads_up
    hand_start(table=table)
    Table.objects.filter(pk=table.pk).update(action_deadline=None)
    now = timezone.now()
    assert clock_tick(table=table, now=now) is None
    assert fresh(table).action_deadline == now + timedelta(seconds=10)
    assert clock_tick(table=table, now=now + timedelta(seconds=10)) == "timeout"
    assert hand_state(
        play.current_hand(table)
        if Hand.objects.filter(status="running").exists()
        else Hand.objects.get()
    ).actions
