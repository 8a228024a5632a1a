"""``GET /api/ops/runtimes/``: the process's table runtimes for its operators (and the load
benchmark), staff only, documented in the OpenAPI schema like every API view."""

from __future__ import annotations

from collections import deque

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tables.db.threads import WorkCpu
from tables.live import operators
from tables.live.runtime import TableRuntime
from tables.services.leases import PROCESS

pytestmark = pytest.mark.django_db

URL = "/api/ops/runtimes/"


def test_staff_gets_this_process_figures_with_a_token(monkeypatch, staff):
    # two requests this process forwarded to the owner of their table, and their answer times
    monkeypatch.setattr(TableRuntime, "forwarded_seconds", deque([0.004, 0.0125]))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=staff.user).key}")
    response = client.get(URL)
    assert response.status_code == 200
    body = response.json()
    assert body["process"] == PROCESS
    assert body["forwarded_seconds"] == [0.004, 0.0125]
    assert set(body) == {
        "process",
        "owned",
        "followed",
        "commands",
        "forwards",
        "reads",
        "built",
        "forwarded_seconds",
        "threads",
        "work",
    }
    assert body["threads"]["MainThread"] > 0  # this thread's CPU time so far


def test_the_figures_show_the_database_threads_work_by_name(monkeypatch, staff):
    cpu = WorkCpu()
    cpu.timed(lambda: None, "command act")()
    monkeypatch.setattr(operators, "work_cpu", cpu)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=staff.user).key}")
    work = client.get(URL).json()["work"]
    assert set(work) == {"command act"}
    assert work["command act"]["calls"] == 1
    assert work["command act"]["seconds"] >= 0


def test_a_player_who_is_not_staff_is_refused(players, client_for):
    response = client_for(players[0]).get(URL)
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"


def test_without_a_log_in_it_asks_for_one():
    response = APIClient().get(URL)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_the_schema_documents_it_with_its_fields():
    document = SchemaGenerator().get_schema(request=None, public=True)
    operation = document["paths"][URL]["get"]
    assert operation["summary"] == "This server process's table runtimes (staff)"
    assert {"401", "403"} <= set(operation["responses"])
    ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    fields = document["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]
    assert fields["forwarded_seconds"]["items"]["type"] == "number"
