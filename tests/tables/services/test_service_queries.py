"""How many queries the write path of a hand costs, pinned so that a regression fails.

Every action, deal and hand end runs through ``hand_act`` / ``hand_start`` under the table
row lock, so each query there is paid on every click by everyone, and holds the lock while
it runs. The counts below are what the services need and must not grow with the number of
seats or of actions already taken:

- an action: lock the table, read the hand and its action log, insert the action, write the
  one stack it moved (if any), write the clock with the new version;
- a hand end: the same, plus the hand's result, the per-player rows, one read of the seats
  that bust or leave (and one delete when someone busted);
- a deal: lock, one read of the latest hand (running? next number?), one read of the seats,
  insert the hand and its secret (deck and seed: a row of their own, out of the admin's
  reach), one UPDATE for the blinds and antes, the table with the new version; the same when
  the croupier deals (``clock_tick``): who is dealt is read once, for its checks and the deal;
- an action with the hand a table's runtime holds in memory (``LiveHand``): no read of the
  hand or its log;
- the clock acting for a player out of time: its own reads (the hand, its log, the seat),
  then the action on the hand it read, under the lock it took, without reading either again;
- a runtime's action in the transaction of its lease (``lease_fenced``): the lease checked in
  the statement that locks the table, and the action without a savepoint of its own.

Inside the tests' transaction the service's own transaction is a savepoint: two more
statements (``SAVEPOINT`` / ``RELEASE``), as ``BEGIN`` / ``COMMIT`` are in production.
On PostgreSQL the writes that end a change (its log entry, the stacks, the table's version)
travel in one trip (``tables.db.statements.Batch``): each is still counted as a statement, and the
trips are fewer.
"""

import re
from datetime import timedelta
from functools import partial

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.models import Hand, HandAction, Player, Seat, Table
from tables.selectors.hands import hand_decisions, hand_state
from tables.services import hand_act, hand_start, seat_leave, seat_take
from tables.services.clock import clock_tick
from tables.services.events import lease_fenced
from tables.services.leases import lease_take
from tables.services.live_hand import LiveHand
from tables.services.seat_requests import seat_ask

pytestmark = pytest.mark.django_db

# On PostgreSQL a move of a hand still being played also says it need not wait for the disk
# in its table UPDATE's statement (``statements.update``'s ``wait_for_disk``): none more.

#: savepoint, table lock, hand, action log, INSERT action, <= 1 seat UPDATE, table UPDATE,
#: release.
ACTION_QUERIES = 8
#: The same + hand UPDATE, PlayerHand INSERT, SELECT the seats that bust or leave.
HAND_END_QUERIES = 8 + 3
#: savepoint, table lock, latest hand, seats, INSERT hand, INSERT its secret, one seat
#: UPDATE, table UPDATE, release.
DEAL_QUERIES = 9
#: On PostgreSQL the same, the secret's INSERT, the seats' UPDATE and the table's in one trip.
DEAL_TRIPS_POSTGRES = 7
#: savepoint, table lock, INSERT action, <= 1 seat UPDATE, table UPDATE, release.
LIVE_ACTION_QUERIES = 6
#: The fence's savepoint (its transaction, in production), the table locked with the lease,
#: INSERT action, <= 1 seat UPDATE, table UPDATE, the fence's release.
FENCED_LIVE_ACTION_QUERIES = 6
#: On PostgreSQL the same, its writes (INSERT action, seat UPDATE, table UPDATE) in one trip
#: (``tables.db.statements.Batch``): savepoint, lock, the writes, release.
FENCED_LIVE_ACTION_TRIPS_POSTGRES = 4
#: savepoint, table lock, hand, action log, the actor's seat; the action under the tick's lock:
#: savepoint, INSERT action, seat UPDATE (sat out), <= 1 seat UPDATE (stack), table UPDATE,
#: release; release.
TIMEOUT_QUERIES = 12
#: savepoint, table lock, the seats (seated? free? a game going?), the player's last cash-out
#: from the table (the reseat wait and the rejoining minimum), player lock, bankroll UPDATE,
#: INSERT ledger entry, INSERT seat, table UPDATE, release.
SIT_DOWN_QUERIES = 10


#: Where one statement ends and the next begins in a query text that carries several (the
#: writes of a ``tables.db.statements.Batch`` on PostgreSQL, sent in one trip).
NEXT_STATEMENT = re.compile(r"; (?=(?:INSERT|UPDATE|DELETE|SET LOCAL) )")


def statements(captured, prefix: str) -> int:
    """How many statements begin with ``prefix``, each of a batch's counted."""
    return sum(
        1
        for query in captured.captured_queries
        for statement in NEXT_STATEMENT.split(query["sql"])
        if statement.startswith(prefix)
    )


def trips(captured) -> int:
    """How many times the database was called: a batch's writes are one."""
    return len(captured.captured_queries)


def seat_players(make_player, table, count: int, buy_in: int = 100) -> list:
    players = [make_player(f"p{i}") for i in range(count)]
    for player in players:
        seat_take(table=table, player=player, buy_in=buy_in)
    return players


def ready(hand: Hand, move: str):
    """Everything the caller of ``hand_act`` knows before it acts (read outside the count):
    its keyword arguments, and whether ``move`` ends the hand."""
    state = hand_state(hand)
    player = Player.objects.get(pk=hand.seats[state.actor]["player_id"])
    version = Table.objects.get(pk=hand.table_id).version
    state.act(move)
    kwargs = {
        "table": hand.table_id,
        "player": player,
        "hand_id": hand.pk,
        "version": version,
        "action": move,
    }
    return kwargs, state.is_over


def assert_seats_follow_the_engine(hand: Hand) -> None:
    """Writing only the stacks that moved still leaves every seat at the engine's stack."""
    state = hand_state(hand)
    stacks = dict(Seat.objects.filter(table_id=hand.table_id).values_list("player_id", "stack"))
    for start, stack in zip(hand.seats, state.stacks, strict=True):
        assert stacks.get(start["player_id"], 0) == stack


@pytest.mark.parametrize("count", [2, 6])
def test_a_deal_costs_the_same_few_queries_for_any_number_of_seats(
    make_player, make_table, count, django_assert_max_num_queries
):
    table = make_table(ante=1)  # antes: every stack moves, still one UPDATE of the seats
    seat_players(make_player, table, count)
    with django_assert_max_num_queries(DEAL_QUERIES) as captured:
        hand = hand_start(table=table)
    assert statements(captured, 'UPDATE "tables_seat"') == 1
    assert statements(captured, 'UPDATE "tables_table"') == 1  # clock, button and version
    assert statements(captured, 'INSERT INTO "tables_handsecret"') == 1
    postgres = connection.vendor == "postgresql"
    assert trips(captured) == (DEAL_TRIPS_POSTGRES if postgres else DEAL_QUERIES)
    assert_seats_follow_the_engine(hand)


@pytest.mark.parametrize("count", [2, 6])
def test_an_action_costs_the_same_few_queries_all_hand_long(
    make_player, make_table, count, django_assert_max_num_queries
):
    table = make_table()
    seat_players(make_player, table, count)
    hand = hand_start(table=table)
    actions = 0
    while True:
        # call or check to the river, so the hand ends in a showdown
        move = "check" if hand_state(hand).legal.check else "call"
        kwargs, ends = ready(hand, move)
        if ends:
            break
        with django_assert_max_num_queries(ACTION_QUERIES) as captured:
            hand_act(**kwargs)
        assert statements(captured, 'UPDATE "tables_seat"') <= 1  # only the stack it moved
        assert statements(captured, 'UPDATE "tables_table"') == 1  # clock and version at once
        assert_seats_follow_the_engine(hand)
        actions += 1
    assert actions >= 2 * count - 1  # preflop and three streets of checks

    with django_assert_max_num_queries(HAND_END_QUERIES) as captured:
        hand_act(**kwargs)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED
    assert statements(captured, 'UPDATE "tables_seat"') <= 1  # the winners' stacks at once
    assert statements(captured, 'UPDATE "tables_table"') == 1
    assert_seats_follow_the_engine(hand)


def all_in_or_call(hand: Hand) -> str:
    legal = hand_state(hand).legal
    if legal.max_raise_to is not None:
        return "all_in"
    return "check" if legal.check else "call"


def test_a_hand_that_busts_a_player_costs_one_delete_more(
    make_player, table, django_assert_max_num_queries
):
    seat_players(make_player, table, 2, buy_in=40)
    for _ in range(30):  # all in every hand: someone busts unless every hand is split
        hand = hand_start(table=table)
        while True:
            hand.refresh_from_db()
            if not hand.is_running:
                break
            kwargs, ends = ready(hand, all_in_or_call(hand))
            bound = HAND_END_QUERIES + 1 if ends else ACTION_QUERIES
            with django_assert_max_num_queries(bound) as captured:
                hand_act(**kwargs)
        if Seat.objects.count() < 2:
            break
    assert Seat.objects.count() == 1
    assert statements(captured, 'UPDATE "tables_seat"') == 1  # loser and winner at once
    assert statements(captured, 'DELETE FROM "tables_seat"') == 1


def synchronous_commit() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        return cursor.fetchone()[0]


def as_a_new_transaction_starts() -> None:
    """Inside the test's transaction each service's is a savepoint, so what a service set
    for its transaction (``SET LOCAL``) is still in force when it returns: set it back."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL synchronous_commit TO ON")


@pytest.mark.postgres
def test_only_the_moves_of_a_running_hand_commit_without_waiting_for_the_disk(
    make_player, make_table
):
    table = make_table()
    seat_players(make_player, table, 2)
    assert synchronous_commit() == "on"  # buy-ins (bankrolls) wait for the disk
    hand = hand_start(table=table)
    assert synchronous_commit() == "off"  # the deal
    as_a_new_transaction_starts()
    kwargs, ends = ready(hand, "call")
    assert not ends
    hand_act(**kwargs)
    assert synchronous_commit() == "off"  # a move, the hand goes on
    as_a_new_transaction_starts()
    kwargs, _ = ready(hand, f"raise {hand_state(hand).legal.min_raise_to}")
    hand_act(**kwargs)
    as_a_new_transaction_starts()
    kwargs, ends = ready(hand, "fold")
    assert ends
    hand_act(**kwargs)
    assert synchronous_commit() == "on"  # the hand's end: stacks, results, cash-outs


def table_locks(captured) -> int:
    return statements(captured, 'SELECT "tables_table"."id", "tables_table"."name"')


def leases_read(captured) -> list[str]:
    """Each statement that names the lease's table: "lock" where it is the table's lock."""
    table_lock = 'SELECT "tables_table"."id", "tables_table"."name"'
    return [
        "lock" if query["sql"].startswith(table_lock) else query["sql"]
        for query in captured.captured_queries
        if '"tables_tablelease"' in query["sql"]
    ]


@pytest.mark.parametrize("count", [2, 6])
def test_the_croupier_deals_with_as_few_queries_as_a_deal_and_reads_the_seats_once(
    make_player, make_table, count
):
    table = make_table(ante=1, action_seconds=20)
    seat_players(make_player, table, count)
    now = timezone.now() + timedelta(minutes=5)  # the tick's time, not the time now
    for _ in range(2):  # the first hand, and one after another
        with CaptureQueriesContext(connection) as captured:
            assert clock_tick(table=table.pk, now=now) == "started"
        assert len(captured.captured_queries) <= DEAL_QUERIES
        assert table_locks(captured) == 1  # the deal is made under the tick's lock
        assert statements(captured, 'SELECT "tables_seat"."id" AS "pk"') == 1  # who is dealt
        assert statements(captured, 'UPDATE "tables_table"') == 1  # clock, button and version
        hand = Hand.objects.get(table=table, status=Hand.Status.RUNNING)
        assert_seats_follow_the_engine(hand)
        fresh = Table.objects.get(pk=table.pk)
        assert fresh.action_deadline == now + timedelta(seconds=20)  # from the tick's time
        assert fresh.next_hand_at is None and fresh.hand_version == fresh.version
        hand_act(**ready(hand, "fold" if count == 2 else "call")[0])
        if count > 2:
            break
        now += timedelta(minutes=5)  # past the pause after the hand


def test_the_croupier_finds_where_the_big_blind_was_in_the_hand_it_read(make_player, make_table):
    """A seat waiting for the big blind: where it was comes from the latest hand the tick
    read already, not from a second read of it."""
    table = make_table(action_seconds=20)
    seat_players(make_player, table, 3)
    now = timezone.now() + timedelta(minutes=5)
    assert clock_tick(table=table.pk, now=now) == "started"
    hand = Hand.objects.get(table=table, status=Hand.Status.RUNNING)
    for _ in range(2):
        hand_act(**ready(hand, "fold")[0])
    late = make_player("late")
    seat_take(table=table, player=late, buy_in=100)
    assert Seat.objects.get(player=late).wait_for_big_blind
    with CaptureQueriesContext(connection) as captured:
        assert clock_tick(table=table.pk, now=now + timedelta(minutes=5)) == "started"
    assert statements(captured, 'SELECT "tables_hand"') == 1  # the latest hand: read once
    assert len(captured.captured_queries) <= DEAL_QUERIES + 1  # + the waiting seat's UPDATE


@pytest.mark.parametrize("count", [2, 6])
def test_an_action_on_the_runtimes_hand_reads_nothing_but_the_lock(
    make_player, make_table, count, django_assert_max_num_queries
):
    table = make_table()
    seat_players(make_player, table, count)
    hand = hand_start(table=table)
    for _ in range(count):
        move = "check" if hand_state(hand).legal.check else "call"
        kwargs, ends = ready(hand, move)
        if ends:
            break
        decisions = hand_decisions(hand)
        live = LiveHand(kwargs["version"], hand, decisions, hand_state(hand, decisions))
        with django_assert_max_num_queries(LIVE_ACTION_QUERIES) as captured:
            hand_act(**kwargs, live=live)
        assert not live.spent and live.version == kwargs["version"] + 1
        assert table_locks(captured) == 1
        assert statements(captured, 'UPDATE "tables_seat"') <= 1
        assert_seats_follow_the_engine(hand)


@pytest.mark.parametrize("count", [2, 6])
def test_a_runtimes_fenced_action_opens_no_savepoint_of_its_own(
    make_player, make_table, count, django_assert_max_num_queries
):
    """Any error of the action rolls the lease's transaction back whole: the action's own
    savepoint would undo nothing more, and cost two statements on every action."""
    table = make_table()
    seat_players(make_player, table, count)
    hand = hand_start(table=table)
    epoch = lease_take(table.pk, "runtime", "chan")
    for _ in range(count):
        move = "check" if hand_state(hand).legal.check else "call"
        kwargs, ends = ready(hand, move)
        if ends:
            break
        decisions = hand_decisions(hand)
        live = LiveHand(kwargs["version"], hand, decisions, hand_state(hand, decisions))
        with django_assert_max_num_queries(FENCED_LIVE_ACTION_QUERIES) as captured:
            lease_fenced(table.pk, "runtime", epoch, partial(hand_act, **kwargs, live=live))
        assert statements(captured, "SAVEPOINT") == 1  # the fence's, inside the tests' one
        assert leases_read(captured) == ["lock"]  # checked in the table's lock
        assert table_locks(captured) == 1
        assert statements(captured, 'INSERT INTO "tables_handaction"') == 1
        assert statements(captured, 'UPDATE "tables_table"') == 1
        seat_writes = statements(captured, 'UPDATE "tables_seat"')
        if connection.vendor == "postgresql":
            assert trips(captured) == FENCED_LIVE_ACTION_TRIPS_POSTGRES
        else:
            assert trips(captured) == FENCED_LIVE_ACTION_QUERIES - 1 + seat_writes
        assert not live.spent and live.version == kwargs["version"] + 1
        assert_seats_follow_the_engine(hand)


def version_locks(captured) -> int:
    """The table's lock that reads its version and ``hand_version`` alone."""
    return statements(captured, 'SELECT "tables_table"."version" AS "version"')


def row_values(table: Table) -> dict[str, object]:
    return {field.attname: getattr(table, field.attname) for field in Table._meta.concrete_fields}


def test_a_runtimes_action_on_the_row_it_holds_locks_it_reading_the_version_alone(
    make_player, make_table, django_assert_max_num_queries
):
    """The runtime holds the table's row (``LiveHand.table``): its action's lock reads only
    what the stale-click check needs, and the row it goes on with is the database's, column
    for column; once another writer moved the table on, the whole row is read again."""
    table = make_table(action_seconds=30)
    seat_players(make_player, table, 3)
    hand = hand_start(table=table)
    epoch = lease_take(table.pk, "runtime", "chan")
    kwargs, _ = ready(hand, "call")
    decisions = hand_decisions(hand)
    held = Table.objects.get(pk=table.pk)
    as_held = row_values(held)
    live = LiveHand(kwargs["version"], hand, decisions, hand_state(hand, decisions), table=held)
    for move in ("call", "call"):
        kwargs, _ = ready(hand, move)
        with django_assert_max_num_queries(FENCED_LIVE_ACTION_QUERIES) as captured:
            lease_fenced(table.pk, "runtime", epoch, partial(hand_act, **kwargs, live=live))
        assert version_locks(captured) == 1 and table_locks(captured) == 0
        assert len(leases_read(captured)) == 1  # the lease checked in that lock
        assert live.table is not None
        assert row_values(live.table) == row_values(Table.objects.get(pk=table.pk))
        assert not live.spent and live.version == kwargs["version"] + 1
    assert row_values(held) == as_held  # the runtime's row is copied, never changed
    # another writer changed the clock's setting, a version later
    Table.objects.filter(pk=table.pk).update(action_seconds=7, version=live.version + 1)
    kwargs, _ = ready(hand, "check")
    with django_assert_max_num_queries(FENCED_LIVE_ACTION_QUERIES + 3) as captured:
        lease_fenced(table.pk, "runtime", epoch, partial(hand_act, **kwargs, live=live))
    assert version_locks(captured) == 1 and table_locks(captured) == 1  # then the whole row
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.version == kwargs["version"] + 1 and fresh.action_deadline is not None
    acted = HandAction.objects.filter(hand=hand).latest("index").created_at
    assert fresh.action_deadline - acted < timedelta(seconds=8)  # the row's 7 s, not 30
    assert_seats_follow_the_engine(hand)


def test_the_clock_acts_for_a_player_out_of_time_on_the_hand_it_read(
    make_player, make_table, django_assert_max_num_queries
):
    table = make_table(action_seconds=20, time_bank_seconds=0)
    seat_players(make_player, table, 3)
    now = timezone.now() + timedelta(minutes=5)
    assert clock_tick(table=table.pk, now=now) == "started"
    late = now + timedelta(seconds=25)
    with django_assert_max_num_queries(TIMEOUT_QUERIES) as captured:
        assert clock_tick(table=table.pk, now=late) == "timeout"
    assert statements(captured, 'SELECT "tables_hand"') == 1  # the hand: read once
    assert statements(captured, 'SELECT "tables_handaction"') == 1  # its log: read once
    assert table_locks(captured) == 1  # the action is made under the tick's lock
    assert statements(captured, 'UPDATE "tables_table"') == 1  # clock and version at once
    action = HandAction.objects.get()
    assert (action.kind, action.source) == ("fold", HandAction.Source.TIMEOUT)
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.action_deadline == late + timedelta(seconds=20)  # from the tick's time


def test_the_clock_of_a_runtime_acts_without_a_savepoint_of_its_own(
    make_player, make_table, django_assert_max_num_queries
):
    """The runtime's tick (``lease_fenced``): neither the tick nor the action it makes for
    the player out of time opens a savepoint inside the lease's transaction."""
    table = make_table(action_seconds=20, time_bank_seconds=0)
    seat_players(make_player, table, 3)
    now = timezone.now() + timedelta(minutes=5)
    assert clock_tick(table=table.pk, now=now) == "started"
    epoch = lease_take(table.pk, "runtime", "chan")
    late = now + timedelta(seconds=25)
    tick = partial(clock_tick, table=table.pk, now=late, skip_busy=True)
    # the fence's own savepoint, then the timeout's without its two pairs (the lease checked
    # in the tick's lock of the table)
    with django_assert_max_num_queries(TIMEOUT_QUERIES + 2 - 4) as captured:
        assert lease_fenced(table.pk, "runtime", epoch, tick) == "timeout"
    assert statements(captured, "SAVEPOINT") == 1  # the fence's, inside the tests' one
    assert leases_read(captured) == ["lock"]  # checked in the table's lock
    action = HandAction.objects.get()
    assert (action.kind, action.source) == ("fold", HandAction.Source.TIMEOUT)


@pytest.mark.parametrize("sit", [seat_take, seat_ask])
def test_a_sit_down_after_a_cash_out_reads_the_seats_and_the_ledger_once(
    sit, make_player, make_table, settings
):
    """``seat_take`` (and ``seat_ask`` at a game without approval, which calls it under its
    own lock): whether the player is seated, the free seats and whether a game is going come
    from one read of the seats; the reseat wait and the rejoining rule from one read of the
    ledger."""
    settings.POKER_RESEAT_WAIT_SECONDS = 0
    table = make_table()
    seat_players(make_player, table, 3)
    assert hand_start(table=table)
    late = make_player("late")
    seat_take(table=table, player=late, buy_in=100)
    seat_leave(table=table, player=late)  # not in the hand: cashed out at once
    with CaptureQueriesContext(connection) as captured:
        sit(table=table, player=late, buy_in=100)
    assert len(captured.captured_queries) == SIT_DOWN_QUERIES
    assert Seat.objects.get(player=late).wait_for_big_blind  # a game going


def test_a_runtimes_sit_down_opens_no_savepoint_of_its_own(make_player, make_table, settings):
    """The socket's ``take_seat`` in the lease's transaction (``lease_fenced``): the lease is
    checked in the statement that locks the table, and ``seat_ask`` opens no savepoint (an
    error rolls the lease's transaction back whole)."""
    settings.POKER_RESEAT_WAIT_SECONDS = 0
    table = make_table()
    seat_players(make_player, table, 3)
    assert hand_start(table=table)
    late = make_player("late")
    epoch = lease_take(table.pk, "runtime", "chan")
    sit = partial(seat_ask, table=table.pk, player=late, buy_in=100)
    with CaptureQueriesContext(connection) as captured:
        lease_fenced(table.pk, "runtime", epoch, sit)
    assert len(captured.captured_queries) == SIT_DOWN_QUERIES  # the fence's savepoint pair
    assert statements(captured, "SAVEPOINT") == 1  # the fence's, inside the tests' one
    assert leases_read(captured) == ["lock"]  # checked in the table's lock
    assert Seat.objects.get(player=late).wait_for_big_blind  # a game going
