"""The moves a player makes at a table, one row each: the command layer that the socket
(``tables.live.protocol``) and the REST play API (``tables.api.play``) share, so the browser,
programs and bots follow one set of rules.

Each operation (``OPERATIONS``) is a parser of a request's fields (every number through
``tables.text.parse_whole_number``; an action's, ``tables.text.act_fields``, is also the
table runtime's, which hands a socket's action to ``hand_act`` itself) and the one service it
calls (``carry_out``), which returns the message for the sender. ``run_op`` carries out one
request; ``carry_out_move`` one of the REST play API, in the turn of the table's runtime. A
refused request (``BadFrame``, ``NumberError`` or the service's ``ServiceError``) changed
nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.contrib.auth.models import AnonymousUser, User

from engine.pre_actions import KINDS as PRE_ACTION_KINDS, LABELS as PRE_ACTION_LABELS
from tables import services
from tables.models import Player, Table
from tables.selectors.hands import player_in_running_hand
from tables.selectors.players import viewer_player
from tables.services.broadcast import broadcast_agree, broadcast_withdraw
from tables.services.hooks import rules_for
from tables.services.mixed import choose_game
from tables.services.seat_requests import seat_ask, top_up_ask
from tables.text import BadFrame, act_fields, parse_whole_number

T = TypeVar("T")

#: The highest seat number a frame may name (the largest table).
MOST_SEATS = max(Table.MAX_SEATS.values())


def _number(data: dict[str, Any], key: str, what: str, minimum: int = 1, **limits: int) -> int:
    return parse_whole_number(data.get(key), what=what, minimum=minimum, **limits)


# --- the operations: each parser turns a frame into its service's fields (raising BadFrame or
# NumberError, in the order the fields are checked); each carry_out calls the one service and
# returns the message for the sender.


def _act(table_id: int, player: Player, **fields: Any) -> str:
    services.hand_act(table=table_id, player=player, **fields)
    return ""


def _pre_action_fields(data: dict[str, Any]) -> dict[str, Any]:
    kind = data.get("kind", "")
    if kind not in ("", *PRE_ACTION_KINDS):
        raise BadFrame(f'kind is one of {", ".join(PRE_ACTION_KINDS)}, or "" (take it back).')
    amount = data.get("amount")
    if kind == "call" and amount not in (None, ""):
        return {"kind": kind, "amount": _number(data, "amount", "The amount to call")}
    return {"kind": kind, "amount": None}


def _pre_action(table_id: int, player: Player, kind: str, amount: int | None) -> str:
    seat = services.pre_action_set(table=table_id, player=player, kind=kind, amount=amount)
    if not kind:
        return "Nothing ticked: you act when your turn comes."
    what = PRE_ACTION_LABELS[kind] + (f" {seat.pre_action_amount}" if kind == "call" else "")
    return f"Ticked: {what}, taken when your turn comes if it still means the same."


def _no_fields(data: dict[str, Any]) -> dict[str, Any]:
    return {}


def _sit_out(table_id: int, player: Player) -> str:
    seat = services.seat_sit_out(table=table_id, player=player)
    if rules_for(seat.table).deal_sitting_out:  # a tournament's table
        return (
            "You are away: you are still dealt in, and the clock checks or folds for you "
            "when it runs out, until you come back."
        )
    return "You are sitting out: you will be dealt out until you come back."


def _sit_in(table_id: int, player: Player) -> str:
    services.seat_sit_in(table=table_id, player=player)
    if player_in_running_hand(Table(pk=table_id), player.pk):
        return "Welcome back: you are still dealt into this hand, and into the next ones."
    return "Welcome back: you are dealt in from the next hand."


def _leave(table_id: int, player: Player) -> str:
    left = services.seat_leave(table=table_id, player=player)
    return "You left the table." if left else "You will leave when this hand ends."


def _top_up_fields(data: dict[str, Any]) -> dict[str, Any]:
    return {"amount": _number(data, "amount", "The top-up")}


def _top_up(table_id: int, player: Player, amount: int) -> str:
    if top_up_ask(table=table_id, player=player, amount=amount).request is not None:
        return "Asked the host: your chips are added once they approve."
    return "Chips added."


def _take_seat_fields(data: dict[str, Any]) -> dict[str, Any]:
    seat = data.get("seat")
    number = (
        _number(data, "seat", "The seat", maximum=MOST_SEATS) - 1
        if seat not in (None, "")
        else None
    )
    post_now = data.get("post_now", False)
    if post_now not in ("0", "1", 0, 1, True, False, "", None):
        raise BadFrame("post_now is 1 (post a big blind now) or 0 (wait for the big blind).")
    return {
        "seat_number": number,
        "buy_in": _number(data, "buy_in", "The buy-in"),
        "post_now": post_now in ("1", 1, True),
    }


def _take_seat(
    table_id: int, player: Player, seat_number: int | None, buy_in: int, post_now: bool
) -> str:
    asked = seat_ask(
        table=table_id, player=player, buy_in=buy_in, seat_number=seat_number, post_now=post_now
    )
    if asked.request is not None:
        return "Asked the host: you sit down once they approve (requests expire in 5 minutes)."
    if asked.seat is not None and asked.seat.wait_for_big_blind:
        return "You sat down: you are dealt in when the big blind reaches you."
    return "You sat down: you are dealt in from the next hand."


def _sit_out_next_fields(data: dict[str, Any]) -> dict[str, Any]:
    when = data.get("when", "hand")
    if when not in ("hand", "big_blind", ""):
        raise BadFrame('when is "hand", "big_blind" or "" (take it back).')
    return {"when": when}


def _sit_out_next(table_id: int, player: Player, when: str) -> str:
    services.seat_sit_out_next(table=table_id, player=player, when=when)
    if when == "hand":
        return "You sit out from the next hand."
    if when == "big_blind":
        return "You sit out when the big blind reaches you."
    return "You play on."


def _post_now(table_id: int, player: Player) -> str:
    services.seat_post_now(table=table_id, player=player)
    return "You are dealt in from the next hand, posting a big blind."


def _rabbit_fields(data: dict[str, Any]) -> dict[str, Any]:
    return {"hand_id": _number(data, "hand", "The hand")}


def _rabbit_hunt(table_id: int, player: Player, hand_id: int) -> str:
    services.rabbit_hunt(table=table_id, player=player, hand_id=hand_id)
    return ""


def _show_fields(data: dict[str, Any]) -> dict[str, Any]:
    """``cards``: card codes (a list, or text like ``"Ah"`` or ``"Ah Kd"``); none or ``"all"``
    shows every card."""
    cards = data.get("cards")
    if cards in (None, "", "all"):
        return {"hand_id": _number(data, "hand", "The hand"), "cards": None}
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards) or len(cards) > 7:
        raise BadFrame('cards are card codes, like "Ah" or ["Ah", "Kd"] (or "all").')
    return {"hand_id": _number(data, "hand", "The hand"), "cards": cards}


def _show_cards(table_id: int, player: Player, hand_id: int, cards: list[str] | None) -> str:
    shown = services.cards_show(table=table_id, player=player, hand_id=hand_id, cards=cards)
    return f"You showed {' '.join(str(card) for card in shown)}."


def _chat_fields(data: dict[str, Any]) -> dict[str, Any]:
    text = data.get("text")
    if not isinstance(text, str):
        raise BadFrame("A chat message is text.")
    return {"text": text}


def _chat(table_id: int, player: Player, text: str) -> str:
    services.chat_post(table=table_id, player=player, text=text)
    return ""


def _chat_mute_fields(data: dict[str, Any]) -> dict[str, Any]:
    muted = data.get("muted", "1")
    if muted not in ("0", "1", 0, 1, True, False):
        raise BadFrame("muted is 1 (mute) or 0 (unmute).")
    return {"player_id": _number(data, "player", "The player"), "muted": muted in ("1", 1, True)}


def _chat_mute(table_id: int, player: Player, player_id: int, muted: bool) -> str:
    guest = services.chat_mute(table=table_id, host=player, player_id=player_id, muted=muted)
    return f"{guest.player.name} is {'muted' if muted else 'no longer muted'}."


def _choose_game_fields(data: dict[str, Any]) -> dict[str, Any]:
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise BadFrame("Name the game as game/betting (e.g. holdem/no-limit).")
    return {"pick": game}


def _choose_game(table_id: int, player: Player, pick: str) -> str:
    table = choose_game(table=table_id, player=player, pick=pick)
    return f"{table.words_of(table.pick)} it is."


def _broadcast_fields(data: dict[str, Any]) -> dict[str, Any]:
    agree = data.get("agree")
    if agree not in ("0", "1", 0, 1, True, False):
        raise BadFrame("agree is 1 (show my hole cards to spectators) or 0 (withdraw).")
    return {"agree": agree in ("1", 1, True)}


def _broadcast(table_id: int, player: Player, agree: bool) -> str:
    if agree:
        broadcast_agree(table=table_id, player=player)
        return "You agree to show hole cards to spectators."
    broadcast_withdraw(table=table_id, player=player)
    return "You withdrew: hole cards are not shown to spectators from the next hand."


@dataclass(frozen=True)
class Operation:
    parse: Callable[[dict[str, Any]], dict[str, Any]]  # the frame -> ``carry_out``'s fields
    carry_out: Callable[..., str]  # (table id, player, **fields) -> the sender's message


OPERATIONS: dict[str, Operation] = {
    "act": Operation(act_fields, _act),
    "pre_action": Operation(_pre_action_fields, _pre_action),
    "sit_out": Operation(_no_fields, _sit_out),
    "sit_in": Operation(_no_fields, _sit_in),
    "sit_out_next": Operation(_sit_out_next_fields, _sit_out_next),
    "post_now": Operation(_no_fields, _post_now),
    "leave": Operation(_no_fields, _leave),
    "top_up": Operation(_top_up_fields, _top_up),
    "take_seat": Operation(_take_seat_fields, _take_seat),
    "chat": Operation(_chat_fields, _chat),
    "chat_mute": Operation(_chat_mute_fields, _chat_mute),
    "rabbit_hunt": Operation(_rabbit_fields, _rabbit_hunt),
    "choose_game": Operation(_choose_game_fields, _choose_game),
    "show_cards": Operation(_show_fields, _show_cards),
    "broadcast": Operation(_broadcast_fields, _broadcast),
}


#: (table id, user, player, op, its fields parsed) -> the sender's message: the move carried out
#: in the turn of the table's runtime in this process, or None where none runs here (the live
#: layer registers one: ``tables.live.in_turn``).
MoveRunner = Callable[[int, Any, Player, str, dict[str, Any]], str | None]
move_runners: list[MoveRunner] = []


def carry_out_move(
    table_id: int, user: User | AnonymousUser, player: Player, op: str, fields: dict[str, Any]
) -> str:
    """A move whose fields are parsed already (the REST play API's); the sender's message.

    In the turn of the table's runtime where one runs in this process (``move_runners``: in
    order with its sockets' requests, an action on the hand it holds in memory; a runtime
    that does not own the table forwards it to the owner); else, or inside the caller's
    transaction (an ``Idempotency-Key``'s: the move and its answer commit together), by its
    service at once, as a change the runtimes read. Raises what the service raised (nothing
    changed)."""
    for runner in move_runners:
        message = runner(table_id, user, player, op, fields)
        if message is not None:
            return message
    return OPERATIONS[op].carry_out(table_id, player, **fields)


#: (table id, work, what its CPU time counts as) -> its result, carried out in the turn of the
#: table's runtime where this process owns the table, else ``NOT_IN_TURN`` (the live layer
#: registers one: ``tables.live.in_turn``).
TurnWriter = Callable[[int, Callable[[], Any], str], Any]
turn_writers: list[TurnWriter] = []
NOT_IN_TURN = object()


def in_table_turn(table_id: int, work: Callable[[], T], name: str) -> T:
    """``work`` (a change of the table by its service: a host's control) in the turn of the
    table's runtime where this process owns the table (``turn_writers``): in order with its
    sockets' requests, under its lease, and its next version shown at once; else, or inside
    the caller's transaction, at once, as a change the runtimes read. Returns or raises what
    ``work`` does (refused: nothing changed); ``LeaseLost`` where the table moved or did not
    answer meanwhile."""
    for writer in turn_writers:
        result = writer(table_id, work, name)
        if result is not NOT_IN_TURN:
            return cast(T, result)
    return work()


def run_op(
    *,
    table_id: int,
    user: User | AnonymousUser,
    data: dict[str, Any],
    player: Player | None = None,
) -> str:
    """Carry out one request through one service; returns a message for the sender.

    ``player``: the socket's player if already known (resolved once at connect).
    Raises ``ServiceError``, ``BadFrame`` or ``NumberError`` (nothing changed) when refused.
    Each service locks the table row first (``table_lock``): nothing is read before it.
    """
    if player is None:
        player = viewer_player(user)
    if player is None:
        raise BadFrame("Log in to play.")
    op = data.get("op")
    operation = OPERATIONS.get(op) if isinstance(op, str) else None
    if operation is None:
        raise BadFrame(f"Unknown request (one of {', '.join(OPERATIONS)}).")
    return operation.carry_out(table_id, player, **operation.parse(data))
