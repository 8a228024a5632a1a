"""The REST API: endpoints, permissions, filters, errors as JSON, throttling, PHH download."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from engine import phh
from tables.models import Hand, PlayerHand
from tests.api.helpers import store_hand
from tests.api.test_stats import limp_and_blind_check


def results(response) -> list:
    assert response.status_code == 200, response.content
    return response.json()["results"]


# --- authentication and permissions -------------------------------------------------------
def test_tables_are_public_and_read_only(api, table, players):
    response = api.get("/api/tables/")
    assert [t["name"] for t in results(response)] == ["Main"]
    assert results(response)[0]["stakes"] == "1/2"
    assert api.get(f"/api/tables/{table.pk}/").json()["id"] == table.pk
    refused = api.post("/api/tables/", {"name": "Mine"}, format="json")
    assert refused.status_code in (401, 403, 405)
    assert "message" in refused.json()


@pytest.mark.parametrize(
    "url",
    [
        "/api/hands/",
        "/api/hands/1/",
        "/api/hands/1/phh/",
        "/api/players/me/",
        "/api/players/me/stats/",
        "/api/players/1/",
        "/api/players/1/stats/",
    ],
)
def test_private_endpoints_need_a_login(api, hands, url):
    response = api.get(url)
    assert response.status_code in (401, 403)
    assert response.json()["message"]


def test_token_authentication(api, make_player):
    make_player("dave")
    bad = api.post("/api/auth/token/", {"username": "dave", "password": "nope"}, format="json")
    assert bad.status_code == 401 and bad.json()["message"] == "Wrong username or password."
    missing = api.post("/api/auth/token/", {"username": "dave"}, format="json")
    assert missing.status_code == 400 and "password" in missing.json()["errors"]
    response = api.post(
        "/api/auth/token/", {"username": "dave", "password": "pw-dave-Secret1"}, format="json"
    )
    token = response.json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/players/me/").json()["name"] == "dave"
    api.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert api.get("/api/players/me/").status_code == 401


def test_only_staff_list_another_players_hands(client_for, players, staff, hands):
    alice, bob, _ = players
    refused = client_for(alice).get(f"/api/hands/?player={bob.pk}")
    assert refused.status_code == 403 and "staff" in refused.json()["message"]
    assert len(results(client_for(staff).get(f"/api/hands/?player={bob.pk}"))) == 3


# --- errors -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "url, status",
    [
        ("/api/hands/999999/", 404),
        ("/api/hands/-4/", 404),
        ("/api/hands/99999999999999999999999/", 404),
        ("/api/tables/abc/", 404),
        ("/api/hands/?result=maybe", 400),
        ("/api/hands/?since=2026-13-01", 400),
        ("/api/hands/?until=", 400),
        ("/api/hands/?page_size=0", 400),
        ("/api/players/me/stats/?table=0", 400),
        ("/api/hands/?page=99", 404),
    ],
)
def test_errors_are_json_with_a_message(client_for, players, hands, url, status):
    response = client_for(players[0]).get(url)
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    assert isinstance(response.json()["message"], str) and response.json()["message"]


def test_throttling_answers_429_with_a_message(api, table, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/minute", "user": "3/minute"},
    }
    codes = [api.get("/api/tables/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    refused = api.get("/api/tables/")
    assert "throttled" in refused.json()["message"].lower()
    assert int(refused["Retry-After"]) > 0


def test_ratelimit_enabled_0_turns_the_api_throttles_off_too(
    api, client_for, players, table, settings
):
    """Issue 32 item 10: ``RATELIMIT_ENABLED=0`` left the API answering 429 while the docs say
    it turns every limit off: one switch."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "2/minute", "user": "2/minute", "play": "2/minute"},
    }
    settings.RATELIMIT_ENABLED = False
    logged_in = client_for(players[0])
    urls = ["/api/tables/", f"/api/tables/{table.pk}/state/"]
    codes = {(url, c.get(url).status_code) for url in urls for c in (api, logged_in) * 3}
    assert {code for _, code in codes} == {200}, codes
    settings.RATELIMIT_ENABLED = True  # the same rates bite once the switch is on
    assert 429 in [api.get("/api/tables/").status_code for _ in range(3)]


# --- hands --------------------------------------------------------------------------------
def test_hand_history_json(client_for, players, hands):
    alice, bob, carol = players
    body = client_for(bob).get(f"/api/hands/{hands[0].pk}/").json()
    assert body["number"] == 1 and body["viewer_seat"] == 1
    assert [s["net"] for s in body["seats"]] == [8, -2, -6]
    assert [s["cards"] for s in body["seats"]] == [["As", "Ah"], ["7c", "2d"], ["Ks", "Kh"]]
    assert body["board"] == ["9c", "5d", "3h", "8s", "Jd"]
    assert [(a["street"], a["name"], a["kind"]) for a in body["actions"][:3]] == [
        ("preflop", "alice", "call"),
        ("preflop", "bob", "call"),
        ("preflop", "carol", "check"),
    ]
    assert body["actions"][5] == {
        "street": "flop",
        "seat": 0,
        "name": "alice",
        "kind": "bet",
        "amount": 4,
    }
    # carol sees bob's folded cards as nothing at all
    seen_by_carol = client_for(carol).get(f"/api/hands/{hands[0].pk}/").json()
    assert seen_by_carol["seats"][1]["cards"] == []


def test_running_hand_is_never_served(client_for, players, staff, running):
    for viewer in (players[0], players[1], staff):
        client = client_for(viewer)
        for url in (f"/api/hands/{running.pk}/", f"/api/hands/{running.pk}/phh/"):
            response = client.get(url)
            assert response.status_code == 409
            assert "still being played" in response.json()["message"]
        assert running.pk not in [h["id"] for h in results(client.get("/api/hands/"))]


def test_voided_hand_is_not_found(client_for, players, running):
    Hand.objects.filter(pk=running.pk).update(status=Hand.Status.VOIDED)
    assert client_for(players[0]).get(f"/api/hands/{running.pk}/").status_code == 404


def test_phh_download_replays_to_the_same_result(client_for, players, hands):
    for hand in hands:
        response = client_for(players[1]).get(f"/api/hands/{hand.pk}/phh/")
        assert response.status_code == 200
        assert response["Content-Disposition"] == (
            f'attachment; filename="hand-{hand.table_id}-{hand.number}.phh"'
        )
        history = phh.loads(response.content.decode())
        replayed = history.replay()
        assert list(replayed.result.net) == [s["net"] for s in _seats_in_phh_order(hand)]
        assert history.finishing_stacks == list(replayed.stacks)
        assert history.extra["hand"] == hand.number and history.extra["table"] == "Main"


def _seats_in_phh_order(hand):
    n = len(hand.seats)
    order = [(hand.button + 1 + k) % n for k in range(n)]
    return [{"net": hand.result["net"][s]} for s in order]


def test_phh_shows_own_and_shown_cards_only(client_for, players, hands):
    text = client_for(players[1]).get(f"/api/hands/{hands[1].pk}/phh/").content.decode()
    # hand 2 ended without a showdown: bob (PHH p1, left of the button) sees only his own
    assert '"d dh p1 7c2d"' in text
    assert '"d dh p2 ????"' in text and '"d dh p3 ????"' in text
    text = client_for(players[0]).get(f"/api/hands/{hands[0].pk}/phh/").content.decode()
    assert '"d dh p1 ????"' in text  # bob folded: alice never saw his cards
    assert '"d dh p2 KsKh"' in text and '"d dh p3 AsAh"' in text  # shown at showdown


def test_hand_list_filters(client_for, players, make_table, hands):
    alice = players[0]
    other = make_table(name="Other")
    old = timezone.now() - timedelta(days=10)
    store_hand(other, players, limp_and_blind_check(), number=1, started_at=old)
    client = client_for(alice)
    assert [h["number"] for h in results(client.get("/api/hands/"))] == [3, 2, 1, 1]
    assert len(results(client.get(f"/api/hands/?table={other.pk}"))) == 1
    assert [h["result"] for h in results(client.get("/api/hands/?result=won"))] == ["won", "won"]
    assert [h["net"] for h in results(client.get("/api/hands/?result=lost"))] == [-20]
    assert [h["net"] for h in results(client.get("/api/hands/?result=even"))] == [0]
    day = old.date().isoformat()
    assert len(results(client.get(f"/api/hands/?since={day}&until={day}"))) == 1
    later = (old + timedelta(days=1)).date().isoformat()
    assert len(results(client.get(f"/api/hands/?since={later}"))) == 3


# --- players, statistics, leaderboard -----------------------------------------------------
def test_profile_shows_bankroll_only_to_its_owner(client_for, players, hands):
    alice, bob, _ = players
    mine = client_for(alice).get("/api/players/me/").json()
    assert mine["name"] == "alice" and mine["bankroll"] == alice.bankroll
    assert mine["hands_played"] == 3
    theirs = client_for(alice).get(f"/api/players/{bob.pk}/").json()
    assert theirs["name"] == "bob" and theirs["bankroll"] is None


def test_stats_endpoint_figures(client_for, players, make_table, hands):
    alice, _, carol = players
    stats = client_for(alice).get(f"/api/players/{carol.pk}/stats/").json()
    assert stats["hands"] == 3
    assert stats["three_bet"] == 100.0 and stats["aggression_factor"] == 1.0
    assert stats["wsd"] == 50.0 and stats["net_won"] == 21 and stats["biggest_pot_won"] == 46
    mine = client_for(alice).get("/api/players/me/stats/").json()
    assert (mine["vpip"], mine["pfr"], mine["net_won"]) == (100.0, 66.67, -12)
    assert mine["bb_per_100"] == -200.0
    other = make_table(name="Other")
    store_hand(other, players, limp_and_blind_check(), number=1)
    only_other = client_for(alice).get(f"/api/players/me/stats/?table={other.pk}").json()
    assert (only_other["hands"], only_other["net_won"], only_other["table"]) == (1, 8, other.pk)
    today = timezone.now().date().isoformat()
    assert client_for(alice).get(f"/api/players/me/stats/?until={today}").json()["hands"] == 4
    assert client_for(alice).get("/api/players/me/stats/?until=2000-01-01").json()["hands"] == 0


def test_sql_totals_match_the_pure_definitions(players, hands):
    from tables.selectors.hands import hand_state
    from tables.stats.figures import Totals, seat_figures
    from tables.stats.selectors import player_stats

    for seat, player in enumerate(players):
        pure = Totals.of(seat_figures(hand_state(h))[seat] for h in hands).stats()
        assert player_stats(player) == pure


def test_leaderboard(api, players, hands):
    rows = results(api.get("/api/leaderboard/?order=net&min_hands=3"))
    assert [(r["rank"], r["name"], r["net"]) for r in rows] == [
        (1, "carol", 21),
        (2, "bob", -9),
        (3, "alice", -12),
    ]
    by_bb = results(api.get("/api/leaderboard/?order=bb100&min_hands=1"))
    assert by_bb[0]["name"] == "carol" and by_bb[0]["bb_per_100"] == pytest.approx(350.0)
    assert results(api.get("/api/leaderboard/?min_hands=4")) == []
    assert api.get("/api/leaderboard/?order=luck").status_code == 400


# --- query counts do not grow with the number of hands ------------------------------------
@pytest.mark.parametrize("count", [5, 50])
def test_query_counts_do_not_grow(client_for, players, table, django_assert_max_num_queries, count):
    start = timezone.now() - timedelta(hours=1)
    for i in range(count):
        store_hand(
            table,
            players,
            limp_and_blind_check(),
            number=i + 1,
            started_at=start + timedelta(seconds=i),
        )
    assert PlayerHand.objects.filter(player=players[0]).count() == count
    client = client_for(players[0])
    with django_assert_max_num_queries(9):  # 6, 2 for the tournament record, 1 all-in EV
        assert client.get("/api/players/me/stats/").json()["hands"] == count
    with django_assert_max_num_queries(6):
        assert len(results(client.get("/api/hands/?page_size=200"))) == count
    with django_assert_max_num_queries(6):
        client.get("/api/leaderboard/?min_hands=1")


# --- docs ---------------------------------------------------------------------------------
def test_schema_and_docs_work_offline(api):
    schema = api.get("/api/schema/?format=json")
    assert schema.status_code == 200
    assert "/api/hands/{id}/phh/" in schema.json()["paths"]
    docs = api.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "swagger-ui" in html and "cdn." not in html and "//unpkg" not in html
