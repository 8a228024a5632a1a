"""Run it twice against pokerkit 0.7: hands pokerkit plays and writes, the engine replays.

pokerkit plays random no-limit hold'em and pot-limit Omaha hands (2-6 players, uneven
stacks, betting biased to all-ins) and, when players are all in before the river, asks each
of them for the number of runs (twice with 95% odds each, else once: one "once" runs it
once, in pokerkit as in the engine). pokerkit writes the hand as PHH: a board run twice is
the first run's ``d db`` lines then the second run's, each street burning first, which is the
engine's dealing order too; pokerkit writes no line for the choice (the engine reads a
board of more than five cards as run twice). The engine reads the file and replays it.

The runs must agree (``Hand.runs`` is pokerkit's runout count) and the finishing stacks must
be equal, except where a house rule of the engine deliberately differs; each such hand is
named after its rule and checked by it:

* ``odd_chips_of_a_tie``: a run's share of a pot split between tied hands with an odd chip.
  The engine gives odd chips one at a time to the winners from the left of the button;
  pokerkit gives them all to its first winner. Checked: chips are conserved, the engine's
  shares follow its rule, and no stack differs by more than the odd chips.
* ``odd_chip_per_side_pot``: the runs split each pot the engine builds from the
  contributions (a pot for each all-in level), the odd chip to the first run. pokerkit kills
  the hands that win on no run before it cuts its pots, so pots that differed only by such a
  hand become one (an even total where the engine had two odd ones). Checked: pokerkit paid
  fewer pots, every pot of the engine is split between the runs with at most the odd chip
  more on the first, and no stack differs by more than the odd pots.
* ``short_all_in_reopening``: a no-limit or pot-limit all-in raise for less than a full raise,
  after which pokerkit lets a player who already acted on the street raise; the engine does
  not reopen the betting for that player (TDA). Checked: the engine's refusal names that rule
  and the refused raiser had acted earlier on the same street.

The engine's own rule for the runs - each pot split between the runs, the odd chip to the
first run - is pokerkit's too (``State._begin_chips_pushing``); the hands in which an odd pot
went to different winners on the two runs (``odd_pot_split_between_runs``) end with equal
stacks. Short blinds and antes are kept out (every stack covers them): their house rules are
checked in ``test_hand_differential``.

pokerkit 0.7.7 cannot read back its own run-twice files (its reader does not restore the
runout count: "Unable to repair the hand history"), so the cross-check runs one way.
"""

from collections import Counter
from collections.abc import Callable

import pytest

from engine import phh
from engine.errors import HandHistoryError
from engine.hand import Hand
from engine.pots import seats_from_button

pytest.importorskip("pokerkit")
from tests.engine.pokerkit_runs import PlayedHand, play  # noqa: E402


def odd_chips(hand: Hand) -> int:
    """The odd chips of the splits between tied hands (each run's share of each pot)."""
    assert hand.result is not None
    return sum(a.amount % len(a.winners) for a in hand.result.awards if len(a.winners) > 1)


def check_odd_chips_of_a_tie(hand: Hand, theirs: list[int]) -> None:
    assert hand.result is not None
    ours = list(hand.stacks)
    assert sum(ours) == sum(theirs) == sum(hand.starting_stacks)
    order = seats_from_button(hand.button, hand.seats)
    for award in hand.result.awards:
        if len(award.winners) < 2:
            continue
        # winners listed from the left of the button, each odd chip to the next of them
        assert list(award.winners) == sorted(award.winners, key=order.index)
        base = award.amount // len(award.winners)
        extra = award.amount % len(award.winners)
        assert list(award.amounts) == [base + (i < extra) for i in range(len(award.winners))]
    odd = odd_chips(hand)
    assert odd > 0
    odd += odd_pots_run_twice(hand)  # pokerkit may also have cut the pots otherwise
    assert all(abs(a - b) <= odd for a, b in zip(ours, theirs, strict=True))


def odd_pots_run_twice(hand: Hand) -> int:
    """Pots of odd total split between two runs; checks the first run gets the odd chip."""
    assert hand.result is not None
    halves: dict[int, list[int]] = {}
    for award in hand.result.awards:
        halves.setdefault(award.pot, []).append(award.amount)
    odd = 0
    for amounts in halves.values():
        if len(amounts) == 2:
            assert amounts[0] - amounts[1] in (0, 1)
            odd += amounts[0] - amounts[1]
    return odd


def check_odd_chip_per_side_pot(hand: Hand, theirs: list[int], played: PlayedHand) -> None:
    assert hand.result is not None
    ours = list(hand.stacks)
    assert sum(ours) == sum(theirs) == sum(hand.starting_stacks)
    assert len({pot for pot, _ in played.pushed}) < len({a.pot for a in hand.result.awards})
    odd = odd_pots_run_twice(hand)
    assert odd > 0
    assert all(abs(a - b) <= odd for a, b in zip(ours, theirs, strict=True))


def check_short_all_in_reopening(history: phh.HandHistory, error: HandHistoryError) -> None:
    assert "a short all-in raise does not reopen the betting" in str(error)
    refused = next(i for i, line in enumerate(history.actions) if f"{line!r}" in str(error))
    player = history.actions[refused].split()[0]
    street_start = max(
        (i + 1 for i, line in enumerate(history.actions[:refused]) if line.startswith("d db")),
        default=0,
    )
    assert any(line.startswith(f"{player} ") for line in history.actions[street_start:refused])


def odd_pot_split_between_runs(hand: Hand) -> bool:
    """An odd pot whose two runs went to different winners (the first run's half is the
    larger by the odd chip)."""
    assert hand.result is not None
    runs: dict[int, list[tuple[int, ...]]] = {}
    totals: Counter[int] = Counter()
    for award in hand.result.awards:
        runs.setdefault(award.pot, []).append(award.winners)
        totals[award.pot] += award.amount
    return any(
        totals[pot] % 2 and len(winners) == 2 and winners[0] != winners[1]
        for pot, winners in runs.items()
    )


def compare(played: PlayedHand, source: str) -> list[str]:
    """Replay pokerkit's file in the engine and name the outcome: ``same`` (with what it
    shows) or the house rule that explains the difference, checked by that rule."""
    history = phh.loads(played.text, source)
    try:
        hand = history.replay()
    except HandHistoryError as error:
        check_short_all_in_reopening(history, error)
        return ["short_all_in_reopening"]
    assert hand.is_over
    assert hand.runs == (played.runout_count or 1), source
    # the engine's own writer and reader round-trip the hand pokerkit wrote
    again = phh.loads(phh.dumps(hand)).replay()
    assert again.stacks == hand.stacks and again.second_board == hand.second_board
    runs = f"runs_{hand.runs}"
    if list(hand.stacks) == played.stacks:
        if hand.runs == 2 and odd_pot_split_between_runs(hand):
            return [runs, "same", "odd_pot_split_between_runs"]
        return [runs, "same"]
    if short_antes(hand):
        check_short_ante(hand, played.stacks)
        return [runs, "short_ante"]
    if odd_chips(hand):
        check_odd_chips_of_a_tie(hand, played.stacks)
        return [runs, "odd_chips_of_a_tie"]
    check_odd_chip_per_side_pot(hand, played.stacks, played)
    return [runs, "odd_chip_per_side_pot"]


def short_antes(hand: Hand) -> list[int]:
    """Seats that antes (or a bomb pot's ante) left all in for less than the ante."""
    ante = hand.config.bomb_pot or (
        hand.config.ante if hand.config.ante_mode == "per-player" else 0
    )
    return [seat for seat, stack in enumerate(hand.starting_stacks) if stack < ante]


def check_short_ante(hand: Hand, theirs: list[int]) -> None:
    """Side pots come from contributions: a seat all in for less than the ante wins at most
    what it put in from each player (pokerkit puts every ante in a main pot it can win)."""
    assert sum(hand.stacks) == sum(theirs) == sum(hand.starting_stacks)
    for seat in short_antes(hand):
        assert hand.stacks[seat] <= hand.starting_stacks[seat] * hand.seats
    assert any(hand.stacks[seat] < theirs[seat] for seat in short_antes(hand))


def run(game: str, count: int, play_hand: Callable[[int, str], PlayedHand] = play) -> Counter[str]:
    outcome: Counter[str] = Counter()
    for seed in range(count):
        outcome.update(compare(play_hand(seed, game), f"{game} seed {seed}"))
    return outcome


@pytest.mark.slow
@pytest.mark.parametrize("game", ["holdem", "omaha"])
def test_pokerkit_run_twice_hands_replay_to_the_same_stacks(game):
    outcome = run(game, 800)
    assert outcome["runs_2"] >= 400, outcome  # most hands really ran twice
    assert outcome["same"] >= 760, outcome
    # pokerkit gives the odd chip of a pot split between the runs to the first run too
    assert outcome["odd_pot_split_between_runs"] >= 40, outcome
