"""The new-game form's HTML keeps each setting's widget inside its field (issue 49, item 9):
the dealer's choice boxes are a ``<div>``, which an HTML parser puts after a ``<p>`` it
closes early, so the form's script never found their field to hide it."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_no_field_of_the_form_is_a_paragraph_holding_a_block(players):
    client = Client()
    client.force_login(players[0].user)
    page = client.get("/tables/new/").content.decode()
    start = page.index('<form method="post" class="new-game')
    form = page[start : page.index("</form>", start)]
    assert 'name="choice_games"' in form
    # a <p> ends where a <div> (or any block) starts: no paragraph may hold one
    paragraphs = re.findall(r"<p\b[^>]*>(.*?)</p>", form, re.S)
    assert [p for p in paragraphs if re.search(r"<(div|ul|fieldset|table)\b", p)] == []
    boxes = re.search(
        r'<div class="field">\s*<label>Dealer&#x27;s choice games:</label>\s*'
        r'<div id="id_choice_games">',
        form,
    )
    assert boxes, "the boxes are not inside their field"
