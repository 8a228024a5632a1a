"""A tournament's table page offers none of the cash game's seat controls (the tournament
seats its players; the services refuse them anyway) and links back to the tournament; the
organiser's "New invite link" stops the old link at once; a private tournament's table socket
does not exist for outsiders."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from tables.models import Table
from tables.services import seat_sit_out, seat_take
from tables.tournaments.models import Tournament
from tables.tournaments.services import tournament_register, tournament_start
from tables.tournaments.services.organise import tournament_organise
from tests.tables.wsclient import communicator, refused_with, session_cookie

LEVELS = [{"small_blind": 10, "big_blind": 20, "hands": 5}]

CASH_ONLY = (
    'class="leave"',  # Leave table
    'class="sit-out"',  # Sit out
    'class="top-up"',  # Top up
    'class="sit-down"',  # Sit down
    'class="ledger-link"',  # Ledger
)


def site_for(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def running_tournament(players, *, private: bool = False) -> tuple[Tournament, Table]:
    """A sit & go of ``players`` (the first organises it), started: its one table."""
    tournament = tournament_organise(
        organiser=players[0], private=private, name="Friday night", levels=LEVELS
    )
    for player in players:
        tournament_register(tournament=tournament, player=player)
    tournament_start(tournament=tournament, by=players[0])
    return tournament, tournament.tables.get().table


@pytest.mark.django_db
def test_a_tournament_table_hides_the_cash_controls_and_links_back(players, make_player):
    alice, bob, carol = players
    tournament, table = running_tournament([alice, bob])
    seated = site_for(alice).get(f"/tables/{table.pk}/").content.decode()
    watching = site_for(carol).get(f"/tables/{table.pk}/").content.decode()
    for page in (seated, watching):
        assert [control for control in CASH_ONLY if control in page] == []
        assert "The tournament seats its players" in page
        assert f'<a href="/tournaments/{tournament.pk}/">Friday night</a>' in page
    assert "Seat " in seated and "stack" in seated

    # sitting out is still possible (the croupier sits out a player who times out): they can
    # come back
    seat_sit_out(table=table, player=alice)
    away = site_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert 'class="sit-in"' in away and "I'm back" in away
    assert 'class="leave"' not in away


@pytest.mark.django_db
def test_a_cash_table_still_shows_them(players, table):
    alice = players[0]
    free = site_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert 'class="sit-down"' in free and 'class="ledger-link"' in free
    seat_take(table=table, player=alice, buy_in=100)
    seated = site_for(alice).get(f"/tables/{table.pk}/").content.decode()
    for control in ('class="leave"', 'class="sit-out"', 'class="ledger-link"'):
        assert control in seated, control
    assert "The tournament seats its players" not in seated


@pytest.mark.django_db
def test_new_invite_link_stops_the_old_one_at_once(players, make_player):
    alice, bob, carol = players
    tournament = tournament_organise(
        organiser=alice, private=True, name="Club night", levels=LEVELS
    )
    old = tournament.invite_token
    organiser = site_for(alice)
    page = organiser.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="new-invite"' in page and f"/tournaments/join/{old}/" in page

    # not the organiser: refused, the link unchanged (bob opened it, so he sees the page)
    assert site_for(bob).get(f"/tournaments/join/{old}/").status_code == 302
    bob_page = site_for(bob).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="new-invite"' not in bob_page and old not in bob_page
    site_for(bob).post(f"/tournaments/{tournament.pk}/new-invite/")
    tournament.refresh_from_db()
    assert tournament.invite_token == old

    answer = organiser.post(f"/tournaments/{tournament.pk}/new-invite/", follow=True)
    tournament.refresh_from_db()
    new = tournament.invite_token
    assert new != old
    shown = answer.content.decode()
    assert f"/tournaments/join/{new}/" in shown and "the old one no longer works" in shown
    assert site_for(carol).get(f"/tournaments/join/{old}/").status_code == 404
    assert site_for(carol).get(f"/tournaments/{tournament.pk}/").status_code == 404
    assert site_for(carol).get(f"/tournaments/join/{new}/").status_code == 302
    assert site_for(carol).get(f"/tournaments/{tournament.pk}/").status_code == 200


@pytest.mark.django_db(transaction=True)
async def test_a_private_tournament_table_socket_is_4404_to_an_outsider(
    players, make_player, settings
):
    settings.POKER_CROUPIER = False
    alice, bob, carol = players
    tournament, table = await sync_to_async(running_tournament)([alice, bob], private=True)
    outsider = await sync_to_async(session_cookie)(carol.user)
    assert await refused_with(communicator(table.pk, outsider)) == 4404
    assert await refused_with(communicator(table.pk + 1000, outsider)) == 4404, "as no table"
    entrant = await sync_to_async(session_cookie)(bob.user)
    comm = communicator(table.pk, entrant)
    connected, _ = await comm.connect()
    assert connected
    frame = await comm.receive_from(timeout=5)
    assert "table-controls" in frame and "The tournament seats its players" in frame
    await comm.disconnect()
