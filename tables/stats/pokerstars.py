"""Finished hands as PokerStars hand-history text (``engine.pokerstars``), for trackers:
one hand, or a player's hands (a table's, a date range's) as one file."""

from __future__ import annotations

from collections.abc import Iterable

from engine.pokerstars import Header, hand_text, histories_text
from tables.models import Hand, Player
from tables.selectors.hands import hand_state
from tables.stats.selectors import HandFilter, finished_hand, player_hand_rows

#: The most hands one PokerStars download holds (newest first beyond it are left out, and
#: the response says so in its ``X-Hands-Left-Out`` header).
MOST_HANDS = 2000


def _level(hand: Hand) -> tuple[int | None, int | None]:
    """A tournament hand's tournament id and blind level (from 1: the first level with its
    blinds), or ``(None, None)`` for a cash hand."""
    link = getattr(hand.table, "tournament_table", None)
    if link is None:
        return None, None
    config = hand.config
    blinds = (config.get("small_blind"), config.get("big_blind"))
    for index, level in enumerate(link.tournament.levels):
        if (level.get("small_blind"), level.get("big_blind")) == blinds:
            return link.tournament_id, index + 1
    return link.tournament_id, None


def hand_pokerstars(hand: Hand, seat: int | None) -> str:
    """A finished hand as PokerStars text, as ``seat`` (``None``: not dealt in) saw it: the
    hands shown at showdown plus that seat's own hole cards."""
    if hand.status != Hand.Status.FINISHED:
        raise ValueError("only a finished hand has a history")
    tournament, level = _level(hand)
    header = Header(
        hand_id=hand.pk,
        table=hand.table.name,
        started_at=hand.started_at,
        max_seats=hand.table.max_seats,
        tournament_id=tournament,
        level=level,
    )
    return hand_text(hand_state(hand), viewer=seat, header=header)


def player_hands_pokerstars(player: Player, filters: HandFilter) -> tuple[str, int, int]:
    """``player``'s finished hands that ``filters`` picks, oldest first, as one PokerStars
    file from that player's seat; with how many hands it holds and how many were left out
    (past ``MOST_HANDS``, the oldest)."""
    rows = player_hand_rows(player, filters).values_list("hand_id", "seat")
    picked = list(rows[: MOST_HANDS + 1])
    left_out = 0
    if len(picked) > MOST_HANDS:
        left_out = player_hand_rows(player, filters).count() - MOST_HANDS
        picked = picked[:MOST_HANDS]
    texts = list(_texts(reversed(picked)))
    return histories_text(texts), len(texts), left_out


def _texts(rows: Iterable[tuple[int, int]]) -> Iterable[str]:
    for hand_id, seat in rows:
        hand = finished_hand(hand_id)
        if hand is not None and hand.status == Hand.Status.FINISHED:
            yield hand_pokerstars(hand, seat)
