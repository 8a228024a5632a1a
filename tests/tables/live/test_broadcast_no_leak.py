"""The hole-card broadcast (issue 53) never shows a card before its time, and shows it after.

For each game family (hold'em, stud, triple draw), at least 100 hands are played by alice,
bob and carol, acting in-process through the services (random legal actions, the deals fixed
by the test's seeds) at a table whose every player agreed to the broadcast; the host's delay
changes every hand: at once (``none``),
one street later, at the hand's end, one minute after the deal (the last two with the room
screen allowed too). Three real sockets through the ASGI stack watch: a logged-out visitor,
a room screen (``?view=tv``) and alice's own table page. Every frame each receives is checked:

- its cards are the board as far as dealt, the up-cards, the viewer's own (alice's), those
  shown at the showdown or face up in an all-in run-out, and, for the visitor (and the room
  screen when the hand allows it), the hole cards whose delay has passed: dealt on a street
  the hand has moved past (``street``), a hand that is over (``hand``), or dealt a minute
  or more before the frame was made (``minutes``, against the test's clock, which moves only
  between steps, once every frame of the step has been received);
- alice never sees another player's hole card;
- the broadcast cards do come (in each mode, to the visitor; to the room screen only when
  allowed), the timed ones pushed by the table's clock (``TableRuntime.keep_up``, called at
  each step of a timed hand; the last test shows they come with it and without an action).

Each frame's moment is the test clock's at its step: the clock moves only once the runtime
has shown the step's last version and finished its work (``settled``).
"""

import asyncio
import json
import os
import random
from collections import Counter
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from engine.bots import RandomBot
from engine.types import EventKind
from pokerclient.live import apply_patch
from tables.live.runtime import TableRuntime
from tables.models import Hand, Player, Seat, Table
from tables.presenters.render import cards_in_html
from tables.selectors.hands import hand_state
from tables.services import hand_act, hand_start, player_grant, seat_take
from tables.services.broadcast import broadcast_agree, table_broadcast_propose
from tests.tables.live.test_no_leak import TestClock, seats_context
from tests.tables.wsclient import Socket, communicator, session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # 300 hands: about 30 s of CPU
    pytest.mark.one_pass,  # the filter is the presenters'; the layers have tests of their own
]

HANDS = int(os.environ.get("BROADCAST_HANDS", "100"))
FAMILIES = {
    "holdem": {},
    "stud": {"game": "stud", "betting": "fixed-limit", "ante": 1, "bring_in": 2, "small_bet": 5},
    "draw": {"game": "27-triple-draw", "betting": "fixed-limit"},
}
#: The host's delay and whether the room screen shows the cards too: one per hand, in turn.
MODES = [("none", False), ("street", True), ("hand", False), ("minutes", True)]
MINUTES = 1
STEP = {"minutes": timedelta(seconds=20)}  # a minute passes within a hand
TICK = timedelta(seconds=2.5)
BOARD_DEALT = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}


@pytest.fixture(autouse=True)
def fast(settings, monkeypatch):
    settings.POKER_CROUPIER = False  # the test ticks the croupier itself
    settings.POKER_HAND_PAUSE_SECONDS = 2
    settings.POKER_BOT_DELAY = (0, 0)
    monkeypatch.setattr("tables.live.consumer.RATE_PER_SECOND", 10_000.0)
    monkeypatch.setattr("tables.live.consumer.RATE_BURST", 10_000)


@pytest.fixture
def clock(monkeypatch):
    test_clock = TestClock(timezone.now())
    monkeypatch.setattr(timezone, "now", test_clock)
    return test_clock


def dealt_streets(state, seat: int, family: str) -> dict[str, int]:
    """Each card seat ``seat`` was ever dealt -> the street it was dealt on, worked out from
    the game's own dealing pattern (not the site's ``street_starts``)."""
    out: dict[str, int] = {}
    received = draws = 0
    for event in state.events:
        if event.seat != seat:
            continue
        if event.kind is EventKind.DISCARD:
            draws += 1
        if event.kind not in (EventKind.DEAL_HOLE, EventKind.DEAL_UP, EventKind.DRAW):
            continue
        for card in event.cards:
            received += 1
            if family == "stud":  # third street deals three cards, each later street one
                out[str(card)] = max(0, received - 3)
            elif family == "draw":
                out[str(card)] = draws if event.kind is EventKind.DRAW else 0
            else:
                out[str(card)] = 0
    return out


class Facts:
    """What a hand really holds, read with the server's secrets (cached once it is over)."""

    def __init__(self, family: str):
        self.family = family
        self.cache: dict[int, dict] = {}

    def of(self, hand_id: int) -> dict:
        if hand_id in self.cache and self.cache[hand_id]["final"]:
            return self.cache[hand_id]
        hand = Hand.objects.get(pk=hand_id)
        state = hand_state(hand)
        shown = {
            str(c)
            for cards, _ in (state.result.shown.values() if state.result else ())
            for c in cards
        }
        closed = state.runout_start
        streets = {}
        for i, start in enumerate(hand.seats):
            streets[start["player_id"]] = dealt_streets(state, i, self.family)
        up = {}
        for event in state.events:
            if event.kind is EventKind.DEAL_UP:
                for card in event.cards:
                    up[str(card)] = streets[hand.seats[event.seat]["player_id"]][str(card)]
        facts = {
            "final": not hand.is_running,
            "broadcast": hand.broadcast,
            "streets": tuple(state.config.streets),
            "board": [str(c) for c in state.board],
            "second": [str(c) for c in state.second_board],
            "live": {
                str(c) for i in range(state.seats) if not state.folded[i] for c in state.hole[i]
            }
            if closed is not None
            else set(),
            "board_at_close": None
            if closed is None
            else sum(len(e.cards) for e in state.events[:closed] if e.kind == "deal_board"),
            "dealt": streets,  # player id -> card -> street
            "up": up,
            "shown": shown,
        }
        self.cache[hand_id] = facts
        return facts


class Checker:
    """Checks each frame of each socket; counts the broadcast cards each was shown by mode."""

    def __init__(self, family: str, alice_id: int):
        self.facts = Facts(family)
        self.alice_id = alice_id
        self.contexts: dict[str, tuple | None] = {}
        self.street_seen: dict[tuple[int, int], object] = {}  # (hand, street) -> first time
        self.bad: list = []
        self.frames = 0
        self.broadcast_seen: Counter = Counter()  # (socket, delay) -> cards

    def check_all(self, frames: list[tuple[str, str]], now) -> None:
        for name, frame in frames:
            self.check(name, frame, now)

    def check(self, name: str, frame: str, now) -> None:
        self.frames += 1
        held = self.contexts.get(name)
        context = self.contexts[name] = seats_context(frame, held)
        cards = cards_in_html(frame)
        if context is None or frame.startswith('<div id="table-message"') or not context[0]:
            if cards:
                self.bad.append((name, "no hand on screen", cards, frame[:200]))
            return
        hand_id, street, face_up = int(context[0]), context[1], context[2]
        f = self.facts.of(hand_id)
        streets = f["streets"]
        index = len(streets) if street == "over" else streets.index(street)
        self.street_seen.setdefault((hand_id, index), now)
        for s in range(index):  # a street passed over in a frame still began by now
            self.street_seen.setdefault((hand_id, s), now)
        dealt = len(f["board"]) if street == "over" else BOARD_DEALT.get(street, 0)
        allowed = set(f["board"][:dealt]) | set(f["second"][:dealt])
        allowed |= {card for card, s in f["up"].items() if s <= index}
        if name == "alice":
            allowed |= set(f["dealt"].get(self.alice_id, {}))
        if street == "over":
            allowed |= f["shown"]
        if face_up:
            if f["board_at_close"] is None or dealt < f["board_at_close"]:
                self.bad.append((name, "face up while betting was still possible"))
            allowed |= f["live"]
        broadcast = self.broadcast_allowed(name, hand_id, f, index, now)
        delay = f["broadcast"].partition("+")[0]
        for card in cards:
            if card in allowed:
                continue
            if card in broadcast:
                self.broadcast_seen[name, delay] += 1
                continue
            self.bad.append((name, hand_id, street, str(now), f["broadcast"], card, frame[:300]))

    def broadcast_allowed(self, name: str, hand_id: int, f: dict, index: int, now) -> set[str]:
        """The hole cards the broadcast may show ``name`` in a frame of street ``index``
        made at ``now``."""
        delay, _, where = f["broadcast"].partition("+")
        if name == "alice" or not delay or (name == "tv" and where != "tv"):
            return set()
        over = index == len(f["streets"])
        if delay == "0" or (over and delay in ("street", "hand")):
            revealed = 99
        elif delay == "street":
            revealed = index
        elif delay == "hand":
            revealed = 0
        else:
            after = timedelta(minutes=int(delay[1:]))
            revealed = 0
            while (hand_id, revealed) in self.street_seen and (
                self.street_seen[hand_id, revealed] + after <= now
            ):
                revealed += 1
        return {
            card for streets in f["dealt"].values() for card, s in streets.items() if s < revealed
        }


def play_step(table_id: int, people: list, mode: tuple | None, finished: int, rng) -> tuple:
    """One step of the game, in-process through the services: between hands the host sets
    the next hand's delay (everyone agrees again), whoever went bust sits down again and the
    next hand is dealt; during one the player to act acts (a random legal action).
    Returns (the mode proposed, hands finished, the table's version now)."""
    table = Table.objects.get(pk=table_id)
    hand = table.hands.filter(status=Hand.Status.RUNNING).first()
    if hand is not None:
        state = hand_state(hand)
        who = Player.objects.get(pk=hand.seats[state.actor]["player_id"])
        action = RandomBot(rng).decide(state.view(state.actor))
        hand_act(table=table, player=who, hand_id=hand.pk, version=table.version, action=action)
        return mode, finished, Table.objects.get(pk=table_id).version
    finished = table.hands.count()
    seated = set(Seat.objects.filter(table=table).values_list("player_id", flat=True))
    for person in people:
        if person.pk not in seated:
            person.refresh_from_db()
            if person.bankroll < 200:
                player_grant(player=person, amount=5000, reason="broadcast test top-up")
            seat_take(table=table, player=person, buy_in=150)
    wanted = MODES[finished % len(MODES)]
    if wanted != mode:
        delay, tv = wanted
        table_broadcast_propose(
            table=table, by=people[0].user, delay=delay, minutes=MINUTES, room_screen=tv
        )
        for person in people:
            broadcast_agree(table=table, player=person)
    hand_start(table=table)
    return wanted, finished, Table.objects.get(pk=table_id).version


async def settled(table_id: int, version: int) -> None:
    """Every change made so far (up to ``version``) has been shown to the sockets (the
    runtime is idle at that version): no frame of this step is still on its way."""
    runtime = TableRuntime.following(table_id)
    assert runtime is not None

    async def caught_up():
        while runtime.shown < version:
            await asyncio.sleep(0.005)
        await runtime.call(_nothing)  # the work under way when it caught up is done

    await asyncio.wait_for(caught_up(), 10)


async def _nothing():
    return None


@pytest.mark.parametrize("family", list(FAMILIES))
async def test_no_hole_card_before_its_delay(family, players, make_table, clock):
    alice = players[0]
    table = await sync_to_async(make_table)(
        name=f"Broadcast {family}", host=alice, max_seats=4, action_seconds=600, **FAMILIES[family]
    )
    cookie = await sync_to_async(session_cookie)(alice.user)
    sockets = {
        "visitor": await Socket("visitor", communicator(table.pk)).connect(),
        "tv": await Socket("tv", communicator(table.pk, cookie, query="view=tv")).connect(),
        "alice": await Socket("alice", communicator(table.pk, cookie)).connect(),
    }
    checker = Checker(family, alice.pk)
    rng = random.Random(53)
    mode, finished, step = None, 0, 0
    while finished < HANDS and step < HANDS * 60:
        step += 1
        clock.advance(STEP.get(mode[0], TICK) if mode else TICK)
        if mode is not None and mode[0] == "minutes":
            await TableRuntime.keep_up()  # the table's clock: a timed reveal that is due
        mode, finished, version = await sync_to_async(play_step)(
            table.pk, players, mode, finished, rng
        )
        await settled(table.pk, version)
        frames = [(name, f) for name, sock in sockets.items() for f in await sock.drain(timeout=0)]
        await sync_to_async(checker.check_all)(frames, clock.now)
    for sock in sockets.values():
        await sock.close()

    assert not checker.bad, checker.bad[:3]
    assert finished >= HANDS, f"{finished} hands in {step} steps"
    broadcast = await sync_to_async(
        lambda: Counter(
            h.partition("+")[0]
            for h in Hand.objects.filter(table=table).values_list("broadcast", flat=True)
        )
    )()
    assert all(broadcast[code] >= HANDS // 5 for code in ("0", "street", "hand", f"m{MINUTES}")), (
        broadcast
    )
    seen = checker.broadcast_seen
    for code in ("0", "street", "hand", f"m{MINUTES}"):
        assert seen["visitor", code] > 0, (code, seen)
    assert seen["tv", "street"] > 0 and seen["tv", f"m{MINUTES}"] > 0, seen
    assert not seen["tv", "0"] and not seen["tv", "hand"], seen
    assert not any(name == "alice" for name, _ in seen), seen


def dealt_pair(table, alice, bob) -> dict:
    """alice and bob agree to a one-minute broadcast and are dealt a hand: their cards."""
    for person in (alice, bob):
        seat_take(table=table, player=person, buy_in=100)
    table_broadcast_propose(table=table, by=alice.user, delay="minutes", minutes=1)
    for person in (alice, bob):
        broadcast_agree(table=table, player=person)
    hand = hand_start(table=Table.objects.get(pk=table.pk))
    state = hand_state(hand)
    return {
        start["player_id"]: {str(c) for c in state.hole[i]} for i, start in enumerate(hand.seats)
    }


async def test_a_timed_reveal_comes_with_the_tables_clock_not_an_action(players, make_table, clock):
    """Nobody acts: a minute after the deal the table's clock (``keep_up``) shows the
    visitor every hole card; alice's own page never gets bob's."""
    alice, bob, _ = players
    table = await sync_to_async(make_table)(name="Clock", host=alice, action_seconds=600)
    holes = await sync_to_async(dealt_pair)(table, alice, bob)
    cookie = await sync_to_async(session_cookie)(alice.user)
    visitor = await Socket("visitor", communicator(table.pk)).connect()
    mine = await Socket("alice", communicator(table.pk, cookie)).connect()
    every = holes[alice.pk] | holes[bob.pk]
    assert not every & set(cards_in_html("".join(visitor.frames)))

    clock.advance(timedelta(seconds=59))
    await TableRuntime.keep_up()
    assert not every & set(cards_in_html("".join(await visitor.drain(timeout=0.2))))
    clock.advance(timedelta(seconds=1))
    await TableRuntime.keep_up()
    await visitor.until(lambda frame: every <= set(cards_in_html(frame)))
    await TableRuntime.keep_up()  # once shown, not again
    assert await visitor.drain(timeout=0.2) == []
    assert not holes[bob.pk] & set(cards_in_html("".join(mine.frames + await mine.drain())))
    for sock in (visitor, mine):
        await sock.close()


def json_cards(document: dict) -> tuple[set[str], set[str]]:
    """The cards a JSON state shows at the seats: the play state's, the engine view's."""

    def cards(seats: list[dict]) -> set[str]:
        return {card for seat in seats for card in seat.get("cards") or () if card}

    return cards(document["state"]["seats"]), cards((document.get("view") or {}).get("seats", []))


class Followed:
    """What a program's socket holds: each whole state, each update's patch applied."""

    def __init__(self, socket: Socket):
        self.socket, self.document, self.read_up_to = socket, None, 0

    async def cards(self) -> set[str]:
        """The cards at the seats of the state the socket holds once what came is read (the
        same in the play state and the engine's view)."""
        await self.socket.drain(timeout=0.2)
        frames = self.socket.frames[self.read_up_to :]
        self.read_up_to = len(self.socket.frames)
        for frame in frames:
            data = json.loads(frame)
            kind = data.pop("type")
            if kind == "state":
                data.pop("version")
                self.document = data
            elif kind == "update":
                self.document = apply_patch(self.document, data["patch"])
        in_state, in_view = json_cards(self.document)
        assert in_state == in_view, (self.socket.name, in_state, in_view)
        return in_state


async def test_program_sockets_without_a_seat_get_the_cards_on_time_and_a_player_never(
    players, make_table, clock
):
    """The same minute's wait for the program sockets (``?state=json``, whole states, and
    ``&frames=diff``, updates) of carol, logged in without a seat (a program logs in): no
    hole card before the minute in either, every one after it; alice's own program socket
    never holds bob's."""
    alice, bob, carol = players
    table = await sync_to_async(make_table)(name="Programs", host=alice, action_seconds=600)
    holes = await sync_to_async(dealt_pair)(table, alice, bob)
    cookies = {p: await sync_to_async(session_cookie)(p.user) for p in (alice, carol)}
    followed = {
        name: Followed(
            await Socket(name, communicator(table.pk, cookies[person], query=query)).connect()
        )
        for name, person, query in (
            ("whole", carol, "state=json"),
            ("diff", carol, "state=json&frames=diff"),
            ("alice", alice, "state=json&frames=diff"),
        )
    }
    every = holes[alice.pk] | holes[bob.pk]
    visitors = (followed["whole"], followed["diff"])
    for visitor in visitors:
        assert not every & await visitor.cards()
    clock.advance(timedelta(seconds=59))
    await TableRuntime.keep_up()
    for visitor in visitors:
        assert not every & await visitor.cards()
    clock.advance(timedelta(seconds=1))
    await TableRuntime.keep_up()
    for visitor in visitors:
        await visitor.socket.until(lambda frame: True)  # the reveal's frame
        assert await visitor.cards() >= every, visitor.socket.name
    mine = await followed["alice"].cards()
    assert holes[alice.pk] <= mine and not holes[bob.pk] & mine
    for item in followed.values():
        await item.socket.close()
