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
    # An uploaded PokerNow log must be a PokerNow log (and name a player seated in it): a
    # 400 saying why is right for any other file the schema's "binary" allows.
    excluded = []
    if case.method in ("POST", "PATCH") and case.path in (
        "/api/tables/",
        "/api/tables/{id}/",
        "/api/tournaments/",
        "/api/auth/token/",
        "/api/imports/pokernow/",
    ):
        excluded = [schemathesis.checks.positive_data_acceptance]
    case.call_and_validate(headers={"Authorization": f"Token {token}"}, excluded_checks=excluded)
