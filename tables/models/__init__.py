"""What persists: players and their chip ledger, tables, seats, and event-sourced hands.

Only ``tables.services`` writes these rows (each service in one transaction with the table row
locked); selectors and views read them. Chips are integers everywhere. Invariant, checked by
the tests: bankrolls + seat stacks + chips committed in running hands == sum of all grants.

A hand is stored as its inputs (config, seats and stacks at the start, button, deck) plus the
append-only ``HandAction`` log; its state is ``tables.selectors.hands.hand_state(hand)``,
the engine replaying those inputs. The deck and the seed are server secrets until the hand
is finished: they live in ``HandSecret``, which nothing but ``tables.selectors`` reads.

Modules: ``base`` (append-only rows), ``players`` (players, the ledger, idempotency keys),
``tables`` (tables, seats; a table's game in ``table_games`` and its checks in
``table_game_checks``), ``hands`` (hands, their secrets, actions, player figures),
``hosting`` (guests, seat requests, chat, notices), ``notes`` (private notes on players),
``leases`` (which server process runs a live table), ``push`` (browsers' Web Push
subscriptions), ``broadcast`` (the players' agreement to show hole cards to spectators).
"""

from tables.models.base import AppendOnlyError, AppendOnlyModel, AppendOnlyQuerySet
from tables.models.broadcast import BroadcastConsent
from tables.models.hands import Hand, HandAction, HandSecret, HandShare, PlayerHand
from tables.models.hosting import ChatMessage, SeatRequest, TableGuest, TableNotice
from tables.models.leases import TableLease
from tables.models.notes import PlayerNote
from tables.models.players import IdempotencyKey, LedgerEntry, Player
from tables.models.push import PushSubscription
from tables.models.tables import Seat, Table

__all__ = [
    "AppendOnlyError",
    "AppendOnlyModel",
    "AppendOnlyQuerySet",
    "BroadcastConsent",
    "ChatMessage",
    "Hand",
    "HandAction",
    "HandSecret",
    "HandShare",
    "IdempotencyKey",
    "LedgerEntry",
    "Player",
    "PlayerHand",
    "PlayerNote",
    "PushSubscription",
    "Seat",
    "SeatRequest",
    "Table",
    "TableGuest",
    "TableLease",
    "TableNotice",
]
