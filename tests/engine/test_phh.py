"""The real hands in tests/engine/data/phh replay to their recorded finishing stacks."""

import json
import subprocess
import sys

import pytest

from engine.errors import HandHistoryError
from engine.phh import dumps, load, loads
from tests.engine.phh_data import PHH_DIR as DATA, PHH_FILES as FILES

HALF_CHIP = {
    "pluribus_102_0",
    "pluribus_32_23",
    "pluribus_41b_204",
    "pluribus_60_88",
    "pluribus_75b_76",
    "pluribus_88_128",
    "pluribus_91_43",
    "pluribus_91_53",
}


def test_all_200_real_hands_are_there():
    assert len(FILES) == 200


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_real_hand_replays_to_recorded_finishing_stacks(path):
    history = load(path)
    hand = history.replay()
    recorded = history.finishing_stacks
    assert sum(hand.stacks) == sum(history.starting_stacks)
    if path.stem in HALF_CHIP:
        # a split pot with an odd chip recorded as halves: whole chips differ by < 1 each
        assert all(abs(a - b) < 1 for a, b in zip(hand.stacks, recorded, strict=True))
        assert any(a != b for a, b in zip(hand.stacks, recorded, strict=True))
    else:
        assert list(hand.stacks) == [int(x) for x in recorded]
        assert all(float(x).is_integer() for x in recorded)
    again = loads(dumps(hand)).replay()
    assert again.stacks == hand.stacks and again.board == hand.board


def test_big_blind_ante_hand_needs_dead_money():
    history = load(DATA / "phh-dataset_wsop_2019_42_3_00-01-07.phh")
    assert history.config().ante_mode == "big-blind"
    assert list(history.replay().stacks) == history.finishing_stacks


@pytest.mark.parametrize(
    "text, problem",
    [
        (
            "variant = 'NT'\nstarting_stacks = [10, 10]\nblinds_or_straddles = [1, 2]\n"
            "actions = ['p1 xx']\n",
            "not a PHH action line",
        ),
        (
            "variant = 'NT'\nstarting_stacks = [10, 10]\nblinds_or_straddles = [1, 2]\n"
            "actions = ['d dh p1 AsAs']\n",
            "duplicate card",
        ),
        ("variant = 'ZZ'\nstarting_stacks = [10, 10]\nactions = []\n", "unsupported variant"),
        ("variant = 'NT\n", "not valid TOML"),
        (
            "variant = 'NT'\nstarting_stacks = [10, 10]\nblinds_or_straddles = [1, 2]\n"
            "actions = ['p2 cbr 3']\n",
            "below the minimum",
        ),
    ],
)
def test_broken_file_gives_an_error_naming_the_problem(text, problem):
    with pytest.raises(HandHistoryError, match=problem) as caught:
        loads(text, "broken.phh").replay()
    assert str(caught.value).startswith("broken.phh")


@pytest.mark.cli
def test_replay_subcommand_prints_json_lines_and_fails_on_a_broken_file(tmp_path):
    good = [str(FILES[0]), str(FILES[1])]
    out = subprocess.run(
        [sys.executable, "-m", "engine", "replay", "--json", *good],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert [json.loads(line)["file"] for line in out] == good
    assert json.loads(out[0])["finishing_stacks"] == list(load(FILES[0]).replay().stacks)
    bad = tmp_path / "bad.phh"
    bad.write_text(
        "variant = 'NT'\nstarting_stacks = [10, 10]\nblinds_or_straddles = [1, 2]\n"
        "actions = ['p3 f']\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "engine", "replay", "--json", str(bad)],
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0
    assert str(bad) in run.stderr and "no player p3" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
