"""Reads of a table's chat: the recent lines, who may chat, who is muted."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model

from tables.models import ChatMessage, Player, Seat, Table, TableGuest
from tables.selectors.access import can_host, can_see_table

if TYPE_CHECKING:
    from tables.selectors.access import Viewer

#: Lines a socket gets when it joins (and a reloaded page).
CHAT_HISTORY = 100


@dataclass(frozen=True)
class ChatLine:
    """One chat message as every viewer sees it: plain text, escaped wherever it is shown."""

    id: int
    player_id: int
    name: str
    text: str
    at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "player_id": self.player_id,
            "player": self.name,
            "text": self.text,
            "at": self.at.isoformat(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChatLine:
        return cls(
            data["id"],
            data["player_id"],
            data["player"],
            data["text"],
            datetime.fromisoformat(data["at"]),
        )


def _username() -> str:
    return f"player__user__{get_user_model().USERNAME_FIELD}"


def recent_chat(table_id: int, limit: int = CHAT_HISTORY) -> list[ChatLine]:
    """The last ``limit`` lines of the table's chat, oldest first."""
    rows = (
        ChatMessage.objects.filter(table_id=table_id)
        .order_by("-id")
        .values_list("id", "player_id", _username(), "text", "created_at")[:limit]
    )
    return [ChatLine(*row) for row in reversed(rows)]


def muted_players(table_id: int) -> dict[int, str]:
    """player id -> name of the players the host muted at this table."""
    username = f"player__user__{get_user_model().USERNAME_FIELD}"
    return dict(
        TableGuest.objects.filter(table_id=table_id, muted=True)
        .order_by(username)
        .values_list("player_id", username)
    )


def chat_refusal(table: Table, player: Player) -> str | None:
    """Why ``player`` may not chat at ``table`` now (None: they may). Players seated and the
    host may; spectators who may see the table when the host allows spectator chat."""
    if table.status == Table.Status.CLOSED:
        return f"{table.name} is closed: its chat is kept, read-only."
    if can_host(table, player.user) or Seat.objects.filter(table=table, player=player).exists():
        return None
    if not table.spectator_chat:
        return "Only the players chat at this table: take a seat to join in."
    if not can_see_table(table, player.user):
        return "No such table."
    return None


def is_muted(table: Table, player: Player) -> bool:
    return TableGuest.objects.filter(table=table, player=player, muted=True).exists()


def chat_on_join(table_id: int, user: Viewer) -> tuple[list[ChatLine], bool, dict[int, str]]:
    """What a socket needs when it joins: the recent lines, whether its viewer runs the game
    (and sees the mute controls), and who is muted (for the host only, else empty)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return [], False, {}
    hosting = can_host(table, user)
    return recent_chat(table_id), hosting, muted_players(table_id) if hosting else {}
