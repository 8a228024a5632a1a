"""Django admin: tables, grants, removing players, read-only hands with no secrets in play."""

import json
import re

import pytest
from django.urls import reverse

from engine.cards import Card
from tables.models import Hand, LedgerEntry, Player, Seat, Table
from tables.selectors.hands import hand_secret, hand_state
from tables.services import hand_start, seat_take

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(client, django_user_model):
    user = django_user_model.objects.create_superuser("boss", password="x")
    client.force_login(user)
    return client


@pytest.fixture
def running(players, table, play):
    for p in players:
        seat_take(table=table, player=p, buy_in=100)
    hand = hand_start(table=table)
    play.act(table, "call")
    return hand


def secrets_of(hand: Hand) -> list[str]:
    """Every way the hand's hole cards, deck or seed could be written out."""
    state = hand_state(hand)
    seed, deck = hand_secret(hand).seed, hand_secret(hand).deck
    texts = [seed, json.dumps(deck[:6])[1:-1], str(deck[:6])[1:-1]]
    texts.append(" ".join(str(Card(c)) for c in deck[:6]))
    for hole in state.hole:
        texts += [
            "".join(str(c) for c in hole),
            " ".join(str(c) for c in hole),
            ", ".join(repr(str(c)) for c in hole),
            json.dumps([str(c) for c in hole]),
        ]
    return texts


# A CSRF token is random letters and digits: a hole written without a space ("8cKh") turns up in
# one now and then, and says nothing about the page.
CSRF_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def admin_pages(hand: Hand) -> list[str]:
    pages = [
        reverse("admin:tables_hand_changelist"),
        reverse("admin:tables_hand_change", args=[hand.pk]),
        reverse("admin:tables_handaction_changelist") if _registered("handaction") else None,
        reverse("admin:tables_table_changelist"),
        reverse("admin:tables_table_change", args=[hand.table_id]),
        reverse("admin:tables_seat_changelist"),
        reverse("admin:tables_player_changelist"),
        reverse("admin:tables_ledgerentry_changelist"),
        reverse("admin:index"),
    ]
    pages += [reverse("admin:tables_player_change", args=[p.pk]) for p in Player.objects.all()]
    pages += [reverse("admin:tables_seat_change", args=[s.pk]) for s in Seat.objects.all()]
    return [p for p in pages if p]


def _registered(model: str) -> bool:
    from django.contrib import admin as django_admin

    return any(m._meta.model_name == model for m in django_admin.site._registry)


def test_admin_never_shows_cards_deck_or_seed_of_a_running_hand(admin, running, play):
    secrets = secrets_of(running)
    for url in admin_pages(running):
        response = admin.get(url)
        assert response.status_code == 200, url
        html, tokens = CSRF_TOKEN.subn('name="csrfmiddlewaretoken"', response.content.decode())
        assert tokens, url  # the log-out form's token is on every admin page: it was taken out
        for secret in secrets:
            assert secret not in html, (url, secret)
    page = admin.get(reverse("admin:tables_hand_change", args=[running.pk])).content.decode()
    assert "hidden until the hand is over" in page
    assert running.commitment in page  # the commitment is public from the start

    # Once the hand is over, the seed and deck are published (the check above can see them).
    play.play_out(running.table)
    page = admin.get(reverse("admin:tables_hand_change", args=[running.pk])).content.decode()
    assert hand_secret(running).seed in page
    assert " ".join(str(Card(c)) for c in hand_secret(running).deck[:6]) in page


def test_hands_are_read_only_in_admin(admin, running):
    assert admin.get(reverse("admin:tables_hand_add")).status_code == 403
    assert admin.get(reverse("admin:tables_hand_delete", args=[running.pk])).status_code == 403
    response = admin.post(
        reverse("admin:tables_hand_change", args=[running.pk]), {"status": "voided"}
    )
    assert response.status_code == 403
    assert Hand.objects.get(pk=running.pk).status == "running"


def test_admin_creates_and_edits_tables_stakes_apply_next_hand(admin, running):
    data = {
        "name": "High stakes",
        "game": "holdem",
        "betting": "no-limit",
        "small_blind": 50,
        "big_blind": 100,
        "ante": 0,
        "ante_mode": "per-player",
        "straddle": 0,
        "straddles": 0,
        "bring_in": 0,
        "max_seats": 9,
        "min_buy_in": "",
        "max_buy_in": "",
        "action_seconds": 25,
        "time_bank_seconds": 60,
        "bots_allowed": "on",
        "bot_seats": 2,
        "bomb_pot_ante": 0,  # the form shows the defaults; a browser posts them
        "bomb_pot_every": 0,
        "seats-TOTAL_FORMS": 0,
        "seats-INITIAL_FORMS": 0,
    }
    response = admin.post(reverse("admin:tables_table_add"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    created = Table.objects.get(name="High stakes")
    assert (created.effective_min_buy_in, created.effective_max_buy_in) == (2000, 10000)

    table = running.table
    version = Table.objects.get(pk=table.pk).version
    edit = {
        **data,
        "name": table.name,
        "small_blind": 5,
        "big_blind": 10,
        "bots_allowed": "",
        "bot_seats": 0,
        "max_seats": 6,
        "seats-TOTAL_FORMS": 3,
        "seats-INITIAL_FORMS": 3,
    }
    for i, seat in enumerate(Seat.objects.filter(table=table).order_by("number")):
        edit[f"seats-{i}-id"] = seat.pk
        edit[f"seats-{i}-table"] = table.pk
    response = admin.post(reverse("admin:tables_table_change", args=[table.pk]), edit)
    assert response.status_code == 302, response.content.decode()[:3000]
    table.refresh_from_db()
    assert table.big_blind == 10 and table.version > version
    running.refresh_from_db()
    assert running.config["big_blind"] == 2  # the hand in play keeps its stakes


def test_admin_table_form_errors_are_clear(admin):
    response = admin.post(
        reverse("admin:tables_table_add"),
        {
            "name": "Bad",
            "game": "omaha",
            "betting": "pot-limit",
            "small_blind": 5,
            "big_blind": 2,
            "ante": 0,
            "ante_mode": "per-player",
            "straddle": 0,
            "max_seats": 12,
            "action_seconds": 30,
            "time_bank_seconds": 60,
            "bot_seats": 0,
            "seats-TOTAL_FORMS": 0,
            "seats-INITIAL_FORMS": 0,
        },
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Omaha seats 2 to 10 players." in html
    assert "The small blind cannot be more than the big blind." in html
    assert not Table.objects.filter(name="Bad").exists()


def test_pause_and_close_actions(admin, running, assert_chips_conserved):
    table = running.table
    url = reverse("admin:tables_table_changelist")
    admin.post(url, {"action": "pause_tables", "_selected_action": [table.pk]})
    assert Table.objects.get(pk=table.pk).status == "paused"
    admin.post(url, {"action": "close_tables", "_selected_action": [table.pk]})
    assert Table.objects.get(pk=table.pk).status == "closed"
    assert not Seat.objects.exists()
    assert Hand.objects.get(pk=running.pk).status == "voided"
    assert_chips_conserved()


def test_grant_action_writes_a_ledger_entry_with_the_reason(admin, players, assert_chips_conserved):
    alice, bob = players[:2]
    url = reverse("admin:tables_player_changelist")
    ask = admin.post(url, {"action": "grant_chips", "_selected_action": [alice.pk, bob.pk]})
    assert ask.status_code == 200 and "Grant play chips" in ask.content.decode()
    no_reason = admin.post(
        url,
        {
            "action": "grant_chips",
            "_selected_action": [alice.pk],
            "apply": "1",
            "amount": 500,
            "reason": "",
        },
    )
    assert "This field is required." in no_reason.content.decode()
    assert not LedgerEntry.objects.filter(kind="admin_grant").exists()
    admin.post(
        url,
        {
            "action": "grant_chips",
            "_selected_action": [alice.pk, bob.pk],
            "apply": "1",
            "amount": 500,
            "reason": "Tournament prize",
        },
    )
    entries = LedgerEntry.objects.filter(kind="admin_grant")
    assert sorted(e.player.name for e in entries) == ["alice", "bob"]
    assert {(e.amount, e.reason) for e in entries} == {(500, "Tournament prize")}
    alice.refresh_from_db()
    assert alice.bankroll == 10_500
    assert_chips_conserved()


def test_remove_player_action_returns_the_chips(admin, players, table, assert_chips_conserved):
    seat_take(table=table, player=players[0], buy_in=120)
    seat = Seat.objects.get()
    admin.post(
        reverse("admin:tables_seat_changelist"),
        {"action": "remove_players", "_selected_action": [seat.pk]},
    )
    assert not Seat.objects.exists()
    players[0].refresh_from_db()
    assert players[0].bankroll == 10_000
    assert_chips_conserved()


def test_admin_creates_a_razz_table_with_its_bring_in_and_bets(admin):
    """Issue 20: the admin offers every game; a stud game takes an ante, a bring-in and the
    bets (its blinds, left at the form's defaults, become 0); a bad one is named."""
    data = {
        "name": "Razz room",
        "game": "razz",
        "betting": "fixed-limit",
        "small_blind": 1,
        "big_blind": 2,
        "ante": 1,
        "ante_mode": "per-player",
        "straddle": 0,
        "straddles": 0,
        "bring_in": 2,
        "small_bet": 5,
        "big_bet": "",
        "max_seats": 8,
        "min_buy_in": "",
        "max_buy_in": "",
        "action_seconds": 25,
        "time_bank_seconds": 60,
        "bot_seats": 0,
        "bomb_pot_ante": 0,
        "bomb_pot_every": 0,
        "seats-TOTAL_FORMS": 0,
        "seats-INITIAL_FORMS": 0,
    }
    bad = admin.post(reverse("admin:tables_table_add"), {**data, "bring_in": 5})
    assert bad.status_code == 200 and "below the small bet" in bad.content.decode()
    response = admin.post(reverse("admin:tables_table_add"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get(name="Razz room")
    assert (table.big_blind, table.stakes, table.variant) == (
        0,
        "5/10 ante 1 bring-in 2",
        "Fixed-limit Razz",
    )
