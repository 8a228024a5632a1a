"""Hands through the services: start, act (versioned), end, void; rebuilt from the database."""

import random

import pytest

from engine.deck import verify
from tables.models import Hand, HandAction, HandSecret, LedgerEntry, Player, Seat, Table
from tables.selectors.hands import hand_state
from tables.services import (
    HandInProgress,
    HandNotRunning,
    IllegalMove,
    NotEnoughPlayers,
    NotYourTurn,
    StaleAction,
    TableNotOpen,
    hand_act,
    hand_start,
    hand_void,
    seat_leave,
    seat_sit_in,
    seat_sit_out,
    seat_take,
    seat_top_up,
    table_close,
    table_pause,
    table_remove_player,
    table_resume,
    table_save,
)

pytestmark = pytest.mark.django_db


def seat_all(table, players, buy_in=100):
    for player in players:
        seat_take(table=table, player=player, buy_in=buy_in)


def snapshot():
    """Everything a refused action must leave untouched."""
    return (
        list(Table.objects.order_by("pk").values_list("version", "action_deadline")),
        sorted(Seat.objects.values_list("player_id", "stack", "sitting_out")),
        sorted(HandAction.objects.values_list("hand_id", "index", "kind", "amount")),
        sorted(Hand.objects.values_list("pk", "status")),
        sorted(Player.objects.values_list("pk", "bankroll")),
    )


def test_a_hand_needs_two_players_sitting_in(players, table):
    seat_take(table=table, player=players[0], buy_in=100)
    with pytest.raises(NotEnoughPlayers):
        hand_start(table=table)
    seat_take(table=table, player=players[1], buy_in=100)
    seat_sit_out(table=table, player=players[1])
    with pytest.raises(NotEnoughPlayers):
        hand_start(table=table)
    assert not Hand.objects.exists()


def test_start_stores_inputs_with_a_commitment_to_the_deck(players, table, assert_chips_conserved):
    seat_all(table, players)
    version = Table.objects.get(pk=table.pk).version
    hand = hand_start(table=table)
    assert hand.number == 1 and hand.is_running
    assert [s["name"] for s in hand.seats] == ["alice", "bob", "carol"]
    assert [s["stack"] for s in hand.seats] == [100, 100, 100]
    assert hand.config["big_blind"] == 2
    # Provably fair: the deck is the one the committed seed produces. Both are the hand's
    # secret, stored apart from it (nothing on Hand can be filtered or ordered by them).
    secret = HandSecret.objects.get(hand=hand)
    assert verify(secret.seed, hand.commitment, secret.deck)
    assert len(set(secret.deck)) == 52
    assert not {"seed", "deck"} & {field.name for field in Hand._meta.get_fields()}
    # The replay reads the stored deck, also from a hand read afresh.
    assert hand_state(Hand.objects.get(pk=hand.pk)).hole == hand_state(hand).hole
    table.refresh_from_db()
    assert table.version > version
    assert table.button_seat == hand.button_seat
    assert table.action_deadline is not None
    # Blinds are posted: 3 chips are in the hand, out of the stacks.
    assert sum(Seat.objects.values_list("stack", flat=True)) == 297
    assert assert_chips_conserved()["in_hands"] == 3
    with pytest.raises(HandInProgress):
        hand_start(table=table)


def test_button_moves_each_hand(players, table, play):
    seat_all(table, players)
    buttons = []
    for _ in range(4):
        hand = hand_start(table=table)
        buttons.append(hand.button_seat)
        play.play_out(table, choose=lambda h: "fold" if hand_state(h).legal.fold else "check")
    assert buttons[:3] == sorted(set(buttons[:3])) and buttons[3] == buttons[0]


def test_stale_version_is_refused_and_changes_nothing(players, table, play):
    seat_all(table, players)
    hand = hand_start(table=table)
    who = play.actor(hand)
    old = Table.objects.get(pk=table.pk).version - 1
    before = snapshot()
    with pytest.raises(StaleAction, match="changed since you saw it"):
        hand_act(table=table, player=who, hand_id=hand.pk, version=old, action="call")
    assert snapshot() == before


def test_a_repeated_action_is_stale(players, table, play):
    seat_all(table, players)
    hand = hand_start(table=table)
    who = play.actor(hand)
    version = Table.objects.get(pk=table.pk).version
    hand_act(table=table, player=who, hand_id=hand.pk, version=version, action="call")
    before = snapshot()
    with pytest.raises(StaleAction):
        hand_act(table=table, player=who, hand_id=hand.pk, version=version, action="call")
    assert snapshot() == before
    assert hand.actions.count() == 1


def test_acting_in_someone_elses_seat(players, make_player, table, play):
    seat_all(table, players)
    hand = hand_start(table=table)
    who = play.actor(hand)
    other = next(p for p in players if p.pk != who.pk)
    stranger = make_player("stranger")
    version = Table.objects.get(pk=table.pk).version
    before = snapshot()
    with pytest.raises(NotYourTurn, match=f"{who.name} is to act"):
        hand_act(table=table, player=other, hand_id=hand.pk, version=version, action="fold")
    with pytest.raises(NotYourTurn, match="not in hand #1"):
        hand_act(table=table, player=stranger, hand_id=hand.pk, version=version, action="fold")
    assert snapshot() == before


@pytest.mark.parametrize(
    "action", ["raise 3", "raise ²", "check", "bet", "dance", {"kind": "raise"}, 7]
)
def test_illegal_action_names_the_rule_and_changes_nothing(players, table, play, action):
    seat_all(table, players)
    hand = hand_start(table=table)
    who = play.actor(hand)
    version = Table.objects.get(pk=table.pk).version
    before = snapshot()
    with pytest.raises(IllegalMove) as info:
        hand_act(table=table, player=who, hand_id=hand.pk, version=version, action=action)
    assert str(info.value)
    assert snapshot() == before


def test_acting_in_a_finished_hand_or_at_another_table(players, make_table, table, play):
    seat_all(table, players)
    hand = hand_start(table=table)
    play.play_out(table)
    other = make_table(name="Other")
    version = Table.objects.get(pk=table.pk).version
    with pytest.raises(HandNotRunning, match="is over"):
        hand_act(table=table, player=players[0], hand_id=hand.pk, version=version, action="fold")
    with pytest.raises(HandNotRunning, match="not being played at this table"):
        hand_act(
            table=other,
            player=players[0],
            hand_id=hand.pk,
            version=Table.objects.get(pk=other.pk).version,
            action="fold",
        )


def test_hand_end_writes_stacks_result_and_pot(players, table, play, assert_chips_conserved):
    seat_all(table, players)
    hand_start(table=table)
    hand = play.play_out(table)
    assert hand.status == "finished" and hand.finished_at
    state = hand_state(hand)
    assert state.is_over
    assert hand.result["net"] == list(state.result.net)
    assert hand.pot == state.total_pot > 0
    stacks = {s.player_id: s.stack for s in Seat.objects.all()}
    for start, end in zip(hand.seats, state.stacks, strict=True):
        assert stacks.get(start["player_id"], 0) == end
    table.refresh_from_db()
    assert table.action_deadline is None and table.next_hand_at is not None
    assert assert_chips_conserved()["in_hands"] == 0


def all_in_or_call(hand):
    legal = hand_state(hand).legal
    if legal.max_raise_to is not None:
        return "all_in"
    return "check" if legal.check else "call"


def test_busted_player_leaves_the_seat(make_player, table, play, assert_chips_conserved):
    a, b = make_player("a"), make_player("b")
    seat_all(table, [a, b], buy_in=100)
    for _ in range(30):  # all-in every hand: someone busts unless every hand is split
        hand_start(table=table)
        play.play_out(table, choose=all_in_or_call)
        assert_chips_conserved()
        if Seat.objects.count() < 2:
            break
    seats = list(Seat.objects.all())
    assert len(seats) == 1 and seats[0].stack == 200
    loser = b if seats[0].player_id == a.pk else a
    loser.refresh_from_db()
    assert loser.bankroll == 10_000 - 100
    assert not loser.ledger.filter(kind="cash_out").exists()


def test_timeout_acts_and_sits_the_player_out(players, table, play):
    seat_all(table, players)
    hand = hand_start(table=table)
    who = play.actor(hand)
    play.act(table, "fold", source="timeout")
    assert Seat.objects.get(player=who).sitting_out
    assert hand.actions.get().source == "timeout"
    seat_sit_in(table=table, player=who)
    assert not Seat.objects.get(player=who).sitting_out


def test_stake_changes_apply_from_the_next_hand(players, table, play):
    seat_all(table, players)
    first = hand_start(table=table)
    edited = Table.objects.get(pk=table.pk)
    edited.small_blind, edited.big_blind = 5, 10
    table_save(table=edited)
    first.refresh_from_db()
    assert first.config["big_blind"] == 2
    assert hand_state(first).config.big_blind == 2
    play.play_out(table)
    second = hand_start(table=table)
    assert second.config["big_blind"] == 10


def test_restart_rebuilds_the_hand_from_the_database_and_plays_on(
    players, table, play, assert_chips_conserved
):
    seat_all(table, players)
    hand = hand_start(table=table)
    play.act(table, "raise 6")
    play.act(table, "call")
    before = hand_state(hand)
    view_before = before.view(None)
    # A "new process": nothing kept but ids; every object is loaded again from the database.
    table_id, hand_id = table.pk, hand.pk
    del table, hand, before
    table = Table.objects.get(pk=table_id)
    hand = Hand.objects.get(pk=hand_id)
    rebuilt = hand_state(hand)
    assert rebuilt.view(None) == view_before
    assert [str(a) for a in rebuilt.actions] == ["raise 6", "call"]
    finished = play.play_out(table)
    assert finished.status == "finished"
    assert_chips_conserved()


def test_void_restores_every_stack(players, table, play, assert_chips_conserved):
    seat_all(table, players)
    hand = hand_start(table=table)
    play.act(table, "raise 50")
    hand_void(table=table, hand_id=hand.pk, reason="test")
    hand.refresh_from_db()
    assert hand.status == "voided"
    assert sorted(Seat.objects.values_list("stack", flat=True)) == [100, 100, 100]
    assert_chips_conserved()


def test_close_voids_the_running_hand_and_cashes_everyone_out(
    players, table, play, assert_chips_conserved
):
    seat_all(table, players)
    hand_start(table=table)
    play.act(table, "raise 20")
    table_close(table=table)
    assert not Seat.objects.exists()
    assert sorted(Player.objects.values_list("bankroll", flat=True)) == [10_000] * 3
    assert Table.objects.get(pk=table.pk).status == "closed"
    assert_chips_conserved()
    with pytest.raises(TableNotOpen):
        hand_start(table=table)


def test_pause_lets_the_hand_finish_but_starts_no_new_one(players, table, play):
    seat_all(table, players)
    hand_start(table=table)
    table_pause(table=table)
    assert play.play_out(table).status == "finished"
    with pytest.raises(TableNotOpen, match="paused"):
        hand_start(table=table)
    table_resume(table=table)
    hand_start(table=table)


def test_remove_player_between_hands_and_during_one(players, table, play, assert_chips_conserved):
    alice, bob, carol = players
    seat_all(table, players)
    assert table_remove_player(table=table, player=carol) is True
    carol.refresh_from_db()
    assert carol.bankroll == 10_000
    hand = hand_start(table=table)
    assert table_remove_player(table=table, player=alice) is False
    assert Seat.objects.get(player=alice).leave_after_hand
    play.play_out(table)
    assert not Seat.objects.filter(player=alice).exists()
    assert LedgerEntry.objects.filter(player=alice, kind="cash_out", hand=hand).exists()
    assert_chips_conserved()


def test_chips_conserved_through_random_sequences(
    make_player, make_table, play, assert_chips_conserved
):
    """Random service calls (seed fixed); after every call the chips add up to the grants."""
    rng = random.Random(20240501)
    people = [make_player(f"p{i}") for i in range(5)]
    tables = [
        make_table(name="T1", max_seats=4),
        make_table(name="T2", game="omaha", betting="pot-limit"),
    ]

    def random_action(hand):
        legal = hand_state(hand).legal
        choices = ["check" if legal.check else "call"]
        if legal.fold:
            choices.append("fold")
        if legal.min_raise_to is not None:
            choices += [f"raise {rng.randint(legal.min_raise_to, legal.max_raise_to)}", "all_in"]
        return rng.choice(choices)

    services_done = 0
    for _ in range(300):
        t = rng.choice(tables)
        p = rng.choice(people)
        move = rng.random()
        try:
            if move < 0.15:
                seat_take(table=t, player=p, buy_in=rng.randint(40, 200))
            elif move < 0.2:
                seat_leave(table=t, player=p)
            elif move < 0.25:
                seat_top_up(table=t, player=p, amount=rng.randint(1, 60))
            elif move < 0.3:
                (seat_sit_out if rng.random() < 0.5 else seat_sit_in)(table=t, player=p)
            elif move < 0.4:
                hand_start(table=t)
            else:
                hand = t.hands.filter(status="running").first()
                if hand is None:
                    continue
                play.act(t, random_action(hand))
            services_done += 1
        except ValueError:
            pass
        assert_chips_conserved()
    assert services_done > 50
    assert Hand.objects.filter(status="finished").count() >= 5


# --- Stale means the hand moved, not the table (issue 15, item 6) ---------------------------


def churn_a_seat(table, player):
    """An outsider takes a seat and leaves again: two new table versions, the hand untouched."""
    seat_take(table=table, player=player, buy_in=100)
    seat_leave(table=table, player=player)


def test_seat_changes_by_others_do_not_make_an_action_stale(
    players, table, play, assert_chips_conserved
):
    alice, bob, carol = players
    seat_all(table, [alice, bob])
    hand = hand_start(table=table)
    who = play.actor(hand)
    seen = Table.objects.get(pk=table.pk).version  # the player's view: their turn
    churn_a_seat(table, carol)
    assert Table.objects.get(pk=table.pk).version == seen + 2
    hand_act(table=table, player=who, hand_id=hand.pk, version=seen, action="call")
    assert [(a.seat, a.kind) for a in hand.actions.all()] == [(hand.seat_index_of(who.pk), "call")]
    before = snapshot()
    with pytest.raises(StaleAction, match="changed since you saw it"):  # the same click again
        hand_act(table=table, player=who, hand_id=hand.pk, version=seen, action="call")
    assert snapshot() == before
    assert_chips_conserved()


def test_an_action_that_saw_the_hand_before_its_last_move_is_stale(players, table, play):
    alice, bob, carol = players
    seat_all(table, [alice, bob])
    hand = hand_start(table=table)
    dealt = Table.objects.get(pk=table.pk).version
    play.act(table, "call")  # the button calls: the hand moves on
    churn_a_seat(table, carol)
    who = play.actor(hand)  # the big blind, who only saw the deal
    latest = Table.objects.get(pk=table.pk).version
    before = snapshot()
    for version in (dealt, latest + 1):  # from before the last move, or from the future
        with pytest.raises(StaleAction):
            hand_act(table=table, player=who, hand_id=hand.pk, version=version, action="check")
    assert snapshot() == before
    moved = Table.objects.get(pk=table.pk).hand_version
    assert dealt < moved < latest  # the call moved the hand; the churn did not
    hand_act(table=table, player=who, hand_id=hand.pk, version=moved, action="check")
    assert hand.actions.count() == 2


def test_a_voided_hand_refuses_actions_that_saw_it_running(
    players, table, play, assert_chips_conserved
):
    alice, bob, carol = players
    seat_all(table, [alice, bob])
    hand = hand_start(table=table)
    who = play.actor(hand)
    seen = Table.objects.get(pk=table.pk).version
    hand_void(table=table, hand_id=hand.pk, reason="test")
    before = snapshot()
    with pytest.raises(HandNotRunning):
        hand_act(table=table, player=who, hand_id=hand.pk, version=seen, action="call")
    assert snapshot() == before
    assert_chips_conserved()
