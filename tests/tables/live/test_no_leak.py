"""No frame ever shows a viewer a card they may not see.

Over at least 200 complete hands (bots, all-ins, side pots, showdowns, folds), driven by the
croupier's tick at an advancing fake time, every frame sent to two seated players, to a
spectator and to a room screen (``?view=tv``) in a seated player's browser is recorded and
checked: its cards (every face-up card is drawn with ``data-card``)
must be the hand's board as far as it is dealt, the viewer's own hole cards, or — once the
hand is over — hands shown at showdown. Nothing else: no opponent's hole card, no mucked card,
no undealt card.

The test's clock (``TestClock``) is the only clock of the run: the croupier ticks at it and the
services stamp deadlines with it, so the machine's speed changes nothing.
"""

import asyncio
import logging
import os
import random
import re
import time
from datetime import datetime, timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from engine.bots import RandomBot
from engine.types import Action
from tables.croupier import Croupier
from tables.models import Hand, HandAction, Player, Seat, Table
from tables.presenters.render import cards_in_html, render_regions
from tables.selectors.hands import hand_state
from tables.services import hand_act, player_grant, seat_take
from tests.tables.helpers import screen_of
from tests.tables.wsclient import Socket, communicator, session_cookie, version_of

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.one_pass,  # the filter is the engine's; the channel layers have tests of their own
]

HANDS = int(os.environ.get("LEAK_HANDS", "200"))
SEATS_REGION = re.compile(
    r'id="table-seats"[^>]*data-hand="(\d*)"[^>]*data-street="(\w*)"[^>]*?( data-face-up="1")?'
    r" style="
)
BOARD_DEALT = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}
#: How far the test's clock moves before each tick: past any bot's thinking time and the pause
#: between hands, well within a person's action clock.
TICK = timedelta(seconds=2.5)
#: Steps without a hand finishing after which the table counts as stalled. A hand takes one
#: step per bot decision and one to deal (the test's people act within the step), so a few
#: dozen at most.
STALL_STEPS = 200
#: What the croupier does only when a person's clock runs out (or they are away): never, in
#: this test, whose people act as soon as it is their turn.
CLOCK_RAN_OUT = {"time-bank", "timeout", "sat-out"}


@pytest.fixture(autouse=True)
def fast(settings, monkeypatch):
    settings.POKER_CROUPIER = False  # the test ticks the croupier itself
    settings.POKER_HAND_PAUSE_SECONDS = 2
    settings.POKER_RUNOUT_PAUSE_SECONDS = 1.5  # all-in run-outs dealt street by street
    # the test plays far faster than a person: lift the per-socket rate limit
    monkeypatch.setattr("tables.live.consumer.RATE_PER_SECOND", 10_000.0)
    monkeypatch.setattr("tables.live.consumer.RATE_BURST", 10_000)


class TestClock:
    """The test's time, read by everything: ``now()`` stands in for ``django.utils.timezone.now``
    (the ``clock`` fixture), and only ``advance`` moves it.

    The croupier used to tick at a fake time while the services stamped deadlines with the
    wall clock, minutes behind it: every turn that followed a person's action was overdue
    before it began, so the croupier spent that person's time bank, then timed them out and
    sat them out for good; with both people sat out no hand could start ("stuck after 21
    hands")."""

    __test__ = False  # not a test class, despite its name

    def __init__(self, start: datetime):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, by: timedelta) -> datetime:
        self.now += by
        return self.now


@pytest.fixture
def clock(monkeypatch):
    """The test's clock, starting now, in place of ``django.utils.timezone.now`` everywhere."""
    test_clock = TestClock(timezone.now())
    monkeypatch.setattr(timezone, "now", test_clock)
    return test_clock


class Facts:
    """What each finished or running hand really holds (read with the server's secrets)."""

    def __init__(self):
        self.cache = {}

    def of(self, hand_id: int) -> dict:
        hand = Hand.objects.get(pk=hand_id)
        if hand_id in self.cache and self.cache[hand_id]["final"]:
            return self.cache[hand_id]
        state = hand_state(hand)
        shown = set()
        if state.result is not None:
            for cards, _ in state.result.shown.values():
                shown |= {str(c) for c in cards}
        closed = state.runout_start
        facts = {
            "final": not hand.is_running,
            "board": [str(c) for c in state.board],
            "second": [str(c) for c in state.second_board],  # run twice
            # All in: the live hands (face up from then on) and the board dealt by then.
            "live": {
                str(c) for i in range(state.seats) if not state.folded[i] for c in state.hole[i]
            }
            if closed is not None
            else set(),
            "board_at_close": None
            if closed is None
            else sum(len(e.cards) for e in state.events[:closed] if e.kind == "deal_board"),
            "hole": {
                s["player_id"]: {str(c) for c in state.hole[i]} for i, s in enumerate(hand.seats)
            },
            "shown": shown,
        }
        self.cache[hand_id] = facts
        return facts


def seats_context(frame: str, held: tuple | None) -> tuple | None:
    """The hand, street and face-up mark the socket's page shows after ``frame``: the seats
    region's own element says them, and an update that changes any of them sends that whole
    region (``tables.live.frames``); an update without it leaves them as they were."""
    match = SEATS_REGION.search(frame)
    return match.groups() if match is not None else held


def violations(
    frame: str, viewer_id: int | None, facts: Facts, held: tuple | None = None
) -> list[str]:
    """Cards in ``frame`` that the viewer may not see (empty when the frame is clean);
    ``held``: the ``seats_context`` of the socket's page before this frame."""
    cards = cards_in_html(frame)
    context = seats_context(frame, held)
    if context is None or frame.startswith('<div id="table-message"'):
        return cards  # an answer to the sender, or before any state: no card at all
    return disallowed(cards, viewer_id, facts, context)


def disallowed(cards: list[str], viewer_id: int | None, facts: Facts, context: tuple) -> list[str]:
    """Of ``cards``, shown to the viewer while their screen shows ``context`` (the hand's id
    as text, the street, the face-up mark), those they may not see."""
    hand, street, face_up = context
    if not hand:
        return cards  # no hand yet: no card may show
    f = facts.of(int(hand))
    dealt = len(f["board"]) if street == "over" else BOARD_DEALT[street]
    allowed = set(f["board"][:dealt]) | set(f["second"][:dealt])
    allowed |= f["hole"].get(viewer_id, set())
    if street == "over":
        allowed |= f["shown"]
    if face_up:
        # Face up: only once nobody can bet any more, never on a street before that moment.
        if f["board_at_close"] is None or dealt < f["board_at_close"]:
            return ["face up while betting was still possible"]
        allowed |= f["live"]
    return [c for c in cards if c not in allowed]


def human_turn(table_id: int, names: dict, rng: random.Random):
    """(name, action) when one of the test's players is to act, else None."""
    table = Table.objects.get(pk=table_id)
    hand = table.hands.filter(status=Hand.Status.RUNNING).first()
    if hand is None:
        return None
    state = hand_state(hand)
    if state.runs_due:  # run it twice? the test's people say yes (the bots say once)
        for seat in range(state.seats):
            pid = hand.seats[seat]["player_id"]
            if pid in names and not state.folded[seat] and str(seat) not in hand.run_answers:
                return names[pid], Action("run_twice")
        return None
    if state.actor is None:
        return None
    pid = hand.seats[state.actor]["player_id"]
    if pid not in names:
        return None
    action = RandomBot(rng).decide(state.view(state.actor))
    return names[pid], action


def what_they_did(hand_id: int, player_id: int) -> tuple[int, bool, str]:
    """What a person's action leaves in their hand's rows: their decisions logged, whether
    they answered the run-it-twice question, the hand's status."""
    hand = Hand.objects.get(pk=hand_id)
    seat = next(n for n, s in enumerate(hand.seats) if s["player_id"] == player_id)
    logged = HandAction.objects.filter(hand_id=hand_id, seat=seat).count()
    return logged, str(seat) in hand.run_answers, hand.status


def missing_humans(table_id: int, players: list[Player]) -> list[str]:
    seated = set(Seat.objects.filter(table_id=table_id).values_list("player_id", flat=True))
    out = []
    for p in players:
        if p.pk not in seated:
            p.refresh_from_db()
            if p.bankroll < 200:
                player_grant(player=p, amount=5000, reason="leak test top-up")
            out.append(p.user.username)
    return out


def table_state(table_id: int) -> str:
    """The table as the croupier finds it now: for a failure message."""
    table = Table.objects.get(pk=table_id)
    now = timezone.now()

    def when(moment):
        return "unset" if moment is None else f"now{(moment - now).total_seconds():+.1f}s"

    lines = [
        f"table {table.status} v{table.version}, action deadline "
        f"{when(table.action_deadline)}, next hand {when(table.next_hand_at)}"
    ]
    hand = table.hands.filter(status=Hand.Status.RUNNING).first()
    if hand is None:
        lines.append("no hand running")
    else:
        state = hand_state(hand)
        actor = "nobody" if state.actor is None else hand.seats[state.actor]["name"]
        lines.append(f"hand #{hand.number} on the {state.street}, {actor} to act")
    for seat in table.seats.select_related("player__user").order_by("number"):
        flags = [
            flag
            for flag, on in (
                ("bot", seat.player.is_bot),
                ("sitting out", seat.sitting_out),
                ("leaving", seat.leave_after_hand),
            )
            if on
        ]
        lines.append(
            f"seat {seat.number + 1} {seat.player.user.username} stack {seat.stack} "
            f"time bank {seat.time_bank}" + "".join(f", {f}" for f in flags)
        )
    return "; ".join(lines)


def croupier_errors(caplog) -> list[str]:
    """What the croupier logged when a table's tick failed (it logs and carries on)."""
    return [
        record.getMessage() + (f": {record.exc_info[1]!r}" if record.exc_info else "")
        for record in caplog.records
        if record.name == "tables.croupier"
    ][-3:]


def side_pot_played(table_id: int) -> bool:
    return any(
        len(result["awards"]) > 1
        for result in Hand.objects.filter(
            table_id=table_id, status=Hand.Status.FINISHED
        ).values_list("result", flat=True)
    )


def finished_stats(table_id: int) -> dict:
    stats = {"hands": 0, "showdowns": 0, "side_pots": 0, "folds": 0, "all_ins": 0}
    for hand in Hand.objects.filter(table_id=table_id, status=Hand.Status.FINISHED):
        stats["hands"] += 1
        result = hand.result
        if result["shown"]:
            stats["showdowns"] += 1
        else:
            stats["folds"] += 1
        if len(result["awards"]) > 1:
            stats["side_pots"] += 1
        if any(hand_state(hand).all_in_seats):
            stats["all_ins"] += 1
    return stats


async def test_no_frame_shows_a_card_its_viewer_may_not_see(players, make_table, clock, caplog):
    table = await sync_to_async(make_table)(
        name="Leak",
        max_seats=5,
        run_it_twice=True,
        bots_allowed=True,
        bot_seats=2,
        action_seconds=30,
        min_buy_in=10,
        max_buy_in=200,
    )
    alice, bob, carol = players
    names = {alice.pk: "alice", bob.pk: "bob"}
    # "tv": a room screen (issue 53) in alice's browser: a spectator, whose cookie it is
    viewer = {"alice": alice.pk, "bob": bob.pk, "carol": None, "tv": None}
    cookies = {p.user.username: await sync_to_async(session_cookie)(p.user) for p in players}
    sockets = {
        n: await Socket(n, communicator(table.pk, cookies[n])).connect()
        for n in ("alice", "bob", "carol")
    }
    tv = communicator(table.pk, cookies["alice"], query="view=tv")
    sockets["tv"] = await Socket("tv", tv).connect()
    facts = Facts()
    rng = random.Random(20240605)
    croupier = Croupier()
    caplog.set_level(logging.ERROR, logger="tables.croupier")
    checked = {"frames": 0, "own_cards_seen": 0, "face_up": 0}
    bad = []

    contexts: dict[str, tuple | None] = {}

    async def check_frames():
        for name, sock in sockets.items():
            await sock.drain(timeout=0)
            for frame in sock.frames:
                held = contexts.get(name)
                contexts[name] = seats_context(frame, held)
                wrong = await sync_to_async(violations)(frame, viewer[name], facts, held)
                if wrong:
                    bad.append((name, wrong, frame[:300]))
                checked["frames"] += 1
                checked["face_up"] += 'data-face-up="1"' in frame
                if (
                    viewer[name] is not None
                    and 'class="seat' in frame
                    and re.search(
                        r'seat[^"]*\bme\b[^>]*>\s*<div [^>]*class="hole"[^>]*>'
                        r'\s*<span class="pc (?!back)',
                        frame,
                    )
                ):
                    checked["own_cards_seen"] += 1
            sock.frames.clear()

    async def fail_with_the_table(what: str):
        state = await sync_to_async(table_state)(table.pk)
        errors = croupier_errors(caplog)
        pytest.fail(
            f"{what} (step {steps}, {finished} hands finished): {state}"
            + (f"; the croupier logged: {errors}" if errors else "")
        )

    finished = 0
    side_pot = False
    steps = 0
    finished_at_step = 0
    # Side pots come by chance (random buy-ins and bots): play on past HANDS, within a bound,
    # until at least one has happened, so the run always covers them.
    while finished < HANDS or (not side_pot and finished < 3 * HANDS):
        steps += 1
        for name in await sync_to_async(missing_humans)(table.pk, [alice, bob]):
            await sockets[name].send(op="take_seat", seat="", buy_in=str(rng.randint(10, 120)))
            await sockets[name].until(lambda f: "sat down" in f or "Buy in" in f)
        done = await sync_to_async(croupier.tick)(clock.advance(TICK))
        ran_out = [what for _, what in done if what in CLOCK_RAN_OUT]
        if ran_out:
            await fail_with_the_table(
                f"the croupier ran a person's clock out ({', '.join(ran_out)}) though the "
                "test acts for them the moment it is their turn"
            )
        turn = await sync_to_async(human_turn)(table.pk, names, rng)
        if turn is not None:
            name, action = turn
            sock = sockets[name]
            version = await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)()
            hand = await sync_to_async(lambda: Hand.objects.get(table=table, status="running").pk)()
            person = next(pid for pid, named in names.items() if named == name)
            before = await sync_to_async(what_they_did)(hand, person)
            await sock.act(action.kind, action.amount, version=version, hand=hand)
            # Taken (the next version arrives) or refused (an error message). Not any frame
            # with the message region: every diff frame carries it, and one from an earlier
            # change still on its way (the channel layer is slower on Redis) would be taken
            # for the answer, and the next turn read before this action was written.
            frame = await sock.until(
                lambda f, version=version: (
                    (version_of(f) or 0) > version or 'class="table-message error"' in f
                )
            )
            assert 'class="table-message error"' not in frame, frame
            # A later version need not be this action's: a run-out's odds, written by the
            # table's runtime, can come first. The next turn is read once the action is in
            # the hand's rows (else the same person is asked again: "You already answered").
            deadline = time.monotonic() + 30
            while await sync_to_async(what_they_did)(hand, person) == before:
                assert time.monotonic() < deadline, f"{name}'s {action.kind} was never written"
                await asyncio.sleep(0.02)
        if steps % 20 == 0:
            await check_frames()
            count = await sync_to_async(Hand.objects.filter(table=table, status="finished").count)()
            if count > finished:
                finished, finished_at_step = count, steps
            elif steps - finished_at_step >= STALL_STEPS:
                await fail_with_the_table(f"stuck: no hand finished in {STALL_STEPS} steps")
            if finished >= HANDS and not side_pot:
                side_pot = await sync_to_async(side_pot_played)(table.pk)
    await check_frames()
    for sock in sockets.values():
        await sock.close()

    assert not bad, bad[:3]
    stats = await sync_to_async(finished_stats)(table.pk)
    assert stats["hands"] >= HANDS
    assert stats["showdowns"] and stats["folds"] and stats["all_ins"] and stats["side_pots"], stats
    assert checked["frames"] > HANDS * 3 and checked["own_cards_seen"] > HANDS, checked
    assert checked["face_up"], checked  # all-in run-outs were dealt and checked


def test_the_checker_catches_a_frame_rendered_for_someone_else(players, make_table, play):
    """The leak checker is not vacuous: alice's frame, checked as bob's or a spectator's, leaks."""
    from tables.services import hand_start

    table = make_table(name="Control")
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    hand_start(table=table)
    table.refresh_from_db()
    facts = Facts()
    frame = render_regions(screen_of(table, alice))
    assert violations(frame, alice.pk, facts) == []
    mine = facts.of(table.hands.get().pk)["hole"][alice.pk]
    assert set(violations(frame, bob.pk, facts)) == mine
    assert set(violations(frame, None, facts)) == mine
    spectator = render_regions(screen_of(table, carol))
    assert violations(spectator, None, facts) == []


def test_a_turn_after_a_persons_action_counts_from_the_test_clock(players, make_table, clock):
    """The cause of the stall above, in one turn: with the test's clock an hour ahead of the wall
    clock, the deadline a person's action starts for the next person still counts from the
    test's clock, so the croupier's next tick finds nobody out of time."""
    table = make_table(name="Clock", bots_allowed=False, action_seconds=30)
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    croupier = Croupier()
    assert croupier.tick(clock.advance(timedelta(hours=1))) == [(table.pk, "started")]
    table.refresh_from_db()
    hand = table.hands.get()
    first = hand.seats[hand_state(hand).actor]["player_id"]
    hand_act(
        table=table,
        player=alice if first == alice.pk else bob,
        hand_id=hand.pk,
        version=table.version,
        action="call",
    )
    acted_at = clock.now

    assert croupier.tick(clock.advance(TICK)) == []  # not "time-bank": the turn is 2.5 s old
    table.refresh_from_db()
    assert table.action_deadline == acted_at + timedelta(seconds=table.action_seconds)
    assert not HandAction.objects.filter(hand=hand, source=HandAction.Source.TIMEOUT).exists()


def test_the_checker_allows_face_up_hands_only_once_nobody_can_bet(players, make_table, play):
    """Run-outs: after the all-in is called every live hand is face up for everyone, and the
    checker accepts it; the same claim on a frame from before the call is caught."""
    from tables.services import hand_start

    table = make_table(name="Face up")
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    hand_start(table=table)
    play.act(table, "all_in")
    before_call = render_regions(screen_of(table, carol))
    assert 'data-face-up="1"' not in before_call
    play.act(table, "call")
    facts = Facts()
    after_call = render_regions(screen_of(table, carol))
    hand_id = table.hands.get().pk
    both = facts.of(hand_id)["hole"][alice.pk] | facts.of(hand_id)["hole"][bob.pk]
    assert 'data-face-up="1"' in after_call and both <= set(cards_in_html(after_call))
    assert violations(after_call, None, facts) == []
    stripped = after_call.replace(' data-face-up="1"', "")
    assert set(violations(stripped, None, facts)) == both  # without the claim: a leak
    # A frame that claims face-up on a street before the all-in was called is caught.
    facts.of(hand_id)["board_at_close"] = 3
    assert violations(after_call, None, facts) == ["face up while betting was still possible"]
