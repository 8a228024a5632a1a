"""The action bar of the player to act: fold, check or call, bet or raise (the words stud's
bring-in and completion use) with the quick sizes, or a draw's discard bar; and the choices
a player not to act may tick in advance."""

from __future__ import annotations

from engine.hand import Hand as EngineHand
from engine.types import Legal
from engine.view import View
from tables.pre_actions import PreAction, meaning, offers
from tables.presenters.games import draw_bar
from tables.presenters.models import ActionBar, PreActionChoice, QuickSize


def action_bar(view: View, legal: Legal) -> ActionBar:
    if legal.discard:
        return draw_bar(view)
    can_raise = legal.min_raise_to is not None
    word = "Bet" if view.current_bet == 0 else "Raise"
    call_word = "Call"
    config = view.config
    if config.is_stud and view.street == "third":
        # The one spot where a player may neither fold nor check is the bring-in: posting
        # it is a call, completing to the small bet a raise. After it, raising the bring-in
        # to the small bet is still completing.
        if not legal.fold and not legal.check:
            call_word = "Bring in"
        if view.current_bet < config.fixed_small_bet:
            word = "Complete"
    return ActionBar(
        fold=legal.fold,
        check=legal.check,
        call=legal.call,
        can_raise=can_raise,
        min_raise_to=legal.min_raise_to,
        max_raise_to=legal.max_raise_to,
        word=word,
        sizes=quick_sizes(view, legal) if can_raise else (),
        call_word=call_word,
    )


def quick_sizes(view: View, legal: Legal) -> tuple[QuickSize, ...]:
    """Min, half pot, pot and all-in as raise-to amounts within the legal range."""
    lo, hi = legal.min_raise_to, legal.max_raise_to
    assert lo is not None and hi is not None  # asked only when a raise is legal
    assert view.viewer is not None  # the legal actions are the viewer's
    me = view.seats[view.viewer]
    pot_after_call = view.total_pot + legal.call
    base = view.current_bet
    sizes = [
        ("Min", lo),
        ("½ pot", base + pot_after_call // 2),
        ("Pot", base + pot_after_call),
        ("All-in", me.bet + me.stack),
    ]
    out, seen = [], set()
    for label, amount in sizes:
        amount = max(lo, min(hi, amount))
        if amount not in seen:
            seen.add(amount)
            out.append(QuickSize(label, amount))
    return tuple(out)


def pre_action_choices(
    state: EngineHand | None, index: int, ticked: PreAction | None, hand_id: int
) -> tuple[PreActionChoice, ...]:
    """The choices the viewer (hand seat ``index``, not to act) may tick now, the one they
    ticked marked while it still means what it meant (a void one is about to be cleared)."""
    if state is None:
        return ()
    valid = ticked is not None and meaning(ticked, state, index, hand_id) is not None
    return tuple(
        PreActionChoice(
            offer.kind,
            offer.amount,
            offer.label,
            valid and ticked is not None and ticked.kind == offer.kind,
        )
        for offer in offers(state, index)
    )
