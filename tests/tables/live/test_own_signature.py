"""A ``frames=diff`` socket reuses the own parts of the state it holds where the signature of
every input they are built from is the same (``tables.presenters.own_signature``): the reuse
happens (the very same ``own`` dict), and a version where one input alone changed (what the
viewer ticked in advance, their time bank, their turn, the log's window moving past their own
line) shows it. Sockets that see only some versions (a slow client's) build each viewer's
whole state all the same.
"""

from __future__ import annotations

import random

import pytest
from django.db.models import F

from engine.pre_actions import CHECK_FOLD, offers
from tables.live.frames import LEGAL, PRE_ACTIONS, VIEW_LEGAL
from tables.live.json_updates import JsonState, json_update
from tables.models import Seat, Table
from tables.presenters import play_state
from tables.selectors import snapshot as snapshots
from tables.selectors.hands import hand_state
from tables.selectors.hosting import left_table
from tables.selectors.players import player_bankroll
from tables.selectors.snapshot import load_snapshot
from tables.services import hand_act, hand_start, player_grant, pre_action_set, seat_take
from tests.tables.live.test_diff_frames import act_once, seat_again
from tests.tables.live.test_shared_json_frames import (  # noqa: F401 (``still``: a fixture)
    GAMES,
    Client,
    still,
    whole_state,
)

pytestmark = pytest.mark.django_db

NAMES = ("alice", "bob", "dave")


def seen(table: Table, player, client: Client) -> JsonState:
    """The viewer's state as their socket makes it now, checked against their whole state."""
    snapshot = load_snapshot(Table.objects.get(pk=table.pk))
    seated = snapshot.seat_of(player.pk) is not None  # (one who went bust has no seat)
    bankroll = None if seated else player_bankroll(player.pk)
    left_with = 0 if seated else left_table(table.pk, player).minimum
    client.take(client.socket.next_frame(snapshot, player, bankroll, left_with))
    assert client.state == whole_state(snapshot, player, bankroll, left_with, 0)
    state = client.socket.held
    assert isinstance(state, JsonState)
    return state


def act_as_actor(table: Table, by_seat: dict[int, object], action: dict) -> None:
    hand = Table.objects.get(pk=table.pk).hands.get(status="running")
    actor = hand_state(hand).actor
    assert actor is not None
    version = Table.objects.get(pk=table.pk).version
    who = by_seat[actor]
    hand_act(table=table, player=who, hand_id=hand.pk, version=version, action=action)


@pytest.fixture
def hand(make_player, make_table):
    """Three players in a hold'em hand: (table, players by hand seat, the big blind: the
    last to act before the flop)."""
    table = make_table(name="Own parts", max_seats=3)
    players = [make_player(name) for name in NAMES]
    for number, player in enumerate(players):
        player_grant(player=player, amount=10_000, reason="own signature test")
        seat_take(table=table, player=player, buy_in=200, seat_number=number)
    hand_start(table=table)
    row = Table.objects.get(pk=table.pk).hands.get(status="running")
    by_seat = {
        index: next(p for p in players if p.pk == start["player_id"])
        for index, start in enumerate(row.seats)
    }
    state = hand_state(row)
    assert state.actor is not None
    big_blind = state.big_blind_seat
    assert state.actor != big_blind
    return table, by_seat, by_seat[big_blind]


def test_another_players_action_reuses_the_own_parts(hand):
    table, by_seat, viewer = hand
    client = Client()
    before = seen(table, viewer, client)
    act_as_actor(table, by_seat, {"kind": "call"})
    after = seen(table, viewer, client)
    assert after.version > before.version
    assert after.signature is not None and after.own is before.own


def test_a_bet_to_call_remakes_only_what_may_be_ticked_in_advance(hand):
    """After a raise the viewer faces, only their choices to tick in advance changed: the
    state takes every other part of theirs as it was (the very same values) and the new
    choices (``seen`` compares it with the whole state)."""
    table, by_seat, viewer = hand
    client = Client()
    before = seen(table, viewer, client)
    offered = before.data["state"]["pre_actions"]["offers"]
    act_as_actor(table, by_seat, {"kind": "raise", "amount": 8})
    after = seen(table, viewer, client)
    assert after.signature is not None and before.signature is not None
    assert after.signature.parts == before.signature.parts
    assert after.signature.pre_actions != before.signature.pre_actions
    assert after.own is not before.own
    assert after.own.keys() == before.own.keys()
    assert all(
        after.own[part] is value for part, value in before.own.items() if part != PRE_ACTIONS
    )
    assert after.data["state"]["pre_actions"]["offers"] != offered


def test_a_choice_ticked_in_advance_shows(hand):
    table, _, viewer = hand
    client = Client()
    before = seen(table, viewer, client)
    assert before.data["state"]["pre_actions"]["ticked"] is None
    pre_action_set(table=table, player=viewer, kind=CHECK_FOLD, amount=0)
    after = seen(table, viewer, client)  # (``seen`` compares it with the whole state)
    assert after.own is not before.own
    assert after.data["state"]["pre_actions"]["ticked"] == {"kind": CHECK_FOLD, "amount": 0}


def test_the_time_bank_shows(hand):
    table, _, viewer = hand
    client = Client()
    before = seen(table, viewer, client)
    Seat.objects.filter(table=table, player=viewer).update(time_bank=F("time_bank") - 7)
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)  # only that changed
    after = seen(table, viewer, client)
    bank = before.data["state"]["you"]["time_bank"]
    assert after.data["state"]["you"]["time_bank"] == bank - 7
    assert after.data["state"]["clock"]["time_bank"] == bank - 7


def test_the_viewers_turn_shows(hand):
    table, by_seat, viewer = hand
    client = Client()
    assert seen(table, viewer, client).data["state"]["legal"] is None
    turn = False
    while not turn:  # the others call until it is the big blind's turn
        act_as_actor(table, by_seat, {"kind": "call"})
        row = Table.objects.get(pk=table.pk).hands.get(status="running")
        turn = by_seat[hand_state(row).actor] == viewer
        legal = seen(table, viewer, client).data["state"]["legal"]
        assert (legal is not None) == turn


def test_the_viewers_turn_takes_their_parts_as_they_were_and_makes_the_legal_actions(hand):
    """Their turn comes with nothing else of theirs changed: the state takes every other part
    of theirs as it was (the very same values) with their legal actions made anew; a check
    (nothing of theirs changed either) takes them away again. ``seen`` compares each with
    the whole state."""
    table, by_seat, viewer = hand
    client = Client()
    before = seen(table, viewer, client)
    while True:  # the others call until it is the big blind's turn
        act_as_actor(table, by_seat, {"kind": "call"})
        row = Table.objects.get(pk=table.pk).hands.get(status="running")
        if by_seat[hand_state(row).actor] == viewer:
            break
        before = seen(table, viewer, client)
    turn = seen(table, viewer, client)
    assert turn.signature is not None and before.signature is not None
    assert turn.signature.acting and not before.signature.acting
    assert turn.signature.parts == before.signature.parts
    remade = {PRE_ACTIONS, LEGAL, VIEW_LEGAL}
    assert turn.own.keys() == before.own.keys()
    assert all(turn.own[part] is value for part, value in before.own.items() if part not in remade)
    assert turn.data["state"]["legal"] is not None and turn.data["view"]["legal"] is not None
    act_as_actor(table, by_seat, {"kind": "check"})  # the big blind's option
    after = seen(table, viewer, client)
    assert after.signature is not None and not after.signature.acting
    assert after.data["state"]["legal"] is None and after.data["view"]["legal"] is None


def test_the_logs_window_moving_past_the_viewers_own_line_shows(hand, monkeypatch):
    """The state holds the log's latest lines: as the others play on, the "Your cards" line
    of a viewer who folded moves up (``log/N``) and then out, with nothing else of theirs
    changing."""
    monkeypatch.setattr("tables.presenters.play_state.LOG_LINES", 6)
    table, by_seat, _ = hand
    row = Table.objects.get(pk=table.pk).hands.get(status="running")
    viewer = by_seat[hand_state(row).actor]
    act_as_actor(table, by_seat, {"kind": "fold"})
    client = Client()
    places, reused = [], 0
    held = seen(table, viewer, client)
    while row is not None:
        legal = hand_state(row).legal
        assert legal is not None
        act_as_actor(table, by_seat, {"kind": "check" if legal.check else "call"})
        state = seen(table, viewer, client)  # (``seen`` compares it with the whole state)
        places.append(tuple(part for part in state.own if part.startswith("/state/log/")))
        reused += state.own is held.own
        held = state
        row = Table.objects.get(pk=table.pk).hands.filter(status="running").first()
    assert len(set(places)) > 2, places  # moved, and left (no part of theirs there)
    assert () in places and reused, (places, reused)


@pytest.mark.parametrize("game", ["holdem", "triple-draw", "stud"])
def test_sockets_that_miss_versions_build_the_whole_state(make_player, make_table, game):
    """A socket fed only some versions compares its own parts' signature with that of an
    older state: every viewer's frames still build their whole state."""
    settings = dict(GAMES[game])
    players = {name: make_player(name) for name in (*NAMES, "carol")}
    table = make_table(name="Missed", max_seats=4, min_buy_in=10, **settings)
    for player in players.values():
        player_grant(player=player, amount=100_000, reason="own signature test")
    by_id = {p.pk: p for p in players.values()}
    rng = random.Random(20261129)
    clients = {name: Client() for name in players}
    held: dict[str, JsonState] = {}
    checked = reused = 0

    def look() -> None:
        nonlocal checked, reused
        for name, player in players.items():
            if rng.random() < 0.5:  # this socket misses this version
                continue
            state = seen(table, player, clients[name])
            before = held.get(name)
            reused += before is not None and state is not before and state.own is before.own
            held[name] = state
            checked += 1

    for _ in range(10):
        seat_again(table, players, rng)
        hand_start(table=table)
        look()
        for _ in range(300):
            if rng.random() < 0.3:  # someone not to act ticks what to do in advance
                row = Table.objects.get(pk=table.pk).hands.filter(status="running").first()
                if row is not None:
                    engine = hand_state(row)
                    index = rng.randrange(len(row.seats))
                    choices = offers(engine, index)
                    if choices:
                        pick = rng.choice(choices)
                        who = by_id[row.seats[index]["player_id"]]
                        pre_action_set(table=table, player=who, kind=pick.kind, amount=pick.amount)
                        look()
            if not act_once(table, by_id, rng):
                break
            look()
    assert checked > 100 and reused > 10, (checked, reused)  # not vacuous


def test_updates_made_once_for_unchanged_parts_are_those_made_part_by_part(make_player, make_table):
    """A viewer whose own parts were reused (the very same dict) takes the update made once
    for every such viewer: byte for byte the update made by comparing their parts one by one
    (copies of them: nothing taken as reused), at every version of several hands. The lists
    of cards the states share between versions are those a build from nothing makes
    (``seen``, its caches emptied first: nothing changed a shared list)."""
    players = {name: make_player(name) for name in NAMES}
    table = make_table(name="Once", max_seats=3, min_buy_in=10)
    for player in players.values():
        player_grant(player=player, amount=100_000, reason="own signature test")
    by_id = {p.pk: p for p in players.values()}
    rng = random.Random(20261130)
    clients = {name: Client() for name in players}
    held: dict[str, JsonState] = {}
    shortcuts = 0

    def look() -> None:
        nonlocal shortcuts
        for cache in (play_state._seat_data, play_state._cards_data, snapshots._seat_data):
            cache.cache_clear()
        for name, player in players.items():
            before = held.get(name)
            state = seen(table, player, clients[name])
            if before is not None and before.version < state.version:
                once = json_update(before, state, {})
                fresh = JsonState(state.shared, dict(state.own), state.signature)
                apart = JsonState(before.shared, dict(before.own), before.signature)
                assert once == json_update(apart, fresh, {}), name
                shortcuts += state.own is before.own
            held[name] = state

    for _ in range(6):
        seat_again(table, players, rng)
        hand_start(table=table)
        look()
        for _ in range(300):
            if not act_once(table, by_id, rng):
                break
            look()
    assert shortcuts > 10, shortcuts  # not vacuous
