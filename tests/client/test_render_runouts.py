"""The terminal client draws the run-out: the question's keys, the second run, the rabbit."""

from __future__ import annotations

from pokerclient import render

STATE = {
    "table": {"name": "Twice", "variant": "No-limit Texas Hold'em", "stakes": "1/2"},
    "hand_number": 3,
    "running": True,
    "actor": None,
    "seats": [],
    "board": ["Ah", "Kd", "2c"],
    "boards": [["Ah", "Kd", "2c"], ["Ah", "Kd", "2c"]],
    "rabbit": None,
    "total_pot": 200,
    "pots": [],
    "legal": {
        "actions": ["run_twice", "run_once"],
        "call": 0,
        "min_raise_to": None,
        "max_raise_to": None,
        "raise_word": "",
        "sizes": [],
    },
}


def test_the_run_it_twice_question_has_its_keys():
    text = render.turn_text(STATE, None, None).plain
    assert "[2] run it twice" in text and "[1] once" in text


def test_the_second_run_and_the_rabbit_are_drawn():
    assert "Run 2:" in render.board_text(STATE).plain
    hunted = {**STATE, "boards": [STATE["board"]], "rabbit": ["5s", "6s"]}
    text = render.board_text(hunted).plain
    assert "Run 2:" not in text and "Rabbit hunt:" in text


def test_three_runs_have_their_key_and_their_third_board():
    three = {
        **STATE,
        "boards": [STATE["board"]] * 3,
        "legal": {**STATE["legal"], "actions": ["run_thrice", "run_twice", "run_once"]},
    }
    assert "[3] three times" in render.turn_text(three, None, None).plain
    assert "Run 3:" in render.board_text(three).plain
