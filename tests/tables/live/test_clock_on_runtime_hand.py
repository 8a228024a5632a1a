"""The table's clock acts on its runtime's hand in memory: a bot's action (and a timeout's)
made by the croupier's tick in the runtime's turn is taken on the engine hand the runtime
holds, with nothing read or replayed, and the bot's next version is built from it as a
player's is (a follower told of it builds it too); a timeout, which also sits its player
out, is read after it, so the page shows them sitting out."""

import functools
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tables.croupier import _tick_owned_table
from tables.live.refresh import acted_members, snapshot_acted
from tables.live.runtime import TableRuntime, written_and_read
from tables.models import Player
from tables.selectors.snapshot import load_snapshot
from tables.services import clock, hand_act, seat_take
from tables.services.live_hand import held_hand
from tests.tables.helpers import Calls
from tests.tables.live.test_followers import same_table
from tests.tables.wsclient import Socket, communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

#: More than a bot thinks (``POKER_BOT_DELAY``), less than the action clock.
BOT_THOUGHT = timedelta(seconds=5)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


async def owned_bot_table(make_table, players):
    """Alice and bob seated with a bot, alice's socket on this process's runtime (the
    owner), the bot seated and a hand dealt by the runtime's clock."""
    table = await sync_to_async(make_table)(
        name="Bots", action_seconds=30, time_bank_seconds=0, bots_allowed=True, bot_seats=1
    )
    alice, bob, _ = players
    for seat, player in enumerate((alice, bob)):
        await sync_to_async(seat_take)(table=table, player=player, buy_in=200, seat_number=seat)
    user = await sync_to_async(lambda: Player.objects.select_related("user").get(pk=alice.pk))()
    cookie = await sync_to_async(session_cookie)(user.user)
    socket = await Socket("alice", communicator(table.pk, cookie)).connect()
    runtime = TableRuntime.following(table.pk)
    assert runtime is not None and runtime.owner
    assert await tick(runtime, table.pk) == "bots-seated"
    assert await tick(runtime, table.pk) == "started"
    return table, runtime, socket


async def tick(runtime: TableRuntime, table_id: int, now=None) -> str | None:
    """The croupier's tick of the table in its runtime's turn, as its timers run it."""
    return await runtime.tick(functools.partial(_tick_owned_table, table_id, now or timezone.now()))


def after_thought(runtime: TableRuntime):
    """A moment after the bot to act has thought (its delay counts from the turn's start)."""
    return after_thought_of(runtime.snapshot)


def after_thought_of(snapshot):
    table = snapshot.table
    started = table.action_deadline - timedelta(seconds=table.action_seconds)
    return max(timezone.now(), started + BOT_THOUGHT)


def people_of(runtime: TableRuntime, players) -> dict[int, Player]:
    return {p.pk: p for p in players[:2]}


async def test_a_bots_action_is_taken_on_the_runtimes_hand_and_built_not_read(
    make_table, players, monkeypatch
):
    table, runtime, socket = await owned_bot_table(make_table, players)
    people = people_of(runtime, players)
    users = await sync_to_async(lambda: {p.pk: p.user for p in people.values()})()
    replays = Calls(monkeypatch, clock, "hand_state")  # the clock replaying a hand
    built = 0
    try:
        for _ in range(80):
            snapshot = runtime.snapshot
            if not snapshot.running:
                break
            state = snapshot.state
            player_id = snapshot.hand.seats[state.actor]["player_id"]
            if player_id in people:  # a person checks or calls on the socket's way
                await runtime.request(
                    users[player_id],
                    people[player_id],
                    {
                        "op": "act",
                        "kind": "check" if state.legal.check else "call",
                        "hand": str(snapshot.hand.pk),
                        "version": str(runtime.version),
                    },
                )
                continue
            reads, replayed, version = runtime.reads, replays.count, runtime.version
            assert await tick(runtime, table.pk, after_thought(runtime)) == "bot"
            assert replays.count == replayed, "the clock replayed the hand the runtime holds"
            assert runtime.version == version + 1
            read = await sync_to_async(load_snapshot)(table.pk)
            if runtime.reads == reads:  # built on the runtime's hand, one action later
                built += 1
                assert runtime.snapshot.decisions[-1].source == "bot"
                same_table(runtime.snapshot, read)
            await socket.until_version(runtime.version)  # and shown
        else:
            raise AssertionError("the hand never ended")
    finally:
        await socket.close()
    assert built >= 1, "no bot's action was built from the runtime's hand"


async def test_a_timeout_is_taken_on_the_runtimes_hand_and_read_after(
    make_table, players, monkeypatch
):
    table, runtime, socket = await owned_bot_table(make_table, players)
    people = people_of(runtime, players)
    replays = Calls(monkeypatch, clock, "hand_state")  # the clock replaying a hand
    try:
        for _ in range(20):  # the bots act until a person is to act
            snapshot = runtime.snapshot
            player_id = snapshot.hand.seats[snapshot.state.actor]["player_id"]
            if player_id in people:
                break
            assert await tick(runtime, table.pk, after_thought(runtime)) == "bot"
        else:
            raise AssertionError("no person's turn came")
        reads = runtime.reads
        late = runtime.snapshot.table.action_deadline + timedelta(seconds=1)
        assert await tick(runtime, table.pk, late) == "timeout"
        assert replays.count == 0, "the clock replayed the hand the runtime holds"
        assert runtime.reads == reads + 1  # read: the player sat out, which no action shows
        read = await sync_to_async(load_snapshot)(table.pk)
        assert runtime.snapshot.seat_of(player_id).sitting_out
        same_table(runtime.snapshot, read)
        await socket.until_version(runtime.version)
    finally:
        await socket.close()


async def test_a_bots_action_is_told_to_followers_and_built_there(make_table, players):
    table, runtime, socket = await owned_bot_table(make_table, players)
    people = people_of(runtime, players)
    await socket.close()  # the owner's write is made apart below, as its runtime makes it
    for _ in range(20):  # the people check or call until the bot is to act
        owner = await sync_to_async(load_snapshot)(table.pk)
        state = owner.state
        player_id = owner.hand.seats[state.actor]["player_id"]
        if player_id not in people:
            break
        await sync_to_async(hand_act)(
            table=table.pk,
            player=people[player_id],
            hand_id=owner.hand.pk,
            version=owner.version,
            action="check" if state.legal.check else "call",
        )
    else:
        raise AssertionError("no bot's turn came")
    follower = await sync_to_async(load_snapshot)(table.pk)  # another process's, apart
    live = held_hand(owner)
    work = functools.partial(_tick_owned_table, table.pk, after_thought_of(owner), live)
    written = await sync_to_async(written_and_read)(table.pk, work, owner, live)
    assert written.result == "bot" and written.same_hand and not written.read
    acted = acted_members(written.snapshot)["acted"]  # what the owner's table.changed says
    assert acted[2] == "bot"
    read = await sync_to_async(load_snapshot)(table.pk)
    same_table(written.snapshot, read)
    built = snapshot_acted(follower, written.version, acted)
    assert built is not None
    same_table(built, read)
