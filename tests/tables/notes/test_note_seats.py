"""A note is shown beside its subject's seat to its author only (issue 51): on the table page,
in its socket's frames (read at join, refreshed when the author changes a note), never in
what another viewer gets, nor in the spectators' shared parts."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from tables.presenters.notes import note_marks
from tables.presenters.render import render_regions
from tables.presenters.screen import table_screen
from tables.selectors.notes import notes_by_subject
from tables.selectors.players import player_bankroll
from tables.selectors.snapshot import load_snapshot
from tables.services import hand_start, seat_take
from tables.services.notes import note_clear, note_set
from tests.tables.wsclient import Socket, communicator, json_socket, session_cookie

SECRET = "alice-only: bob bluffs rivers"
NEWER = "alice-only: bob folds to 3-bets"


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False  # the tests drive every change themselves


@pytest.fixture
def seated(players, table):
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=1)
    note_set(author=alice, subject_id=bob.pk, text=SECRET, label="red")
    return table, players


def page_of(snapshot, player) -> str:
    """``player``'s whole table screen at ``snapshot`` (None: a spectator), with their notes."""
    bankroll = player_bankroll(player.pk) if player is not None else None
    notes = note_marks(notes_by_subject(player.pk if player is not None else None))
    return render_regions(table_screen(snapshot, player, bankroll, notes=notes))


@pytest.mark.django_db
def test_the_author_sees_the_label_and_text_on_the_seat_and_nobody_else_does(seated):
    table, (alice, bob, carol) = seated
    hand_start(table=table)
    snapshot = load_snapshot(table)
    # alice's screen first: what she alone sees must not be left in what the others share
    mine = page_of(snapshot, alice)
    assert 'class="note-mark note-red"' in mine and SECRET in mine
    assert 'aria-label="Your note (Red): ' + SECRET in mine
    for other in (bob, carol, None):
        assert SECRET not in page_of(snapshot, other)
    assert "note-mark" not in page_of(snapshot, None)


@pytest.mark.django_db
def test_the_table_page_shows_the_note_to_its_author_only(seated):
    table, (alice, bob, carol) = seated
    pages = {}
    for player in (alice, bob, carol):
        client = Client()
        client.force_login(player.user)
        pages[player.name] = client.get(f"/tables/{table.pk}/").content.decode()
    assert SECRET in pages["alice"]
    assert SECRET not in pages["bob"] and SECRET not in pages["carol"]
    assert SECRET not in Client().get(f"/tables/{table.pk}/").content.decode()


@pytest.mark.django_db(transaction=True)
async def test_frames_carry_the_note_to_its_authors_socket_alone(seated):
    table, (alice, bob, carol) = seated
    cookies = {p.name: await sync_to_async(session_cookie)(p.user) for p in (alice, bob, carol)}
    sockets = {
        name: await Socket(name, communicator(table.pk, cookie)).connect()
        for name, cookie in cookies.items()
    }
    watcher = await Socket("spectator", communicator(table.pk, "")).connect()
    program = await json_socket(table, cookies["alice"])  # a JSON state has no notes
    assert SECRET in sockets["alice"].frames[0]
    await sync_to_async(hand_start)(table=table)
    for socket in (*sockets.values(), watcher):
        await socket.until(lambda f: "data-hand" in f and 'data-hand=""' not in f)
    # alice changes her note: her socket shows the new one at once, nobody else hears of it
    await sync_to_async(note_set)(author=alice, subject_id=bob.pk, text=NEWER, label="blue")
    frame = await sockets["alice"].until(lambda f: NEWER in f)
    assert "note-blue" in frame and SECRET not in frame
    await sync_to_async(note_clear)(author=alice, subject_id=bob.pk)
    frame = await sockets["alice"].until(lambda f: 'id="seat-2"' in f)
    assert "note-mark" not in frame
    for socket in (*sockets.values(), watcher, program):
        await socket.drain()
    for socket in (sockets["bob"], sockets["carol"], watcher, program):
        assert socket.frames, socket.name
        seen = "".join(socket.frames)
        assert SECRET not in seen and NEWER not in seen and "note-mark" not in seen, socket.name
    for socket in (*sockets.values(), watcher, program):
        await socket.close()
