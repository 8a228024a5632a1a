"""Server CPU of one action sent to the REST play API at a table that a socket follows, in
process: handed to the table's runtime, or carried out by its service at once.

    .venv/bin/python bench/bench_rest_moves.py [--actions 150] [--rounds 3] [--seed 1]

Two players at a no-limit table (a fresh SQLite file, the in-memory channel layer: the
embedded set-up) with a spectator's socket on it (so the process has the table's runtime);
the player to act checks or calls with ``POST /api/tables/<id>/actions/`` through the
project's ASGI application, and the spectator's socket receives the new version. Each round
plays ``--actions`` actions each way, taking turns: ``runtime`` (the move in the runtime's
turn, on the hand it holds, and the answer's state made from the runtime's table:
``tables.live.in_turn``) and ``direct`` (no runner: the service reads and replays the hand,
the answer's state is read, and the runtime reads the change it did not make, as every REST
move was carried out before). Prints the process's CPU milliseconds
(``time.process_time``) per action, from the request sent to the spectator's frame of it
received, each round, and the ratio of the medians. The deals are not timed.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/rest.sqlite3"
        os.environ.pop("REDIS_URL", None)
        os.environ["POKER_CROUPIER"] = "0"
        os.environ["RATELIMIT_ENABLED"] = "0"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        asyncio.run(run(args))


async def run(args: argparse.Namespace) -> None:
    from asgiref.sync import sync_to_async
    from channels.testing import HttpCommunicator
    from django.conf import settings
    from rest_framework.authtoken.models import Token

    import tables.services.hands as hands_service
    from pokersite.asgi import application
    from tables import operations
    from tables.models import Table
    from tables.selectors.held import held_runners
    from tables.selectors.snapshot import load_snapshot
    from tables.services import hand_start, player_grant, player_sign_up, seat_take, table_save
    from tests.tables.wsclient import Socket, communicator

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    dealt = itertools.count(1)  # decks from fixed seeds
    hands_service.new_seed = lambda: f"{args.seed:032x}{next(dealt):032x}"  # type: ignore[assignment]

    def set_up() -> tuple[Any, list[Any], dict[int, str]]:
        table = table_save(table=Table(name="REST", max_seats=6))
        players = [player_sign_up(username=f"r{n}", password="pw-Bench-Secret1") for n in range(2)]
        for number, player in enumerate(players):
            player_grant(player=player, amount=10**8, reason="bench")
            seat_take(table=table, player=player, buy_in=200, seat_number=number)
        tokens = {p.pk: Token.objects.get_or_create(user=p.user)[0].key for p in players}
        return table, players, tokens

    table, players, tokens = await sync_to_async(set_up)()
    spectator = await Socket("spectator", communicator(table.pk)).connect()
    runners, held = list(operations.move_runners), list(held_runners)

    async def post(player_id: int, body: dict[str, Any]) -> dict[str, Any]:
        data = json.dumps(body).encode()
        http = HttpCommunicator(
            application,
            "POST",
            f"/api/tables/{table.pk}/actions/",
            body=data,
            headers=[
                (b"host", b"testserver"),
                (b"content-length", str(len(data)).encode()),
                (b"content-type", b"application/json"),
                (b"authorization", f"Token {tokens[player_id]}".encode()),
            ],
        )
        response = await http.get_response(timeout=30)
        await http.wait(timeout=30)  # the application's own tasks done
        answer: dict[str, Any] = json.loads(response["body"])
        if response["status"] != 200:
            raise AssertionError(f"{response['status']}: {answer}")
        return answer

    async def actions(count: int) -> float:
        """CPU seconds per action of ``count`` actions (deals between hands not timed)."""
        spent = 0.0
        for _ in range(count):
            snapshot = await sync_to_async(load_snapshot)(table.pk)
            while not snapshot.running:
                for player in players:  # whoever went bust buys in again
                    if snapshot.seat_of(player.pk) is None:
                        await sync_to_async(seat_take)(table=table, player=player, buy_in=200)
                await sync_to_async(hand_start)(table=await Table.objects.aget(pk=table.pk))
                snapshot = await sync_to_async(load_snapshot)(table.pk)
                await spectator.until_version(snapshot.version)
            state = snapshot.state
            actor = snapshot.hand.seats[state.actor]["player_id"]
            body = {
                "hand": snapshot.hand.pk,
                "version": snapshot.version,
                "action": "check" if state.legal.check else "call",
            }
            start = time.process_time()
            answer = await post(actor, body)
            await spectator.until_version(answer["version"])
            spent += time.process_time() - start
        return spent / count

    figures: dict[str, list[float]] = {"runtime": [], "direct": []}
    for _ in range(args.rounds):
        for mode in figures:
            operations.move_runners[:] = runners if mode == "runtime" else []
            held_runners[:] = held if mode == "runtime" else []
            figures[mode].append(await actions(args.actions))
    operations.move_runners[:], held_runners[:] = runners, held
    await spectator.close()
    for mode, each in figures.items():
        rounds = ", ".join(f"{1000 * cpu:.2f}" for cpu in each)
        print(f"{mode}: CPU ms per REST action, each round: {rounds}")
    runtime, direct = (statistics.median(figures[mode]) for mode in ("runtime", "direct"))
    print(f"runtime / direct (medians): {runtime / direct:.2f}")


if __name__ == "__main__":
    main()
