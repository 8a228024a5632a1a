"""Bounty tournaments (issue 52), through the services with rigged decks: part of each entry
fee is a bounty on the player's head, paid to whoever wins the highest pot the player was
eligible for when they go out (fixed: the whole head; progressive knockout: half paid, half
onto the knocker's head); a split pot splits it; the players still in at the end take their
own heads back. Entry fees paid == prizes + bounties paid, to the chip, in every test."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db.models import Sum
from django.utils import timezone

from engine.cards import ALL_CARDS, parse_cards
from tables.models import LedgerEntry, Player, Seat
from tables.tournaments.errors import TournamentInvalid
from tables.tournaments.models import Entry, Tournament
from tables.tournaments.services import (
    tournament_create,
    tournament_rebuy,
    tournament_register,
    tournament_start,
    tournament_unregister,
)
from tables.tournaments.services.deals import deal_answer, deal_propose
from tables.tournaments.services.organise import tournament_cancel

from .helpers import make_player, open_tables, play, play_hand

pytestmark = pytest.mark.django_db

LEVELS = [{"small_blind": 25, "big_blind": 50, "hands": 100}]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def bounty_game(
    kind: str, stacks: list[int], bounty: int = 40, **options
) -> tuple[Tournament, list]:
    """A sit & go at 100 a head (``bounty`` of it the bounty), one player per stack, started;
    ``people[k]`` sits in seat k (the first hand's button is seat 0) with ``stacks[k]``
    chips (the starting stacks moved between them: no chip made)."""
    people = [make_player(f"p{n}") for n in range(len(stacks))]
    tournament = tournament_create(
        organiser=people[0],
        name="Heads",
        seats_per_table=6,
        entry_fee=100,
        bounty_kind=kind,
        bounty=bounty,
        starting_stack=1500,
        levels=LEVELS,
        payouts=Tournament.Payouts.WINNER_TAKES_ALL,
        **options,
    )
    for person in people:
        tournament_register(tournament=tournament, player=person)
    tournament_start(tournament=tournament, by=people[0], rng=random.Random(0))
    assert sum(stacks) == 1500 * len(stacks)
    (table_id,) = open_tables(tournament)
    for number, person in enumerate(people):  # free the numbers first
        Seat.objects.filter(player=person).update(number=number + 10)
    for number, (person, stack) in enumerate(zip(people, stacks, strict=True)):
        Seat.objects.filter(player=person).update(number=number, stack=stack)
    tournament.refresh_from_db()
    return tournament, people


def rig(monkeypatch, holes: list[str], board: str) -> None:
    """Every hand dealt gets these cards: ``holes[k]`` to seat k (dealt one at a time from
    the left of the button, seat 0), then the board with a card burnt before each street."""
    seats = len(holes)
    cards = [parse_cards(h) for h in holes]
    order = [(k + 1) % seats for k in range(seats)]
    head = [cards[seat][r] for r in range(2) for seat in order]
    flop, turn, river = parse_cards(board)[:3], parse_cards(board)[3:4], parse_cards(board)[4:]
    burn = parse_cards("2h 3h 4h")
    head += [burn[0], *flop, burn[1], *turn, burn[2], *river]
    assert len(set(head)) == len(head)
    deck = head + [card for card in ALL_CARDS if card not in head]
    monkeypatch.setattr("tables.services.hands.seeded_deck", lambda seed: list(deck))


def scripted(plan: dict[int, str]):
    """A policy by seat: "shove" (all in, or call it), "call" (check when free) or "fold"."""

    def policy(state, rng):
        legal, wanted = state.legal, plan[state.actor]
        if wanted == "shove" and legal.max_raise_to is not None:
            return ("raise", legal.max_raise_to)
        if legal.check:
            return "check"
        if wanted in ("shove", "call") and legal.call:
            return "call"
        return "fold"

    return policy


def play_one(tournament: Tournament, plan: dict[int, str]) -> None:
    (table_id,) = open_tables(tournament)
    now = timezone.now() + timedelta(minutes=1)
    assert play_hand(table_id, now, random.Random(0), policy=scripted(plan))
    tournament.refresh_from_db()


def entry(person) -> Entry:
    return Entry.objects.get(player=person)


def assert_money_conserved(tournament: Tournament) -> None:
    """Fees paid == prize pool + heads unpaid + bounties paid; once it is finished, every
    fee is paid out as a prize or a bounty."""
    tournament.refresh_from_db()
    sums = tournament.entries.aggregate(
        fees=Sum("fee_paid"), prizes=Sum("prize"), heads=Sum("bounty"), won=Sum("bounties_won")
    )
    assert sums["fees"] == tournament.prize_pool + sums["heads"] + sums["won"], sums
    if tournament.status == Tournament.Status.FINISHED:
        assert sums["heads"] == 0
        assert sums["fees"] == sums["prizes"] + sums["won"], sums


def bounty_lines(person) -> list[int]:
    return list(
        LedgerEntry.objects.filter(player=person, reason__contains="ounty")
        .order_by("pk")
        .values_list("amount", flat=True)
    )


# --- settings and money in ------------------------------------------------------------------
def test_the_bounty_is_part_of_the_entry_fee_and_the_rest_goes_to_the_prize_pool(
    assert_chips_conserved,
):
    tournament, people = bounty_game("fixed", [1500, 1500, 1500])
    assert tournament.prize_pool == 3 * 60
    assert [entry(p).bounty for p in people] == [40, 40, 40]
    assert [Player.objects.get(pk=p.pk).bankroll for p in people] == [10_000 - 100] * 3
    assert_money_conserved(tournament)
    assert_chips_conserved()


@pytest.mark.parametrize(
    ("kind", "bounty", "field"),
    [
        ("fixed", 101, "bounty"),  # more than the entry fee
        ("fixed", 0, "bounty"),  # a bounty tournament with no bounty
        ("none", 10, "bounty"),  # a bounty without bounties
        ("pko", -1, "bounty"),
        ("progressive", 10, "bounty_kind"),
    ],
)
def test_a_bounty_that_cannot_be_played_is_refused_and_nothing_is_made(kind, bounty, field):
    host = make_player("host")
    with pytest.raises(TournamentInvalid) as refused:
        tournament_create(
            organiser=host, name="Bad", entry_fee=100, bounty_kind=kind, bounty=bounty
        )
    assert refused.value.field == field
    assert not Tournament.objects.exists()


def test_unregistering_and_cancelling_give_the_whole_fee_back_bounty_included(
    assert_chips_conserved,
):
    host, ann, bob = make_player("host"), make_player("ann"), make_player("bob")
    tournament = tournament_create(
        organiser=host, name="Back", entry_fee=100, bounty_kind="pko", bounty=30
    )
    for person in (host, ann, bob):
        tournament_register(tournament=tournament, player=person)
    tournament.refresh_from_db()
    assert tournament.prize_pool == 3 * 70
    assert_chips_conserved()  # the heads are held by the tournament meanwhile
    tournament_unregister(tournament=tournament, player=ann)
    tournament.refresh_from_db()
    assert tournament.prize_pool == 2 * 70
    assert Player.objects.get(pk=ann.pk).bankroll == 10_000
    assert_chips_conserved()
    tournament_cancel(tournament=tournament, by=host.user)
    assert [Player.objects.get(pk=p.pk).bankroll for p in (host, ann, bob)] == [10_000] * 3
    tournament.refresh_from_db()
    assert tournament.prize_pool == 0 and not tournament.entries.exists()
    assert_chips_conserved()


def test_a_rebuy_pays_the_same_split_its_bounty_onto_the_head(assert_chips_conserved):
    tournament, people = bounty_game("pko", [1500, 1500, 1500], rebuy_levels=1)
    tournament_rebuy(tournament=tournament, player=people[1])
    tournament.refresh_from_db()
    assert tournament.prize_pool == 4 * 60
    assert [entry(p).bounty for p in people] == [40, 80, 40]
    assert entry(people[1]).fee_paid == 200
    assert_money_conserved(tournament)
    assert_chips_conserved()


# --- knockouts ------------------------------------------------------------------------------
def test_a_fixed_bounty_goes_whole_to_the_player_who_knocks_out(
    monkeypatch, assert_chips_conserved
):
    # p0 (the button) shoves 500 with kings, p1 folds, p2 calls with aces and wins.
    tournament, people = bounty_game("fixed", [500, 2000, 2000])
    rig(monkeypatch, ["Kc Kd", "7c 2d", "Ac Ad"], "9s 8h 3c 5d Jh")
    play_one(tournament, {0: "shove", 1: "fold", 2: "call"})
    assert entry(people[0]).out_order is not None
    assert [entry(p).bounty for p in people] == [0, 40, 40]
    assert [entry(p).bounties_won for p in people] == [0, 0, 40]
    assert bounty_lines(people[2]) == [40] and bounty_lines(people[1]) == []
    assert_money_conserved(tournament)
    assert_chips_conserved()


def test_a_progressive_bounty_pays_half_and_puts_half_on_the_knockers_head(
    monkeypatch, assert_chips_conserved
):
    tournament, people = bounty_game("pko", [500, 2000, 2000])
    rig(monkeypatch, ["Kc Kd", "7c 2d", "Ac Ad"], "9s 8h 3c 5d Jh")
    play_one(tournament, {0: "shove", 1: "fold", 2: "call"})
    assert [entry(p).bounty for p in people] == [0, 40, 60]
    assert [entry(p).bounties_won for p in people] == [0, 0, 20]
    assert bounty_lines(people[2]) == [20]
    assert_money_conserved(tournament)
    assert_chips_conserved()


def test_a_split_pot_splits_the_bounty_the_odd_chip_as_the_pots(
    monkeypatch, assert_chips_conserved
):
    # p0 shoves 500 with sevens; p1 and p2 call and both make the broadway straight: they
    # split the main pot, so they split p0's 41 (the odd chip to p1, left of the button).
    tournament, people = bounty_game("fixed", [500, 2000, 2000], bounty=41)
    rig(monkeypatch, ["7c 7d", "Ac 2d", "Ad 2c"], "Ts Js Qh Kh 4d")
    play_one(tournament, {0: "shove", 1: "call", 2: "call"})
    assert entry(people[0]).out_order is not None
    assert [entry(p).bounties_won for p in people] == [0, 21, 20]
    assert [entry(p).bounty for p in people] == [0, 41, 41]
    assert_money_conserved(tournament)
    assert_chips_conserved()


def test_two_players_out_in_one_hand_each_bounty_goes_to_its_own_highest_pot(
    monkeypatch, assert_chips_conserved
):
    # All four all in. p1 (aces) wins the main pot and the first side pot; p3 (kings) wins
    # the second side pot, between p2 and p3. p0 was in the main pot only: p1 knocks them
    # out; p2's highest pot was the second side pot: p3 knocks them out, not p1.
    tournament, people = bounty_game("pko", [500, 1000, 1500, 3000])
    rig(monkeypatch, ["7c 2d", "Ac Ad", "Qc Qd", "Kc Kd"], "9s 8h 3c 5d Jh")
    play_one(tournament, {0: "shove", 1: "shove", 2: "shove", 3: "shove"})
    stacks = dict(Seat.objects.values_list("player_id", "stack"))
    assert (stacks[people[1].pk], stacks[people[3].pk]) == (3500, 2500)
    assert entry(people[0]).out_order is not None and entry(people[2]).out_order is not None
    assert [entry(p).bounties_won for p in people] == [0, 20, 0, 20]
    assert [entry(p).bounty for p in people] == [0, 60, 0, 60]
    assert_money_conserved(tournament)
    assert_chips_conserved()


# --- the end --------------------------------------------------------------------------------
def test_the_winner_takes_their_own_head_and_every_fee_is_paid_out(
    monkeypatch, assert_chips_conserved
):
    # Heads-up: p1 (the big blind, first dealt) shoves with aces, p0 calls with kings.
    tournament, people = bounty_game("pko", [1000, 2000])
    rig(monkeypatch, ["Kc Kd", "Ac Ad"], "9s 8h 3c 5d Jh")
    play_one(tournament, {0: "call", 1: "shove"})
    assert tournament.status == Tournament.Status.FINISHED
    # p1 took half of p0's 40 and their own head of 40 + 20 at the end: 80 in all.
    assert [entry(p).bounties_won for p in people] == [0, 80]
    assert bounty_lines(people[1]) == [20, 60]
    assert [entry(p).prize for p in people] == [0, 120]
    assert_money_conserved(tournament)
    assert_chips_conserved()


def test_a_final_table_deal_leaves_each_player_their_own_head(monkeypatch, assert_chips_conserved):
    tournament, people = bounty_game("pko", [500, 2000, 2000])
    rig(monkeypatch, ["Kc Kd", "7c 2d", "Ac Ad"], "9s 8h 3c 5d Jh")
    play_one(tournament, {0: "shove", 1: "fold", 2: "call"})
    now = timezone.now() + timedelta(hours=1)
    deal_propose(tournament=tournament, player=people[1], method="chip_chop", now=now)
    deal_answer(tournament=tournament, player=people[2], accept=True, now=now)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert [entry(p).bounties_won for p in people] == [0, 40, 80]
    assert [entry(p).bounty for p in people] == [0, 0, 0]
    assert_money_conserved(tournament)
    assert_chips_conserved()


@pytest.mark.slow
def test_a_progressive_knockout_played_to_its_end_pays_out_every_fee(assert_chips_conserved):
    host = make_player("host")
    tournament = tournament_create(
        organiser=host,
        name="Bots",
        entry_fee=100,
        bounty_kind="pko",
        bounty=50,
        bot_entrants=6,
        levels=[{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 4} for n in range(12)],
    )
    tournament_start(tournament=tournament, by=host, rng=random.Random(1))
    play(tournament, on_hand_end=lambda _: assert_money_conserved(tournament))
    assert_money_conserved(tournament)
    assert tournament.entries.aggregate(won=Sum("bounties_won"))["won"] == 6 * 50
    assert_chips_conserved()
