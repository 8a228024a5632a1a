"""How long the write transaction of the action that ends the betting takes when it leads
to an all-in run-out: heads-up Hold'em, all in before the flop (the costliest odds of
Hold'em: 1,712,304 boards for the first street).

Creates a throw-away test database (SQLite in memory unless ``DATABASE_URL`` says
otherwise); for each of ``repeat`` fresh tables: two players sit, a hand is dealt, the first
goes all in, and the call that ends the betting is timed (``hand_act``: one transaction,
the table row locked). Then, for comparison, the odds computed for that run-out off the write
path (``runout_odds_compute``: a read and the engine, no transaction). Prints the median and
the worst of each. Usage: ``.venv/bin/python bench/bench_runout_write.py [repeat]``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402


def main(repeat: int) -> None:
    from django.contrib.auth import get_user_model

    from tables.models import Hand, Table
    from tables.selectors.hands import hand_state, running_hand
    from tables.services import hand_act, hand_start, player_create, seat_take, table_save

    users = [get_user_model().objects.create(username=f"bench{i}") for i in range(2)]
    players = [player_create(user=u, grant=100_000) for u in users]
    writes, computes = [], []
    for n in range(repeat):
        table = table_save(table=Table(name=f"Bench {n}", max_seats=2))
        for player in players:
            seat_take(table=table, player=player, buy_in=table.effective_max_buy_in)
        hand = hand_start(table=table)
        for kind in ("all_in", "call"):
            table = Table.objects.get(pk=table.pk)
            state = hand_state(running_hand(table))
            actor = next(p for p in players if p.pk == hand.seats[state.actor]["player_id"])
            start = time.perf_counter()
            hand_act(table=table, player=actor, hand_id=hand.pk, version=table.version, action=kind)
            took = time.perf_counter() - start
        writes.append(took)
        hand = Hand.objects.get(pk=hand.pk)
        assert hand.status == Hand.Status.FINISHED and hand.runout, "no run-out was recorded"
        computes.append(_compute(hand))
    print(f"heads-up hold'em, all in preflop, {repeat} hands")
    print(
        "  the call's write transaction: "
        f"median {statistics.median(writes) * 1000:.1f} ms, worst {max(writes) * 1000:.1f} ms"
    )
    if computes[0] is not None:
        print(
            "  the odds, off the write path: "
            f"median {statistics.median(computes) * 1000:.1f} ms, "
            f"worst {max(computes) * 1000:.1f} ms"
        )


def _compute(hand) -> float | None:
    """Seconds to read and compute the run-out's chances as the croupier does (None before
    they left the write path)."""
    try:
        from tables.croupier import runout_odds_compute
        from tables.services.runouts import runout_odds_work
    except ImportError:
        return None
    start = time.perf_counter()
    runs = runout_odds_compute(runout_odds_work(hand.pk))
    took = time.perf_counter() - start
    assert runs and all(step["chances"] for run in runs for step in run)
    return took


if __name__ == "__main__":
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
