"""The admin's hand list: short columns ("#45", the table, times to the second) that do not
wrap a row over several lines."""

import re

import pytest
from django.urls import reverse

from tables.services import hand_start, seat_take

pytestmark = pytest.mark.django_db


def test_the_hand_list_shows_short_one_line_columns(admin_client, players, make_table, play):
    table = make_table(name="Demo table")
    for p in players[:2]:
        seat_take(table=table, player=p, buy_in=100)
    hand_start(table=table)
    play.play_out(table)

    html = admin_client.get(reverse("admin:tables_hand_changelist")).content.decode()
    thead = re.search(r"<thead>.*?</thead>", html, re.S)[0]
    headers = re.findall(r'<th scope="col"[^>]*>.*?<a [^>]*>([^<]+)</a>', thead, re.S)
    assert [h.strip().lower() for h in headers] == [
        "hand",
        "table",
        "status",
        "pot",
        "started",
        "finished",
    ]
    row = re.search(r'<tr><th class="field-hand">.*?</tr>', html, re.S)[0]
    assert ">#1</a>" in row and "Demo table hand #1" not in row
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", row)
    assert "css/admin.css" in html  # white-space: nowrap for the list's cells
