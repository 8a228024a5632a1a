"""Set up players, sessions and tables in a database, from a separate process.

Run by the load harness as ``python -m tests.load.world '<json spec>'`` with ``DATABASE_URL``
pointing at a fresh database; prints one JSON line::

    {"tables": [{"id": 1, "players": [{"id": 3, "name": "t1p1", "session": "..."}, ...]}]}

Players are created through ``tables.services.player_create`` (the starting grant is a ledger
entry, so chips are accounted for) without a password: the harness logs them in by putting
a session straight into the session store, which is what a log-in does.

Spec: ``{"tables": N, "humans": 6, "buy_in": 200, "table": {Table fields...}}``; with
``"staff": true`` also a staff member's API token (``"staff_token"``), for the operators'
endpoints (``/api/ops/runtimes/``: the load benchmark reads each server's runtimes).
"""

from __future__ import annotations

import json
import os
import sys


def build(spec: dict) -> dict:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore

    from tables.models import Table
    from tables.services import player_create, seat_take, table_save

    out = []
    prefix = spec.get("prefix", "t")
    for t in range(spec.get("tables", 1)):
        fields = {"name": f"{prefix} table {t + 1}", **spec.get("table", {})}
        table = table_save(table=Table(**fields))
        players = []
        for p in range(spec.get("humans", 6)):
            user = User(username=f"{prefix}{t + 1}p{p + 1}")
            user.set_unusable_password()
            user.save()
            player = player_create(user=user)
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            if spec.get("buy_in"):
                seat_take(table=table, player=player, buy_in=spec["buy_in"], seat_number=p)
            players.append({"id": player.pk, "name": user.username, "session": session.session_key})
        out.append({"id": table.pk, "players": players})
    if not spec.get("staff"):
        return {"tables": out}
    from rest_framework.authtoken.models import Token

    staff = User(username=f"{prefix}ops", is_staff=True)
    staff.set_unusable_password()
    staff.save()
    return {"tables": out, "staff_token": Token.objects.create(user=staff).key}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")
    import django

    django.setup()
    print(json.dumps(build(json.loads(sys.argv[1]))))


if __name__ == "__main__":
    main()
