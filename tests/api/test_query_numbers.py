"""Numbers from outside, over HTTP: every query parameter and path id of every API endpoint
and page. Unicode digits ("²", "١"), "+5", "1_0" and the like answer a clear 400 (a path id:
404), never a server error and never a silently different result (issue 15, item 3)."""

from __future__ import annotations

from functools import cache
from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import HealthCheck, assume, given, settings, strategies as st
from rest_framework.test import APIClient

from tables.clubs.services import club_create
from tables.text import LARGEST
from tests.tables.test_text import TRICKY, ascii_number_in_range

PAGES = [  # the browser pages, with the query parameters they read
    ("/", []),
    ("/leaderboard/", ["order", "view"]),
    ("/players/me/stats/", ["table"]),
    ("/players/{id}/stats/", ["table"]),
    ("/hands/{id}/", []),
    ("/tables/{id}/", []),
    ("/tables/{id}/hands/{number}/", []),
]
PAGE_NUMBERS = [("/players/{id}/stats/", "table", 1, LARGEST)]

TEXT = st.one_of(
    st.sampled_from(
        [
            "²",
            "¹²",
            "١",
            "٣",
            "𝟗",
            "1_0",
            "+5",
            "-1",
            "0",
            "1",
            "2",
            "3",
            "5.0",
            "1e3",
            "9" * 30,
            " 7 ",
            "last",
            "\x00",
            "2024-01-01",
            "٢٠٢٤-٠١-٠١",
            "net",
            "won",
            "json",
            "phh",
        ]
    ),
    st.text(alphabet="0123456789²³¹①١٣𝟗", min_size=1, max_size=6),  # all str.isdigit()
    st.text(max_size=30),
    st.text(alphabet=TRICKY, max_size=12),
)


@cache
def api_operations() -> list[tuple[str, list[dict]]]:
    """``(path template, parameters)`` of every GET in the API's published schema: a new
    endpoint or parameter is covered here without editing this file."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (path, operation.get("parameters", []))
        for path, operations in sorted(schema["paths"].items())
        for method, operation in operations.items()
        if method == "get"
    ]


def every_query_parameter() -> list[str]:
    api = {p["name"] for _, ps in api_operations() for p in ps if p["in"] == "query"}
    return sorted(api | {name for _, names in PAGES for name in names})


def number_parameters() -> list[tuple[str, str, str, int, int]]:
    """``(path, where, name, minimum, maximum)`` of every whole number a request carries."""
    found = [
        (
            path,
            p["in"],
            p["name"],
            p["schema"].get("minimum", 1),
            p["schema"].get("maximum", LARGEST),
        )
        for path, parameters in api_operations()
        for p in parameters
        if p["schema"].get("type") == "integer"
    ]
    return found + [(path, "query", name, low, high) for path, name, low, high in PAGE_NUMBERS]


@pytest.fixture
def world(settings, players, staff, hands, running):
    """Hands to look at, unthrottled, so that every example is answered on its merits."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "100000/minute", "user": "100000/minute"},
    }
    table = hands[0].table
    club = club_create(owner=staff, name="Numbers club")  # the staff member's: it sees it
    staff_client, player_client = APIClient(), APIClient()
    staff_client.force_login(staff.user)
    player_client.force_login(players[0].user)
    ids = {  # an id that exists, for each path; the {number} is a hand's number at its table
        "/api/hands/": hands[0].pk,
        "/api/players/": players[1].pk,
        "/api/tables/": table.pk,
        "/api/clubs/": club.pk,
        "/hands/": hands[0].pk,
        "/players/": players[1].pk,
        "/tables/": table.pk,
    }
    return {
        "clients": {"anonymous": Client(), "player": player_client, "staff": staff_client},
        "ids": {str(i) for i in ids.values()} | {str(h.pk) for h in hands} | {"1", "2", "3"},
        "id_of": lambda path: next((str(v) for k, v in ids.items() if path.startswith(k)), ""),
        "number": str(hands[0].number),
    }


def fill(path: str, id_text: str, number_text: str) -> str:
    return path.replace("{id}", quote(id_text, safe="")).replace(
        "{number}", quote(number_text, safe="")
    )


def body_text(response) -> str:
    return response.content.decode(errors="replace")


# --- the cases --------------------------------------------------------------------
@pytest.mark.parametrize(
    "url, parameter",
    [
        ("/api/tables/?page_size=%C2%B2", "page_size"),  # "²": was a 500 (anonymous)
        ("/api/hands/?page_size=%C2%B2", "page_size"),
        ("/api/leaderboard/?page_size=%C2%B2", "page_size"),
        ("/api/tables/?page_size=%D9%A1", "page_size"),  # "١": was read as 1
        ("/api/tables/?page=%D9%A1", "page"),  # was page 1
        ("/api/tables/?page=%C2%B2", "page"),  # was 404 "Invalid page."
        ("/api/leaderboard/?min_hands=%D9%A1", "min_hands"),  # was 1
        ("/api/leaderboard/?min_hands=5.0", "min_hands"),  # was 5
        ("/api/leaderboard/?min_hands=1_0", "min_hands"),  # was 10
        ("/api/hands/?table=%2B1", "table"),  # "+1": was 1
        ("/api/players/me/stats/?table=%D9%A1", "table"),
        ("/api/hands/?since=%D9%A2%D9%A0%D9%A2%D9%A4-01-01", "since"),  # "٢٠٢٤-01-01"
    ],
)
def test_a_malformed_number_is_a_400_naming_the_parameter(world, url, parameter):
    for client in world["clients"].values():
        response = client.get(url)
        if response.status_code in (401, 403):
            continue  # the endpoint is not for anonymous users; the logged-in ones check it
        assert response.status_code == 400, (url, response.status_code, body_text(response))
        message = response.json()["message"]
        assert parameter in message and parameter in response.json()["errors"]


@pytest.mark.parametrize(
    "url",
    [
        f"/api/hands/?table={LARGEST}",
        f"/api/hands/?player={LARGEST}",
        f"/api/players/me/stats/?table={LARGEST}",
        f"/api/leaderboard/?min_hands={LARGEST}",
        "/api/tables/?page_size=200",
    ],
)
def test_the_largest_number_in_range_is_answered_not_refused(world, url):
    """Up to ``LARGEST``, past what a database integer column holds: an empty answer."""
    response = world["clients"]["staff"].get(url)
    assert response.status_code == 200, body_text(response)


def test_a_page_past_the_last_is_still_404(world):
    response = world["clients"]["staff"].get("/api/tables/?page=5")
    assert response.status_code == 404 and "page 5" in response.json()["message"]


def test_the_stats_page_refuses_a_unicode_table_number(world):
    """``/players/<id>/stats/?table=²`` was a 500; "١" was silently all tables."""
    client = world["clients"]["player"]
    url = f"/players/{world['id_of']('/players/')}/stats/"
    for value in ("²", "١", "+1", "0"):
        response = client.get(url, {"table": value})
        assert response.status_code == 400
        assert "table must be" in body_text(response)
    assert client.get(url, {"table": world["id_of"]("/tables/")}).status_code == 200
    assert client.get(url, {"table": ""}).status_code == 200  # "All tables"


@pytest.mark.parametrize("path", ["/api/tables/{id}/", "/api/hands/{id}/", "/api/players/{id}/"])
@pytest.mark.parametrize("text", ["١", "+1", "1_0", "1.0", "0", "-1", "9" * 30])
def test_a_path_id_that_is_not_a_whole_number_from_1_is_404(world, path, text):
    response = world["clients"]["staff"].get(fill(path, text, ""))
    assert response.status_code == 404


# --- properties over every parameter ------------------------------------------------------
PROPERTY_SETTINGS = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


@PROPERTY_SETTINGS
@given(data=st.data())
def test_no_query_or_path_text_is_a_server_error(world, data):
    """Any text in any query parameter (all of them at once, or some) and in the path's ids,
    anonymous or logged in: never a 5xx (the test client re-raises a view's exception)."""
    paths = [path for path, _ in api_operations()] + [path for path, _ in PAGES]
    path = data.draw(st.sampled_from(paths), label="path")
    who = data.draw(st.sampled_from(sorted(world["clients"])), label="who")
    id_text = data.draw(st.one_of(st.sampled_from(sorted(world["ids"])), TEXT), label="id")
    number_text = data.draw(st.one_of(st.just(world["number"]), TEXT), label="number")
    query = data.draw(
        st.fixed_dictionaries({}, optional=dict.fromkeys(every_query_parameter(), TEXT)),
        label="query",
    )
    response = world["clients"][who].get(fill(path, id_text, number_text), query)
    assert response.status_code < 500, (path, query, response.status_code)


@PROPERTY_SETTINGS
@given(data=st.data())
def test_every_number_parameter_is_a_strict_whole_number(world, data):
    """For every integer a request carries: text that is not ASCII digits in the documented
    range answers 400 naming the parameter (a path id: 404); in range, never a 400."""
    path, where, name, minimum, maximum = data.draw(
        st.sampled_from(number_parameters()), label="parameter"
    )
    text = data.draw(TEXT, label="text")
    assume(text.strip(" \t") != "")  # an empty value is "not given" for some parameters
    assume(not (name == "page" and text == "last"))  # DRF's name for the last page
    expected = ascii_number_in_range(text, minimum, maximum)
    client = world["clients"]["staff"]
    if where == "path":
        response = client.get(fill(path, text, world["number"]))
        assert response.status_code < 500
        if expected is None:
            assert response.status_code == 404, (path, text, response.status_code)
        return
    response = client.get(fill(path, world["id_of"](path), world["number"]), {name: text})
    assert response.status_code < 500
    if expected is None:
        assert response.status_code == 400, (path, name, text, body_text(response))
        assert name in body_text(response)
    else:
        assert response.status_code != 400, (path, name, text, body_text(response))


def test_every_integer_query_parameter_states_the_largest_number_it_takes():
    """A schema-valid number is never refused: each integer parameter's published maximum is
    the parser's (a ``page`` with no maximum let a client ask page 3·10^31 and get a 400)."""
    unbounded = [
        (path, p["name"])
        for path, parameters in api_operations()
        for p in parameters
        if p["in"] == "query"  # a path id past the largest is a 404, like any unknown id
        and p["schema"].get("type") == "integer"
        and "maximum" not in p["schema"]
    ]
    assert unbounded == []
