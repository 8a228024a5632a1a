"""Each viewer's JSON state is the version's shared state (the spectator's, built once for
everyone) with their own parts put in (``tables.live.frames.json_state``), and each update is
the shared patch less what it says of their parts, then their parts' patch
(``json_update``). Over many hands with every kind of viewer, both must be exactly what the
viewer's whole state is (its play state, engine view and ``me``, built for them alone), and
an update applied by the client kit must give the newer state, from one version back and
from several: a socket that missed some gets the same result.

The clock stands still (``timezone.now``): the seconds left are the same in both builds.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from django.utils import timezone

from pokerclient.live import apply_patch
from tables.live.frames import JsonState, json_state, json_update
from tables.models import Table
from tables.presenters.play_state import play_state
from tables.presenters.screen import table_screen
from tables.selectors.hosting import rejoin_minimum
from tables.selectors.players import player_bankroll
from tables.selectors.snapshot import Snapshot, load_snapshot
from tables.services import hand_act, hand_start, player_grant, seat_leave, seat_take
from tables.services.clock import clock_tick
from tests.tables.live.test_diff_frames import decide, seat_again

pytestmark = pytest.mark.django_db

HANDS = 12
SEATED = ("alice", "bob", "dave")


@pytest.fixture(autouse=True)
def still(settings, monkeypatch):
    settings.POKER_CROUPIER = False  # the test deals every hand itself
    moment = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: moment)
    seeds = itertools.count(1)
    monkeypatch.setattr("tables.services.hands.new_seed", lambda: f"{next(seeds):064x}")


def whole_state(snapshot: Snapshot, screen) -> dict:
    """The viewer's state built for them alone, every member from their own screen."""
    me = screen.viewer
    return {
        "hand": screen.hand_id,
        "running": screen.running,
        "state": play_state(snapshot, screen),
        "view": snapshot.view_dict(screen.viewer_index) if snapshot.hand is not None else None,
        "me": {
            key: getattr(me, key) if me is not None else None
            for key in ("seated", "sitting_out", "in_hand", "stack")
        },
    }


def states_of(table: Table, viewers: dict) -> dict[str, tuple[JsonState, dict, dict]]:
    """Each viewer's (state, its whole state built alone, the snapshot's memo) now."""
    snapshot = load_snapshot(Table.objects.get(pk=table.pk))
    out = {}
    for name, player in viewers.items():
        seated = player is not None and snapshot.seat_of(player.pk) is not None
        bankroll = None if player is None or seated else player_bankroll(player.pk)
        left_with = 0 if player is None or seated else rejoin_minimum(table, player)
        screen = table_screen(snapshot, player, bankroll, left_with=left_with)
        out[name] = (json_state(snapshot, screen), whole_state(snapshot, screen), snapshot.memo)
    return out


GAMES = {
    "holdem": {"run_it_twice": True},
    "triple-draw": {"game": "27-triple-draw", "betting": "fixed-limit"},
    # each street deals each player more cards: their own lines of the log come and go
    "stud": {"game": "stud", "betting": "fixed-limit", "small_bet": 4, "big_bet": 8, "bring_in": 1},
}


@pytest.mark.parametrize("game", GAMES)
def test_viewers_states_and_updates_are_their_whole_states(make_player, make_table, game):
    table = make_table(name="Shared", max_seats=4, min_buy_in=10, **GAMES[game])
    people = {name: make_player(name) for name in (*SEATED, "carol", "erin")}
    for person in people.values():
        player_grant(player=person, amount=100_000, reason="shared frames test")
    # erin played here and left with chips: her buy-in form is hers alone (rejoin rule)
    seat_take(table=table, player=people["erin"], buy_in=150)
    seat_leave(table=table, player=people["erin"])
    players = {name: people[name] for name in SEATED}
    by_id = {p.pk: p for p in players.values()}
    viewers = {"spectator": None, **people}  # carol: logged in, never seated
    rng = random.Random(20261126)
    history: list[dict] = []
    checked = updates = owned = 0
    # seated players' updates from the version before, and those that held nothing of their
    # own beyond the spectator's (their operations all in the spectator's update)
    seated_updates = only_shared = 0  # (seated: their ``you`` is their own part)

    def check_now() -> None:
        nonlocal checked, updates, owned, seated_updates, only_shared
        now = states_of(table, viewers)
        spectators: list[str] = []
        if history:
            state, _, memo = now["spectator"]
            spectators = json.loads(json_update(history[-1]["spectator"][0], state, memo))["patch"]
        for name, (state, whole, memo) in now.items():
            assert state.data == whole, f"{name}: not their whole state"
            assert json.loads(state.text) == {"type": "state", "version": state.version, **whole}
            owned += bool(state.own)
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

    check_now()
    for _ in range(HANDS):
        seat_again(table, players, rng)
        hand_start(table=table)
        check_now()
        for _ in range(500):
            decision = decide(Table.objects.get(pk=table.pk), by_id, rng)
            if decision is None:
                break
            who, hand_id, action = decision
            version = Table.objects.get(pk=table.pk).version
            hand_act(table=table, player=who, hand_id=hand_id, version=version, action=action)
            check_now()
    # Not vacuous: many versions, players with their own parts, updates from both distances.
    assert checked > 6 * 20 * HANDS // 4 and updates > checked
    assert owned > checked // 2
    # Not vacuous: seated players' updates, some with nothing of their own
    assert seated_updates > 100 and 0 < only_shared < seated_updates


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
