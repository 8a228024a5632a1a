"""The replayer's odds: at every step, each known hand's equity, and a call's pot odds.

Made from each step's view alone (``tables.selectors.replay``: the viewer's own cards and
the cards shown at the end, nothing else), so a card the viewer never saw cannot move any
figure. At each step, of the hands still in:

- two or more known (shown at the end, or the viewer's own): each one's chance between
  them, with the board known at that step (``engine.runout.cards_odds``: every board still
  to come enumerated; Omaha preflop a seeded sample). A hand still in whose cards were never
  shown is left out: nothing is known of it.
- only the viewer's own known: the viewer's chance against as many random hands as
  opponents are still in (``engine.replay_odds.random_hands_odds``: a seeded sample;
  Hold'em only).

Stud games too (stud, stud hi-lo, razz): each known hand dealt the rest of its seven cards
from the cards not seen (``engine.replay_odds.stud_odds``; the up-cards of the other hands
are seen by all, so out of that deck). Not the draw games: a draw's cards to come depend on
a decision, how many to draw. A call's pot odds are every game's.
The same dozen figures come back at many steps (every preflop decision has the same cards
known): each is computed once per page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import ALL_CARDS, Card
from engine.replay_odds import PotOdds, pot_odds, random_hands_odds, stud_odds
from engine.runout import cards_odds
from engine.types import HandConfig
from tables.selectors.replay import ReplayStep

#: ``HandsOdds.basis``: between the hands shown (and the viewer's), or the viewer's own
#: against random hands.
SHOWN = "shown"
RANDOM = "random"
#: The seed of any sample: the same page on every load.
ODDS_SEED = 0


@dataclass(frozen=True)
class HandChance:
    """One hand's chance at a step: ``win`` alone, ``tie`` (hi-lo: part of the pot),
    ``share`` of the pot expected; 0..1."""

    seat: int
    name: str
    win: float
    tie: float
    share: float


@dataclass(frozen=True)
class HandsOdds:
    """The known hands' chances at one step: ``basis`` ``SHOWN`` or ``RANDOM`` (then
    ``opponents`` random hands), ``exact`` (every deal counted) or a seeded sample."""

    basis: str
    hands: tuple[HandChance, ...]
    exact: bool
    opponents: int = 0

    @property
    def against_random(self) -> bool:
        return self.basis == RANDOM


@dataclass(frozen=True)
class StepOdds:
    """What the replayer shows beside one step: the hands' odds (None: none to show) and,
    on a call's step, its pot odds."""

    index: int
    hands: HandsOdds | None
    pot_odds: PotOdds | None


def replay_step_odds(steps: Sequence[ReplayStep]) -> list[StepOdds]:
    """Each step's odds, from the steps as their viewer sees them (see the module
    docstring)."""
    computed: dict[tuple[object, ...], HandsOdds | None] = {}
    odds = []
    for step in steps:
        hands = None
        if not step.awarded:
            key, compute = _odds_of(step)
            if key not in computed:
                computed[key] = compute()
            hands = computed[key]
        called = pot_odds(step.called, step.pot_before) if step.called and step.pot_before else None
        odds.append(StepOdds(step.index, hands, called))
    return odds


def equity_supported(config: HandConfig) -> bool:
    """Whether the replayer shows equity in ``config``'s game: a board game's or a stud
    game's (not a draw game's: its cards to come depend on the draw, a decision)."""
    return config.variant.structure in ("board", "stud")


def random_hands_supported(config: HandConfig) -> bool:
    """Whether a lone known hand is set against random hands: Hold'em's (two hole cards,
    the full deck, high only)."""
    variant = config.variant
    return (
        equity_supported(config)
        and variant.hole_cards == 2
        and variant.deck_size == len(ALL_CARDS)
        and not config.is_hilo
    )


def _odds_of(step: ReplayStep) -> tuple[tuple[object, ...], Callable[[], HandsOdds | None]]:
    """What decides a step's odds (the key they are kept under) and how to compute them."""
    view = step.view
    config = view.config
    if not equity_supported(config):
        return ("none",), _none
    live = [s for s in view.seats if not s.folded]
    known = [s for s in live if s.cards and all(c is not None for c in s.cards)]
    board = tuple(view.board)
    if len(known) >= 2:
        seats = tuple(s.seat for s in known)
        holes = tuple(tuple(c for c in s.cards if c is not None) for s in known)
        names = tuple(s.name for s in known)
        if config.is_stud:
            # the up-cards of the hands not known are seen by all: not in the deck any more
            dead = tuple(
                c for s in view.seats if s.seat not in seats for c in s.cards if c is not None
            )
            return (SHOWN, seats, holes, dead, board), lambda: _stud_odds(
                config, board, seats, holes, names, dead
            )
        return (SHOWN, seats, holes, board), lambda: _shown_odds(
            config, view.street, board, seats, holes, names
        )
    opponents = len(live) - 1
    if (
        len(known) == 1
        and known[0].seat == view.viewer
        and opponents >= 1
        and random_hands_supported(config)
    ):
        me = known[0]
        hole = tuple(c for c in me.cards if c is not None)
        return (RANDOM, me.seat, hole, board, opponents), lambda: _random_odds(
            me.seat, me.name, hole, board, opponents
        )
    return ("none",), _none


def _shown_odds(
    config: HandConfig,
    street: str,
    board: tuple[Card, ...],
    seats: tuple[int, ...],
    holes: tuple[tuple[Card, ...], ...],
    names: tuple[str, ...],
) -> HandsOdds:
    odds = cards_odds(config, street, board, seats, holes, seed=ODDS_SEED)
    hands = tuple(
        HandChance(seat, name, win, tie, share)
        for seat, name, win, tie, share in zip(
            seats, names, odds.win, odds.tie, odds.share, strict=True
        )
    )
    return HandsOdds(SHOWN, hands, odds.exact)


def _stud_odds(
    config: HandConfig,
    board: tuple[Card, ...],
    seats: tuple[int, ...],
    holes: tuple[tuple[Card, ...], ...],
    names: tuple[str, ...],
    dead: tuple[Card, ...],
) -> HandsOdds:
    odds = stud_odds(config, holes, dead, board, seed=ODDS_SEED)
    hands = tuple(
        HandChance(seat, name, win, tie, share)
        for seat, name, win, tie, share in zip(
            seats, names, odds.win, odds.tie, odds.share, strict=True
        )
    )
    return HandsOdds(SHOWN, hands, odds.exact)


def _random_odds(
    seat: int, name: str, hole: tuple[Card, ...], board: tuple[Card, ...], opponents: int
) -> HandsOdds:
    odds = random_hands_odds(hole, board, opponents, seed=ODDS_SEED)
    chance = HandChance(seat, name, odds.win, odds.tie, odds.share)
    return HandsOdds(RANDOM, (chance,), odds.exact, opponents)


def _none() -> None:
    return None


def step_odds_json(steps: Sequence[ReplayStep]) -> list[dict[str, Any]]:
    """The steps with their odds for the REST hand history, as ``replay_step_odds`` gives
    them: fractions 0..1 (four decimals), pot odds in percent and "to 1"."""
    return [
        {
            "index": step.index,
            "text": step.label,
            "equity": None if odds.hands is None else _hands_json(odds.hands),
            "pot_odds": None
            if odds.pot_odds is None
            else {
                "to_call": odds.pot_odds.to_call,
                "pot": odds.pot_odds.pot,
                "percent": round(odds.pot_odds.percent, 2),
                "ratio": round(odds.pot_odds.ratio, 2),
            },
        }
        for step, odds in zip(steps, replay_step_odds(steps), strict=True)
    ]


def _hands_json(hands: HandsOdds) -> dict[str, Any]:
    return {
        "basis": hands.basis,
        "exact": hands.exact,
        "opponents": hands.opponents,
        "hands": [
            {
                "seat": hand.seat,
                "name": hand.name,
                "win": round(hand.win, 4),
                "tie": round(hand.tie, 4),
                "share": round(hand.share, 4),
            }
            for hand in hands.hands
        ],
    }
