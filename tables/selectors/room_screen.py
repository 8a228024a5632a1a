"""Who may open a table's room screen (issue 53): ``/tables/<id>/tv/`` and its socket.

The room screen is a spectator's view of the table (never a hole card, never a control): a
public table's is anyone's, as its page is. A private game's spectators are refused, so its
room screen needs its host's leave: the key in the room screen's link, which only the host's
panel shows. The key is made from the game's invite token (a keyed hash, nothing stored):
a game without an invite link has no room screen, and replacing the invite link ("New link")
ends the old room screen's link with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.crypto import constant_time_compare, salted_hmac

if TYPE_CHECKING:
    from tables.models import Table

_SALT = "tables.room_screen"


def room_screen_key(table: Table) -> str | None:
    """The key of a private game's room screen link (None: it has no invite link)."""
    if not table.invite_token:
        return None
    return salted_hmac(_SALT, f"{table.pk}:{table.invite_token}").hexdigest()[:32]


def room_screen_allowed(table: Table, key: str | None) -> bool:
    """Whether a room screen given ``key`` (from its link) may show ``table``: a public
    table's always, a private game's only with its host's key."""
    if not table.private:
        return True
    expected = room_screen_key(table)
    return expected is not None and key is not None and constant_time_compare(expected, key)
