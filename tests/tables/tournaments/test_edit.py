"""Editing a tournament before it starts (issue 52): its organiser changes its settings through
the organise form (``/tournaments/<id>/edit/``, linked from its page); once it started, or
for anyone else, the edit is refused with a message and nothing changes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tables.models import Player
from tables.tournaments import structure
from tables.tournaments.errors import NotOrganiser, TournamentInvalid, TournamentNotRegistering
from tables.tournaments.models import Tournament
from tables.tournaments.services import tournament_create, tournament_register, tournament_start
from tables.tournaments.services.edit import tournament_edit

pytestmark = pytest.mark.django_db

#: The organise form as a browser posts it: a regular freezeout, then edited.
FORM = {
    "name": "Friday",
    "format": "sit-and-go",
    "game": "holdem",
    "betting": "no-limit",
    "seats_per_table": 6,
    "entry_fee": 10,
    "starting_stack": 1500,
    "structure": "regular",
    "level_unit": "minutes",
    "late_registration_levels": 0,
    "start": "manual",
    "payouts": "standard",
    "action_seconds": 20,
}


def site_for(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_the_organiser_edits_every_setting_before_the_start(players):
    alice, bob, _ = players
    tournament = tournament_create(organiser=alice, name="Friday", entry_fee=10)
    url = f"/tournaments/{tournament.pk}/"
    assert 'id="edit"' in site_for(alice).get(url).content.decode()
    assert 'id="edit"' not in site_for(bob).get(url).content.decode()
    page = site_for(alice).get(f"{url}edit/")
    assert page.status_code == 200
    form = page.context["form"]
    assert "bot_entrants" not in form.fields  # bots are entries, not a setting
    assert form.initial["name"] == "Friday" and form.initial["structure"] == "regular"
    starts = timezone.localtime() + timedelta(hours=3)
    edited = {
        **FORM,
        "name": "Friday hyper",
        "entry_fee": 20,
        "bounty_kind": "fixed",
        "bounty": 5,
        "structure": "hyper",
        "starting_big_blinds": 40,
        "rebuy_levels": 2,
        "max_rebuys": 2,
        "addon_chips": 3000,
        "addon_price": 20,
        "start": "time",
        "start_at": starts.strftime("%Y-%m-%dT%H:%M"),
    }
    saved = site_for(alice).post(f"{url}edit/", edited)
    assert saved.status_code == 302 and saved["Location"] == url
    tournament.refresh_from_db()
    hyper = structure.preset_levels("hyper")
    assert (tournament.name, tournament.structure, tournament.levels) == (
        "Friday hyper",
        "hyper",
        hyper,
    )
    assert tournament.starting_stack == 40 * hyper[0]["big_blind"]
    assert (tournament.entry_fee, tournament.bounty_kind, tournament.bounty) == (20, "fixed", 5)
    addon = (tournament.rebuy_levels, tournament.addon_chips, tournament.addon_price)
    assert addon == (2, 3000, 20)
    assert tournament.start == "time"
    assert tournament.start_at == starts.replace(second=0, microsecond=0)
    again = site_for(alice).get(f"{url}edit/")
    assert again.context["form"].initial["start_at"] == timezone.localtime(tournament.start_at)
    assert f'value="{starts.strftime("%Y-%m-%dT%H:%M")}"' in again.content.decode()
    custom = {**edited, "structure": "custom", "levels": "5 10 0 4\n10 20 5 4"}
    site_for(alice).post(f"{url}edit/", custom)
    tournament.refresh_from_db()
    assert tournament.structure == "custom" and tournament.levels[1] == {
        "small_blind": 10,
        "big_blind": 20,
        "ante": 5,
        "minutes": 4,
    }
    assert site_for(alice).get(f"{url}edit/").context["form"].initial["levels"] == (
        "5 10 0 4\n10 20 5 4"
    )


def test_a_setting_that_cannot_be_played_is_shown_on_its_field_and_changes_nothing(players):
    alice = players[0]
    tournament = tournament_create(organiser=alice, name="Friday", entry_fee=10)
    url = f"/tournaments/{tournament.pk}/edit/"
    answer = site_for(alice).post(url, {**FORM, "rebuy_levels": 0, "addon_chips": 1000})
    assert answer.status_code == 200 and "addon_chips" in answer.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.addon_chips == 0 and tournament.name == "Friday"


def test_the_edit_is_refused_once_the_tournament_started(players):
    alice, bob, carol = players
    tournament = tournament_create(organiser=alice, name="Friday", entry_fee=10)
    for player in (bob, carol):
        tournament_register(tournament=tournament, player=player)
    tournament_start(tournament=tournament, by=alice)
    url = f"/tournaments/{tournament.pk}/"
    assert 'id="edit"' not in site_for(alice).get(url).content.decode()
    before = Tournament.objects.filter(pk=tournament.pk).values().get()
    refused = site_for(alice).post(f"{url}edit/", {**FORM, "name": "Renamed"}, follow=True)
    assert refused.redirect_chain == [(url, 302)]
    assert "Friday has started: its settings can no longer change." in refused.content.decode()
    assert site_for(alice).get(f"{url}edit/")["Location"] == url
    with pytest.raises(TournamentNotRegistering):
        tournament_edit(tournament=tournament, by=alice.user, name="Renamed")
    assert Tournament.objects.filter(pk=tournament.pk).values().get() == before


def test_only_the_organiser_edits(players):
    alice, bob, _ = players
    tournament = tournament_create(organiser=alice, name="Friday", entry_fee=10)
    url = f"/tournaments/{tournament.pk}/"
    before = Tournament.objects.filter(pk=tournament.pk).values().get()
    refused = site_for(bob).post(f"{url}edit/", {**FORM, "name": "Bob's now"}, follow=True)
    assert refused.redirect_chain == [(url, 302)]
    assert "Only the organiser can edit this tournament." in refused.content.decode()
    with pytest.raises(NotOrganiser):
        tournament_edit(tournament=tournament, by=bob.user, name="Bob's now")
    assert Tournament.objects.filter(pk=tournament.pk).values().get() == before


def test_the_entrants_keep_what_they_paid_and_fit_the_tournament(players):
    """With entrants in, the entry fee and bounty stay (each paid them) and max_entrants stays
    at or above them; the other settings change, and the entries and pool are untouched."""
    alice, bob, _ = players
    tournament = tournament_create(organiser=alice, name="Friday", entry_fee=10)
    bankroll = Player.objects.get(pk=bob.pk).bankroll
    for player in players:
        tournament_register(tournament=tournament, player=player)
    settings = {"name": "Friday", "entry_fee": 10, "format": "multi-table"}
    with pytest.raises(TournamentInvalid) as refused:
        tournament_edit(tournament=tournament, by=alice.user, **{**settings, "entry_fee": 20})
    assert refused.value.field == "entry_fee"
    with pytest.raises(TournamentInvalid) as refused:
        tournament_edit(tournament=tournament, by=alice.user, **settings, max_entrants=2)
    assert refused.value.field == "max_entrants"
    tournament_edit(tournament=tournament, by=alice.user, **settings, structure_name="deep")
    tournament.refresh_from_db()
    assert (tournament.format, tournament.structure, tournament.prize_pool) == (
        "multi-table",
        "deep",
        30,
    )
    assert tournament.entries.count() == 3
    assert Player.objects.get(pk=bob.pk).bankroll == bankroll - 10
