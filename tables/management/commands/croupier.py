"""``manage.py croupier``: run the croupier on its own (clocks, bots, next hands).

The server runs one too (started with its first connection); running both is safe: every step
is a locked, versioned service, so nothing happens twice.
"""

import asyncio
import contextlib
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tables.croupier import INTERVAL, Croupier


class Command(BaseCommand):
    help = "Run the croupier loop: start hands, enforce action clocks, seat and play bots."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--interval", type=float, default=INTERVAL)
        parser.add_argument("--once", action="store_true", help="One pass, then exit.")

    def handle(self, *args: Any, interval: float, once: bool, **options: Any) -> None:
        croupier = Croupier(interval=interval)
        if once:
            for table_id, what in croupier.tick():
                self.stdout.write(f"table {table_id}: {what}")
            return
        self.stdout.write(f"Croupier running every {interval}s (Ctrl-C to stop).")
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C stops it quietly
            asyncio.run(croupier.run())
