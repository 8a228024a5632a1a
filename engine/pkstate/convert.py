"""``python -m engine convert FILE --to yaml|phh|pokerstars``: a hand between PHH and pkstate
YAML, or one or more hands as PokerStars text (``engine.pokerstars``)."""

from __future__ import annotations

import argparse
from collections.abc import Collection
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from engine import phh
from engine.errors import HandHistoryError
from engine.hand import Hand
from engine.pkstate.model import PKState
from engine.pkstate.read import load
from engine.pkstate.write import dumps
from engine.pokernow import import_log
from engine.pokerstars import Header, hand_text, histories_text

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
        help="convert a hand between PHH and pkstate YAML, or hands to PokerStars text",
        description="Read a hand (FILE.phh, or pkstate FILE.yaml/.yml), replay it through the "
        "state machine and print it as --to says. Cards the file does not name "
        "stay unknown. --to pokerstars takes one or more files and prints their hands as "
        "one PokerStars hand-history file, every hole card the files name included.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument(
        "--to", required=True, choices=("yaml", "phh", "pokerstars"), help="the format to print"
    )
    parser.add_argument(
        "--from",
        dest="source",
        choices=("pokernow",),
        help="read a PokerNow game log (LOG.csv) instead: one PHH file per hand into --out",
    )
    parser.add_argument("--out", metavar="DIR", help="the folder for --from pokernow's files")
    parser.set_defaults(run=run_convert)


def run_pokernow(args: argparse.Namespace) -> int:
    """A PokerNow log as PHH files named by hand number; the hands skipped, with why."""
    if args.to != "phh" or not args.out or len(args.files) != 1:
        raise HandHistoryError("--from pokernow takes one LOG.csv, --to phh and --out DIR")
    imported = import_log(phh.read_text(Path(args.files[0])))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for hand in imported.hands:
        (out / f"hand-{hand.number}.phh").write_text(hand.phh, encoding="utf-8")
    print(f"imported {len(imported.hands)} hands into {out} (unit {imported.unit})")
    for skipped in imported.skipped:
        print(f"skipped hand #{skipped.number}: {skipped.reason}")
    return 0


def _pokerstars_header(path: str, number: int, state: PKState | None) -> Header:
    """A hand's PokerStars header from what its file says: the PHH ``hand``, ``table`` and
    date fields, or the pkstate id and time; else its place among the files."""
    if state is not None:
        own_id = state.id or ""
        hand_id = int(own_id) if own_id.isascii() and own_id.isdigit() else number
        return Header(hand_id=hand_id, table=Path(path).stem, started_at=state.datetime)
    extra = phh.load(path).extra
    phh_hand = extra.get("hand")
    when = None
    if all(isinstance(extra.get(k), int) for k in ("year", "month", "day")):
        when = datetime(extra["year"], extra["month"], extra["day"], tzinfo=UTC)
    return Header(
        hand_id=phh_hand if isinstance(phh_hand, int) and phh_hand >= 0 else number,
        table=str(extra.get("table", Path(path).stem)),
        started_at=when,
    )


def run_convert(args: argparse.Namespace) -> int:
    if args.source == "pokernow":
        return run_pokernow(args)
    if args.to == "pokerstars":
        texts = []
        for number, path in enumerate(args.files, start=1):
            hand, known, state = read_hand(path)
            header = _pokerstars_header(path, number, state)
            texts.append(hand_text(hand, header=header, everything=True, known_cards=known))
        print(histories_text(texts), end="", flush=True)
        return 0
    if len(args.files) != 1:
        raise HandHistoryError(f"--to {args.to} converts one file at a time")
    hand, known, state = read_hand(args.files[0])
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
