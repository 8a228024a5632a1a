"""The bots a tournament enters (``bot_entrants``, and those filling a fixed-hands game)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tables.models import Player
from tables.services.players import player_create, player_grant
from tables.tournaments.models import Tournament


def tournament_bot(tournament: Tournament) -> Player:
    """A bot not yet in ``tournament`` with its entry fee (granted through the ledger)."""
    bot = Player.objects.filter(is_bot=True).exclude(entries__tournament=tournament).first()
    if bot is None:
        User = get_user_model()
        number = User.objects.filter(username__startswith="bot_").count() + 1
        while User.objects.filter(username=f"bot_{number}").exists():
            number += 1
        user = User(username=f"bot_{number}")
        user.set_unusable_password()
        user.save()
        bot = player_create(user=user, is_bot=True, grant=0)
    if bot.bankroll < tournament.entry_fee:
        player_grant(
            player=bot, amount=tournament.entry_fee * 10, reason="Croupier: chips for a bot"
        )
    return bot
