"""All-in run-outs at the table: the odds street by street, their pacing, run it twice and
the rabbit hunt.

- ``runout_record``: once nobody can bet any more with two or more hands live, the run-out's
  shape is stored in ``Hand.runout``: for each run of the board, its streets (name, board
  cards) with every live hand's chance still unknown (``"chances": null``) and
  ``Hand.odds_pending`` set. The chances are NOT computed here: exact enumeration takes up to
  about a second, and this runs in the transaction of the action that ended the betting,
  holding the table row (on SQLite, the one writer of every table).
- ``runout_odds_store``: the chances, computed outside any transaction by the table's runtime
  from the hand it holds (``tables.croupier.RunoutOdds``, in its fenced write), else by the
  croupier (``tables.croupier``: ``runout_odds_compute``, from what ``runout_odds_work``
  read), written under the lock if the run-out is still the one they were computed for. Only
  unknown chances are filled, so two computations of the same odds write them once.
- ``runout_advance``: the croupier's step, one street every ``POKER_RUNOUT_PAUSE_SECONDS``
  (0: the run-out is shown at once). The engine deals the whole run-out at once and settles
  the chips; the site shows it one street at a time: ``shown`` says how many streets after
  the first are on screen (``tables.presenters.runout`` hides the rest, the result and the
  chips won until the last one). The pacing is data (``shown`` and the table's
  ``next_hand_at``), so a restarted server carries on from the street it was on; the next
  hand is not dealt before the last street has been on screen.
- ``runs_answer``: run it twice (or three times), each live player's answer: once, twice or
  three times; the lowest offer wins (once at once, else when every live player answered).
- ``rabbit_hunt``: the cards that would have come after a hand that ended before the river.

The chances and the pacing: a street is not left while its chances are unknown, for at
most ``POKER_RUNOUT_ODDS_WAIT_SECONDS`` after the betting ended; past that the run-out goes
on without them (shown as "…") and they appear when they come. Chances that come after
their street's time keep that street on screen one more pause, so they are seen.

``rabbit_hunt`` and ``runout_odds_store`` are services of their own (one transaction, the
table row locked); the others run in their caller's, which holds the lock. The reads the
croupier computes from, none of them holding a lock: ``hands_awaiting_odds`` (which hands'
chances are still unknown: an indexed read), ``runout_odds_work`` (one hand replayed from the
database) and ``hands_awaiting_allin_ev``. Nothing here computes odds (exact enumeration: up to
about a second): the runtime and the croupier do, off the write path.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet

from engine.errors import PokerError
from engine.hand import Hand as EngineHand
from engine.runout import runout_streets
from engine.types import RUNS_WORDS
from tables.db import statements
from tables.db.rows import select_first, select_values_by_ids
from tables.models import Hand, Player, PlayerHand, Seat, Table
from tables.selectors.hands import hand_state, last_hand, runout_streets_of, with_deck
from tables.services.errors import HandNotRunning, IllegalMove, NotSeated, NotYourTurn
from tables.services.events import fenced_atomic, table_lock, table_touch
from tables.services.hands_made import odds_stored, street_shown

#: The run-it-twice answers (action kinds) and the runs each one asks for.
RUN_CHOICES = {"run_once": 1, "run_twice": 2, "run_thrice": 3}


def _pause() -> float:
    return float(settings.POKER_RUNOUT_PAUSE_SECONDS)


#: A street's chances while the croupier has not computed them yet.
UNKNOWN = None


def runout_shape(state: EngineHand) -> list[list[dict[str, Any]]]:
    """Each run's streets from the moment no more betting was possible: the street, the
    board's size and every live hand's chance, unknown yet (``UNKNOWN``; once known: engine
    seat as text -> expected share of the pot, 0..1). Cheap: no odds are computed."""
    return [
        [
            {"street": street, "cards": cards, "chances": UNKNOWN}
            for street, cards in runout_streets(state, board)
        ]
        for board in state.boards
    ]


def runout_record(hand: Hand, state: EngineHand) -> bool:
    """Set the run-out of ``hand`` (see the module docstring) when no more betting is
    possible and the board is still to come or waits for the players' choice of runs.
    Writes it while the hand waits for that choice; a finished hand's caller writes it (and
    ``odds_pending``) with the hand's end (one UPDATE). Returns whether its streets are to
    be shown one by one."""
    # a run-out is a board's: stud and the draw games deal theirs to the players
    if not state.no_more_betting or state.config.variant.structure != "board":
        return False
    if not (state.is_over or state.runs_due):
        return False
    runs = runout_shape(state)
    if not runs or (len(runs[0]) < 2 and not state.runs_due):
        hand.runout = None  # betting ended on the river: a plain showdown
        hand.odds_pending = False
        return False
    _keep_first_chances(hand.runout, runs)
    paced = state.is_over and _pause() > 0
    hand.runout = {"runs": runs, "shown": 0 if paced else len(runs[0]) - 1}
    hand.odds_pending = any(step["chances"] is UNKNOWN for run in runs for step in run)
    if not state.is_over:
        statements.update(Hand, {"pk": hand.pk}, runout=hand.runout, odds_pending=hand.odds_pending)
    return paced


def _keep_first_chances(before: dict[str, Any] | None, runs: list[list[dict[str, Any]]]) -> None:
    """The chances already known while the players chose how many runs (the street the
    betting ended on) stay known once the runs are decided: every run starts from that
    board, so they do not flicker back to unknown."""
    if not before or not before["runs"] or not before["runs"][0]:
        return
    first = before["runs"][0][0]
    if first["chances"] is UNKNOWN:
        return
    for run in runs:
        if run and (run[0]["street"], run[0]["cards"]) == (first["street"], first["cards"]):
            run[0]["chances"] = dict(first["chances"])


def runout_odds_store(
    *,
    hand_id: int,
    runs: list[list[dict[str, Any]]] | None,
    now: datetime,
    ev_net: dict[int, float] | None = None,
) -> bool:
    """Store the chances of hand ``hand_id``'s run-out, computed outside any transaction
    (``tables.croupier``); ``runs`` is ``runout_shape``'s form with the chances known, or
    None: there was nothing to compute (no run-out, or a voided hand).

    Lock: table row. Written only if the stored run-out is still the one they were computed
    for (same runs and streets: a run-it-twice decision since makes a new one, computed
    again), and only where a chance is still unknown: a second process computing the same
    odds writes nothing. The table is touched when anything was written, so every screen
    shows them; see the module docstring for the pacing. Returns whether anything was.

    ``ev_net``: the all-in EV computed with them (engine seat -> expected net,
    ``engine.allin_ev``), written to the hand's ``PlayerHand`` rows still without one once
    the hand is over (their rows exist from its end)."""
    with fenced_atomic():  # the table's runtime stores them in its fenced write
        found = select_values_by_ids(Hand, "hand-table", _table_of_hand, hand_id)
        if not found:
            return False
        table = table_lock(found[0][0])
        hand = select_first(Hand, "odds-store-hand", _hand_by_id, hand_id)
        if hand is None:  # deleted with its table meanwhile
            return False
        stored = hand.runout
        fits = (
            runs is not None
            and stored is not None
            and hand.status != Hand.Status.VOIDED
            and runout_streets_of(stored["runs"]) == runout_streets_of(runs)
        )
        if not fits:
            if runs is None and hand.odds_pending:  # nothing will ever be computed
                statements.update(Hand, {"pk": hand.pk}, odds_pending=False)
            return False
        assert runs is not None and stored is not None  # they fit
        if ev_net is not None and hand.status == Hand.Status.FINISHED:
            allin_ev_store(hand_id=hand.pk, ev_net=ev_net)
        filled = False
        for run, known in zip(stored["runs"], runs, strict=True):
            for step, computed in zip(run, known, strict=True):
                if step["chances"] is UNKNOWN and computed["chances"] is not UNKNOWN:
                    step["chances"] = computed["chances"]
                    filled = True
        pending = any(step["chances"] is UNKNOWN for run in stored["runs"] for step in run)
        if not filled:
            if hand.odds_pending != pending:
                statements.update(Hand, {"pk": hand.pk}, odds_pending=pending)
            return False
        statements.update(Hand, {"pk": hand.pk}, runout=stored, odds_pending=pending)
        hand.odds_pending = pending
        changed: tuple[str, ...] = ()
        late = table.next_hand_at is not None and table.next_hand_at <= now
        if hand.runout_showing and late:  # the street's time has passed: show them a while
            table.next_hand_at = now + timedelta(seconds=_pause())
            changed = ("next_hand_at",)
        table_touch(table, *changed)
        odds_stored(table, hand)  # for the table's runtime that stored them: its next version
        return True


def _table_of_hand(hand_id: int) -> QuerySet[Hand, tuple[int]]:
    return Hand.objects.filter(pk=hand_id).order_by().values_list("table_id")


def _hand_by_id(hand_id: int) -> QuerySet[Hand]:
    return Hand.objects.filter(pk=hand_id).order_by()[:1]


def allin_ev_store(*, hand_id: int, ev_net: dict[int, float], again: bool = False) -> None:
    """Write the all-in EV (engine seat -> expected net) of finished hand ``hand_id``'s
    ``PlayerHand`` rows still without one: derived data that only fills what is unknown, so
    two computations of it write it once and no lock is needed (``runout_odds_store`` calls
    it under the table's; ``manage.py allin_ev`` for hands older than the field). Compiled
    statements: every run-out's odds come with it. ``again``: over the one stored
    (``manage.py allin_ev --again``: a correction of how it is computed)."""
    big_blinds = dict(select_values_by_ids(PlayerHand, "allin-ev-blinds", _big_blinds, hand_id))
    unknown = {} if again else {"ev_net": None}
    for seat, value in ev_net.items():
        if seat in big_blinds:  # (each row's own, as its ``net_bb`` was divided by)
            statements.update(
                PlayerHand,
                {"hand_id": hand_id, "seat": seat, **unknown},
                ev_net=value,
                ev_net_bb=value / big_blinds[seat],
            )


def _big_blinds(hand_id: int) -> QuerySet[PlayerHand, tuple[int, int]]:
    return PlayerHand.objects.filter(hand_id=hand_id).order_by().values_list("seat", "big_blind")


# --- what the croupier computes from (reads) -------------------------------------------------


@dataclass(frozen=True)
class OddsWork:
    """The chances to compute for hand ``hand_id`` at table ``table_id``: its engine state
    (``state``), or None when there is nothing to compute (no run-out any more, a voided
    hand)."""

    hand_id: int
    table_id: int
    state: EngineHand | None


def hands_awaiting_odds() -> list[tuple[int, int]]:
    """(hand id, table id) of every hand whose run-out's chances are still unknown, oldest
    first."""
    # every croupier pass, twice a second, most often to find none: compiled once
    rows = statements.select_values(Hand, "hands-awaiting-odds", _hands_awaiting_odds)
    return [(pk, table_id) for pk, table_id in rows]


def _hands_awaiting_odds() -> QuerySet[Hand, tuple[int, int]]:
    """(pk, table id) of the hands whose run-out's chances are unknown, oldest first."""
    return Hand.objects.filter(odds_pending=True).order_by("pk").values_list("pk", "table_id")


def runout_odds_work(hand_id: int) -> OddsWork | None:
    """What to compute for hand ``hand_id`` (None: no such hand). A read, changing nothing."""
    hand = with_deck(Hand.objects).filter(pk=hand_id).first()
    if hand is None:
        return None
    if not hand.runout or hand.status == Hand.Status.VOIDED:
        return OddsWork(hand.pk, hand.table_id, None)
    return OddsWork(hand.pk, hand.table_id, hand_state(hand))


def hands_awaiting_allin_ev(*, known_too: bool = False) -> list[int]:
    """Ids of the finished hands with an all-in whose EV is still unknown (hands older than
    the EV, or whose run-out's odds the croupier has not computed yet), oldest first;
    ``known_too``: and those whose EV is known (to compute it again)."""
    rows = PlayerHand.objects.filter(all_in=True, hand__status=Hand.Status.FINISHED)
    if not known_too:
        rows = rows.filter(ev_net=None)
    return list(rows.order_by("hand_id").values_list("hand_id", flat=True).distinct())


# --- the pacing ------------------------------------------------------------------------------


def runout_first_pause(now: datetime) -> datetime:
    """When the first street after the all-in is shown."""
    return now + timedelta(seconds=_pause())


def runout_advance(table: Table, hand: Hand, now: datetime) -> str | None:
    """The croupier's step for a run-out being shown: the next street once its time has
    come (``table.next_hand_at``). Returns ``"runout"`` when a street was shown."""
    if table.next_hand_at is not None and now < table.next_hand_at:
        return None
    if _waits_for_chances(hand, now):
        return None
    assert hand.runout is not None  # a run-out being shown
    runout = dict(hand.runout)
    runout["shown"] += 1
    hand.runout = runout
    statements.update(Hand, {"pk": hand.pk}, runout=runout)
    last = runout["shown"] >= len(runout["runs"][0]) - 1
    pause = settings.POKER_HAND_PAUSE_SECONDS if last else _pause()
    table.next_hand_at = now + timedelta(seconds=pause)
    table_touch(table, "next_hand_at")
    street_shown(table, hand)  # for the runtime that wrote it: its next version, built
    return "runout"


def _waits_for_chances(hand: Hand, now: datetime) -> bool:
    """Whether the street on screen waits for its chances (see the module docstring)."""
    if not hand.odds_pending:
        return False
    assert hand.runout is not None  # odds pending: for its run-out
    step = hand.runout["runs"][0][hand.runout["shown"]]
    if step["chances"] is not UNKNOWN or hand.finished_at is None:
        return False
    return now < hand.finished_at + timedelta(seconds=settings.POKER_RUNOUT_ODDS_WAIT_SECONDS)


# --- run it twice ----------------------------------------------------------------------------


def runs_answer(
    *, table: Table, hand: Hand, state: EngineHand, index: int | None, kind: str
) -> int | None:
    """Record hand seat ``index``'s answer (``run_once``/``run_twice``/``run_thrice``) to the
    run-it-twice question. Returns the engine choice (1, 2 or 3) once it is decided: the
    lowest offer wins, so at once when someone says once, else when every live hand has
    answered (the fewest runs offered); until then None (the answer is stored, the table
    touched).

    Refused (``IllegalMove`` with a code, nothing changed): no question asked now
    (``no_runs_due``), a seat not live in the hand (``NotYourTurn``), a second answer
    (``already_answered``), more runs than the deck has cards for (``not_enough_cards``:
    Omaha at a full table)."""
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
    if RUN_CHOICES[kind] > state.most_runs:
        raise IllegalMove(
            f"The deck has cards left to run the board {RUNS_WORDS[state.most_runs]} at most.",
            "not_enough_cards",
        )
    answers[str(index)] = RUN_CHOICES[kind]
    hand.run_answers = answers
    statements.update(Hand, {"pk": hand.pk}, run_answers=answers)
    if answers[str(index)] == 1:
        return 1
    live = [seat for seat in range(state.seats) if not state.folded[seat]]
    if all(str(seat) in answers for seat in live):
        return min(int(answers[str(seat)]) for seat in live)
    table_touch(table)
    return None


def runs_unanswered(hand: Hand, state: EngineHand) -> list[int]:
    """The live hand seats that have not answered the run-it-twice question yet."""
    answers = hand.run_answers or {}
    return [s for s in range(state.seats) if not state.folded[s] and str(s) not in answers]


# --- the rabbit hunt ------------------------------------------------------------------------


def rabbit_hunt(*, table: Table | int, player: Player, hand_id: int) -> Hand:
    """Show everyone the board cards that would have come after hand ``hand_id`` (the table's
    last hand, over before the river). Any seated player may ask, once per hand; it changes
    no chips. Lock: table row.

    Refused (nothing changed), what the hand allows first, then who asks: the hand is not the
    table's last or is still being played (``hand_not_running``) or its run-out is still being
    dealt (``runout_showing``); the board was dealt to the river, the game has no board, or
    the rabbit was already hunted (``no_rabbit``); the player is not seated here
    (``not_seated``). The deck after a finished hand holds no card still in play: each hand
    has its own shuffle."""
    with transaction.atomic():
        table = table_lock(table)
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
        if not Seat.objects.filter(table=table, player_id=player.pk).exists():
            raise NotSeated("Only the players seated at the table may ask for the rabbit hunt.")
        hand.rabbit = {"cards": [str(c) for c in cards], "by": player.name}
        Hand.objects.filter(pk=hand.pk).update(rabbit=hand.rabbit)
        table_touch(table)
        return hand
