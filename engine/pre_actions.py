"""Acting in advance (issue 50): what a player in the hand who is not to act may tick now,
and what a ticked choice means when their turn comes.

Pure rules over the engine hand, shared by the writer that stores and takes the choices
(``tables.services.pre_actions``, ``tables.services.hands.hand_act``) and the presenters that
offer them. A choice belongs to one street of one hand and keeps the meaning it had when it
was ticked: "call 40" is void once the amount to call is not 40, "check" once there is a bet
to call, "fold" when checking is free; "check/fold" folds to a bet and checks otherwise;
"call any" calls whatever there is and checks when there is nothing.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.hand import Hand as EngineHand

CHECK_FOLD, CHECK, CALL, CALL_ANY, FOLD = "check_fold", "check", "call", "call_any", "fold"
#: Every kind, in the order a screen lists them.
KINDS = (CHECK_FOLD, CHECK, CALL, CALL_ANY, FOLD)
#: What a screen calls each kind ("call" adds its amount).
LABELS = {
    CHECK_FOLD: "Check/fold",
    CHECK: "Check",
    CALL: "Call",
    CALL_ANY: "Call any",
    FOLD: "Fold",
}


class PreAction(NamedTuple):
    """A ticked choice as a seat stores it: its kind, the chips to call it was ticked for
    ("call" only, else 0), and the hand (its id) and street it belongs to."""

    kind: str
    amount: int
    hand_id: int
    street: str


class Offer(NamedTuple):
    """One choice a player may tick now (``amount``: the chips "call" adds, else 0)."""

    kind: str
    amount: int

    @property
    def label(self) -> str:
        return f"Call {self.amount}" if self.kind == CALL else LABELS[self.kind]


def owed(state: EngineHand, index: int) -> int | None:
    """The chips seat ``index`` must add to stay in the betting of this street (0: checking is
    free), or None where no choice of these means anything for it now: the hand is over or
    past its betting, a draw or the run-it-twice choice is due, or the seat folded or is all in."""
    if (
        state.is_over
        or state.no_more_betting
        or state.runs_due
        or state.draw_due
        or state.actor is None
        or state.folded[index]
        or state.all_in_seats[index]
    ):
        return None
    return max(0, min(state.current_bet - state.bets[index], state.stacks[index]))


def offers(state: EngineHand, index: int | None) -> list[Offer]:
    """The choices seat ``index`` may tick now: none while it is to act (it acts instead) or
    out of the betting; with nothing to call "check/fold", "check" and "call any", facing a
    bet "fold", "call <amount>" and "call any"."""
    if index is None or index == state.actor:
        return []
    due = owed(state, index)
    if due is None:
        return []
    if due == 0:
        return [Offer(CHECK_FOLD, 0), Offer(CHECK, 0), Offer(CALL_ANY, 0)]
    return [Offer(FOLD, 0), Offer(CALL, due), Offer(CALL_ANY, 0)]


def meaning(pre: PreAction, state: EngineHand, index: int, hand_id: int) -> str | None:
    """What ``pre`` does for seat ``index`` now (an engine action kind: "check", "call" or
    "fold"), or None where it is void: another hand or street, or its meaning changed."""
    if pre.hand_id != hand_id or pre.street != state.street:
        return None
    due = owed(state, index)
    if due is None:
        return None
    if pre.kind == CHECK_FOLD:
        return "check" if due == 0 else "fold"
    if pre.kind == CHECK:
        return "check" if due == 0 else None
    if pre.kind == CALL:
        return "call" if due == pre.amount and due > 0 else None
    if pre.kind == CALL_ANY:
        return "call" if due > 0 else "check"
    if pre.kind == FOLD:
        return "fold" if due > 0 else None
    return None
