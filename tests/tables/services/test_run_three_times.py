"""Run it three times at the table (issue 50): the players' offers (once, twice or three
times; the lowest wins), three boards on screen street by street, each pot split in three."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tables.croupier import Croupier
from tables.models import Hand, HandAction
from tables.presenters.render import render_regions
from tables.presenters.replay import replay_label_html
from tables.presenters.screen import table_screen
from tables.selectors.hands import hand_state
from tables.selectors.players import player_bankroll
from tables.selectors.replay import hand_replay_steps
from tables.selectors.snapshot import load_snapshot
from tables.services.errors import HandNotRunning
from tests.tables.helpers import current_hand, fresh
from tests.tables.services.test_runouts import _answer, _chips, _runs_due, _state

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def paced(settings):
    settings.POKER_RUNOUT_PAUSE_SECONDS = 1.5
    settings.POKER_HAND_PAUSE_SECONDS = 4
    settings.POKER_CROUPIER = False


def test_three_times_when_both_say_three_three_boards_and_each_pot_split_in_three(
    make_table, players
):
    alice, bob, carol = players
    table, hand = _runs_due(make_table, players)
    before = _chips(table, players) + hand_state(hand).total_pot
    _answer(table, alice, hand, "run_thrice")
    assert Hand.objects.get(pk=hand.pk).status == Hand.Status.RUNNING  # bob to answer
    _answer(table, bob, hand, "run_thrice")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED
    assert HandAction.objects.filter(hand=hand, kind="run_thrice").count() == 1
    state = hand_state(hand)
    assert state.runs == 3 and [len(board) for board in state.boards] == [5, 5, 5]
    assert _chips(fresh(table), players) == before

    croupier = Croupier()
    croupier.tick()  # the three runs' odds
    frames = [_state(table, carol)]
    while frames[-1]["result"] is None and len(frames) < 10:
        croupier.tick(fresh(table).next_hand_at)
        frames.append(_state(table, carol))
    assert [[len(b) for b in f["boards"]] for f in frames] == [
        [0, 0, 0],
        [3, 3, 3],
        [4, 4, 4],
        [5, 5, 5],
    ]
    assert all(len(s["chances"]) == 3 for s in frames[1]["seats"] if s["status"] != "empty")
    amounts = [pot["amount"] for pot in frames[-1]["result"]["pots"]]
    assert len(amounts) == 3 and sum(amounts) == 200  # the pot, split in three
    assert amounts == sorted(amounts, reverse=True) and amounts[0] - amounts[2] <= 1

    snapshot = load_snapshot(fresh(table))
    html = render_regions(table_screen(snapshot, carol, player_bankroll(carol.pk)), oob=False)
    for run, name in ((1, "First"), (2, "Second"), (3, "Third")):
        assert f'data-run="{run}" aria-label="{name} run"' in html


def test_the_lowest_offer_wins_three_times_and_twice_run_twice(make_table, players):
    alice, bob, _ = players
    table, hand = _runs_due(make_table, players)
    _answer(table, alice, hand, "run_thrice")
    _answer(table, bob, hand, "run_twice")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED and hand_state(hand).runs == 2
    assert HandAction.objects.filter(hand=hand, kind="run_twice").count() == 1


def test_twice_then_three_times_runs_twice(make_table, players):
    alice, bob, _ = players
    table, hand = _runs_due(make_table, players)
    _answer(table, alice, hand, "run_twice")
    _answer(table, bob, hand, "run_thrice")
    hand.refresh_from_db()
    assert hand_state(hand).runs == 2


def test_three_times_then_once_runs_once(make_table, players):
    alice, bob, _ = players
    table, hand = _runs_due(make_table, players)
    _answer(table, alice, hand, "run_thrice")
    _answer(table, bob, hand, "run_once")
    hand.refresh_from_db()
    assert hand_state(hand).runs == 1


def test_the_asked_player_is_offered_three_times(make_table, players):
    alice, _, _ = players
    table, hand = _runs_due(make_table, players)
    snapshot = load_snapshot(fresh(table))
    html = render_regions(table_screen(snapshot, alice, player_bankroll(alice.pk)), oob=False)
    assert 'value="run_thrice"' in html and 'value="run_twice"' in html
    assert 'aria-label="Run it how many times?"' in html  # not "twice?" over three buttons
    assert hand_state(current_hand(table)).runs_due


def test_an_answer_once_the_runs_are_decided_is_refused(make_table, players):
    alice, bob, _ = players
    table, hand = _runs_due(make_table, players)
    _answer(table, alice, hand, "run_thrice")
    _answer(table, bob, hand, "run_thrice")
    with pytest.raises(HandNotRunning):
        _answer(table, bob, hand, "run_once")
    assert hand_state(Hand.objects.get(pk=hand.pk)).runs == 3


def test_the_replay_deals_the_three_runs_street_by_street(make_table, players, settings):
    settings.POKER_RUNOUT_PAUSE_SECONDS = 0  # the run-out at once: the hand is replayable
    alice, bob, _ = players
    table, hand = _runs_due(make_table, players)
    _answer(table, alice, hand, "run_thrice")
    _answer(table, bob, hand, "run_thrice")
    hand.refresh_from_db()
    steps = hand_replay_steps(hand, None)
    assert [s.label for s in steps if s.label.startswith("The board")] == [
        "The board is run three times"
    ]
    streets = [s for s in steps if s.cards]
    assert [s.label for s in streets] == [
        "Flop, all three runs",
        "Turn, all three runs",
        "River, all three runs",
    ]
    assert [[len(c) for c in s.later_cards] for s in streets] == [[3, 3], [1, 1], [1, 1]]
    state = hand_state(hand)
    assert streets[-1].view.boards == tuple(tuple(b) for b in state.boards)
    html = str(replay_label_html(streets[0]))
    assert "second run" in html and "third run" in html


def test_the_hand_history_api_gives_every_board(make_table, players, settings):
    settings.POKER_RUNOUT_PAUSE_SECONDS = 0  # the run-out at once: the hand's history is out
    alice, bob, _ = players
    table, hand = _runs_due(make_table, players)
    _answer(table, alice, hand, "run_thrice")
    _answer(table, bob, hand, "run_thrice")
    client = APIClient()
    client.force_login(alice.user)
    body = client.get(f"/api/hands/{hand.pk}/").json()
    state = hand_state(Hand.objects.get(pk=hand.pk))
    assert body["boards"] == [[str(card) for card in board] for board in state.boards]
    assert len(body["boards"]) == 3 and body["board"] == body["boards"][0]
    assert sum(line.endswith("# third run") for line in body["log"]) == 3
