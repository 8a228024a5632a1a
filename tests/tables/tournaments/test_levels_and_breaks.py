"""Levels by hands count tournament-wide (the table that has dealt the most); breaks: no hand
is dealt during one, and the levels' clock stands still through it."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Hand, Table
from tables.services.clock import clock_tick
from tables.tournaments import structure
from tables.tournaments.errors import TournamentInvalid
from tables.tournaments.models import Tournament
from tables.tournaments.selectors import hands_to_next_level, tournament_clock
from tables.tournaments.services import tournament_create, tournament_start

from .helpers import fold_or_check, make_player, open_tables, play_hand

pytestmark = pytest.mark.django_db

BY_HANDS = [{"small_blind": 10 * 2**n, "big_blind": 20 * 2**n, "hands": 3} for n in range(5)]
BY_MINUTES = [{"small_blind": 10 * 2**n, "big_blind": 20 * 2**n, "minutes": 10} for n in range(6)]


def test_levels_by_hands_follow_the_table_that_has_dealt_the_most_not_each_table():
    organiser = make_player("organiser")
    tournament = tournament_create(
        organiser=organiser,
        name="Two tables",
        format="multi-table",
        seats_per_table=3,
        starting_stack=10_000,
        levels=BY_HANDS,
        bot_entrants=6,
    )
    tournament_start(tournament=tournament, by=organiser, rng=random.Random(2))
    leading, lagging = open_tables(tournament)
    now = timezone.now() + timedelta(hours=1)
    rng = random.Random(0)
    for _ in range(7):  # hands 1-3 at level 1, 4-6 at level 2, the 7th at level 3
        assert play_hand(leading, now, rng, policy=fold_or_check)
    tournament.refresh_from_db()
    assert tournament.hands_dealt == 7
    assert tournament_clock(tournament).level == 2
    assert hands_to_next_level(tournament) == 2
    # The other table has dealt nothing: its first hand is at the tournament's level.
    assert play_hand(lagging, now, rng, policy=fold_or_check)
    first = Hand.objects.get(table_id=lagging, number=1)
    assert first.config["big_blind"] == BY_HANDS[2]["big_blind"]
    tournament.refresh_from_db()
    assert tournament.hands_dealt == 7  # the lagging table does not move the level


def test_the_break_clock_stands_still_and_the_next_level_starts_after_it():
    clock = structure.clock_at
    assert clock(BY_MINUTES, 19.9, break_every=2, break_minutes=5) == structure.LevelClock(
        1, False, pytest.approx(0.1)
    )
    on_break = clock(BY_MINUTES, 21, break_every=2, break_minutes=5)
    assert (on_break.level, on_break.on_break, on_break.minutes_left) == (2, True, 4)
    after = clock(BY_MINUTES, 25, break_every=2, break_minutes=5)
    assert (after.level, after.on_break, after.minutes_left) == (2, False, 10)  # all its minutes
    assert clock(BY_MINUTES, 46, break_every=2, break_minutes=5).on_break  # after level 4
    assert clock(BY_MINUTES, 21).level == 2  # no breaks: straight on
    last = clock(BY_MINUTES, 10_000, break_every=2, break_minutes=5)
    assert (last.level, last.on_break, last.minutes_left) == (5, False, None)


def test_no_hand_is_dealt_during_a_break_and_the_running_hand_finishes():
    organiser = make_player("organiser")
    tournament = tournament_create(
        organiser=organiser,
        name="Break",
        seats_per_table=3,
        starting_stack=10_000,
        levels=BY_MINUTES,
        break_every_levels=1,
        break_minutes=5,
        bot_entrants=3,
    )
    tournament_start(tournament=tournament, by=organiser)
    start = timezone.now()
    Tournament.objects.filter(pk=tournament.pk).update(started_at=start)
    (table_id,) = open_tables(tournament)
    rng = random.Random(0)
    # A hand dealt just before the break is played to its end during it.
    assert clock_tick(table=table_id, now=start + timedelta(minutes=9.9)) == "started"
    during = start + timedelta(minutes=11)
    assert play_hand(table_id, during, rng, policy=fold_or_check)
    assert not Hand.objects.filter(table_id=table_id, status=Hand.Status.RUNNING).exists()
    for minute in (11, 12.5, 14.9):
        assert clock_tick(table=table_id, now=start + timedelta(minutes=minute)) is None
    assert Table.objects.get(pk=table_id).hands.count() == 1
    # After the break: level 2, with all its ten minutes.
    tournament.refresh_from_db()
    assert clock_tick(table=table_id, now=start + timedelta(minutes=15)) == "started"
    hand = Hand.objects.get(table_id=table_id, number=2)
    assert hand.config["big_blind"] == BY_MINUTES[1]["big_blind"]
    later = tournament_clock(tournament, start + timedelta(minutes=24.5))
    assert (later.level, later.on_break) == (1, False)


def test_breaks_are_refused_for_levels_by_hands_naming_the_field():
    organiser = make_player("organiser")
    with pytest.raises(TournamentInvalid) as error:
        tournament_create(
            organiser=organiser,
            name="No",
            levels=BY_HANDS,
            break_every_levels=2,
            break_minutes=5,
        )
    assert error.value.field == "break_every_levels"
    assert not Tournament.objects.exists()
