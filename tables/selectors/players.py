"""Reads of players: the player behind a user, a bankroll, a ledger, a name like a taken one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db.models import BooleanField, ExpressionWrapper, Q, QuerySet
from django.db.models.functions import Length

from tables.models import LedgerEntry, Player
from tables.usernames import invisible_pattern, lookalike

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


def viewer_player(user: User | AnonymousUser | None) -> Player | None:
    """The player behind a request's or socket's user (``None`` for anonymous users)."""
    if user is None or not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).select_related("user").first()


def player_by_id(player_id: object) -> Player | None:
    """The player ``player_id`` names, with their user (None: no such player, or not an id:
    a forwarded request's, from another process)."""
    if not isinstance(player_id, int):
        return None
    return Player.objects.select_related("user").filter(pk=player_id).first()


def player_bankroll(player_id: int) -> int:
    """The player's bankroll as the database holds it now (one query, no model built)."""
    return Player.objects.filter(pk=player_id).values_list("bankroll", flat=True)[0]


def player_ledger(player: Player, limit: int = 200) -> QuerySet[LedgerEntry]:
    """The player's most recent ledger entries, newest first."""
    return player.ledger.select_related("table").order_by("-created_at", "-id")[:limit]


def shown_as_bot(player: str = "player") -> ExpressionWrapper[Q]:
    """The bot badge of a leaderboard row: the croupier's bots and bot accounts (``player``:
    the path to the row's player)."""
    return ExpressionWrapper(
        Q(**{f"{player}__is_bot": True}) | Q(**{f"{player}__bot_account": True}),
        output_field=BooleanField(),
    )


def name_like_taken(username: str) -> str | None:
    """A taken username that reads the same as ``username`` (``tables.usernames.lookalike``),
    or ``None``: ``аlice`` with a Cyrillic ``а`` beside ``alice`` would pass for her."""
    # A look-alike has as many visible characters: only names of that length are compared,
    # and the longer ones stored with a character that shows nothing (``bob`` + U+3164).
    candidates = (
        get_user_model()
        .objects.annotate(length=Length("username"))
        .filter(
            Q(length=len(username))
            | Q(length__gt=len(username), username__regex=invisible_pattern())
        )
        .values_list("username", flat=True)
    )
    return lookalike(username, candidates.iterator())
