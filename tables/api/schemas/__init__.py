"""The JSON Schemas of what the play API sends, one file each, read once.

``PLAY_STATE``: the play state (``tables.presenters.play_state``), answered by the REST play
endpoints and carried by the ``?state=json`` socket's state frames.
"""

import json
from pathlib import Path

_HERE = Path(__file__).parent


def load(name: str) -> dict:
    """The schema ``<name>.json`` in this folder."""
    return json.loads((_HERE / f"{name}.json").read_text(encoding="utf-8"))


PLAY_STATE = load("play_state")
