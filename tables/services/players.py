"""Players and their bankrolls: sign-up with a starting grant, admin grants.

Bankroll changes lock the player row (``select_for_update``); services that also touch a table
lock the table row first, then the player row, always in that order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from tables.db import statements
from tables.db.rows import insert, lock_row
from tables.models import Hand, LedgerEntry, Player, Table
from tables.names import name_problem
from tables.services.errors import (
    InsufficientBankroll,
    InvalidAmount,
    InvalidName,
    InvalidPreference,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def player_create(*, user: User, is_bot: bool = False, grant: int | None = None) -> Player:
    """Create the player profile of ``user`` with a starting grant (a ``grant`` ledger entry).

    Lock: none needed (a new row). ``grant`` defaults to ``POKER_STARTING_GRANT``.
    """
    amount = settings.POKER_STARTING_GRANT if grant is None else grant
    with transaction.atomic():
        player = Player.objects.create(user=user, is_bot=is_bot)
        if amount:
            ledger_record(
                player=player, amount=amount, kind=LedgerEntry.Kind.GRANT, reason="Welcome grant"
            )
    return player


def player_mark_bot(*, player: Player, bot_account: bool) -> Player:
    """Mark ``player``'s account as played by a program (a bot account), or not: their own
    choice (profile) or an admin's. Shown as a bot badge at the tables (from their next
    change), in the lobby and in statistics.

    Lock: the player row.
    """
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.bot_account != bot_account:
            player.bot_account = bot_account
            player.save(update_fields=["bot_account"])
    return player


def player_set_preferences(
    *,
    player: Player,
    deck_colours: str,
    large_cards: bool,
    felt: str,
    turn_nudge: bool,
    hud: bool = True,
) -> Player:
    """Save how ``player`` sees the cards and the felt, and whether they are nudged when it
    becomes their turn, and whether they see the HUD at the tables. ``InvalidPreference``
    for a deck or felt that is not a choice.

    Lock: the player row.
    """
    decks, felts = dict(Player.DECK_COLOURS), dict(Player.FELTS)
    if deck_colours not in decks:
        raise InvalidPreference(f"Pick a deck: {' or '.join(decks.values()).lower()}.")
    if felt not in felts:
        raise InvalidPreference(f"Pick a felt colour: {', '.join(felts.values()).lower()}.")
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        player.deck_colours, player.large_cards = deck_colours, large_cards
        player.felt, player.turn_nudge, player.hud = felt, turn_nudge, hud
        player.save(update_fields=["deck_colours", "large_cards", "felt", "turn_nudge", "hud"])
    return player


def player_sign_up(*, username: str, password: str, email: str = "") -> Player:
    """Create a user account and its player (with the starting grant) in one transaction.
    ``InvalidName`` for a username ``tables.names`` refuses (the sign-up form's Django
    username rules refuse it too, in their words)."""
    problem = name_problem(username, "The username")
    if problem:
        raise InvalidName(problem)
    with transaction.atomic():
        user = get_user_model().objects.create_user(
            username=username, password=password, email=email
        )
        return player_create(user=user)


def player_get_or_create(*, user: User) -> Player:
    """The player of ``user``, created with a starting grant on first use (e.g. admins)."""
    try:
        return user.player
    except Player.DoesNotExist:
        return player_create(user=user)


def player_grant(*, player: Player, amount: int, reason: str) -> LedgerEntry:
    """An admin gives play chips: an ``admin_grant`` ledger entry with a reason.

    Lock: the player row. ``amount`` must be a positive whole number, ``reason`` non-empty.
    """
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise InvalidAmount("A grant is a positive whole number of chips.")
    if not reason or not reason.strip():
        raise InvalidAmount("Say why the chips are granted (the reason goes in the ledger).")
    with transaction.atomic():
        return ledger_record(
            player=player, amount=amount, kind=LedgerEntry.Kind.ADMIN_GRANT, reason=reason.strip()
        )


def ledger_record(
    *,
    player: Player,
    amount: int,
    kind: str,
    reason: str = "",
    table: Table | None = None,
    hand: Hand | None = None,
) -> LedgerEntry:
    """Move ``amount`` chips into (or, negative, out of) a bankroll and log it.

    Internal building block of the services: call inside ``transaction.atomic()``. Lock: takes
    the player row lock; refreshes ``player.bankroll`` (and its bot flags: a bot account is the
    player's to change) from it.
    """
    balance, player.is_bot, player.bot_account = _bankroll_move(player.pk, amount)
    player.bankroll = balance
    entry = LedgerEntry(
        player=player,
        amount=amount,
        kind=kind,
        reason=reason[:200],
        table=table,
        hand=hand,
        balance_after=balance,
    )
    insert(entry, numbered=True)
    return entry


def _bankroll_move(player_id: int, amount: int) -> tuple[int, bool, bool]:
    """Add ``amount`` to the player's bankroll, locking its row; returns the bankroll after it
    and the row's bot flags (``is_bot``, ``bot_account``). ``InsufficientBankroll`` (nothing
    changed) when it would go below zero."""
    locked = lock_row(Player, player_id)
    balance = locked.bankroll + amount
    if balance < 0:
        raise _short(locked.bankroll, amount)
    statements.update(Player, {"pk": player_id}, bankroll=balance)
    return balance, locked.is_bot, locked.bot_account


def _short(bankroll: int, amount: int) -> InsufficientBankroll:
    return InsufficientBankroll(
        f"Not enough chips: your bankroll is {bankroll}, this needs {-amount}."
    )
