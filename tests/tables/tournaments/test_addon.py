"""The add-on (issue 52): once per player, at the end of the rebuys (the last rebuy level and
a break after it), chips at the table between hands and the price into the prize pool. Refused
outside the window with a clear error and nothing changed; offered on the pages and the API."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tables.models import Hand, LedgerEntry, Seat
from tables.services.clock import clock_tick
from tables.tournaments.errors import AddonRefused, TournamentInvalid
from tables.tournaments.models import Entry, Tournament
from tables.tournaments.selectors import chips_issued, tournament_chips
from tables.tournaments.services import tournament_create, tournament_register, tournament_start
from tables.tournaments.services.addons import tournament_addon
from tables.tournaments.services.places import entries_out

pytestmark = pytest.mark.django_db

LEVELS = [{"small_blind": 10 * 2**n, "big_blind": 20 * 2**n, "hands": 3} for n in range(6)]
ADDON = {"rebuy_levels": 2, "addon_chips": 2000, "addon_price": 80}


def running(players, **settings) -> Tournament:
    settings = {"levels": LEVELS, "entry_fee": 100, "starting_stack": 1000, **settings}
    tournament = tournament_create(organiser=players[0], name="Add-on cup", **settings)
    for player in players:
        tournament_register(tournament=tournament, player=player)
    tournament_start(tournament=tournament, by=players[0], rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


def at_last_rebuy_level(tournament: Tournament) -> None:
    """The leading table has dealt the first level's three hands: level 2, rebuys' last."""
    Tournament.objects.filter(pk=tournament.pk).update(hands_dealt=3)


def state(tournament: Tournament, player) -> tuple:
    tournament.refresh_from_db()
    player.refresh_from_db()
    entry = Entry.objects.get(tournament=tournament, player=player)
    stack = Seat.objects.filter(player=player).values_list("stack", flat=True).first()
    return (tournament.prize_pool, player.bankroll, entry.addon_taken, entry.fee_paid, stack)


def test_the_add_on_is_taken_once_chips_at_the_table_and_its_price_in_the_pool(
    players, assert_chips_conserved
):
    alice, bob, carol = players
    tournament = running(players, **ADDON)
    at_last_rebuy_level(tournament)
    pool, bankroll, _, _, stack = state(tournament, bob)
    tournament_addon(tournament=tournament, player=bob)
    assert state(tournament, bob) == (pool + 80, bankroll - 80, True, 180, stack + 2000)
    ledger = LedgerEntry.objects.get(player=bob, reason__startswith="Add-on")
    assert (ledger.amount, ledger.kind) == (-80, LedgerEntry.Kind.TOURNAMENT_ENTRY)
    assert tournament_chips(tournament) == chips_issued(tournament) == 3 * 1000 + 2000
    assert_chips_conserved()
    # A second time: refused, and nothing changes.
    before = state(tournament, bob)
    with pytest.raises(AddonRefused, match="already"):
        tournament_addon(tournament=tournament, player=bob)
    assert state(tournament, bob) == before
    assert_chips_conserved()


def test_the_add_on_waits_for_the_last_rebuy_level_and_ends_with_the_rebuys(players):
    alice, bob, carol = players
    tournament = running(players, **ADDON)
    before = state(tournament, bob)
    with pytest.raises(AddonRefused, match="level 2"):  # level 1: not yet
        tournament_addon(tournament=tournament, player=bob)
    assert state(tournament, bob) == before
    at_last_rebuy_level(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(rebuys_open=False)  # rebuys closed
    with pytest.raises(AddonRefused, match="over"):
        tournament_addon(tournament=tournament, player=bob)
    assert state(tournament, bob) == before


def test_the_add_on_is_refused_during_the_players_hand_when_out_and_without_one(players):
    alice, bob, carol = players
    tournament = running(players, **ADDON)
    at_last_rebuy_level(tournament)
    (table_id,) = tournament.tables.values_list("table_id", flat=True)
    assert clock_tick(table=table_id, now=tournament.started_at) == "started"
    assert Hand.objects.filter(table_id=table_id, status=Hand.Status.RUNNING).exists()
    before = state(tournament, bob)
    with pytest.raises(AddonRefused, match="between your hands"):
        tournament_addon(tournament=tournament, player=bob)
    assert state(tournament, bob) == before
    freezeout = tournament_create(organiser=alice, name="Freezeout", levels=LEVELS)
    tournament_register(tournament=freezeout, player=bob)
    with pytest.raises(AddonRefused, match="no add-on"):
        tournament_addon(tournament=freezeout, player=bob)


def test_a_player_out_cannot_take_the_add_on(players, make_player):
    alice, bob, carol = players
    tournament = running(players, **ADDON)
    at_last_rebuy_level(tournament)
    seat = Seat.objects.get(player=carol)
    other = Seat.objects.get(player=alice)
    Seat.objects.filter(pk=other.pk).update(stack=other.stack + seat.stack)
    seat.delete()
    entries_out(tournament, {carol.pk: seat.stack})
    before = state(tournament, carol)
    with pytest.raises(AddonRefused, match="still in"):
        tournament_addon(tournament=tournament, player=carol)
    assert state(tournament, carol) == before


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"addon_chips": 1000, "addon_price": 50}, "addon_chips"),  # no rebuys
        ({"rebuy_levels": 1, "addon_price": 50}, "addon_price"),  # a price, no chips
        ({"rebuy_levels": 1, "addon_chips": -1}, "addon_chips"),
    ],
)
def test_add_on_settings_that_cannot_be_played_are_refused(players, options, field):
    with pytest.raises(TournamentInvalid) as refused:
        tournament_create(organiser=players[0], name="Bad", levels=LEVELS, **options)
    assert refused.value.field == field
    assert not Tournament.objects.exists()


# --- pages and API -------------------------------------------------------------------------
def test_the_table_banner_and_the_tournament_page_offer_the_add_on(players):
    alice, bob, carol = players
    tournament = running(players, **ADDON)
    table = tournament.tables.get().table
    site = Client()
    site.force_login(bob.user)
    banner_url = f"/tournaments/tables/{table.pk}/level/"
    assert 'id="addon"' not in site.get(banner_url).content.decode()  # not yet
    at_last_rebuy_level(tournament)
    banner = site.get(banner_url).content.decode()
    assert 'id="addon"' in banner and "2,000 chips" in banner
    page = site.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="addon"' in page
    assert "an add-on of 2,000 chips for 80" in page
    back = site.post(f"/tournaments/{tournament.pk}/addon/", {"next": f"/tables/{table.pk}/"})
    assert back.url == f"/tables/{table.pk}/"
    assert Entry.objects.get(player=bob).addon_taken
    assert 'id="addon"' not in site.get(banner_url).content.decode()  # taken
    again = site.post(f"/tournaments/{tournament.pk}/addon/", follow=True).content.decode()
    assert "already" in again


def test_the_api_takes_the_add_on_settings_offers_it_and_refuses_it_with_its_code(players):
    alice, bob, carol = players
    api = {}
    for player in players:
        api[player] = APIClient()
        api[player].force_login(player.user)
    body = {"name": "API add-on", "levels": LEVELS, "entry_fee": 100, **ADDON}
    made = api[alice].post("/api/tournaments/", body, format="json")
    assert made.status_code == 201, made.json()
    assert (made.json()["addon_chips"], made.json()["addon_price"]) == (2000, 80)
    tid = made.json()["id"]
    for player in players:
        assert api[player].post(f"/api/tournaments/{tid}/registration/").status_code == 201
    assert api[alice].post(f"/api/tournaments/{tid}/start/").status_code == 200
    early = api[bob].post(f"/api/tournaments/{tid}/addon/")
    assert (early.status_code, early.json()["code"]) == (409, "addon_refused")
    assert "level 2" in early.json()["message"]
    assert api[bob].get(f"/api/tournaments/{tid}/").json()["may_addon"] is False
    at_last_rebuy_level(Tournament.objects.get(pk=tid))
    assert api[bob].get(f"/api/tournaments/{tid}/").json()["may_addon"] is True
    taken = api[bob].post(f"/api/tournaments/{tid}/addon/")
    assert taken.status_code == 200, taken.json()
    row = next(r for r in taken.json()["entrants"] if r["player_id"] == bob.pk)
    assert row["addon"] is True
    assert taken.json()["prize_pool"] == 380 and taken.json()["may_addon"] is False
    twice = api[bob].post(f"/api/tournaments/{tid}/addon/")
    assert (twice.status_code, twice.json()["code"]) == (409, "addon_refused")
    assert Tournament.objects.get(pk=tid).prize_pool == 380
    wrong = api[alice].post(
        "/api/tournaments/", {**body, "rebuy_levels": 0, "name": "No"}, format="json"
    )
    assert wrong.status_code == 400 and "addon_chips" in wrong.json()["errors"]


def test_by_minutes_the_add_on_is_open_in_the_last_rebuy_level_and_the_break_after_it(players):
    from datetime import timedelta

    from django.utils import timezone

    alice, bob, carol = players
    minutes = [{"small_blind": 10 * 2**n, "big_blind": 20 * 2**n, "minutes": 10} for n in range(4)]
    tournament = running(players, levels=minutes, break_every_levels=2, break_minutes=10, **ADDON)
    # Five minutes in: level 1, not yet.
    Tournament.objects.filter(pk=tournament.pk).update(
        started_at=timezone.now() - timedelta(minutes=5)
    )
    with pytest.raises(AddonRefused, match="level 2"):
        tournament_addon(tournament=tournament, player=bob)
    # Twenty-five minutes in: the break after level 2 (rebuys still open: no hand dealt yet).
    Tournament.objects.filter(pk=tournament.pk).update(
        started_at=timezone.now() - timedelta(minutes=25)
    )
    tournament_addon(tournament=tournament, player=bob)
    assert Entry.objects.get(player=bob).addon_taken
    assert tournament_chips(tournament) == chips_issued(tournament) == 3000 + 2000


def test_an_add_on_the_bankroll_cannot_pay_is_refused_and_changes_nothing(players):
    from tables.services.errors import InsufficientBankroll

    alice, bob, carol = players
    tournament = running(players, **{**ADDON, "addon_price": 10**9})
    at_last_rebuy_level(tournament)
    before = state(tournament, bob)
    with pytest.raises(InsufficientBankroll):
        tournament_addon(tournament=tournament, player=bob)
    assert state(tournament, bob) == before
    assert tournament_chips(tournament) == chips_issued(tournament) == 3000
