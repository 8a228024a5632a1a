"""A finished hand, step by step, as one seat may see it: for the replayer (``/hands/<id>/``).

Each decision is a step; each street dealt is a step of its own, after the decision that
closed the betting (an all-in's run-out is three steps: flop, turn, river); the awards are the
last step. Every step holds the engine's ``Hand.view(seat)`` at that point: the viewer's own
cards, and the cards shown at the final showdown (public once the hand is over), nothing else.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Card
from engine.hand import Hand as EngineHand
from engine.streets import STUD_STREET_NAMES, decisions
from engine.types import RUN_ACTIONS, RUNS_WORDS, Action, EventKind
from engine.view import View
from tables.models import Hand
from tables.selectors.hands import decision_action, hand_decisions, hand_deck, hand_state
from tables.text import chips, without_board_codes

# The board's length after each street is dealt, and the street's name.
STREET_ENDS = ((3, "Flop"), (4, "Turn"), (5, "River"))


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: what it shows, who just acted (an engine seat) and whether the
    pots have been awarded yet (only on the last step)."""

    index: int
    label: str
    view: View
    acted: int | None = None
    awarded: bool = False
    #: The cards a street's step deals (drawn as cards beside its label), and on a board run
    #: twice or three times each later run's.
    cards: tuple[Card, ...] = ()
    later_cards: tuple[tuple[Card, ...], ...] = ()
    #: A call's step: the chips it put in and every chip in the middle before it (its pot
    #: odds, ``tables.selectors.replay_odds``); 0 on any other step.
    called: int = 0
    pot_before: int = 0


def hand_replay_steps(hand: Hand, seat: int | None) -> list[ReplayStep]:
    """The steps of finished ``hand`` as engine seat ``seat`` (None: a spectator) may see it."""
    if hand.status != Hand.Status.FINISHED or hand.in_play:
        raise ValueError("only a finished hand can be replayed")
    decided = hand_decisions(hand)
    actions = [decision_action(decision) for decision in decided]
    return engine_replay_steps(hand_state(hand, decided), hand_deck(hand), seat, actions=actions)


def engine_replay_steps(
    final: EngineHand,
    deck: Sequence[int],
    seat: int | None,
    known: Collection[int] | None = None,
    actions: Sequence[Action] | None = None,
) -> list[ReplayStep]:
    """The steps of the finished engine hand ``final`` (dealt from ``deck``) as engine seat
    ``seat`` may see it: a hand of this site, or one a feature rebuilt (an imported hand).

    ``known``: the cards the hand's record names; any other card is shown hidden, even the
    viewer's own (a record that did not show them fills the deck with stand-ins).
    ``actions``: the decisions as stored, when they are (else the engine's own record).
    """
    if not final.is_over:
        raise ValueError("only a finished hand can be replayed")
    final_view = final.view(seat)
    shown = {s.seat: s.cards for s in final_view.seats if s.shown}

    def seen(view: View) -> View:
        # A hand shown at the end, as far as it was dealt at this step (stud deals street
        # by street: its seventh card is not on 3rd street).
        view = replace(
            view,
            seats=tuple(
                replace(s, cards=shown[s.seat][: len(s.cards)]) if s.seat in shown else s
                for s in view.seats
            ),
        )
        return view if known is None else _only_known(view, known)

    actions = list(final.actions if actions is None else actions)
    said = decisions(final)
    state = EngineHand(
        final.config, final.starting_stacks, final.button, deck, players=final.players
    )
    stud = state.config.is_stud
    first = "3rd street dealt, antes posted" if stud else "Cards dealt, blinds posted"
    opening = seen(state.view(seat))
    steps = [ReplayStep(0, first, replace(opening, board=opening.board[:0]))]
    dealt = _streets_dealt(steps, opening, 0)  # a bomb pot's flop, before any decision
    for k, action in enumerate(actions, start=1):
        legal = state.legal
        to_call = legal.call if legal is not None else None  # what the "Call" button said
        pot_before = sum(state.committed)
        state.act(action)
        view = seen(final_view if k == len(actions) else state.view(seat))
        decision = said[k - 1] if k - 1 < len(said) else None
        if action.kind in RUN_CHOICES:  # the players' agreement, not a seat's decision
            label, acted = RUN_CHOICES[action.kind], None
        else:
            label = describe(decision, to_call) if decision else str(action)
            acted = decision["seat"] if decision else None
        called = (to_call or 0) if decision and decision["kind"] == "call" else 0
        pot = pot_before if called else 0
        if stud:
            # The decision with the cards as they were; then the street dealt, its own step.
            before = steps[-1].view
            steps.append(
                ReplayStep(
                    len(steps),
                    label,
                    _cards_as_in(view, before),
                    acted,
                    called=called,
                    pot_before=pot,
                )
            )
            if _cards_dealt(view) > _cards_dealt(before):
                street = STUD_STREET_NAMES.get(view.street, "The last cards")
                steps.append(ReplayStep(len(steps), f"{street} dealt", view))
            continue
        steps.append(
            ReplayStep(
                len(steps),
                label,
                replace(view, board=view.board[:dealt], second_board=(), third_board=()),
                acted,
                called=called,
                pot_before=pot,
            )
        )
        dealt = _streets_dealt(steps, view, dealt)
    if final_view.result is not None:
        awarded = seen(final_view)  # its label too: no description of a hidden hand
        steps.append(ReplayStep(len(steps), result_label(awarded), awarded, awarded=True))
        for event in final_view.events:  # cards shown by choice once the hand was over
            if event.kind is EventKind.REVEAL and event.seat is not None:
                cards = " ".join(str(card) for card in event.cards)
                label = f"{final.players[event.seat]} shows {cards}"
                steps.append(ReplayStep(len(steps), label, awarded, event.seat, awarded=True))
    return steps


#: The step of the players' choice to run the rest of the board once, twice or three times.
RUN_CHOICES = {kind: f"The board is run {RUNS_WORDS[runs]}" for runs, kind in RUN_ACTIONS.items()}
#: A street dealt on every run of the board, by the number of runs.
_ALL_RUNS = {2: "both runs", 3: "all three runs"}


def _streets_dealt(steps: list[ReplayStep], view: View, dealt: int) -> int:
    """A step for each street of ``view``'s board past the ``dealt`` cards shown so far,
    appended to ``steps``, its cards beside its name (a board run more than once: every
    run's, the boards growing together); how many board cards are shown now."""
    shared = _shared_board(view)  # the cards common to every run of the board
    for end, street in STREET_ENDS:
        if dealt < end <= len(view.board):
            second, third = (
                b[:end] if len(b) >= end else () for b in (view.second_board, view.third_board)
            )
            later = tuple(b for b in (second, third) if b) if end > shared else ()
            steps.append(
                ReplayStep(
                    len(steps),
                    f"{street}, {_every_board(view, 1 + len(later))}" if later else street,
                    replace(view, board=view.board[:end], second_board=second, third_board=third),
                    cards=view.board[dealt:end],
                    later_cards=tuple(b[dealt:end] for b in later),
                )
            )
            dealt = end
    return dealt


def _every_board(view: View, boards: int) -> str:
    """A street dealt on every board: "both runs", "all three runs", "both boards"."""
    return "both boards" if view.config.double_board else _ALL_RUNS[boards]


def _shared_board(view: View) -> int:
    """How many board cards every run of the board shares (all of them: run once)."""
    if not view.second_board:
        return len(view.board)
    return next(
        (k for k, (a, b) in enumerate(zip(view.board, view.second_board, strict=False)) if a != b),
        len(view.board),
    )


def _only_known(view: View, known: Collection[int]) -> View:
    """``view`` with every card outside ``known`` hidden, and no hand description made
    from a hidden card (a stand-in's "pair of kings" says nothing true)."""
    seats = tuple(
        replace(s, cards=tuple(c if c is None or c in known else None for c in s.cards))
        for s in view.seats
    )
    result = view.result
    if result is not None:
        shown = {
            seat: (cards, description)
            for seat, (cards, description) in result.shown.items()
            if all(c in known for c in cards)
        }
        awards = tuple(
            a if all(w in shown for w in a.winners) else replace(a, description="")
            for a in result.awards
        )
        result = replace(result, shown=shown, awards=awards)
    board = tuple(c for c in view.board if c in known)
    return replace(view, seats=seats, result=result, board=board)


def _cards_dealt(view: View) -> int:
    return sum(len(s.cards) for s in view.seats) + len(view.board)


def _cards_as_in(view: View, before: View) -> View:
    """``view`` with each seat's cards (and the common card) as far as ``before`` had them."""
    counts = {s.seat: len(s.cards) for s in before.seats}
    seats = tuple(
        replace(s, cards=s.cards[: counts[s.seat]], up=s.up[: counts[s.seat]]) for s in view.seats
    )
    return replace(view, seats=seats, board=view.board[: len(before.board)])


def describe(decision: dict[str, Any], to_call: int | None = None) -> str:
    """ "bob calls 4", "alice raises to 12" (chips with thousands separators). A call says
    the chips it put in (``to_call``: what the live "Call" button said), not its street
    total (the decision's amount)."""
    name, kind, amount = decision["name"], decision["kind"], decision["amount"]
    if kind == "call" and to_call is not None:
        amount = to_call
    if kind in ("fold", "check"):
        return f"{name} {kind}s"
    if kind == "bring_in":
        return f"{name} brings in for {chips(amount)}"
    if kind == "call":
        return f"{name} calls {chips(amount)}"
    if kind == "bet":
        return f"{name} bets {chips(amount)}"
    if kind == "discard":  # how many, never which: the replay is everyone's
        return f"{name} draws {amount}" if amount else f"{name} stands pat"
    return f"{name} raises to {chips(amount)}"


def result_label(view: View) -> str:
    """Who won each pot: "alice wins 12 (two pair, kings and fives)"."""
    if view.result is None:
        return ""
    parts = []
    for award in view.result.awards:
        who = " and ".join(view.seats[w].name for w in award.winners)
        verb = "wins" if len(award.winners) == 1 else "split"
        text = f"{who} {verb} {chips(award.amount)}"
        description = without_board_codes(award.description)
        parts.append(text + (f" ({description})" if description else ""))
    return "; ".join(parts)
