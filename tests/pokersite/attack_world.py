"""The attack run's world, made in the server's database from ``manage.py shell``
(``tests/pokersite/test_attack_run.py``): players with passwords and sessions, a hosted game
for two, a club with a table, and a finished hand of every game the site deals."""

from __future__ import annotations

from typing import Any

PASSWORD = "attack-run-pw-1"


def build() -> dict[str, Any]:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from tables.clubs import services as clubs
    from tables.models import Table
    from tables.services import player_sign_up, seat_leave, seat_take, table_save
    from tables.services.hands import hand_start
    from tables.services.hosting import table_create, table_guest_join
    from tests.api.helpers import store_played_hand
    from tests.engine.played_games import GAMES, played_hand

    names = ("alice", "bob", "carol", "dave", "erin")
    people = {name: player_sign_up(username=name, password=PASSWORD) for name in names}
    sessions = {}
    for name, player in people.items():
        session = SessionStore()
        session[SESSION_KEY] = str(player.user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = player.user.get_session_auth_hash()
        session.create()
        sessions[name] = session.session_key
    alice, bob, carol, dave = (people[n] for n in names[:4])
    # alice hosts bob: the paused and emptied table of finding 1
    game = table_create(host=alice, name="Alice's night", action_seconds=600)
    table_guest_join(token=game.invite_token, player=bob)
    seat_take(table=game, player=alice, buy_in=100)
    seat_take(table=game, player=bob, buy_in=100)
    hand_start(table=game)  # the server's croupier is off: the run waits for nothing
    # carol's club, dave a member who sat at its table and is then removed (finding 7)
    club = clubs.club_create(owner=carol, name="Thursday Club", needs_approval=False)
    clubs.club_join(club=club, player=dave, code=club.invite_code)
    club_table = clubs.club_table_create(club=club, by=carol, name="Club night")
    seat_take(table=club_table, player=dave, buy_in=100)
    seat_leave(table=club_table, player=dave)
    clubs.club_member_update(club=club, by=carol, player=dave, action="remove")
    # a finished hand of every game at a table of its own (finding 2)
    history = table_save(table=Table(name="Histories", max_seats=6))
    hands = {
        f"{g} {b}": store_played_hand(history, [alice, bob, carol], played_hand(g, b), n).pk
        for n, (g, b) in enumerate(GAMES, start=1)
    }
    return {
        "sessions": sessions,
        "players": {name: player.pk for name, player in people.items()},
        "game": game.pk,
        "game_invite": game.invite_token,
        "club": club.pk,
        "club_table": club_table.pk,
        "club_invite": club_table.invite_token,
        "hands": hands,
    }
