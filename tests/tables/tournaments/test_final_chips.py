"""Issue 31, item 15: a finished tournament keeps each entrant's final chips beside the place,
in ``GET /api/tournaments/<id>/`` and on its page (a 20-hand fixed-hands game used to read
``chips 0`` for everyone)."""

from __future__ import annotations

import itertools

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tables.models import Hand
from tables.text import chips
from tables.tournaments.models import Tournament
from tables.tournaments.selectors import chips_issued
from tables.tournaments.services import tournament_create, tournament_register, tournament_start

from .helpers import make_player, play

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture(autouse=True)
def _fixed_decks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decks from a fixed sequence of seeds: the same cards every run."""
    counter = itertools.count(3100)
    monkeypatch.setattr("tables.services.hands.new_seed", lambda: f"{next(counter):064x}")


def finished_fixed_hands_game() -> tuple[Tournament, dict[int, int]]:
    """A 20-hand fixed-hands game played to its end; the chips each entrant ended with (from
    the last hand's stacks and result; those out before the end have none)."""
    host = make_player("host")
    tournament = tournament_create(
        organiser=host, name="Twenty hands", format="fixed-hands", hands=20, seats_per_table=4
    )
    tournament_register(tournament=tournament, player=host)
    tournament_start(tournament=tournament, by=host)
    play(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    last = Hand.objects.filter(table__tournament_table__tournament=tournament).latest("number")
    final = {entry.player_id: 0 for entry in tournament.entries.all()}
    for seat, net in zip(last.seats, last.result["net"], strict=True):
        final[seat["player_id"]] = seat["stack"] + net
    return tournament, final


def test_the_api_shows_each_entrants_final_chips_after_a_fixed_hands_game() -> None:
    tournament, final = finished_fixed_hands_game()
    client = APIClient()
    client.force_login(tournament.organiser.user)
    body = client.get(f"/api/tournaments/{tournament.pk}/").json()
    shown = {row["player_id"]: row["chips"] for row in body["entrants"]}
    assert shown == final
    assert sum(shown.values()) == chips_issued(tournament)  # every chip accounted for
    winners = {row["player_id"] for row in body["entrants"] if row["place"] == 1}
    assert {shown[w] for w in winners} == {max(shown.values())} != {0}


def test_the_page_shows_the_final_chips_beside_the_places() -> None:
    tournament, final = finished_fixed_hands_game()
    client = Client()
    client.force_login(tournament.organiser.user)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    for entry in tournament.entries.select_related("player"):
        row = page.split(f'data-player="{entry.player.name}"', 1)[1].split("</tr>", 1)[0]
        assert f'<td class="num chips">{chips(final[entry.player_id])}</td>' in row
