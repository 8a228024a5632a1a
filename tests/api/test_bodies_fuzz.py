"""Pathological request bodies to every endpoint of the API that takes one (issue 32 item 6):
deep nesting, numbers beyond a float or 64 bits, bad UTF-8, JSON's non-numbers, malformed
forms and content types the API does not read. Each gets a JSON 4xx with a ``code``, never a
500 page or a traceback, and changes nothing, whether or not the view reads its body
(``tables/api/bodies.py``). The endpoints come from the URL conf itself, so a new one is
fuzzed without being listed here."""

from __future__ import annotations

import logging

import pytest
from django.urls import URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings, strategies as st
from rest_framework.test import APIClient

from tables.api.bodies import MAX_DEPTH
from tables.models import Table
from tables.services.hosting import table_create
from tables.tournaments.models import Tournament
from tables.tournaments.services.organise import tournament_organise

pytestmark = pytest.mark.django_db

BODY_METHODS = ("post", "put", "patch", "delete")
#: The answers a body the API cannot read may get (and their codes).
REFUSALS = {400: "parse_error", 413: "request_too_large", 415: "unsupported_media_type"}


def api_routes() -> list[tuple[str, tuple[str, ...]]]:
    """Every ``api/`` route of the URL conf with the body-taking methods its view has."""

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern), getattr(pattern.callback, "cls", None)

    routes = []
    for route, view in walk(get_resolver().url_patterns):
        methods = tuple(m for m in BODY_METHODS if view is not None and hasattr(view, m))
        if route.startswith("api/") and methods:
            routes.append((route, methods))
    return routes


ROUTES = api_routes()


def test_the_routes_are_the_apis_writing_endpoints():
    found = {route for route, _ in ROUTES}
    assert len(found) >= 20
    for route in ("api/auth/token/", "api/tables/", "api/tournaments/"):
        assert route in found
    assert "api/tables/<str:pk>/actions/" in found and "api/tables/<str:pk>/pause/" in found


def nested(depth: int, opener: str) -> bytes:
    return (opener * depth).encode()


HUGE_NUMBERS = ["1e400", "-1e400", "1" + "0" * 400, "-" + "9" * 30, str(2**63), "1" * 5000]
JSON_BODIES = st.one_of(
    st.builds(nested, st.integers(MAX_DEPTH + 1, 3000), st.sampled_from(["[", '{"a":', '[{"a":'])),
    st.builds(lambda d: b"[" * d + b"]" * d, st.integers(MAX_DEPTH + 1, 1200)),
    st.builds(
        lambda n, key: f'{{"{key}": {n}, "action": "check"}}'.encode(),
        st.sampled_from(HUGE_NUMBERS),
        st.sampled_from(["stack", "amount", "buy_in", "version", "hand", "seat", "entry_fee"]),
    ),
    st.sampled_from(HUGE_NUMBERS).map(str.encode),
    st.sampled_from([b"NaN", b'{"stack": Infinity}', b"[-Infinity]", b'{"a": NaN}']),
    st.builds(
        lambda junk: b'{"name": "' + junk + b'"}',
        st.binary(min_size=1, max_size=20).filter(lambda b: not _is_utf8(b)),
    ),
    st.sampled_from([b"\xff\xfe{\x00}\x00", b"\xef\xbb\xbf{}", b"{", b" ", b"[1,]", b"{'a': 1}"]),
)
OTHER_TYPES = st.sampled_from(
    ["text/plain", "application/xml", "application/octet-stream", "image/png", "text/html"]
)
MALFORMED_FORMS = st.sampled_from(
    [
        ("multipart/form-data", b"--x--"),
        ("multipart/form-data; boundary=", b"--\r\n"),
        ("multipart/form-data; charset=utf-8", b"--x\r\nContent-Disposition: form-data\r\n"),
    ]
)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


BODIES = st.one_of(
    st.tuples(st.just("application/json"), JSON_BODIES),
    st.tuples(OTHER_TYPES, st.binary(min_size=1, max_size=50)),
    MALFORMED_FORMS,
)


@pytest.fixture
def world(make_player):
    """A host with a game and a tournament of their own: the ids the routes are filled with
    (a view that acted on a bad body would change them)."""
    host = make_player("hostess")
    table = table_create(host=host, name="Fuzzed")
    tournament = tournament_organise(organiser=host, name="Fuzz cup")
    return host, table, tournament


def fill(route: str, table: Table, tournament: Tournament, player_id: int) -> str:
    pk = tournament.pk if route.startswith("api/tournaments/") else table.pk
    path = route.replace("<str:pk>", str(pk)).replace("<str:player_id>", str(player_id))
    return "/" + path.replace("<str:request_id>", "1")


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    endpoint=st.sampled_from(ROUTES),
    pick=st.integers(0, 3),
    body=BODIES,
    logged_in=st.booleans(),
)
def test_every_api_endpoint_answers_a_bad_body_with_a_json_4xx_and_changes_nothing(
    world, endpoint, pick, body, logged_in
):
    host, table, tournament = world
    route, methods = endpoint
    method = methods[pick % len(methods)]
    content_type, data = body
    client = APIClient(raise_request_exception=True)
    if logged_in:
        client.force_login(host.user)
    before = Table.objects.values_list("version", "status", "name").get(pk=table.pk)
    response = client.generic(
        method.upper(), fill(route, table, tournament, host.pk), data, content_type=content_type
    )
    assert response.status_code in REFUSALS, (route, method, body, response.content[:200])
    assert response["Content-Type"].startswith("application/json")
    answer = response.json()
    assert answer["code"] == REFUSALS[response.status_code], answer
    assert answer["message"]
    assert Table.objects.values_list("version", "status", "name").get(pk=table.pk) == before
    assert Tournament.objects.get(pk=tournament.pk).status == tournament.status


@pytest.mark.parametrize(
    "route",
    [
        "/api/auth/token/",
        "/api/tables/",
        "/api/tournaments/",
        "/api/tables/{table}/actions/",
        "/api/tables/{table}/seat/",
        "/api/tables/{table}/top-up/",
    ],
)
def test_a_thousand_nested_brackets_are_a_400_not_a_500_and_log_no_traceback(world, caplog, route):
    """The attack run's case: 1,000 ``[`` in 2 KB answered "Server Error (500)" and logged a
    RecursionError traceback, logged out."""
    _, table, _ = world
    with caplog.at_level(logging.ERROR):
        response = APIClient().post(
            route.format(table=table.pk), b"[" * 1000, content_type="application/json"
        )
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    assert "nested" in response.json()["message"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_body_within_the_limits_still_reaches_the_view(world, client_for):
    host, table, _ = world
    deep_enough = {"name": "Renamed", "levels": [[[[1]]]]}  # nesting the API never needs
    response = client_for(host).patch(f"/api/tables/{table.pk}/", deep_enough, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"  # the view's
    response = client_for(host).patch(
        f"/api/tables/{table.pk}/", {"name": "Renamed", "small_blind": 1}, format="json"
    )
    assert response.status_code == 200, response.json()


@pytest.mark.parametrize("method", ["post", "patch"])
@pytest.mark.parametrize(
    "route", ["/api/tables/{table}/actions/", "/api/tables/{table}/seat/", "/api/tables/"]
)
def test_a_form_of_over_a_thousand_fields_is_a_json_parse_error(world, method, route):
    """Issue 54 finding 7: 1,001 urlencoded fields to the play API answered Django's HTML 400
    (too many fields) instead of the API's JSON ``parse_error``."""
    host, table, _ = world
    client = APIClient(raise_request_exception=False)
    client.force_login(host.user)
    body = "&".join(f"f{n}=1" for n in range(1001))
    before = Table.objects.values_list("version", "status", "name").get(pk=table.pk)
    response = getattr(client, method)(
        route.format(table=table.pk), body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400, response.content[:200]
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "parse_error"
    assert Table.objects.values_list("version", "status", "name").get(pk=table.pk) == before
