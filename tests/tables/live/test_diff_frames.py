"""The socket's diff frames: after many hands, every socket holds exactly the live table, and
no frame it received ever held a card its viewer may not see.

Three players (alice, bob, dave) play ``DIFF_HANDS`` hands (the decks fixed by the seeds, the
decisions by a seeded ``RandomBot``) through the services, while carol watches. Each of them
follows the table over real sockets: alice, bob and carol as the browser page does (its HTML
frames applied to the page a load gave, as htmx swaps them: ``tests.tables.oob``), alice, dave
and carol as a ``frames=diff`` program (its updates applied as patches, as the client kit
applies them: ``pokerclient.live.StateFrames``). After every change, once every socket has
it:

- each page built from its frames shows every region exactly as a reload of the page does;
- each JSON state built from its updates is exactly the state a fresh load makes;
- every frame each socket received holds no card its viewer may not see at that moment (the
  no-leak test's rule: ``tests.tables.live.test_no_leak``).

The test's clock stands still (``timezone.now``), so a clock's seconds left are the same for a
frame and the reload it is compared with.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from engine.bots import RandomBot
from pokerclient.live import StateFrames
from tables.live.frames import SocketFrames
from tables.models import Hand, Seat, Table
from tables.presenters.render import REGIONS
from tables.selectors.hands import hand_state
from tables.selectors.hosting import left_table
from tables.selectors.players import player_bankroll
from tables.selectors.snapshot import load_snapshot
from tables.services import hand_act, hand_start, player_grant, seat_take
from tests.tables.live.test_no_leak import Facts, disallowed, seats_context, violations
from tests.tables.oob import Page
from tests.tables.wsclient import Socket, communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

HANDS = int(os.environ.get("DIFF_HANDS", "24"))
JSON_CARD = re.compile(r'"([2-9TJQKA][cdhs])"')
PLAYERS = ("alice", "bob", "dave")


@pytest.fixture(autouse=True)
def still(settings, monkeypatch):
    settings.POKER_CROUPIER = False  # the test deals every hand itself
    monkeypatch.setattr("tables.live.consumer.RATE_PER_SECOND", 10_000.0)
    monkeypatch.setattr("tables.live.consumer.RATE_BURST", 10_000)
    moment = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: moment)
    seeds = itertools.count(1)
    monkeypatch.setattr("tables.services.hands.new_seed", lambda: f"{next(seeds):064x}")


class Follower:
    """One socket and what its viewer's screen holds, built from its frames alone."""

    def __init__(self, name: str, player, socket: Socket, kind: str) -> None:
        self.name, self.player, self.socket, self.kind = name, player, socket, kind
        self.page: Page | None = None
        self.states = StateFrames()
        self.version = -1
        self.checked = 0  # frames checked for cards
        self.seen = 0  # frames taken in
        self.diffs = 0  # frames that were not the whole state
        self.context = None  # the page's hand, street and face-up mark (browser)

    async def take(self, facts: Facts, bad: list) -> None:
        """Take in every frame that arrived, checking each for cards."""
        await self.socket.drain(timeout=0)
        frames, self.socket.frames = self.socket.frames, []
        viewer = self.player.pk if self.player is not None else None
        for frame in frames:
            self.seen += 1
            if self.kind == "page":
                held, self.context = self.context, seats_context(frame, self.context)
                wrong = await sync_to_async(violations)(frame, viewer, facts, held)
                self.page.apply(frame)
                version = re.search(r'id="table-actions"[^>]*data-version="(\d+)"', frame)
                if version is not None:
                    self.version = int(version.group(1))
                self.diffs += 'id="table-seats"' not in frame
            else:
                data = json.loads(frame)
                if data["type"] not in ("state", "update"):
                    continue
                self.diffs += data["type"] == "update"
                state = self.states.take(data)
                assert state is not None, f"{self.name}: an update on another base: {frame[:200]}"
                self.version = state["version"]
                view = state["view"]
                context = (
                    str(state["hand"] or ""),
                    view["street"] if view else "",
                    view is not None and view["no_more_betting"],
                )
                cards = JSON_CARD.findall(frame)
                wrong = await sync_to_async(disallowed)(cards, viewer, facts, context)
            self.checked += 1
            if wrong:
                bad.append((self.name, self.kind, wrong, frame[:300]))

    async def until(self, version: int, facts: Facts, bad: list) -> None:
        for _ in range(200):
            await self.take(facts, bad)
            if self.version >= version:
                return
            await self.socket.receive(timeout=5)  # kept in its frames, taken in next
        raise AssertionError(f"{self.name} ({self.kind}) never reached version {version}")


def page_html(table_id: int, cookie: str) -> str:
    client = Client()
    client.cookies["sessionid"] = cookie.split("=", 1)[1]
    response = client.get(f"/tables/{table_id}/")
    assert response.status_code == 200
    return response.content.decode()


def fresh_state(table: Table, player) -> dict:
    """The JSON state a fresh load makes for ``player`` (a socket's first frame)."""
    table = Table.objects.get(pk=table.pk)
    bankroll = player_bankroll(player.pk) if player is not None else None
    left_with = left_table(table.pk, player).minimum if player is not None else 0
    frame = SocketFrames("diff").next_frame(load_snapshot(table), player, bankroll, left_with)
    return json.loads(frame)


def seat_again(table: Table, players: dict, rng: random.Random) -> None:
    """Whoever busted sits down again (buy-ins vary: side pots)."""
    seated = set(Seat.objects.filter(table=table).values_list("player_id", flat=True))
    for player in players.values():
        if player.pk not in seated:
            seat_take(table=table, player=player, buy_in=rng.choice((20, 60, 200)))


def decide(table: Table, players_by_id: dict, rng: random.Random):
    """(player, hand id, action) for the running hand's actor, or None when it is over."""
    hand = table.hands.filter(status=Hand.Status.RUNNING).first()
    if hand is None:
        return None
    state = hand_state(hand)
    if state.runs_due:
        for seat in range(state.seats):
            if not state.folded[seat] and str(seat) not in hand.run_answers:
                return players_by_id[hand.seats[seat]["player_id"]], hand.pk, "run_twice"
        return None
    if state.actor is None:
        return None
    action = RandomBot(rng).decide(state.view(state.actor))
    who = players_by_id[hand.seats[state.actor]["player_id"]]
    cards = [str(card) for card in action.cards]  # a draw's (none in the board games)
    return who, hand.pk, {"kind": str(action.kind), "amount": action.amount, "cards": cards}


def act_once(table: Table, players_by_id: dict, rng: random.Random) -> bool:
    """The running hand's actor makes ``decide``'s decision at the table's version now
    (False: there is none to make)."""
    decision = decide(Table.objects.get(pk=table.pk), players_by_id, rng)
    if decision is None:
        return False
    who, hand_id, action = decision
    version = Table.objects.get(pk=table.pk).version
    hand_act(table=table, player=who, hand_id=hand_id, version=version, action=action)
    return True


@pytest.mark.slow
async def test_diff_frames_rebuild_the_live_table_and_show_no_hidden_card(make_player, make_table):
    table = await sync_to_async(make_table)(
        name="Diffs", max_seats=4, run_it_twice=True, min_buy_in=10, max_buy_in=200
    )
    people = {name: await sync_to_async(make_player)(name) for name in (*PLAYERS, "carol")}
    for person in people.values():
        await sync_to_async(player_grant)(player=person, amount=100_000, reason="diff test")
    players = {name: people[name] for name in PLAYERS}
    by_id = {p.pk: p for p in players.values()}
    rng = random.Random(20260528)
    await sync_to_async(seat_again)(table, players, rng)
    cookies = {n: await sync_to_async(session_cookie)(p.user) for n, p in people.items()}

    followers = []
    for name, kind in (
        ("alice", "page"),
        ("bob", "page"),
        ("carol", "page"),
        ("alice", "diff"),
        ("dave", "diff"),
        ("carol", "diff"),
    ):
        query = "state=json&frames=diff" if kind == "diff" else ""
        socket = Socket(f"{name}/{kind}", communicator(table.pk, cookies[name], query=query))
        follower = Follower(name, people[name], socket, kind)  # carol: seated nowhere
        if kind == "page":  # the page as loaded, then its socket's frames swapped in
            follower.page = Page(await sync_to_async(page_html)(table.pk, cookies[name]))
        connected, _ = await socket.comm.connect()
        assert connected
        followers.append(follower)
    facts = Facts()
    bad: list = []

    async def everyone_has_the_table() -> None:
        version = await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)()
        fresh = {}
        for follower in followers:
            await follower.until(version, facts, bad)
            assert follower.version == version, (follower.name, follower.kind, follower.version)
            if follower.kind == "page":
                reload = Page(await sync_to_async(page_html)(table.pk, cookies[follower.name]))
                for region in REGIONS:
                    assert follower.page.region(f"table-{region}") == reload.region(
                        f"table-{region}"
                    ), f"{follower.name}'s page: the {region} region differs from a reload's"
            else:
                key = follower.player.pk
                if key not in fresh:
                    fresh[key] = await sync_to_async(fresh_state)(table, follower.player)
                assert follower.states.state == fresh[key], f"{follower.name}'s state: not fresh"

    await everyone_has_the_table()
    hands = actions = 0
    while hands < HANDS:
        await sync_to_async(seat_again)(table, players, rng)
        await sync_to_async(hand_start)(table=table)
        await everyone_has_the_table()
        for _ in range(500):
            decision = await sync_to_async(decide)(
                await sync_to_async(Table.objects.get)(pk=table.pk), by_id, rng
            )
            if decision is None:
                break
            who, hand_id, action = decision
            version = await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)()
            await sync_to_async(hand_act)(
                table=table, player=who, hand_id=hand_id, version=version, action=action
            )
            actions += 1
            await everyone_has_the_table()
        hands += 1

    # A fresh program socket, opened now, gets the state each follower built from updates.
    for follower in followers:
        if follower.kind != "diff":
            continue
        comm = communicator(table.pk, cookies[follower.name], query="state=json&frames=diff")
        connected, _ = await comm.connect()
        assert connected
        first = json.loads(await comm.receive_from(timeout=5))
        assert first == follower.states.state, f"{follower.name}: not a new socket's state"
        await comm.disconnect()
    for follower in followers:
        await follower.socket.close()

    assert not bad, bad[:3]
    # Not vacuous: frames were updates, not whole states, and every socket was checked.
    for follower in followers:
        assert follower.checked > 3 * HANDS, (follower.name, follower.checked)
        assert follower.diffs > follower.checked // 2, (follower.name, follower.diffs)
    assert actions > 3 * HANDS
    results = await sync_to_async(
        lambda: list(Hand.objects.filter(table=table).values_list("result", flat=True))
    )()
    assert any(result and result["shown"] for result in results), "no showdown was played"
