"""Logged-out visitors watch public tables live (issue 31 item 5): a page socket without a
log-in is a spectator with the view of anyone not dealt in (never a hole card), no player and
no bankroll, who gets a card a player shows after the hand (issue 31 item 6) and no other; it
may not act; private games stay refused as if missing; spectators are counted
per address."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tables.models import Seat, Table
from tables.presenters.render import cards_in_html
from tables.selectors.hands import hand_state
from tables.services import hand_start, seat_take
from tables.services.hosting import table_create
from tests.tables.helpers import actor, current_hand
from tests.tables.wsclient import Socket, communicator, refused_with, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False  # the tests drive every change themselves


def spectator(table_id: int, client: tuple[str, int] = ("203.0.113.9", 5000)):
    comm = communicator(table_id, cookie=None)
    comm.scope["client"] = list(client)
    return comm


def dealt(table):
    state = hand_state(table.hands.order_by("-number").first())
    return {str(c) for seat in state.hole for c in seat}, [str(c) for c in state.board]


def folded_cards(table) -> tuple[int, str, list[str]]:
    hand = table.hands.order_by("-number").first()
    state = hand_state(hand)
    seat = next(i for i in range(state.seats) if state.view(None).seats[i].folded)
    return hand.pk, hand.seats[seat]["name"], [str(c) for c in state.hole[seat]]


async def caught_up(table, sockets) -> None:
    version = await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)()
    for socket in sockets:
        await socket.until_version(version)


async def test_a_spectator_watches_a_hand_live_and_never_gets_a_hole_card(players, table):
    alice, bob, _ = players
    await sync_to_async(seat_take)(table=table, player=alice, buy_in=200, seat_number=0)
    await sync_to_async(seat_take)(table=table, player=bob, buy_in=200, seat_number=1)
    cookies = {p.name: await sync_to_async(session_cookie)(p.user) for p in (alice, bob)}
    sockets = {n: await Socket(n, communicator(table.pk, c)).connect() for n, c in cookies.items()}
    watcher = await Socket("visitor", spectator(table.pk)).connect()
    await sync_to_async(hand_start)(table=table)
    await caught_up(table, sockets.values())
    await watcher.until(lambda f: 'data-street="preflop"' in f)
    holes, _ = await sync_to_async(dealt)(table)
    # preflop a call and a check; on the flop a bet and a fold: no showdown, nothing shown
    moves = (("call", None, "calls"), ("check", None, "checks"), ("raise", 4, "bets"))
    for move, amount, logged in (*moves, ("fold", None, "folds")):
        name = await sync_to_async(lambda: actor(current_hand(table)).name)()
        await sockets[name].act(move, amount)
        await watcher.until(lambda f, logged=logged: logged in f)  # live: each action
        await caught_up(table, sockets.values())
    _, board = await sync_to_async(dealt)(table)
    seen = {card for frame in watcher.frames for card in cards_in_html(frame)}
    assert not seen & holes, f"a spectator saw hole cards {seen & holes}"
    assert seen <= set(board) and len(seen) >= 3  # it saw the flop, and nothing else
    # The folder shows one card over the socket: the spectator gets it, never the other.
    hand_id, folder, folded = await sync_to_async(folded_cards)(table)
    await sockets[folder].send(op="show_cards", hand=str(hand_id), cards=folded[0])
    await watcher.until(lambda f: f"{folder} shows" in f and folded[0] in cards_in_html(f))
    seen = {card for frame in watcher.frames for card in cards_in_html(frame)}
    assert folded[1] not in seen and not seen & (holes - {folded[0]})
    # It may not act: refused on the socket, nothing changes.
    await watcher.send(op="take_seat", seat="3", buy_in="100")
    answer = await watcher.until(lambda f: "Log in to play" in f)
    assert 'id="table-seats"' not in answer
    assert await sync_to_async(Seat.objects.filter(table=table).count)() == 2
    for socket in (*sockets.values(), watcher):
        await socket.close()


async def test_private_and_club_tables_stay_refused_to_spectators(make_player):
    host = await sync_to_async(make_player)("hostess")
    game = await sync_to_async(table_create)(host=host, name="Secret", private=True)
    assert await refused_with(spectator(game.pk)) == 4404
    assert await refused_with(spectator(game.pk + 1000)) == 4404


async def test_spectators_are_counted_per_address(table, settings):
    settings.POKER_SPECTATOR_SOCKETS_PER_ADDRESS = 2
    first = await Socket("one", spectator(table.pk)).connect()
    second = await Socket("two", spectator(table.pk, ("203.0.113.9", 5001))).connect()
    assert await refused_with(spectator(table.pk, ("203.0.113.9", 5002))) == 4429
    other = await Socket("elsewhere", spectator(table.pk, ("198.51.100.7", 5000))).connect()
    await first.close()  # a closed one frees its place
    again = await Socket("again", spectator(table.pk)).connect()
    for socket in (second, other, again):
        await socket.close()
