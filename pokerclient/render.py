"""The play state drawn as Rich text for the terminal: pure functions, one per region."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

SUITS = {
    "h": ("♥", "bold red"),
    "d": ("♦", "bold bright_blue"),
    "c": ("♣", "bold green"),
    "s": ("♠", "bold white"),
}


def card_text(card: str | None) -> Text:
    """``Ah`` as a red ``A♥``; a hidden card as a face-down ``▒▒``."""
    if card is None:
        return Text("▒▒", style="blue")
    symbol, style = SUITS[card[1]]
    return Text(card[0].replace("T", "10") + symbol, style=style)


def cards_text(cards: list[Any]) -> Text:
    return Text(" ").join(card_text(card) for card in cards) if cards else Text("")


def seats_table(state: dict[str, Any]) -> Table:
    """Every seat: marks, name, stack, bet, cards and how it stands in the hand."""
    grid = Table(expand=True, show_edge=False, pad_edge=False, box=None)
    for column, justify in (
        ("", "left"),
        ("seat", "right"),
        ("player", "left"),
        ("stack", "right"),
        ("bet", "right"),
        ("cards", "left"),
        ("", "left"),
    ):
        grid.add_column(column, justify=justify)  # type: ignore[arg-type]
    actor = state.get("actor")
    gone = gone_players(state)
    for seat in state["seats"]:
        if seat["status"] == "empty" and seat["seat"] in gone:
            gone_name, cards, words = gone[seat["seat"]]
            grid.add_row(
                "",
                str(seat["seat"]),
                Text(gone_name, style="dim"),
                "",
                "",
                cards_text(cards),
                Text(words, style="dim"),
            )
            continue
        if seat["status"] == "empty":
            grid.add_row("", str(seat["seat"]), Text("(empty)", style="dim"), "", "", "", "")
            continue
        marks = ("▶" if seat["seat"] == actor else " ") + (
            "D"
            if seat["is_button"]
            else "s"
            if seat["is_small_blind"]
            else "b"
            if seat["is_big_blind"]
            else " "
        )
        name = Text(
            seat["name"] + (" [bot]" if seat["is_bot"] else ""),
            style="bold yellow" if seat["is_you"] else "",
        )
        status = seat["status"].replace("_", " ")
        if seat["won"]:
            status = f"won {seat['won']}"
        grid.add_row(
            marks,
            str(seat["seat"]),
            name,
            str(seat["stack"]),
            str(seat["bet"] or ""),
            cards_text(seat["cards"]),
            Text(
                status
                + (f"  {seat['description']}" if seat["description"] else "")
                + "".join(f"  {chance}%" for chance in seat.get("chances", ())),
                style="dim" if seat["status"] in ("folded", "sitting_out") else "",
            ),
        )
    return grid


def gone_players(state: dict[str, Any]) -> dict[int, tuple[str, list[Any], str]]:
    """The players of the hand that ended who have gone from their seat since (went broke,
    or left), by that seat: their name, the cards they showed and how they did. The play
    state draws their seat empty; the hand's result still names them."""
    result = state.get("result")
    if state["running"] or not result:
        return {}
    empty = {seat["seat"] for seat in state["seats"] if seat["status"] == "empty"}
    gone: dict[int, tuple[str, list[Any], str]] = {}
    for shown in result["shown"]:
        if shown["seat"] in empty:
            words = "out" + (f"  {shown['description']}" if shown["description"] else "")
            gone[shown["seat"]] = (shown["name"], shown["cards"], words)
    for pot in result["pots"]:
        for winner in pot["winners"]:
            if winner["seat"] in empty and winner["seat"] not in gone:
                gone[winner["seat"]] = (winner["name"], [], f"won {winner['amount']}, left")
    return gone


def level_text(tournament: dict[str, Any], you: str | None = None) -> Text:
    """A tournament table's line: the tournament, its level and the next one; then the heads'
    bounties (``you``: the viewer's name, whose head is named first), the add-on and a
    final-table deal being decided."""
    level = tournament["level"]
    text = Text(f"{tournament['name']}  level {level['number']}: {tournament['blinds']}")
    if level["on_break"]:
        left = level["break_minutes_left"]
        text.append(f"   on a break ({left} min left)" if left is not None else "   on a break")
    if tournament["next_blinds"] is None:
        text.append("   last level", style="dim")
    else:
        text.append(f"   next: {tournament['next_blinds']}", style="dim")
        if level["hands_left"] is not None:
            hands = level["hands_left"]
            text.append(f" in {hands} hand{'s' if hands != 1 else ''}", style="dim")
        elif level["next_at"]:
            text.append(f" at {level['next_at'][11:16]} UTC", style="dim")
    text.append_text(bounty_addon_text(tournament, you))
    if tournament.get("deal_deciding"):  # servers before it send nothing: nothing is drawn
        text.append(
            "\nA deal is being decided: the clock waits; answer on the tournament's page",
            style="bold",
        )
    return text


def bounty_addon_text(tournament: dict[str, Any], you: str | None) -> Text:
    """The bounties on the heads at this table (the viewer's first) and the add-on's window
    (servers before them send neither: nothing is drawn)."""
    text = Text()
    heads = tournament.get("bounties") or []
    if heads:
        mine = [head["bounty"] for head in heads if head["player"] == you]
        text.append("\nBounty on your head: " if mine else "\nBounties: ", style="bold")
        if mine:
            text.append(f"{mine[0]}   ", style="bold")
        others = [f"{head['player']} {head['bounty']}" for head in heads if head["player"] != you]
        text.append(", ".join(others), style="dim")
    addon = tournament.get("addon")
    if addon:
        cost = f" for {addon['price']}" if addon["price"] else " free"
        if addon["open"]:
            text.append(f"\nAdd-on open: {addon['chips']} chips{cost}", style="bold")
            text.append(" ([u] in poker play, or on the tournament's page)", style="dim")
        else:
            text.append(
                f"\nAdd-on: {addon['chips']} chips{cost}, at the end of the rebuys", style="dim"
            )
    return text


def board_text(state: dict[str, Any]) -> Text:
    table = state["table"]
    text = Text(f"{table['name']}  {table['variant']} {table['stakes']}", style="bold")
    text.append(f"   hand #{state['hand_number']}" if state.get("hand_number") else "")
    if state.get("tournament"):
        text.append("\n")
        you = state.get("you")
        text.append_text(level_text(state["tournament"], you["name"] if you else None))
    text.append("\nBoard: ")
    text.append_text(cards_text(state["board"]) if state["board"] else Text("--", style="dim"))
    boards = state.get("boards") or []
    for run, board in enumerate(boards[1:], start=2):  # run twice or three times
        text.append(f"   Run {run}: ")
        text.append_text(cards_text(board) if board else Text("--", style="dim"))
    if state.get("rabbit"):
        text.append("   Rabbit hunt: ", style="dim")
        text.append_text(cards_text(state["rabbit"]))
    if state["running"]:
        text.append(f"    Pot: {state['total_pot']}", style="bold")
        if len(state["pots"]) > 1:  # one pot is the total: its line would say it again
            text.append(
                "  (" + ", ".join(f"{p['name']} {p['amount']}" for p in state["pots"]) + ")"
            )
    return text


def turn_text(
    state: dict[str, Any], bet_size: int | None, seconds_left: float | None, playing: bool = False
) -> Text:
    """Whose turn, the clock, and the viewer's choices with the keys that make them
    (``playing``: ``poker play``, which also offers a seat to a viewer without one)."""
    text = Text()
    you = state.get("you")
    if playing and you is not None and state.get("tournament"):
        text.append_text(tournament_seat_text(you, state["tournament"].get("addon")))
    elif playing and you is not None and you["seat"] is None:
        table = state["table"]
        text.append("You are watching: [s] sit down", style="bold")
        text.append(
            f" (buy-in {table['min_buy_in']}-{table['max_buy_in']}, bankroll {you['bankroll']})\n"
        )
    actor = state.get("actor")
    if not state["running"]:
        result = state.get("result")
        if result:
            for pot in result["pots"]:
                winners = ", ".join(f"{w['name']} {w['amount']}" for w in pot["winners"])
                text.append(f"{pot['name']}: {winners}  {pot['description']}\n")
        shown = (you or {}).get("can_show") or []
        if playing and shown:
            text.append(f"[w] show your cards ({' '.join(shown)})\n", style="bold")
        text.append("Waiting for the next hand.", style="dim")
        return text
    who = next((s["name"] for s in state["seats"] if s["seat"] == actor), None)
    legal = state.get("legal")
    text.append(
        "Your turn" if legal else f"{who or 'Nobody'} to act", style="bold green" if legal else ""
    )
    if seconds_left is not None:
        text.append(f"   ⏱ {seconds_left:.0f}s", style="bold red" if seconds_left < 5 else "")
    if legal:
        text.append("\n")
        keys = {
            "fold": "[f] fold",
            "check": "[c] check",
            "call": f"[c] call {legal['call']}",
            "raise": f"[r] {legal['raise_word']} to {bet_size}",
            "all_in": "[a] all-in",
            "run_thrice": "[3] three times",
            "run_twice": "[2] run it twice",
            "run_once": "[1] once",
            "discard": f"[d] draw ({legal.get('hand_words', '')})",
        }
        text.append("   ".join(keys[kind] for kind in legal["actions"]))
        if legal["min_raise_to"] is not None:
            text.append(
                f"   size: [+/-] one big blind, [m] min {legal['min_raise_to']},"
                f" [x] max {legal['max_raise_to']}",
                style="dim",
            )
    elif playing and state.get("pre_actions"):
        text.append("\n")
        text.append_text(pre_actions_text(state["pre_actions"]))
    return text


#: The keys that tick a choice in advance (``pre_action_for``): one kind or the other,
#: whichever is offered (nothing to call, or facing a bet).
PRE_ACTION_KEYS = {"f": ("check_fold", "fold"), "c": ("check", "call"), "y": ("call_any",)}


def pre_action_for(key: str, pre_actions: dict[str, Any] | None) -> dict[str, Any] | None:
    """The ``pre_action`` request's fields that ``key`` sends now: its offered kind (with the
    amount for a call), or an empty kind (untick) when that kind is already ticked; None when
    the key offers nothing now."""
    if not pre_actions:
        return None
    offers = {offer["kind"]: offer for offer in pre_actions["offers"]}
    kind = next((k for k in PRE_ACTION_KEYS.get(key, ()) if k in offers), None)
    if kind is None:
        return None
    ticked = pre_actions.get("ticked")
    if ticked is not None and ticked["kind"] == kind:
        return {"kind": ""}
    if kind == "call":
        return {"kind": kind, "amount": offers[kind]["amount"]}
    return {"kind": kind}


def pre_actions_text(pre_actions: dict[str, Any]) -> Text:
    """The choices to tick in advance with their keys, the ticked one marked."""
    text = Text("In advance: ", style="dim")
    ticked = (pre_actions.get("ticked") or {}).get("kind")
    keys = {kind: key for key, kinds in PRE_ACTION_KEYS.items() for kind in kinds}
    for offer in pre_actions["offers"]:
        mark = "[x]" if offer["kind"] == ticked else "[ ]"
        text.append(
            f"{mark} [{keys[offer['kind']]}] {offer['label']}   ",
            style="bold" if offer["kind"] == ticked else "",
        )
    return text


#: At a tournament's table, what the server allows a player (``tables.tournaments``): the
#: tournament seats them, so no sitting down, leaving or top-up; sitting out keeps them dealt
#: in (they post the blinds, and the clock checks or folds for them when it runs out).
AWAY = "[o] away: still dealt in, the clock checks or folds for you"
BACK = "[i] I'm back"


def tournament_seat_text(you: dict[str, Any], addon: dict[str, Any] | None = None) -> Text:
    """A tournament table's line for the player: their seat's keys (the add-on's while its
    window is open: ``addon``, the play state's), or that they watch."""
    text = Text()
    if you["seat"] is None:
        text.append("You are watching a tournament table (the tournament seats its players).\n")
        return text
    if you["sitting_out"]:
        text.append("You are away: still dealt in; the clock acts for you.  ", style="bold")
        text.append(BACK + "\n")
    else:
        text.append(AWAY + "\n", style="dim")
    if addon and addon["open"]:
        cost = f"for {addon['price']}" if addon["price"] else "free"
        text.append(f"[u] take the add-on: {addon['chips']} chips {cost}\n", style="bold")
    return text


def log_line_text(line: dict[str, Any]) -> Text:
    """One line of the hand's log with the cards it names (``Flop:`` A♥ K♦ 2♣)."""
    text = Text(line["text"], style="italic" if line["kind"] == "notice" else "")
    if line["cards"]:
        text.append(" ")
        text.append_text(cards_text(line["cards"]))
    return text


def log_lines(state: dict[str, Any]) -> list[Text]:
    return [log_line_text(line) for line in state.get("log", [])]
