"""Each viewer's JSON state is the version's shared state (the spectator's, built once for
everyone) with their own parts put in, made from their parts without their whole screen
(``tables.live.frames.json_state``), and each update is the shared patch less what it says of
their parts, then their parts' patch (``json_update``). Over many hands of each game family
with every kind of viewer (the spectator, seated players in the hand, one seated but not
dealt in, players who ticked what to do in advance, who went bust, who left with chips, who
never sat; viewers without a seat of a hand whose hole cards are broadcast, issue 53), each
``frames=diff`` socket's state, and the state its frames build as the client kit applies
them, must be at every version exactly the viewer's whole state (the ``?state=json`` frame,
``tables.live.frames.render_viewer``, less its HTML), and an update from one version back
and from several must give the newer state.

The clock stands still (``timezone.now``): the seconds left are the same in both builds.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from django.utils import timezone

from engine.pre_actions import offers
from pokerclient.live import apply_patch
from tables.live.frames import SocketFrames, render_viewer
from tables.live.json_updates import JsonState, json_update
from tables.models import Table
from tables.presenters.broadcast import broadcast_reveal
from tables.selectors.hands import hand_state
from tables.selectors.hosting import left_table
from tables.selectors.players import player_bankroll
from tables.selectors.snapshot import Snapshot, load_snapshot
from tables.services import (
    hand_start,
    player_grant,
    pre_action_set,
    seat_leave,
    seat_take,
)
from tables.services.broadcast import broadcast_agree, table_broadcast_propose
from tables.services.clock import clock_tick
from tests.tables.live.test_diff_frames import act_once, seat_again

pytestmark = pytest.mark.django_db

HANDS = 12
SEATED = ("alice", "bob", "dave")
#: never seated (carol), left with chips (erin), sits down during a hand (frank)
OTHERS = ("carol", "erin", "frank")


@pytest.fixture(autouse=True)
def still(settings, monkeypatch):
    settings.POKER_CROUPIER = False  # the test deals every hand itself
    moment = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: moment)
    seeds = itertools.count(1)
    monkeypatch.setattr("tables.services.hands.new_seed", lambda: f"{next(seeds):064x}")


def whole_state(
    snapshot: Snapshot, player, bankroll: int | None, left_with: int, revealed: int
) -> dict:
    """The viewer's state built for them alone: the ``?state=json`` frame less its HTML."""
    frame = json.loads(
        render_viewer(snapshot, player, bankroll, True, left_with=left_with, revealed=revealed)[2]
    )
    return {key: value for key, value in frame.items() if key not in ("type", "version", "html")}


class Client:
    """One viewer's ``frames=diff`` socket and the state its frames build."""

    def __init__(self) -> None:
        self.socket = SocketFrames("diff")
        self.state: dict | None = None
        self.version = -1

    def take(self, frame: str) -> None:
        if not frame:  # nothing new for this viewer
            return
        data = json.loads(frame)
        if data["type"] == "update":
            assert data["base"] == self.version, "an update on another base"
            self.state = apply_patch(self.state, data["patch"])
        else:
            assert data["type"] == "state"
            self.state = {k: v for k, v in data.items() if k not in ("type", "version")}
        self.version = data["version"]


def states_of(
    table: Table, viewers: dict, clients: dict[str, Client] | None = None
) -> dict[str, tuple[JsonState, dict, dict]]:
    """Each viewer's (state, its whole state built alone, the snapshot's memo) now, the state
    as their ``frames=diff`` socket (``clients``': fresh ones when None) makes it."""
    snapshot = load_snapshot(Table.objects.get(pk=table.pk))
    clients = clients if clients is not None else {name: Client() for name in viewers}
    out = {}
    for name, player in viewers.items():
        seated = player is not None and snapshot.seat_of(player.pk) is not None
        bankroll = None if player is None or seated else player_bankroll(player.pk)
        left_with = 0 if player is None or seated else left_table(table.pk, player).minimum
        client = clients[name]
        client.take(client.socket.next_frame(snapshot, player, bankroll, left_with))
        state = client.socket.held
        assert isinstance(state, JsonState)
        player_id = player.pk if player is not None else None
        revealed = broadcast_reveal(snapshot, player_id, timezone.now())
        whole = whole_state(snapshot, player, bankroll, left_with, revealed)
        assert client.state == whole, f"{name}: their frames did not build their whole state"
        out[name] = (state, whole, snapshot.memo)
    return out


GAMES = {
    "holdem": {"run_it_twice": True},
    "triple-draw": {"game": "27-triple-draw", "betting": "fixed-limit"},
    # each street deals each player more cards: their own lines of the log come and go
    "stud": {"game": "stud", "betting": "fixed-limit", "small_bet": 4, "big_bet": 8, "bring_in": 1},
    # every hole card shown to the viewers without a seat a street later (issue 53)
    "holdem-broadcast": {"broadcast": "street"},
    "stud-broadcast": {
        "broadcast": "none",
        "game": "stud",
        "betting": "fixed-limit",
        "small_bet": 4,
        "big_bet": 8,
        "bring_in": 1,
    },
}


@pytest.mark.parametrize("game", GAMES)
def test_viewers_states_and_updates_are_their_whole_states(make_player, make_table, game):
    settings = dict(GAMES[game])
    broadcast = settings.pop("broadcast", None)
    people = {name: make_player(name) for name in (*SEATED, *OTHERS)}
    table = make_table(name="Shared", max_seats=4, min_buy_in=10, host=people["alice"], **settings)
    for person in people.values():
        player_grant(player=person, amount=100_000, reason="shared frames test")
    # erin played here and left with chips: her buy-in form is hers alone (rejoin rule)
    seat_take(table=table, player=people["erin"], buy_in=150)
    seat_leave(table=table, player=people["erin"])
    if broadcast is not None:
        table_broadcast_propose(table=table, by=people["alice"].user, delay=broadcast)
    players = {name: people[name] for name in SEATED}
    frank = people["frank"]
    by_id = {p.pk: p for p in players.values()}
    viewers = {"spectator": None, **people}
    clients = {name: Client() for name in viewers}
    rng = random.Random(20261126)
    history: list[dict] = []
    checked = updates = owned = 0
    # seated players' updates from the version before, and those that held nothing of their
    # own beyond the spectator's (their operations all in the spectator's update)
    seated_updates = only_shared = 0  # (seated: their ``you`` is their own part)
    kinds = dict.fromkeys(("not dealt in", "ticked", "bust", "broadcast"), 0)

    def check_now() -> None:
        nonlocal checked, updates, owned, seated_updates, only_shared
        now = states_of(table, viewers, clients)
        spectators: list[str] = []
        if history:
            state, _, memo = now["spectator"]
            spectators = json.loads(json_update(history[-1]["spectator"][0], state, memo))["patch"]
        for name, (state, whole, memo) in now.items():
            assert state.data == whole, f"{name}: not their whole state"
            assert json.loads(state.text) == {"type": "state", "version": state.version, **whole}
            owned += bool(state.own)
            count_kinds(name, state, whole)
            for back in (1, 3):
                if len(history) >= back:
                    held = history[-back][name][0]
                    frame = json.loads(json_update(held, state, memo))
                    assert (frame["type"], frame["version"], frame["base"]) == (
                        "update",
                        state.version,
                        held.version,
                    )
                    assert apply_patch(held.data, frame["patch"]) == whole, (name, back)
                    updates += 1
                    if back == 1 and state.own.get("/state/you") is not None:
                        seated_updates += 1
                        own_ops = [op for op in frame["patch"] if op not in spectators]
                        only_shared += not own_ops
                        for op in own_ops:
                            assert_everyones(op[0], held.data, whole)
            checked += 1
        history.append(now)

    def count_kinds(name: str, state: JsonState, whole: dict) -> None:
        you, play = whole["state"]["you"], whole["state"]
        if you is not None and you["seat"] is not None and play["running"]:
            kinds["not dealt in"] += not you["in_hand"]
        kinds["ticked"] += bool(play["pre_actions"] and play["pre_actions"]["ticked"])
        # alice, bob and dave lose their seats only by going bust
        kinds["bust"] += name in SEATED and you["seat"] is None
        if name in ("spectator", "carol", "erin"):
            # a viewer never dealt in, without a seat, sees seats of their own: the broadcast's
            kinds["broadcast"] += any(part.startswith("/state/seats/") for part in state.own)

    def tick_in_advance() -> None:
        """Some players in the hand, not to act, tick what to do when their turn comes."""
        hand = Table.objects.get(pk=table.pk).hands.filter(status="running").first()
        if hand is None:
            return
        engine = hand_state(hand)
        for index, start in enumerate(hand.seats):
            choices = offers(engine, index)
            if choices and rng.random() < 0.4:
                pick = rng.choice(choices)
                who = by_id[start["player_id"]]
                pre_action_set(table=table, player=who, kind=pick.kind, amount=pick.amount)
                check_now()

    check_now()
    for number in range(HANDS):
        seat_again(table, players, rng)
        if broadcast is not None:
            for player in players.values():
                broadcast_agree(table=table, player=player)
        hand_start(table=table)
        check_now()
        if number == 1:  # frank sits down during a hand (seated, not dealt in), and stays
            seat_take(table=table, player=frank, buy_in=100)
            by_id[frank.pk] = frank
            check_now()
        for _ in range(500):
            tick_in_advance()
            if not act_once(table, by_id, rng):
                break
            check_now()
    # Not vacuous: many versions, players with their own parts, updates from both distances.
    assert checked > 8 * 20 * HANDS // 4 and updates > checked
    assert owned > checked // 2
    # Not vacuous: seated players' updates, some with nothing of their own
    assert seated_updates > 100 and 0 < only_shared < seated_updates
    # Not vacuous: each kind of viewer was seen (the broadcast in its games alone)
    assert kinds["not dealt in"] and kinds["ticked"] and kinds["bust"], kinds
    assert bool(kinds["broadcast"]) == (broadcast is not None), kinds


def assert_everyones(path: str, before: dict, whole: dict) -> None:
    """An operation a seated player's update (from ``before`` to ``whole``) holds beyond the
    spectator's is never at the clock (but their time bank), the hand's result or a line of
    the log other than their own cards dealt, before or now: those are everyone's, in the
    spectator's update once."""
    assert not path.startswith(("/state/result", "/view/result")), path
    assert not path.startswith("/view/log") or path.split("/")[3].isdigit(), path
    assert not path.startswith("/state/clock") or path == "/state/clock/time_bank", path
    if path.startswith("/state/log"):
        line = path.split("/")[3]  # /state/log/N(/...)
        assert line.isdigit(), path
        logs = (before["state"]["log"], whole["state"]["log"])
        theirs = [log[int(line)]["text"] for log in logs if int(line) < len(log)]
        assert any(text.startswith("Your card") for text in theirs), path


def test_the_dealers_choice_is_the_choosers_own(make_player, make_table):
    picks = ["badugi/fixed-limit", "omaha/pot-limit"]
    table = make_table(name="Choice", game="dealers-choice", choice_games=picks, small_bet=4)
    people = {name: make_player(name) for name in (*SEATED, "carol")}
    for number, name in enumerate(SEATED):
        seat_take(table=table, player=people[name], buy_in=100, seat_number=number)
    before = states_of(table, {"spectator": None, **people})
    assert clock_tick(table=table, now=timezone.now()) == "choosing"
    now = states_of(table, {"spectator": None, **people})
    choosers = [name for name, (state, _, _) in now.items() if state.data["state"]["choice"]]
    assert len(choosers) == 1, choosers
    for name, (state, whole, memo) in now.items():
        assert state.data == whole, f"{name}: not their whole state"
        frame = json.loads(json_update(before[name][0], state, memo))
        assert apply_patch(before[name][0].data, frame["patch"]) == whole, name
