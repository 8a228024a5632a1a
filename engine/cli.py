"""``python -m engine``: a small command line over the engine.

Subcommands are registered in ``COMMANDS``: each entry names a module that defines
``add_<name>_parser(subparsers)``. That function adds its parser with
``subparsers.add_parser(name, help=...)`` and sets ``run=<function(args) -> int exit code>``
via ``set_defaults``. Modules are imported only when the command line is built, so a
subcommand's module may import anything in ``engine``. To add a subcommand, write
``add_<name>_parser`` in your module and add one line to ``COMMANDS``.

Bad input (any ``ValueError``, which includes every ``engine.errors.PokerError``) prints one
line, ``error: ...``, on stderr and exits with status 2; nothing prints a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import TypeAlias

from engine.cards import format_cards, parse_cards
from engine.deck import (
    commitment,
    deal_round_robin,
    fresh_deck,
    seeded_deck,
    shuffled_deck,
    verify,
)
from engine.evaluate import best_hands, evaluate

#: What each module's ``add_<name>_parser`` is given.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

# (subcommand, module defining add_<subcommand>_parser), in the order --help lists them.
COMMANDS: list[tuple[str, str]] = [
    ("deal", "engine.cli"),
    ("best", "engine.cli"),
    ("equity", "engine.cli"),
    ("verify", "engine.cli"),
    ("replay", "engine.phh.replay"),
    ("convert", "engine.pkstate.convert"),
]

EXIT_BAD_INPUT = 2
EXIT_MISMATCH = 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine", description="Poker engine: deal, judge and compute equity."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name in COMMANDS:
        module = importlib.import_module(module_name)
        getattr(module, f"add_{name}_parser")(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except (ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


# --- deal -------------------------------------------------------------------------------


def add_deal_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "deal",
        help="shuffle a deck, deal hands round-robin and name the winner(s)",
        description="The kitchen-table demo: a fresh deck, the shuffled deck, each player's "
        "sorted hand with its class, and the winner(s).",
    )
    parser.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    parser.add_argument("--cards", type=int, default=5, help="cards per player, 5 to 7 (default 5)")
    parser.add_argument(
        "--seed", help="provably fair mode: derive the deck from this seed and print its commitment"
    )
    parser.set_defaults(run=run_deal)


def run_deal(args: argparse.Namespace) -> int:
    if not 5 <= args.cards <= 7:
        raise ValueError(f"--cards must be 5, 6 or 7, not {args.cards}")
    if args.players < 2:
        raise ValueError(f"at least 2 players are needed to deal, not {args.players} (--players)")
    if args.players * args.cards > 52:
        raise ValueError(f"cannot deal {args.cards} cards to {args.players} players from one deck")
    print("Fresh deck:   ", format_cards(fresh_deck(), " "))
    if args.seed is not None:
        deck = seeded_deck(args.seed)
        print("Commitment:   ", commitment(args.seed), "(sha256 of the seed)")
    else:
        deck = shuffled_deck()
    print("Shuffled deck:", format_cards(deck, " "))
    hands = deal_round_robin(deck, args.players, args.cards)
    ranks = [evaluate(hand) for hand in hands]
    width = len(f"Player {args.players}")
    for seat, (hand, rank) in enumerate(zip(hands, ranks, strict=True), start=1):
        shown = format_cards(sorted(hand, reverse=True), " ")
        print(f"{f'Player {seat}':<{width}}  {shown}  {rank.description}")
    best = max(ranks)
    winners = [f"Player {seat}" for seat, rank in enumerate(ranks, start=1) if rank == best]
    label = "Winner" if len(winners) == 1 else "Winners (split)"
    print(f"{label}: {', '.join(winners)} with {best.description}")
    return 0


# --- best -------------------------------------------------------------------------------


def add_best_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "best",
        help="print the winning five-card hand(s), exactly as given",
        description="Print the hand(s) that tie for best, one per line, in input order. "
        'Example: best "4S 5S 7H 8D JC" "2S 4C 7S 9H 10H"',
    )
    parser.add_argument(
        "hands", nargs="+", metavar="HAND", help='five cards, e.g. "4S 5S 7H 8D JC"'
    )
    parser.set_defaults(run=run_best)


def run_best(args: argparse.Namespace) -> int:
    for hand in best_hands(args.hands):
        print(hand)
    return 0


# --- equity -----------------------------------------------------------------------------


def add_equity_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "equity",
        help="win/tie/equity of two or more hands, exact when possible",
        description="Equity of Hold'em (2 cards) or Omaha (4 cards) hands, e.g. "
        "equity AhKh QsQd --board 2h3h4c. Exact enumeration when the boards can "
        "be enumerated, otherwise Monte Carlo with its standard error.",
    )
    parser.add_argument("hands", nargs="+", metavar="HAND", help="a hand, e.g. AhKh")
    parser.add_argument("--board", default="", help="cards already on the board, e.g. 2h3h4c")
    parser.add_argument("--dead", default="", help="cards known to be out of play")
    parser.add_argument("--samples", type=int, help="force Monte Carlo with this many boards")
    parser.add_argument("--seed", type=int, help="seed for Monte Carlo (reproducible runs)")
    parser.set_defaults(run=run_equity)


def run_equity(args: argparse.Namespace) -> int:
    from engine.equity import equity  # here: NumPy loads for this command only

    if args.seed is not None and args.seed < 0:
        raise ValueError(f"--seed must be 0 or more, not {args.seed}")
    hands = [parse_cards(hand) for hand in args.hands]
    result = equity(
        hands, parse_cards(args.board), parse_cards(args.dead), samples=args.samples, rng=args.seed
    )
    print(result)
    return 0


# --- verify -----------------------------------------------------------------------------


def add_verify_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check a revealed shuffle seed against the commitment published at the deal",
        description="A provably fair hand: the seed must hash (SHA-256) to the commitment shown "
        "when the hand was dealt; prints the deck the seed stands for, in dealing order, to "
        "compare with the cards dealt (or give them with --deck). Exit status 0 when it "
        "checks, 1 when it does not.",
    )
    parser.add_argument("seed", metavar="SEED", help="the seed revealed after the hand")
    parser.add_argument("commitment", metavar="COMMITMENT", help="the sha256 published at the deal")
    parser.add_argument("--deck", help='the deck dealt, in dealing order, e.g. "As Kd 7c ..."')
    parser.set_defaults(run=run_verify)


def run_verify(args: argparse.Namespace) -> int:
    digest, published = commitment(args.seed), args.commitment.strip().lower()
    deck = seeded_deck(args.seed)
    print("sha256(seed): ", digest)
    print("Commitment:   ", published)
    print("Deck (seed):  ", format_cards(deck, " "))
    if digest != published:
        print("MISMATCH: the seed does not hash to the commitment")
        return EXIT_MISMATCH
    if args.deck is not None and not verify(args.seed, digest, parse_cards(args.deck)):
        print("MISMATCH: the deck given is not the deck the seed stands for")
        return EXIT_MISMATCH
    print("OK: the seed hashes to the commitment" + (" and gives the deck" if args.deck else ""))
    return 0
