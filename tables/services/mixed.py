"""Mixed games at a table: the rotation (HORSE, 8-game) and dealer's choice.

A mixed table deals one game of its rotation for ``Table.rotation_hands`` hands (0: one orbit,
a hand per player dealt in), then the next. At a dealer's-choice table the player on the next
hand's button picks the game and betting of the first orbit, the seat after the last chooser
each next orbit's, from the host's list (``Table.choices``) within ``Table.choice_seconds``;
a bot picks at once; when the time is up the list's first is dealt. The game being dealt
(``Table.dealt_game``) is the table's ``pick``: ``Table.hand_config`` deals it.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.db import transaction

from engine.button import next_button
from engine.errors import PokerError
from engine.variants import Pick, parse_game_pick, pick_text
from tables.models import Player, Seat, Table
from tables.services.errors import BadChoice, NoChoiceNow, NotYourTurn
from tables.services.events import table_lock, table_touch


def rotation_turn(table: Table, players: int, now: datetime) -> list[str]:
    """Move a mixed table's rotation on for the hand about to be dealt to ``players``
    (``hand_start``, under the table's lock); the fields it changed (none at a single game's
    table). Dealer's choice whose button did not pick in time deals the list's first."""
    mixed = table.mixed
    if mixed is None:
        return []
    if table.orbit_over(players):
        if mixed.dealers_choice:
            pick = table.choices[0]  # the button did not pick (``choose_game`` resets the count)
        else:
            current = table.pick if table.dealt_game else None
            pick = mixed.next_pick(current) if current is not None else mixed.games[0]
        table.dealt_game, table.dealt_game_hands = pick_text(pick), 0
    table.dealt_game_hands += 1
    table.choice_deadline = None
    return ["dealt_game", "dealt_game_hands", "choice_deadline"]


def choice_wait(table: Table, seated: list[int], now: datetime) -> bool:
    """Dealer's choice, before a hand (the clock, under the table's lock): true while the next
    button is to pick the game (the hand waits for the pick or ``choice_deadline``). Asks the
    next chooser when a pick is due; a bot picks at once. ``seated``: the seat numbers to be
    dealt in."""
    mixed = table.mixed
    if mixed is None or not mixed.dealers_choice or not table.orbit_over(len(seated)):
        return False
    if table.choice_deadline is not None:
        return now < table.choice_deadline
    # the first pick is the next button's; each later one the seat after the last chooser's
    chooser = next_button(
        seated, table.choice_seat if table.choice_seat is not None else table.button_seat
    )
    seat = Seat.objects.filter(table=table, number=chooser).select_related("player").first()
    if seat is None:
        return False
    if seat.player.is_bot:
        pick = random.Random(f"{table.pk}:{table.version}").choice(table.choices)
        _apply_choice(table, pick, chooser)
        table_touch(table, "dealt_game", "dealt_game_hands", "choice_seat", "choice_deadline")
        return False
    table.choice_seat = chooser
    table.choice_deadline = now + timedelta(seconds=table.choice_seconds)
    table.next_hand_at = table.choice_deadline
    table_touch(table, "choice_seat", "choice_deadline", "next_hand_at")
    return True


def choose_game(*, table: Table | int, player: Player, pick: object) -> Table:
    """The player asked (``choice_wait``) picks the game and betting (``"game/betting"``) of the
    orbit at a dealer's-choice table. Lock: table row. ``NoChoiceNow`` when no pick is asked
    of anyone, ``NotYourTurn`` when it is another's, ``BadChoice`` for a game not on the
    host's list."""
    with transaction.atomic():
        table = table_lock(table)
        if table.choice_deadline is None or table.choice_seat is None:
            raise NoChoiceNow("Nobody is picking the game now.")
        chooser = Seat.objects.filter(table=table, number=table.choice_seat).first()
        if chooser is None or chooser.player_id != player.pk:
            raise NotYourTurn("The player on the button picks the game.")
        try:
            chosen = parse_game_pick(pick)
        except PokerError as error:
            raise BadChoice(f"{str(error).capitalize()}.") from None
        if chosen not in table.choices:
            raise BadChoice("That game is not on the host's list for this table.")
        _apply_choice(table, chosen)
        table.next_hand_at = None  # deal at once
        table_touch(
            table,
            "dealt_game",
            "dealt_game_hands",
            "choice_seat",
            "choice_deadline",
            "next_hand_at",
        )
        return table


def _apply_choice(table: Table, pick: Pick, chooser: int | None = None) -> None:
    table.dealt_game, table.dealt_game_hands = pick_text(pick), 0
    table.choice_deadline = None
    if chooser is not None:
        table.choice_seat = chooser
