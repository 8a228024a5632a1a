"""Table chat: a player's line, and the host muting a player.

Both run in one transaction holding the table row lock (``table_lock``), so a table's lines
are numbered in the order they committed. A line is published to the table's group on commit
(``table.chat``, the line itself: chat is public to everyone at the table) without a version
change, so it reaches every socket without re-rendering the table.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.text import plain_text
from tables.models import ChatMessage, Player, Table, TableGuest
from tables.selectors.access import can_host, can_see_table
from tables.selectors.chat import ChatLine, chat_refusal, is_muted
from tables.services.errors import (
    ChatMuted,
    ChatNotAllowed,
    ChatTooFast,
    InvalidChatMessage,
    NotHost,
)
from tables.services.events import table_event_on_commit, table_lock

#: The longest message, in characters (``ChatMessage.text``'s length).
CHAT_MAX_LENGTH = 280
#: A player may send ``CHAT_BURST`` lines at a table within ``CHAT_WINDOW_SECONDS``.
CHAT_BURST = 5
CHAT_WINDOW_SECONDS = 10


def chat_text(text: object) -> str:
    """The message as it is stored: plain text on one line (``engine.text.plain_text``: line
    breaks, tabs and controls become spaces; bidi overrides and zero-width characters go),
    trimmed; ``InvalidChatMessage`` if empty or longer than ``CHAT_MAX_LENGTH``."""
    if not isinstance(text, str):
        raise InvalidChatMessage("A chat message is text.")
    text = plain_text(text).strip()
    if not text:
        raise InvalidChatMessage("Type a message first.")
    if len(text) > CHAT_MAX_LENGTH:
        raise InvalidChatMessage(
            f"A chat message has at most {CHAT_MAX_LENGTH} characters (this one has {len(text)})."
        )
    return text


def chat_event(table_id: int, line: ChatLine) -> dict[str, Any]:
    return {"type": "table.chat", "table_id": table_id, "line": line.to_dict()}


def chat_post(*, table: Table | int, player: Player, text: object) -> ChatMessage:
    """``player`` says ``text`` at ``table``.

    Lock: table row. Players seated and the host may chat, spectators when
    ``Table.spectator_chat``; not once the game is closed, nor a player the host muted, nor
    more than ``CHAT_BURST`` lines in ``CHAT_WINDOW_SECONDS``.
    """
    text = chat_text(text)
    with transaction.atomic():
        table = table_lock(table)
        refusal = chat_refusal(table, player)
        if refusal is not None:
            raise ChatNotAllowed(refusal)
        if is_muted(table, player):
            raise ChatMuted("The host muted your chat at this game.")
        since = timezone.now() - timedelta(seconds=CHAT_WINDOW_SECONDS)
        recent = ChatMessage.objects.filter(table=table, player=player, created_at__gte=since)
        if recent.count() >= CHAT_BURST:
            raise ChatTooFast(
                f"Slow down: at most {CHAT_BURST} messages in {CHAT_WINDOW_SECONDS} seconds."
            )
        message = ChatMessage.objects.create(table=table, player=player, text=text)
        line = ChatLine(message.pk, player.pk, player.name, text, message.created_at)
        table_event_on_commit(chat_event(table.pk, line))
        return message


def chat_mute(*, table: Table | int, host: Player, player_id: int, muted: bool) -> TableGuest:
    """The host mutes (or unmutes) a player's chat at their game.

    Lock: table row. Only the host (or staff) of ``table``; the player must be one who may see
    the game. Keeps the player's ``TableGuest`` row (created if they had none). Published to
    the table's group on commit (``table.chat`` with ``mute``): the host's screens update
    their list, the player's says so.
    """
    with transaction.atomic():
        table = table_lock(table)
        if not can_host(table, host.user):
            raise NotHost("Only the host can mute players at this game.")
        target = Player.objects.select_related("user").filter(pk=player_id).first()
        if target is None or not can_see_table(table, target.user):
            raise ChatNotAllowed("No such player at this game.")
        if target.pk == host.pk:
            raise ChatNotAllowed("You cannot mute yourself.")
        guest, _ = TableGuest.objects.get_or_create(table=table, player=target)
        if guest.muted != muted:
            guest.muted = muted
            guest.save(update_fields=["muted"])
        table_event_on_commit(
            {
                "type": "table.chat",
                "table_id": table.pk,
                "mute": {"player_id": target.pk, "player": target.name, "muted": muted},
            }
        )
        return guest
