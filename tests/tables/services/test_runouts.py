"""All-in run-outs at the table (issue 20): the hands face up, the board street by street with
each hand's chance, paced by the croupier from the database; run it twice; bomb pots.

The croupier is ticked at injected times (``Croupier().tick(now)``): no test sleeps.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.evaluate import evaluate_short_deck
from engine.variants.base import SHORT_DECK
from tables.croupier import Croupier
from tables.models import Hand, HandAction, Seat, Table
from tables.presenters.play_state import play_state
from tables.presenters.screen import table_screen
from tables.selectors.hands import hand_state
from tables.selectors.players import player_bankroll
from tables.selectors.snapshot import load_snapshot
from tables.services import hand_act, hand_start, seat_take
from tables.services.errors import IllegalMove, NotYourTurn, StaleAction
from tests.tables.helpers import act, current_hand, fresh

pytestmark = pytest.mark.django_db

PAUSE = 1.5


@pytest.fixture(autouse=True)
def paced(settings):
    settings.POKER_RUNOUT_PAUSE_SECONDS = PAUSE
    settings.POKER_HAND_PAUSE_SECONDS = 4
    settings.POKER_CROUPIER = False


def _chips(table: Table, players) -> int:
    seats = sum(Seat.objects.filter(table=table).values_list("stack", flat=True))
    return seats + sum(player_bankroll(p.pk) for p in players)


def _state(table: Table, player) -> dict:
    snapshot = load_snapshot(fresh(table))
    bankroll = player_bankroll(player.pk) if player is not None else None
    return play_state(snapshot, table_screen(snapshot, player, bankroll))


def _heads_up(make_table, players, **options) -> Table:
    table = make_table(name="Run-out", **options)
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    hand_start(table=table)
    return fresh(table)


def _live_cards(state: dict) -> dict[str, list]:
    return {s["name"]: s["cards"] for s in state["seats"] if s["status"] != "empty"}


def test_a_short_deck_all_in_runs_out_with_odds_by_its_own_ranks(make_table, players):
    """Short deck's run-out, street by street, with each hand's chance by short deck's own
    deck and ranks (the all-in and call that start it were once refused: the 52-card equity
    engine was asked). From the turn the odds are exact: every river card of the 36."""
    alice, bob, carol = players
    table = _heads_up(make_table, players, game="short-deck", ante=1)
    hand = current_hand(table)
    before = _chips(table, players) + hand_state(hand).total_pot
    act(table, "all_in")
    act(table, "call")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED and _chips(fresh(table), players) == before
    streets = hand.runout["runs"][0]
    assert [step["street"] for step in streets] == ["preflop", "flop", "turn", "river"]
    assert hand.odds_pending
    croupier = Croupier()
    assert croupier.tick(fresh(table).next_hand_at - timedelta(seconds=0.2)) == [(table.pk, "odds")]
    hand.refresh_from_db()
    assert not hand.odds_pending and _unknown_chances(hand) == 0
    for step in hand.runout["runs"][0][:-1]:
        assert sum(step["chances"].values()) == pytest.approx(1.0)
    # the turn's chances by hand: every river card left in the short deck
    state = hand_state(hand)
    holes = [[int(c) for c in state.hole[seat]] for seat in range(2)]
    turn = [int(c) for c in state.board[:4]]
    rivers = [c for c in SHORT_DECK if c not in {*turn, *holes[0], *holes[1]}]
    shares = [0.0, 0.0]
    for river in rivers:
        values = [evaluate_short_deck([*hole, *turn, river]) for hole in holes]
        for seat in range(2):
            if values[seat] == max(values):
                shares[seat] += 1 / values.count(max(values))
    chances = hand.runout["runs"][0][2]["chances"]
    assert [chances[str(seat)] for seat in range(2)] == pytest.approx(
        [share / len(rivers) for share in shares]
    )


def test_all_in_preflop_the_board_comes_street_by_street_with_the_odds(make_table, players):
    alice, bob, carol = players
    table = _heads_up(make_table, players)
    hand = current_hand(table)
    state = hand_state(hand)
    before = _chips(table, players) + state.total_pot  # the blinds are in the running hand
    holes = {hand.seats[i]["name"]: [str(c) for c in state.hole[i]] for i in range(2)}

    # Before anyone is all in, nobody sees the other's cards.
    assert _live_cards(_state(table, carol)) == {"alice": [None, None], "bob": [None, None]}
    act(table, "all_in")
    assert _live_cards(_state(table, carol)) == {"alice": [None, None], "bob": [None, None]}
    act(table, "call")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED  # the engine settled the chips at once
    assert _chips(fresh(table), players) == before
    # The action stored the run-out's streets, their chances left to the croupier.
    assert [step["street"] for step in hand.runout["runs"][0]] == [
        "preflop",
        "flop",
        "turn",
        "river",
    ]
    assert hand.odds_pending and _unknown_chances(hand) == 4
    assert all(s["chances"] == [] for s in _state(table, carol)["seats"])

    croupier = Croupier()
    now = fresh(table).next_hand_at
    assert croupier.tick(now - timedelta(seconds=0.2)) == [(table.pk, "odds")]
    hand.refresh_from_db()
    assert not hand.odds_pending and _unknown_chances(hand) == 0
    frames = []
    for _ in range(20):
        frames.append(_state(table, carol))
        if frames[-1]["result"] is not None:
            break
        # Nothing before the pause is over; then exactly one street.
        now = fresh(table).next_hand_at
        assert croupier.tick(now - timedelta(seconds=0.1)) == []
        assert croupier.tick(now) == [(table.pk, "runout")]
    streets = [f["street"] for f in frames]
    assert streets == ["preflop", "flop", "turn", "over"], streets  # the river ends the hand
    assert [len(f["board"]) for f in frames] == [0, 3, 4, 5]
    for frame in frames[:-1]:
        # Both hands face up for a spectator; each hand's chance beside it, summing to 100%.
        assert _live_cards(frame) == holes
        chances = [s["chances"][0] for s in frame["seats"] if s["chances"]]
        assert len(chances) == 2 and sum(chances) == pytest.approx(100, abs=0.2)
        # The result and the chips won are not shown before the river.
        assert frame["result"] is None
        assert sum(s["stack"] or 0 for s in frame["seats"]) == 0
    # The river: the result, the chips won, and the chances settled.
    # (who went bust has left the seat: to a program it is free, though the page keeps
    # their plate until the next hand; only the winner's chance, or both at a split)
    final = sorted(s["chances"][0] for s in frames[-1]["seats"] if s["chances"])
    assert final in ([100.0], [50.0, 50.0]), final
    assert frames[-1]["result"]["pots"][0]["amount"] == 200
    # The next hand waits for the river to have been on screen for the hand pause.
    assert fresh(table).next_hand_at == now + timedelta(seconds=4)
    assert "runout" not in [what for _, what in croupier.tick(now + timedelta(seconds=5))]


def _unknown_chances(hand: Hand) -> int:
    """How many streets of the stored run-out have no chances yet."""
    return sum(step["chances"] is None for run in hand.runout["runs"] for step in run)


def test_the_run_out_carries_on_after_a_restart_from_the_database(make_table, players):
    """Pacing is data: a new croupier (a restarted server) shows the next street, not all."""
    table = _heads_up(make_table, players)
    act(table, "all_in")
    act(table, "call")
    assert Croupier().tick() == [(table.pk, "odds")]
    later = fresh(table).next_hand_at
    assert Croupier().tick(later) == [(table.pk, "runout")]
    assert Croupier().tick(later + timedelta(seconds=PAUSE)) == [(table.pk, "runout")]
    assert current_street(table) == "turn"


def current_street(table: Table) -> str:
    snapshot = load_snapshot(fresh(table))
    return snapshot.view(None).street


def test_without_a_pause_the_run_out_is_shown_at_once(make_table, players, settings):
    settings.POKER_RUNOUT_PAUSE_SECONDS = 0
    table = _heads_up(make_table, players)
    act(table, "all_in")
    act(table, "call")
    frame = _state(table, players[2])
    assert frame["street"] == "over" and len(frame["board"]) == 5
    assert frame["result"] is not None
    assert all(s["chances"] == [] for s in frame["seats"])  # the croupier computes them
    assert Croupier().tick() == [(table.pk, "odds")]
    frame = _state(table, players[2])
    assert all(len(s["chances"]) == 1 for s in frame["seats"] if s["status"] != "empty")


def test_a_fold_shows_no_hand_and_no_odds(make_table, players):
    table = _heads_up(make_table, players)
    act(table, "all_in")
    act(table, "fold")
    frame = _state(table, players[2])
    assert frame["street"] == "over" and frame["board"] == []
    assert all(s["chances"] == [] for s in frame["seats"])
    assert all(card is None for s in frame["seats"] for card in s["cards"])


# --- run it twice ----------------------------------------------------------------------------


def _runs_due(make_table, players) -> tuple[Table, Hand]:
    table = _heads_up(make_table, players, run_it_twice=True)
    act(table, "all_in")
    act(table, "call")
    hand = current_hand(table)
    assert hand_state(hand).runs_due
    return fresh(table), hand


def _answer(table, player, hand, kind, version=None):
    return hand_act(
        table=table,
        player=player,
        hand_id=hand.pk,
        version=fresh(table).version if version is None else version,
        action=kind,
    )


def test_run_it_twice_when_both_agree_two_boards_and_each_pot_split(make_table, players):
    alice, bob, carol = players
    table, hand = _runs_due(make_table, players)
    before = _chips(table, players) + hand_state(hand).total_pot
    assert Croupier().tick() == [(table.pk, "odds")]  # the chances while they choose
    asked = _state(table, alice)
    assert asked["runs_due"]
    assert asked["legal"]["actions"] == ["run_thrice", "run_twice", "run_once"]
    assert _state(table, carol)["legal"] is None  # a spectator is not asked
    assert all(len(s["chances"]) == 1 for s in asked["seats"] if s["status"] != "empty")

    seen = fresh(table).version
    _answer(table, alice, hand, "run_twice")
    with pytest.raises(IllegalMove) as repeated:
        _answer(table, alice, hand, "run_twice")
    assert repeated.value.code == "already_answered"
    with pytest.raises(NotYourTurn):
        _answer(table, carol, hand, "run_twice")
    _answer(table, bob, hand, "run_twice", version=seen)  # alice's answer did not move the hand
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED
    assert HandAction.objects.filter(hand=hand, kind="run_twice").count() == 1
    state = hand_state(hand)
    assert state.runs == 2 and len(state.second_board) == 5
    assert _chips(fresh(table), players) == before

    with pytest.raises(StaleAction):
        _answer(table, bob, hand, "run_once", version=seen)

    croupier = Croupier()
    assert croupier.tick() == [(table.pk, "odds")]  # the new run-out's: two runs now
    frames = [_state(table, carol)]
    while frames[-1]["result"] is None and len(frames) < 10:
        croupier.tick(fresh(table).next_hand_at)
        frames.append(_state(table, carol))
    assert [len(f["boards"]) for f in frames] == [2] * len(frames)
    assert [[len(b) for b in f["boards"]] for f in frames] == [[0, 0], [3, 3], [4, 4], [5, 5]]
    assert all(len(s["chances"]) == 2 for s in frames[1]["seats"] if s["status"] != "empty")
    awards = frames[-1]["result"]["pots"]
    assert len(awards) == 2  # the pot, split between the runs
    assert awards[0]["amount"] - awards[1]["amount"] in (0, 1)  # odd chip to the first run


def test_one_once_runs_it_once(make_table, players):
    alice, bob, _ = players
    table, hand = _runs_due(make_table, players)
    _answer(table, alice, hand, "run_once")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED and hand_state(hand).runs == 1


def test_run_answers_when_nothing_is_asked_are_refused_with_a_code(make_table, players):
    alice, _, _ = players
    table = _heads_up(make_table, players, run_it_twice=True)
    hand = current_hand(table)
    with pytest.raises(IllegalMove) as refused:
        _answer(table, alice, hand, "run_twice")
    assert refused.value.code == "no_runs_due"
    assert not HandAction.objects.filter(hand=hand).exists()


def test_the_clock_runs_it_once_for_who_does_not_answer(make_table, players):
    alice, bob, _ = players
    table, hand = _runs_due(make_table, players)
    _answer(table, alice, hand, "run_twice")
    assert Croupier().tick() == [(table.pk, "odds")]
    deadline = fresh(table).action_deadline
    assert Croupier().tick(deadline - timedelta(seconds=1)) == []
    assert Croupier().tick(deadline) == [(table.pk, "runs")]
    hand.refresh_from_db()
    assert hand_state(hand).runs == 1
    # not answering is not being away
    assert not Seat.objects.filter(table=table, sitting_out=True).exists()


# --- bomb pots ---------------------------------------------------------------------------------


def test_the_hosts_bomb_pot_call_antes_everyone_and_deals_the_flop(make_table, players):
    alice, bob, carol = players
    table = make_table(name="Bomb", bomb_pot_ante=10, bomb_pot_next=True)
    for player in players:
        seat_take(table=table, player=player, buy_in=100)
    hand = hand_start(table=table)
    state = hand_state(hand)
    assert state.street == "flop" and len(state.board) == 3
    assert state.committed == (10, 10, 10)
    assert not fresh(table).bomb_pot_next  # the call is used up
    act(table, "check")
    act(table, "check")
    act(table, "check")  # the flop's betting, then on
    assert hand_state(current_hand(table)).street == "turn"


def test_every_nth_hand_is_a_bomb_pot(make_table, players):
    table = make_table(name="Bombs", bomb_pot_ante=4, bomb_pot_every=2)
    for player in players[:2]:
        seat_take(table=table, player=player, buy_in=100)
    first = hand_start(table=table)
    assert hand_state(first).street == "preflop"
    act(table, "fold")
    second = hand_start(table=fresh(table))
    assert hand_state(second).config.bomb_pot == 4


def test_a_betting_action_while_the_runs_are_asked_is_refused(make_table, players):
    alice, _, _ = players
    table, hand = _runs_due(make_table, players)
    with pytest.raises(NotYourTurn):
        _answer(table, alice, hand, "check")
    assert hand_state(current_hand(table)).runs_due  # still asked, nothing changed
