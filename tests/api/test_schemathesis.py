"""schemathesis against /api/schema/, in process (WSGI, no server): no server error and no
response that breaks the schema, for every operation, logged in with a token."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings

# The schema itself needs no database (it is public); the calls run inside each test's
# transaction, on the same connection, so they see the fixtures' hands.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


@pytest.fixture
def keep_connection():
    """Like Django's test client: a request must not close the test's database connection
    (the WSGI handler does on request start and finish; on PostgreSQL that ends the test)."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def token(keep_connection, settings, players, staff, hands, running):
    from rest_framework.authtoken.models import Token

    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "100000/minute", "user": "100000/minute"},
    }
    return Token.objects.create(user=players[0].user).key


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_api_conforms_to_its_schema(case, token):
    # A game's settings must also hold together (a small blind above the big blind, more
    # bots than seats allow: ``Table.clean``), which OpenAPI cannot express: a 400 naming the
    # field is right there for data the schema alone would accept.
    # So must a tournament's (hands only for fixed hands, a preset or levels, percentages
    # adding up to 100).
    # Likewise the token exchange refuses a password with a NUL character (Django's
    # CharField), which the schema's "string" allows.
    # A club's name, as a table's, must be one people can read (no invisible control
    # character: ``tables.names``), which the schema's "string" allows.
    # An uploaded PokerNow log must be a PokerNow log (and name a player seated in it): a
    # 400 saying why is right for any other file the schema's "binary" allows.
    excluded = []
    if case.method in ("POST", "PATCH") and case.path in (
        "/api/tables/",
        "/api/tables/{id}/",
        "/api/tournaments/",
        "/api/clubs/",
        "/api/auth/token/",
        "/api/imports/pokernow/",
    ):
        excluded = [schemathesis.checks.positive_data_acceptance]
    # A note is on another player: one on yourself (your own id, which the schema's integer
    # allows) is refused with a 400 saying so.
    if case.method in ("PUT", "POST") and case.path in ("/api/notes/{id}/", "/api/notes/import/"):
        excluded = [schemathesis.checks.positive_data_acceptance]
    headers = {"Authorization": f"Token {token}"}
    response = case.call(headers=headers)
    refusal = response.json() if response.status_code == 400 else {}
    if refusal.get("code") == "parse_error" and (
        "too large" in refusal["message"] or "nested" in refusal["message"]
    ):
        # Every JSON body is read with bounded numbers (``tables.api.bodies``: none past a
        # 64-bit integer, anywhere in it) and depth, which JSON Schema's "integer" and
        # "object" do not bound: a body beyond them is refused, saying why, whatever else
        # the schema allows in it.
        excluded = [schemathesis.checks.positive_data_acceptance]
    case.validate_response(
        response,
        headers=headers,
        excluded_checks=excluded,
        transport_kwargs={"headers": dict(headers)},
    )
