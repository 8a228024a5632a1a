"""The chat side of the table socket (a base class of ``TableConsumer``).

A chat line is not a change of the table (no version): the service publishes it to the table's
group as ``table.chat`` and the process's ``TableRuntime`` hands it to each socket, which sends
it as it is for its viewer (appended to the list; the host's with mute buttons; who hosts is
followed at each version of the table that changes it: ``chat_follow_host``). Each socket
skips a line it has sent (it may come twice: in a join's history and as itself), and the last
``CHAT_HISTORY`` lines come when it joins (a reload, a reconnect), in the one order the table
lock gave them.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from channels.generic.websocket import AsyncWebsocketConsumer

from tables.db.threads import read_async
from tables.presenters.chat import (
    chat_lines_html,
    chat_lines_json,
    chat_mute_json,
    chat_muted_html,
    you_are_muted_html,
)
from tables.selectors.access import hosts
from tables.selectors.chat import ChatLine, chat_on_join

if TYPE_CHECKING:
    from tables.http import Viewer
    from tables.models import Player, Table


class ChatSocket(AsyncWebsocketConsumer):
    chat_seen = 0  # the newest line sent to this socket
    chat_host = False  # its viewer runs the game: mute controls
    chat_host_of: int | None = -1  # the table's host when ``chat_host`` was last looked at
    chat_muted: dict[int, str] = {}  # for the host: who is muted
    chat_lock: asyncio.Lock | None = None  # the join's history before any later line

    if TYPE_CHECKING:  # the table socket's own (``TableConsumer``)
        json_state: bool
        room_screen: bool
        closed: bool
        table_id: int
        user: Viewer | None
        player: Player | None

    def _chat_viewer(self) -> Viewer:
        assert self.user is not None  # chat follows a socket that joined: logged in
        return self.user

    def _chat_frame(self, lines: list[ChatLine], replace: bool) -> str:
        if self.json_state:
            return chat_lines_json(lines, replace=replace)
        viewer = self.player.pk if self.player is not None else None
        return chat_lines_html(lines, replace=replace, host_view=self.chat_host, viewer_id=viewer)

    async def chat_join(self) -> None:
        """Send the last lines of the chat (none: nothing to send, the page shows it empty;
        none to a room screen: it shows the table, not the talk)."""
        if self.room_screen:
            return
        self.chat_lock = self.chat_lock or asyncio.Lock()
        async with self.chat_lock:
            lines, self.chat_host, muted = await read_async(chat_on_join)(
                self.table_id, self._chat_viewer()
            )
            self.chat_muted = dict(muted)
            if self.closed:
                return
            if lines:
                self.chat_seen = lines[-1].id
                await self.send(text_data=self._chat_frame(lines, replace=True))
            if self.chat_muted and not self.json_state:
                await self.send(text_data=chat_muted_html(self.chat_muted))

    async def chat_follow_host(self, table: Table) -> None:
        """``table`` (a new version) says who hosts now: after a hand-over the new host's
        screens get the mute buttons and the muted list, the old host's lose them, without a
        reload. Called only when the table's host is not ``chat_host_of`` (a version that
        keeps it looks at nothing of the chat)."""
        self.chat_host_of = table.host_id
        if self.chat_lock is None or self.json_state:  # not joined yet: chat_join reads it
            return
        if hosts(table, self._chat_viewer(), self.player) == self.chat_host:
            return
        async with self.chat_lock:
            lines, self.chat_host, muted = await read_async(chat_on_join)(
                self.table_id, self._chat_viewer()
            )
            self.chat_muted = dict(muted)
            if self.closed:
                return
            if lines:
                self.chat_seen = max(self.chat_seen, lines[-1].id)
                await self.send(text_data=self._chat_frame(lines, replace=True))
            await self.send(text_data=chat_muted_html(self.chat_muted))

    async def table_chat(self, event: dict[str, Any]) -> None:
        """A chat line or a mute, from the table's runtime (none to a room screen)."""
        if self.closed or self.room_screen:
            return
        self.chat_lock = self.chat_lock or asyncio.Lock()
        async with self.chat_lock:
            if "line" in event:
                line = ChatLine.from_dict(event["line"])
                if line.id <= self.chat_seen or self.closed:
                    return
                self.chat_seen = line.id
                await self.send(text_data=self._chat_frame([line], replace=False))
            elif "mute" in event:
                await self._chat_mute(event["mute"])

    async def _chat_mute(self, mute: dict[str, Any]) -> None:
        if self.json_state:
            await self.send(text_data=chat_mute_json(mute))
            return
        if self.chat_host:
            if mute["muted"]:
                self.chat_muted[mute["player_id"]] = mute["player"]
            else:
                self.chat_muted.pop(mute["player_id"], None)
            await self.send(text_data=chat_muted_html(self.chat_muted))
        elif self.player is not None and self.player.pk == mute["player_id"]:
            await self.send(text_data=you_are_muted_html(mute["muted"]))
