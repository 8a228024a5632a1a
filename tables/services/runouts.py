"""All-in run-outs at the table: the odds street by street, their pacing, run it twice and
the rabbit hunt.

- ``runout_record``: once nobody can bet any more with two or more hands live, every live
  hand's chance of winning (its expected share of the pot, from ``engine.runout``) is stored
  street by street in ``Hand.runout``, for each run of the board. The engine deals the whole
  run-out at once and settles the chips; the site shows it one street at a time: ``shown``
  says how many streets after the first are on screen (``tables.presenters.runout`` hides the
  rest, the result and the chips won until the last one).
- ``runout_advance``: the croupier's step, one street every ``POKER_RUNOUT_PAUSE_SECONDS``
  (0: the run-out is shown at once). The pacing is data (``shown`` and the table's
  ``next_hand_at``), so a restarted server carries on from the street it was on; the next
  hand is not dealt before the last street has been on screen.
- ``runs_answer``: run it twice, each live player's answer; twice only when all say twice.
- ``rabbit_hunt``: the cards that would have come after a hand that ended before the river.

``rabbit_hunt`` is a service of its own (one transaction, the table row locked); the others
run in their caller's, which holds the lock.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from engine.errors import PokerError
from engine.hand import Hand as EngineHand
from engine.runout import runout_odds
from tables.models import Hand, Seat, Table
from tables.selectors.hands import hand_state, last_hand
from tables.services.errors import HandNotRunning, IllegalMove, NotSeated, NotYourTurn
from tables.services.events import table_touch
from tables.services.locks import table_lock

#: The run-it-twice answers (action kinds) and the runs each one asks for.
RUN_CHOICES = {"run_once": 1, "run_twice": 2}


def _pause() -> float:
    return float(settings.POKER_RUNOUT_PAUSE_SECONDS)


def runout_steps(state: EngineHand) -> list[list[dict]]:
    """Each run's streets from the moment no more betting was possible: the board's size and
    every live hand's chance (engine seat as text -> expected share of the pot, 0..1)."""
    boards = [state.board]
    if state.runs == 2:
        boards.append(state.second_board)
    runs = []
    for board in boards:
        runs.append(
            [
                {
                    "street": odds.street,
                    "cards": len(odds.board),
                    "chances": {
                        str(seat): share for seat, share in zip(odds.seats, odds.share, strict=True)
                    },
                }
                for odds in runout_odds(state, board)
            ]
        )
    return runs


def runout_record(hand: Hand, state: EngineHand) -> bool:
    """Set the run-out of ``hand`` (see the module docstring) when no more betting is
    possible and the board is still to come or waits for the players' choice of runs.
    Writes it while the hand waits for that choice; a finished hand's caller writes it with
    the hand's end (one UPDATE). Returns whether its streets are to be shown one by one."""
    if not state.no_more_betting or state.config.is_stud:
        return False
    if not (state.is_over or state.runs_due):
        return False
    runs = runout_steps(state)
    if not runs or (len(runs[0]) < 2 and not state.runs_due):
        hand.runout = None  # betting ended on the river: a plain showdown
        return False
    paced = state.is_over and _pause() > 0
    hand.runout = {"runs": runs, "shown": 0 if paced else len(runs[0]) - 1}
    if not state.is_over:
        Hand.objects.filter(pk=hand.pk).update(runout=hand.runout)
    return paced


def runout_first_pause(now: datetime) -> datetime:
    """When the first street after the all-in is shown."""
    return now + timedelta(seconds=_pause())


def runout_advance(table: Table, hand: Hand, now: datetime) -> str | None:
    """The croupier's step for a run-out being shown: the next street once its time has
    come (``table.next_hand_at``). Returns ``"runout"`` when a street was shown."""
    if table.next_hand_at is not None and now < table.next_hand_at:
        return None
    runout = dict(hand.runout)
    runout["shown"] += 1
    hand.runout = runout
    Hand.objects.filter(pk=hand.pk).update(runout=runout)
    last = runout["shown"] >= len(runout["runs"][0]) - 1
    pause = settings.POKER_HAND_PAUSE_SECONDS if last else _pause()
    table.next_hand_at = now + timedelta(seconds=pause)
    table_touch(table, "next_hand_at")
    return "runout"


# --- run it twice ----------------------------------------------------------------------------


def runs_answer(*, table: Table, hand: Hand, state: EngineHand, index: int | None, kind: str):
    """Record hand seat ``index``'s answer (``run_once``/``run_twice``) to the run-it-twice
    question. Returns the engine choice (1 or 2) once it is decided (someone said once, or
    every live hand said twice), else None (the answer is stored, the table touched).

    Refused (``IllegalMove`` with a code, nothing changed): no question asked now
    (``no_runs_due``), a seat not live in the hand (``NotYourTurn``), a second answer
    (``already_answered``)."""
    if not state.runs_due:
        raise IllegalMove(
            "Nobody is asked to run it twice now: the question comes when players are all in "
            "before the river at a table that runs it twice.",
            "no_runs_due",
        )
    if index is None or state.folded[index]:
        raise NotYourTurn("Only the players still in the hand choose how the board is run.")
    answers = dict(hand.run_answers or {})
    if str(index) in answers:
        raise IllegalMove(
            "You already answered: the others are still choosing.", "already_answered"
        )
    answers[str(index)] = RUN_CHOICES[kind]
    hand.run_answers = answers
    Hand.objects.filter(pk=hand.pk).update(run_answers=answers)
    if answers[str(index)] == 1:
        return 1
    live = [seat for seat in range(state.seats) if not state.folded[seat]]
    if all(answers.get(str(seat)) == 2 for seat in live):
        return 2
    table_touch(table)
    return None


def runs_unanswered(hand: Hand, state: EngineHand) -> list[int]:
    """The live hand seats that have not answered the run-it-twice question yet."""
    answers = hand.run_answers or {}
    return [s for s in range(state.seats) if not state.folded[s] and str(s) not in answers]


# --- the rabbit hunt ------------------------------------------------------------------------


def rabbit_hunt(*, table: Table | int, player, hand_id: int) -> Hand:
    """Show everyone the board cards that would have come after hand ``hand_id`` (the table's
    last hand, over before the river). Any seated player may ask, once per hand; it changes
    no chips. Lock: table row.

    Refused (nothing changed): the player is not seated here (``not_seated``); the hand is
    not the table's last or is still being played (``hand_not_running``) or its run-out is
    still being dealt (``runout_showing``); the board was dealt to the river, the game has no
    board, or the rabbit was already hunted (``no_rabbit``). The deck after a finished hand
    holds no card still in play: each hand has its own shuffle."""
    with transaction.atomic():
        table = table_lock(table)
        if not Seat.objects.filter(table=table, player_id=player.pk).exists():
            raise NotSeated("Only the players seated at the table may ask for the rabbit hunt.")
        hand = last_hand(table)
        if hand is None or hand.pk != hand_id or hand.is_running:
            raise HandNotRunning("The rabbit hunt is for the table's last hand, once it is over.")
        if hand.runout_showing:
            raise IllegalMove("The board is still being dealt.", "runout_showing")
        if hand.rabbit:
            raise IllegalMove("The rabbit was already hunted for this hand.", "no_rabbit")
        try:
            cards = hand_state(hand).rabbit_hunt()
        except PokerError as error:
            raise IllegalMove(str(error), "no_rabbit") from None
        if not cards:
            raise IllegalMove(
                "The board was dealt to the river: there is nothing to hunt.", "no_rabbit"
            )
        hand.rabbit = {"cards": [str(c) for c in cards], "by": player.name}
        Hand.objects.filter(pk=hand.pk).update(rabbit=hand.rabbit)
        table_touch(table)
        return hand
