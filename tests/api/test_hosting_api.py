"""The API of hosted games (tables/api/hosting.py): every endpoint, its errors, and that a
refused call changes nothing."""

from __future__ import annotations

import pytest

from tables.models import LedgerEntry, Seat, SeatRequest, Table, TableGuest
from tables.services.hosting import MAX_OPEN_GAMES

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(make_player):
    return make_player("hostess")


@pytest.fixture
def game(client_for, host):
    answer = client_for(host).post(
        "/api/tables/", {"name": "Friday", "seat_approval": True}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    return Table.objects.get(pk=answer.json()["id"])


def test_post_creates_a_private_game_with_the_defaults_and_an_invite_for_the_host(
    client_for, host, players
):
    answer = client_for(host).post("/api/tables/", {"name": "Friday"}, format="json")
    assert answer.status_code == 201
    body = answer.json()
    assert (body["host"], body["private"], body["big_blind"], body["max_seats"]) == (
        "hostess",
        True,
        2,
        9,
    )
    assert (body["min_buy_in"], body["max_buy_in"], body["action_seconds"]) == (40, 200, 30)
    token = Table.objects.get(pk=body["id"]).invite_token
    assert body["invite_url"] == f"http://testserver/join/{token}/"
    # another player who may see it (a guest) does not get the link
    TableGuest.objects.create(table_id=body["id"], player=players[0])
    seen = client_for(players[0]).get(f"/api/tables/{body['id']}/").json()
    assert seen["invite_url"] is None and seen["host"] == "hostess"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"max_seats": 13}, "max_seats"),
        ({"game": "omaha", "max_seats": 11}, "max_seats"),
        ({"small_blind": 5, "big_blind": 2}, "small_blind"),
        ({"bot_seats": 8}, "bot_seats"),
        ({"private": "yes"}, "private"),
        ({"big_blind": "2"}, "big_blind"),
        ({"colour": "green"}, "colour"),
    ],
)
def test_bad_settings_are_400_naming_the_field_and_create_nothing(client_for, host, body, field):
    answer = client_for(host).post("/api/tables/", {"name": "Bad", **body}, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"
    assert field in answer.json()["errors"]
    assert not Table.objects.exists()


def test_creating_needs_a_log_in_and_stops_at_ten_open_games(api, client_for, host):
    assert api.post("/api/tables/", {}, format="json").status_code == 401
    client = client_for(host)
    for n in range(MAX_OPEN_GAMES):
        assert client.post("/api/tables/", {"name": f"G{n}"}, format="json").status_code == 201
    answer = client.post("/api/tables/", {"name": "More"}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (409, "too_many_games")
    assert Table.objects.count() == MAX_OPEN_GAMES


def test_a_taken_name_gets_the_hosts_name(client_for, host, make_player):
    client_for(host).post("/api/tables/", {"name": "Friday"}, format="json")
    other = make_player("other")
    answer = client_for(other).post("/api/tables/", {"name": "Friday"}, format="json")
    assert answer.json()["name"] == "Friday · other"


def test_patch_says_what_waits_for_the_next_hand(client_for, host, game, players, settings):
    from tables.services import hand_start, seat_take

    seat_take(table=game, player=host, buy_in=100)
    seat_take(table=game, player=players[0], buy_in=100)
    client = client_for(host)
    answer = client.patch(f"/api/tables/{game.pk}/", {"big_blind": 4}, format="json")
    assert answer.json()["applied"] == ["big_blind"] and answer.json()["waiting"] == []
    hand_start(table=game)
    answer = client.patch(
        f"/api/tables/{game.pk}/",
        {"small_blind": 5, "big_blind": 10, "seat_approval": False},
        format="json",
    )
    assert answer.status_code == 200
    assert answer.json()["waiting"] == ["big_blind", "small_blind"]
    assert answer.json()["applied"] == ["seat_approval"]
    assert answer.json()["table"]["big_blind"] == 4


def test_patch_errors_400_403_404_change_nothing(client_for, host, game, players, make_player):
    version = Table.objects.get(pk=game.pk).version
    answer = client_for(host).patch(
        f"/api/tables/{game.pk}/", {"small_blind": 9, "big_blind": 4}, format="json"
    )
    assert answer.status_code == 400 and "small_blind" in answer.json()["errors"]
    guest = players[0]
    TableGuest.objects.create(table=game, player=guest)
    assert (
        client_for(guest).patch(f"/api/tables/{game.pk}/", {"big_blind": 4}, format="json")
    ).status_code == 403
    outsider = make_player("outsider")
    assert (
        client_for(outsider).patch(f"/api/tables/{game.pk}/", {"big_blind": 4}, format="json")
    ).status_code == 404
    table = Table.objects.get(pk=game.pk)
    assert (table.version, table.big_blind) == (version, 2)


def test_invite_replaces_the_link(client_for, host, game, players):
    old = game.invite_token
    answer = client_for(host).post(f"/api/tables/{game.pk}/invite/")
    assert answer.status_code == 200
    new = Table.objects.get(pk=game.pk).invite_token
    assert new != old and answer.json()["invite_url"].endswith(f"/join/{new}/")
    TableGuest.objects.create(table=game, player=players[0])
    assert client_for(players[0]).post(f"/api/tables/{game.pk}/invite/").status_code == 403
    assert Table.objects.get(pk=game.pk).invite_token == new


def test_close_pause_resume(client_for, host, game, players):
    from tables.services import seat_take

    seat_take(table=game, player=host, buy_in=100)
    client = client_for(host)
    assert client.post(f"/api/tables/{game.pk}/pause/").json()["status"] == "paused"
    assert client.post(f"/api/tables/{game.pk}/resume/").json()["status"] == "open"
    assert client.post(f"/api/tables/{game.pk}/close/").json() == {
        "status": "closed",
        "done_now": True,
    }
    assert not Seat.objects.filter(table=game).exists()
    answer = client.post(f"/api/tables/{game.pk}/pause/")
    assert (answer.status_code, answer.json()["code"]) == (409, "table_closed")


def test_seat_requests_list_approve_decline(client_for, host, game, players):
    alice, bob = players[:2]
    for player in (alice, bob):
        TableGuest.objects.create(table=game, player=player)
    asked = client_for(alice).post(
        f"/api/tables/{game.pk}/requests/", {"amount": 120, "seat": 3}, format="json"
    )
    assert asked.status_code == 201 and asked.json()["status"] == "pending"
    client_for(bob).post(f"/api/tables/{game.pk}/requests/", {"amount": 60}, format="json")
    host_client = client_for(host)
    waiting = host_client.get(f"/api/tables/{game.pk}/requests/").json()
    assert [(r["player"], r["amount"]) for r in waiting] == [("bob", 60), ("alice", 120)]
    # only alice's own request for alice; bob cannot answer hers
    mine = client_for(alice).get(f"/api/tables/{game.pk}/requests/").json()
    assert [r["player"] for r in mine] == ["alice"]
    rid = asked.json()["id"]
    assert client_for(bob).post(f"/api/tables/{game.pk}/requests/{rid}/approve/").status_code == 403
    approved = host_client.post(f"/api/tables/{game.pk}/requests/{rid}/approve/")
    assert approved.json()["status"] == "approved"
    assert Seat.objects.get(table=game, player=alice).number == 2
    again = host_client.post(f"/api/tables/{game.pk}/requests/{rid}/approve/")
    assert (again.status_code, again.json()["code"]) == (404, "no_such_request")
    bob_request = SeatRequest.objects.get(player=bob)
    host_client.post(f"/api/tables/{game.pk}/requests/{bob_request.pk}/decline/")
    assert client_for(bob).get(f"/api/tables/{game.pk}/requests/").json()[0]["status"] == (
        "declined"
    )
    assert not Seat.objects.filter(player=bob).exists()


@pytest.mark.parametrize("stack", [10_000, 999_999_999])
def test_a_host_never_puts_a_guests_bankroll_on_the_table_nor_reads_it(
    client_for, host, players, stack
):
    """Issue 32 items 1 and 2: at a 40-200 table ``correct_stack`` to 10,000 left the guest
    with bankroll 0, and a huge stack answered "your bankroll is 9440"."""
    from tables.models import Player
    from tables.services import seat_take
    from tables.services.hosting import table_create

    game = table_create(host=host, name="Reach", private=False)
    alice = players[0]
    seat_take(table=game, player=alice, buy_in=60)
    bankroll = Player.objects.get(pk=alice.pk).bankroll
    answer = client_for(host).post(
        f"/api/tables/{game.pk}/players/{alice.pk}/",
        {"action": "correct_stack", "stack": stack},
        format="json",
    )
    assert answer.status_code == 409
    assert answer.json()["code"] == "buy_in_out_of_range"
    assert str(bankroll) not in answer.json()["message"]
    assert "your" not in answer.json()["message"].lower()
    assert Player.objects.get(pk=alice.pk).bankroll == bankroll
    assert Seat.objects.get(player=alice).stack == 60
    raised = client_for(host).post(
        f"/api/tables/{game.pk}/players/{alice.pk}/",
        {"action": "correct_stack", "stack": 200},
        format="json",
    )
    assert (raised.status_code, raised.json()["code"]) == (409, "buy_in_out_of_range")
    assert Player.objects.get(pk=alice.pk).bankroll == bankroll


def test_player_controls(client_for, host, players, assert_chips_conserved):
    from tables.services import seat_take
    from tables.services.hosting import table_create

    game = table_create(host=host, name="Open", private=False)
    alice, bob = players[:2]
    for player in (alice, bob):
        seat_take(table=game, player=player, buy_in=100)
    client = client_for(host)
    url = f"/api/tables/{game.pk}/players/{alice.pk}/"
    answer = client.post(url, {"action": "correct_stack", "stack": 80}, format="json")
    assert answer.json()["done_now"] is True
    assert LedgerEntry.objects.get(kind="correction").amount == 20
    assert client.post(url, {"action": "correct_stack"}, format="json").status_code == 400
    client.post(url, {"action": "sit_out"}, format="json")
    assert Seat.objects.get(player=alice).sitting_out
    client.post(url, {"action": "make_host"}, format="json")
    assert Table.objects.get(pk=game.pk).host == alice
    # the old host's powers are gone
    assert client.post(url, {"action": "remove"}, format="json").status_code == 403
    assert client_for(alice).post(
        f"/api/tables/{game.pk}/players/{bob.pk}/", {"action": "remove"}, format="json"
    ).json() == {"status": "open", "done_now": True}
    assert not Seat.objects.filter(player=bob).exists()
    assert_chips_conserved()


def test_a_site_table_has_no_host_but_staff(client_for, table, players, staff):
    assert client_for(players[0]).post(f"/api/tables/{table.pk}/pause/").status_code == 403
    assert client_for(staff).post(f"/api/tables/{table.pk}/pause/").json()["status"] == "paused"


def test_a_player_takes_back_their_request(client_for, game, players):
    alice = players[0]
    TableGuest.objects.create(table=game, player=alice)
    client = client_for(alice)
    client.post(f"/api/tables/{game.pk}/requests/", {"amount": 100}, format="json")
    assert client.delete(f"/api/tables/{game.pk}/requests/").json() == {"cancelled": 1}
    assert SeatRequest.objects.get().status == "cancelled"
    assert client.delete(f"/api/tables/{game.pk}/requests/").json() == {"cancelled": 0}


def test_bomb_pots_and_run_it_twice_are_game_settings_and_the_host_calls_a_bomb_pot(
    client_for, host, players
):
    client = client_for(host)
    answer = client.post(
        "/api/tables/",
        {"name": "Bombs", "run_it_twice": True, "bomb_pot_ante": 4, "bomb_pot_every": 5},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (body["run_it_twice"], body["bomb_pot_ante"], body["bomb_pot_every"]) == (True, 4, 5)
    game = Table.objects.get(pk=body["id"])
    assert client_for(players[0]).post(f"/api/tables/{game.pk}/bomb-pot/").status_code in (403, 404)
    assert client.post(f"/api/tables/{game.pk}/bomb-pot/").json() == {"bomb_pot_next": True}
    assert Table.objects.get(pk=game.pk).bomb_pot_next


def test_a_bomb_pot_needs_its_ante(client_for, host, game):
    answer = client_for(host).post(f"/api/tables/{game.pk}/bomb-pot/")
    assert answer.status_code == 400 and "bomb_pot_ante" in str(answer.json())
    assert not Table.objects.get(pk=game.pk).bomb_pot_next
    every = client_for(host).patch(f"/api/tables/{game.pk}/", {"bomb_pot_every": 3}, format="json")
    assert every.status_code == 400 and "bomb_pot_every" in str(every.json())
    assert Table.objects.get(pk=game.pk).bomb_pot_every == 0


# --- issue 20: the new games and straddles through the API -----------------------------------
def test_post_starts_a_stud_hi_lo_game_with_its_stakes(client_for, host):
    body = {
        "name": "Stud night",
        "game": "stud-hilo",
        "betting": "fixed-limit",
        "ante": 1,
        "bring_in": 2,
        "small_bet": 5,
        "big_bet": 10,
        "max_seats": 8,
    }
    answer = client_for(host).post("/api/tables/", body, format="json")
    assert answer.status_code == 201, answer.json()
    table = answer.json()
    assert (table["variant"], table["stakes"]) == (
        "Fixed-limit 7 Card Stud Hi/Lo",
        "5/10 ante 1 bring-in 2",
    )
    assert (table["small_blind"], table["big_blind"], table["bring_in"]) == (0, 0, 2)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"game": "stud", "betting": "fixed-limit", "bring_in": 2}, "small_bet"),
        ({"game": "razz", "betting": "no-limit", "bring_in": 1, "small_bet": 2}, "betting"),
        ({"game": "badugi", "betting": "no-limit"}, "betting"),
        ({"straddle": 4, "straddles": 8}, "straddles"),
        ({"straddle": 4, "straddles": 2, "button_straddle": True}, "button_straddle"),
        ({"button_straddle": "yes"}, "button_straddle"),
        ({"bring_in": 1}, "bring_in"),
    ],
)
def test_bad_game_settings_are_400_naming_the_field(client_for, host, body, field):
    answer = client_for(host).post("/api/tables/", {"name": "Bad", **body}, format="json")
    assert answer.status_code == 400
    assert field in answer.json()["errors"], answer.json()
    assert not Table.objects.filter(name="Bad").exists()


def test_patch_sets_two_straddles_from_the_next_hand(client_for, host, game):
    answer = client_for(host).patch(
        f"/api/tables/{game.pk}/", {"straddle": 4, "straddles": 2}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["table"]["stakes"] == "1/2/4/8"


def test_the_time_banks_refill_is_a_game_setting(client_for, host, game):
    client = client_for(host)
    answer = client.patch(
        f"/api/tables/{game.pk}/",
        {"time_bank_refill_seconds": 5, "time_bank_refill_hands": 10},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    body = client.get(f"/api/tables/{game.pk}/").json()
    assert (body["time_bank_refill_seconds"], body["time_bank_refill_hands"]) == (5, 10)
    refused = client.patch(f"/api/tables/{game.pk}/", {"time_bank_refill_hands": 0}, format="json")
    assert refused.status_code == 400 and "time_bank_refill_hands" in str(refused.json())
    assert Table.objects.get(pk=game.pk).time_bank_refill_hands == 10


def test_the_missed_blinds_rule_is_a_game_setting(client_for, host, game):
    client = client_for(host)
    answer = client.patch(f"/api/tables/{game.pk}/", {"missed_blinds": "wait"}, format="json")
    assert answer.status_code == 200, answer.json()
    assert client.get(f"/api/tables/{game.pk}/").json()["missed_blinds"] == "wait"
    refused = client.patch(f"/api/tables/{game.pk}/", {"missed_blinds": "never"}, format="json")
    assert refused.status_code == 400 and "missed_blinds" in str(refused.json())
    assert Table.objects.get(pk=game.pk).missed_blinds == "wait"
