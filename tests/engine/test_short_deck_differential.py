"""Short-deck hold'em against pokerkit 0.7's ``NoLimitShortDeckHoldem``, both ways: pokerkit
plays random hands (2-10 players, uneven and short stacks, antes, all-ins, side pots) and the
engine replays its PHH; the engine plays random hands and pokerkit replays its PHH. Stacks
must end equal, or the hand is named after the house rule that explains it and checked by
it (``tests.engine.pokerkit_short_deck``):

* ``short_blind``: the button cannot cover ante and blind; the engine still makes the others
  call the full blind (as in hold'em), pokerkit only what was posted.
* ``short_all_in_reopening``: an all-in raise for less than a full raise does not reopen the
  betting for a player who already acted (TDA); pokerkit lets them raise again.
* ``odd_chips``: a split pot's odd chips go from the left of the button in the engine.

The fixed-seed sample here is small; ``bench/check_variants_pokerkit.py`` runs 500 and more.
"""

from collections import Counter

import pytest

pytest.importorskip("pokerkit")
from tests.engine.pokerkit_short_deck import engine_to_pokerkit, pokerkit_to_engine  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_pokerkit_hands_replay_in_the_engine():
    outcome = Counter(pokerkit_to_engine(seed) for seed in range(40))
    assert outcome["same"] >= 35, outcome


def test_engine_hands_replay_in_pokerkit():
    outcome = Counter(engine_to_pokerkit(seed) for seed in range(40))
    assert outcome["same"] >= 35, outcome


@pytest.mark.slow
def test_many_hands_both_ways():
    there = Counter(pokerkit_to_engine(seed) for seed in range(40, 340))
    back = Counter(engine_to_pokerkit(seed) for seed in range(40, 340))
    assert there["same"] >= 270 and back["same"] >= 270, (there, back)


def test_the_replay_command_reads_pokerkit_s_files(tmp_path, capsys):
    import json

    from engine import cli
    from tests.engine.pokerkit_short_deck import pokerkit_hand

    expected = {}
    for seed in (1, 2, 3):  # hands without a house-rule difference
        text, stacks = pokerkit_hand(seed)
        path = tmp_path / f"{seed}.phh"
        path.write_text(text)
        expected[str(path)] = stacks
    assert cli.main(["replay", "--json", *expected]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {line["file"]: line["finishing_stacks"] for line in lines} == expected
