"""A club's table through the socket (the real ASGI stack): a member's socket is accepted, a
non-member's (even holding the table's invite link) is closed as for a table that does not
exist."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tables.clubs import services
from tables.models import TableGuest
from tests.tables.wsclient import CONNECT_SECONDS, communicator, refused_with, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    """No croupier on the test's loop: its pass could still hold the database when the test's
    flush comes (``tests/pokersite/test_ops.py``)."""
    settings.POKER_CROUPIER = False


@sync_to_async
def _club_table(players):
    owner, friend, stranger = players
    club = services.club_create(owner=owner, name="Socket Club", needs_approval=False)
    services.club_join(club=club, player=friend, code=club.invite_code)
    table = services.club_table_create(club=club, by=owner, name="Night")
    # the link no longer records a non-member (``table_guest_join`` refuses): a guest row kept
    # from before still opens nothing
    TableGuest.objects.create(table=table, player=stranger)
    return table, session_cookie(friend.user), session_cookie(stranger.user)


async def test_only_members_open_a_club_tables_socket(players):
    table, member_cookie, stranger_cookie = await _club_table(players)
    assert await refused_with(communicator(table.pk, stranger_cookie)) == 4404
    member = communicator(table.pk, member_cookie)
    connected, _ = await member.connect(timeout=CONNECT_SECONDS)
    assert connected
    assert "table-seats" in await member.receive_from(timeout=CONNECT_SECONDS)
    await member.disconnect()
