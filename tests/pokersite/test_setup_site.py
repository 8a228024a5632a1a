"""First run: ``make run`` ends its set-up with one block (URL, admin, password, how to reset)."""

import io
import re
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tables.management.commands.setup_site import site_url
from tables.models import Table

ROOT = Path(__file__).resolve().parents[2]


def run_setup(**options) -> list[str]:
    out = io.StringIO()
    call_command("setup_site", stdout=out, no_color=True, **options)
    return out.getvalue().splitlines()


def field(lines: list[str], name: str) -> str:
    """The value on the block's line ``  <name>:  <value>``."""
    (value,) = [line.split(":", 1)[1].strip() for line in lines if line.strip().startswith(name)]
    return value


@pytest.mark.django_db
def test_first_run_prints_one_block_with_url_admin_and_a_usable_unquoted_password():
    lines = run_setup(host="127.0.0.1", port=8101)

    assert lines[0] == lines[-1] == "=" * 64, "the block is the whole output, framed"
    assert field(lines, "Poker site") == "http://127.0.0.1:8101/"
    assert field(lines, "Admin") == "http://127.0.0.1:8101/admin/"
    assert field(lines, "Username") == "admin"
    password = field(lines, "Password")
    assert not re.search(r"['\"]", password), "copyable: no quotes around the password"
    assert get_user_model().objects.get(username="admin").check_password(password)
    assert field(lines, "Reset it") == ".venv/bin/python manage.py changepassword admin"
    assert Table.objects.filter(name="Demo table").count() == 1


@pytest.mark.django_db
def test_the_block_says_what_a_player_does_next():
    """Issue 32 item 12: the block gave the URL and the admin log-in, not how to play (the
    README said it only at line ~57)."""
    lines = run_setup(host="127.0.0.1", port=8101)
    demo = Table.objects.get(name="Demo table")
    text = "\n".join(lines)
    assert "sign up at http://127.0.0.1:8101/accounts/signup/ (10,000 play chips)" in text
    assert f"join the demo table: http://127.0.0.1:8101/tables/{demo.pk}/" in text
    assert lines[-1] == "=" * 64


@pytest.mark.django_db
def test_second_run_keeps_everything_and_still_says_where_and_how_to_log_in():
    first_password = field(run_setup(), "Password")
    lines = run_setup(port=9000)

    assert field(lines, "Poker site") == "http://127.0.0.1:9000/"
    assert first_password not in "\n".join(lines), "the password is shown only once"
    assert "changepassword admin" in field(lines, "Reset it")
    assert get_user_model().objects.get(username="admin").check_password(first_password)
    assert Table.objects.filter(name="Demo table").count() == 1


@pytest.mark.parametrize(
    ("host", "url"),
    [
        ("127.0.0.1", "http://127.0.0.1:8000/"),
        ("0.0.0.0", "http://127.0.0.1:8000/"),
        ("::", "http://[::1]:8000/"),
        ("poker.lan", "http://poker.lan:8000/"),
        ("::1", "http://[::1]:8000/"),
    ],
)
def test_site_url_is_one_a_browser_can_open(host, url):
    assert site_url(host, 8000) == url


@pytest.mark.parametrize("target", ["run", "dev"])
def test_make_passes_host_and_port_to_the_setup_block_and_the_server(target):
    commands = subprocess.run(
        ["make", "-n", target, "PORT=8101", "HOST=0.0.0.0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    setup = [c for c in commands if "setup_site" in c]
    server = [c for c in commands if "daphne" in c]
    assert setup == [".venv/bin/python manage.py setup_site --host '0.0.0.0' --port '8101'"]
    assert len(server) == 1 and "-b 0.0.0.0 -p 8101" in server[0]
    assert commands.index(setup[0]) == commands.index(server[0]) - 1, "the block comes last"
