"""PokerStars text (engine/pokerstars.py): read back by pokerkit's own PokerStars parser to the
engine's finishing stacks, and never naming a card the viewer may not see."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import phh
from engine.deck import seeded_deck
from engine.errors import HandHistoryError
from engine.hand import Hand
from engine.pokerstars import Header, hand_text, histories_text
from tests.engine.phh_data import PHH_DIR, PHH_FILES

pokerkit_notation = pytest.importorskip("pokerkit.notation")
# pokerkit warns about its own PokerStars parser's time-zone field on every hand it reads
pytestmark = pytest.mark.filterwarnings("ignore:The field 'time_zone_abbreviation'")
NAMES = ["Ann", "Bob", "Cat"]


HOLDEM = [path for path in PHH_FILES if phh.load(path).variant == "NT"]


class PokerStarsWithAntes(pokerkit_notation.PokerStarsParser):  # type: ignore[misc,name-defined]
    """pokerkit 0.7's PokerStars parser with its ante pattern filled in: it ships the pattern
    unmatchable, so ``posts the ante`` lines (the WSOP hands' big-blind antes) would be lost."""

    ANTE_POSTING = re.compile(r"(?P<player>.+): posts the ante \D?(?P<ante>[0-9.]+)")


def _pokerkit_stacks(text: str) -> dict[str, int]:
    [history] = list(PokerStarsWithAntes()(text, error_status=True))
    final = list(history)[-1]
    return dict(zip(history.players, (int(s) for s in final.stacks), strict=True))


def test_the_real_holdem_hands_are_there() -> None:
    assert len(HOLDEM) >= 200


@pytest.mark.parametrize("path", HOLDEM, ids=lambda p: p.stem)
def test_pokerkit_reads_every_real_hand_back_to_the_same_stacks(path: Path) -> None:
    hand = phh.load(path).replay()
    ours = dict(zip(hand.players, hand.stacks, strict=True))
    for viewer in (None, 0):
        text = hand_text(hand, viewer=viewer, header=Header(hand_id=1), everything=viewer is None)
        assert _pokerkit_stacks(text) == ours, text


CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


@pytest.mark.parametrize("path", HOLDEM[:60], ids=lambda p: p.stem)
def test_a_viewers_history_names_only_cards_that_viewer_may_see(path: Path) -> None:
    hand = phh.load(path).replay()
    for viewer in (None, *range(hand.seats)):
        text = hand_text(hand, viewer=viewer, header=Header(hand_id=1))
        named = set(CARD.findall(text))
        assert named <= {str(card) for card in hand.visible_cards(viewer)}, (viewer, text)
        if viewer is not None:  # the viewer's own cards are there
            assert f"Dealt to {hand.players[viewer]} [" in text


def test_folded_cards_stay_hidden_from_the_other_players() -> None:
    hand = phh.load(PHH_DIR / "pluribus_102_0.phh").replay()  # Pluribus folds Jh 5d
    assert "Jh 5d" in hand_text(hand, header=Header(hand_id=1), everything=True)
    for viewer in range(5):
        assert "Jh" not in hand_text(hand, viewer=viewer, header=Header(hand_id=1))


def _finish(hand: Hand) -> Hand:
    """Check or call down to the end (a fixed deck makes the rest of the hand)."""
    while not hand.is_over:
        legal = hand.legal
        if hand.runs_due:
            hand.choose_runs(2)
        elif legal is not None and legal.check:
            hand.check()
        else:
            hand.call()
    return hand


def test_side_pots_are_named_and_read_back() -> None:
    hand = Hand({"small_blind": 1, "big_blind": 2}, [50, 200, 400], 0, seeded_deck("side"), NAMES)
    hand.all_in()  # Ann (button) 50
    hand.all_in()  # Bob 200
    hand.call()  # Cat covers both
    _finish(hand)
    text = hand_text(hand, viewer=2, header=Header(hand_id=9))
    assert "Total pot 450 Main pot 150. Side pot-1 300. | Rake 0" in text
    assert "Ann: raises 48 to 50 and is all-in" in text
    assert _pokerkit_stacks(text) == dict(zip(hand.players, hand.stacks, strict=True))


def test_run_it_twice_writes_both_boards() -> None:
    config = {"small_blind": 1, "big_blind": 2, "run_it_twice": True}
    hand = Hand(config, [100, 100], 0, seeded_deck("twice"), NAMES[:2])
    hand.all_in()
    hand.call()
    hand.choose_runs(2)
    _finish(hand)
    text = hand_text(hand, viewer=0, header=Header(hand_id=3))
    for line in ("*** FIRST FLOP ***", "*** SECOND RIVER ***", "Hand was run twice"):
        assert line in text
    assert f"FIRST Board [{' '.join(map(str, hand.board))}]" in text
    assert f"SECOND Board [{' '.join(map(str, hand.second_board))}]" in text


def test_run_it_three_times_writes_three_boards_and_three_showdowns() -> None:
    config = {"small_blind": 1, "big_blind": 2, "run_it_twice": True}
    hand = Hand(config, [100, 100], 0, seeded_deck("thrice"), NAMES[:2])
    hand.call()
    hand.check()  # to the flop: each run deals its own turn and river
    hand.all_in()
    hand.call()
    hand.choose_runs(3)
    _finish(hand)
    text = hand_text(hand, viewer=0, header=Header(hand_id=4))
    lines = text.splitlines()
    for title in ("*** FIRST TURN ***", "*** SECOND TURN ***", "*** THIRD RIVER ***"):
        assert title in " ".join(lines)
    assert "*** SECOND FLOP ***" not in text  # the flop is every run's
    third_river = next(line for line in lines if line.startswith("*** THIRD RIVER ***"))
    assert third_river.endswith(f"[{hand.third_board[4]}]")
    assert "Hand was run three times" in lines
    assert [line for line in lines if "SHOW DOWN" in line] == [
        "*** FIRST SHOW DOWN ***",
        "*** SECOND SHOW DOWN ***",
        "*** THIRD SHOW DOWN ***",
    ]
    for title, board in zip(("FIRST", "SECOND", "THIRD"), hand.boards, strict=True):
        assert f"{title} Board [{' '.join(map(str, board))}]" in lines
    collected = sum(int(line.split()[2]) for line in lines if " collected " in line)
    assert collected == 200


def test_stud_deals_each_street_with_up_cards_only_for_others() -> None:
    config = {
        "game": "razz",
        "betting": "fixed-limit",
        "small_blind": 0,
        "big_blind": 0,
        "ante": 1,
        "bring_in": 2,
        "small_bet": 4,
    }
    hand = _finish(Hand(config, [100, 100, 100], 0, seeded_deck("razz"), NAMES))
    text = hand_text(hand, viewer=1, header=Header(hand_id=4))
    assert text.startswith("PokerStars Hand #4:  Razz Limit (4/8) - ")
    for line in ("*** 3rd STREET ***", "*** 4th STREET ***", "*** RIVER ***", "brings in for 2"):
        assert line in text
    ann = hand.hole[0]
    assert f"Dealt to Ann [{ann[2]}]" in text  # third street: only Ann's up-card
    assert f"Dealt to Bob [{' '.join(map(str, hand.hole[1][:3]))}]" in text


def test_tournament_omaha_hilo_header_and_straddle() -> None:
    config = {
        "game": "omaha-hilo",
        "betting": "pot-limit",
        "small_blind": 25,
        "big_blind": 50,
        "straddle": 100,
    }
    hand = _finish(Hand(config, [5000] * 4, 0, seeded_deck("o8"), [*NAMES, "Dan"]))
    header = Header(hand_id=12, table="Final", tournament_id=77, level=3, max_seats=9)
    text = hand_text(hand, viewer=0, header=header)
    first, table = text.splitlines()[:2]
    assert first.startswith(
        "PokerStars Hand #12: Tournament #77, Freeroll  Omaha Hi/Lo Pot Limit - Level III (25/50)"
    )
    assert table == "Table 'Final' 9-max Seat #1 is the button"
    assert "Dan: posts straddle 100" in text


def test_hands_are_separated_as_pokerstars_separates_them() -> None:
    paths = HOLDEM[:3]
    texts = [
        hand_text(phh.load(p).replay(), header=Header(hand_id=k), everything=True)
        for k, p in enumerate(paths, start=1)
    ]
    joined = histories_text(texts)
    assert joined.count("\n\n\nPokerStars Hand #") == 2
    histories = list(PokerStarsWithAntes()(joined, error_status=True))
    assert [h.hand for h in histories] == [1, 2, 3]


def test_an_unfinished_hand_is_refused() -> None:
    hand = Hand({"small_blind": 1, "big_blind": 2}, [100, 100], 0, seeded_deck("x"), NAMES[:2])
    with pytest.raises(HandHistoryError, match="only a finished hand"):
        hand_text(hand, header=Header(hand_id=1))


def _convert(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "engine", "convert", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_convert_prints_phh_files_as_one_pokerstars_file() -> None:
    paths = [PHH_DIR / "wsop_2023_43_5_66.phh", PHH_DIR / "pluribus_102_0.phh"]
    done = _convert(*map(str, paths), "--to", "pokerstars")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        "PokerStars Hand #66:  Hold'em No Limit (75000/150000) - 2023/06/22"
    )
    assert "Dealt to Pluribus [Jh 5d]" in done.stdout  # a PHH file names every hole card
    stacks = [_pokerkit_stacks(text) for text in done.stdout.split("\n\n\n")]
    assert stacks == [
        dict(zip(hand.players, hand.stacks, strict=True))
        for hand in (phh.load(path).replay() for path in paths)
    ]


def test_convert_leaves_out_hole_cards_the_file_does_not_name(tmp_path: Path) -> None:
    text = (PHH_DIR / "pluribus_102_0.phh").read_text().replace("d dh p6 Jh5d", "d dh p6 ????")
    (tmp_path / "hand.phh").write_text(text)
    done = _convert(str(tmp_path / "hand.phh"), "--to", "pokerstars")
    assert done.returncode == 0, done.stderr
    assert "Dealt to Pluribus" not in done.stdout
    assert "Dealt to MrBlue [2c Ac]" in done.stdout


def test_convert_to_phh_refuses_several_files_in_one_line() -> None:
    path = str(PHH_DIR / "pluribus_102_0.phh")
    done = _convert(path, path, "--to", "phh")
    assert (done.returncode, done.stderr) == (2, "error: --to phh converts one file at a time\n")


def test_pokerkit_reads_the_missed_blinds_of_real_pokernow_hands_back() -> None:
    """Hold'em hands imported from PokerNow where a player came back posting missed blinds
    (the small blind dead: their ante here; the big blind live: a blind): pokerkit's parser
    ends them at the engine's stacks, PokerNow's printed ones."""
    from engine.pokernow import import_log
    from tests.engine.test_pokernow import _text

    comebacks = [
        hand
        for log in (
            "drkyoda_pglDepIXhH9TNyXaFfbHYetk-.csv.gz",
            "whitlock23_pglnMFhFI9KhboCBC09b_dE3b.csv.gz",
        )
        for hand in import_log(_text(log)).hands
        if hand.history.variant == "NT" and hand.history.config().posts
    ]
    assert [h.number for h in comebacks] == [69, 267, 108, 126]
    for imported in comebacks:
        hand = phh.loads(imported.phh).replay()
        text = hand_text(hand, header=Header(hand_id=imported.number), everything=True)
        assert _pokerkit_stacks(text) == dict(zip(hand.players, hand.stacks, strict=True)), text
