"""``python -m engine convert FILE --to yaml|phh``: a hand between PHH and pkstate YAML."""

from __future__ import annotations

import argparse
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from engine import phh
from engine.errors import HandHistoryError
from engine.hand import Hand
from engine.pkstate.model import PKState
from engine.pkstate.read import load
from engine.pkstate.write import dumps

if TYPE_CHECKING:
    from engine.cli import Subparsers


def read_hand(path: str | Path) -> tuple[Hand, Collection[int], PKState | None]:
    """A ``.phh``, ``.yaml`` or ``.yml`` file's hand, the cards it names, and its pkstate
    document when it is one."""
    suffix = Path(path).suffix.lower()
    if suffix == ".phh":
        history = phh.load(path)
        return history.replay(), history.known_cards(), None
    if suffix in (".yaml", ".yml"):
        state = load(path)
        return state.replay(), state.known_cards(), state
    raise HandHistoryError(f"{path}: cannot tell the format from the name: use .phh, .yaml or .yml")


def add_convert_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "convert",
        help="convert a hand between PHH and pkstate YAML",
        description="Read a hand (FILE.phh, or pkstate FILE.yaml/.yml), replay it through the "
        "state machine and print it as --to says. Cards the file does not name "
        "stay unknown.",
    )
    parser.add_argument("file", metavar="FILE")
    parser.add_argument("--to", required=True, choices=("yaml", "phh"), help="the format to print")
    parser.set_defaults(run=run_convert)


def run_convert(args: argparse.Namespace) -> int:
    hand, known, state = read_hand(args.file)
    if args.to == "phh":
        text = phh.dumps(hand, known_cards=known)
    else:
        text = dumps(
            hand,
            known_cards=known,
            id=state.id if state else None,
            datetime=state.datetime if state else None,
        )
    print(text, end="", flush=True)
    return 0
