"""python -m engine: deal, best, equity; bad input is one line on stderr, never a traceback."""

import importlib
import subprocess
import sys

import pytest

from engine import cli

# Each call is a Python process of its own (make check leaves these for the whole suite).
pytestmark = pytest.mark.cli


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], capture_output=True, text=True, timeout=120
    )


def test_best_prints_the_winners_exactly_as_given_in_input_order():
    out = run("best", "4D 5S 6S 8D 3C", "2S 4C 7S 9H 10H", "3S 4S 5D 6H JH", "3H 4H 5C 6C JD")
    assert out.returncode == 0
    assert out.stdout.splitlines() == ["3S 4S 5D 6H JH", "3H 4H 5C 6C JD"]


def test_deal_with_a_seed_is_reproducible_and_names_the_winner():
    first = run("deal", "--players", "4", "--cards", "5", "--seed", "abc")
    assert first.returncode == 0
    assert first.stdout == run("deal", "--players", "4", "--cards", "5", "--seed", "abc").stdout
    lines = first.stdout.splitlines()
    assert lines[0].startswith("Fresh deck:") and "2c 2d 2h 2s 3c" in lines[0]
    assert lines[1].startswith("Commitment:")
    assert lines[2].startswith("Shuffled deck: 5s 5c 2c 9s As")
    assert lines[3].startswith("Player 1  As Ah Tc 6s 5s  Pair of Aces")
    assert lines[-1] == "Winner: Player 1 with Pair of Aces"


def test_deal_without_seed_deals_each_player_a_sorted_hand():
    out = run("deal", "--players", "3", "--cards", "7")
    assert out.returncode == 0
    players = [line for line in out.stdout.splitlines() if line.startswith("Player")]
    assert len(players) == 3 and all(len(line.split()) > 9 for line in players)


def test_equity_prints_exact_result():
    out = run("equity", "AhKh", "QsQd", "--board", "2h3h4c")
    assert out.returncode == 0
    assert "AhKh" in out.stdout and "61.72%" in out.stdout and "exact, 990 boards" in out.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (("best", "4S 5S 7H 8D 1C"), "1C"),
        (("best", "4S 5S 7H 8D"), "5 cards"),
        (("deal", "--cards", "3"), "--cards"),
        (("deal", "--players", "11"), "cannot deal"),
        (("deal", "--players", "0"), "at least 2 players are needed"),
        (("deal", "--players", "1"), "at least 2 players are needed"),
        (("equity", "1xKh", "QsQd"), "not a card: '1x' in '1xKh'"),
        (("equity", "AhKh", "QsQd", "--samples", "10", "--seed", "-1"), "--seed must be 0 or more"),
        (("equity", "AhKh", "AhQd"), "twice"),
        (("equity", "AhKh", "Zz"), "Zz"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_a_nonzero_exit(args, message):
    out = run(*args)
    assert out.returncode != 0
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and message in out.stderr


def test_help_lists_the_subcommands():
    out = run("--help")
    assert out.returncode == 0
    for name in ("deal", "best", "equity"):
        assert name in out.stdout


def test_every_registered_command_has_its_parser_hook():
    for name, module_name in cli.COMMANDS:
        assert callable(getattr(importlib.import_module(module_name), f"add_{name}_parser"))
