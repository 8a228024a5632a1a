"""A final-table deal through the REST API and the pages: each player sees the offer with
every share on their own screen and answers it there; refusals are 409 (or a message) and
change nothing; the results page, the API and each player's ledger show the deal; prizes
paid == the prize pool to the chip."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from engine import icm
from tables.models import LedgerEntry, Seat
from tables.tournaments.models import Deal, Entry, Tournament
from tables.tournaments.selectors import prizes_paid
from tables.tournaments.services import tournament_create, tournament_register, tournament_start

pytestmark = pytest.mark.django_db

LEVELS = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 3} for n in range(14)]


@pytest.fixture(autouse=True)
def _fresh_throttle_cache():
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def final_table(players):
    """alice, bob and carol at one table, 100 each, winner takes all (300); stacks 5:3:2."""
    tournament = tournament_create(
        organiser=players[0], name="Sunday", entry_fee=100, levels=LEVELS
    )
    for player in players:
        tournament_register(tournament=tournament, player=player)
    tournament_start(tournament=tournament, by=players[0], rng=random.Random(0))
    for player, stack in zip(players, [2250, 1350, 900], strict=True):
        Seat.objects.filter(player=player).update(stack=stack)
    tournament.refresh_from_db()
    return tournament


def api_for(player) -> APIClient:
    client = APIClient()
    client.force_login(player.user)
    return client


def site_for(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_a_deal_through_the_api_shows_every_share_and_is_made_once_all_agree(
    players, final_table, make_player, assert_chips_conserved
):
    alice, bob, carol = players
    url = f"/api/tournaments/{final_table.pk}/deal/"
    state = api_for(bob).get(url).json()
    assert state == {"deal": None, "may_propose": True, "refusal": None}
    outsider = api_for(make_player("dave"))
    assert outsider.get(url).json()["refusal"] == "Only the players still in make a deal."

    # Bad input: 400 naming the field; refused: 409 with its code. Nothing is made.
    answer = api_for(bob).post(url, {"keep": "10"}, format="json")
    assert answer.status_code == 400 and "keep" in answer.json()["errors"]
    answer = api_for(bob).post(url, {"method": "icm", "split": 1}, format="json")
    assert answer.status_code == 400 and "split" in answer.json()["errors"]
    answer = api_for(bob).post(url, {"keep": 301}, format="json")  # more than the 300 left
    assert answer.status_code == 409 and answer.json()["code"] == "deal_refused"
    answer = outsider.post(url, {"method": "icm"}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "deal_refused"
    assert not Deal.objects.exists()

    answer = api_for(bob).post(url, {"method": "icm"}, format="json")
    assert answer.status_code == 201, answer.json()
    deal = answer.json()["deal"]
    expected = icm.deal([2250, 1350, 900], [300])
    assert [(s["name"], s["chips"], s["share"]) for s in deal["shares"]] == list(
        zip(["alice", "bob", "carol"], [2250, 1350, 900], expected, strict=True)
    )
    assert [s["agreed"] for s in deal["shares"]] == [False, True, False]
    assert (deal["may_answer"], answer.json()["may_propose"]) == (False, False)
    seen_by_carol = api_for(carol).get(url).json()["deal"]
    assert (seen_by_carol["may_answer"], seen_by_carol["may_accept"]) == (True, True)
    assert seen_by_carol["shares"] == deal["shares"]

    answers = f"{url}answer/"
    assert api_for(carol).post(answers, {"accept": "yes"}, format="json").status_code == 400
    assert api_for(bob).post(answers, {"accept": True}, format="json").status_code == 409
    assert api_for(alice).post(answers, {"accept": True}, format="json").status_code == 200
    done = api_for(carol).post(answers, {"accept": True}, format="json").json()
    assert done["deal"]["status"] == "made"

    body = api_for(carol).get(f"/api/tournaments/{final_table.pk}/").json()
    assert body["status"] == "finished"
    prizes = {row["player"]: (row["place"], row["prize"]) for row in body["entrants"]}
    assert prizes == {"alice": (1, expected[0]), "bob": (2, expected[1]), "carol": (3, expected[2])}
    final_table.refresh_from_db()
    assert prizes_paid(final_table) == final_table.prize_pool == 300
    assert_chips_conserved()


def test_a_refusal_through_the_api_ends_the_deal_and_pays_nothing(players, final_table):
    alice, bob, carol = players
    url = f"/api/tournaments/{final_table.pk}/deal/"
    assert api_for(alice).post(url, {"method": "chip_chop"}, format="json").status_code == 201
    answer = api_for(carol).post(f"{url}answer/", {"accept": False}, format="json")
    assert answer.status_code == 200
    assert answer.json()["deal"]["status"] == "refused"
    assert answer.json()["may_propose"] is True  # a new one may be proposed
    final_table.refresh_from_db()
    assert final_table.status == Tournament.Status.RUNNING and final_table.paused_at is None
    assert prizes_paid(final_table) == 0


def test_each_player_answers_the_deal_on_their_own_page_and_the_results_show_it(
    players, final_table
):
    alice, bob, carol = players
    page = reverse("tournaments:detail", args=[final_table.pk])
    alices = site_for(alice)  # one client: the message comes back on her next page
    assert 'id="deal-propose"' in alices.get(page).content.decode()
    alices.post(reverse("tournaments:deal", args=[final_table.pk]), {"method": "icm", "keep": "x"})
    assert "whole number" in alices.get(page).content.decode()
    assert not Deal.objects.exists()
    response = alices.post(
        reverse("tournaments:deal", args=[final_table.pk]), {"method": "icm", "keep": ""}
    )
    assert response.status_code == 302
    shares = icm.deal([2250, 1350, 900], [300])
    for player in (bob, carol):
        html = site_for(player).get(page).content.decode()
        assert 'id="deal"' in html and 'id="deal-accept"' in html and 'id="deal-refuse"' in html
        for share in shares:
            assert f'<td class="num share">{share}</td>' in html
        assert 'id="deal-propose"' not in html
    html = site_for(alice).get(page).content.decode()
    assert 'id="deal-accept"' not in html  # she agreed by proposing
    table_id = Seat.objects.filter(player=alice).values_list("table_id", flat=True).get()
    banner = site_for(bob).get(reverse("tournaments:table-level", args=[table_id]))
    assert 'id="deal-deciding"' in banner.content.decode()

    answer = reverse("tournaments:deal-answer", args=[final_table.pk])
    site_for(bob).post(answer, {"answer": "accept"})
    site_for(carol).post(answer, {"answer": "accept"})
    html = site_for(carol).get(page).content.decode()
    assert "Deal made" in html and "Results" in html
    entries = {e.player_id: e for e in Entry.objects.filter(tournament=final_table)}
    for player, share in zip(players, shares, strict=True):
        assert (entries[player.pk].prize, entries[player.pk].deal_share) == (share, share)
        line = LedgerEntry.objects.get(player=player, kind=LedgerEntry.Kind.TOURNAMENT_PRIZE)
        assert line.amount == share
        ledger = site_for(player).get(reverse("profile")).content.decode()
        assert "Deal (ICM) in Sunday" in ledger
