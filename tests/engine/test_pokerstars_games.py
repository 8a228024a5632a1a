"""PokerStars text of every game the site deals (engine/pokerstars.py), read back: pokerkit's
own PokerStars parser reads the seats' stacks, antes and blinds of each, and replays
whole the games it knows (no-limit hold'em, pot-limit Omaha); the chips each line puts in add
up to what each player lost, street by street (a draw starts a new betting round)."""

from __future__ import annotations

import re

import pytest

from engine.deck import seeded_deck
from engine.hand import EventKind, Hand
from engine.pokerstars import Header, hand_text
from engine.variants import VARIANTS
from tests.engine.played_games import GAMES, NAMES, played_hand
from tests.engine.test_pokerstars import PokerStarsWithAntes

pokerkit_utilities = pytest.importorskip("pokerkit.utilities")
pytestmark = pytest.mark.filterwarnings("ignore:The field 'time_zone_abbreviation'")

#: The games pokerkit's parser replays whole, by the name the text gives them.
REPLAYED = {"Hold'em No Limit": "NT", "Omaha Pot Limit": "PO"}


class PokerStarsGames(PokerStarsWithAntes):
    """The parser with pot-limit Omaha besides no-limit hold'em (the same actions)."""

    VARIANT = re.compile(r"  (?P<variant>" + "|".join(map(re.escape, REPLAYED)) + r") \(")
    VARIANTS = REPLAYED


def _texts(hand: Hand) -> list[str]:
    """The hand as each player saw it, and with every card (``everything``)."""
    header = Header(hand_id=1, table="Elm")
    texts = [hand_text(hand, viewer=seat, header=header) for seat in range(hand.seats)]
    return [*texts, hand_text(hand, header=header, everything=True)]


def _posted(hand: Hand, *kinds: EventKind) -> dict[str, int]:
    return {hand.players[e.seat or 0]: e.amount for e in hand.events if e.kind in kinds}


@pytest.mark.parametrize(("game", "betting"), GAMES)
def test_pokerkit_reads_each_games_stacks_antes_and_blinds(game, betting):
    hand = played_hand(game, betting)
    parser = PokerStarsWithAntes()
    value = pokerkit_utilities.parse_value
    for text in _texts(hand):
        stacks = parser._parse_starting_stacks(text, value)
        assert stacks == dict(zip(hand.players, hand.starting_stacks, strict=True)), text
        assert dict(parser._parse_antes(text, value)) == _posted(hand, EventKind.ANTE), text
        blinds = _posted(hand, EventKind.SMALL_BLIND, EventKind.BIG_BLIND)
        assert dict(parser._parse_blinds_or_straddles(text, value)) == blinds, text


@pytest.mark.parametrize(("game", "betting"), [("holdem", "no-limit"), ("omaha", "pot-limit")])
def test_pokerkit_replays_the_games_it_knows_to_the_same_stacks(game, betting):
    hand = played_hand(game, betting)
    for text in _texts(hand):
        [history] = list(PokerStarsGames()(text, error_status=True))
        final = [int(chips) for chips in list(history)[-1].stacks]
        assert dict(zip(history.players, final, strict=True)) == dict(
            zip(hand.players, hand.stacks, strict=True)
        ), text


_PUT = re.compile(
    r"(?P<who>.+): (?:posts (?:the ante|small blind|big blind|straddle) |brings in for "
    r"|calls |bets |raises \d+ to |completes it to )(?P<chips>\d+)"
)
_RETURNED = re.compile(r"Uncalled bet \((?P<chips>\d+)\) returned to (?P<who>.+)")
_COLLECTED = re.compile(r"(?P<who>.+) collected (?P<chips>\d+) from")
#: The headers before the first betting round: the blinds posted above them still count.
_DEALING = ("*** HOLE CARDS ***", "*** DEALING HANDS ***", "*** 3rd STREET ***")


def _nets(text: str) -> dict[str, int]:
    """Each player's net, as a tracker adds the text up: an ante is dead, a street's bets are
    totals (``raises 2 to 4``) from nothing at each new street or draw."""
    nets = dict.fromkeys(NAMES, 0)
    street = dict.fromkeys(NAMES, 0)
    for line in text.splitlines():
        if line == "*** SUMMARY ***":
            break
        if line.startswith("*** ") and line not in _DEALING:
            street = dict.fromkeys(NAMES, 0)
        elif m := _PUT.fullmatch(line.removesuffix(" and is all-in")):
            who, chips = m["who"], int(m["chips"])
            if " to " in line:  # a raise or completion names the street total
                chips -= street[who]
            if "ante" not in line:
                street[who] += chips
            nets[who] -= chips
        elif (m := _RETURNED.fullmatch(line)) or (m := _COLLECTED.match(line)):
            nets[m["who"]] += int(m["chips"])
    return nets


@pytest.mark.parametrize(("game", "betting"), GAMES)
def test_each_games_lines_add_up_to_each_players_net(game, betting):
    hand = played_hand(game, betting)
    assert hand.result is not None
    for text in _texts(hand):
        assert _nets(text) == dict(zip(hand.players, hand.result.net, strict=True)), text


@pytest.mark.parametrize(("game", "betting"), [g for g in GAMES if VARIANTS[g[0]].is_draw])
def test_the_draw_games_write_their_draws_as_pokerstars_does(game, betting):
    hand = played_hand(game, betting)
    ann, everything = _texts(hand)[0], _texts(hand)[-1]
    [first, *_] = [e for e in hand.events if e.kind is EventKind.DISCARD and e.seat == 0]
    thrown = " ".join(str(card) for card in first.cards)
    for text in (ann, everything):
        assert "*** DEALING HANDS ***" in text and "*** HOLE CARDS ***" not in text
        assert "*** FIRST DRAW ***" in text and "Bob: stands pat" in text
        assert "Flop" not in text
        assert "calls 0" not in text
    assert f"Ann: discards 2 cards [{thrown}]" in ann  # her own, never another's
    assert "Cat: discards 2 cards\n" in ann


@pytest.mark.parametrize("big_blinds_stack", [10_000, 150])  # 150: all in on blind and ante
def test_a_big_blind_ante_is_written_before_the_blinds(big_blinds_stack):
    """As PokerStars writes it: trackers read an ante written after the blinds as none."""
    config = {"small_blind": 50, "big_blind": 100, "ante": 100, "ante_mode": "big-blind"}
    stacks = [10_000, 10_000, big_blinds_stack]
    hand = Hand(config, stacks, 0, seeded_deck("big-blind ante"), NAMES)
    while not hand.is_over:
        legal = hand.legal
        assert legal is not None
        hand.check() if legal.check else hand.call()
    ante = next(e.amount for e in hand.events if e.kind is EventKind.ANTE)
    for text in _texts(hand):
        lines = text.splitlines()
        ante_line = next(i for i, line in enumerate(lines) if ": posts the ante" in line)
        assert lines[ante_line].startswith(f"Cat: posts the ante {ante}")
        assert (
            ante_line
            < lines.index("Bob: posts small blind 50")
            < lines.index(next(line for line in lines if line.startswith("Cat: posts big blind")))
        )
        [history] = list(PokerStarsGames()(text, error_status=True))
        final = [int(chips) for chips in list(history)[-1].stacks]
        assert dict(zip(history.players, final, strict=True)) == dict(
            zip(hand.players, hand.stacks, strict=True)
        ), text


def test_short_decks_stakes_are_its_ante_and_button_blind():
    hand = played_hand("short-deck", "no-limit")
    for text in _texts(hand):
        first = text.splitlines()[0]
        assert "  6+ Hold'em No Limit (1 ante, 2 button blind) - " in first, first
