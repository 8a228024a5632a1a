"""Hosted games' services (tables.services.hosting, seat_requests): when each host control
takes effect, the ledger entries it writes, and that nothing changes when one is refused."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import LedgerEntry, Player, Seat, SeatRequest, Table, TableGuest, TableNotice
from tables.selectors.access import can_see_table
from tables.selectors.hosting import request_status
from tables.services import hand_start, seat_leave, seat_take
from tables.services.errors import (
    BuyInOutOfRange,
    InsufficientBankroll,
    InvalidSettings,
    NoSuchInvite,
    NoSuchRequest,
    NotHost,
    NotSeated,
    RequestPending,
    TableClosed,
    TableNotOpen,
    TooManyGames,
)
from tables.services.host_seats import (
    table_correct_stack,
    table_host_remove,
    table_host_sit_out,
    table_host_transfer,
)
from tables.services.hosting import (
    GAME_DEFAULTS,
    MAX_OPEN_GAMES,
    hosted_games_tidy,
    table_create,
    table_guest_join,
    table_host_close,
    table_host_pause,
    table_host_resume,
    table_host_update,
    table_invite_replace,
)
from tables.services.seat_requests import seat_ask, seat_request_answer, top_up_ask

pytestmark = pytest.mark.django_db


def fresh(table):
    return Table.objects.get(pk=table.pk)


def notices(table) -> list[str]:
    return list(TableNotice.objects.filter(table=table).values_list("text", flat=True))


@pytest.fixture
def host(make_player):
    return make_player("hostess")


@pytest.fixture
def game(host):
    return table_create(host=host, name="Friday night")


@pytest.fixture
def seated_game(game, players):
    """alice and bob seated with 100 each (the host is not seated)."""
    for player in players[:2]:
        seat_take(table=game, player=player, buy_in=100)
    return game


# --- starting a game -----------------------------------------------------------------------
def test_a_new_game_has_the_defaults_its_host_and_a_long_invite_token(game, host):
    assert game.host == host
    for name, value in GAME_DEFAULTS.items():
        assert getattr(game, name) == value, name
    assert (game.game, game.betting, game.small_blind, game.big_blind) == (
        "holdem",
        "no-limit",
        1,
        2,
    )
    assert (game.max_seats, game.min_buy_in, game.max_buy_in, game.action_seconds) == (
        9,
        40,
        200,
        30,
    )
    assert game.private
    assert len(game.invite_token) >= 43  # 32 bytes: 256 bits, base64
    assert notices(game) == ["hostess opened the game."]


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"max_seats": 13}, "max_seats"),
        ({"game": "omaha", "max_seats": 11}, "max_seats"),
        ({"bot_seats": 8}, "bot_seats"),  # 9 seats: at most 7 bots
        ({"small_blind": 5, "big_blind": 2}, "small_blind"),
        ({"min_buy_in": 300}, "max_buy_in"),
        ({"action_seconds": 1}, "action_seconds"),
        ({"name": ""}, "name"),
        ({"invite_token": "mine"}, "invite_token"),
    ],
)
def test_every_bad_setting_is_named_and_nothing_is_created(host, fields, field):
    before = Table.objects.count()
    with pytest.raises(InvalidSettings) as refused:
        table_create(host=host, **{"name": "Bad", **fields})
    assert field in refused.value.errors
    assert Table.objects.count() == before


def test_bots_up_to_seats_minus_two_are_allowed(host):
    table = table_create(host=host, name="Bots", max_seats=4, bot_seats=2)
    assert table.bots_allowed and table.bot_seats == 2


def test_a_player_hosts_at_most_ten_open_games(host):
    games = [table_create(host=host, name=f"G{n}") for n in range(MAX_OPEN_GAMES)]
    with pytest.raises(TooManyGames):
        table_create(host=host, name="One too many")
    table_host_close(table=games[0], by=host.user)
    assert table_create(host=host, name="Room again").pk


# --- invites ---------------------------------------------------------------------------------
def test_the_invite_link_makes_a_guest_and_a_replaced_one_lets_nobody_in(game, host, players):
    alice, bob = players[:2]
    old = game.invite_token
    assert table_guest_join(token=old, player=alice) == game
    table_invite_replace(table=game, by=host.user)
    new = fresh(game).invite_token
    assert new != old
    with pytest.raises(NoSuchInvite):
        table_guest_join(token=old, player=bob)
    assert not TableGuest.objects.filter(player=bob).exists()
    table_guest_join(token=new, player=bob)
    assert set(TableGuest.objects.values_list("player__user__username", flat=True)) == {
        "alice",
        "bob",
    }


def test_a_guest_cannot_use_host_controls(game, players):
    alice = players[0]
    table_guest_join(token=game.invite_token, player=alice)
    version = fresh(game).version
    for control in (table_host_pause, table_invite_replace, table_host_close):
        with pytest.raises(NotHost):
            control(table=game, by=alice.user)
    with pytest.raises(NotHost):
        table_host_update(table=game, by=alice.user, changes={"big_blind": 10})
    assert fresh(game).version == version
    assert fresh(game).status == Table.Status.OPEN


def test_staff_keep_every_power(game, make_player):
    admin = make_player("boss")
    admin.user.is_staff = True
    admin.user.save()
    table_host_pause(table=game, by=admin.user)
    assert fresh(game).status == Table.Status.PAUSED


# --- settings: now, or at the next hand -------------------------------------------------------
def test_blinds_change_at_once_between_hands(game, host):
    update = table_host_update(table=game, by=host.user, changes={"small_blind": 2, "big_blind": 4})
    assert (update.applied, update.waiting) == (["big_blind", "small_blind"], [])
    assert (fresh(game).small_blind, fresh(game).big_blind) == (2, 4)


def test_blinds_raised_during_a_hand_apply_at_the_next_one(seated_game, host, play):
    hand = hand_start(table=seated_game)
    update = table_host_update(
        table=seated_game, by=host.user, changes={"small_blind": 5, "big_blind": 10, "name": "Late"}
    )
    assert update.waiting == ["big_blind", "small_blind"]
    assert update.applied == ["name"]
    table = fresh(seated_game)
    assert (table.small_blind, table.big_blind, table.name) == (1, 2, "Late")
    assert hand.config["big_blind"] == 2
    play.play_out(table)
    table = fresh(seated_game)
    assert (table.small_blind, table.big_blind) == (5, 10)
    assert table.pending_changes == {}
    assert hand_start(table=table).config["big_blind"] == 10
    assert "From this hand: No-limit Hold'em 5/10." in notices(table)


def test_a_change_is_announced_as_a_sentence_with_yes_no_settings_on_or_off(
    game: Table, host: Player
) -> None:
    """Issue 31, item 19: "The host changed private False." read like code."""
    word = {True: "on", False: "off"}
    was = game.private
    table_host_update(table=game, by=host.user, changes={"private": not was, "big_blind": 4})
    table_host_update(table=game, by=host.user, changes={"private": was})
    assert notices(fresh(game))[-2:] == [
        f"The host set No-limit Hold'em 1/4, private {word[not was]}.",
        f"The host set private {word[was]}.",
    ]


def test_a_bad_change_names_its_field_and_changes_nothing(game, host):
    version = fresh(game).version
    with pytest.raises(InvalidSettings) as refused:
        table_host_update(table=game, by=host.user, changes={"small_blind": 9, "big_blind": 4})
    assert "small_blind" in refused.value.errors
    assert fresh(game).version == version
    assert fresh(game).big_blind == 2


# --- stack corrections ----------------------------------------------------------------------
def test_a_stack_correction_moves_chips_between_bankroll_and_table(
    seated_game, host, players, assert_chips_conserved
):
    alice = players[0]
    bankroll = fresh_player(alice).bankroll
    assert table_correct_stack(table=seated_game, by=host.user, player=alice, stack=80).done_now
    assert Seat.objects.get(table=seated_game, player=alice).stack == 80
    entry = LedgerEntry.objects.filter(player=alice, kind=LedgerEntry.Kind.CORRECTION).get()
    assert (entry.amount, entry.table_id) == (20, seated_game.pk)
    assert fresh_player(alice).bankroll == bankroll + 20
    table_correct_stack(table=seated_game, by=host.user, player=alice, stack=100)
    assert fresh_player(alice).bankroll == bankroll
    assert_chips_conserved()


@pytest.mark.parametrize("stack", [39, 201, 10_000])
def test_a_hosts_stack_stays_within_the_buy_in_range(seated_game, host, players, stack):
    """Issue 32 item 1: at a 40-200 table a host set a guest's stack to 10,000 from their
    bankroll."""
    alice = players[0]
    bankroll = fresh_player(alice).bankroll
    with pytest.raises(BuyInOutOfRange) as refused:
        table_correct_stack(table=seated_game, by=host.user, player=alice, stack=stack)
    assert "40 to 200" in str(refused.value)
    assert Seat.objects.get(table=seated_game, player=alice).stack == 100
    assert fresh_player(alice).bankroll == bankroll
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.CORRECTION).exists()


def test_a_correction_takes_from_the_bankroll_only_what_corrections_gave_back(
    seated_game, host, players, assert_chips_conserved
):
    """Issue 32 item 1: the chips a player puts on the table are theirs to choose (a buy-in, a
    top-up); a host's correction raises a stack only back up to what corrections took off."""
    alice = players[0]
    bankroll = fresh_player(alice).bankroll
    with pytest.raises(BuyInOutOfRange) as refused:
        table_correct_stack(table=seated_game, by=host.user, player=alice, stack=150)
    assert "only they can ask for" in str(refused.value)
    table_correct_stack(table=seated_game, by=host.user, player=alice, stack=60)
    with pytest.raises(BuyInOutOfRange):
        table_correct_stack(table=seated_game, by=host.user, player=alice, stack=101)
    assert Seat.objects.get(table=seated_game, player=alice).stack == 60
    table_correct_stack(table=seated_game, by=host.user, player=alice, stack=100)
    assert fresh_player(alice).bankroll == bankroll
    assert_chips_conserved()


def test_a_refused_correction_never_tells_the_host_the_bankroll(seated_game, host, players):
    """Issue 32 item 2: the refusal read "your bankroll is 9440": addressed to the wrong
    person, with a figure only the player may see."""
    alice = players[0]
    table_correct_stack(table=seated_game, by=host.user, player=alice, stack=40)
    # alice spent the 60 corrections gave back (elsewhere): 7 chips left
    Player.objects.filter(pk=alice.pk).update(bankroll=7)
    with pytest.raises(InsufficientBankroll) as refused:
        table_correct_stack(table=seated_game, by=host.user, player=alice, stack=100)
    message = str(refused.value)
    assert "alice" in message and "your" not in message.lower()
    assert "7" not in message
    assert Seat.objects.get(table=seated_game, player=alice).stack == 40
    assert fresh_player(alice).bankroll == 7


def test_a_correction_during_the_players_hand_waits_for_its_end(
    seated_game, host, players, play, assert_chips_conserved
):
    alice = players[0]
    table_correct_stack(table=seated_game, by=host.user, player=alice, stack=60)
    hand_start(table=seated_game)
    shown = Seat.objects.get(table=seated_game, player=alice).stack  # 59 or 58: a blind posted
    with pytest.raises(BuyInOutOfRange):  # the range is checked at once
        table_correct_stack(table=seated_game, by=host.user, player=alice, stack=500)
    with pytest.raises(BuyInOutOfRange):  # and the bankroll bound: the difference is known
        table_correct_stack(table=seated_game, by=host.user, player=alice, stack=shown + 41)
    waiting = table_correct_stack(table=seated_game, by=host.user, player=alice, stack=90)
    assert not waiting.done_now
    assert (waiting.shown, waiting.change) == (shown, 90 - shown)
    assert f"changes by {90 - shown:+}" in waiting.message and "result" in waiting.message
    assert LedgerEntry.objects.filter(kind=LedgerEntry.Kind.CORRECTION).count() == 1
    assert_chips_conserved()
    hand = play.play_out(fresh(seated_game))  # checked down
    index = next(i for i, s in enumerate(hand.seats) if s["player_id"] == alice.pk)
    left = 60 + hand.result["net"][index]  # the stack the hand left her
    assert Seat.objects.get(table=seated_game, player=alice).stack == left + 90 - shown
    assert LedgerEntry.objects.filter(kind=LedgerEntry.Kind.CORRECTION, player=alice).count() == 2
    assert_chips_conserved()


def test_a_waiting_correction_refused_at_the_hands_end_says_so_without_figures(
    seated_game, host, players, play, assert_chips_conserved
):
    alice = players[0]
    table_correct_stack(table=seated_game, by=host.user, player=alice, stack=40)
    hand_start(table=seated_game)
    assert not table_correct_stack(table=seated_game, by=host.user, player=alice, stack=90).done_now
    # alice spent the 60 corrections gave back (elsewhere) during the hand: 7 chips left
    Player.objects.filter(pk=alice.pk).update(bankroll=7)
    play.play_out(fresh(seated_game))
    failed = [text for text in notices(seated_game) if "failed" in text]
    assert len(failed) == 1 and "alice" in failed[0] and "top-up" in failed[0]
    assert "7" not in failed[0]
    assert LedgerEntry.objects.filter(kind=LedgerEntry.Kind.CORRECTION).count() == 1
    assert fresh_player(alice).bankroll == 7
    assert Seat.objects.get(table=seated_game, player=alice).stack != 90


# --- removing, sitting out, handing over, pausing ----------------------------------------------
def test_removing_a_player_between_hands_cashes_them_out(seated_game, host, players):
    alice = players[0]
    assert table_host_remove(table=seated_game, by=host.user, player=alice)
    assert not Seat.objects.filter(player=alice).exists()
    entry = LedgerEntry.objects.filter(player=alice, kind=LedgerEntry.Kind.CASH_OUT).get()
    assert entry.amount == 100 and "by the host" in entry.reason


def test_removing_a_player_in_a_hand_cashes_them_out_when_it_ends(
    seated_game, host, players, play, assert_chips_conserved
):
    alice = players[0]
    hand_start(table=seated_game)
    assert not table_host_remove(table=seated_game, by=host.user, player=alice)
    seat = Seat.objects.get(player=alice)  # she plays the hand out: not marked away
    assert not (seat.leave_after_hand or seat.sitting_out)
    play.play_out(fresh(seated_game))
    assert not Seat.objects.filter(player=alice).exists()
    assert_chips_conserved()


def test_sitting_a_player_out_and_handing_over_the_game(seated_game, host, players, make_player):
    alice = players[0]
    table_host_sit_out(table=seated_game, by=host.user, player=alice)
    assert Seat.objects.get(player=alice).sitting_out
    stranger = make_player("stranger")
    with pytest.raises(NotSeated):
        table_host_transfer(table=seated_game, by=host.user, player=stranger)
    table_host_transfer(table=seated_game, by=host.user, player=alice)
    assert fresh(seated_game).host == alice
    with pytest.raises(NotHost):
        table_host_pause(table=seated_game, by=host.user)


def test_a_former_host_still_sees_the_private_game_after_it_closes(seated_game, host, players):
    alice = players[0]
    table_host_transfer(table=seated_game, by=host.user, player=alice)
    table_host_close(table=seated_game, by=alice.user)
    closed = fresh(seated_game)
    assert closed.private and closed.status == Table.Status.CLOSED
    assert not Seat.objects.filter(table=closed, player=host).exists()
    assert can_see_table(closed, host.user)


def test_pause_and_resume(seated_game, host):
    table_host_pause(table=seated_game, by=host.user)
    assert fresh(seated_game).status == Table.Status.PAUSED
    table_host_resume(table=seated_game, by=host.user)
    assert fresh(seated_game).status == Table.Status.OPEN
    assert "The host paused the game: no new hand starts." in notices(seated_game)


# --- closing -------------------------------------------------------------------------------------
def test_closing_between_hands_cashes_everyone_out_and_makes_the_game_read_only(
    seated_game, host, players, assert_chips_conserved
):
    assert table_host_close(table=seated_game, by=host.user)
    table = fresh(seated_game)
    assert table.status == Table.Status.CLOSED and table.closed_at is not None
    assert not table.seats.exists()
    assert LedgerEntry.objects.filter(kind=LedgerEntry.Kind.CASH_OUT, table=table).count() == 2
    with pytest.raises(TableNotOpen):
        seat_take(table=table, player=players[2], buy_in=100)
    with pytest.raises(TableClosed):
        table_host_update(table=table, by=host.user, changes={"big_blind": 4})
    assert_chips_conserved()


def test_closing_during_a_hand_waits_for_its_end(seated_game, host, play, assert_chips_conserved):
    hand_start(table=seated_game)
    assert not table_host_close(table=seated_game, by=host.user)
    assert fresh(seated_game).status == Table.Status.OPEN
    hand = play.play_out(fresh(seated_game))
    assert hand.status == "finished"  # played to its end, not voided
    table = fresh(seated_game)
    assert table.status == Table.Status.CLOSED and not table.seats.exists()
    assert_chips_conserved()


def test_a_hosted_game_empty_for_a_day_closes_itself(game, seated_game, players):
    now = timezone.now()
    empty = table_create(host=players[2], name="Nobody came")
    assert hosted_games_tidy(now=now) == []
    assert fresh(empty).empty_since == now and fresh(seated_game).empty_since is None
    assert hosted_games_tidy(now=now + timedelta(hours=23)) == []
    assert hosted_games_tidy(now=now + timedelta(hours=24)) == [empty.pk]
    assert fresh(empty).status == Table.Status.CLOSED
    assert fresh(seated_game).status == Table.Status.OPEN


# --- seat and top-up requests --------------------------------------------------------------------
@pytest.fixture
def approval_game(host):
    return table_create(host=host, name="Ask first", seat_approval=True, top_up_approval=True)


def test_sitting_down_at_an_approval_game_asks_the_host(approval_game, host, players):
    alice = players[0]
    bankroll = fresh_player(alice).bankroll
    asked = seat_ask(table=approval_game, player=alice, buy_in=120)
    assert asked.seat is None and asked.request.status == SeatRequest.Status.PENDING
    assert not approval_game.seats.exists() and fresh_player(alice).bankroll == bankroll
    with pytest.raises(RequestPending):
        seat_ask(table=approval_game, player=alice, buy_in=120)
    with pytest.raises(NotHost):
        seat_request_answer(
            table=approval_game, by=players[1].user, request_id=asked.request.pk, approve=True
        )
    seat_request_answer(
        table=approval_game, by=host.user, request_id=asked.request.pk, approve=True
    )
    assert Seat.objects.get(table=approval_game, player=alice).stack == 120
    assert fresh_player(alice).bankroll == bankroll - 120
    with pytest.raises(NoSuchRequest):  # answered once only
        seat_request_answer(
            table=approval_game, by=host.user, request_id=asked.request.pk, approve=True
        )


def test_the_host_sits_without_asking_and_a_declined_request_seats_nobody(
    approval_game, host, players
):
    assert seat_ask(table=approval_game, player=host, buy_in=100).seat is not None
    asked = seat_ask(table=approval_game, player=players[0], buy_in=100)
    seat_request_answer(
        table=approval_game, by=host.user, request_id=asked.request.pk, approve=False
    )
    assert SeatRequest.objects.get().status == SeatRequest.Status.DECLINED
    assert not Seat.objects.filter(player=players[0]).exists()


def test_a_request_expires_after_five_minutes(approval_game, host, players):
    asked = seat_ask(table=approval_game, player=players[0], buy_in=100)
    SeatRequest.objects.filter(pk=asked.request.pk).update(
        created_at=timezone.now() - timedelta(minutes=5, seconds=1)
    )
    with pytest.raises(NoSuchRequest):
        seat_request_answer(
            table=approval_game, by=host.user, request_id=asked.request.pk, approve=True
        )
    assert request_status(SeatRequest.objects.get()) == SeatRequest.Status.EXPIRED
    assert not Seat.objects.filter(player=players[0]).exists()
    # the player may ask again; the old request is written as expired then
    seat_ask(table=approval_game, player=players[0], buy_in=100)
    assert SeatRequest.objects.get(pk=asked.request.pk).status == SeatRequest.Status.EXPIRED


def test_a_top_up_waits_for_the_host(approval_game, host, players, assert_chips_conserved):
    alice = players[0]
    asked = seat_ask(table=approval_game, player=alice, buy_in=100)
    seat_request_answer(
        table=approval_game, by=host.user, request_id=asked.request.pk, approve=True
    )
    topped = top_up_ask(table=approval_game, player=alice, amount=50)
    assert topped.request is not None
    assert Seat.objects.get(player=alice).stack == 100
    seat_request_answer(
        table=approval_game, by=host.user, request_id=topped.request.pk, approve=True
    )
    assert Seat.objects.get(player=alice).stack == 150
    assert (
        LedgerEntry.objects.filter(player=alice, kind=LedgerEntry.Kind.TOP_UP).get().amount == -50
    )
    assert_chips_conserved()


# --- the rejoining rule --------------------------------------------------------------------------
def test_rejoining_within_an_hour_needs_at_least_the_chips_taken(game, players, settings):
    settings.POKER_RESEAT_WAIT_SECONDS = 0
    alice = players[0]
    seat_take(table=game, player=alice, buy_in=150)
    seat_leave(table=game, player=alice)
    with pytest.raises(BuyInOutOfRange, match="at least"):
        seat_take(table=game, player=alice, buy_in=100)
    assert not Seat.objects.filter(player=alice).exists()
    assert seat_take(table=game, player=alice, buy_in=150).stack == 150
    seat_leave(table=game, player=alice)
    # An hour later the rule no longer holds (the ledger is append-only: its base manager
    # moves the entry back in time, as the clock would).
    cash_out = LedgerEntry.objects.filter(player=alice, kind="cash_out").order_by("-id").first()
    LedgerEntry._base_manager.filter(pk=cash_out.pk).update(
        created_at=timezone.now() - timedelta(hours=1, seconds=1)
    )
    assert seat_take(table=game, player=alice, buy_in=40).stack == 40


def fresh_player(player):
    player.refresh_from_db()
    return player


def test_the_croupier_closes_a_game_left_empty_for_a_day(game):
    from tables.croupier import Croupier

    croupier = Croupier()
    now = timezone.now()
    croupier.tick(now)  # notes that it is empty
    assert fresh(game).empty_since == now
    Table.objects.filter(pk=game.pk).update(empty_since=now - timedelta(hours=25))
    assert croupier.tick(now + timedelta(seconds=30)) == []  # looked a moment ago: not yet
    assert (game.pk, "closed-empty") in croupier.tick(now + timedelta(seconds=61))
    assert fresh(game).status == Table.Status.CLOSED
