"""The per-player summary rows of finished hands (``PlayerHand``), which statistics add up.

``player_hands_record`` listens to the hand-end service (``tables.services.hooks.hand_finished``,
registered by ``StatsConfig.ready``), inside its transaction (table row locked).
"""

from __future__ import annotations

from typing import Any

from engine.allin_ev import has_allin_ev
from engine.hand import Hand as EngineHand
from tables.db.rows import insert_many
from tables.models import Hand, PlayerHand
from tables.stats.figures import seat_figures


def player_hands_values(hand: Hand, state: EngineHand) -> list[dict[str, Any]]:
    """The ``PlayerHand`` rows of finished ``hand`` whose engine state is ``state``, as their
    columns' values by field ``attname`` (``insert_many`` takes them as they are)."""
    # an all-in's EV is computed off the hand's end, with the run-out's odds (the croupier:
    # tables.services.runouts.runout_odds_store); any other hand's is its net
    all_in = has_allin_ev(state)
    hand_id, table_id, started_at = hand.pk, hand.table_id, hand.started_at
    game = state.config.game
    return [
        {
            "hand_id": hand_id,
            "player_id": seat["player_id"],
            "table_id": table_id,
            "seat": figures.seat,
            "started_at": started_at,
            "game": game,
            "big_blind": figures.big_blind,
            "contributed": figures.contributed,
            "collected": figures.collected,
            "net": figures.net,
            "net_bb": (net_bb := figures.net_bb),
            "vpip": figures.vpip,
            "pfr": figures.pfr,
            "three_bet_chance": figures.three_bet_chance,
            "three_bet": figures.three_bet,
            "saw_flop": figures.saw_flop,
            "showdown": figures.showdown,
            "won_at_showdown": figures.won_at_showdown,
            "postflop_aggressive": figures.postflop_aggressive,
            "postflop_calls": figures.postflop_calls,
            "all_in": all_in,
            "ev_net": None if all_in else figures.net,
            "ev_net_bb": None if all_in else net_bb,
        }
        for seat, figures in zip(hand.seats, seat_figures(state), strict=True)
    ]


def player_hands_rows(hand: Hand, state: EngineHand) -> list[PlayerHand]:
    """Unsaved ``PlayerHand`` rows for finished ``hand`` whose engine state is ``state``."""
    return [PlayerHand(**values) for values in player_hands_values(hand, state)]


def player_hands_record(hand: Hand, state: EngineHand) -> None:
    """Store the rows of a hand that just finished. Lock: the caller's (table row)."""
    insert_many(player_hands_values(hand, state), model=PlayerHand)
