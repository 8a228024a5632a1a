"""Log-in lock-outs (django-axes, set up in pokersite/settings.py and tables/ratelimit.py):
one counter per account and per address, shared by the log-in form, the admin log-in and the
API's token endpoint.

Every try comes from its own random documentation address unless a test is about
one address, so that only the counter under test can lock anything out. The counts live in
the test's database, so each test starts with none.
"""

import secrets
from datetime import timedelta

import pytest
from axes.handlers.proxy import AxesProxyHandler
from axes.models import AccessAttempt
from django.db.models import F
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

LIMIT = 10  # AXES_FAILURE_LIMIT in pokersite/settings.py
COOL_OFF = 15 * 60  # AXES_COOLOFF_TIME, seconds


def address() -> str:
    """A random address from IPv6's documentation range, each in its own /64 (no two tries
    share one)."""
    return f"2001:db8:{secrets.token_hex(2)}:{secrets.token_hex(2)}::1"


@pytest.fixture
def carol(make_player):
    """A staff player, so that she can also log in to the admin."""
    player = make_player("carol")
    player.user.is_staff = True
    player.user.save()
    return player


PASSWORD = "pw-carol-Secret1"


def form(client, username, password="wrong-password-1", ip=None):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=ip or address(),
    )


def admin(client, username, password="wrong-password-1", ip=None):
    return client.post(
        reverse("admin:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=ip or address(),
    )


def token(username, password="wrong-password-1", ip=None):
    return APIClient().post(
        "/api/auth/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=ip or address(),
    )


def assert_locked_out_page(response):
    assert response.status_code == 429
    assert response["Retry-After"] == str(COOL_OFF)
    assert "Too many failed log-ins" in response.content.decode()


def assert_locked_out_json(response):
    assert response.status_code == 429
    assert response["Retry-After"] == str(COOL_OFF)
    assert response.json()["message"].startswith("Too many failed log-ins")


def test_the_token_endpoint_locks_an_account_out_after_the_limit(carol):
    for _ in range(LIMIT - 1):
        assert token("carol").status_code == 401
    assert_locked_out_json(token("carol"))  # the failure that reaches the limit
    # The right password from yet another address: refused while the lock lasts.
    assert_locked_out_json(token("carol", PASSWORD))


def test_the_token_endpoint_locks_an_address_out_after_the_limit(carol):
    ip = address()
    for n in range(LIMIT - 1):
        assert token(f"nobody{n}", ip=ip).status_code == 401
    assert_locked_out_json(token("nobody-else", ip=ip))
    assert_locked_out_json(token("carol", PASSWORD, ip=ip))  # any account, from there
    # Carol herself, from elsewhere, is not affected.
    assert token("carol", PASSWORD).status_code == 200


def test_the_form_the_api_and_the_admin_share_one_counter(client, carol):
    for _ in range(5):
        response = form(client, "carol")
        assert response.status_code == 200 and "correct username and password" in (
            response.content.decode()
        )
    for _ in range(4):
        assert token("carol").status_code == 401
    assert_locked_out_json(token("carol"))  # the tenth failure, whichever way in
    assert_locked_out_page(admin(client, "carol", PASSWORD))
    assert_locked_out_page(form(client, "carol", PASSWORD))
    assert_locked_out_json(token("carol", PASSWORD))
    assert "_auth_user_id" not in client.session


def test_admin_failures_count_too(client, carol):
    for _ in range(LIMIT - 1):
        assert admin(client, "carol").status_code == 200
    assert_locked_out_page(admin(client, "carol"))
    assert_locked_out_json(token("carol", PASSWORD))


def test_look_alike_spellings_count_against_one_account(client, carol, settings):
    settings.AXES_FAILURE_LIMIT = 4
    # Full-width letters (the form logs these in as carol), upper case, spaces around.
    assert form(client, "ｃａｒｏｌ").status_code == 200
    assert token("CAROL").status_code == 401
    assert token(" Carol ").status_code == 401
    assert_locked_out_page(form(client, "ＣＡＲＯＬ"))
    assert_locked_out_page(form(client, "carol", PASSWORD))
    assert AccessAttempt.objects.filter(username="carol").count() == 4
    assert set(AccessAttempt.objects.values_list("username", flat=True)) == {"carol"}


def test_the_lock_holds_until_the_cool_off_after_the_last_counted_failure(client, carol):
    for _ in range(LIMIT):
        form(client, "carol")
    counted = sum(AccessAttempt.objects.values_list("failures_since_start", flat=True))
    assert counted == LIMIT
    # Refused tries, even with the right password, are not counted: the lock is not prolonged.
    for _ in range(3):
        assert_locked_out_page(form(client, "carol", PASSWORD))
    assert sum(AccessAttempt.objects.values_list("failures_since_start", flat=True)) == LIMIT
    # Nearly the cool-off later: still locked. Once it has passed: the right password works.
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(seconds=COOL_OFF - 30))
    assert_locked_out_page(form(client, "carol", PASSWORD))
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(seconds=31))
    assert form(client, "carol", PASSWORD).status_code == 302


def test_successful_log_ins_count_nothing_and_clear_nothing(client, carol, make_player):
    ip = address()
    for n in range(LIMIT - 1):
        form(client, f"nobody{n}", ip=ip)
    # Carol logs in from that address again and again: nothing counted, nothing cleared...
    for _ in range(3):
        assert form(client, "carol", PASSWORD, ip=ip).status_code == 302
        client.post(reverse("logout"))
    # ...so the address's next failure is its tenth.
    assert_locked_out_page(form(client, "nobody", ip=ip))


def test_the_counts_are_in_the_database_shared_by_every_process(client, carol):
    """Nothing lives in the process: the failures are rows, and a fresh handler (as in
    another process) sees the lock."""
    for _ in range(LIMIT):
        form(client, "carol")
    rows = AccessAttempt.objects.filter(username="carol")
    assert sum(rows.values_list("failures_since_start", flat=True)) == LIMIT
    AxesProxyHandler.get_implementation(force=True)
    assert_locked_out_json(token("carol", PASSWORD))


def test_an_exempt_address_is_never_locked_out(client, carol, settings):
    ip = address()
    settings.RATELIMIT_EXEMPT = [ip]
    for _ in range(LIMIT + 2):
        assert form(client, "carol", ip=ip).status_code == 200
    assert form(client, "carol", PASSWORD, ip=ip).status_code == 302
    assert not AccessAttempt.objects.exists()


def test_loopback_is_limited_when_not_listed(client, carol, settings):
    settings.RATELIMIT_EXEMPT = []
    for _ in range(LIMIT - 1):
        assert token("carol", ip="127.0.0.1").status_code == 401
    assert_locked_out_json(token("carol", ip="127.0.0.1"))


def test_one_ipv6_network_is_one_address(carol):
    """Whoever holds an IPv6 /64 holds its 2**64 addresses: they count as one."""
    network = f"2001:db8:{secrets.token_hex(2)}:{secrets.token_hex(2)}"
    for n in range(LIMIT - 1):
        assert token(f"nobody{n}", ip=f"{network}::{n + 1:x}").status_code == 401
    assert_locked_out_json(token("nobody", ip=f"{network}:1:2:3:4"))


def test_a_made_up_address_is_an_ordinary_failure(carol):
    """An address that is not one (a proxy passing on whatever the client wrote) cannot break
    the count (PostgreSQL refused to store it: 500)."""
    assert token("carol", ip="not-an-address").status_code == 401
    assert token("carol", PASSWORD, ip="not-an-address").status_code == 200


def change_password(client, old, ip=None):
    new = "pw-carol-Changed9"
    return client.post(
        reverse("password_change"),
        {"old_password": old, "new_password1": new, "new_password2": new},
        REMOTE_ADDR=ip or address(),
    )


def test_wrong_old_passwords_on_the_password_change_form_count_toward_the_lock_out(client, carol):
    """Issue 32 item 4: 25 wrong ``old_password`` posts from a stolen session all answered 200
    and none counted: the old password could be guessed without limit."""
    client.force_login(carol.user)
    for _ in range(LIMIT - 1):
        answer = change_password(client, "wrong-password-1")
        assert answer.status_code == 200
        assert "old_password" in answer.context["form"].errors
    rows = AccessAttempt.objects.filter(username="carol")
    assert sum(rows.values_list("failures_since_start", flat=True)) == LIMIT - 1
    assert_locked_out_page(change_password(client, "wrong-password-1"))
    # locked out: even the right old password is refused, and the password is unchanged
    assert_locked_out_page(change_password(client, PASSWORD))
    carol.user.refresh_from_db()
    assert carol.user.check_password(PASSWORD)
    # the lock is the log-in's own: the log-in form refuses carol too
    assert_locked_out_page(form(Client(), "carol", PASSWORD))


def test_the_right_old_password_changes_it_and_counts_nothing(client, carol):
    client.force_login(carol.user)
    answer = change_password(client, PASSWORD)
    assert answer.status_code == 302
    carol.user.refresh_from_db()
    assert carol.user.check_password("pw-carol-Changed9")
    assert not AccessAttempt.objects.exists()
