"""The pages for rebuys, re-entry and breaks: the organise form's options (errors by field),
the tournament page (the options, *Rebuy* and *Re-enter* for whoever may now, each entrant's
rebuys, "Break: N minutes left"), the tournament table's banner ("Break", *Rebuy*), admin."""

from __future__ import annotations

import random
from datetime import timedelta

import jsonschema
import pytest
from django.test import Client
from django.utils import timezone

from tables.models import Seat, Table
from tables.presenters.play_state import PLAY_STATE, play_state
from tables.presenters.screen import table_screen
from tables.selectors.snapshot import load_snapshot
from tables.tournaments.models import Entry, Tournament
from tables.tournaments.services import tournament_create, tournament_register, tournament_start
from tables.tournaments.services.places import entries_out

pytestmark = pytest.mark.django_db

BY_HANDS = [{"small_blind": 10 * 2**n, "big_blind": 20 * 2**n, "hands": 3} for n in range(6)]
BY_MINUTES = [{"small_blind": 10 * 2**n, "big_blind": 20 * 2**n, "minutes": 10} for n in range(4)]
FORM = {
    "name": "Options",
    "format": "multi-table",
    "game": "holdem",
    "betting": "no-limit",
    "seats_per_table": 6,
    "entry_fee": 50,
    "starting_stack": 1000,
    "structure": "regular",
    "level_unit": "minutes",
    "late_registration_levels": 2,
    "bot_entrants": 0,
    "start": "manual",
    "payouts": "standard",
    "action_seconds": 20,
}


def site_for(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def running(players, **settings) -> Tournament:
    settings = {"levels": BY_HANDS, **settings}
    tournament = tournament_create(organiser=players[0], name="Comebacks", entry_fee=50, **settings)
    for player in players:
        tournament_register(tournament=tournament, player=player)
    tournament_start(tournament=tournament, by=players[0], rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


def bust(player) -> None:
    """``player`` loses their stack to another seat and is out, as a hand's end does."""
    seat = Seat.objects.get(player=player)
    other = Seat.objects.filter(table_id=seat.table_id).exclude(pk=seat.pk).first()
    Seat.objects.filter(pk=other.pk).update(stack=other.stack + seat.stack)
    seat.delete()
    tournament = Tournament.objects.get(pk=seat.table.tournament_table.tournament_id)
    entries_out(tournament, {player.pk: seat.stack})


def test_the_organise_form_takes_rebuys_re_entry_and_breaks_and_the_page_shows_them(players):
    site = site_for(players[0])
    form = site.get("/tournaments/new/").content.decode()
    for field in ("rebuy_levels", "max_rebuys", "max_reentries", "break_every_levels"):
        assert f'name="{field}"' in form
    made = site.post(
        "/tournaments/new/",
        {
            **FORM,
            "rebuy_levels": 2,
            "max_rebuys": 3,
            "max_reentries": 1,
            "break_every_levels": 4,
            "break_minutes": 5,
        },
    )
    tournament = Tournament.objects.get()
    assert made.url == f"/tournaments/{tournament.pk}/"
    options = (
        tournament.rebuy_levels,
        tournament.max_rebuys,
        tournament.max_reentries,
        tournament.break_every_levels,
        tournament.break_minutes,
    )
    assert options == (2, 3, 1, 4, 5)
    page = Client().get(made.url).content.decode()
    assert "rebuys during the first 2 levels, 3 per player" in page
    assert "re-entry once during late registration" in page
    assert "a 5-minute break every 4 levels" in page


def test_a_form_left_without_the_options_makes_a_freezeout_without_breaks(players):
    made = site_for(players[0]).post("/tournaments/new/", FORM)
    tournament = Tournament.objects.get()
    assert made.status_code == 302
    assert (tournament.rebuy_levels, tournament.max_reentries, tournament.break_every_levels) == (
        0,
        0,
        0,
    )
    assert "freezeout" in Client().get(made.url).content.decode()


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        (
            {"structure": "custom", "levels": "10 20 0 5\n20 40 0 5", "level_unit": "hands"},
            "break_every_levels",
            "Breaks are for levels by minutes",
        ),
        ({"late_registration_levels": 0, "max_reentries": 1}, "max_reentries", "late"),
        ({"rebuy_levels": 1, "max_rebuys": 0}, "max_rebuys", "greater than or equal to 1"),
        ({"break_minutes": 0}, "break_minutes", "greater than or equal to 1"),
    ],
)
def test_wrong_options_are_shown_on_their_field_and_nothing_is_created(
    players, fields, field, words
):
    body = {**FORM, "break_every_levels": 1, "break_minutes": 5, **fields}
    response = site_for(players[0]).post("/tournaments/new/", body)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors and words in errors[field][0], errors
    assert not Tournament.objects.exists()


def test_rebuy_button_for_who_may_rebuy_now_and_each_entrants_rebuys(players):
    alice, bob, carol = players
    tournament = running(players, rebuy_levels=2, max_rebuys=1)
    url = f"/tournaments/{tournament.pk}/"
    page = site_for(bob).get(url).content.decode()
    assert 'id="rebuy"' in page and "Rebuy (50)" in page and "rebuys open" in page
    assert 'id="rebuy"' not in Client().get(url).content.decode()  # not for a spectator
    done = site_for(bob).post(f"{url}rebuy/", follow=True).content.decode()
    assert "Rebuy done" in done
    entry = Entry.objects.get(player=bob)
    assert (entry.rebuys, Seat.objects.get(player=bob).stack) == (1, 3000)  # 1,500 more
    standings = site_for(bob).get(f"{url}standings/").content.decode()
    assert 'id="rebuy"' not in standings  # the one rebuy is used
    bob_row = standings.split('data-player="bob"')[1].split("</tr>")[0]
    assert '<td class="num rebuys">1</td>' in bob_row
    refused = site_for(bob).post(f"{url}rebuy/", follow=True).content.decode()
    assert "used your 1 rebuy" in refused
    assert Entry.objects.get(player=bob).rebuys == 1


def test_a_freezeout_page_offers_no_rebuy_and_no_rebuy_column(players):
    tournament = running(players)
    page = site_for(players[1]).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="rebuy"' not in page and ">Rebuys</th>" not in page
    refused = site_for(players[1]).post(f"/tournaments/{tournament.pk}/rebuy/", follow=True)
    assert "freezeout" in refused.content.decode()


def test_the_table_banner_offers_rebuy_and_comes_back_to_the_table(players):
    alice, bob, carol = players
    tournament = running(players, rebuy_levels=2, max_rebuys=2)
    table = tournament.tables.get().table
    banner = site_for(bob).get(f"/tournaments/tables/{table.pk}/level/").content.decode()
    assert 'id="rebuy"' in banner and f'value="/tables/{table.pk}/"' in banner
    assert (
        'id="rebuy"' not in Client().get(f"/tournaments/tables/{table.pk}/level/").content.decode()
    )
    back = site_for(bob).post(
        f"/tournaments/{tournament.pk}/rebuy/", {"next": f"/tables/{table.pk}/"}
    )
    assert back.url == f"/tables/{table.pk}/"
    # bob loses 1,800 to alice: at or below the starting stack again, so he may rebuy.
    Seat.objects.filter(player=bob).update(stack=1200)
    Seat.objects.filter(player=alice).update(stack=Seat.objects.get(player=alice).stack + 1800)
    elsewhere = site_for(bob).post(
        f"/tournaments/{tournament.pk}/rebuy/", {"next": "https://elsewhere.example/"}
    )
    assert elsewhere.url == f"/tournaments/{tournament.pk}/"  # never off the site
    assert Entry.objects.get(player=bob).rebuys == 2
    page = site_for(bob).get(f"/tables/{table.pk}/").content.decode()
    # the button shows as the page opens, and the banner is asked again as hands end and begin
    assert 'hx-trigger="load, hand-changed, every 10s"' in page


def test_a_busted_player_sees_re_enter_and_re_enters_from_the_page(players):
    alice, bob, carol = players
    tournament = running(players, format="multi-table", late_registration_levels=2, max_reentries=1)
    url = f"/tournaments/{tournament.pk}/"
    assert 'id="reenter"' not in site_for(carol).get(url).content.decode()
    bust(carol)
    page = site_for(carol).get(url).content.decode()
    assert 'id="reenter"' in page and 'id="register"' not in page
    assert 'id="reenter"' not in site_for(bob).get(url).content.decode()
    site_for(carol).post(f"{url}register/")
    entry = Entry.objects.get(player=carol)
    assert (entry.reentries, entry.out_order) == (1, None)
    carol_row = site_for(carol).get(f"{url}standings/").content.decode()
    assert '<td class="num reentries">1</td>' in carol_row.split('data-player="carol"')[1]


def test_during_a_break_the_page_and_the_table_banner_say_so(players):
    tournament = running(players, levels=BY_MINUTES, break_every_levels=1, break_minutes=5)
    Tournament.objects.filter(pk=tournament.pk).update(
        started_at=timezone.now() - timedelta(minutes=11)
    )
    table = tournament.tables.get().table
    standings = Client().get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    assert "Break: 4 minutes left" in standings and "then level 2: 20/40" in standings
    banner = Client().get(f"/tournaments/tables/{table.pk}/level/").content.decode()
    assert "Break</strong>: 4 minutes left" in banner and "Level 2: <strong>20/40" in banner
    snapshot = load_snapshot(Table.objects.get(pk=table.pk))
    state = play_state(snapshot, table_screen(snapshot, players[0], None))
    jsonschema.validate(state, PLAY_STATE)
    level = state["tournament"]["level"]
    assert (level["on_break"], level["break_minutes_left"], level["number"]) == (True, 4, 2)
    # After the break: level 2 with all its ten minutes, no break shown.
    Tournament.objects.filter(pk=tournament.pk).update(
        started_at=timezone.now() - timedelta(minutes=16)
    )
    after = Client().get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    assert "Break" not in after and "Level 2: <strong>20/40</strong>" in after


def test_admin_shows_the_rebuy_re_entry_and_break_settings_and_each_entrys_rebuys(
    players, admin_client
):
    tournament = running(players, rebuy_levels=2, max_rebuys=3)
    listing = admin_client.get("/admin/tournaments/tournament/").content.decode()
    assert "3 rebuy(s) in 2 lvl" in listing
    page = admin_client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    html = page.content.decode()
    assert "Late registration, rebuys, re-entry and breaks" in html
    for label in ("Rebuy levels", "Max rebuys", "Max reentries", "Break every levels"):
        assert label in html
    assert "Rebuys open" in html and "Hands dealt" in html
    assert "Reentries" in html  # the entrants' column


def test_an_admin_organises_a_tournament_through_the_sites_form_and_service(admin_client):
    add = "/admin/tournaments/tournament/add/"
    assert 'name="rebuy_levels"' in admin_client.get(add).content.decode()
    refused = admin_client.post(add, {**FORM, "structure": "custom", "levels": ""})
    assert refused.status_code == 200
    assert "Give the custom levels, one per line." in refused.content.decode()
    assert not Tournament.objects.exists()
    made = admin_client.post(add, {**FORM, "rebuy_levels": 2})
    assert made.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.organiser.user.username == "admin"
    assert (tournament.name, tournament.rebuy_levels) == (FORM["name"], 2)
    assert tournament.invite_token  # made by the same service as the site's form
