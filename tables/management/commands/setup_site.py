"""``manage.py setup_site``: the admin account and a demo table, created once.

Repeatable: a second run keeps everything. Every run ends with one block saying where the
site is and how to log in, so it is the last thing on screen before the server's own log.
"""

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from tables.models import Table
from tables.services import player_get_or_create, table_save

DEMO_TABLE = "Demo table"
# Addresses a server listens on that a browser cannot open: show the loopback one instead.
WILDCARD_HOSTS = {"0.0.0.0": "127.0.0.1", "::": "[::1]", "": "127.0.0.1"}


def site_url(host: str, port: int) -> str:
    """The address to open in a browser for a server bound to ``host``:``port``."""
    host = WILDCARD_HOSTS.get(host, host)
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address in a URL
    return f"http://{host}:{port}/"


class Command(BaseCommand):
    help = "Create the admin account (printing its password once) and a demo table with bots."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="admin")
        parser.add_argument("--host", default="127.0.0.1", help="the address the server binds")
        parser.add_argument("--port", type=int, default=8000, help="the port the server binds")

    def handle(self, *args: Any, username: str, host: str, port: int, **options: Any) -> None:
        User = get_user_model()
        password = None
        with transaction.atomic():
            if not User.objects.filter(username=username).exists():
                password = secrets.token_urlsafe(12)
                user = User.objects.create_superuser(username=username, password=password)
                player_get_or_create(user=user)
            created_table = not Table.objects.filter(name=DEMO_TABLE).exists()
            if created_table:
                table_save(
                    table=Table(
                        name=DEMO_TABLE,
                        game=Table.DEFAULT_GAME,
                        betting=Table.Betting.NO_LIMIT,
                        small_blind=1,
                        big_blind=2,
                        max_seats=6,
                        action_seconds=20,
                        time_bank_seconds=60,
                        bots_allowed=True,
                        bot_seats=3,
                    )
                )
        demo = Table.objects.filter(name=DEMO_TABLE).values_list("pk", flat=True).first()
        self.write_summary(
            url=site_url(host, port),
            username=username,
            password=password,
            created_table=created_table,
            demo_table=demo,
        )

    def write_summary(
        self,
        *,
        url: str,
        username: str,
        password: str | None,
        created_table: bool,
        demo_table: int | None,
    ) -> None:
        rule = "=" * 64
        lines = [
            rule,
            f"  Poker site:  {url}",
            f"  Admin:       {url}admin/",
            f"  Username:    {username}",
        ]
        if password is None:
            lines.append("  Password:    the one printed when this account was created")
        else:
            lines.append(f"  Password:    {password}")
            lines.append("               (shown only this once: write it down)")
        lines.append(f"  Reset it:    .venv/bin/python manage.py changepassword {username}")
        if created_table:
            lines.append(f"  Created {DEMO_TABLE!r}: NL Hold'em 1/2 with 3 bots.")
        # what a player does next, so that nobody has to find it in the README
        grant = f"{settings.POKER_STARTING_GRANT:,} play chips"
        lines.append(f"  Play:        sign up at {url}accounts/signup/ ({grant}),")
        if demo_table is not None:
            lines.append(f"               then join the demo table: {url}tables/{demo_table}/")
        else:
            lines.append("               then pick a table in the lobby")
        lines.append(rule)
        for line in lines:
            self.stdout.write(self.style.SUCCESS(line) if line.startswith("  Poker") else line)
