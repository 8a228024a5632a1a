"""Pot-limit and fixed-limit tables offer only what their limits allow (issue 5).

Hands are dealt through the services; the actor's page (``/tables/<id>/``) is fetched with
the test client and its action bar (``#table-actions``, ``templates/tables/_actions.html``)
read: the raise button, the quick-size buttons, the slider and the amount box. The expected
amounts are worked out by hand for 1/2 blinds, three players with 200 each:

- pot-limit: raise to at most current bet + pot + the call. First to act preflop faces 2 with
  3 in the pot: 2 + 3 + 2 = 7. After a pot raise to 7, the small blind (1 in) faces 6 with
  1 + 2 + 7 = 10 in the pot: 7 + 10 + 6 = 23.
- fixed-limit: one size, the bet plus one small bet (2) preflop: 4, then 6, then 8; the big
  blind is the bet, so after three raises (8) the street is capped (three players in).
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tables.models import Table
from tables.selectors.hands import hand_state
from tables.services import hand_start, seat_take

pytestmark = pytest.mark.django_db


class ActionBar(HTMLParser):
    """The buttons and inputs inside ``#table-actions`` (attributes, and text for buttons)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.depth = 0  # > 0 inside #table-actions
        self.found = False
        self.buttons: list[dict] = []
        self.inputs: list[dict] = []
        self._button: dict | None = None
        self.feed(html)
        assert self.found, "no #table-actions on the page"

    def handle_starttag(self, tag, attrs):
        attrs = {k: v or "" for k, v in attrs}
        if self.depth == 0:
            if attrs.get("id") == "table-actions":
                self.found = True
                self.depth = 1
            return
        if tag == "input":
            self.inputs.append(attrs)
            return
        self.depth += 1
        if tag == "button":
            self._button = {**attrs, "text": ""}
            self.buttons.append(self._button)

    def handle_endtag(self, tag):
        if self.depth == 0 or tag == "input":
            return
        self.depth -= 1
        if tag == "button":
            self._button = None

    def handle_data(self, data):
        if self._button is not None:
            self._button["text"] += data

    def button(self, kind: str) -> dict | None:
        found = [b for b in self.buttons if b.get("value") == kind]
        assert len(found) <= 1, found
        return found[0] if found else None

    def sizes(self) -> list[tuple[str, int]]:
        return [
            (" ".join(b["text"].split()), int(b["data-amount"]))
            for b in self.buttons
            if "size" in b.get("class", "").split()
        ]

    def amount_inputs(self) -> list[dict]:
        return [i for i in self.inputs if i.get("name") == "amount" or i.get("type") == "range"]

    def offered_amounts(self) -> set[int]:
        """Every raise-to amount a control lets the player choose (size buttons, slider, box)."""
        amounts = {amount for _, amount in self.sizes()}
        for control in self.amount_inputs():
            amounts |= set(range(int(control["min"]), int(control["max"]) + 1))
        return amounts


def raise_text(bar: ActionBar) -> str:
    return " ".join(bar.button("raise")["text"].split())


@pytest.fixture
def deal(players, make_table, play):
    """``deal(game, betting)``: alice, bob, carol sit with 200 at a new 1/2 table; a hand starts."""

    def make(game: str, betting: str):
        table = make_table(game=game, betting=betting, small_blind=1, big_blind=2)
        for number, player in enumerate(players):
            seat_take(table=table, player=player, buy_in=200, seat_number=number)
        hand = hand_start(table=table)
        table.refresh_from_db()
        return table, hand

    return make


def actor_bar(client, table, play) -> tuple[ActionBar, dict]:
    """The action bar on the actor's own page, and the engine's legal actions for them."""
    hand = play.current_hand(table)
    actor = play.actor(hand)
    client.force_login(actor.user)
    response = client.get(reverse("tables:detail", args=[table.pk]))
    assert response.status_code == 200
    legal = hand_state(hand).legal
    return ActionBar(response.content.decode()), legal


def test_pot_limit_omaha_offers_raises_up_to_the_pot_and_no_bigger_all_in(client, deal, play):
    table, hand = deal("omaha", Table.Betting.POT_LIMIT)
    assert len(hand_state(hand).hole[0]) == 4  # Omaha

    # First to act preflop: call 2, raise to 4 .. 7 (not to the 200 behind).
    bar, legal = actor_bar(client, table, play)
    assert (legal.min_raise_to, legal.max_raise_to) == (4, 7)
    assert bar.button("fold") and "Call 2" in bar.button("call")["text"]
    assert raise_text(bar) == "Raise to 4 R"
    assert bar.offered_amounts() == set(range(4, 8))
    for control in bar.amount_inputs():
        assert (int(control["min"]), int(control["max"])) == (4, 7), control
    assert ("Pot", 7) in bar.sizes()
    assert not any(label == "All-in" and amount != 7 for label, amount in bar.sizes())
    assert bar.button("all_in") is None

    # A pot raise to 7; the small blind may now raise to at most 23.
    play.act(table, {"kind": "raise", "amount": 7})
    bar, legal = actor_bar(client, table, play)
    assert (legal.min_raise_to, legal.max_raise_to) == (12, 23)
    assert "Call 6" in bar.button("call")["text"]
    assert bar.offered_amounts() == set(range(12, 24))
    assert ("Pot", 23) in bar.sizes()
    assert max(amount for _, amount in bar.sizes()) == 23
    assert bar.button("all_in") is None


def test_fixed_limit_holdem_offers_one_raise_size_and_none_after_the_cap(client, deal, play):
    table, hand = deal("holdem", Table.Betting.FIXED_LIMIT)

    # Raise to 4, 6, 8: each actor is offered exactly that one size, nothing else.
    for call, target in ((2, 4), (3, 6), (4, 8)):
        bar, legal = actor_bar(client, table, play)
        assert (legal.min_raise_to, legal.max_raise_to) == (target, target)
        assert f"Call {call}" in bar.button("call")["text"]
        assert raise_text(bar) == f"Raise to {target} R"
        assert bar.offered_amounts() == {target}, (bar.sizes(), bar.amount_inputs())
        assert len(bar.sizes()) <= 1
        play.act(table, {"kind": "raise", "amount": target})

    # One bet (the big blind) and three raises: capped. The button may call 4 or fold, no raise.
    bar, legal = actor_bar(client, table, play)
    assert legal.min_raise_to is None and legal.max_raise_to is None
    assert bar.button("fold") and "Call 4" in bar.button("call")["text"]
    assert bar.button("raise") is None and bar.button("all_in") is None
    assert bar.sizes() == [] and bar.amount_inputs() == []
