"""pkstate YAML: the library's own hands read and written exactly, every real PHH hand and
random hands of every game through YAML and back, viewers' copies, bad files, ``convert``."""

import datetime as dt
import random
import re
import subprocess
import sys

import pytest
import yaml

from engine import phh, pkstate
from engine.cards import parse_cards
from engine.errors import HandHistoryError
from engine.hand import Hand, HandConfig
from engine.randomhands import random_hand
from tests.engine.phh_data import PHH_FILES

# The pkstate README's example, exactly as the library prints it.
EXAMPLE = """\
id: example-hand
game: NoLimitHoldem
button: 0
forced_bets:
  small: 50
  big: 100
players:
- name: Alice
  stack: 1000
- name: Bob
  stack: 1000
rounds:
- - P0Dealt: A♠ K♠
  - P1Dealt: 7♦ 2♣
  - P0CBR: 100
  - P1Fold
  - P0Wins: 100
"""

# The library's own test hand ("The Hand", High Stakes Poker): blinds listed as CBRs first.
THE_HAND = """\
id: the_hand
game: NoLimitHoldem
button: 0
forced_bets: {small: 50, big: 100}
players:
- {name: Doyle Brunson, stack: 1000000}
- {name: Eli Elezra, stack: 1000000}
- {name: Antonio Esfandiari, stack: 1000000}
- {name: Gus Hansen, stack: 1000000}
- {name: Daniel Negreanu, stack: 1000000}
- {name: Cory Zeidman, stack: 1000000}
- {name: Barry Greenstein, stack: 1000000}
- {name: Amnon Filippi, stack: 1000000}
rounds:
- [P1CBR: 50, P2CBR: 100, P1Dealt: 8♣ 3♥, P2Dealt: A♦ Q♣, P3Dealt: 5♦ 5♣, P4Dealt: 6♠ 6♥,
   P5Dealt: K♠ J♦, P6Dealt: 4♦ 4♣, P7Dealt: 7♣ 2♦, P0Dealt: T♠ 2♥, P3CBR: 2100, P4CBR: 5000,
   P5Fold, P6Fold, P7Fold, P0Fold, P1Fold, P2Fold, P3CBR: 5000]
- [DealCommon: 9♣ 6♦ 5♥, P3Check, P4CBR: 8000, P3CBR: 26000, P4CBR: 26000]
- [DealCommon: 5♠, P3CBR: 24000, P4CBR: 24000]
- [DealCommon: 8♠, P3Check, P4CBR: 65000, P3CBR: 945000, P4CBR: 945000, P3Wins: 1000150,
   P4Loses: 1000000]
"""

CARD = re.compile(r"(?:10|[2-9TJQKA])[♣♦♥♠]")


def yaml_cards(text: str) -> set:
    return set(parse_cards(" ".join(CARD.findall(text)), distinct=False))


def same_hand(a: Hand, b: Hand) -> None:
    assert b.config == a.config
    assert b.events == a.events
    assert b.stacks == a.stacks and b.players == a.players and b.button == a.button


# --- the library's own hands ----------------------------------------------------------------


def test_the_readme_example_is_read_and_written_exactly():
    state = pkstate.loads(EXAMPLE)
    assert [str(entry) for entry in state.rounds[0]] == [
        "P0Dealt: A♠ K♠",
        "P1Dealt: 7♦ 2♣",
        "P0CBR: 100",
        "P1Fold",
        "P0Wins: 100",
    ]
    assert [(seat.name, seat.stack) for seat in state.players] == [("Alice", 1000), ("Bob", 1000)]
    assert state.to_yaml() == EXAMPLE


def test_the_readme_example_is_no_legal_hand_under_the_house_rules():
    # Alice (button, small blind 50) puts in 100: a call; Bob, the big blind, may then check,
    # and this engine refuses a fold where checking is free.
    with pytest.raises(
        HandHistoryError,
        match=r"^example\.yaml: round 1 action 4 \(P1Fold\): "
        "no folding when checking is free",
    ):
        pkstate.loads(EXAMPLE, "example.yaml").replay()


def test_the_librarys_test_hand_replays_to_its_recorded_result():
    hand = pkstate.loads(THE_HAND).replay()
    assert hand.is_over and hand.board == parse_cards("9c 6d 5h 5s 8s")
    assert hand.stacks == (1000000, 999950, 999900, 2000150, 0, 1000000, 1000000, 1000000)
    assert hand.result.net[3] == 1000150 and hand.result.net[4] == -1000000
    written = pkstate.loads(pkstate.dumps(hand, id="the_hand"))
    # written as the README writes hands: the blinds are the forced bets, not CBRs
    expected = pkstate.loads(THE_HAND)
    expected.rounds[0] = expected.rounds[0][2:]
    assert written.rounds == expected.rounds and written.players == expected.players
    assert list(written.board) == hand.board


def test_blinds_listed_first_must_be_the_ones_posted():
    wrong = THE_HAND.replace("P2CBR: 100, P1Dealt", "P2CBR: 90, P1Dealt")
    with pytest.raises(HandHistoryError, match=r"round 1 action 1 \(P1CBR: 50\): out of turn"):
        pkstate.loads(wrong).replay()


# --- round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", PHH_FILES, ids=lambda p: p.stem)
def test_every_real_phh_hand_through_yaml_and_back(path):
    hand = phh.load(path).replay()
    text = pkstate.dumps(hand)
    state = pkstate.loads(text)
    assert state.to_yaml() == text
    again = state.replay()
    same_hand(hand, again)
    assert phh.dumps(again) == phh.dumps(hand)  # the same actions and finishing stacks


@pytest.mark.slow
@pytest.mark.parametrize("game", pkstate.GAMES)
def test_random_hands_of_every_game_through_yaml_and_phh(game):
    rng = random.Random(f"pkstate {game}")
    rules, betting = pkstate.GAMES[game]
    for _ in range(300):
        spec = random_hand(
            rng,
            max_players=9 if rules == "omaha" else 12,
            bettings=(betting,),
            games=(rules,),
            straddles=True,
        )
        hand = spec.replay()
        text = pkstate.dumps(hand)
        assert yaml.safe_load(text)["game"] == game
        again = pkstate.loads(text).replay()
        same_hand(hand, again)
        if (rules, betting) in phh.VARIANT_OF:
            through_phh = phh.loads(phh.dumps(again)).replay()
            n = hand.seats  # PHH seats start left of the button
            assert list(through_phh.stacks) == [
                hand.stacks[(hand.button + 1 + k) % n] for k in range(n)
            ]
            assert phh.dumps(through_phh) == phh.dumps(hand)
        else:
            with pytest.raises(HandHistoryError, match="PHH has no variant"):
                phh.dumps(again)


def test_forced_bets_straddle_antes_and_limit_sizes_are_written_and_read_back():
    deck = list(range(52))
    for config, forced, extra in [
        (
            HandConfig(small_blind=5, big_blind=10, straddle=20, ante=1),
            {"small": 5, "big": 10, "straddles": [20], "ante": 1},
            None,
        ),
        (
            HandConfig(small_blind=5, big_blind=10, ante=10, ante_mode="big-blind"),
            {"small": 5, "big": 10, "big_blind_ante": 10},
            None,
        ),
        (
            HandConfig(
                betting="fixed-limit", small_blind=5, big_blind=10, small_bet=20, big_bet=50
            ),
            {"small": 5, "big": 10},
            {"small": 20, "big": 50},
        ),
    ]:
        hand = Hand(config, [500, 400, 300, 200], 1, deck)
        for action in ("call", "call", "call", "check") if not config.straddle else ("fold",):
            hand.act(action)
        data = yaml.safe_load(pkstate.dumps(hand))
        assert data["forced_bets"] == forced and data.get("limit_bets") == extra
        again = pkstate.loads(pkstate.dumps(hand)).replay()
        assert again.config == config and again.events == hand.events
        assert again.actor == hand.actor and not again.is_over  # still in progress


def test_a_hand_in_progress_stays_in_progress():
    hand = Hand(HandConfig(), [100, 100, 100], 0, list(range(52)))
    hand.call()
    text = pkstate.dumps(hand)
    assert "Wins" not in text and "Loses" not in text and "board" not in yaml.safe_load(text)
    again = pkstate.loads(text).replay()
    assert again.actor == hand.actor and again.events == hand.events


def test_id_and_datetime_are_optional_and_kept():
    hand = phh.load(PHH_FILES[0]).replay()
    when = dt.datetime(2024, 5, 1, 20, 15, tzinfo=dt.UTC)
    text = pkstate.dumps(hand, id="42", datetime=when)
    data = yaml.safe_load(text)
    assert data["id"] == "42" and data["datetime"] == "2024-05-01T20:15:00Z"
    state = pkstate.loads(text)
    assert state.id == "42" and state.datetime == when and state.to_yaml() == text
    assert "id:" not in pkstate.dumps(hand) and "datetime" not in pkstate.dumps(hand)
    offset = text.replace("'2024-05-01T20:15:00Z'", "2024-05-01T22:15:00+02:00")
    assert pkstate.loads(offset).datetime == when


# --- what a viewer may see ------------------------------------------------------------------


def test_a_viewers_yaml_holds_only_the_cards_that_viewer_may_see():
    rng = random.Random("pkstate viewers")
    checked_hidden = 0
    for _ in range(100):
        hand = random_hand(rng, games=("holdem", "omaha"), max_players=9).replay()
        for seat in [None, *range(hand.seats)]:
            visible = hand.visible_cards(seat)
            view = hand.view(seat)
            assert visible == {c for s in view.seats for c in s.cards if c is not None} | set(
                view.board
            )
            text = pkstate.dumps(hand, known_cards=visible)
            assert yaml_cards(text) <= visible
            dealt = [e for e in pkstate.loads(text).rounds[0] if e.kind == "Dealt"]
            shown = {s for s in range(hand.seats) if s == seat or s in hand.result.shown}
            assert {e.seat for e in dealt} == shown
            checked_hidden += hand.seats - len(shown)
    assert checked_hidden > 1000


@pytest.mark.cli
def test_cards_a_file_does_not_name_stay_unknown_through_convert(tmp_path):
    # seat 0 folds, seat 2 beats seat 1 at showdown: seat 1 never sees seat 0's cards
    hand = Hand(HandConfig(), [100, 100, 100], 0, list(range(52)))
    for action in ("fold", "call", "check", *["check"] * 6):
        hand.act(action)
    assert hand.result.shown.keys() == {1, 2}
    seen_by_1 = hand.visible_cards(1)
    original = tmp_path / "seat1.phh"
    original.write_text(phh.dumps(hand, known_cards=seen_by_1))
    as_yaml = tmp_path / "seat1.yaml"
    as_yaml.write_text(convert(original, "yaml").stdout)
    assert yaml_cards(as_yaml.read_text()) == seen_by_1
    back = convert(as_yaml, "phh").stdout
    assert back == original.read_text()
    assert back.count("????") == 1 and '"d dh p3 ????"' in back  # PHH p3: the button


# --- bad files ------------------------------------------------------------------------------

GOOD = yaml.safe_load(EXAMPLE.replace("  - P1Fold\n  - P0Wins: 100\n", "  - P1Check\n"))


def changed(**fields) -> str:
    return yaml.safe_dump(GOOD | fields, allow_unicode=True, sort_keys=False)


@pytest.mark.parametrize(
    "text, problem",
    [
        ("game: [", "not valid YAML at line 1, column 8"),
        ("- 1\n", "not a pkstate hand"),
        (changed(game="Razz"), "game: 'Razz' is not played here"),
        (changed(colour="red"), "field 'colour': unknown"),
        (changed(button=2), "button: no seat 2"),
        (changed(button=-1), "button: must be a whole number of at least 0"),
        (changed(forced_bets={"small": 50}), "forced_bets: missing field 'big'"),
        (
            changed(forced_bets={"small": 200, "big": 100}),
            "forced_bets: small_blind must not be larger",
        ),
        (
            changed(forced_bets={"small": 5, "big": 10, "straddles": [20, 30]}),
            "forced_bets.straddles: each straddle doubles the previous",
        ),
        (changed(players=[{"name": "Alice", "stack": 1000}]), "players: must list 2 to 12"),
        (
            changed(players=[{"name": "Alice", "stack": 0}, {"name": "Bob", "stack": 1}]),
            r"players\[0\]\.stack: must be a whole number of at least 1",
        ),
        (
            changed(players=[{"name": True, "stack": 5}, {"name": "Bob", "stack": 1}]),
            r"players\[0\]\.name: must be text",
        ),
        (changed(board="A♠ A♠ 2♣"), "board: duplicate card: As"),
        (changed(datetime="yesterday"), "datetime: not an RFC 3339 date and time"),
        (
            changed(datetime="2024-05-01T20:15:00"),
            "datetime: must be a date and time with its time zone",
        ),
        (changed(rounds=[["P0Dealt: A♠ K♠"]]), r"round 1 action 1: not a pkstate action"),
        (changed(rounds=[[{"P0Dealt": "A♠ K♠ Q♠"}]]), r"\(P0Dealt\): 3 cards, not 0 or 2"),
        (changed(rounds=[[{"P0Dealt": "A♠ 1♠"}]]), r"\(P0Dealt\): not a card: '1♠'"),
        (changed(rounds=[[{"P2Dealt": "A♠ K♠"}]]), r"no seat P2: the players are P0 to P1"),
        (changed(rounds=[[{"P0CBR": 0}]]), r"\(P0CBR\): must be a whole number of at least 1"),
        (changed(rounds=[[{"P0CBR": "lots"}]]), r"\(P0CBR\): must be a whole number"),
        (changed(rounds=[["P0CBR"]]), r"\(P0CBR\): needs a value"),
        (changed(rounds=[[{"P0Fold": 3}]]), r"\(P0Fold\): Fold takes no value"),
        (changed(rounds=[[{"P0Dealt": "A♠ K♠", "P1Dealt": "Q♠ J♠"}]]), "an action is a name"),
        (changed(rounds=[[], [{"DealCommon": "2♣ 3♣"}]]), "the flop is 3 cards"),
        (changed(rounds=[[{"DealCommon": "2♣ 3♣ 4♣"}]]), "DealCommon starts round 2, 3 or 4"),
        (
            changed(rounds=[[], [], [{"DealCommon": "2♣"}]]),
            "an earlier street's cards are not given",
        ),
        (changed(rounds=[[{"P0Wins": 1}, "P0Check"]]), r"an action after the results"),
        (changed(rounds=[[], [], [], [], []]), "rounds: must be a list of at most 4 rounds"),
        (changed(rounds=[[{"P0Dealt": "A♠ K♠"}, {"P1Dealt": "A♠ Q♠"}]]), "card As is dealt twice"),
        (changed(rounds=[["P1Check"]]), r"\(P1Check\): out of turn: seat 1 acted but seat 0"),
        (changed(rounds=[[{"P0CBR": 150}]]), r"\(P0CBR: 150\): raise below the minimum: at least"),
        (
            changed(rounds=[[{"P0CBR": 100}, "P1Check", "P0Check"]]),
            r"round 1 action 3 \(P0Check\): round 1 is the preflop, but the hand is on the flop",
        ),
        (
            changed(rounds=[[{"P0CBR": 100}], [{"DealCommon": "2♣ 3♣ 4♣"}, "P1Check"]]),
            r"round 2 action 2 \(P1Check\): round 2 is the flop, but the hand is on the preflop",
        ),
        (
            changed(rounds=[[{"P0CBR": 300}, "P1Fold", {"P0Wins": 300}]]),
            r"\(P0Wins: 300\): the replay has P0 wins 100",
        ),
        (
            changed(rounds=[[{"P0CBR": 300}, {"P0Wins": 300}]]),
            r"\(P0Wins: 300\): a result before the hand is over \(P1 is to act\)",
        ),
        (
            changed(rounds=[[{"P0CBR": 300}, "P1Fold", "P0Check"]]),
            r"\(P0Check\): the hand is already over",
        ),
        (changed(board="2♥ 3♥ 4♥ 5♥ 6♥"), "board: 5 cards, but the hand deals 3"),
        (
            changed(forced_bets={"small": 5, "big": 10, "straddles": [20]}),
            "forced_bets: a straddle needs three or more players",
        ),
    ],
)
def test_a_bad_file_gets_one_line_naming_the_field(text, problem):
    with pytest.raises(HandHistoryError) as caught:
        pkstate.loads(text, "bad.yaml").replay()
    message = str(caught.value)
    assert message.startswith("bad.yaml: ") and "\n" not in message
    assert re.search(problem, message), message


def convert(path, to, check=True):
    return subprocess.run(
        [sys.executable, "-m", "engine", "convert", str(path), "--to", to],
        capture_output=True,
        text=True,
        check=check,
    )


@pytest.mark.cli
def test_convert_between_phh_and_yaml(tmp_path):
    source = PHH_FILES[0]
    text = convert(source, "yaml").stdout
    (tmp_path / "hand.yaml").write_text(text)
    assert text == pkstate.dumps(phh.load(source).replay())
    back = convert(tmp_path / "hand.yaml", "phh").stdout
    assert phh.loads(back).replay().stacks == phh.load(source).replay().stacks
    assert back == phh.dumps(phh.load(source).replay())


@pytest.mark.parametrize(
    "name, text, problem",
    [
        ("bad.yaml", changed(button=7), "bad.yaml: button: no seat 7"),
        ("bad.yml", changed(rounds=[[{"P0CBR": 150}]]), "bad.yml: round 1 action 1 (P0CBR: 150)"),
        ("bad.phh", "variant = 'NT'\n", "bad.phh: missing field 'starting_stacks'"),
        ("hand.txt", "", "hand.txt: cannot tell the format from the name"),
    ],
)
@pytest.mark.cli
def test_convert_refuses_a_bad_file_in_one_line(tmp_path, name, text, problem):
    path = tmp_path / name
    path.write_text(text)
    run = convert(path, "phh", check=False)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("error: " + str(tmp_path))
    assert problem in run.stderr


@pytest.mark.cli
def test_convert_to_phh_names_a_game_phh_has_no_variant_for(tmp_path):
    hand = Hand(HandConfig(game="omaha", betting="no-limit"), [100, 100], 0, list(range(52)))
    hand.fold()
    path = tmp_path / "nlo.yaml"
    path.write_text(pkstate.dumps(hand))
    assert "game: NoLimitOmaha" in path.read_text()
    run = convert(path, "phh", check=False)
    assert run.returncode == 2 and "PHH has no variant for omaha no-limit" in run.stderr
