"""What one viewer sees of a table: plain data for the table templates.

Every hole card a template gets comes from ``engine.Hand.view(seat)`` (the one viewer filter):
``table_screen`` never reads ``Hand.deck`` or the engine's ``hole`` itself. A seated player
sees their own cards, a spectator (``player=None`` or not dealt in) sees none; cards shown at
showdown are visible to all. The same function renders the first page load and every
websocket update, so a reload shows exactly the live state.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from django.template.loader import render_to_string

from tables.models import Hand, HandAction, Player, Table
from tables.selectors import hand_state

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANK_TEXT = {"T": "10"}
#: The regions of the table screen, one partial each (``templates/tables/_<region>.html``),
#: swapped in by id (``table-<region>``).
REGIONS = ("seats", "board", "actions", "controls", "log")
#: How many finished hands the page links to.
RECENT_HANDS = 8


@dataclass(frozen=True)
class CardFace:
    """A face-up card for the templates: ``As`` -> rank ``A``, suit ``♠``, colour class."""

    code: str

    @property
    def rank(self) -> str:
        return RANK_TEXT.get(self.code[0], self.code[0])

    @property
    def suit(self) -> str:
        return SUIT_SYMBOLS[self.code[1]]

    @property
    def suit_name(self) -> str:
        return SUIT_NAMES[self.code[1]]

    def __str__(self) -> str:
        return self.code


def faces(cards) -> list[CardFace | None]:
    """Cards from a view: ``"As"`` -> a face, ``None`` (hidden) stays ``None``."""
    return [CardFace(c) if c else None for c in cards]


def split_cards(text: str) -> list[CardFace]:
    """``"AsKd7h"`` (PHH style, from the engine log) -> faces."""
    return [CardFace(text[i : i + 2]) for i in range(0, len(text), 2)]


def seat_position(number: int, max_seats: int, bottom: int) -> tuple[float, float]:
    """Where seat ``number`` sits around the oval (percent x, y), ``bottom`` at the bottom."""
    angle = math.pi / 2 + 2 * math.pi * ((number - bottom) % max_seats) / max_seats
    return round(50 + 44 * math.cos(angle), 2), round(50 + 41 * math.sin(angle), 2)


def viewer_player(user) -> Player | None:
    """The player behind a request's or socket's user (``None`` for anonymous users)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).select_related("user").first()


def shown_hand(table: Table) -> Hand | None:
    """The hand on screen: the running one, else the last finished one (its showdown)."""
    return (
        table.hands.exclude(status=Hand.Status.VOIDED).order_by("-number").first()
    )


def _log_lines(view: dict, hand: Hand) -> list[list]:
    """The hand's log for this viewer, in words, from the viewer's filtered engine log."""
    names = [s["name"] for s in hand.seats]
    decisions = list(hand.actions.order_by("index").values_list("kind", "amount", "source"))
    decision = iter(decisions)
    streets = iter(("Flop", "Turn", "River"))
    bet_made = True  # preflop the blinds are the bet: every bet is a raise
    lines: list[list] = []
    for raw in view["log"]:
        parts = raw.split()
        if parts[0] == "d" and parts[1] == "dh":
            seat = int(parts[2][1:]) - 1
            if seat == view["viewer"] and parts[3] != "????":
                lines.append(["Your cards", *split_cards(parts[3])])
            continue
        if parts[0] == "d" and parts[1] == "db":
            lines.append([f"{next(streets, 'Board')}:", *split_cards(parts[2])])
            bet_made = False
            continue
        if parts[0] == "#":
            name = names[int(parts[1][1:]) - 1]
            rest = " ".join(parts[2:])
            lines.append([f"{name} {rest}"])
            continue
        name = names[int(parts[0][1:]) - 1]
        verb = parts[1]
        if verb == "sm":
            if len(parts) > 2:
                lines.append([f"{name} shows", *split_cards(parts[2])])
            else:
                lines.append([f"{name} mucks"])
            continue
        kind, amount, source = next(decision, ("?", None, HandAction.Source.PLAYER))
        if verb == "f":
            text = f"{name} folds"
        elif verb == "cc":
            text = f"{name} checks" if kind == "check" else f"{name} calls"
        else:
            text = f"{name} {'raises' if bet_made else 'bets'} to {parts[2]}"
            bet_made = True
        if kind == "all_in":
            text += " (all-in)"
        if source == HandAction.Source.TIMEOUT:
            text += " (timed out)"
        lines.append([text])
    return lines


def _quick_sizes(view: dict, legal: dict) -> list[dict]:
    """Min, half pot, pot and all-in as raise-to amounts within the legal range."""
    lo, hi = legal["min_raise_to"], legal["max_raise_to"]
    me = view["seats"][view["viewer"]]
    call = legal["call"]
    pot_after_call = view["total_pot"] + call
    base = view["current_bet"] if view["current_bet"] else 0
    sizes = [("Min", lo), ("½ pot", base + pot_after_call // 2), ("Pot", base + pot_after_call),
             ("All-in", me["bet"] + me["stack"])]
    out, seen = [], set()
    for label, amount in sizes:
        amount = max(lo, min(hi, amount))
        if amount not in seen:
            seen.add(amount)
            out.append({"label": label, "amount": amount})
    return out


def table_screen(table: Table, player: Player | None) -> dict:
    """Everything the table templates need for one viewer (``player`` or a spectator)."""
    seats = {s.number: s for s in table.seats.select_related("player__user")}
    my_seat = next((s for s in seats.values() if player and s.player_id == player.pk), None)
    hand = shown_hand(table)
    view = None
    index = None
    if hand is not None:
        index = hand.seat_index_of(player.pk) if player is not None else None
        state = hand_state(hand)
        view = state.view(index)
    running = hand is not None and hand.is_running
    in_hand: dict[int, dict] = {}  # table seat number -> the view's seat
    if view is not None:
        for start, seen in zip(hand.seats, view["seats"]):
            in_hand[start["seat"]] = {**seen, "player_id": start["player_id"]}
    winners: dict[int, int] = {}
    pots = []
    result = view["result"] if view else None
    if result:
        for award in result["awards"]:
            for w, amount in zip(award["winners"], award["amounts"]):
                winners[w] = winners.get(w, 0) + amount
            pots.append({
                "amount": award["amount"],
                "label": "Main pot" if award["pot"] == 0 else f"Side pot {award['pot']}",
                "winners": [view["seats"][w]["name"] for w in award["winners"]],
                "description": award["description"],
            })
    elif view is not None:
        for i, pot in enumerate(view["pots"]):
            pots.append({"amount": pot["amount"],
                         "label": "Main pot" if i == 0 else f"Side pot {i}"})

    bottom = my_seat.number if my_seat else 0
    seat_rows = []
    for number in range(table.max_seats):
        x, y = seat_position(number, table.max_seats, bottom)
        row = {"number": number, "label": number + 1, "x": x, "y": y, "empty": True}
        seat = seats.get(number)
        seen = in_hand.get(number)
        if seat is not None:
            row.update(
                empty=False, name=seat.player.name, is_bot=seat.player.is_bot,
                stack=seat.stack, sitting_out=seat.sitting_out,
                leaving=seat.leave_after_hand, is_me=my_seat is not None and seat.pk == my_seat.pk,
            )
        if seen is not None and (seat is None or seen["player_id"] == seat.player_id):
            if seat is None:  # left after the hand: still shown until the next one
                row.update(empty=False, name=seen["name"], is_bot=False, sitting_out=False,
                           leaving=True, is_me=False, stack=seen["stack"])
            if running:
                row["stack"] = seen["stack"]
            row.update(
                dealt=True, bet=seen["bet"], folded=seen["folded"], all_in=seen["all_in"],
                cards=faces(seen["cards"]), shown=seen["shown"],
                is_button=seen["is_button"], is_small_blind=seen["is_small_blind"],
                is_big_blind=seen["is_big_blind"],
                is_actor=running and view["actor"] == seen["seat"],
                won=winners.get(seen["seat"], 0) if result else 0,
                description=(result["shown"].get(str(seen["seat"]), {}).get("description", "")
                             if result else ""),
            )
        seat_rows.append(row)

    legal = view["legal"] if (view and running) else None
    actions = None
    if legal is not None:
        actions = {
            "fold": legal["fold"],
            "check": legal["check"],
            "call": legal["call"],
            "raise": legal["min_raise_to"] is not None,
            "min": legal["min_raise_to"],
            "max": legal["max_raise_to"],
            "word": "Bet" if view["current_bet"] == 0 else "Raise",
            "sizes": _quick_sizes(view, legal) if legal["min_raise_to"] is not None else [],
        }
    deadline = table.action_deadline if running else None
    actor_name = None
    if running and view["actor"] is not None:
        actor_name = view["seats"][view["actor"]]["name"]
    recent = list(
        table.hands.filter(status=Hand.Status.FINISHED).order_by("-number")
        .values("number", "pot")[:RECENT_HANDS]
    )
    me = None
    if player is not None:
        me = {
            "name": player.name,
            "bankroll": Player.objects.filter(pk=player.pk).values_list("bankroll", flat=True)[0],
            "seated": my_seat is not None,
            "seat": my_seat.number + 1 if my_seat else None,
            "stack": my_seat.stack if my_seat else 0,
            "sitting_out": bool(my_seat and my_seat.sitting_out),
            "leaving": bool(my_seat and my_seat.leave_after_hand),
            "in_hand": running and index is not None,
            "room": max(table.effective_max_buy_in - my_seat.stack, 0) if my_seat else 0,
        }
    return {
        "table": table,
        "version": table.version,
        "hand": hand,
        "hand_id": hand.pk if hand else "",
        "running": running,
        "street": view["street"] if view else "",
        "board": faces(view["board"]) if view else [],
        "pots": pots,
        "total_pot": view["total_pot"] if view and running else 0,
        "seats": seat_rows,
        "actions": actions,
        "deadline_ms": int(deadline.timestamp() * 1000) if deadline else None,
        "actor_name": actor_name,
        "log": _log_lines(view, hand) if view else [],
        "result": result,
        "view": view,  # engine viewer view, for ?state=json sockets (issue 7)
        "recent": recent,
        "me": me,
        "free_seats": [n + 1 for n in range(table.max_seats) if n not in seats],
        "min_buy_in": table.effective_min_buy_in,
        "max_buy_in": table.effective_max_buy_in,
        "default_buy_in": min(table.effective_max_buy_in,
                              max(table.effective_min_buy_in, 50 * table.big_blind)),
    }


def render_regions(screen: dict, *, oob: bool = True) -> str:
    """Every region of the table screen as HTML; ``oob`` marks them for htmx's swap by id.

    The message line is not among them: it answers one socket (``render_message``).
    """
    context = {**screen, "oob": oob}
    return "".join(render_to_string(f"tables/_{region}.html", context) for region in REGIONS)


def render_message(message: str, *, oob: bool = True, error: bool = True) -> str:
    """The message line under the actions (an error goes to its sender only)."""
    return render_to_string(
        "tables/_message.html", {"message": message, "error": error, "oob": oob}
    )


CARD_ATTR = re.compile(r'data-card="([^"]*)"')


def cards_in_html(html: str) -> list[str]:
    """Every face-up card in rendered HTML (each is drawn with ``data-card``)."""
    return CARD_ATTR.findall(html)
