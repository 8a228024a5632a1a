"""The draw games against pokerkit 0.7, both ways (``tests.engine.pokerkit_draw``): pokerkit
plays random hands (2-6 players, 8 at badugi; uneven and short stacks, antes, all-ins and
side pots, 0 to all cards discarded, six-handed decks that run out and are reshuffled) and
the engine replays them (PHH files for 2-7 triple and single draw and badugi; pokerkit's
operations for five-card draw, which PHH has no code for); the engine plays and pokerkit
replays. Stacks end equal, or the hand is named after the house rule that explains it:

* ``fixed_limit_cap``: pokerkit allows a bet and four raises over the big blind before the
  draw; the engine counts the big blind as the bet (a bet and three raises: Robert's Rules
  of Poker, "Betting and raising", and ``docs/house-rules.md``).
* ``short_all_in_reopening``: a short all-in raise does not reopen the betting for a player
  who already acted (TDA Rule 47); pokerkit lets them raise again.
* ``fixed_limit_short_all_in``: after an all-in bet or raise for less than a full one the
  engine lets the next player raise a full bet over it; pokerkit only completes it.
* ``fixed_limit_no_cap_heads_up``: no cap while only two players are in the hand.
* ``odd_chips``: a split pot's odd chips go from the left of the button in the engine.

The fixed-seed sample here is small; ``bench/check_variants_pokerkit.py`` runs 500 and more.
"""

import json
from collections import Counter

import pytest

pytest.importorskip("pokerkit")

from engine.hand import EventKind  # noqa: E402
from tests.engine.pokerkit_draw import (  # noqa: E402
    GAMES,
    engine_play,
    engine_to_pokerkit,
    pokerkit_play,
    pokerkit_to_engine,
)

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
NAMED = {
    "same",
    "fixed_limit_cap",
    "short_all_in_reopening",
    "fixed_limit_short_all_in",
    "fixed_limit_no_cap_heads_up",
    "odd_chips",
}


@pytest.mark.parametrize("game", list(GAMES))
def test_pokerkit_hands_replay_in_the_engine(game):
    outcome = Counter(pokerkit_to_engine(game, seed) for seed in range(30))
    assert set(outcome) <= NAMED and outcome["same"] >= 22, outcome


@pytest.mark.parametrize("game", list(GAMES))
def test_engine_hands_replay_in_pokerkit(game):
    outcome = Counter(engine_to_pokerkit(game, seed) for seed in range(30))
    assert set(outcome) <= NAMED and outcome["same"] >= 27, outcome


def test_the_sample_runs_decks_out_both_ways():
    """Six-handed triple draw with everyone drawing: the engine reshuffles, and pokerkit's
    files deal discarded cards again, which the engine's replay follows."""
    reshuffled = [
        seed
        for seed in range(30)
        if any(e.kind is EventKind.RESHUFFLE for e in engine_play("27-triple-draw", seed).events)
    ]
    assert reshuffled
    again = []
    for seed in range(30):
        _, state, _ = pokerkit_play("27-triple-draw", seed)
        dealt = [
            c for op in state.operations if type(op).__name__ == "HoleDealing" for c in op.cards
        ]
        if len(dealt) != len(set(dealt)):
            again.append(seed)
    assert again
    assert all(pokerkit_to_engine("27-triple-draw", seed) in NAMED for seed in again)


def test_the_replay_command_reads_pokerkit_s_draw_files(tmp_path, capsys):
    from pokerkit import HandHistory

    from engine import cli

    expected = {}
    for game in ("27-triple-draw", "27-single-draw", "badugi"):
        for seed in range(4):
            if pokerkit_to_engine(game, seed) != "same":
                continue
            built, state, _ = pokerkit_play(game, seed)
            path = tmp_path / f"{game}-{seed}.phh"
            path.write_text(HandHistory.from_game_state(built, state).dumps())
            expected[str(path)] = list(state.stacks)
    assert len(expected) >= 9
    assert cli.main(["replay", "--json", *expected]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {line["file"]: line["finishing_stacks"] for line in lines} == expected


def test_the_sample_has_all_ins_side_pots_and_every_discard_count():
    from engine.pots import build_pots

    counts, side_pots, all_ins = set(), 0, 0
    for game in GAMES:
        for seed in range(30):
            hand = engine_play(game, seed)
            counts |= {e.amount for e in hand.events if e.kind is EventKind.DISCARD}
            all_ins += any(hand.stacks[s] == 0 for s in range(hand.seats))
            pots = build_pots(list(hand.committed), [not f for f in hand.folded])
            side_pots += len(pots) > 1
    assert counts == {0, 1, 2, 3, 4, 5}
    assert all_ins >= 20 and side_pots >= 5, (all_ins, side_pots)
