"""Sitting down and topping up from the terminal: what to offer and what the user typed.

Pure functions of the play state (``/api/tables/<id>/state/``). They catch what can be told
before asking the server (not a number, below the table's minimum, more than the bankroll, a
seat that is taken) with one line a person reads; the server still checks everything (the
rejoining rule may allow a buy-in above the table's maximum, so that limit is its call).
"""

from __future__ import annotations

from typing import Any

from engine.errors import PokerError
from engine.types import discard_cards
from pokerclient.config import ClientError


def free_seats(state: dict[str, Any]) -> list[int]:
    """The empty seats' numbers (from 1, as the table labels them)."""
    return [seat["seat"] for seat in state["seats"] if seat["status"] == "empty"]


def seated(state: dict[str, Any]) -> bool:
    you = state.get("you")
    return you is not None and you["seat"] is not None


def buy_in_offer(state: dict[str, Any]) -> int:
    """The buy-in the prompt starts at: the table's default, within the bankroll."""
    you, table = state.get("you") or {}, state["table"]
    default: int = table["default_buy_in"]
    return max(0, min(default, int(you.get("bankroll", default))))


def buy_in_hint(state: dict[str, Any]) -> str:
    table, you = state["table"], state.get("you") or {}
    return (
        f"Buy-in {table['min_buy_in']}-{table['max_buy_in']} chips"
        f" (bankroll {you.get('bankroll', 0)})"
    )


def _whole(text: str, what: str) -> int:
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise ClientError(f"{what} is a whole number of chips, not {text!r}.")
    return int(text)


def parse_buy_in(text: str, state: dict[str, Any]) -> int:
    """The buy-in the user typed, or ``ClientError`` saying what is wrong with it."""
    amount = _whole(text, "The buy-in")
    table, you = state["table"], state.get("you") or {}
    if amount < max(1, table["min_buy_in"]):
        raise ClientError(f"The buy-in is at least {table['min_buy_in']} chips here.")
    if amount > you.get("bankroll", amount):
        raise ClientError(f"Your bankroll has {you['bankroll']} chips.")
    return amount


def parse_seat(text: str, state: dict[str, Any]) -> int | None:
    """The seat the user chose (from 1), or None for the first free one."""
    text = text.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()):
        raise ClientError(f"The seat is a number, not {text!r}.")
    number, free = int(text), free_seats(state)
    if number not in free:
        raise ClientError(
            f"Seat {number} is not free (free: {', '.join(map(str, free)) or 'none'})."
        )
    return number


def parse_top_up(text: str, state: dict[str, Any]) -> int:
    """The top-up the user typed: at least one chip, at most the room under the maximum."""
    amount = _whole(text, "The top-up")
    room = (state.get("you") or {}).get("top_up_room", 0)
    if amount < 1:
        raise ClientError("Top up by one chip or more.")
    if amount > room:
        raise ClientError(f"You can add at most {room} chips now.")
    return amount


def parse_discard(text: str, state: dict[str, Any]) -> list[str]:
    """The cards typed to throw away ("7h 2c", "7h2c"; blank: stand pat), each in your hand;
    a ``ClientError`` saying what is wrong otherwise."""
    try:
        cards = [str(card) for card in discard_cards(text.replace(",", " ").replace(" ", ""))]
    except PokerError as error:
        raise ClientError(f"Not cards: {error}.") from None
    you = state.get("you") or {}
    mine: list[str | None] = next(
        (s["cards"] for s in state["seats"] if s["seat"] == you.get("seat")), []
    )
    foreign = [card for card in cards if card not in mine]
    if foreign:
        raise ClientError(f"Not in your hand: {' '.join(foreign)}.")
    return cards


def parse_pick(text: str, picks: list[dict[str, Any]]) -> str:
    """Dealer's choice: the game numbered ``text`` in ``picks`` (as the state lists them)."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= len(picks):
        raise ClientError(f"Type a number from 1 to {len(picks)}.")
    return str(picks[int(text) - 1]["game"])
