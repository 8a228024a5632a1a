"""A tournament's tables are marked as such in the API (issue 32, item 7): ``GET /api/tables/``
gives them a ``tournament`` (its id, name and level now and next) and no cash buy-in range;
their play state carries no bankroll, top-up room or buy-in; what the server allows a seated
player there (no top-up, no leaving; sitting out keeps them dealt in) is what it answers."""

from __future__ import annotations

import jsonschema
import pytest
from rest_framework.test import APIClient

from tables.models import Seat
from tables.presenters.play_state import PLAY_STATE
from tables.tournaments.models import TournamentTable
from tables.tournaments.services import tournament_create, tournament_register, tournament_start

pytestmark = pytest.mark.django_db

VALIDATOR = jsonschema.Draft202012Validator(
    PLAY_STATE, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
)
LEVELS = [
    {"small_blind": 10, "big_blind": 20, "ante": 0, "hands": 5},
    {"small_blind": 20, "big_blind": 40, "ante": 5, "hands": 5},
]


@pytest.fixture
def running_tournament(players):
    alice, bob, _ = players
    tournament = tournament_create(
        organiser=alice, name="Friday SNG", seats_per_table=6, starting_stack=1500, levels=LEVELS
    )
    for player in (alice, bob):
        tournament_register(tournament=tournament, player=player)
    tournament_start(tournament=tournament, by=alice)
    table_id = TournamentTable.objects.get(tournament=tournament).table_id
    return tournament, table_id


def client_of(player) -> APIClient:
    client = APIClient()
    client.force_login(player.user)
    return client


def test_the_table_list_marks_a_tournament_table_and_gives_it_no_buy_in(
    running_tournament, make_table
):
    tournament, table_id = running_tournament
    cash = make_table(name="Cash game")
    rows = {row["id"]: row for row in APIClient().get("/api/tables/").json()["results"]}
    marked = rows[table_id]["tournament"]
    assert marked["id"] == tournament.pk and marked["name"] == "Friday SNG"
    assert marked["level"]["number"] == 1
    assert (marked["level"]["small_blind"], marked["level"]["big_blind"]) == (10, 20)
    assert marked["level"]["next"] == {"small_blind": 20, "big_blind": 40, "ante": 5}
    assert marked["blinds"] == "10/20" and marked["next_blinds"] == "20/40 ante 5"
    assert rows[table_id]["min_buy_in"] is None and rows[table_id]["max_buy_in"] is None
    assert rows[cash.pk]["tournament"] is None
    assert rows[cash.pk]["min_buy_in"] == cash.effective_min_buy_in > 0
    assert rows[cash.pk]["max_buy_in"] == cash.effective_max_buy_in
    one = APIClient().get(f"/api/tables/{table_id}/").json()
    assert one["tournament"]["id"] == tournament.pk and one["min_buy_in"] is None


def test_the_play_state_at_a_tournament_table_has_no_bankroll_top_up_or_buy_in(
    running_tournament, players, table
):
    tournament, table_id = running_tournament
    alice = players[0]
    state = client_of(alice).get(f"/api/tables/{table_id}/state/").json()
    VALIDATOR.validate(state)
    assert state["you"]["seat"] is not None and state["you"]["stack"] > 0
    assert state["you"]["bankroll"] is None and state["you"]["top_up_room"] is None
    shown = state["table"]
    assert (shown["min_buy_in"], shown["max_buy_in"], shown["default_buy_in"]) == (None,) * 3
    assert state["tournament"]["id"] == tournament.pk
    assert state["tournament"]["level"]["next"]["big_blind"] == 40
    # at a cash table the same player's state keeps them
    cash = client_of(alice).get(f"/api/tables/{table.pk}/state/").json()
    VALIDATOR.validate(cash)
    alice.refresh_from_db()
    assert cash["you"]["bankroll"] == alice.bankroll and cash["table"]["min_buy_in"] > 0


def test_what_the_server_allows_a_seated_player_at_a_tournament_table(running_tournament, players):
    """The client offers exactly this: no top-up and no leaving (refused, nothing changes);
    sitting out is accepted (away: still dealt in, the clock acts for them) and sitting in."""
    _, table_id = running_tournament
    alice = players[0]
    client = client_of(alice)
    stack = Seat.objects.get(table_id=table_id, player=alice).stack
    for path, body in (("top-up", {"amount": 10}), ("seat", None)):
        call = client.post if path == "top-up" else client.delete
        answer = call(f"/api/tables/{table_id}/{path}/", body, format="json")
        assert answer.status_code == 400, answer.content
        assert answer.json()["code"] == "seating_closed", path
    assert Seat.objects.get(table_id=table_id, player=alice).stack == stack
    away = client.post(f"/api/tables/{table_id}/sit-out/").json()
    assert away["you"]["sitting_out"] and away["you"]["seat"] is not None
    back = client.post(f"/api/tables/{table_id}/sit-in/").json()
    assert not back["you"]["sitting_out"]


def test_the_play_state_gives_the_heads_and_the_addon_the_terminal_client_draws(players):
    """Issue 52: at a bounty tournament's table the play state lists each seated player's
    head (public, as on its page) and the add-on's chips, price and window."""
    alice, bob, _ = players
    tournament = tournament_create(
        organiser=alice,
        name="PKO rebuys",
        entry_fee=100,
        bounty_kind="pko",
        bounty=40,
        levels=LEVELS,
        rebuy_levels=1,
        addon_chips=1500,
        addon_price=50,
    )
    for player in (alice, bob):
        tournament_register(tournament=tournament, player=player)
    tournament_start(tournament=tournament, by=alice)
    table_id = TournamentTable.objects.get(tournament=tournament).table_id
    state = client_of(alice).get(f"/api/tables/{table_id}/state/").json()
    VALIDATOR.validate(state)
    heads = {(head["player"], head["bounty"]) for head in state["tournament"]["bounties"]}
    assert heads == {(alice.name, 40), (bob.name, 40)}
    # rebuys during level 1 only: its last level, so the add-on's window is on
    assert state["tournament"]["addon"] == {"chips": 1500, "price": 50, "open": True}
    plain = client_of(alice).get(f"/api/tables/{running_plain(players)}/state/").json()
    VALIDATOR.validate(plain)
    assert plain["tournament"]["bounties"] == [] and plain["tournament"]["addon"] is None


def running_plain(players) -> int:
    alice, _, carol = players
    tournament = tournament_create(organiser=alice, name="Plain", levels=LEVELS)
    for player in (alice, carol):
        tournament_register(tournament=tournament, player=player)
    tournament_start(tournament=tournament, by=alice)
    return TournamentTable.objects.get(tournament=tournament).table_id
