"""``manage.py setup_site``: the admin account and a demo table, created once.

Repeatable: a second run keeps everything and only says how to log in.
"""

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tables.models import Table
from tables.services import player_get_or_create, table_save

DEMO_TABLE = "Demo table"


class Command(BaseCommand):
    help = "Create the admin account (printing its password once) and a demo table with bots."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="admin")

    def handle(self, *args, username: str, **options):
        User = get_user_model()
        with transaction.atomic():
            user = User.objects.filter(username=username).first()
            if user is None:
                password = secrets.token_urlsafe(12)
                user = User.objects.create_superuser(username=username, password=password)
                player_get_or_create(user=user)
                self.stdout.write(
                    self.style.SUCCESS(
                        f"Created the admin account: username {username!r}, password {password!r}"
                    )
                )
                self.stdout.write("(shown only this once; write it down)")
            else:
                self.stdout.write(f"Admin account {username!r} exists.")
            self.stdout.write(
                f"Reset its password any time: .venv/bin/python manage.py changepassword {username}"
            )
            if not Table.objects.filter(name=DEMO_TABLE).exists():
                table_save(
                    table=Table(
                        name=DEMO_TABLE,
                        game=Table.Game.HOLDEM,
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
                self.stdout.write(
                    self.style.SUCCESS(f"Created {DEMO_TABLE!r} (NL Hold'em 1/2, 3 bots).")
                )
        self.stdout.write("Open http://127.0.0.1:8000/ (admin: http://127.0.0.1:8000/admin/).")
