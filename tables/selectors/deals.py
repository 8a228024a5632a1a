"""Checking the night's deals: a closed private game reveals the shuffle seed of every hand.

Before each hand the server published ``sha256(seed)`` (``Hand.commitment``) and dealt from the
deck the seed stands for (``engine.deck.seeded_deck``). Once the game is closed no hand of it
will be played again, so its seeds can be shown: each one is checked here (it hashes to the
commitment and gives the deck that was dealt) and anyone can check it again with
``python -m engine verify SEED COMMITMENT``. Until then the seeds stay secret: nothing here
returns a seed of a game that is not closed.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.deck import verify
from tables.models import Hand, Table
from tables.selectors.hands import finished_hand_secrets


@dataclass(frozen=True)
class DealCheck:
    """One hand of a closed game: the commitment shown at its deal and the seed revealed."""

    hand_id: int
    number: int
    status: str
    commitment: str
    seed: str
    checks: bool  # the seed hashes to the commitment and gives the deck dealt

    @property
    def command(self) -> str:
        return f"python -m engine verify {self.seed} {self.commitment}"


def seeds_revealed(table: Table) -> bool:
    """Whether the seeds of ``table``'s hands may be shown: a private game, closed."""
    return table.private and table.status == Table.Status.CLOSED


def revealed_deals(table: Table) -> list[DealCheck] | None:
    """Every hand of a closed private game with its seed and its check, in order; None while
    the seeds are secret."""
    if not seeds_revealed(table):
        return None
    hands = Hand.objects.filter(table=table).order_by("number")
    secrets = finished_hand_secrets(hands)
    checks = []
    for hand in hands.only("pk", "number", "status", "commitment"):
        secret = secrets.get(hand.pk)
        if secret is None:  # cannot happen once closed (no hand runs); never shown half
            continue
        checks.append(
            DealCheck(
                hand_id=hand.pk,
                number=hand.number,
                status=hand.status,
                commitment=hand.commitment,
                seed=secret.seed,
                checks=verify(secret.seed, hand.commitment, secret.deck),
            )
        )
    return checks
