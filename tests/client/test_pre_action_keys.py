"""The terminal client's keys for acting in advance (issue 50): while another player is to act,
[f], [c] and [y] tick what the play state's ``pre_actions`` offers, a second press unticks,
and the turn line shows the choices with the ticked one marked."""

from __future__ import annotations

from pokerclient import render

NOTHING_TO_CALL = {
    "offers": [
        {"kind": "check_fold", "amount": 0, "label": "Check/fold"},
        {"kind": "check", "amount": 0, "label": "Check"},
        {"kind": "call_any", "amount": 0, "label": "Call any"},
    ],
    "ticked": None,
}
FACING_A_BET = {
    "offers": [
        {"kind": "fold", "amount": 0, "label": "Fold"},
        {"kind": "call", "amount": 40, "label": "Call 40"},
        {"kind": "call_any", "amount": 0, "label": "Call any"},
    ],
    "ticked": {"kind": "call", "amount": 40},
}


def test_each_key_ticks_what_is_offered_and_unticks_what_is_ticked():
    assert render.pre_action_for("f", NOTHING_TO_CALL) == {"kind": "check_fold"}
    assert render.pre_action_for("c", NOTHING_TO_CALL) == {"kind": "check"}
    assert render.pre_action_for("y", NOTHING_TO_CALL) == {"kind": "call_any"}
    assert render.pre_action_for("f", FACING_A_BET) == {"kind": "fold"}
    assert render.pre_action_for("c", FACING_A_BET) == {"kind": ""}  # ticked: untick
    assert render.pre_action_for("r", FACING_A_BET) is None
    assert render.pre_action_for("f", None) is None
    untouched = {**FACING_A_BET, "ticked": None}
    assert render.pre_action_for("c", untouched) == {"kind": "call", "amount": 40}


def test_the_turn_line_shows_the_choices_and_the_ticked_one():
    state = {
        "running": True,
        "actor": 2,
        "seats": [{"seat": 2, "name": "bob"}],
        "legal": None,
        "you": {"seat": 1, "name": "alice"},
        "tournament": None,
        "pre_actions": FACING_A_BET,
    }
    line = render.turn_text(state, None, None, playing=True).plain
    assert "bob to act" in line
    assert "[ ] [f] Fold" in line and "[x] [c] Call 40" in line and "[ ] [y] Call any" in line
    assert "In advance" not in render.turn_text(state, None, None, playing=False).plain
