"""Share a hand: an unguessable link (``HandShare``) to a read-only replayer of a finished
hand that anyone can open, logged out too, showing only what everyone at the table saw at
the end of it (the board, the actions, the amounts, the cards shown at showdown or by
choice), and the sharer's own cards if they choose so. The sharer can revoke it.

No lock: a share changes no table, no chip and no hand; it only names one.
"""

from __future__ import annotations

import secrets

from django.utils import timezone

from tables.http import Viewer
from tables.models import Hand, HandShare, Player
from tables.selectors.access import can_see_hand
from tables.services.errors import CannotShare, NoSuchShare


def hand_share(*, hand_id: int, player: Player, user: Viewer, own_cards: bool) -> HandShare:
    """A new link to hand ``hand_id`` by ``player`` (``user``: who asks, for what they may
    see). ``own_cards``: the sharer's own cards appear too (refused if they were not dealt
    in). Refused (``CannotShare``, nothing written): no such hand, one they may not see, or
    one still being played (its run-out too)."""
    hand = Hand.objects.select_related("table").filter(pk=hand_id).first()
    if hand is None or not can_see_hand(hand, user):
        raise CannotShare("There is no such hand to share.")
    if hand.status != Hand.Status.FINISHED or hand.in_play:
        raise CannotShare("A hand is shared once it is over.")
    if own_cards and hand.seat_index_of(player.pk) is None:
        raise CannotShare("You were not dealt into this hand: you have no cards of your own.")
    return HandShare.objects.create(
        token=secrets.token_urlsafe(24), hand=hand, created_by=player, own_cards=own_cards
    )


def hand_share_revoke(*, token: str, player: Player) -> HandShare:
    """Revoke ``player``'s link ``token``: it shows nothing from now on. Refused
    (``NoSuchShare``): not theirs, no such link, or revoked already."""
    share = HandShare.objects.filter(
        token=token, created_by=player, revoked_at__isnull=True
    ).first()
    if share is None:
        raise NoSuchShare("You have no such link to revoke.")
    share.revoked_at = timezone.now()
    HandShare.objects.filter(pk=share.pk).update(revoked_at=share.revoked_at)
    return share
