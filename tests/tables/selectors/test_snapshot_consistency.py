"""A table read is labelled with the version it shows: a write that commits while the read is
under way (after the table row, before the hand's log) makes it read again, so no frame shows
a newer state under an older version (a click on it would be refused as stale)."""

from __future__ import annotations

import pytest

from tables.selectors import snapshot as snapshot_module
from tables.services import hand_start, seat_take
from tests.tables.helpers import act, fresh

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_write_committed_during_a_read_is_shown_under_its_own_version(
    make_table, players, monkeypatch
):
    alice, bob, _ = players
    table = make_table(name="Racy")
    for player in (alice, bob):
        seat_take(table=table, player=player, buy_in=100)
    hand_start(table=table)
    before = fresh(table).version
    real_last_hand = snapshot_module.last_hand
    raced = []

    def last_hand_after_a_write(table_row):
        if not raced:  # the write lands once, between the table row and the rest
            raced.append(act(table, "call"))
        return real_last_hand(table_row)

    monkeypatch.setattr(snapshot_module, "last_hand", last_hand_after_a_write)
    snapshot = snapshot_module.load_snapshot(table.pk)
    assert raced, "the write did not land inside the read"
    assert snapshot is not None
    now = fresh(table).version
    assert now > before
    assert snapshot.version == now
    assert [d.kind for d in snapshot.decisions][-1:] == ["call"]
