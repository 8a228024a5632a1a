"""Make a multi-table bot tournament in the servers' database, from a separate process.

Run by the reliability tests as ``python -m tests.tables.tournaments.pg_world '<json>'`` with
``DATABASE_URL`` pointing at a fresh database; prints ``{"tournament": <id>}``. Spec:
``{"entrants": 30, "seats": 6, "entry_fee": 10, "stack": 1000, "hands_per_level": 3}``.
The tournament is started at once: the servers' croupiers play it.
"""

from __future__ import annotations

import json
import os
import random
import sys


def build(spec: dict) -> dict:
    from django.contrib.auth import get_user_model

    from tables.services.players import player_create
    from tables.tournaments.services import tournament_create, tournament_start

    user = get_user_model().objects.create_user(username="organiser", password="not-used-123")
    host = player_create(user=user)
    per_level = spec.get("hands_per_level", 3)
    tournament = tournament_create(
        organiser=host,
        name="Reliability",
        format="multi-table",
        seats_per_table=spec.get("seats", 6),
        entry_fee=spec.get("entry_fee", 10),
        starting_stack=spec.get("stack", 1000),
        levels=[
            {"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": per_level}
            for n in range(20)
        ],
        bot_entrants=spec.get("entrants", 30),
        action_seconds=5,
    )
    tournament_start(tournament=tournament, by=host, rng=random.Random(spec.get("seed", 1)))
    return {"tournament": tournament.pk}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")
    import django

    django.setup()
    print(json.dumps(build(json.loads(sys.argv[1]))))


if __name__ == "__main__":
    main()
