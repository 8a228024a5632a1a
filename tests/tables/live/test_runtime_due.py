"""The next moment of a table that its runtime tells the croupier's timers after each of its
writes (``clock.due_after_write``, off the table as the write left it) is the one the timers
would read from the database (``clock.tables_due_at``): over hands played through a runtime,
its actions, a hand's end, a deal, players sitting out and leaving, a bot seated, a paused
table."""

import functools
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tables.croupier import _tick_owned_table
from tables.live.runtime import TableRuntime
from tables.models import Player, Table
from tables.services import seat_take, table_pause
from tables.services.clock import DUE_NOW, due_after_write, tables_due_at
from tables.services.events import AFTER_WRITE, local_listeners
from tests.tables.wsclient import Socket, communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

#: More than a bot thinks (``POKER_BOT_DELAY``), less than the action clock.
BOT_THOUGHT = timedelta(seconds=5)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


class Told:
    """What the runtime tells this process's listeners after each write of the table, checked
    against the database after each write."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.dues: list[object] = []
        self.checked: list[tuple[str, object]] = []

    def __call__(self, event: dict) -> None:
        after = event.get(AFTER_WRITE)
        if event.get("table_id") == self.table_id and after is not None:
            self.dues.append(due_after_write(after))

    async def agrees(self, what: str) -> None:
        assert self.dues, f"{what}: the runtime told nothing"
        told = set(self.dues)
        self.dues.clear()
        read = (await sync_to_async(tables_due_at)([self.table_id])).get(self.table_id)
        assert told == {read}, f"{what}: told {told}, the database says {read}"
        self.checked.append((what, read))


@pytest.mark.parametrize("bots", [True, False], ids=["a bot seated", "people only"])
async def test_the_next_moment_told_after_each_write_is_the_one_read_from_the_database(
    make_table, players, bots
):
    table = await sync_to_async(make_table)(
        name="Due", action_seconds=30, time_bank_seconds=0, bots_allowed=bots, bot_seats=bots
    )
    alice, bob, carol = players
    people = {p.pk: p for p in ((alice, bob) if bots else players)}
    if not bots:  # a bot account plays like a person: not a bot of the croupier's
        await Player.objects.filter(pk=carol.pk).aupdate(bot_account=True)
    for seat, player in enumerate(people.values()):
        await sync_to_async(seat_take)(table=table, player=player, buy_in=200, seat_number=seat)
    users = {
        p.pk: p.user
        for p in await sync_to_async(lambda: [*Player.objects.select_related("user")])()
    }
    told = Told(table.pk)
    local_listeners.append(told)
    socket = await Socket(
        "alice", communicator(table.pk, await sync_to_async(session_cookie)(users[alice.pk]))
    ).connect()
    runtime = TableRuntime.following(table.pk)
    assert runtime is not None and runtime.owner

    async def tick(what: str, now=None) -> str | None:
        work = functools.partial(_tick_owned_table, table.pk, now or timezone.now())
        done = await runtime.tick(work)
        await told.agrees(f"{what} ({done})")
        return done

    async def ask(player, what: str, **data) -> None:
        await runtime.request(users[player.pk], player, data)
        await told.agrees(what)

    async def play_hand(during=None) -> None:
        """Each turn played until the hand ends (``during``: run once, at the second turn)."""
        for turn in range(80):
            snapshot = runtime.snapshot
            if not snapshot.running:
                return
            if turn == 1 and during is not None:
                await during()
                continue
            state, hand = snapshot.state, snapshot.hand
            player_id = hand.seats[state.actor]["player_id"]
            person = people.get(player_id)
            seat = snapshot.seat_of(player_id)
            if person is None or seat.sitting_out or seat.leave_after_hand:
                # a bot, or a person away: the clock acts once the bot has thought
                deadline = snapshot.table.action_deadline
                thought = deadline - timedelta(seconds=snapshot.table.action_seconds) + BOT_THOUGHT
                await tick("the clock acts", max(timezone.now(), thought))
                continue
            await ask(
                person,
                "an action",
                op="act",
                kind="check" if state.legal.check else "call",
                hand=str(hand.pk),
                version=str(runtime.version),
            )
        raise AssertionError("the hand never ended")

    try:
        if bots:
            assert await tick("a bot seated") == "bots-seated"
        assert await tick("a deal") == "started"
        await play_hand(during=lambda: ask(alice, "sitting out in a hand", op="sit_out"))
        await ask(alice, "sitting in between hands", op="sit_in")
        after_pause = (await Table.objects.aget(pk=table.pk)).next_hand_at
        assert await tick("the next deal", after_pause) == "started"
        await play_hand(during=lambda: ask(bob, "leaving in a hand", op="leave"))
        await ask(alice, "sitting out between hands", op="sit_out")
        await ask(alice, "sitting in between hands", op="sit_in")
        await sync_to_async(table_pause)(table=table)
        paused = (await Table.objects.aget(pk=table.pk)).version
        await runtime.call(lambda: runtime._refresh())
        assert runtime.version == paused
        await ask(alice, "sitting out at a paused table", op="sit_out")
    finally:
        local_listeners.remove(told)
        await socket.close()
    # every kind of moment was told: at once, a turn's clock, the next hand's start, none
    moments = [at for _, at in told.checked]
    assert DUE_NOW in moments and None in moments
    assert any(at not in (DUE_NOW, None) for what, at in told.checked if "action" in what)
    if not bots:  # (bots to seat make a table between hands due at once)
        assert any(at not in (DUE_NOW, None) for what, at in told.checked if "sitting in" in what)
