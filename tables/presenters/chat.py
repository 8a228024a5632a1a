"""The chat panel's HTML and JSON for one viewer (pure: lines in, text out).

A browser gets htmx out-of-band HTML: the whole list when it joins (``replace``), then each new
line appended; the host also gets a mute button beside other players' lines and the list of
muted players. A ``?state=json`` socket gets ``{"type": "chat", "lines", "replace"}`` and
``{"type": "chat_mute", "player_id", "player", "muted"}``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from tables.presenters.render import render, render_message

if TYPE_CHECKING:  # a type only: presenters import no reader
    from tables.selectors.chat import ChatLine

# A line is a ``tables.selectors.chat.ChatLine`` (id, player_id, name, text, at, to_dict()):
# not imported, as presenters import no reader.


def chat_lines_html(
    lines: list[ChatLine], *, replace: bool, host_view: bool = False, viewer_id: int | None = None
) -> str:
    return render(
        "tables/_chat_lines.html",
        lines=lines,
        replace=replace,
        host_view=host_view,
        viewer_id=viewer_id,
    )


def chat_muted_html(muted: dict[int, str]) -> str:
    return render("tables/_chat_muted.html", muted=sorted(muted.items(), key=lambda m: m[1]))


def chat_lines_json(lines: list[ChatLine], *, replace: bool) -> str:
    return json.dumps(
        {"type": "chat", "lines": [line.to_dict() for line in lines], "replace": replace}
    )


def chat_mute_json(mute: dict[str, object]) -> str:
    return json.dumps({"type": "chat_mute", **mute})


def you_are_muted_html(muted: bool) -> str:
    """What the muted (or unmuted) player's own screens say."""
    text = "The host muted your chat." if muted else "The host unmuted your chat."
    return render_message(text, oob=True, error=muted)
