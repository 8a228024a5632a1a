"""Bounties: part of each entry fee (a rebuy's, a re-entry's) is put on the player's head.

- Fixed (``Tournament.Bounty.FIXED``): whoever knocks a player out is paid their whole head.
- Progressive knockout (``PROGRESSIVE``): half of it is paid (the odd chip with it), the
  other half is added to the knocker's own head.

The knocker is the winner of the highest pot the player out was eligible for (the pot that
took their last chips); several winners of it (a split pot, a hi-lo pot's halves, two runs)
split the head equally, the odd chips as a pot's (``engine.pots.split_pot``: one at a time
to the winners first left of the button), each share then paid by the rule above. Players out in
one hand are knocked out each by their own highest pot, from the heads as the hand began.
At the end every head still on the table goes to its own player (the winner's, the players'
of a final-table deal or of a fixed-hands game still in).

Bounties are paid through the ledger at once (kind ``TOURNAMENT_PRIZE``, the reason naming
the bounty) and counted in ``Entry.bounties_won``; fees paid == prize pool + heads unpaid +
bounties paid at every moment (``selectors.prize_pools_unpaid`` counts the heads).

Callers hold the tournament row lock (and the table's, after a hand).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.pots import split_pot
from tables.models import Hand, LedgerEntry
from tables.selectors.hands import hand_state
from tables.services.players import ledger_record
from tables.tournaments.errors import TournamentInvalid
from tables.tournaments.models import Entry, Tournament

Bounty = Tournament.Bounty


def bounty_check(kind: object, bounty: object, entry_fee: int) -> None:
    """The bounty settings can be played (``TournamentInvalid`` names the field): a kind of
    bounty, and a bounty of 1 up to the entry fee with one (0 without)."""
    if not isinstance(kind, str) or kind not in Bounty.values:
        raise TournamentInvalid("bounty_kind", f"bounty_kind is one of: {', '.join(Bounty)}.")
    if isinstance(bounty, bool) or not isinstance(bounty, int) or bounty < 0:
        raise TournamentInvalid("bounty", "bounty must be a whole number, at least 0.")
    if kind == Bounty.NONE and bounty:
        raise TournamentInvalid("bounty", "A bounty needs a kind of bounties (fixed or pko).")
    if kind != Bounty.NONE and not 1 <= bounty <= entry_fee:
        raise TournamentInvalid(
            "bounty", f"The bounty is part of the entry fee: 1 to {entry_fee} chips."
        )


def knockouts_pay(tournament: Tournament, hand: Hand, outs: Iterable[int]) -> None:
    """The players ``outs`` (ids) went out in ``hand``: pay each one's head to the winners
    of the highest pot they were eligible for (see the module docstring)."""
    outs = list(outs)
    if tournament.bounty_kind == Bounty.NONE or not outs or not hand.result:
        return
    seat_of = {seat["player_id"]: index for index, seat in enumerate(hand.seats)}
    entries = {
        e.player_id: e
        for e in tournament.entries.select_related("player").filter(player_id__in=seat_of)
    }
    pots = hand_state(hand).pots
    awards = hand.result["awards"]
    heads = {player_id: entries[player_id].bounty for player_id in outs}  # as the hand began
    for player_id, head in heads.items():
        busted = entries[player_id]
        seat = seat_of[player_id]
        top = max((k for k, pot in enumerate(pots) if seat in pot.eligible), default=0)
        winners = sorted({w for award in awards if award["pot"] == top for w in award["winners"]})
        if not head or not winners:
            continue  # no knocker (never in a hand played out): the head stays, paid at the end
        busted.bounty = 0
        busted.save(update_fields=["bounty"])
        shares = split_pot(head, winners, hand.button, len(hand.seats))
        for winner, share in zip(winners, shares, strict=True):
            _knockout_share(tournament, entries[hand.seats[winner]["player_id"]], busted, share)


def _knockout_share(tournament: Tournament, knocker: Entry, busted: Entry, share: int) -> None:
    paid = share
    if tournament.bounty_kind == Bounty.PROGRESSIVE:
        paid = share - share // 2  # the odd chip is paid; the other half goes on their head
        knocker.bounty += share // 2
    knocker.bounties_won += paid
    knocker.save(update_fields=["bounty", "bounties_won"])
    if paid:
        ledger_record(
            player=knocker.player,
            amount=paid,
            kind=LedgerEntry.Kind.TOURNAMENT_PRIZE,
            reason=f"Bounty on {busted.player.name} in {tournament.name}",
        )


def heads_collect(tournament: Tournament) -> None:
    """The end: every head still unpaid goes to its own player."""
    if tournament.bounty_kind == Bounty.NONE:
        return  # no heads: no read
    for entry in tournament.entries.filter(bounty__gt=0).select_related("player"):
        head, entry.bounty = entry.bounty, 0
        entry.bounties_won += head
        entry.save(update_fields=["bounty", "bounties_won"])
        ledger_record(
            player=entry.player,
            amount=head,
            kind=LedgerEntry.Kind.TOURNAMENT_PRIZE,
            reason=f"Own bounty back in {tournament.name}",
        )
