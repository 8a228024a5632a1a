"""``Idempotency-Key``: a retry gets the first answer again and acts once, also when two
retries race (PostgreSQL, threads); a key is one request's, and is forgotten after a day."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tables.models import HandAction, IdempotencyKey, LedgerEntry, Player, Seat, Table
from tables.selectors.hands import hand_state
from tables.services import hand_start, seat_take
from tables.services.idempotency import Answer, idempotent_answer


def client_with_token(player) -> APIClient:
    client = APIClient()
    key = Token.objects.get_or_create(user=player.user)[0].key
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def sit(client, table, key, **body):
    body = {"buy_in": 100, **body}
    return client.post(
        f"/api/tables/{table.pk}/seat/", body, format="json", HTTP_IDEMPOTENCY_KEY=key
    )


@pytest.mark.django_db
def test_a_retry_gets_the_first_answer_and_acts_once(players, table, assert_chips_conserved):
    alice = players[0]
    client = client_with_token(alice)
    first = sit(client, table, "sit-1")
    assert first.status_code == 200 and "Idempotent-Replayed" not in first
    again = sit(client, table, "sit-1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Seat.objects.filter(table=table, player=alice).count() == 1
    assert LedgerEntry.objects.filter(player=alice, kind=LedgerEntry.Kind.BUY_IN).count() == 1
    # a new key is a new request: refused, as alice already sits here
    other = sit(client, table, "sit-2")
    assert other.status_code == 409 and other.json()["code"] == "already_seated"
    assert_chips_conserved()


@pytest.mark.django_db
def test_a_refusal_is_kept_too(players, make_table):
    small = make_table(name="Two seats", max_seats=2)
    alice = players[0]
    first = sit(client_with_token(alice), small, "k", buy_in=1)
    assert first.status_code == 400 and first.json()["code"] == "buy_in_out_of_range"
    again = sit(client_with_token(alice), small, "k", buy_in=1)
    assert again.status_code == 400 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()


@pytest.mark.django_db
def test_a_key_is_one_requests_and_one_users(players, table):
    alice, bob, _ = players
    assert sit(client_with_token(alice), table, "same").status_code == 200
    reused = sit(client_with_token(alice), table, "same", buy_in=150)
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency_key_reused"
    # bob's "same" is bob's own key
    bobs = sit(client_with_token(bob), table, "same")
    assert bobs.status_code == 200 and "Idempotent-Replayed" not in bobs
    assert Seat.objects.filter(table=table).count() == 2


@pytest.mark.django_db
def test_a_bad_key_is_refused_and_changes_nothing(players, table):
    for key in ("", "x" * 256, "has space", "é"):
        response = sit(client_with_token(players[0]), table, key)
        assert response.status_code == 400 and response.json()["code"] == "invalid", key
    assert not Seat.objects.filter(table=table).exists()
    assert not IdempotencyKey.objects.exists()


@pytest.mark.django_db
def test_keys_are_forgotten_after_a_day(players):
    user = players[0].user
    calls = []

    def run():
        calls.append(1)
        return Answer(200, {"n": len(calls)})

    start = timezone.now()
    assert idempotent_answer(user=user, key="k", fingerprint="f", run=run, now=start).body == {
        "n": 1
    }
    IdempotencyKey.objects.update(created_at=start)
    same_day = start + timedelta(hours=23)
    kept = idempotent_answer(user=user, key="k", fingerprint="f", run=run, now=same_day)
    assert kept.replayed and kept.body == {"n": 1} and len(calls) == 1
    next_day = start + timedelta(hours=24, seconds=1)
    fresh = idempotent_answer(user=user, key="k", fingerprint="f", run=run, now=next_day)
    assert not fresh.replayed and fresh.body == {"n": 2}


@pytest.mark.django_db
def test_a_server_error_keeps_nothing_so_the_request_may_be_retried(players):
    user = players[0].user
    answer = idempotent_answer(
        user=user, key="k", fingerprint="f", run=lambda: Answer(503, {"code": "x"})
    )
    assert answer.status == 503 and not IdempotencyKey.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_retries_of_an_action_act_once(players, table):
    """Two threads send the same action with one key at the same moment: one acts, the other
    waits for it and gets its answer."""
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=2)
    hand = hand_start(table=table)
    actor_id = hand.seats[hand_state(hand).actor]["player_id"]
    actor = Player.objects.get(pk=actor_id)
    body = {"hand": hand.pk, "version": Table.objects.get(pk=table.pk).version, "action": "call"}
    start = threading.Barrier(2)
    answers = [None, None]

    def send(i):
        try:
            client = client_with_token(actor)
            start.wait()
            answers[i] = client.post(
                f"/api/tables/{table.pk}/actions/",
                body,
                format="json",
                HTTP_IDEMPOTENCY_KEY="call-once",
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [200, 200], [a.content for a in answers]
    assert answers[0].json() == answers[1].json()
    assert sorted(a.get("Idempotent-Replayed", "") for a in answers) == ["", "true"]
    assert HandAction.objects.filter(hand=hand).count() == 1
