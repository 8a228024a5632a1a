"""Show your cards (as PokerNow allows): once a hand is over, until the next one starts, a
player dealt into it shows all or some of their cards to everyone, whether they folded, won
without a showdown or lost at one (a loser's hand is mucked at the showdown, and this is
their way to show it).

The cards shown are kept on the hand (``Hand.shown_cards``, in order) and replayed by the
engine (``reveal``), so the hidden-card rule stays the engine's: everyone sees exactly the
cards shown, in the table's log, the replayer and the histories (JSON, PHH, PokerStars).
"""

from __future__ import annotations

from django.db import transaction

from engine.cards import Card
from engine.errors import PokerError
from tables.models import Hand, Player, Table
from tables.selectors.hands import hand_state, last_hand
from tables.services.errors import HandNotRunning, IllegalMove, NotSeated
from tables.services.events import table_lock, table_touch


def cards_show(
    *, table: Table | int, player: Player, hand_id: int, cards: list[str] | None = None
) -> tuple[Card, ...]:
    """``player`` shows ``cards`` of theirs (card codes; ``None`` or empty: all) from hand
    ``hand_id``, the table's last hand, once it is over. Returns the cards newly shown.
    Lock: table row.

    Refused (nothing changed): the hand is not the table's last or is still being played
    (``hand_not_running``: the next hand started), its run-out is still being dealt
    (``runout_showing``); the player was not dealt into it (``not_seated``); a card that is
    not theirs, or cards everyone sees already (``cannot_show``)."""
    with transaction.atomic():
        table = table_lock(table)
        hand = last_hand(table)
        if hand is None or hand.pk != hand_id or hand.is_running:
            raise HandNotRunning(
                "Cards are shown once the hand is over, until the next one starts."
            )
        if hand.runout_showing:
            raise IllegalMove("The board is still being dealt.", "runout_showing")
        seat = hand.seat_index_of(player.pk)
        if seat is None:
            raise NotSeated("Only the players dealt into the hand can show their cards.")
        state = hand_state(hand)
        try:
            wanted = tuple(Card.parse(card) for card in cards) if cards else tuple(state.hole[seat])
            shown = state.reveal(seat, wanted)
        except (PokerError, ValueError) as error:
            raise IllegalMove(_in_words(error), "cannot_show") from None
        hand.shown_cards = [*(hand.shown_cards or []), [seat, [str(c) for c in shown]]]
        Hand.objects.filter(pk=hand.pk).update(shown_cards=hand.shown_cards)
        table_touch(table)
        return shown


def _in_words(error: Exception) -> str:
    text = str(error)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
