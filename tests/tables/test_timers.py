"""Per-table clocks (``tables.timers``): each table's timer is armed at the moment its
deadline says, re-armed when the table changes, fires then (not before) and acts once, even
with two processes' timers on one table, and a restarted process re-arms them from the
database."""

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db.models import F
from django.utils import timezone

from tables.croupier import _tick_table
from tables.models import HandAction, Table, TableLease
from tables.selectors.hands import hand_state, running_hand
from tables.selectors.snapshot import load_snapshot
from tables.services import clock, hand_act, seat_take
from tables.services.clock import DUE_NOW, clock_tick, tables_due_at
from tables.services.events import AFTER_WRITE, local_listeners
from tables.timers import REREAD_DELAY_SECONDS, RETRY_SECONDS, TableTimers, write_tick

pytestmark = pytest.mark.django_db(transaction=True)


def heads_up_hand(make_table, players, name: str = "Timers") -> Table:
    """A heads-up hand under way with a 10 s clock (started by the clock service)."""
    table = make_table(name=name, action_seconds=10, time_bank_seconds=0)
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=1)
    assert clock_tick(table=table, now=timezone.now()) == "started"
    return Table.objects.get(pk=table.pk)


def deadline_in(table: Table, seconds: float) -> Table:
    Table.objects.filter(pk=table.pk).update(
        action_deadline=timezone.now() + timedelta(seconds=seconds)
    )
    return Table.objects.get(pk=table.pk)


def timeouts(table: Table) -> list[HandAction]:
    return list(HandAction.objects.filter(hand__table=table, source="timeout"))


def act_for_the_actor(table: Table) -> None:
    table = Table.objects.get(pk=table.pk)
    hand = running_hand(table)
    state = hand_state(hand)
    player = table.seats.get(player_id=hand.seats[state.actor]["player_id"]).player
    hand_act(
        table=table,
        player=player,
        hand_id=hand.pk,
        version=table.version,
        action="check" if state.legal.check else "call",
    )


@pytest.fixture
async def timers():
    made = []

    def make() -> TableTimers:
        timers = TableTimers(write_tick(_tick_table))
        made.append(timers)
        return timers

    yield make
    for timers in made:
        timers.close()


async def test_a_table_clock_is_armed_at_its_deadline_and_moves_with_the_table(
    make_table, players, timers
):
    table = await sync_to_async(heads_up_hand)(make_table, players)
    clocks = timers()
    await clocks.resync()
    assert clocks.armed_at(table.pk) == table.action_deadline
    local_listeners.append(clocks.changed)
    try:
        await sync_to_async(act_for_the_actor)(table)  # the next player's clock starts
        moved = await Table.objects.aget(pk=table.pk)
        assert moved.action_deadline != table.action_deadline
        await wait_until(
            lambda: clocks.armed_at(table.pk) == moved.action_deadline,
            timeout=10,
            what="the timer re-armed at the new deadline",
        )
    finally:
        local_listeners.remove(clocks.changed)
    assert clocks.fired == 0  # nothing polled: no timer fired before its deadline


async def test_tables_changed_while_a_read_is_on_its_way_are_read_together(
    make_table, players, timers
):
    """Three tables change before the timers' re-read has begun: one query reads all
    three and arms each at its own deadline; a table that changes during that read is read
    again after it. A tick that ended joins the same reads."""
    tables = []
    for seconds in (20, 40, 60):
        table = await sync_to_async(heads_up_hand)(make_table, players, f"Timers {seconds}")
        tables.append(await sync_to_async(deadline_in)(table, seconds))
    clocks = timers()
    for table in tables:  # no await between them: the read has not begun
        clocks.changed({"type": "table.changed", "table_id": table.pk, "version": table.version})
    await wait_until(
        lambda: clocks.rereader is not None and clocks.rereader.done(),
        timeout=10,
        what="the re-read of the changed tables",
    )
    assert clocks.rereads == 1
    assert [clocks.armed_at(t.pk) for t in tables] == [t.action_deadline for t in tables]

    # a change during a read in flight is read once more, after it
    moved = await sync_to_async(deadline_in)(tables[0], 90)
    clocks.changed({"type": "table.changed", "table_id": tables[1].pk, "version": 0})
    await wait_until(lambda: clocks.rereads == 2, timeout=10, what="the read of tables[1] begun")
    clocks.changed({"type": "table.changed", "table_id": tables[0].pk, "version": 0})
    await wait_until(
        lambda: clocks.rereader.done() and clocks.armed_at(tables[0].pk) == moved.action_deadline,
        timeout=10,
        what="the table changed during the read, read again",
    )
    assert clocks.rereads == 3


def moved_on(table: Table, seconds: float) -> Table:
    """``table`` one version later, its clock running out in ``seconds``."""
    Table.objects.filter(pk=table.pk).update(
        action_deadline=timezone.now() + timedelta(seconds=seconds), version=F("version") + 1
    )
    return Table.objects.get(pk=table.pk)


def written(table: Table, **event) -> dict:
    """The change event a runtime here publishes after its write of ``table`` (as it is
    now in the database): with the table after it, for this process's listeners."""
    snapshot = load_snapshot(table.pk)
    return {
        "type": "table.changed",
        "table_id": table.pk,
        "version": snapshot.version,
        AFTER_WRITE: snapshot,
        **event,
    }


async def test_a_change_its_runtime_made_arms_the_timer_without_a_read(make_table, players, timers):
    """The table after a runtime's write comes with its change (``AFTER_WRITE``): the timer
    is armed at once at the moment the database would say, and nothing is read; a change
    without it (another writer's) is read again."""
    table = await sync_to_async(heads_up_hand)(make_table, players)
    clocks = timers()
    moved = await sync_to_async(moved_on)(table, 40)
    clocks.changed(await sync_to_async(written)(moved))
    assert clocks.armed_at(table.pk) == moved.action_deadline  # at once
    await asyncio.sleep(REREAD_DELAY_SECONDS * 4)
    assert clocks.rereads == 0
    assert (await sync_to_async(tables_due_at)([table.pk]))[table.pk] == moved.action_deadline

    moved = await sync_to_async(moved_on)(table, 60)
    clocks.changed({"type": "table.changed", "table_id": table.pk, "version": moved.version})
    await wait_until(
        lambda: clocks.armed_at(table.pk) == moved.action_deadline,
        timeout=10,
        what="the change without the table read again",
    )
    assert clocks.rereads == 1


async def test_a_runtimes_change_older_than_one_heard_or_than_a_read_is_not_armed_from(
    make_table, players, timers
):
    """The table after a runtime's write arms nothing where the timers heard of a newer
    version already (another writer's change came first): the table is read again. And a
    read begun before a runtime's change arms nothing for that table: it may predate it."""
    table = await sync_to_async(heads_up_hand)(make_table, players)
    clocks = timers()
    older = await sync_to_async(written)(await sync_to_async(moved_on)(table, 40))
    newer = await sync_to_async(moved_on)(table, 60)
    clocks.changed({"type": "table.changed", "table_id": table.pk, "version": older["version"] + 1})
    clocks.changed(older)
    await wait_until(
        lambda: clocks.rereader.done() and clocks.armed_at(table.pk) == newer.action_deadline,
        timeout=10,
        what="the table read again",
    )
    assert clocks.rereads == 1

    # a resync that read the table before the runtime's change arms nothing for it
    stale = await sync_to_async(tables_due_at)([table.pk])
    told = await sync_to_async(written)(await sync_to_async(moved_on)(table, 80))
    real = clock.tables_due_at

    def read_then_told(table_ids):
        clocks.loop.call_soon_threadsafe(clocks.changed, told)
        return stale

    clock.tables_due_at = read_then_told
    try:
        await clocks.resync([table.pk])
    finally:
        clock.tables_due_at = real
    assert clocks.armed_at(table.pk) == told[AFTER_WRITE].table.action_deadline


async def test_what_was_heard_of_a_table_goes_once_it_is_no_longer_looked_after(
    make_table, players, timers
):
    """The versions heard of a table and its runtime's last word on it are forgotten by the
    first whole resync that no longer finds the table (closed): the timers keep nothing of
    tables that went."""
    table = await sync_to_async(heads_up_hand)(make_table, players)
    clocks = timers()
    clocks.changed(await sync_to_async(written)(await sync_to_async(moved_on)(table, 40)))
    assert table.pk in clocks.versions and table.pk in clocks.told
    await clocks.resync()
    assert table.pk in clocks.versions  # still looked after
    await Table.objects.filter(pk=table.pk).aupdate(status=Table.Status.CLOSED)
    await clocks.resync()
    assert table.pk not in clocks.versions and table.pk not in clocks.told
    assert clocks.armed_at(table.pk) is None


async def test_a_tick_that_wrote_through_its_runtime_arms_from_its_write_without_a_read(
    make_table, players
):
    """A tick run in the turn of the table's runtime here publishes its change with the
    table after it while the tick is under way: the timer is armed from that when the tick
    ends, without reading the table again."""
    table = await sync_to_async(heads_up_hand)(make_table, players)
    table = await sync_to_async(deadline_in)(table, -1)

    async def tick(table_id, now):
        clocks.changed(await sync_to_async(written)(await sync_to_async(moved_on)(table, 50)))
        return "acted"

    clocks = TableTimers(tick)
    try:
        await clocks.resync()
        await wait_until(lambda: clocks.fired and not clocks.ticking, timeout=10, what="the tick")
        moved = await Table.objects.aget(pk=table.pk)
        assert clocks.armed_at(table.pk) == moved.action_deadline
        await asyncio.sleep(REREAD_DELAY_SECONDS * 4)
        assert clocks.rereads == 0
    finally:
        clocks.close()


async def test_tables_ticked_together_are_read_again_together(make_table, players):
    """Two tables due at once: their ticks end together and one query reads both next
    moments; each tick did nothing there, so each is looked at again ``RETRY_SECONDS``
    later, not ticked on and on."""
    tables = []
    for name in ("Ticked 1", "Ticked 2"):
        table = await sync_to_async(heads_up_hand)(make_table, players, name)
        tables.append(await sync_to_async(deadline_in)(table, -1))
    ticked = []

    async def nothing_done(table_id, now):
        ticked.append(table_id)
        return None

    clocks = TableTimers(nothing_done)
    try:
        before = timezone.now()
        await clocks.resync()
        await wait_until(
            lambda: len(ticked) == 2 and all(clocks.armed_at(t.pk) for t in tables),
            timeout=10,
            what="both tables ticked and armed again",
        )
        assert sorted(ticked) == sorted(t.pk for t in tables)
        assert clocks.rereads == 1
        for table in tables:
            assert clocks.armed_at(table.pk) >= before + timedelta(seconds=RETRY_SECONDS)
    finally:
        clocks.close()


async def test_a_tick_that_ends_after_the_timers_closed_arms_nothing(make_table, players):
    table = await sync_to_async(heads_up_hand)(make_table, players, "Closing")
    table = await sync_to_async(deadline_in)(table, -1)
    release = asyncio.Event()

    async def slow_tick(table_id, now):
        await release.wait()
        return "acted"

    clocks = TableTimers(slow_tick)
    await clocks.resync()
    await wait_until(lambda: clocks.ticking, timeout=10, what="the tick under way")
    (tick,) = clocks.ticking.values()
    clocks.close()
    release.set()
    await asyncio.wait_for(tick, timeout=10)  # the tick ends by scheduling its re-read, if any
    assert clocks.rereader is None
    assert clocks.armed_at(table.pk) is None


async def test_a_clock_fires_at_its_deadline_and_the_clock_acts_once(make_table, players, timers):
    table = await sync_to_async(heads_up_hand)(make_table, players)
    table = await sync_to_async(deadline_in)(table, 0.3)
    # Two processes' clocks on one table: the locked, versioned service acts once.
    first, second = timers(), timers()
    await first.resync()
    await second.resync()
    await wait_until(
        lambda: (
            first.fired
            and second.fired
            and not first.ticking
            and not second.ticking
            and first.armed_at(table.pk) is not None
        ),
        timeout=20,
        what="both timers fired, their ticks ended and the first armed again",
    )
    acted = await sync_to_async(timeouts)(table)
    assert len(acted) == 1
    assert acted[0].created_at >= table.action_deadline  # at its deadline, not before
    later = await Table.objects.aget(pk=table.pk)
    assert later.version > table.version


async def test_a_restarted_process_rearms_the_clocks_from_the_database(make_table, players, timers):
    table = await sync_to_async(heads_up_hand)(make_table, players)
    table = await sync_to_async(deadline_in)(table, 0.3)
    stopped = timers()
    await stopped.resync()
    stopped.close()  # the process died before the deadline: its timers are gone
    assert stopped.armed_at(table.pk) is None
    await times_out_once(timers(), table, timeout=20, what="the restarted process's timer fired")


async def test_a_due_table_with_nothing_to_do_is_looked_at_again_later(
    make_table, make_player, timers
):
    """One player waiting at an open table: due (a hand may start once someone sits down),
    nothing to do; the timer is armed again ``RETRY_SECONDS`` later, not fired on and on."""
    table = await sync_to_async(make_table)(name="Waiting")
    alone = await sync_to_async(make_player)("alone")
    await sync_to_async(seat_take)(table=table, player=alone, buy_in=200)
    clocks = timers()
    before = timezone.now()
    await clocks.resync()
    assert clocks.armed_at(table.pk) == DUE_NOW
    await wait_until(
        lambda: clocks.fired == 1 and not clocks.ticking and clocks.armed_at(table.pk),
        timeout=10,
        what="the timer fired once and was armed again",
    )
    assert clocks.armed_at(table.pk) >= before + timedelta(seconds=RETRY_SECONDS)
    assert clocks.fired == 1


async def test_a_table_another_process_runs_is_left_to_it_until_its_lease_expires(
    make_table, players, timers
):
    """Another process holds the table's lease: its clock runs the table, so this process's
    timers arm nothing there however often they resync. Once that lease has run out (its
    owner died), the next resync arms the timer and this process's clock acts."""
    table = await sync_to_async(heads_up_hand)(make_table, players)
    table = await sync_to_async(deadline_in)(table, -1)
    await TableLease.objects.acreate(
        table=table, owner="other:1", until=timezone.now() + timedelta(minutes=1)
    )
    clocks = timers()
    for _ in range(3):
        await clocks.resync()
        assert clocks.armed_at(table.pk) is None
        await asyncio.sleep(RETRY_SECONDS)
    assert clocks.fired == 0 and not await sync_to_async(timeouts)(table)

    await TableLease.objects.filter(table=table).aupdate(
        until=timezone.now() - timedelta(seconds=1)
    )
    await times_out_once(clocks, table, timeout=10, what="the timer fired once the lease ran out")


async def test_a_timer_armed_before_another_process_took_the_table_fires_once_and_stops(
    make_table, players, timers
):
    """The lease changes hands between the read and the fire: the tick looks at the lease
    and does nothing, and the table, read again, is left alone (not looked at again every
    ``RETRY_SECONDS``)."""
    table = await sync_to_async(heads_up_hand)(make_table, players)
    table = await sync_to_async(deadline_in)(table, 0.3)
    clocks = timers()
    await clocks.resync()
    assert clocks.armed_at(table.pk) == table.action_deadline
    await TableLease.objects.acreate(
        table=table, owner="other:1", until=timezone.now() + timedelta(minutes=1)
    )
    await wait_until(
        lambda: clocks.fired and not clocks.ticking and clocks.rereads,
        timeout=10,
        what="the timer fired and the table was read again",
    )
    await wait_until(lambda: clocks.rereader.done(), timeout=10, what="the re-read")
    assert clocks.armed_at(table.pk) is None
    await asyncio.sleep(RETRY_SECONDS * 3)
    assert clocks.fired == 1 and not await sync_to_async(timeouts)(table)


async def times_out_once(clocks: TableTimers, table: Table, *, timeout: float, what: str) -> None:
    """A resync arms ``clocks`` at ``table``'s action deadline, the timer fires, and the clock
    makes the table's one timeout."""
    await clocks.resync()
    assert clocks.armed_at(table.pk) == table.action_deadline
    await wait_until(lambda: clocks.fired and not clocks.ticking, timeout=timeout, what=what)
    assert len(await sync_to_async(timeouts)(table)) == 1


async def wait_until(predicate, *, timeout: float, what: str) -> None:
    """Until ``predicate()`` holds, looked at every 20 ms; ``TimeoutError`` naming ``what``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.02)
