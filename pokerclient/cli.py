"""``poker``: play from a terminal, watch a table, read your hands and statistics, run a bot.

Every command talks to the server only through the documented REST API (``/api/``) and the
table socket's protocol (``/api/asyncapi.json``). An error is one line on stderr, exit 1.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import sys
from collections.abc import Callable
from typing import Any

from pokerclient.config import ClientError, Config, config_path
from pokerclient.rest import Api


def _api(config: Config, token: bool = True) -> Api:
    return Api(config.server, config.need_token() if token else config.token)


def login(config: Config, args: argparse.Namespace) -> None:
    username = args.username or input("Username: ").strip()
    # From a pipe (a script) the password is the first line of input, unechoed anyway.
    password = (
        getpass.getpass("Password: ") if sys.stdin.isatty() else sys.stdin.readline().rstrip("\n")
    )
    config.token = Api(config.server).token(username, password)
    config.username = username
    path = config.save()
    print(f"Logged in as {username} on {config.server} (token saved in {path}).")


def tables(config: Config, args: argparse.Namespace) -> None:
    rows = _api(config, token=False).every("tables/")
    if not rows:
        print("No open tables.")
    for row in rows:
        seated = sum(1 for seat in row.get("seats", []) if seat.get("player") or seat.get("name"))
        print(
            f"{row['id']:>5}  {row['name'][:28]:<28} {row['variant']:<22} {row['stakes']:>9}"
            f"  {seated}/{row['max_seats']} seated  {_entry(row)}  {row['status']}"
        )


def _entry(row: dict[str, Any]) -> str:
    """How one joins the table: a cash table's buy-in range, or the tournament it belongs to
    (its players are seated by it) with its level."""
    tournament = row.get("tournament")
    if tournament is None:
        return f"buy-in {row['min_buy_in']}-{row['max_buy_in']}"
    level = tournament["level"]
    following = f", next {tournament['next_blinds']}" if tournament["next_blinds"] else ""
    return (
        f"tournament #{tournament['id']} {tournament['name'][:24]},"
        f" level {level['number']} {tournament['blinds']}{following}"
    )


def hands(config: Config, args: argparse.Namespace) -> None:
    params = {"table": args.table} if args.table else {}
    rows = _api(config).every("hands/", limit=args.limit, **params)
    if not rows:
        print("No finished hands yet.")
    for row in rows:
        when = (row.get("finished_at") or "")[:19].replace("T", " ")
        print(
            f"{row['id']:>7}  {when}  {row['table_name'][:20]:<20} #{row['number']:<5}"
            f" pot {row['pot']:>6}  net {row['net']:>+6}  {row['result']}"
        )


def hand(config: Config, args: argparse.Namespace) -> None:
    api = _api(config)
    if args.phh:
        print(api.text(f"hands/{args.id}/phh/"), end="")
        return
    history = api.get(f"hands/{args.id}/")
    print(f"Hand {history['id']}: {history['table']['name']} #{history['number']}")
    for seat in history["seats"]:
        cards = " ".join(card or "??" for card in seat["cards"]) or "--"
        # the API's table_seat counts from 0; the table, the play state and this client from 1
        print(
            f"  seat {seat['table_seat'] + 1:>2} {seat['name'][:16]:<16} {cards:<12}"
            f" {seat['starting_stack']:>6} -> {seat['final_stack']:<6} ({seat['net']:+})"
        )
    print("  board: " + (" ".join(history["board"]) or "--"))
    for line in _hand_story(history):
        print("  " + line)


#: A decision in words, from its kind and its street total (the API's ``actions``), as the
#: table's log says them.
DECISION_WORDS: dict[str, Callable[[int], str]] = {
    "fold": lambda amount: "folds",
    "check": lambda amount: "checks",
    "call": lambda amount: "calls",
    "bet": lambda amount: f"bets to {amount}",
    "raise": lambda amount: f"raises to {amount}",
    "bring_in": lambda amount: f"brings in for {amount}",
}


def _hand_story(history: dict[str, Any]) -> list[str]:
    """The hand's decisions street by street and who won what, by name: the API's log lines
    number players p1, p2... in the hand's order, a third numbering (``--phh`` prints them)."""
    lines: list[str] = []
    for action in history["actions"]:
        said = f"{action['name']} {DECISION_WORDS[action['kind']](action['amount'])}"
        if lines and lines[-1].startswith(action["street"] + ":"):
            lines[-1] += ", " + said
        else:
            lines.append(f"{action['street']}: {said}")
    names = {seat["seat"]: seat["name"] for seat in history["seats"]}
    for award in (history.get("result") or {}).get("awards", []):
        for winner, amount in zip(award["winners"], award["amounts"], strict=True):
            described = f" ({award['description']})" if award.get("description") else ""
            lines.append(f"{names[winner]} wins {amount}{described}")
    return lines


STAT_LINES = (
    ("hands", "hands"),
    ("cash_hands", "cash hands"),
    ("net_won", "net won (cash)"),
    ("bb_per_100", "bb/100 (cash)"),
    ("vpip", "VPIP %"),
    ("pfr", "PFR %"),
    ("three_bet", "3-bet %"),
    ("aggression_factor", "aggression"),
    ("wtsd", "went to showdown %"),
    ("wsd", "won at showdown %"),
    ("biggest_pot_won", "biggest pot (cash)"),
)
TOURNAMENT_LINES = (
    ("played", "tournaments"),
    ("wins", "wins"),
    ("in_the_money_percent", "in the money %"),
    ("entry_fees", "entry fees"),
    ("prizes", "prizes"),
    ("roi", "return on fees %"),
)


def _stat_line(label: str, value: object) -> str:
    shown = "-" if value is None else (f"{value:.1f}" if isinstance(value, float) else value)
    return f"  {label:<20} {shown}"


def stats(config: Config, args: argparse.Namespace) -> None:
    api = _api(config)
    if args.player is None:
        body = api.get("players/me/stats/")
    else:
        body = api.get(f"players/{_player_id(api, args.player)}/stats/")
    print(f"{body['name']}")
    for key, label in STAT_LINES:
        print(_stat_line(label, body.get(key)))
    tournaments = body.get("tournaments") or {}
    for key, label in TOURNAMENT_LINES if tournaments else ():
        print(_stat_line(label, tournaments.get(key)))


def _player_id(api: Api, player: str) -> int:
    """A player's id from their id or their name (looked up on the leaderboard)."""
    if player.isascii() and player.isdigit():
        return int(player)
    for row in api.every("leaderboard/", min_hands=0):
        if row["name"].lower() == player.lower():
            player_id: int = row["player_id"]
            return player_id
    raise ClientError(f"no player named {player!r} on the leaderboard")


def bot(config: Config, args: argparse.Namespace) -> None:
    from pokerclient.bots import BotRunner, load_policy
    from pokerclient.live import TableSocket

    policy = load_policy(args.policy, seed=args.seed)
    token = config.need_token()

    trace_file = open(args.trace, "a", encoding="utf-8") if args.trace else None  # noqa: SIM115

    def trace(direction: str, frame: str) -> None:
        assert trace_file is not None  # the socket gets this tracer only when the file is open
        trace_file.write(json.dumps({"direction": direction, "frame": frame}) + "\n")
        trace_file.flush()

    def socket_of(**handlers: Any) -> TableSocket:
        return TableSocket(
            config.server, args.table, token, trace=trace if trace_file else None, **handlers
        )

    def say(line: str) -> None:
        print(line, flush=True)

    runner = BotRunner(socket_of, policy, buy_in=args.buy_in, hands=args.hands, say=say)
    try:
        played = asyncio.run(runner.run())
    finally:
        if trace_file is not None:
            trace_file.close()
    print(f"Played {played} hands.", flush=True)


def play(config: Config, args: argparse.Namespace, watch_only: bool = False) -> None:
    from pokerclient.tui import PlayApp, TableApp

    app_class = TableApp if watch_only else PlayApp
    app_class(config.server, config.need_token(), args.table).run()


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="poker", description="Play poker from a terminal: tables, hands, statistics, bots."
    )
    top.add_argument("--server", help=f"the site's address (else the one in {config_path()})")
    commands = top.add_subparsers(dest="command", required=True, metavar="command")

    def command(name: str, run: Callable[..., Any], summary: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=summary, description=summary)
        sub.set_defaults(run=run)
        return sub

    command("login", login, "log in and keep the API token").add_argument("username", nargs="?")
    command("tables", tables, "list the open tables")
    for name, summary, watch_only in (
        ("watch", "watch a table (full screen)", True),
        ("play", "play at a table (full screen)", False),
    ):
        sub = command(name, lambda c, a, w=watch_only: play(c, a, w), summary)
        sub.add_argument("table", type=int)
    sub = command("hands", hands, "your finished hands, newest first")
    sub.add_argument("--table", type=int)
    sub.add_argument("--limit", type=int, default=20)
    sub = command("hand", hand, "one finished hand's history")
    sub.add_argument("id", type=int)
    sub.add_argument("--phh", action="store_true", help="as a PHH file")
    sub = command("stats", stats, "statistics: yours, or a player's (name or id)")
    sub.add_argument("player", nargs="?")
    sub = command("bot", bot, "play a seat with a policy")
    sub.add_argument("table", type=int)
    sub.add_argument(
        "--policy", default="sensible", help="sensible, random or package.module:function"
    )
    sub.add_argument("--buy-in", type=int, help="sit down with this many chips when seatless")
    sub.add_argument("--hands", type=int, help="leave after this many hands")
    sub.add_argument("--seed", type=int, help="seed the sensible and random policies")
    sub.add_argument("--trace", help="append every socket frame to this file (JSON lines)")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        config = Config.load(args.server)
        args.run(config, args)
    except ClientError as error:
        print(f"poker: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
