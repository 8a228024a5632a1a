"""The night's ledger (tables.selectors.ledger): buy-ins, rebuys, top-ups, cash-outs,
corrections, chips at the table, and nets that sum to zero at every moment of random play."""

from __future__ import annotations

import random

import pytest

from tables.models import Player, Seat, Table
from tables.selectors.hands import hand_state, running_hand
from tables.selectors.ledger import table_ledger
from tables.services import (
    ServiceError,
    hand_act,
    hand_start,
    seat_leave,
    seat_sit_in,
    seat_sit_out,
    seat_take,
    seat_top_up,
    table_close,
)
from tables.services.host_seats import table_correct_stack

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_reseat_wait(settings):
    settings.POKER_RESEAT_WAIT_SECONDS = 0


def rows_by_name(table):
    return {row.name: row for row in table_ledger(table).rows}


def test_each_column_counts_its_own_entries(players, table, play):
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=80)
    seat_top_up(table=table, player=bob, amount=20)
    table.host = alice
    table.save(update_fields=["host"])
    table_correct_stack(table=table, by=alice.user, player=bob, stack=70)  # 30 to the bankroll
    seat_leave(table=table, player=bob)  # 70 back
    # a rebuy, after leaving: at least what bob left with, within the hour
    seat_take(table=table, player=bob, buy_in=130)
    seat_take(table=table, player=carol, buy_in=50)
    rows = rows_by_name(table)
    assert set(rows) == {"alice", "bob", "carol"}
    bob_row = rows["bob"]
    assert (bob_row.buy_in, bob_row.rebuys, bob_row.rebuy_count) == (80, 130, 1)
    assert (bob_row.top_ups, bob_row.corrections, bob_row.cash_outs) == (20, -30, 70)
    assert (bob_row.at_table, bob_row.seated) == (130, True)
    assert bob_row.net == 70 + 130 - (80 + 130 + 20 - 30) == 0
    assert rows["alice"].net == 0 and rows["carol"].at_table == 50
    assert table_ledger(table).total_net == 0


def test_a_player_who_busted_and_bought_again_has_a_rebuy(players, table, play):
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=40)
    seat_take(table=table, player=bob, buy_in=100)
    hand_start(table=table)
    while running_hand(table) is not None:  # alice shoves every time, bob calls
        hand = play.current_hand(table)
        who = play.actor(hand)
        play.act(table, "all_in" if who == alice else play.passive_action(hand))
        if Seat.objects.filter(table=table).count() < 2:  # one of them busted (either)
            break
        if running_hand(table) is None:
            hand_start(table=table)
    rows = rows_by_name(table)
    busted = [name for name, row in rows.items() if not row.seated]
    assert len(busted) == 1, rows
    loser = Player.objects.get(user__username=busted[0])
    seat_take(table=table, player=loser, buy_in=60)
    row = rows_by_name(table)[loser.name]
    assert row.rebuy_count == 1 and row.rebuys == 60 and row.cash_outs == 0
    assert row.net == row.at_table - row.buy_in - 60
    assert table_ledger(table).total_net == 0


def test_chips_bet_in_a_running_hand_count_with_the_player_who_bet_them(players, table, play):
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    hand = hand_start(table=table)
    state = hand_state(hand)
    raiser = play.actor(hand)
    play.act(table, f"raise {state.legal.min_raise_to}")
    ledger = table_ledger(table)
    assert ledger.hand_running
    stacks = dict(Seat.objects.values_list("player__user__username", "stack"))
    assert stacks[raiser.name] < 100  # the raise left the stack...
    by_name = {row.name: row for row in ledger.rows}
    assert all(row.at_table == 100 and row.net == 0 for row in by_name.values())  # ...not the night


def test_other_tables_and_grants_are_not_in_the_ledger(players, make_table):
    alice, bob, _ = players
    here, there = make_table(name="Here"), make_table(name="There")
    seat_take(table=here, player=alice, buy_in=100)
    seat_take(table=there, player=bob, buy_in=100)
    assert [row.name for row in table_ledger(here).rows] == ["alice"]


def _random_step(rng: random.Random, table: Table, people: list[Player]) -> None:
    """One random move through the services; a refusal is part of play (nothing changed)."""
    hand = running_hand(Table.objects.get(pk=table.pk))
    roll = rng.random()
    try:
        if hand is not None and roll < 0.7:
            state = hand_state(hand)
            if state.actor is None:
                return
            legal = state.legal
            choices = ["fold", "check" if legal.check else "call", "all_in"]
            if legal.min_raise_to is not None:
                choices.append(f"raise {rng.randint(legal.min_raise_to, legal.max_raise_to)}")
            who = Player.objects.get(pk=hand.seats[state.actor]["player_id"])
            hand_act(
                table=table,
                player=who,
                hand_id=hand.pk,
                version=Table.objects.get(pk=table.pk).version,
                action=rng.choice(choices),
            )
        elif roll < 0.8:
            hand_start(table=table)
        else:
            player = rng.choice(people)
            move = rng.choice(["take", "take", "top_up", "leave", "sit_out", "sit_in"])
            if move == "take":
                seat_take(table=table, player=player, buy_in=rng.randint(40, 200))
            elif move == "top_up":
                seat_top_up(table=table, player=player, amount=rng.randint(1, 100))
            elif move == "leave":
                seat_leave(table=table, player=player)
            elif move == "sit_out":
                seat_sit_out(table=table, player=player)
            else:
                seat_sit_in(table=table, player=player)
    except ServiceError:
        pass


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_nets_sum_to_zero_at_every_moment_of_random_play(
    seed, make_player, make_table, assert_chips_conserved
):
    rng = random.Random(seed)
    table = make_table(name=f"Night {seed}", min_buy_in=40, max_buy_in=200)
    people = [make_player(f"p{seed}x{i}") for i in range(4)]
    grant = {p.pk: p.bankroll for p in people}
    for step in range(220):
        _random_step(rng, table, people)
        ledger = table_ledger(table)
        assert ledger.total_net == 0, (step, ledger)
        # Each net is exactly what the night did to the player: bankroll now + chips at
        # the table - the bankroll they came with.
        bankrolls = dict(Player.objects.filter(pk__in=grant).values_list("pk", "bankroll"))
        for row in ledger.rows:
            assert row.net == bankrolls[row.player_id] + row.at_table - grant[row.player_id]
    table_close(table=table)
    ledger = table_ledger(table)
    assert ledger.total_net == 0 and all(row.at_table == 0 for row in ledger.rows)
    assert sum(1 for row in ledger.rows if row.net) >= 1, "the random night moved no chips"
    assert_chips_conserved()
