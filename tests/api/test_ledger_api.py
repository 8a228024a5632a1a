"""The ledger, its CSV and the settle-up over the API and on the ledger page; a private game's
are 404 to outsiders; the seeds of its hands stay secret until it is closed."""

from __future__ import annotations

import csv
import io

import pytest
from rest_framework.test import APIClient

from tables.models import HandSecret, TableGuest
from tables.services import hand_start, seat_take, table_close
from tests.tables import helpers as play_helpers

pytestmark = pytest.mark.django_db

LEDGER_URLS = ["/api/tables/{}/ledger/", "/api/tables/{}/ledger.csv", "/api/tables/{}/settlement/"]


@pytest.fixture(autouse=True)
def no_reseat_wait(settings):
    settings.POKER_RESEAT_WAIT_SECONDS = 0


def fold_to_a_bet(hand) -> str:
    return "check" if play_helpers.hand_state(hand).legal.check else "fold"


def played_night(table, people, play, hands: int = 2):
    """``people`` sit down and play ``hands`` hands in which everyone folds to the big blind:
    the small blind of each hand loses one chip to its big blind (the button moves, so two
    hands at three seats leave someone down and someone up)."""
    for person, buy_in in zip(people, (100, 60, 150), strict=False):
        seat_take(table=table, player=person, buy_in=buy_in)
    for _ in range(hands):
        hand_start(table=table)
        play.play_out(table, fold_to_a_bet)


@pytest.fixture
def game(make_table, players, play):
    """A private game hosted by alice; alice, bob and carol played two hands."""
    alice = players[0]
    table = make_table(name="Friday", host=alice, private=True)
    played_night(table, players, play)
    return table


def login(player) -> APIClient:
    client = APIClient()
    client.force_login(player.user)
    return client


def test_the_ledger_has_a_row_per_player_with_integer_nets_summing_to_zero(game, players):
    body = login(players[0]).get(f"/api/tables/{game.pk}/ledger/").json()
    rows = body["rows"]
    assert [row["player"] for row in rows] == ["alice", "bob", "carol"]
    assert all(isinstance(row["net"], int) for row in rows)
    assert sum(row["net"] for row in rows) == 0 == body["total_net"]
    assert [row["net"] for row in rows] != [0, 0, 0]
    assert {row["player"]: row["buy_in"] for row in rows} == {"alice": 100, "bob": 60, "carol": 150}
    assert body["deals"] is None  # an open game keeps its seeds


def test_the_csv_has_the_same_rows(game, players):
    client = login(players[1])
    response = client.get(f"/api/tables/{game.pk}/ledger.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert f'filename="ledger-{game.pk}.csv"' in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    json_rows = client.get(f"/api/tables/{game.pk}/ledger/").json()["rows"]
    assert [(r["player"], int(r["net"])) for r in rows] == [
        (r["player"], r["net"]) for r in json_rows
    ]
    assert list(rows[0]) == [
        "player_id",
        "player",
        "buy_in",
        "rebuys",
        "rebuy_count",
        "top_ups",
        "cash_outs",
        "corrections",
        "at_table",
        "seated",
        "net",
    ]


def test_a_name_a_spreadsheet_would_run_is_quoted_in_the_csv(make_table, make_player, play):
    table = make_table(name="Public")
    people = [make_player("+evil"), make_player("bob")]
    played_night(table, people, play, hands=1)
    text = APIClient().get(f"/api/tables/{table.pk}/ledger.csv").content.decode()
    assert ",'+evil," in text and ",+evil," not in text


def test_the_settlement_squares_every_net(game, players):
    client = login(players[2])
    nets = {
        r["player"]: r["net"] for r in client.get(f"/api/tables/{game.pk}/ledger/").json()["rows"]
    }
    transfers = client.get(f"/api/tables/{game.pk}/settlement/").json()["transfers"]
    assert transfers and all(set(t) == {"from", "to", "amount"} for t in transfers), nets
    balance = dict.fromkeys(nets, 0)
    for transfer in transfers:
        balance[transfer["from"]] -= transfer["amount"]
        balance[transfer["to"]] += transfer["amount"]
    assert balance == nets
    assert len(transfers) <= len(nets) - 1
    assert not {t["from"] for t in transfers} & {t["to"] for t in transfers}


@pytest.mark.parametrize("url", [*LEDGER_URLS, "/tables/{}/ledger/"])
def test_a_private_game_is_404_to_an_outsider_as_a_missing_table_is(
    game, make_player, players, url
):
    outsider = login(make_player("dave"))
    hidden = outsider.get(url.format(game.pk))
    missing = outsider.get(url.format(game.pk + 1000))
    assert hidden.status_code == missing.status_code == 404
    assert hidden.content == missing.content
    assert APIClient().get(url.format(game.pk)).status_code == 404  # logged out
    for insider in players:  # the host and the players seated
        assert login(insider).get(url.format(game.pk)).status_code == 200


def test_a_guest_who_opened_the_invite_sees_the_ledger(game, make_player):
    guest = make_player("erin")
    TableGuest.objects.create(table=game, player=guest)
    for url in LEDGER_URLS:
        assert login(guest).get(url.format(game.pk)).status_code == 200


def test_no_seed_of_an_open_game_anywhere_then_every_seed_once_it_is_closed(game, players):
    seeds = list(HandSecret.objects.filter(hand__table=game).values_list("seed", flat=True))
    assert len(seeds) == 2
    client = login(players[0])
    urls = [u.format(game.pk) for u in LEDGER_URLS] + [
        f"/tables/{game.pk}/ledger/",
        f"/tables/{game.pk}/",
        f"/api/tables/{game.pk}/",
    ]

    def everything() -> str:
        return "".join(client.get(url).content.decode() for url in urls)

    text = everything()
    assert not any(seed in text for seed in seeds)
    hand_start(table=game)  # a hand running when the game closes is voided, then revealed
    assert not any(seed in everything() for seed in seeds)
    table_close(table=game)
    deals = client.get(f"/api/tables/{game.pk}/ledger/").json()["deals"]
    assert [d["number"] for d in deals] == [1, 2, 3]
    assert {d["seed"] for d in deals} == set(
        HandSecret.objects.filter(hand__table=game).values_list("seed", flat=True)
    )
    assert all(d["checks"] for d in deals)
    assert (
        deals[0]["command"]
        == f"python -m engine verify {deals[0]['seed']} {deals[0]['commitment']}"
    )
    page = client.get(f"/tables/{game.pk}/ledger/").content.decode()
    assert all(seed in page for seed in seeds) and page.count('class="check-ok"') == 3


def test_a_closed_public_game_keeps_its_seeds(make_table, players, play):
    table = make_table(name="Open to all")
    played_night(table, players[:2], play, hands=1)
    table_close(table=table)
    seed = HandSecret.objects.get(hand__table=table).seed
    body = APIClient().get(f"/api/tables/{table.pk}/ledger/")
    assert body.json()["deals"] is None and seed not in body.content.decode()


def test_the_ledger_page_shows_the_rows_the_total_and_the_settle_up(game, players):
    page = login(players[0]).get(f"/tables/{game.pk}/ledger/").content.decode()
    assert 'id="ledger-total">0<' in page
    assert page.count('<tr data-player="') == 3
    assert " pays " in page
    table_page = login(players[0]).get(f"/tables/{game.pk}/").content.decode()
    assert f'href="/tables/{game.pk}/ledger/"' in table_page


def test_the_endpoints_are_in_the_schema(api):
    paths = api.get("/api/schema/?format=json").json()["paths"]
    for path in ("ledger/", "ledger.csv", "settlement/"):
        assert f"/api/tables/{{id}}/{path}" in paths or f"/api/tables/{{pk}}/{path}" in paths


def test_nets_written_around_the_services_are_refused_as_unbalanced_not_settled(
    hands, running, players
):
    # The API tests' hands are stored as they are, with no buy-in behind their stacks: a
    # table whose chips moved outside its ledger. Nothing to settle, and no server error.
    table = hands[0].table
    client = login(players[0])
    assert client.get(f"/api/tables/{table.pk}/ledger/").json()["total_net"] != 0
    response = client.get(f"/api/tables/{table.pk}/settlement/")
    assert response.status_code == 409 and response.json()["code"] == "ledger_unbalanced"
    page = client.get(f"/tables/{table.pk}/ledger/")
    assert page.status_code == 200 and "do not add up to zero" in page.content.decode()
