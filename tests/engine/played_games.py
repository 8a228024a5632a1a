"""Every game the site deals (each game and betting of dealer's choice), played to the end on a
fixed deck by a plain policy that makes every street matter: the first to act with nothing to
call bets the least it may, everyone else calls; at a draw seat 1 stands pat and the others
throw their first two cards away."""

from __future__ import annotations

from engine.cards import Card
from engine.deck import seeded_deck
from engine.hand import Hand
from engine.variants import MIXED_GAMES, VARIANTS, Stakes, stakes_for

#: (game, betting) of every game the site offers, in the registry's order.
GAMES = list(MIXED_GAMES["dealers-choice"].games)
NAMES = ["Ann", "Bob", "Cat"]
STAKES = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4, ante=1, bring_in=1)


def game_deck(game: str, betting: str) -> list[Card]:
    """The fixed deck the game is dealt from (all 52 cards: short deck deals its 36 of them)."""
    return seeded_deck(f"{game} {betting}")


def played_hand(game: str, betting: str, stacks: tuple[int, ...] = (200, 200, 200)) -> Hand:
    """``game`` played ``betting`` at three seats from a deck fixed by its name, to the end."""
    config = stakes_for(game, betting, STAKES)
    if not VARIANTS[game].is_stud and not config.get("ante"):
        config["ante"] = 1  # antes too, where the game has blinds
    hand = Hand(config, list(stacks), 0, game_deck(game, betting), NAMES)
    while not hand.is_over:
        legal = hand.legal
        seat = hand.actor
        if hand.runs_due:
            hand.choose_runs(1)
        elif legal is None or seat is None:
            raise AssertionError("a hand not over has someone to act")
        elif legal.discard:
            hand.discard(() if seat == 1 else hand.hole[seat][:2])
        elif legal.check and legal.min_raise_to is not None:
            hand.bet_or_raise_to(legal.min_raise_to)
        elif legal.check:
            hand.check()
        else:
            hand.call()
    return hand
