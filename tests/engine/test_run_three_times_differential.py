"""Run it three times against pokerkit 0.7: hands pokerkit plays and writes, the engine replays.

The hands of ``test_run_twice_differential`` (random no-limit hold'em and pot-limit Omaha,
2-6 players, uneven stacks, betting biased to all-ins), but asked for the runs each player
says three times with 95% odds, else once (pokerkit runs once when the players differ; the
engine's table takes the lowest offer: the same run count for these answers). pokerkit
writes the three runs as PHH ``d db`` lines, run after run, each street burning first: the
engine's dealing order. The engine reads the file (the later cards over the run-out's
streets give the runs) and replays it; its own writer and reader round-trip it.

Every hand conserves chips, in the engine and in pokerkit. The stacks must be equal except
where a house rule of the engine deliberately differs, each such hand named and checked:

* ``odd_chips_between_runs``: a pot of 3k + 2 chips. The engine gives its odd chips one at a
  time to the runs from the first (k + 1, k + 1, k); pokerkit gives both to the first run
  (k + 2, k, k). Also covers pokerkit's merging of pots that differed only by a hand that
  wins on no run (``test_run_twice_differential``'s ``odd_chip_per_side_pot``).
* ``odd_chips_of_a_tie``: a run's share of a pot split between tied hands with an odd chip
  (the engine: one at a time from the left of the button; pokerkit: all to its first winner).
* ``short_all_in_reopening``: as in ``test_run_twice_differential``.

Checked for both: no stack differs by more than the odd chips that rule moves.
"""

from collections import Counter

import pytest

from engine import phh
from engine.errors import HandHistoryError
from engine.hand import Hand

pytest.importorskip("pokerkit")
from tests.engine.pokerkit_runs import PlayedHand, play  # noqa: E402
from tests.engine.test_run_twice_differential import (  # noqa: E402
    check_short_all_in_reopening,
    odd_chips,
)


def odd_chips_between_runs(hand: Hand) -> int:
    """The chips of each pot over an even split between its runs; checks the engine's
    rule: the parts differ by at most one, the larger ones first."""
    assert hand.result is not None
    parts: dict[int, list[int]] = {}
    for award in hand.result.awards:
        parts.setdefault(award.pot, []).append(award.amount)
    odd = 0
    for amounts in parts.values():
        if len(amounts) == hand.runs:
            assert amounts == sorted(amounts, reverse=True) and amounts[0] - amounts[-1] <= 1
        odd += sum(amounts) % hand.runs
    return odd


def compare(played: PlayedHand, source: str) -> list[str]:
    """Replay pokerkit's file in the engine and name the outcome (see the module docstring)."""
    history = phh.loads(played.text, source)
    try:
        hand = history.replay()
    except HandHistoryError as error:
        check_short_all_in_reopening(history, error)
        return ["short_all_in_reopening"]
    assert hand.is_over
    assert hand.runs == (played.runout_count or 1), source
    total = sum(hand.starting_stacks)
    assert sum(hand.stacks) == sum(played.stacks) == total, source  # no chip made or lost
    again = phh.loads(phh.dumps(hand)).replay()
    assert again.stacks == hand.stacks and again.boards == hand.boards, source
    runs = f"runs_{hand.runs}"
    ours, theirs = list(hand.stacks), played.stacks
    if ours == theirs:
        return [runs, "same"]
    ties = odd_chips(hand)
    between = odd_chips_between_runs(hand) if hand.runs > 1 else 0
    assert ties or between, source
    assert all(abs(a - b) <= ties + between for a, b in zip(ours, theirs, strict=True)), source
    return [runs, "odd_chips_of_a_tie" if ties else "odd_chips_between_runs"]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["holdem", "omaha"])
def test_pokerkit_run_three_times_hands_replay_to_the_same_stacks(game):
    outcome: Counter[str] = Counter()
    for seed in range(500):
        outcome.update(compare(play(seed, game, runs=3), f"{game} seed {seed}"))
    assert outcome["runs_3"] >= 300, outcome  # 600 or more over the two games
    assert outcome["same"] >= 340, outcome
    assert outcome["odd_chips_between_runs"] >= 30, outcome  # the rule is met, and checked
