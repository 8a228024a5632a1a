"""The no-leak check over every frame the harness's players received (issue 55):
``python -m deploy.hosts.leaks FILE...``, run by a scenario with the app hosts' settings (it
reads the hands from the site's database, with the server's secrets).

The files are the clients' (``bench/load_players.py`` with ``frames_file``), one JSON object a
line: a player's state (``?state=json``, as it stood after each frame, updates applied) or a
table page's HTML frame (the first player's browser socket at each table, ``page`` marking a
new socket). Both are checked with the project's own checker (``tests/tables/live/
test_no_leak.py``: ``violations`` for the pages, exactly as the test checks them; its
``disallowed`` for the states): every card a frame shows must be the board as far as it is
dealt, the viewer's own hole cards, a hand shown at showdown once the hand is over, or, face
up, a live hand once nobody can bet any more. Prints one line of figures and a JSON summary
last; exits 1 on a leak.
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

#: The streets whose board the checker knows (hold'em's, and a hand over whose result is
#: on the felt); a state on another is counted, not checked.
CHECKED_STREETS = ("preflop", "flop", "turn", "river", "over")


def state_cards(state: dict[str, Any]) -> tuple[list[str], bool]:
    """Every card a play state (``tables/presenters/play_state.py``) shows on the felt (each
    seat's, the board), and whether another player's cards are among them (face up)."""
    cards, others = [], False
    for seat in state.get("seats", []):
        # every card a seat shows is in "cards" ("up" flags which of them are face up)
        shown = [c for c in seat.get("cards", []) if isinstance(c, str)]
        cards += shown
        others |= bool(shown) and not seat.get("is_you")
    return cards + list(state.get("board") or []), others


def view_cards(view: dict[str, Any] | None) -> tuple[list[str], bool]:
    """The same for the engine's view of the hand (``engine.view.View.to_dict``), which a
    socket's frame carries beside the play state: the seats' cards and the board."""
    if not view:
        return [], False
    cards, others = [], False
    for index, seat in enumerate(view.get("seats", [])):
        shown = [c for c in seat.get("cards", []) if isinstance(c, str)]
        cards += shown
        others |= bool(shown) and index != view.get("viewer")
    return cards + list(view.get("board") or []), others


def check_state(entry: dict[str, Any], facts: Any, hand_of: Any) -> list[str] | None:
    """The cards a socket's JSON frame (``{"state": play state, "view": the engine's view,
    "hand", "running"}``, as the client holds it after each frame) may not show its viewer
    (None: not checked, another game's streets)."""
    from tests.tables.live.test_no_leak import disallowed

    frame = entry["state"]
    played, played_others = state_cards(frame["state"])
    viewed, viewed_others = view_cards(frame.get("view"))
    cards, others = played + viewed, played_others or viewed_others
    view = frame.get("view") or {}
    if frame.get("running") and frame.get("hand"):
        hand, street = frame["hand"], view.get("street") or frame["state"].get("street")
        if street not in CHECKED_STREETS:
            return None
        face_up = "1" if others and street != "over" else None
    else:
        if frame["state"].get("hand_number") is None:
            return cards  # no hand yet at this table: no card may show
        hand, street, face_up = hand_of(entry["table"], frame["state"]["hand_number"]), "over", None
    return disallowed(cards, entry["viewer"], facts, (str(hand), street, face_up))


def check_frames(spec: dict[str, Any], prefix: str) -> dict[str, Any]:
    """Run this check (a process with the app hosts' settings) over the clients' files named
    ``prefix.*``; returns its summary with ``line``, the figures as printed, and removes the
    files."""
    paths = sorted(glob.glob(glob.escape(prefix) + ".*"))
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-m", "deploy.hosts.leaks", *paths],
        cwd=root,
        env={**os.environ, **spec["app_env"], "PYTHONPATH": str(root)},
        timeout=1800,
        capture_output=True,
        text=True,
    )
    for path in paths:
        os.unlink(path)
    lines = out.stdout.strip().splitlines()
    if len(lines) < 2:
        raise RuntimeError(f"the no-leak check did not finish:\n{out.stderr[-3000:]}")
    return {**json.loads(lines[-1]), "line": lines[-2]}


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings_production")
    import django

    django.setup()
    from tables.models import Hand
    from tests.tables.live.test_no_leak import Facts, seats_context, violations

    facts = Facts()
    numbers: dict[tuple[int, int], int] = {}

    def hand_of(table: int, number: int) -> int:
        if (table, number) not in numbers:
            numbers[table, number] = Hand.objects.get(table_id=table, number=number).pk
        return numbers[table, number]

    states = pages = 0
    unchecked: Counter[str] = Counter()
    leaks: list[dict[str, Any]] = []
    held: dict[int, Any] = {}  # each table page's seats context (hand, street, face-up)
    for path in sys.argv[1:]:
        with open(path, "rb") as frames:
            for line in frames:
                entry = json.loads(line)
                if "page" in entry:
                    held.pop(entry["table"], None)
                    continue
                if "html" in entry:
                    pages += 1
                    table = entry["table"]
                    bad = violations(entry["html"], entry["viewer"], facts, held.get(table))
                    held[table] = seats_context(entry["html"], held.get(table))
                else:
                    states += 1
                    found = check_state(entry, facts, hand_of)
                    if found is None:
                        unchecked[str((entry["state"].get("view") or {}).get("street"))] += 1
                        continue
                    bad = found
                if bad:
                    leaks.append({"table": entry["table"], "viewer": entry["viewer"], "cards": bad})
    print(
        f"no-leak check: {states} player states and {pages} page frames checked "
        f"({sum(unchecked.values())} states not checked, by street: {dict(unchecked)}): "
        f"{len(leaks)} with a card the "
        f"viewer may not see{': ' + json.dumps(leaks[:5]) if leaks else ''}",
        flush=True,
    )
    print(json.dumps({"states": states, "pages": pages, "leaks": len(leaks)}), flush=True)
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main())
