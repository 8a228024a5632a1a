"""Build hands for the API and statistics tests: decks from chosen cards, stored finished hands."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from engine.cards import parse_cards
from engine.hand import Action, Hand as EngineHand, HandConfig
from tables.models import Hand, HandAction, HandSecret, PlayerHand
from tables.stats.player_hands import player_hands_rows

CONFIG = HandConfig(small_blind=1, big_blind=2)


def deck_for(holes: list[str], board: str, button: int) -> list[int]:
    """A deck dealing ``holes[seat]`` (e.g. ``"AsAh"``) to each seat and ``board`` (5 cards).

    Hole cards go one at a time from the seat left of the button, as ``engine.hand`` deals;
    one card is burnt before the flop, the turn and the river.
    """
    n = len(holes)
    hole = [[int(c) for c in parse_cards(h)] for h in holes]
    board_cards = [int(c) for c in parse_cards(board)]
    used = {c for h in hole for c in h} | set(board_cards)
    spare = iter(c for c in range(52) if c not in used)
    order = [(button + k) % n for k in range(1, n + 1)]
    deck = [hole[seat][r] for r in range(len(hole[0])) for seat in order]
    for cards in (board_cards[:3], board_cards[3:4], board_cards[4:5]):  # flop, turn, river
        deck.append(next(spare))
        deck.extend(cards)
    deck.extend(spare)
    return deck


def engine_hand(holes, board, actions, stacks=None, button=0, config=CONFIG) -> EngineHand:
    stacks = stacks or [200] * len(holes)
    return EngineHand.replay(
        config, stacks, button, deck_for(holes, board, button), [Action.parse(a) for a in actions]
    )


def hand_rows(table, players, state, *, number: int, started_at: datetime | None = None):
    """Unsaved rows of a finished hand: ``(Hand, [HandAction], [PlayerHand])``."""
    started_at = started_at or timezone.now()
    hand = Hand(
        table=table,
        number=number,
        status=Hand.Status.FINISHED if state.is_over else Hand.Status.RUNNING,
        config=state.config.to_dict(),
        seats=[
            {"seat": i, "player_id": p.pk, "name": p.name, "stack": s}
            for i, (p, s) in enumerate(zip(players, state.starting_stacks, strict=True))
        ],
        button=state.button,
        button_seat=state.button,
        commitment="c" * 64,
        result=state.result.to_dict() if state.is_over else None,
        pot=state.total_pot if state.is_over else 0,
        finished_at=started_at if state.is_over else None,
    )
    hand.started_at = started_at
    actions = [
        HandAction(hand=hand, index=i, seat=0, kind=a.kind, amount=a.amount)
        for i, a in enumerate(state.actions)
    ]
    return hand, actions


def store_hand(table, players, state, *, number: int = 1, started_at=None) -> Hand:
    """Save an engine hand as a stored hand (finished or running), with its summary rows."""
    hand, actions = hand_rows(table, players, state, number=number, started_at=started_at)
    started_at = hand.started_at
    hand.save()  # auto_now_add sets started_at to now: put the chosen time back
    Hand.objects.filter(pk=hand.pk).update(started_at=started_at)
    hand.started_at = started_at
    HandSecret.objects.create(hand=hand, deck=[int(c) for c in state._deck], seed="5eed" * 16)
    HandAction.objects.bulk_create(actions)
    if state.is_over:
        PlayerHand.objects.bulk_create(player_hands_rows(hand, state))
    return hand


def store_played_hand(table, players, state: EngineHand, number: int = 1) -> Hand:
    """``state`` (a hand of ``tests.engine.played_games``, played to its end) stored as the
    site stores one: its rows, its fixed deck, a draw's discards with their cards."""
    from engine.cards import format_cards
    from engine.types import ActionKind
    from tests.engine.played_games import game_deck

    hand, actions = hand_rows(table, players, state, number=number)
    for row, action in zip(actions, state.actions, strict=True):
        if action.kind is ActionKind.DISCARD:
            row.cards = format_cards(action.cards)
    hand.save()
    deck = [int(card) for card in game_deck(state.config.game, state.config.betting)]
    HandSecret.objects.create(hand=hand, deck=deck, seed="5eed" * 16)
    HandAction.objects.bulk_create(actions)
    PlayerHand.objects.bulk_create(player_hands_rows(hand, state))
    return hand
