"""The draw games both ways with pokerkit 0.7: 2-7 triple draw (``FixedLimitDeuceToSeven
LowballTripleDraw``), 2-7 single draw (``NoLimitDeuceToSevenLowballSingleDraw``) and badugi
(``FixedLimitBadugi``) through PHH files; five-card draw, which pokerkit has no preset (nor
PHH a code) for, as pokerkit's generic ``Poker`` deals it (``FiveCardDraw`` here: its single
draw with five hole cards and the standard high hand), driven operation by operation.

``pokerkit_to_engine(game, seed)``: pokerkit plays a random hand, the engine replays it;
``engine_to_pokerkit(game, seed)``: the reverse. Each returns ``same`` or the house rule that
explains the difference (``test_draw_differential``, ``bench/check_variants_pokerkit.py``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pokerkit import (
    Automation,
    Deck,
    FixedLimitBadugi,
    FixedLimitDeuceToSevenLowballTripleDraw,
    HandHistory,
    Mode,
    NoLimitDeuceToSevenLowballSingleDraw,
    NoLimitPokerMixin,
    PotLimitPokerMixin,
    SingleDraw,
    StandardHighHand,
)
from pokerkit.state import (
    CheckingOrCalling,
    CompletionBettingOrRaisingTo,
    Folding,
    HoleDealing,
    StandingPatOrDiscarding,
)

from engine import phh
from engine.cards import parse_cards
from engine.deck import shuffled_deck, stacked_deck
from engine.errors import HandHistoryError, IllegalAction
from engine.hand import EventKind, Hand, HandConfig
from engine.randomhands import random_action
from tests.engine.pokerkit_games import AUTOMATIONS, random_decision


class FiveCardDrawMixin:
    deck: ClassVar[Deck] = Deck.STANDARD
    hand_types: ClassVar[tuple[type, ...]] = (StandardHighHand,)
    hole_dealing_count: ClassVar[int] = 5


class NoLimitFiveCardDraw(NoLimitPokerMixin, FiveCardDrawMixin, SingleDraw):
    """Five-card draw as pokerkit's generic single draw deals it (no preset in pokerkit)."""


class PotLimitFiveCardDraw(PotLimitPokerMixin, FiveCardDrawMixin, SingleDraw):
    """Pot-limit five-card draw, likewise."""


GAMES: dict[str, tuple[str, Any]] = {
    "27-triple-draw": ("fixed-limit", FixedLimitDeuceToSevenLowballTripleDraw),
    "27-single-draw": ("no-limit", NoLimitDeuceToSevenLowballSingleDraw),
    "badugi": ("fixed-limit", FixedLimitBadugi),
    "five-card-draw/no-limit": ("no-limit", NoLimitFiveCardDraw),
    "five-card-draw/pot-limit": ("pot-limit", PotLimitFiveCardDraw),
}
#: pokerkit deals the cards itself except in the operation-driven replays.
DEALT_BY_HAND = tuple(a for a in AUTOMATIONS if a is not Automation.HOLE_DEALING)


def random_table(rng: random.Random, game: str) -> tuple[int, int, list[int]]:
    """(ante, big blind, stacks): 2-6 players, uneven stacks, some short (all-ins)."""
    blind = rng.choice((2, 4, 10))
    ante = rng.choice((0, 0, 1))
    players = rng.randint(2, 6 if game != "badugi" else 8)
    stacks = [
        rng.randint(ante + blind + 1, 6 * blind)
        if rng.random() < 0.3
        else rng.randint(10, 60) * blind
        for _ in range(players)
    ]
    return ante, blind, stacks


def _pokerkit_game(game: str, automations: tuple[Automation, ...], ante: int, blind: int) -> Any:
    betting, cls = GAMES[game]
    blinds = (blind // 2, blind)
    if betting == "fixed-limit":
        return cls(automations, True, ante, blinds, blind, 2 * blind, mode=Mode.CASH_GAME)
    return cls(automations, True, ante, blinds, blind, mode=Mode.CASH_GAME)


def _engine_config(game: str, ante: int, blind: int) -> HandConfig:
    betting, _ = GAMES[game]
    return HandConfig(
        game=game.split("/")[0], betting=betting, small_blind=blind // 2, big_blind=blind, ante=ante
    )


def pokerkit_play(game: str, seed: int) -> tuple[Any, Any, tuple[int, int, list[int]]]:
    """pokerkit plays one hand with random decisions and discards of 0 to all cards."""
    rng = random.Random(seed)
    random.seed(seed)  # pokerkit shuffles with the random module
    ante, blind, stacks = random_table(rng, game)
    built = _pokerkit_game(game, AUTOMATIONS, ante, blind)
    state = built(stacks, len(stacks))
    while state.status:
        if state.can_stand_pat_or_discard():
            hole = state.hole_cards[state.stand_patter_or_discarder_index]
            state.stand_pat_or_discard(rng.sample(hole, rng.randint(0, len(hole))))
        else:
            random_decision(state, rng)
    return built, state, (ante, blind, stacks)


def engine_play(game: str, seed: int) -> Hand:
    """The engine plays one hand with random decisions and discards of 0 to all cards."""
    rng = random.Random(seed)
    ante, blind, stacks = random_table(rng, game)
    hand = Hand(_engine_config(game, ante, blind), stacks, len(stacks) - 1, shuffled_deck(rng))
    while not hand.is_over:
        if hand.draw_due:
            hole = list(hand.hole[hand.actor])
            hand.discard(rng.sample(hole, rng.randint(0, len(hole))))
        else:
            hand.act(random_action(hand, rng))
    return hand


def _named(hand: Hand | None, ours: list[int], theirs: list[int]) -> str:
    if ours == theirs:
        return "same"
    assert sum(ours) == sum(theirs), "chips made or lost"
    odd = sum(a.amount % len(a.winners) for a in hand.result.awards) if hand and hand.result else 0
    assert odd and all(abs(a - b) <= odd for a, b in zip(ours, theirs, strict=True)), (ours, theirs)
    return "odd_chips"


def pokerkit_to_engine(game: str, seed: int) -> str:
    """pokerkit plays, the engine replays (its PHH file, or its operations for five-card
    draw): ``same`` or the house rule that explains the difference."""
    built, state, table = pokerkit_play(game, seed)
    theirs = list(state.stacks)
    try:
        if game.startswith("five-card-draw"):
            hand = _engine_follows(game, state, table)
        else:
            text = HandHistory.from_game_state(built, state).dumps()
            hand = phh.loads(text, f"{game} seed {seed}").replay()
    except (HandHistoryError, IllegalAction) as error:
        if "fixed-limit cap" in str(error):
            return "fixed_limit_cap"
        if "not reopened" in str(error):
            return "short_all_in_reopening"
        raise
    return _named(hand, list(hand.stacks), theirs)


def _engine_follows(game: str, state: Any, table: tuple[int, int, list[int]]) -> Hand:
    """The engine replays pokerkit's operations (pokerkit's p1 is the engine's seat 0, the
    button the last seat)."""
    ante, blind, stacks = table
    n = len(stacks)
    ops = state.operations
    first: list[list[int]] = [[] for _ in range(n)]  # dealt a card at a time
    draws: list[list[int | None]] = [[] for _ in range(n)]
    for op in ops:
        if isinstance(op, HoleDealing):
            cards = [int(parse_cards(repr(c))[0]) for c in op.cards]
            hole = first[op.player_index]
            (hole if len(hole) < 5 else draws[op.player_index]).extend(cards)
    hand = Hand(_engine_config(game, ante, blind), stacks, n - 1, stacked_deck(first, [], 5))
    hand.deal_recorded_draws(draws)
    for op in ops:
        if isinstance(op, StandingPatOrDiscarding):
            hand.discard([parse_cards(repr(c))[0] for c in op.cards], seat=op.player_index)
        elif isinstance(op, Folding):
            hand.fold(seat=op.player_index)
        elif isinstance(op, CheckingOrCalling):
            legal = hand.legal
            (hand.check if legal and legal.check else hand.call)(seat=op.player_index)
        elif isinstance(op, CompletionBettingOrRaisingTo):
            hand.bet_or_raise_to(op.amount, seat=op.player_index)
    return hand


def engine_to_pokerkit(game: str, seed: int) -> str:
    """The engine plays, pokerkit replays (the engine's PHH file, or its events for five-card
    draw): ``same`` or the house rule that explains the difference."""
    hand = engine_play(game, seed)
    n = hand.seats
    ours = [hand.stacks[(hand.button + 1 + k) % n] for k in range(n)]
    if game.startswith("five-card-draw"):
        theirs = _pokerkit_follows(game, hand)
    else:
        try:
            states = list(HandHistory.loads(phh.dumps(hand)))
        except ValueError:  # pokerkit cannot follow the file's betting
            named = _engine_house_rule(hand)
            assert named, f"pokerkit refuses the engine's {game} hand {seed}"
            return named
        assert not states[-1].status
        theirs = list(states[-1].stacks)
    return _named(hand, ours, theirs)


def _engine_house_rule(hand: Hand) -> str | None:
    """The house rule in this hand that pokerkit plays otherwise, if any:
    ``short_blind`` (a blind posted all-in for less: the others still call the full blind),
    ``fixed_limit_short_all_in`` (an all-in bet or raise for less than a full one: the next
    player may raise a full bet over it, pokerkit only completes), or
    ``fixed_limit_no_cap_heads_up`` (more than a bet and three raises heads-up)."""
    c = hand.config
    events = hand.events
    posted = {EventKind.SMALL_BLIND: c.small_blind, EventKind.BIG_BLIND: c.big_blind}
    if any(e.kind in posted and e.amount < posted[e.kind] for e in events):
        return "short_blind"
    if c.betting != "fixed-limit":
        return None
    street, last, raises, live, previous = 0, 0, 0, hand.seats, None
    for e in events:
        if e.kind is EventKind.DISCARD and previous is not EventKind.DISCARD:
            street, last, raises = street + 1, 0, 0  # a draw: the next betting round
        previous = e.kind
        if e.kind is EventKind.BIG_BLIND:
            last = e.amount
        elif e.kind is EventKind.FOLD:
            live -= 1
        elif e.kind in (EventKind.BET, EventKind.RAISE):
            full = c.fixed_small_bet if street < 2 else c.fixed_big_bet
            if e.amount - last != full:
                return "fixed_limit_short_all_in"
            last, raises = e.amount, raises + 1
            if raises > 3 and live == 2:
                return "fixed_limit_no_cap_heads_up"
    return None


def _pokerkit_follows(game: str, hand: Hand) -> list[int]:
    c = hand.config
    built = _pokerkit_game(game, DEALT_BY_HAND, c.ante, c.big_blind)
    state = built(list(hand.starting_stacks), hand.seats)  # the button is the last seat
    for e in hand.events:
        k = e.kind
        if k is EventKind.DEAL_HOLE or k is EventKind.DRAW:
            state.deal_hole("".join(str(card) for card in e.cards))
        elif k is EventKind.DISCARD:
            state.stand_pat_or_discard("".join(str(card) for card in e.cards))
        elif k is EventKind.FOLD:
            state.fold()
        elif k is EventKind.CHECK or k is EventKind.CALL:
            state.check_or_call()
        elif k is EventKind.BET or k is EventKind.RAISE:
            state.complete_bet_or_raise_to(e.amount)
    assert not state.status
    return list(state.stacks)
