"""PokerStars text from the API: GET /api/hands/<id>/pokerstars/ (one hand) and
GET /api/hands/pokerstars/ (your hands, filtered as /api/hands/ is), holding exactly the cards
the viewer may see and read back by pokerkit's PokerStars parser to the stored result."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables.models import Hand
from tests.api.test_hidden_cards import allowed_cards

pokerkit_notation = pytest.importorskip("pokerkit.notation")
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.filterwarnings("ignore:The field 'time_zone_abbreviation'"),
]
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def pokerkit_stacks(text: str) -> list[dict[str, int]]:
    """Each hand's finishing stacks by name, as pokerkit's own parser replays the text."""
    histories = list(pokerkit_notation.PokerStarsParser()(text, error_status=True))
    return [
        dict(zip(h.players, (int(s) for s in list(h)[-1].stacks), strict=True)) for h in histories
    ]


def stored_stacks(hand: Hand) -> dict[str, int]:
    return {
        seat["name"]: seat["stack"] + net
        for seat, net in zip(hand.seats, hand.result["net"], strict=True)
    }


def test_one_hand_reads_back_to_the_stored_stacks(client_for, players, hands):
    for hand in hands:
        for viewer in players:
            response = client_for(viewer).get(f"/api/hands/{hand.pk}/pokerstars/")
            assert response.status_code == 200
            assert response["Content-Type"] == "text/plain; charset=utf-8"
            assert response["Content-Disposition"] == (
                f'attachment; filename="hand-{hand.table_id}-{hand.number}.txt"'
            )
            text = response.content.decode()
            assert text.startswith(f"PokerStars Hand #{hand.pk}:  Hold'em No Limit")
            assert pokerkit_stacks(text) == [stored_stacks(hand)]


def test_one_hand_holds_exactly_the_cards_the_viewer_may_see(client_for, players, staff, hands):
    for hand in hands:
        for viewer in (*players, staff):
            text = client_for(viewer).get(f"/api/hands/{hand.pk}/pokerstars/").content.decode()
            assert set(CARD.findall(text)) == allowed_cards(hand, viewer), (viewer.name, hand)
            dealt = {line.split(" [")[0] for line in text.splitlines() if "Dealt to" in line}
            own = [] if viewer == staff else [f"Dealt to {viewer.name}"]
            assert dealt == set(own), (viewer.name, hand.number)


def test_a_running_hand_or_no_hand_is_refused_as_json(api, client_for, players, running):
    alice = client_for(players[0])
    response = alice.get(f"/api/hands/{running.pk}/pokerstars/")
    assert response.status_code == 409 and "still being played" in response.json()["message"]
    assert api.get(f"/api/hands/{running.pk}/pokerstars/").status_code == 401
    for missing in (running.pk + 1000, "abc"):
        response = alice.get(f"/api/hands/{missing}/pokerstars/")
        assert response.status_code == 404 and response["Content-Type"] == "application/json"


def test_your_hands_at_a_table_as_one_file(client_for, players, hands, table):
    response = client_for(players[1]).get(f"/api/hands/pokerstars/?table={table.pk}")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="hands-pokerstars.txt"'
    assert (response["X-Hands"], response["X-Hands-Left-Out"]) == ("3", "0")
    text = response.content.decode()
    numbers = [int(n) for n in re.findall(r"^PokerStars Hand #(\d+):", text, re.M)]
    assert numbers == [hand.pk for hand in hands]  # oldest first
    assert text.count("\n\n\nPokerStars Hand #") == 2
    assert pokerkit_stacks(text) == [stored_stacks(hand) for hand in hands]
    assert set(CARD.findall(text)) == set().union(*(allowed_cards(h, players[1]) for h in hands))


def test_a_date_range_picks_the_hands(client_for, players, hands):
    day = hands[0].started_at.date()
    alice = client_for(players[0])
    response = alice.get(f"/api/hands/pokerstars/?since={day}&until={day}")
    assert response["X-Hands"] == "3"
    response = alice.get("/api/hands/pokerstars/?since=2999-01-01")
    assert (response.status_code, response["X-Hands"], response.content) == (200, "0", b"")
    response = alice.get("/api/hands/pokerstars/?since=yesterday")
    assert response.status_code == 400 and response["Content-Type"] == "application/json"


def test_only_staff_download_another_players_hands(api, client_for, players, staff, hands):
    bob = players[1]
    assert client_for(players[0]).get(f"/api/hands/pokerstars/?player={bob.pk}").status_code == 403
    response = client_for(staff).get(f"/api/hands/pokerstars/?player={bob.pk}")
    assert response["X-Hands"] == "3" and f"Dealt to {bob.name} [" in response.content.decode()
    assert api.get("/api/hands/pokerstars/").status_code == 401


def test_the_schema_documents_both_downloads(api):
    paths = api.get("/api/schema/?format=json").json()["paths"]
    for path in ("/api/hands/{id}/pokerstars/", "/api/hands/pokerstars/"):
        operation = paths[path]["get"]
        content = operation["responses"]["200"]["content"]
        assert content == {"text/plain": {"schema": {"type": "string"}}}, path
        assert "PokerStars" in operation["summary"]
    names = {p["name"] for p in paths["/api/hands/pokerstars/"]["get"]["parameters"]}
    assert {"table", "since", "until"} <= names


def test_the_replayer_links_the_pokerstars_download(client_for, players, hands):
    page = client_for(players[0]).get(f"/hands/{hands[0].pk}/").content.decode()
    assert f'href="/api/hands/{hands[0].pk}/pokerstars/"' in page


def test_your_stats_page_offers_your_hands_as_pokerstars_text(client_for, players, hands, table):
    alice, bob = players[0], players[1]
    page = client_for(alice).get(reverse("stats:player", args=[alice.pk]), {"table": table.pk})
    form = re.search(
        r'<form method="get" action="([^"]+)"[^>]*id="pokerstars-export">(.*?)</form>',
        page.content.decode(),
        re.S,
    )
    assert form is not None and form[1] == "/api/hands/pokerstars/"
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form[2]))
    assert set(fields) == {"table", "since", "until"} and fields["table"] == str(table.pk)
    response = client_for(alice).get(form[1], fields)  # what submitting the form asks for
    assert response.status_code == 200 and response["X-Hands"] == "3"
    other = client_for(alice).get(reverse("stats:player", args=[bob.pk])).content.decode()
    assert "pokerstars-export" not in other  # only your own hands


def test_the_ledger_page_links_my_hands_at_that_game(client_for, players, hands, table):
    page = client_for(players[1]).get(f"/tables/{table.pk}/ledger/").content.decode()
    link = re.search(r'id="session-pokerstars" href="([^"]+)"', page)
    assert link is not None
    text = client_for(players[1]).get(link.group(1).replace("&amp;", "&")).content.decode()
    assert re.findall(r"^PokerStars Hand #(\d+):", text, re.M) == [str(h.pk) for h in hands]
