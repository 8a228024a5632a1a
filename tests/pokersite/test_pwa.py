"""The installable site (issue 50): the service worker at the root with its scope, and the
offline page it shows when a page cannot load."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_the_root_for_the_whole_site(db):
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"], "the browser checks it for updates"
    script = response.content.decode()
    assert (
        '"/offline/"' in script and "showNotification" not in script.split("notificationclick")[0]
    )
    assert "notificationclick" in script
    assert Client().post("/sw.js").status_code == 405


def test_the_offline_page_says_the_table_will_come_back(players):
    for client in (Client(), logged_in(players[0])):
        response = client.get("/offline/")
        assert response.status_code == 200
        assert response["Content-Type"] == "text/html; charset=utf-8"
        page = response.content.decode()
        assert "the table will come back" in page
        assert "alice" not in page, "the page the worker keeps is nobody's"


def test_every_page_registers_the_worker_and_links_the_manifest(db):
    page = Client().get("/").content.decode()
    assert 'src="/static/js/pwa.js"' in page and 'rel="manifest"' in page


def logged_in(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client
