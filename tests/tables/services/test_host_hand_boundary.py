"""Host controls wait for the hand boundary (issue 31 items 1-3, PokerNow's "in the next
hand"): a stack set during a hand is added to the hand's result as a difference; a player
the host sits out or removes plays the hand out with their own clock and buttons and is
away, or cashed out, from the next hand; a removed player cannot undo the removal."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async

from engine.cards import ALL_CARDS, parse_cards
from tables.models import LedgerEntry, Player, Seat, Table, TableNotice
from tables.selectors.hands import running_hand
from tables.services import hand_start, seat_sit_in, seat_take
from tables.services.clock import clock_tick
from tables.services.errors import BuyInOutOfRange, RemovedByHost
from tables.services.host_seats import table_correct_stack, table_host_remove, table_host_sit_out
from tables.services.hosting import table_create
from tests.tables.helpers import act, actor, current_hand, fresh, play_out, screen_of
from tests.tables.live.test_socket_hardening import answer_frame
from tests.tables.wsclient import communicator, session_cookie

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False
    settings.POKER_RESEAT_WAIT_SECONDS = 0


def deal_first(monkeypatch, holes_first: str, holes_second: str, board: str) -> None:
    """Fix the deck of every hand dealt: heads-up, the first hole cards go to the seat left
    of the button (the big blind), the second to the button; then the board, a card burnt
    before the flop, the turn and the river."""
    first, second = parse_cards(holes_first), parse_cards(holes_second)
    flop, turn, river = parse_cards(board)[:3], parse_cards(board)[3:4], parse_cards(board)[4:]
    burn = parse_cards("2h 3h 4h")
    head = [first[0], second[0], first[1], second[1], burn[0], *flop, burn[1], *turn]
    head += [burn[2], *river]
    deck = head + [card for card in ALL_CARDS if card not in head]
    monkeypatch.setattr("tables.services.hands.seeded_deck", lambda seed: list(deck))


def stack_of(table: Table, player: Player) -> int:
    return Seat.objects.get(table=table, player=player).stack


def bankroll_of(player: Player) -> int:
    return Player.objects.get(pk=player.pk).bankroll


def notices(table: Table) -> list[str]:
    return list(TableNotice.objects.filter(table=table).values_list("text", flat=True))


def bet_flop_and_check_down(table: Table, flop_bet: int) -> None:
    """Heads-up: the button calls the big blind, the big blind checks; on the flop the first
    to act bets ``flop_bet`` and is called; the turn and the river are checked."""
    act(table, "call")
    act(table, "check")
    act(table, f"raise {flop_bet}")
    act(table, "call")
    play_out(table)


# --- item 1: Set stack during a hand ------------------------------------------------------
def test_set_stack_during_a_hand_keeps_the_loss_at_showdown(
    monkeypatch, make_player, assert_chips_conserved
):
    """Issue 31 item 1: the host set ben's stack to 150 (98 shown) during a hand; ben lost 22
    at showdown and ended with 150, his bankroll paying 72 instead of 52."""
    host, cleo, ben = make_player("hostess"), make_player("cleo"), make_player("ben")
    game = table_create(host=host, name="Night", private=False)
    seat_take(table=game, player=cleo, buy_in=100, seat_number=0)  # the first button
    seat_take(table=game, player=ben, buy_in=200, seat_number=1)  # the big blind
    table_correct_stack(table=game, by=host.user, player=ben, stack=100)  # 100 given back
    deal_first(monkeypatch, "7c 2d", "As Ad", "Kh 9s 5c Jd 8h")  # ben's 7-high loses
    hand_start(table=game)
    assert stack_of(game, ben) == 98  # the big blind posted: what the host's panel shows
    bankroll = bankroll_of(ben)

    answer = table_correct_stack(table=game, by=host.user, player=ben, stack=150)
    assert not answer.done_now and (answer.shown, answer.change) == (98, 52)
    assert "changes by +52" in answer.message and "keeping the hand's result" in answer.message
    assert any("changes by +52 (98 shown then)" in text for text in notices(game))
    assert (stack_of(game, ben), bankroll_of(ben)) == (98, bankroll)  # nothing moves yet

    bet_flop_and_check_down(game, 20)
    hand = game.hands.get()
    assert hand.result["net"][[s["player_id"] for s in hand.seats].index(ben.pk)] == -22
    assert stack_of(game, ben) == 100 - 22 + 52
    assert bankroll_of(ben) == bankroll - 52
    entry = LedgerEntry.objects.filter(player=ben, kind=LedgerEntry.Kind.CORRECTION).latest("id")
    assert entry.amount == -52 and "from 98" in entry.reason
    assert any(text.startswith("ben's stack is now 130") for text in notices(game))
    assert fresh(game).pending_changes == {}
    assert_chips_conserved()


def test_setting_ones_own_stack_to_the_shown_value_keeps_the_pot_won(
    monkeypatch, make_player, assert_chips_conserved
):
    """Issue 31 item 1: the host set their own stack to the value shown, then won a 24 pot:
    the pot was thrown away with the stack set over it."""
    host, bob = make_player("hostess"), make_player("bob")
    game = table_create(host=host, name="Own", private=False)
    seat_take(table=game, player=bob, buy_in=100, seat_number=0)  # the first button
    seat_take(table=game, player=host, buy_in=100, seat_number=1)  # the big blind
    deal_first(monkeypatch, "Ks Kd", "9c 4d", "Kh 2s 7c Jd 3c")  # the host's kings win
    hand_start(table=game)
    shown = stack_of(game, host)
    answer = table_correct_stack(table=game, by=host.user, player=host, stack=shown)
    assert not answer.done_now and answer.change == 0
    bankroll = bankroll_of(host)

    bet_flop_and_check_down(game, 10)  # 12 each: a 24 pot
    assert game.hands.get().pot == 24
    assert stack_of(game, host) == 112 and stack_of(game, bob) == 88
    assert bankroll_of(host) == bankroll
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.CORRECTION).exists()
    assert_chips_conserved()


def test_a_later_correction_during_the_hand_replaces_the_earlier(
    make_player, assert_chips_conserved
):
    host, cleo, ben = make_player("hostess"), make_player("cleo"), make_player("ben")
    game = table_create(host=host, name="Twice", private=False)
    seat_take(table=game, player=cleo, buy_in=100)
    seat_take(table=game, player=ben, buy_in=200)
    table_correct_stack(table=game, by=host.user, player=ben, stack=100)
    hand_start(table=game)
    shown = stack_of(game, ben)
    table_correct_stack(table=game, by=host.user, player=ben, stack=150)
    table_correct_stack(table=game, by=host.user, player=ben, stack=150)  # not +2 × the gap
    assert len(fresh(game).pending_changes["corrections"]) == 1
    hand = play_out(game)
    index = [s["player_id"] for s in hand.seats].index(ben.pk)
    assert stack_of(game, ben) == 100 + hand.result["net"][index] + 150 - shown
    assert_chips_conserved()


def test_a_correction_taking_more_than_the_hand_left_fails_and_says_so(
    monkeypatch, make_player, assert_chips_conserved
):
    host, cleo, ben = make_player("hostess"), make_player("cleo"), make_player("ben")
    game = table_create(host=host, name="Short", private=False)
    seat_take(table=game, player=cleo, buy_in=100, seat_number=0)
    seat_take(table=game, player=ben, buy_in=60, seat_number=1)
    deal_first(monkeypatch, "7c 2d", "As Ad", "Kh 9s 5c Jd 8h")  # ben loses
    hand_start(table=game)
    table_correct_stack(table=game, by=host.user, player=ben, stack=40)  # -18 after the hand
    bankroll = bankroll_of(ben)
    bet_flop_and_check_down(game, 50)  # ben keeps 8: 8 - 18 would be below nothing
    assert stack_of(game, ben) == 8 and bankroll_of(ben) == bankroll
    assert any("correction of ben's stack failed" in text for text in notices(game))
    assert_chips_conserved()


# --- item 2: Sit out and Remove during a hand ------------------------------------------------
@pytest.fixture
def night(make_player):
    """The host (not seated) and three players with 100 each; a hand dealt."""
    host = make_player("hostess")
    people = [make_player(name) for name in ("ana", "ben", "cleo")]
    game = table_create(host=host, name="Boundary", private=False)
    for player in people:
        seat_take(table=game, player=player, buy_in=100)
    hand_start(table=game)
    return game, host


@pytest.mark.parametrize("control", [table_host_sit_out, table_host_remove])
def test_a_player_sat_out_or_removed_mid_hand_plays_it_out_with_their_clock(
    night, control, assert_chips_conserved
):
    """Issue 31 item 2: "cleo folds (timed out)" the instant her turn came, 0 s, no action
    bar, the plate saying "sitting out" mid-hand; Remove auto-checked and folded alike."""
    game, host = night
    target = actor(current_hand(game))
    assert control(table=game, by=host.user, player=target) is False  # at the hand's end
    announced = len(notices(game))
    assert control(table=game, by=host.user, player=target) is False  # twice: one change
    assert len(notices(game)) == announced

    table = fresh(game)
    assert clock_tick(table=game, now=table.action_deadline - timedelta(seconds=1)) is None
    assert actor(current_hand(game)) == target  # the clock did not act for them
    seen = screen_of(game, target)
    assert not (seen.controls.viewer.sitting_out or seen.controls.viewer.leaving)
    plates = [seat.plate for seat in seen.seats.seats if seat.plate is not None]
    assert not next(p for p in plates if p.name == target.name).sitting_out
    assert seen.actions.bar is not None  # their action bar
    # the deadline passes: their time bank first, as for anyone
    assert clock_tick(table=game, now=table.action_deadline + timedelta(seconds=1)) == "time-bank"
    act(game, "call", player=target)  # and they act themselves
    hand = play_out(game)
    assert all(a.source != "timeout" for a in hand.actions.all())
    if control is table_host_sit_out:
        assert Seat.objects.get(player=target).sitting_out  # away from the next hand
        assert target.pk not in [s["player_id"] for s in hand_start(table=game).seats]
    else:
        assert not Seat.objects.filter(player=target).exists()  # cashed out
        entry = LedgerEntry.objects.filter(player=target, kind="cash_out").get()
        assert "by the host" in entry.reason
    assert_chips_conserved()


# --- item 3: a removed player cannot cancel the removal ---------------------------------------
def test_a_removed_player_cannot_stay_and_the_rejoin_rule_applies_after(
    night, assert_chips_conserved
):
    """Issue 31 item 3: the removed player clicked "Stay" ("Welcome back: you are still dealt
    into this hand, and into the next ones") and the host's Remove was undone."""
    game, host = night
    target = actor(current_hand(game))
    table_host_remove(table=game, by=host.user, player=target)
    version = fresh(game).version
    with pytest.raises(RemovedByHost) as refused:
        seat_sit_in(table=game, player=target)
    assert "host removed you" in str(refused.value)
    assert fresh(game).version == version  # nothing changed
    assert fresh(game).pending_changes["remove"] == [target.pk]
    play_out(game)
    assert running_hand(fresh(game)) is None
    assert not Seat.objects.filter(player=target).exists()
    left_with = LedgerEntry.objects.get(player=target, kind="cash_out").amount
    with pytest.raises(BuyInOutOfRange):  # sitting down again: at least what they left with
        seat_take(table=game, player=target, buy_in=left_with - 1)
    seat_take(table=game, player=target, buy_in=left_with)
    assert_chips_conserved()


class SocketFrames:
    """What ``answer_frame`` reads from: the communicator's text frames."""

    def __init__(self, comm):
        self.comm = comm

    async def receive(self):
        return await self.comm.receive_from()


@pytest.mark.django_db(transaction=True)
async def test_a_removed_players_stay_over_the_socket_is_refused_with_its_code(make_player):
    """The "Stay" / "I'm back" button sends ``sit_in`` over the table's socket: a removed
    player gets the refusal, not "Welcome back: you are still dealt into this hand"."""
    host, ana, ben = [await sync_to_async(make_player)(n) for n in ("hostess", "ana", "ben")]
    game = await sync_to_async(table_create)(host=host, name="Socket", private=False)
    for player in (ana, ben):
        await sync_to_async(seat_take)(table=game, player=player, buy_in=100)
    await sync_to_async(hand_start)(table=game)
    await sync_to_async(table_host_remove)(table=game, by=host.user, player=ben)
    cookie = await sync_to_async(session_cookie)(ben.user)
    comm = communicator(game.pk, cookie, query="state=json")
    assert (await comm.connect())[0]
    frame = json.loads(await comm.receive_from())
    assert frame["state"]["you"]["in_hand"] and not frame["state"]["you"]["sitting_out"]
    await comm.send_to(text_data=json.dumps({"op": "sit_in"}))
    answer = await answer_frame(SocketFrames(comm))
    assert answer["code"] == "removed_by_host" and "Welcome back" not in json.dumps(answer)
    await comm.disconnect()
    pending = await sync_to_async(lambda: fresh(game).pending_changes)()
    assert pending["remove"] == [ben.pk]
