"""Every "between hands" state (issue 54, finding 1) through every way a viewer follows the
table: the page, the JSON state (``GET /api/tables/<id>/state/``) and the socket's frames of
each kind (the browser's HTML frames, ``frames=diff`` updates, whole ``state=json`` states).

A hand is dealt at a hosted game (alice and bob play; carol and a logged-out visitor watch,
the visitor by the page: a JSON socket logs in), the sockets follow it, and then one way of
ending it leaves the table between hands: paused, emptied, closing, closed, waiting for
players, a seat gone bust, everyone sitting out, or simply over with no next hand dealt. Then,
for every viewer:

- the page and the JSON state answer 200, and every socket is still open (a paused or
  emptied table's state once raised: 500s, and JSON sockets closed 1011);
- a page built from the socket's frames is the page a reload gives, a state built from the
  frames is the state a new socket gets, and the REST state is that state's play state;
- no frame holds a card its viewer may not see (``tests.tables.live.test_no_leak``'s rule):
  a folded hand's cards stay hidden to everyone else; a paused or emptied table's felt shows no
  hand at all (issue 31 item 8), so neither does its JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from tables.models import Hand, Player, Seat, Table
from tables.presenters.render import REGIONS
from tables.services import hand_start, player_grant, seat_leave, seat_sit_out, seat_take
from tables.services.hosting import table_create, table_host_close, table_host_pause
from tests.tables.helpers import act, passive_action, play_out
from tests.tables.live.test_diff_frames import JSON_CARD, Follower, fresh_state
from tests.tables.live.test_no_leak import Facts, disallowed, violations
from tests.tables.oob import Page
from tests.tables.services.test_host_hand_boundary import deal_first
from tests.tables.wsclient import Socket, communicator, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture(autouse=True)
def still(settings, monkeypatch):
    settings.POKER_CROUPIER = False  # no next hand is dealt behind the test's back
    moment = timezone.now()  # a clock's seconds left: the same in a frame and a reload
    monkeypatch.setattr(timezone, "now", lambda: moment)
    monkeypatch.setattr("tables.live.consumer.RATE_PER_SECOND", 10_000.0)
    monkeypatch.setattr("tables.live.consumer.RATE_BURST", 10_000)


def fold(hand: Hand) -> str:
    return "fold"


def paused(choose: Callable[[Hand], str]) -> Callable[[Table, Player, list[Player]], None]:
    """The host pauses during the hand, then it is played to its end."""

    def run(game: Table, host: Player, seated: list[Player]) -> None:
        table_host_pause(table=game, by=host.user)
        play_out(game, choose)

    return run


def emptied(game: Table, host: Player, seated: list[Player]) -> None:
    play_out(game, fold)
    for player in seated:
        assert seat_leave(table=game, player=player)


def closing(game: Table, host: Player, seated: list[Player]) -> None:
    assert not table_host_close(table=game, by=host.user)  # closes when the hand ends
    play_out(game, fold)


def closed(game: Table, host: Player, seated: list[Player]) -> None:
    play_out(game, fold)
    assert table_host_close(table=game, by=host.user)


def waiting(game: Table, host: Player, seated: list[Player]) -> None:
    play_out(game, fold)
    assert seat_leave(table=game, player=seated[0])


def sitting_out(game: Table, host: Player, seated: list[Player]) -> None:
    play_out(game, fold)
    for player in seated:
        seat_sit_out(table=game, player=player)


def over(game: Table, host: Player, seated: list[Player]) -> None:
    play_out(game, fold)


def busted(game: Table, host: Player, seated: list[Player]) -> None:
    act(game, {"kind": "raise", "amount": 100})  # all in (the deck: the big blind wins)
    play_out(game)


@dataclass(frozen=True)
class Between:
    """A way to leave the table between hands, and what its felt shows then."""

    name: str
    step: Callable[[Table, Player, list[Player]], None]
    status: str  # the table's
    shows_hand: bool  # the last hand stays on the felt (else the felt shows none)
    folded: bool = False  # the hand ended with a fold


BETWEEN = [
    Between("paused after a fold", paused(fold), "paused", False, folded=True),
    Between("paused after a showdown", paused(passive_action), "paused", False),
    Between("emptied", emptied, "open", False, folded=True),
    Between("closing", closing, "closed", False, folded=True),
    Between("closed", closed, "closed", False, folded=True),
    Between("waiting for players", waiting, "open", True, folded=True),
    Between("everyone sitting out", sitting_out, "open", True, folded=True),
    Between("a seat gone bust", busted, "open", True),
    Between("over, no next hand dealt", over, "open", True, folded=True),
]


class WholeStates(Follower):
    """A ``state=json`` socket (no ``frames=diff``): a whole state, with its HTML, each time."""

    async def take(self, facts: Facts, bad: list) -> None:
        await self.socket.drain(timeout=0)
        frames, self.socket.frames = self.socket.frames, []
        viewer = self.player.pk if self.player is not None else None
        for frame in frames:
            data = json.loads(frame)
            if data["type"] != "state":
                continue
            self.states.take({key: value for key, value in data.items() if key != "html"})
            self.version = data["version"]
            view = data["view"]
            context = (
                str(data["hand"] or ""),
                view["street"] if view else "",
                view is not None and view["no_more_betting"],
            )
            without_html = json.dumps({**data, "html": ""})
            cards = JSON_CARD.findall(without_html)
            wrong = await sync_to_async(disallowed)(cards, viewer, facts, context)
            wrong += await sync_to_async(violations)(data["html"], viewer, facts)
            self.checked += 1
            if wrong:
                bad.append((self.name, self.kind, wrong, frame[:300]))


def visitor_client(cookie: str | None) -> Client:
    client = Client()
    if cookie is not None:
        client.cookies["sessionid"] = cookie.split("=", 1)[1]
    return client


def page_of(table_id: int, cookie: str | None) -> str:
    response = visitor_client(cookie).get(f"/tables/{table_id}/")
    assert response.status_code == 200
    return response.content.decode()


def rest_state_of(table_id: int, cookie: str | None) -> dict:
    response = visitor_client(cookie).get(f"/api/tables/{table_id}/state/")
    assert response.status_code == 200, response.content[:300]
    return response.json()


def hosted_hand(make_player, between: Between, monkeypatch):
    """A hosted game (its host not seated), alice and bob in a hand, carol without a seat."""
    host = make_player("hostess")
    people = {name: make_player(name) for name in ("alice", "bob", "carol")}
    for person in people.values():
        player_grant(player=person, amount=1_000, reason="between hands test")
    game = table_create(host=host, name="Between hands", private=False)
    if between.step is busted:
        deal_first(monkeypatch, "AsAh", "7c2d", "Kd9s5cJdQc")
    seated = [people["alice"], people["bob"]]
    for number, player in enumerate(seated):
        seat_take(table=game, player=player, buy_in=100, seat_number=2 * number)
    hand_start(table=game)
    return game, host, people, seated


@pytest.mark.parametrize("between", BETWEEN, ids=[b.name for b in BETWEEN])
async def test_between_hands_every_viewer_follows_the_table(make_player, monkeypatch, between):
    game, host, people, seated = await sync_to_async(hosted_hand)(make_player, between, monkeypatch)
    cookies: dict[str, str | None] = {
        name: await sync_to_async(session_cookie)(person.user) for name, person in people.items()
    }
    cookies["visitor"] = None
    viewers = {**people, "visitor": None}
    followers = []
    for name in viewers:
        for kind, query in (
            ("page", ""),
            ("diff", "state=json&frames=diff"),
            ("whole", "state=json"),
        ):
            if kind != "page" and viewers[name] is None:
                continue  # a JSON socket logs in first (a visitor follows by the page)
            if kind == "whole" and name not in ("alice", "carol"):
                continue  # the old frames: a player and a spectator are enough
            socket = Socket(f"{name}/{kind}", communicator(game.pk, cookies[name], query=query))
            make = WholeStates if kind == "whole" else Follower
            follower = make(name, viewers[name], socket, kind)
            if kind == "page":  # the page as loaded, then its socket's frames swapped in
                follower.page = Page(await sync_to_async(page_of)(game.pk, cookies[name]))
            connected, _ = await socket.comm.connect()
            assert connected, follower.name
            followers.append(follower)
    facts, bad = Facts(), []

    async def everyone_has_the_table() -> dict[str, dict]:
        """Every socket reaches the table's version and holds what a reload gives; the REST
        states by viewer."""
        table = await sync_to_async(Table.objects.get)(pk=game.pk)
        rest = {}
        for name in viewers:
            rest[name] = await sync_to_async(rest_state_of)(game.pk, cookies[name])
            assert rest[name]["version"] == table.version, name
        for follower in followers:
            await follower.until(table.version, facts, bad)
            if follower.kind == "page":
                reload = Page(await sync_to_async(page_of)(game.pk, cookies[follower.name]))
                for region in REGIONS:
                    assert follower.page.region(f"table-{region}") == reload.region(
                        f"table-{region}"
                    ), f"{follower.name}'s page: the {region} region differs from a reload's"
            else:
                fresh = await sync_to_async(fresh_state)(table, follower.player)
                assert follower.states.state == fresh, f"{follower.name}: not a new socket's"
                assert rest[follower.name] == fresh["state"], f"{follower.name}: REST differs"
        return rest

    await everyone_has_the_table()
    hand = await sync_to_async(lambda: Hand.objects.get(table=game))()
    await sync_to_async(between.step)(game, host, seated)
    rest = await everyone_has_the_table()
    for follower in followers:  # still open: a socket closed meanwhile holds its close frame
        assert await follower.socket.comm.receive_nothing(timeout=0.1), follower.name
        await follower.socket.close()
    assert not bad, bad[:3]

    hand = await sync_to_async(Hand.objects.get)(pk=hand.pk)
    assert not hand.is_running and hand.result is not None
    assert {state["table"]["status"] for state in rest.values()} == {between.status}
    for name, state in rest.items():
        assert not state["running"] and state["hand"] is None and state["legal"] is None
        assert state["hand_number"] == hand.number  # the table's last hand
        if between.shows_hand:
            assert state["result"]["hand"] == hand.pk and state["street"] == "over", name
            assert len(state["result"]["pots"]) >= 1
        else:
            assert state["result"] is None and state["board"] == [] and state["street"] is None
            assert all(not seat["cards"] for seat in state["seats"]), name
    pages = {name: await sync_to_async(page_of)(game.pk, cookies[name]) for name in viewers}
    if not between.shows_hand and between.status == "paused":
        assert all("Paused by the host" in page for page in pages.values())
    if between.folded:
        await sync_to_async(a_folded_hand_stays_hidden)(hand, people, pages, rest, between)
    if between.step is busted:
        still_seated = await sync_to_async(
            lambda: set(Seat.objects.values_list("player_id", flat=True))
        )()
        gone = [start for start in hand.seats if start["player_id"] not in still_seated]
        assert len(gone) == 1  # the button's 7-2 lost everything to the big blind's aces
        for name, state in rest.items():  # its seat is free; the page keeps its plate, busted
            assert state["seats"][gone[0]["seat"]]["status"] == "empty", name
            assert 'class="status busted"' in pages[name], name


def a_folded_hand_stays_hidden(
    hand: Hand, people: dict, pages: dict[str, str], rest: dict[str, dict], between: Between
) -> None:
    """The folder's hole cards are in no other viewer's page or state; in their own only while
    the felt shows the hand (a check that the cards are looked for where they would be)."""
    folder_id = next(action.seat for action in hand.actions.filter(kind="fold"))
    folder_pk = hand.seats[folder_id]["player_id"]
    holes = Facts().of(hand.pk)["hole"][folder_pk]
    seated = Seat.objects.filter(player_id=folder_pk).exists()
    folder = next(name for name, person in people.items() if person.pk == folder_pk)
    for name in (*people, "visitor"):
        seen_in = pages[name] + json.dumps(rest[name])
        shown = {card for card in holes if f'"{card}"' in seen_in}
        if name != folder or not between.shows_hand:
            assert not shown, (name, folder, shown)
        elif seated:  # their own seat shows them their cards
            assert shown == holes, (name, shown)
