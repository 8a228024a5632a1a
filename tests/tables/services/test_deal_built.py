"""A deal by the croupier's tick as a table's runtime makes it: the seats' changes that come
with it are written whether one seat or several change (``etiquette.dealing_apply``), and the
version built after it (its seats read as the driver gives them) is what a fresh read gives,
for bomb pots too (one board or two, every hand or called once)."""

import functools
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from tables.db.statements import Batch
from tables.live.runtime import written_and_read
from tables.models import Seat
from tables.selectors.snapshot import load_snapshot
from tables.services import etiquette, seat_take
from tables.services.clock import clock_tick
from tables.services.events import lease_fenced
from tables.services.leases import PROCESS, lease_take
from tests.tables.selectors.test_snapshot_made import assert_same

pytestmark = pytest.mark.django_db(transaction=True)  # the writes publish on commit


@pytest.mark.parametrize("several", [False, True], ids=["one seat", "several"])
def test_a_deals_seat_changes_are_written_for_one_seat_or_several(make_table, make_player, several):
    table = make_table(max_seats=6)
    for n in range(6):
        seat_take(table=table, player=make_player(f"apply{n}"), buy_in=100)
    pks = list(Seat.objects.filter(table=table).order_by("number").values_list("pk", flat=True))
    Seat.objects.filter(pk__in=pks).update(
        wait_for_big_blind=True, owes_blinds=Seat.Owes.BIG, sit_out_next=Seat.SitOutNext.HAND
    )
    size = 2 if several else 1
    sit_out, cleared, missed = pks[0:size], pks[2 : 2 + size], pks[4 : 4 + size]
    writes = Batch()  # the deal's: sent with its other writes
    with transaction.atomic():
        # a seat that joins and owes is cleared twice (``posts_for``)
        twice = etiquette.Dealing([], sit_out=sit_out, cleared=cleared + cleared, missed=missed)
        etiquette.dealing_apply(twice, writes)
        writes.send()
    rows = Seat.objects.filter(pk__in=pks).values_list(
        "pk", "sitting_out", "sit_out_next", "wait_for_big_blind", "owes_blinds"
    )
    for pk, sitting_out, sit_out_next, waiting, owes in rows:
        assert (sitting_out, sit_out_next) == (
            (True, Seat.SitOutNext.NO) if pk in sit_out else (False, Seat.SitOutNext.HAND)
        )
        assert (waiting, owes) == (
            (False, Seat.Owes.NOTHING)
            if pk in cleared
            else (True, Seat.Owes.MISSED if pk in missed else Seat.Owes.BIG)
        )


BOMB_POTS = {
    "called": {"bomb_pot_ante": 4, "bomb_pot_next": True},
    "double board": {"bomb_pot_ante": 4, "bomb_pot_next": True, "bomb_pot_double_board": True},
    "omaha every hand": {
        "game": "omaha",
        "betting": "pot-limit",
        "bomb_pot_ante": 4,
        "bomb_pot_every": 1,
    },
}


@pytest.mark.parametrize("options", BOMB_POTS.values(), ids=BOMB_POTS.keys())
def test_a_bomb_pots_deal_builds_what_a_read_gives(make_table, make_player, monkeypatch, options):
    monkeypatch.setattr("tables.services.hands.new_seed", lambda: "bomb pot deck")
    table = make_table(max_seats=6, **options)
    for n in range(4):
        seat_take(table=table, player=make_player(f"bomb{n}"), buy_in=200)
    epoch = lease_take(table.pk, PROCESS, "test") or 0
    tick = functools.partial(clock_tick, table=table.pk, now=timezone.now() + timedelta(minutes=1))
    fenced = functools.partial(lease_fenced, table.pk, PROCESS, epoch, tick)
    after = written_and_read(table.pk, fenced, load_snapshot(table.pk), None)
    assert after.result == "started" and after.snapshot is not None
    assert not after.read  # built from the deal
    hand = after.snapshot.hand
    assert hand is not None and hand.config["bomb_pot"] == 4
    assert hand.config.get("double_board", False) == options.get("bomb_pot_double_board", False)
    assert_same(after.snapshot, load_snapshot(table.pk))
