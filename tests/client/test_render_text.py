"""The terminal's drawing of the play state (pure): the pot said once, the log's cards, the
tournament's level, and server text made safe to print (issue 32, items 3, 7 and 8)."""

from __future__ import annotations

import asyncio
import json

from pokerclient import render
from pokerclient.live import TableSocket
from pokerclient.safe import printable, printable_data

RUNNING = {
    "table": {"name": "Felt", "variant": "No-limit Texas Hold'em", "stakes": "1/2"},
    "hand_number": 4,
    "running": True,
    "board": ["Ah", "Kd", "2c"],
    "boards": [["Ah", "Kd", "2c"]],
    "rabbit": None,
    "total_pot": 60,
    "pots": [{"name": "Pot", "amount": 60}],
    "tournament": None,
}


def test_one_pot_is_said_once_and_side_pots_are_listed_with_the_total():
    text = render.board_text(RUNNING).plain
    assert text.count("Pot") == 1 and "Pot: 60" in text
    sides = {
        **RUNNING,
        "total_pot": 90,
        "pots": [{"name": "Main pot", "amount": 60}, {"name": "Side pot 1", "amount": 30}],
    }
    assert "Pot: 90  (Main pot 60, Side pot 1 30)" in render.board_text(sides).plain


def test_every_log_line_shows_its_cards():
    state = {
        "log": [
            {"kind": "hand", "text": "Your cards", "cards": ["Ts", "9s"]},
            {"kind": "hand", "text": "Flop:", "cards": ["Ah", "Kd", "2c"]},
            {"kind": "hand", "text": "bob shows", "cards": ["Qh", "Qd"]},
            {"kind": "hand", "text": "bob wins 60", "cards": []},
        ]
    }
    assert [line.plain for line in render.log_lines(state)] == [
        "Your cards 10♠ 9♠",
        "Flop: A♥ K♦ 2♣",
        "bob shows Q♥ Q♦",
        "bob wins 60",
    ]


def test_the_tournament_level_and_the_next_one_are_drawn():
    tournament = {
        "id": 3,
        "name": "Friday SNG",
        "url": "/tournaments/3/",
        "blinds": "20/40 ante 5",
        "next_blinds": "40/80 ante 10",
        "level": {
            "number": 2,
            "small_blind": 20,
            "big_blind": 40,
            "ante": 5,
            "next": {"small_blind": 40, "big_blind": 80, "ante": 10},
            "hands_left": 1,
            "next_at": None,
            "on_break": False,
            "break_minutes_left": None,
            "break_ends_at": None,
        },
    }
    text = render.board_text({**RUNNING, "tournament": tournament}).plain
    assert "Friday SNG  level 2: 20/40 ante 5   next: 40/80 ante 10 in 1 hand" in text
    last = {**tournament, "next_blinds": None, "level": {**tournament["level"], "next": None}}
    assert "last level" in render.level_text(last).plain


def test_the_bounties_and_the_addon_are_drawn_at_a_tournament_table():
    tournament = {
        "id": 3,
        "name": "PKO",
        "url": "/tournaments/3/",
        "blinds": "20/40",
        "next_blinds": None,
        "level": {
            "number": 2,
            "small_blind": 20,
            "big_blind": 40,
            "ante": 0,
            "next": None,
            "hands_left": None,
            "next_at": None,
            "on_break": False,
            "break_minutes_left": None,
            "break_ends_at": None,
        },
        "bounties": [{"player": "ann", "bounty": 40}, {"player": "bob", "bounty": 60}],
        "addon": {"chips": 1500, "price": 100, "open": True},
    }
    you = {**RUNNING, "tournament": tournament, "you": {"name": "bob"}}
    text = render.board_text(you).plain
    assert "Bounty on your head: 60   ann 40" in text
    assert "Add-on open: 1500 chips for 100 ([u] in poker play, or on the tournament's page)" in (
        text
    )
    seated = {**you, "running": False, "you": {"name": "bob", "seat": 2, "sitting_out": False}}
    turn = render.turn_text(seated, None, None, playing=True).plain
    assert "[u] take the add-on: 1500 chips for 100" in turn
    assert "[u]" not in render.turn_text(seated, None, None, playing=False).plain
    closed = {**tournament, "addon": {**tournament["addon"], "open": False}}
    assert "[u]" not in render.turn_text({**seated, "tournament": closed}, None, None, True).plain
    watching = render.level_text({**tournament, "addon": {**tournament["addon"], "open": False}})
    assert "Bounties: ann 40, bob 60" in watching.plain
    assert "Add-on: 1500 chips for 100, at the end of the rebuys" in watching.plain
    plain = {**tournament, "bounties": [], "addon": None}
    assert "Bount" not in render.level_text(plain).plain
    assert "Add-on" not in render.level_text(plain).plain
    assert "deal" not in render.level_text(plain).plain


def test_a_deal_being_decided_is_drawn_at_a_tournament_table():
    level = {"number": 4, "small_blind": 100, "big_blind": 200, "ante": 0, "next": None}
    level |= {"hands_left": None, "next_at": None, "on_break": False}
    level |= {"break_minutes_left": None, "break_ends_at": None}
    tournament = {"id": 3, "name": "PKO", "url": "/tournaments/3/", "blinds": "100/200"}
    tournament |= {"next_blinds": None, "level": level, "deal_deciding": True}
    text = render.level_text(tournament).plain
    assert "A deal is being decided: the clock waits; answer on the tournament's page" in text
    assert "deal" not in render.level_text({**tournament, "deal_deciding": False}).plain


def test_control_and_bidi_characters_print_as_escapes():
    assert printable("Esc\x1b[2J\x1b]0;owned\x07Table") == "Esc\\x1b[2J\\x1b]0;owned\\x07Table"
    assert printable("a\tb\nc\u202eevil\u2028") == "a\\x09b\\x0ac\\u202eevil\\u2028"
    assert printable("Zoë ♠ 10♥ 😀") == "Zoë ♠ 10♥ 😀"  # printable text stays as it is
    assert printable_data({"name\x1b": ["ok", {"x": "\u2066y"}], "n": 3}) == {
        "name\\x1b": ["ok", {"x": "\\u2066y"}],
        "n": 3,
    }


def test_invisible_characters_and_stacked_marks_print_as_escapes():
    """Issue 54 findings 3 and 4: a filler, a zero-width space and thirty marks on a letter
    showed nothing or spilled over the terminal's columns."""
    assert printable("bob\u3164") == "bob\\u3164"
    assert printable("zero\u200bwidth\u2800") == "zero\\u200bwidth\\u2800"
    assert printable("e" + "\u0301" * 5) == "e" + "\u0301" * 3 + "\\u0301" * 2
    assert printable("tag\U000e0041") == "tag\\U000e0041"
    assert printable("Tiếng Việt ♠\ufe0f") == "Tiếng Việt ♠\ufe0f"  # the emoji's own
    assert printable("a\ufe0f") == "a\\ufe0f"


def test_a_socket_frame_is_made_safe_before_anyone_reads_it():
    """Every frame (state, answer) is cleaned where it comes in: no caller can forget."""
    seen: list[dict] = []
    socket = TableSocket("http://127.0.0.1:1", 1, "token", on_state=seen.append)
    frame = {"type": "state", "state": {"table": {"name": "Evil\x1b]0;x\x07"}}}
    asyncio.run(socket._frame(json.dumps(frame)))
    assert seen == [{"type": "state", "state": {"table": {"name": "Evil\\x1b]0;x\\x07"}}}]
