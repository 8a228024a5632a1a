"""No frame ever shows a viewer a card they may not see.

Over at least 200 complete hands (bots, all-ins, side pots, showdowns, folds), driven by the
croupier's tick at an advancing fake time, every frame sent to two seated players and to a
spectator is recorded and checked: its cards (every face-up card is drawn with ``data-card``)
must be the hand's board as far as it is dealt, the viewer's own hole cards, or — once the
hand is over — hands shown at showdown. Nothing else: no opponent's hole card, no mucked card,
no undealt card.
"""

import random
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from engine.bots import RandomBot
from tables.croupier import Croupier
from tables.models import Hand, Player, Seat, Table
from tables.presenters import cards_in_html, render_regions, table_screen
from tables.selectors import hand_state
from tables.services import player_grant
from tests.tables.wsclient import Socket, communicator, session_cookie, version_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

HANDS = int(__import__("os").environ.get("LEAK_HANDS", "200"))
SEATS_REGION = re.compile(r'id="table-seats"[^>]*data-hand="(\d*)"[^>]*data-street="(\w*)"')
BOARD_DEALT = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}


@pytest.fixture(autouse=True)
def fast(settings, monkeypatch):
    settings.POKER_CROUPIER = False  # the test ticks the croupier itself
    settings.POKER_HAND_PAUSE_SECONDS = 2
    # the test plays far faster than a person: lift the per-socket rate limit
    monkeypatch.setattr("tables.consumers.RATE_PER_SECOND", 10_000.0)
    monkeypatch.setattr("tables.consumers.RATE_BURST", 10_000)


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
        facts = {
            "final": not hand.is_running,
            "board": [str(c) for c in state.board],
            "hole": {s["player_id"]: {str(c) for c in state.hole[i]}
                     for i, s in enumerate(hand.seats)},
            "shown": shown,
        }
        self.cache[hand_id] = facts
        return facts


def violations(frame: str, viewer_id: int | None, facts: Facts) -> list[str]:
    """Cards in ``frame`` that the viewer may not see (empty when the frame is clean)."""
    cards = cards_in_html(frame)
    match = SEATS_REGION.search(frame)
    if match is None:  # an answer to the sender: must carry no card at all
        return cards
    if not match.group(1):
        return cards  # no hand yet: no card may show
    f = facts.of(int(match.group(1)))
    street = match.group(2)
    allowed = set(f["board"] if street == "over" else f["board"][: BOARD_DEALT[street]])
    allowed |= f["hole"].get(viewer_id, set())
    if street == "over":
        allowed |= f["shown"]
    return [c for c in cards if c not in allowed]


def human_turn(table_id: int, names: dict, rng: random.Random):
    """(name, action) when one of the test's players is to act, else None."""
    table = Table.objects.get(pk=table_id)
    hand = table.hands.filter(status=Hand.Status.RUNNING).first()
    if hand is None:
        return None
    state = hand_state(hand)
    if state.actor is None:
        return None
    pid = hand.seats[state.actor]["player_id"]
    if pid not in names:
        return None
    action = RandomBot(rng).decide(state.view(state.actor))
    return names[pid], action


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


def side_pot_played(table_id: int) -> bool:
    return any(len(result["awards"]) > 1 for result in Hand.objects.filter(
        table_id=table_id, status=Hand.Status.FINISHED).values_list("result", flat=True))


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


async def test_no_frame_shows_a_card_its_viewer_may_not_see(players, make_table):
    table = await sync_to_async(make_table)(
        name="Leak", max_seats=5, bots_allowed=True, bot_seats=2, action_seconds=30,
        min_buy_in=10, max_buy_in=200)
    alice, bob, carol = players
    names = {alice.pk: "alice", bob.pk: "bob"}
    viewer = {"alice": alice.pk, "bob": bob.pk, "carol": None}
    cookies = {p.user.username: await sync_to_async(session_cookie)(p.user) for p in players}
    sockets = {n: await Socket(n, communicator(table.pk, cookies[n])).connect()
               for n in ("alice", "bob", "carol")}
    facts = Facts()
    rng = random.Random(20240605)
    croupier = Croupier()
    now = timezone.now()
    checked = {"frames": 0, "own_cards_seen": 0}
    bad = []

    async def check_frames():
        for name, sock in sockets.items():
            await sock.drain(timeout=0)
            for frame in sock.frames:
                wrong = await sync_to_async(violations)(frame, viewer[name], facts)
                if wrong:
                    bad.append((name, wrong, frame[:300]))
                checked["frames"] += 1
                if viewer[name] is not None and 'class="seat' in frame and re.search(
                        r'seat[^"]*\bme\b[^>]*>\s*<div class="hole"[^>]*>\s*<span class="pc (?!back)',
                        frame):
                    checked["own_cards_seen"] += 1
            sock.frames.clear()

    finished = 0
    side_pot = False
    steps = 0
    # Side pots come by chance (random buy-ins and bots): play on past HANDS, within a bound,
    # until at least one has happened, so the run always covers them.
    while finished < HANDS or (not side_pot and finished < 3 * HANDS):
        steps += 1
        assert steps < 3 * HANDS * 60, f"stuck after {finished} hands"
        for name in await sync_to_async(missing_humans)(table.pk, [alice, bob]):
            await sockets[name].send(op="take_seat", seat="", buy_in=str(rng.randint(10, 120)))
            await sockets[name].until(lambda f: "sat down" in f or "Buy in" in f)
        now += timedelta(seconds=2.5)
        await sync_to_async(croupier.tick)(now)
        turn = await sync_to_async(human_turn)(table.pk, names, rng)
        if turn is not None:
            name, action = turn
            sock = sockets[name]
            version = await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)()
            hand = await sync_to_async(
                lambda: Hand.objects.get(table=table, status="running").pk)()
            await sock.act(action.kind, action.amount, version=version, hand=hand)
            # Taken (the next version arrives) or refused (an error message, and no version).
            frame = await sock.until(lambda f: (version_of(f) or 0) > version
                                     or ('id="table-message"' in f and 'table-seats' not in f))
            assert 'class="table-message error"' not in frame, frame
        if steps % 20 == 0:
            await check_frames()
            finished = await sync_to_async(
                Hand.objects.filter(table=table, status="finished").count)()
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


def test_the_checker_catches_a_frame_rendered_for_someone_else(players, make_table, play):
    """The leak checker is not vacuous: alice's frame, checked as bob's or a spectator's, leaks."""
    from tables.services import hand_start, seat_take

    table = make_table(name="Control")
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    hand_start(table=table)
    table.refresh_from_db()
    facts = Facts()
    frame = render_regions(table_screen(table, alice))
    assert violations(frame, alice.pk, facts) == []
    mine = facts.of(table.hands.get().pk)["hole"][alice.pk]
    assert set(violations(frame, bob.pk, facts)) == mine
    assert set(violations(frame, None, facts)) == mine
    spectator = render_regions(table_screen(table, carol))
    assert violations(spectator, None, facts) == []
