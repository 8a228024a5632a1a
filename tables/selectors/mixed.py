"""What a mixed table's rotation says (reads only): whether the game being dealt has had its
hands, and the game that comes next (``tables.services.mixed`` moves the rotation on)."""

from __future__ import annotations

from tables.models import Table


def orbit_over(table: Table, players: int) -> bool:
    """Whether the game being dealt has had its hands (or none is being dealt yet)."""
    return not table.dealt_game or table.dealt_game_hands >= (table.rotation_hands or players)


def next_game(table: Table, players: int) -> tuple[str, int] | None:
    """What the table shows of the rotation: the next game in words and how many hands of
    the current one are left (None at a single game's table or dealer's choice)."""
    mixed = table.mixed
    if mixed is None or mixed.dealers_choice or not table.dealt_game:
        return None
    game, betting = mixed.next_pick(table.pick)
    left = max((table.rotation_hands or players) - table.dealt_game_hands, 0)
    return table.words_of((game, betting)), left
