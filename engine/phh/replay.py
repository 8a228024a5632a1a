"""The ``python -m engine replay`` subcommand: replay PHH files, print finishing stacks."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from engine.phh.read import load

if TYPE_CHECKING:
    import argparse

    from engine.cli import Subparsers


def add_replay_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay PHH hand histories through the state machine",
        description="Replay each PHH file through the hand state machine and print its "
        "finishing stacks (one JSON object per line and file with --json).",
    )
    parser.add_argument("files", nargs="+", metavar="FILE.phh")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.set_defaults(run=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    for name in args.files:
        hand = load(name).replay()
        if args.json:
            print(json.dumps({"file": name, "finishing_stacks": list(hand.stacks)}), flush=True)
        else:
            print(f"{name}: {' '.join(str(s) for s in hand.stacks)}", flush=True)
    return 0
