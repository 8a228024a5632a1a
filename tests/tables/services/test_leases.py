"""The lease that says which process runs a live table (``tables.services.leases``)."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from tables.models import Table, TableLease
from tables.services.events import fenced_atomic, lease_fenced
from tables.services.leases import (
    LEASE_SECONDS,
    LeaseLost,
    held_elsewhere,
    lease_hold,
    lease_owner,
    lease_release,
    lease_take,
    leases_renew,
)


def test_a_free_table_is_taken_and_then_refused_to_another_process(table):
    now = timezone.now()
    assert lease_take(table.pk, "a", "chan-a", now) == 1
    assert lease_take(table.pk, "b", "chan-b", now) is None
    assert lease_owner(table.pk, now) == ("a", "chan-a")
    later = now + timedelta(seconds=LEASE_SECONDS + 1)  # a's lease expired
    assert lease_take(table.pk, "b", "chan-b", later) == 2  # changed hands: a new epoch
    assert lease_owner(table.pk, later) == ("b", "chan-b")


def test_an_owner_taking_its_own_lease_again_keeps_its_epoch(table):
    """A late renewal (the lease ran out with nobody taking it) must not make the owner's
    actions under way, made at its epoch, look like another owner's."""
    now = timezone.now()
    epoch = lease_take(table.pk, "a", "chan-a", now)
    late = now + timedelta(seconds=LEASE_SECONDS + 1)
    assert lease_take(table.pk, "a", "chan-a", late) == epoch
    with transaction.atomic():
        assert lease_hold(table.pk, "a", epoch, late)


def test_an_action_holds_only_the_lease_it_took(table):
    now = timezone.now()
    epoch = lease_take(table.pk, "a", "chan-a", now)
    with transaction.atomic():
        assert lease_hold(table.pk, "a", epoch, now)
        assert not lease_hold(table.pk, "a", epoch + 1, now)  # another generation
        assert not lease_hold(table.pk, "b", epoch, now)  # another process
    expired = now + timedelta(seconds=LEASE_SECONDS * 3)
    with transaction.atomic():
        assert not lease_hold(table.pk, "a", epoch, expired)  # ran out: nothing written


def test_a_write_is_done_only_under_the_lease_it_took(table):
    """``lease_fenced``: a runtime's write, in one transaction with its lease renewed first;
    with the lease gone to another process, nothing of it is written."""
    epoch = lease_take(table.pk, "a", "chan-a", timezone.now())

    def rename(name):
        def write():
            Table.objects.filter(pk=table.pk).update(name=name)
            return name

        return write

    assert lease_fenced(table.pk, "a", epoch, rename("Mine")) == "Mine"
    with pytest.raises(LeaseLost):
        lease_fenced(table.pk, "b", epoch, rename("Theirs"))  # not b's lease
    assert Table.objects.get(pk=table.pk).name == "Mine"


def test_a_fenced_services_block_without_savepoint_still_undoes_all_of_a_failed_write(table):
    """The first block inside the fence has no savepoint: an error there that a caller
    swallows (the croupier's tick logs and returns) leaves nothing of the write behind."""
    epoch = lease_take(table.pk, "a", "chan-a", timezone.now())

    def swallowed():
        try:
            with fenced_atomic():
                Table.objects.filter(pk=table.pk).update(name="Half done")
                raise ValueError("refused")
        except ValueError:
            return None

    assert lease_fenced(table.pk, "a", epoch, swallowed) is None
    assert Table.objects.get(pk=table.pk).name != "Half done"


def test_a_fenced_block_under_a_block_with_a_savepoint_keeps_its_own(table):
    """Below an ordinary block (a service whose refusal its caller catches and carries on
    from) a fenced block still rolls back alone, and the rest of the write stands."""
    epoch = lease_take(table.pk, "a", "chan-a", timezone.now())

    def partly():
        with transaction.atomic():
            Table.objects.filter(pk=table.pk).update(name="Outer")
            try:
                with fenced_atomic():
                    Table.objects.filter(pk=table.pk).update(name="Inner")
                    raise ValueError("refused")
            except ValueError:
                pass
            Table.objects.filter(pk=table.pk).update(max_seats=9)
        return "done"

    assert lease_fenced(table.pk, "a", epoch, partly) == "done"
    fresh = Table.objects.get(pk=table.pk)
    assert (fresh.name, fresh.max_seats) == ("Outer", 9)


def test_fenced_blocks_in_fenced_blocks_undo_the_whole_write_when_one_fails(table):
    """The clock's tick and the action it makes: neither has a savepoint, so a refusal of
    the action that the tick swallows leaves nothing of the tick behind."""
    epoch = lease_take(table.pk, "a", "chan-a", timezone.now())

    def tick():
        with fenced_atomic():
            Table.objects.filter(pk=table.pk).update(name="Ticked")
            try:
                with fenced_atomic():
                    Table.objects.filter(pk=table.pk).update(name="Acted")
                    raise ValueError("refused")
            except ValueError:
                return None

    assert lease_fenced(table.pk, "a", epoch, tick) is None
    assert Table.objects.get(pk=table.pk).name not in ("Ticked", "Acted")


def test_renewing_and_releasing(table, make_table):
    other = make_table(name="Other")
    now = timezone.now()
    lease_take(table.pk, "a", "chan-a", now)
    lease_take(other.pk, "b", "chan-b", now)
    soon = now + timedelta(seconds=LEASE_SECONDS - 1)
    assert leases_renew([table.pk, other.pk], "a", soon) == {table.pk}
    until = TableLease.objects.get(table_id=table.pk).until
    assert until == soon + timedelta(seconds=LEASE_SECONDS)
    lease_release([table.pk], "a")
    assert lease_owner(table.pk) is None
    assert lease_take(table.pk, "b", "chan-b") is not None  # free at once


def test_a_lease_that_ran_out_untaken_is_renewed_at_its_epoch(table, make_table):
    """A stalled loop renews late: its lease, taken by nobody, is still its own (no reload,
    its writes under way still valid); one another process took meanwhile is not."""
    other = make_table(name="Other")
    now = timezone.now()
    epoch = lease_take(table.pk, "a", "chan-a", now)
    lease_take(other.pk, "a", "chan-a", now)
    late = now + timedelta(seconds=LEASE_SECONDS * 3)
    assert lease_take(other.pk, "b", "chan-b", late) is not None  # taken while a stalled
    assert leases_renew([table.pk, other.pk], "a", late) == {table.pk}
    assert TableLease.objects.get(table_id=table.pk).until == late + timedelta(
        seconds=LEASE_SECONDS
    )
    with transaction.atomic():
        assert lease_hold(table.pk, "a", epoch, late)
    assert lease_owner(other.pk, late) == ("b", "chan-b")


def test_held_elsewhere_is_another_processs_live_lease(table):
    from tables.services.leases import PROCESS

    assert not held_elsewhere(table.pk)  # nobody
    lease_take(table.pk, PROCESS, "here")
    assert not held_elsewhere(table.pk)  # this process
    lease_release([table.pk], PROCESS)
    lease_take(table.pk, "elsewhere", "there")
    assert held_elsewhere(table.pk)


def test_the_first_lock_of_the_table_checks_the_lease_in_the_same_statement(table):
    """A runtime's service locks the table first: the lease is read and locked with it, not
    renewed (each loop's clock renews it), and a lease lost or run out refuses the write even
    where the work swallows the refusal."""
    from tables.services.events import table_lock

    now = timezone.now()
    epoch = lease_take(table.pk, "a", "chan-a", now)
    until = TableLease.objects.get(table_id=table.pk).until

    def rename(name):
        def write():
            with fenced_atomic():
                locked = table_lock(table.pk)
                locked.name = name
                locked.save(update_fields=["name"])
            return table_lock(table.pk).name  # a second lock: the row as written

        return write

    assert lease_fenced(table.pk, "a", epoch, rename("Mine")) == "Mine"
    assert TableLease.objects.get(table_id=table.pk).until == until  # checked, not renewed
    with pytest.raises(LeaseLost):
        lease_fenced(table.pk, "a", epoch + 1, rename("Another generation"))

    def swallowing():
        try:
            return rename("Swallowed")()
        except LeaseLost:
            return "swallowed"  # as the croupier's tick logs and returns

    with pytest.raises(LeaseLost):
        lease_fenced(table.pk, "b", epoch, swallowing)
    TableLease.objects.filter(table_id=table.pk).update(until=now - timedelta(seconds=1))
    with pytest.raises(LeaseLost):
        lease_fenced(table.pk, "a", epoch, rename("Ran out"))
    assert Table.objects.get(pk=table.pk).name == "Mine"


def test_a_table_locked_first_inside_a_savepoint_has_its_lease_renewed_before_the_commit(table):
    """A savepoint's rollback would let the lease's row go before the commit: the lease is
    then renewed (and locked) at the end of the work, as for a work that locks no table."""
    from tables.services.events import table_lock

    now = timezone.now()
    epoch = lease_take(table.pk, "a", "chan-a", now)
    TableLease.objects.filter(table_id=table.pk).update(until=now + timedelta(seconds=1))

    def in_a_savepoint():
        with transaction.atomic():
            return table_lock(table.pk).name

    assert lease_fenced(table.pk, "a", epoch, in_a_savepoint) == table.name
    assert TableLease.objects.get(table_id=table.pk).until > now + timedelta(seconds=2)
    with pytest.raises(LeaseLost):
        lease_fenced(table.pk, "b", epoch, in_a_savepoint)


def test_a_tick_that_skips_a_busy_table_still_checks_the_lease(table):
    from tables.services.events import table_lock

    epoch = lease_take(table.pk, "a", "chan-a", timezone.now())

    def tick():
        with fenced_atomic():
            locked = table_lock(table.pk, skip_locked=True)
            return locked.pk if locked is not None else None

    assert lease_fenced(table.pk, "a", epoch, tick) == table.pk
    with pytest.raises(LeaseLost):
        lease_fenced(table.pk, "a", epoch + 1, tick)
