"""``manage.py allin_ev``: compute the all-in EV of finished hands that have none yet.

Hands played since the EV exists get theirs from the croupier with their run-out's odds; the
hands before it (migration 0017 marked them) are computed here, one hand at a time (replayed,
then the engine's enumeration: up to about a second each), outside any transaction.
``--again`` computes every all-in hand's again, over what is stored, and every hand imported
from PokerNow (``tables.imports``): after a correction of how it is computed (2026-12-06: a
side pot's shares now leave out the cards of the live hands that cannot win it).
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tables.croupier import allin_ev_compute
from tables.imports.services import imported_ev_again
from tables.services.runouts import allin_ev_store, hands_awaiting_allin_ev, runout_odds_work


class Command(BaseCommand):
    help = "Compute the all-in EV of finished hands that have none yet (older hands)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=None, help="At most this many hands.")
        parser.add_argument(
            "--again",
            action="store_true",
            help="Also the hands whose EV is stored, and the imported hands: computed again.",
        )

    def handle(self, *args: Any, limit: int | None, again: bool, **options: Any) -> None:
        hands = hands_awaiting_allin_ev(known_too=again)[:limit]
        done = 0
        for hand_id in hands:
            work = runout_odds_work(hand_id)
            ev_net = None if work is None else allin_ev_compute(work, None)
            if ev_net is not None:
                allin_ev_store(hand_id=hand_id, ev_net=ev_net, again=again)
                done += 1
        self.stdout.write(f"All-in EV computed for {done} of {len(hands)} hands.")
        if again:
            changed = imported_ev_again()
            self.stdout.write(
                f"All-in EV computed again for the imported hands: {changed} changed."
            )
