"""The hand log in words, read from the engine's typed events (no text parsed back)."""

from engine.cards import Card
from engine.hand import Hand as EngineHand, HandConfig
from tables.models import HandAction
from tables.presenters.log import Dealt, LogLine, log_entries, viewer_log
from tables.selectors.hands import Decision
from tests.engine.test_hand_rules import make_deck

NAMES = ["ann", "bob", "cy"]


def played():
    """Three seats, button 0: ann and bob have their cards named; every kind of line."""
    deck = make_deck(3, 0, holes={0: "AsAh", 1: "KsKh"}, board="2c5d9s3hTd")
    state = EngineHand(HandConfig(ante=1), [100, 100, 40], 0, deck, players=NAMES)
    decisions = []
    for kind, amount, source in (
        ("raise", 6, HandAction.Source.PLAYER),  # ann (button) raises preflop
        ("call", None, HandAction.Source.PLAYER),  # bob
        ("all_in", None, HandAction.Source.PLAYER),  # cy shoves 39
        ("call", None, HandAction.Source.PLAYER),  # ann
        ("fold", None, HandAction.Source.TIMEOUT),  # bob times out
    ):
        state.act({"kind": kind, "amount": amount})
        decisions.append(Decision(kind, amount, source))
    return state, decisions


def words(lines) -> list:
    """Lines as (text, cards as one string); a ``Dealt`` marker stays as it is."""
    return [
        line if isinstance(line, Dealt) else (line.text, "".join(map(str, line.cards)))
        for line in lines
    ]


def test_every_event_reads_as_words_with_the_stored_notes():
    state, decisions = played()
    assert words(log_entries(state.view(None), NAMES, decisions)) == [
        ("bob posts ante 1", ""),
        ("cy posts ante 1", ""),
        ("ann posts ante 1", ""),
        ("bob posts small blind 1", ""),
        ("cy posts big blind 2", ""),
        Dealt(1),
        Dealt(2),
        Dealt(0),
        ("ann raises to 6", ""),
        ("bob calls", ""),
        ("cy raises to 39 (all-in)", ""),
        ("ann calls", ""),
        ("bob folds (timed out)", ""),
        ("Flop:", "2c5d9s"),
        ("Turn:", "3h"),
        ("River:", "Td"),
        ("cy shows", "2d2h"),
        ("ann shows", "AsAh"),
        ("cy wins 87 (Three of a Kind, Twos)", ""),
    ]


def test_a_check_reads_as_a_check_even_without_the_stored_decisions():
    # heads-up: the button calls, the big blind checks; nothing read from the database
    state = EngineHand(HandConfig(), [50, 50], 0, make_deck(2, 0), players=NAMES[:2])
    state.act("call")
    state.act("check")
    state.act("raise 4")  # the big blind bets first after the flop
    texts = [text for text, _ in words(viewer_log(log_entries(state.view(None), NAMES), None, ()))]
    assert texts[-4:] == ["ann calls", "bob checks", "Flop:", "bob bets to 4"]


def test_only_the_viewers_own_cards_appear_as_theirs():
    state, decisions = played()
    entries = log_entries(state.view(None), NAMES, decisions)
    for index, cards in ((0, "AsAh"), (1, "KsKh")):
        mine = viewer_log(entries, index, state.view(index).seats[index].cards)
        assert [line for line in words(mine) if line[0] == "Your cards"] == [("Your cards", cards)]
    assert not [line for line in viewer_log(entries, None, ()) if line.text == "Your cards"]
    assert all(isinstance(line, LogLine) for line in viewer_log(entries, 2, (None, None)))


def test_a_call_that_puts_the_caller_all_in_says_all_in():
    """Issue 32, item 8: a call of a bet the caller's stack covers exactly, or does not cover,
    is their all-in, sent as a plain call; the log says "(all-in)" as for the all-in key."""
    deck = make_deck(3, 0, holes={0: "AsAh", 1: "KsKh", 2: "QsQh"}, board="2c5d9s3hTd")
    state = EngineHand(HandConfig(), [200, 60, 30], 0, deck, players=NAMES)
    decisions = []
    for kind, amount in (("raise", 60), ("call", None), ("call", None)):
        state.act({"kind": kind, "amount": amount})  # bob covers 60 exactly, cy 30 only
        decisions.append(Decision(kind, amount, HandAction.Source.PLAYER))
    lines = log_entries(state.view(None), NAMES, decisions)
    texts = [line.text for line in lines if isinstance(line, LogLine)]
    assert texts[texts.index("ann raises to 60") + 1 :][:2] == [
        "bob calls (all-in)",
        "cy calls (all-in)",
    ]
    assert "ann raises to 60 (all-in)" not in texts  # ann has chips behind


def test_each_round_of_hole_cards_is_one_line_at_the_same_place_for_everyone():
    """A spectator reads that the hole cards were dealt, once; each player reads their own
    cards on that line; every log is as long, so a ``frames=diff`` socket's own part of
    the log is that one line."""
    state, decisions = played()
    entries = log_entries(state.view(None), NAMES, decisions)
    spectators = viewer_log(entries, None, ())
    place = [line.text for line in spectators].index("The hole cards are dealt")
    assert place == 5 and [line.text for line in spectators].count("The hole cards are dealt") == 1
    for index in range(3):
        mine = viewer_log(entries, index, state.view(index).seats[index].cards)
        assert len(mine) == len(spectators)
        differ = [n for n, (a, b) in enumerate(zip(mine, spectators, strict=True)) if a != b]
        assert differ == [place]


def test_stud_deals_each_round_down_as_one_line():
    """Stud's two down cards on 3rd street sit between the up cards of every seat; the
    round is one line where its first seat's cards were dealt, and 7th street's one down
    card is another."""
    entries = [
        LogLine("ann posts ante 1"),
        Dealt(1, 0, 2),
        LogLine("bob gets (up)"),
        Dealt(0, 0, 2),
        LogLine("ann gets (up)"),
        LogLine("7th street:"),
        Dealt(1, 6, 1),
        Dealt(0, 6, 1),
    ]
    cards = [Card.parse(code) for code in ("As", "Ah", "2c", "3c", "4c", "5c", "Kd")]
    spectators = [line.text for line in viewer_log(entries, None, ())]
    assert spectators == [
        "ann posts ante 1",
        "Two cards each are dealt down",
        "bob gets (up)",
        "ann gets (up)",
        "7th street:",
        "One card each is dealt down",
    ]
    anns = viewer_log(entries, 0, cards)
    assert [(line.text, "".join(map(str, line.cards))) for line in anns] == [
        ("ann posts ante 1", ""),
        ("Your cards (down)", "AsAh"),
        ("bob gets (up)", ""),
        ("ann gets (up)", ""),
        ("7th street:", ""),
        ("Your card (down)", "Kd"),
    ]


def test_chip_counts_in_the_log_have_thousands_separators():
    """Posts, bets, raises and wins read as the pages write chips (10000 -> 10,000)."""
    deck = make_deck(2, 0, holes={0: "AsAh", 1: "KsKh"}, board="2c5d9s3hTd")
    state = EngineHand(
        HandConfig(small_blind=500, big_blind=1000), [20000, 20000], 0, deck, players=NAMES[:2]
    )
    decisions = []
    for kind, amount in (("raise", 2500), ("raise", 12000), ("fold", None)):
        state.act({"kind": kind, "amount": amount})
        decisions.append(Decision(kind, amount, HandAction.Source.PLAYER))
    lines = log_entries(state.view(None), NAMES[:2], decisions)
    texts = [line.text for line in lines if not isinstance(line, Dealt)]
    assert texts[:2] == ["ann posts small blind 500", "bob posts big blind 1,000"]
    assert "ann raises to 2,500" in texts
    assert "bob raises to 12,000" in texts
    assert any(text.startswith("bob takes back 9,500") for text in texts)
    assert any(text.startswith("bob wins 5,000") for text in texts)
