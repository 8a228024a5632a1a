"""Drive tournaments through the services with fake time, checking invariants as they play."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from tables.models import Hand
from tables.services.clock import clock_tick
from tables.services.players import player_create
from tables.tournaments.models import Tournament
from tables.tournaments.selectors import chips_issued, table_counts, tournament_chips

#: Fake seconds per croupier step: past any bot's thinking time and the pause between hands.
STEP = timedelta(seconds=10)


def make_player(name: str, grant: int = 10_000):
    user = get_user_model().objects.create_user(username=name, password="pw-not-used-123")
    return player_create(user=user, grant=grant)


def open_tables(tournament: Tournament) -> list[int]:
    return sorted(table_counts(tournament))


def play(tournament: Tournament, *, on_hand_end=None, limit: int = 200_000, now=None):
    """Tick the tournament's tables (one step each, in turn) until it is finished.

    After every step: chips in play == the starting stacks given out (entries, rebuys,
    re-entries). ``on_hand_end(table_id)`` is
    called after each hand that ended. Returns the fake time reached.
    """
    now = now or timezone.now()
    for _ in range(limit):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return now
        for table_id in open_tables(tournament):
            before = Hand.objects.filter(table_id=table_id, status=Hand.Status.FINISHED).count()
            clock_tick(table=table_id, now=now)
            assert_chips(tournament)
            after = Hand.objects.filter(table_id=table_id, status=Hand.Status.FINISHED).count()
            if after > before and on_hand_end is not None:
                on_hand_end(table_id)
        now += STEP
    raise AssertionError("the tournament did not finish")


def assert_chips(tournament: Tournament) -> None:
    tournament.refresh_from_db()
    if tournament.status == Tournament.Status.FINISHED:
        return
    assert tournament_chips(tournament) == chips_issued(tournament)


def push_or_fold(state, rng) -> str | tuple[str, int]:
    """A quick policy for long runs: all in a third of the time, else check or fold."""
    legal = state.legal
    if legal.max_raise_to is not None and rng.random() < 0.35:
        return ("raise", legal.max_raise_to)
    if legal.check:
        return "check"
    if legal.call and rng.random() < 0.3:
        return "call"
    return "fold"


def fold_or_check(state, rng) -> str:
    return "check" if state.legal.check else "fold"


def play_hand(table_id: int, now, rng, policy=push_or_fold) -> bool:
    """Deal a hand at the table (``clock_tick`` at ``now``) and play it to its end with
    ``push_or_fold`` through ``hand_act``. False if no hand could be dealt."""
    from tables.models import HandAction, Player, Table
    from tables.selectors.hands import hand_state, running_hand
    from tables.services.hands import hand_act

    table = Table.objects.get(pk=table_id)
    hand = running_hand(table)
    if hand is None:
        if clock_tick(table=table_id, now=now) != "started":
            return False
        hand = running_hand(Table.objects.get(pk=table_id))
        if hand is None:  # over as soon as dealt (blinds all in)
            return True
    while hand.is_running:
        state = hand_state(hand)
        player = Player.objects.get(pk=hand.seats[state.actor]["player_id"])
        version = Table.objects.values_list("version", flat=True).get(pk=table_id)
        kind = policy(state, rng)
        action = {"kind": kind[0], "amount": kind[1]} if isinstance(kind, tuple) else kind
        hand = hand_act(
            table=table,
            player=player,
            hand_id=hand.pk,
            version=version,
            action=action,
            source=HandAction.Source.BOT,
        )
    return True


def assert_places_each_given_once(places: list[int | None]) -> None:
    """Every place 1..N is held by exactly one player, or shared by one tie that covers it
    (players out in the same hand with equal chips share their places)."""
    counted = Counter(places)
    covered = []
    for place, tied in counted.items():
        assert place is not None
        covered += range(place, place + tied)
    assert sorted(covered) == list(range(1, len(places) + 1)), sorted(places, key=str)
