"""The hand log in words, read from the engine's typed events (no text parsed back)."""

from engine.hand import Hand as EngineHand
from engine.hand import HandConfig
from tables.models import Hand, HandAction
from tables.presenters import DEALT, _log_lines, viewer_log
from tests.engine.test_hand_rules import make_deck

NAMES = ["ann", "bob", "cy"]


def played():
    """Three seats, button 0: ann and bob have their cards named; every kind of line."""
    deck = make_deck(3, 0, holes={0: "AsAh", 1: "KsKh"}, board="2c5d9s3hTd")
    state = EngineHand(HandConfig(ante=1), [100, 100, 40], 0, deck, players=NAMES)
    decisions = []
    for kind, amount, source in (
        ("raise", 6, HandAction.Source.PLAYER),   # ann (button) raises preflop
        ("call", None, HandAction.Source.PLAYER),  # bob
        ("all_in", None, HandAction.Source.PLAYER),  # cy shoves 39
        ("call", None, HandAction.Source.PLAYER),  # ann
        ("fold", None, HandAction.Source.TIMEOUT),  # bob times out
    ):
        state.act({"kind": kind, "amount": amount})
        decisions.append((kind, amount, source))
    row = Hand(seats=[{"seat": i, "name": name, "stack": 100, "player_id": i}
                      for i, name in enumerate(NAMES)])
    return state, row, decisions


def test_every_event_reads_as_words_with_the_stored_notes():
    state, row, decisions = played()
    assert _log_lines(state.view(None), row, decisions) == [
        ("bob posts ante 1", ""), ("cy posts ante 1", ""), ("ann posts ante 1", ""),
        ("bob posts small blind 1", ""), ("cy posts big blind 2", ""),
        (DEALT, 1), (DEALT, 2), (DEALT, 0),
        ("ann raises to 6", ""), ("bob calls", ""), ("cy raises to 39 (all-in)", ""),
        ("ann calls", ""), ("bob folds (timed out)", ""),
        ("Flop:", "2c5d9s"), ("Turn:", "3h"), ("River:", "Td"),
        ("cy shows", "2d2h"), ("ann shows", "AsAh"),
        ("cy wins 87 (Three of a Kind, Twos)", ""),
    ]


def test_a_check_reads_as_a_check_even_without_the_stored_decisions():
    # heads-up: the button calls, the big blind checks; nothing read from the database
    state = EngineHand(HandConfig(), [50, 50], 0, make_deck(2, 0), players=NAMES[:2])
    state.act("call")
    state.act("check")
    state.act("raise 4")  # the big blind bets first after the flop
    row = Hand(seats=[{"seat": i, "name": n} for i, n in enumerate(NAMES[:2])])
    words = [text for text, _ in _log_lines(state.view(None), row, decisions=[])]
    assert words[-4:] == ["ann calls", "bob checks", "Flop:", "bob bets to 4"]


def test_only_the_viewers_own_cards_appear_as_theirs():
    state, row, decisions = played()
    lines = _log_lines(state.view(None), row, decisions)
    for index, cards in ((0, "AsAh"), (1, "KsKh")):
        mine = viewer_log(lines, index, state.view(index).seats[index].cards)
        assert [line for line in mine if line[0] == "Your cards"] == [("Your cards", cards)]
    assert not [line for line in viewer_log(lines, None, ()) if line[0] == "Your cards"]
