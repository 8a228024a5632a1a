"""The replayer: the hand as the live table draws it, action by action and street by street,
the run-out as its own steps, each pot's award on the last step, a link to any step, and only
the cards the viewer may see."""

import re

import pytest

from tables.presenters.render import cards_in_html
from tables.selectors.hands import hand_state
from tables.selectors.replay import hand_replay_steps
from tables.services import hand_start, seat_take
from tests.tables.helpers import play_out

pytestmark = pytest.mark.django_db


def hole(hand, player) -> set[str]:
    return {str(c) for c in hand_state(hand).hole[hand.seat_index_of(player.pk)]}


@pytest.fixture
def all_in_hand(players, table):
    """Heads-up: the first to act moves all-in preflop, the other calls; the board runs out."""
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=100, seat_number=0)
    seat_take(table=table, player=bob, buy_in=100, seat_number=3)
    hand_start(table=table)
    moves = iter(["all_in", "call"])
    return play_out(table, lambda hand: next(moves))


@pytest.fixture
def showdown_hand(players, table):
    """Three players: whoever acts first folds, the other two check and call to a showdown."""
    for n, p in enumerate(players):
        seat_take(table=table, player=p, buy_in=100, seat_number=n)
    hand_start(table=table)
    folded = []

    def choose(hand):
        legal = hand_state(hand).legal
        if not folded:
            folded.append(hand_state(hand).actor)
            return "fold"
        return "check" if legal.check else "call"

    hand = play_out(table, choose)
    return hand, folded[0]


def test_the_run_out_is_three_steps_of_its_own_and_the_award_the_last(all_in_hand):
    steps = hand_replay_steps(all_in_hand, None)
    labels = [s.label for s in steps]
    assert labels[0] == "Cards dealt, blinds posted"
    assert re.fullmatch(r"\w+ raises to 100", labels[1])
    # a call says the chips it put in, as the live "Call" button did: its blind was in
    assert re.fullmatch(r"\w+ calls (98|99)", labels[2])
    assert labels[3:6] == ["Flop", "Turn", "River"]
    assert [len(s.cards) for s in steps[3:6]] == [3, 1, 1]
    assert [len(s.view.board) for s in steps] == [0, 0, 0, 3, 4, 5, 5]
    assert [s.awarded for s in steps] == [False] * 6 + [True]
    assert re.search(r"(wins|split) 200", labels[-1])
    # the call shows the calling seat as the one who acted, before any card it brought
    assert steps[2].acted is not None and steps[2].view.board == ()


def test_each_step_is_drawn_on_the_felt_with_pots_and_the_award(client, all_in_hand, players):
    client.force_login(players[0].user)
    page = client.get(f"/hands/{all_in_hand.pk}/").content.decode()
    felts = re.findall(r'<template class="replay-felt">(.*?)</template>', page, re.S)
    assert len(felts) == 7
    assert all('id="table-seats"' in f and 'id="table-board"' in f for f in felts)
    assert 'class="pot"><span class="pot-label">Pot</span> <span class="chips">200<' in felts[5]
    award = felts[-1]
    assert 'class="pot awarded"' in award
    # the whole pot goes to the winner, or half to each on a chop (the deck is random)
    won = [int(amount) for amount in re.findall(r'class="won">wins (\d+)<', award)]
    assert won in ([200], [100, 100]), won
    assert len(re.findall(r'class="pc ', felts[5].split('id="table-seats"')[0])) == 5


def test_a_link_opens_any_step_and_bad_steps_open_the_first(client, all_in_hand, players):
    client.force_login(players[0].user)
    url = f"/hands/{all_in_hand.pk}/"
    river = client.get(url + "?step=5").content.decode()
    assert 'data-step="5"' in river and "Step 5 of 6" in river
    felt = re.search(
        r'<div class="felt" id="replay-felt">(.*?)</div>\s*</div>\s*<div class="replay-bar">',
        river,
        re.S,
    )[1]
    assert len(re.findall(r'class="pc [a-z]+"', felt.split('id="table-seats"')[0])) == 5
    assert 'href="?step=6"' in river and 'id="step-5"' in river
    for bad in ("99", "-1", "x", "²"):
        assert 'data-step="0"' in client.get(url, {"step": bad}).content.decode()
    last = client.get(url + "?step=6").content.decode()
    assert re.search(
        r'data-step="next" href="\?step=6" aria-label="Next step" aria-disabled="true"', last
    )


def test_the_replay_shows_only_the_cards_the_viewer_may_see(
    client, showdown_hand, players, make_player
):
    hand, folder_index = showdown_hand
    by_index = {hand.seat_index_of(p.pk): p for p in players}
    folder = by_index[folder_index]
    others = [p for p in players if p != folder]
    public = hand_state(hand).view(None)  # what was shown at showdown (a loser may muck)
    shown = {str(c) for s in public.seats if s.shown for c in s.cards}
    assert shown and shown <= set().union(*(hole(hand, p) for p in others))
    for viewer in [*players, make_player("dave")]:
        client.force_login(viewer.user)
        seen = set(cards_in_html(client.get(f"/hands/{hand.pk}/").content.decode()))
        board = {str(c) for c in hand_state(hand).board}
        mine = hole(hand, viewer) if viewer in players else set()
        assert seen - board == shown | mine, (
            f"{viewer.name} sees exactly the shown cards and theirs"
        )
        if viewer != folder:
            assert not hole(hand, folder) & seen, "a folded hand stays hidden"
