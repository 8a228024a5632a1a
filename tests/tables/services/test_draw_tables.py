"""The draw games at a table: the discard goes through the one service that acts (the socket
operation and the REST play API carry its cards), the table page offers the draw, and hidden
cards stay hidden: nobody sees another player's discards or drawn cards, only how many."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tables.models import HandAction, Table
from tables.operations import run_op
from tables.presenters.play_state import play_state
from tables.presenters.render import render_regions
from tables.selectors.hands import hand_state
from tables.selectors.snapshot import load_snapshot
from tables.services import hand_start, seat_take
from tables.services.errors import IllegalMove
from tables.text import BadFrame
from tests.api.test_hidden_cards import card_tokens
from tests.tables.helpers import act, current_hand, fresh, screen_of

pytestmark = pytest.mark.django_db

TRIPLE_DRAW = {"game": "27-triple-draw", "betting": "fixed-limit", "max_seats": 6}


@pytest.fixture
def draw_table(make_table, players):
    table = make_table(name="Deuce", **TRIPLE_DRAW)
    for number, person in enumerate(players):
        seat_take(table=table, player=person, buy_in=200, seat_number=number)
    hand_start(table=table)
    return table


def to_the_draw(table):
    """Everyone calls or checks until the first draw."""
    for _ in range(10):
        legal = hand_state(current_hand(table)).legal
        if legal.discard:
            return
        act(table, "check" if legal.check else "call")
    raise AssertionError("no draw came")


def seat_player(table, players, index):
    hand = current_hand(table)
    return next(p for p in players if p.pk == hand.seats[index]["player_id"])


def test_a_discard_is_dealt_as_many_new_cards_and_stored_for_the_replay(draw_table, players):
    table = draw_table
    to_the_draw(table)
    state = hand_state(current_hand(table))
    drawer = state.actor
    old = state.hole[drawer]
    thrown = [str(old[0]), str(old[3])]
    act(table, {"kind": "discard", "cards": thrown})
    row = HandAction.objects.filter(kind="discard").get()
    assert row.cards == "".join(thrown)
    for _ in range(2):
        act(table, {"kind": "discard", "cards": []})  # the others stand pat
    state = hand_state(current_hand(table))
    new = state.hole[drawer]
    assert len(new) == 5 and not {str(c) for c in new} & set(thrown)
    assert state.drawn[drawer] == [2]


def test_a_discard_of_a_card_not_held_or_outside_the_draw_is_refused(draw_table, players):
    table = draw_table
    with pytest.raises(IllegalMove) as refused:
        act(table, {"kind": "discard", "cards": []})
    assert refused.value.code == "no_draw_now"
    to_the_draw(table)
    state = hand_state(current_hand(table))
    others = {c for i, hole in enumerate(state.hole) if i != state.actor for c in hole}
    with pytest.raises(IllegalMove) as refused:
        act(table, {"kind": "discard", "cards": [str(next(iter(others)))]})
    assert refused.value.code == "discard_not_held"
    assert not HandAction.objects.filter(kind="discard").exists(), "nothing changed"


def test_the_socket_operation_reads_the_cards_and_refuses_a_bad_one(draw_table, players):
    table = draw_table
    to_the_draw(table)
    hand = current_hand(table)
    state = hand_state(hand)
    drawer = seat_player(table, players, state.actor)
    frame = {"op": "act", "kind": "discard", "hand": hand.pk, "version": fresh(table).version}
    with pytest.raises(BadFrame):
        run_op(table_id=table.pk, user=drawer.user, data={**frame, "cards": ["Zz"]})
    card = str(state.hole[state.actor][1])
    run_op(table_id=table.pk, user=drawer.user, data={**frame, "cards": card})  # one: a text
    assert HandAction.objects.get(kind="discard").cards == card


def test_the_play_api_discards_with_the_cards(draw_table, players):
    table = draw_table
    to_the_draw(table)
    hand = current_hand(table)
    state = hand_state(hand)
    drawer = seat_player(table, players, state.actor)
    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=drawer.user)[0].key}"
    )
    seen = client.get(f"/api/tables/{table.pk}/state/").json()
    assert seen["legal"]["actions"] == ["discard"] and seen["legal"]["hand_words"]
    thrown = [str(c) for c in state.hole[state.actor][:3]]
    body = {"hand": hand.pk, "version": seen["version"], "action": "discard", "cards": thrown}
    bad = client.post(
        f"/api/tables/{table.pk}/actions/", {**body, "cards": ["As", "As"]}, format="json"
    )
    assert bad.status_code == 400 and "cards" in bad.content.decode()
    answer = client.post(f"/api/tables/{table.pk}/actions/", body, format="json")
    assert answer.status_code == 200, answer.content
    assert HandAction.objects.get(kind="discard").cards == "".join(thrown)


def test_nobody_sees_another_players_discards_or_drawn_cards_only_the_counts(
    draw_table, players, make_player
):
    table = draw_table
    to_the_draw(table)
    state = hand_state(current_hand(table))
    drawer_index = state.actor
    drawer = seat_player(table, players, drawer_index)
    thrown = [str(c) for c in state.hole[drawer_index][:2]]
    act(table, {"kind": "discard", "cards": thrown})
    act(table, {"kind": "discard", "cards": []})
    act(table, {"kind": "discard", "cards": []})
    state = hand_state(current_hand(table))
    drawn = {str(c) for c in state.hole[drawer_index]} - {
        str(c) for c in state.hole[drawer_index][:3]
    }
    secret = set(thrown) | drawn
    watcher = make_player("dave")
    snapshot = load_snapshot(fresh(table))
    for viewer in [p for p in players if p != drawer] + [watcher, None]:
        screen = screen_of(table, viewer)
        assert not card_tokens(repr(screen)) & secret, viewer
        as_json = repr(play_state(snapshot, screen))
        assert not card_tokens(as_json) & secret, viewer
        lines = [line.text for line in screen.log.lines]
        assert f"{drawer.name} draws 2" in lines and f"{drawer.name} is dealt 2" in lines
        plates = [p.plate for p in screen.seats.seats if p.plate is not None]
        assert any(plate.drew == "draws 2" for plate in plates)
    own = screen_of(table, drawer)
    assert drawn <= card_tokens(repr(own.seats)), "the drawer sees the new cards"


def test_the_draw_bar_offers_the_cards_and_names_the_hand(draw_table, players):
    table = draw_table
    to_the_draw(table)
    state = hand_state(current_hand(table))
    drawer = seat_player(table, players, state.actor)
    screen = screen_of(table, drawer)
    bar = screen.actions.bar
    assert bar is not None and len(bar.draw) == 5 and bar.hand_words
    assert {face.code for face in bar.draw} == {str(c) for c in state.hole[state.actor]}
    html = render_regions(screen)
    assert 'class="act draw"' in html and "Stand pat" in html and bar.hand_words in html
    for card in bar.draw:
        assert f'name="cards" value="{card.code}"' in html


def test_a_mixed_table_shows_the_game_dealt_and_the_next(make_table, players):
    table = make_table(name="Horse", game="horse", small_bet=4, ante=1, bring_in=1)
    for number, person in enumerate(players):
        seat_take(table=table, player=person, buy_in=200, seat_number=number)
    hand_start(table=table)
    line = screen_of(fresh(table), players[0]).board.game_line
    assert line == "HORSE: Fixed-limit Hold'em · next: Fixed-limit Omaha Hi/Lo in 2 hands"
    assert Table.objects.get(pk=table.pk).dealt_game == "holdem/fixed-limit"


@pytest.mark.parametrize("game", ["27-triple-draw", "badugi", "five-card-draw", "short-deck"])
def test_the_croupiers_bots_play_the_new_games_legally(make_table, make_player, game):
    from datetime import timedelta

    from django.utils import timezone

    from engine.variants import variant
    from tables.services.clock import clock_tick

    rules = variant(game)
    table = make_table(
        name=f"Bots {game}",
        game=game,
        betting=rules.bettings[0],
        bots_allowed=True,
        bot_seats=3,
        max_seats=5,
    )
    dora = make_player("dora")
    now = timezone.now()
    clock_tick(table=table, now=now)
    seat_take(table=table, player=dora, buy_in=200)
    finished = 0
    for _ in range(400):
        now += timedelta(seconds=5)
        running = table.hands.filter(status="running").first()
        state = hand_state(running) if running is not None else None
        dora_acts = state is not None and state.actor is not None
        if dora_acts and running.seats[state.actor]["player_id"] == dora.pk:
            legal = state.legal
            move = "discard" if legal.discard else "check" if legal.check else "fold"
            act(table, move, player=dora)
            continue
        clock_tick(table=table, now=now)
        finished = table.hands.filter(status="finished").count()
        if finished >= 3:
            break
    assert finished >= 3
    if rules.is_draw:
        bot_draws = HandAction.objects.filter(hand__table=table, kind="discard", source="bot")
        assert bot_draws.exclude(cards="").exists(), "the bots threw cards away"


def test_vpip_and_pfr_count_the_round_before_the_first_draw():
    from engine.config import HandConfig
    from engine.hand import Hand as EngineHand
    from tables.stats.figures import seat_figures

    config = HandConfig(game="27-triple-draw", betting="fixed-limit", small_blind=1, big_blind=2)
    hand = EngineHand(config, stacks=[100, 100, 100], button=0, deck=list(range(52)))
    # before the draw: the button calls, the small blind folds, the big blind checks
    for move in ("call", "fold", "check"):
        hand.act(move)
    for _ in range(2):
        hand.act("discard")
    # after the first draw the big blind bets and the button raises: not preflop figures
    hand.act("raise 2")
    hand.act("raise 4")
    hand.act("call")
    while not hand.is_over:
        hand.act("discard" if hand.legal.discard else "check")
    figures = {f.seat: f for f in seat_figures(hand)}
    assert figures[0].vpip and not figures[0].pfr, "the button called before the draw"
    assert not figures[2].vpip and not figures[2].pfr, "the big blind only checked then"
    assert figures[0].saw_flop and figures[2].saw_flop and not figures[1].saw_flop
    assert figures[2].postflop_aggressive == 1 and figures[0].postflop_aggressive == 1


def test_the_replayer_steps_through_the_draws_showing_counts_not_cards(draw_table, players):
    from tables.selectors.replay import hand_replay_steps

    table = draw_table
    to_the_draw(table)
    state = hand_state(current_hand(table))
    drawer = state.actor
    thrown = [str(c) for c in state.hole[drawer][:2]]
    act(table, {"kind": "discard", "cards": thrown})
    hand = current_hand(table)
    while hand.is_running:
        legal = hand_state(hand).legal
        act(table, "discard" if legal.discard else "check" if legal.check else "call")
        hand.refresh_from_db()
    name = hand.seats[drawer]["name"]
    for seat in (None, (drawer + 1) % 3):
        steps = hand_replay_steps(hand, seat)
        labels = [step.label for step in steps]
        assert f"{name} draws 2" in labels and any("stands pat" in label for label in labels)
        for step in steps:
            assert not seen_cards(step.view) & set(thrown), (seat, step.label)
    own = hand_replay_steps(hand, drawer)
    assert any(set(thrown) <= seen_cards(step.view) for step in own), "the drawer's own"


def seen_cards(view) -> set[str]:
    """Every card a view shows: the seats' and the events'."""
    cards = {str(c) for seat in view.seats for c in seat.cards if c is not None}
    return cards | {str(c) for event in view.events for c in event.cards}


def test_the_log_shows_the_hand_as_dealt_not_as_drawn(draw_table, players):
    table = draw_table
    to_the_draw(table)
    state = hand_state(current_hand(table))
    drawer = state.actor
    dealt = {str(c) for c in state.hole[drawer]}
    act(table, {"kind": "discard", "cards": [str(state.hole[drawer][0])]})
    for _ in range(2):
        act(table, {"kind": "discard", "cards": []})
    screen = screen_of(fresh(table), seat_player(table, players, drawer))
    (yours,) = [line for line in screen.log.lines if line.text == "Your cards"]
    assert {face.code for face in yours.cards} == dealt


def test_a_draw_game_offers_no_rabbit_hunt_and_no_board_run_out(draw_table, players):
    from tables.services import rabbit_hunt

    table = draw_table
    act(table, "fold")
    act(table, "fold")
    hand = table.hands.get()
    assert not hand.is_running and hand.runout is None
    assert not screen_of(fresh(table), players[0]).board.rabbit_open
    with pytest.raises(IllegalMove) as refused:
        rabbit_hunt(table=table, player=players[0], hand_id=hand.pk)
    assert refused.value.code == "no_rabbit"
