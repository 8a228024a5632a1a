"""No admin page answers a question about a running hand's seed or deck (issue 15, item 2).

The attack: as staff, ``/admin/tables/hand/?id__exact=<id>&seed__startswith=<guess>`` listed
the hand only when the guess was right, so 64 x 16 requests gave the seed, and with it every
hole card (``deck__...`` likewise). Each probe below is asked twice, with the right guess and
with a wrong one: the two answers (status, redirect, rows listed) must be the same.
"""

import re

import pytest
from django.contrib import admin as django_admin
from django.urls import NoReverseMatch, reverse

from engine.deck import verify
from tables.models import Hand, HandSecret
from tables.selectors.hands import hand_secret, hand_state
from tables.services import hand_start, seat_take

pytestmark = pytest.mark.django_db

ROW = re.compile(r'href="/admin/tables/(\w+)/(\d+)/change/')


@pytest.fixture
def admin(client, django_user_model):
    user = django_user_model.objects.create_superuser("boss", password="x")
    client.force_login(user)
    return client


def deal(table, players) -> Hand:
    for player in players:
        seat_take(table=table, player=player, buy_in=100)
    return hand_start(table=table)


@pytest.fixture
def running(players, table) -> Hand:
    return deal(table, players)


def answer(client, url: str) -> tuple:
    """What a probe learns: the status, where it is sent, the rows it lists (in order)."""
    response = client.get(url)
    rows = ROW.findall(response.content.decode()) if response.status_code == 200 else []
    return response.status_code, response.get("Location"), rows


def wrong(text: str) -> str:
    """A guess of the same length that differs from ``text`` in its first character."""
    return ("1" if text[0] != "1" else "2") + text[1:]


def probes(hand: Hand, seed: str, deck: list[int]) -> list[tuple[str, str, str]]:
    """(path, query with the right guess, query with a wrong one) for every way of asking."""
    bad_seed, card, bad_card = wrong(seed), str(deck[0]), str(deck[0] + 1 if deck[0] < 51 else 0)
    seed_asks = [  # (lookup, right, wrong)
        ("startswith", seed[0], bad_seed[0]),
        ("exact", seed, bad_seed),
        ("gt", seed[:-1], "f" * 64),
        ("regex", f"^{seed[:2]}", f"^{bad_seed[:2]}"),
        ("icontains", seed[:3], bad_seed[:3]),
    ]
    deck_asks = [
        ("0", card, bad_card),
        ("0__exact", card, bad_card),
        ("contains", f"[{card}]", "[99]"),
        ("icontains", f"{card},", "99,"),
    ]
    asks = [(f"seed__{lookup}", right, bad) for lookup, right, bad in seed_asks]
    asks += [("seed", seed, bad_seed)]
    asks += [(f"deck__{lookup}", right, bad) for lookup, right, bad in deck_asks]
    # the secret's model by name, the hidden reverse relation's name (``+``), back through
    # relations
    for path in ("handsecret", "secret", "%2B", "actions__hand", "table__hands"):
        asks += [
            (f"{path}__seed__startswith", seed[0], bad_seed[0]),
            (f"{path}__deck__0", card, bad_card),
        ]
    hand_list = reverse("admin:tables_hand_changelist")
    asks += [
        ("q", right, bad)
        for right, bad in ((seed, bad_seed), (seed[:8], bad_seed[:8]), (card, bad_card))
    ]
    this = f"id__exact={hand.pk}"
    out = [
        (hand_list, f"{this}&{lookup}={right}", f"{this}&{lookup}={bad}")
        for lookup, right, bad in asks
    ]
    related = {  # other admins' lists, through their relations to the hands
        "tables_table": ["hands"],
        "tables_seat": ["table__hands"],
        "tables_player": ["seats__table__hands", "player_hands__hand"],
        "tables_ledgerentry": ["table__hands", "hand"],
        "tables_handaction": ["hand"],
    }
    for model, paths in related.items():
        if not _registered(model.split("_", 1)[1]):
            continue
        for path in paths:
            out.append(
                (
                    reverse(f"admin:{model}_changelist"),
                    f"{path}__seed__startswith={seed[0]}",
                    f"{path}__seed__startswith={bad_seed[0]}",
                )
            )
            out.append(
                (
                    reverse(f"admin:{model}_changelist"),
                    f"{path}__deck__0={card}",
                    f"{path}__deck__0={bad_card}",
                )
            )
    return out


def _registered(model_name: str) -> bool:
    return any(m._meta.model_name == model_name for m in django_admin.site._registry)


def test_no_lookup_tells_a_right_guess_of_the_secret_from_a_wrong_one(admin, running):
    secret = hand_secret(running)
    asked = 0
    for path, right, bad in probes(running, secret.seed, secret.deck):
        assert answer(admin, f"{path}?{right}") == answer(admin, f"{path}?{bad}"), (path, right)
        asked += 1
    assert asked >= 30


def test_the_hand_list_shows_the_same_rows_in_the_same_order_whatever_the_secrets(
    admin, players, make_table
):
    """Every column ordering (``?o=``), search and filter of the hand list: swapping two
    running hands' secrets changes nothing on it."""
    first = deal(make_table(), players)
    second = deal(make_table(), players)
    path = reverse("admin:tables_hand_changelist")
    columns = len(django_admin.site._registry[Hand].list_display)
    queries = [f"o={i}" for i in range(columns + 2)] + [f"o=-{i}" for i in range(columns + 2)]
    queries += [f"o={i}.{j}" for i in range(columns) for j in range(columns) if i != j]
    queries += ["", "status__exact=running", f"table__id__exact={first.table_id}", "_facets=1"]
    before = [answer(admin, f"{path}?{query}") for query in queries]
    assert any(len(rows) == 2 for _, _, rows in before)  # both hands are listed

    one, two = HandSecret.objects.get(pk=first.pk), HandSecret.objects.get(pk=second.pk)
    HandSecret.objects.filter(pk=first.pk).update(seed=two.seed, deck=two.deck)
    HandSecret.objects.filter(pk=second.pk).update(seed=one.seed, deck=one.deck)
    after = [answer(admin, f"{path}?{query}") for query in queries]
    assert after == before


def test_the_secret_has_no_admin_page(admin, running):
    assert HandSecret not in django_admin.site._registry
    with pytest.raises(NoReverseMatch):
        reverse("admin:tables_handsecret_changelist")
    assert admin.get("/admin/tables/handsecret/").status_code == 404
    assert admin.get(f"/admin/tables/handsecret/{running.pk}/change/").status_code == 404


def test_hand_has_no_field_or_accessor_for_its_secret(running):
    """Nothing on Hand names the secret. (The ORM still knows the hidden reverse relation as
    ``+``; admin refuses it like any relational lookup outside ``list_filter``: the probes.)"""
    names = {field.name for field in Hand._meta.get_fields()}
    assert not names & {"deck", "seed", "secret", "handsecret", "hand_secret"}
    fresh = Hand.objects.get(pk=running.pk)
    assert not any(hasattr(fresh, name) for name in ("seed", "deck", "secret", "handsecret"))


def test_a_finished_hand_shows_its_seed_and_deck_and_they_verify(admin, running, play):
    page = admin.get(reverse("admin:tables_hand_change", args=[running.pk])).content.decode()
    secret = hand_secret(running)
    assert secret.seed not in page and "hidden until the hand is over" in page
    hand = play.play_out(running.table)
    assert hand.pk == running.pk and hand.status == Hand.Status.FINISHED
    page = admin.get(reverse("admin:tables_hand_change", args=[hand.pk])).content.decode()
    assert secret.seed in page
    assert hand.commitment in page
    assert verify(secret.seed, hand.commitment, secret.deck)
    assert hand_state(hand).is_over  # the replay reads the deck from the secret
