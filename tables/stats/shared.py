"""Reads for shared hands (``tables.services.sharing``): the hand a link shows and as whom,
the sharer's links to a hand, and the words a chat app shows for it (Open Graph)."""

from __future__ import annotations

from dataclasses import dataclass

from tables.models import Hand, HandShare, Player
from tables.selectors.hands import hand_state
from tables.stats.selectors import finished_hand


@dataclass(frozen=True)
class SharedHand:
    """The hand a live link shows and the engine seat whose cards appear (None: only what
    everyone saw)."""

    hand: Hand
    seat: int | None


def shared_hand(token: str) -> SharedHand | None:
    """The hand link ``token`` shows, or None: no such link, revoked, or its hand is not a
    finished one any more (voided)."""
    share = HandShare.objects.filter(token=token, revoked_at__isnull=True).first()
    hand = finished_hand(share.hand_id) if share is not None else None
    if share is None or hand is None:
        return None
    if hand.status != Hand.Status.FINISHED or hand.in_play:
        return None
    seat = hand.seat_index_of(share.created_by_id) if share.own_cards else None
    return SharedHand(hand, seat)


def hand_shares_of(hand: Hand, player: Player | None) -> list[HandShare]:
    """``player``'s live links to ``hand``, newest first (none for nobody)."""
    if player is None:
        return []
    return list(HandShare.objects.filter(hand=hand, created_by=player, revoked_at__isnull=True))


def shared_summary(hand: Hand) -> str:
    """The hand's result as everyone at the table saw it, in a line: "Pot 200 · alice won
    200 (Three of a kind, Kings)". Only the awards, which name shown hands only."""
    result = hand_state(hand).view(None).result
    names = [seat["name"] for seat in hand.seats]
    parts = []
    for award in result.awards if result is not None else ():
        for seat, amount in zip(award.winners, award.amounts, strict=True):
            words = f" ({award.description})" if award.description else ""
            parts.append(f"{names[seat]} won {amount}{words}")
    return " · ".join([f"Pot {hand.pot}", *parts])
