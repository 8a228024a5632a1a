"""The parts of the table screen that depend on the game (``tables.presenters.screen`` asks
them): the action bar of the player to act in the game's words (fold, check or call, bet or
raise, stud's bring-in and completion, with the quick sizes; a draw game's discard bar) and
the choices a player not to act may tick in advance; each seat's draw count (counts only,
never the cards), the streets' names, a mixed table's line (the game dealt, the next, who
picks), and the boards on the felt (one per run of a run-out, two on a double board; whether
a rabbit may be hunted)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from engine.cards import Card
from engine.hand import Hand as EngineHand
from engine.pre_actions import Offer, PreAction, meaning, offers
from engine.streets import street_names
from engine.types import EventKind, Legal
from engine.view import View
from tables.presenters.models import ActionBar, CardFace, PreActionChoice, QuickSize, shown_faces

if TYPE_CHECKING:
    from tables.selectors.snapshot import Snapshot, TableFacts


class HandRow(Protocol):
    """What ``rabbit_open`` reads of a hand on screen (a ``Hand``: presenters import no model)."""

    @property
    def rabbit(self) -> Any: ...


#: A draw game's draw being made, by the betting round that follows it.
DRAWING_NAMES = {"draw1": "The first draw", "draw2": "The second draw", "draw3": "The third draw"}


def street_name(view: View | None) -> str:
    """Stud's streets and a draw game's rounds in words (a board game's board says it);
    while a draw is being made, that draw ("The first draw"), not the betting after it."""
    if view is None or view.config.variant.structure == "board":
        return ""
    if _drawing(view):
        return "The draw" if len(view.config.streets) == 2 else DRAWING_NAMES[view.street]
    return street_names(view.config).get(view.street, "")


def _drawing(view: View) -> bool:
    """Whether a draw game's draw is being made: on the betting round after the k-th draw,
    a seat still in the hand has thrown away fewer than k times (each draws once a round;
    the engine's street moves on when the draw begins)."""
    streets = view.config.streets
    if not view.config.variant.is_draw or view.street not in streets[1:]:
        return False
    draws = streets.index(view.street)
    thrown = [0] * len(view.seats)
    for event in view.events:
        if event.kind is EventKind.DISCARD and event.seat is not None:
            thrown[event.seat] += 1
    return any(not seat.folded and thrown[seat.seat] < draws for seat in view.seats)


def mixed_game_line(table: Any, facts: TableFacts, snapshot: Snapshot) -> str:
    """A mixed table's line over the board: the game being dealt and the next one ("HORSE:
    Fixed-limit Razz · next: Fixed-limit 7 Card Stud in 2 hands"), or who picks the game
    (``facts``: the table's settings in words, ``snapshot.facts``)."""
    if facts.mixed_label is None:
        return ""
    if table.choice_deadline is not None and table.choice_seat is not None:
        seat = snapshot.seats.get(table.choice_seat)
        who = seat.player.name if seat is not None else "The button"
        return f"{facts.mixed_label}: {who} is picking the game"
    dealt = facts.variant
    coming = facts.next_game
    if coming is None:
        return dealt
    words, left = coming
    when = "next hand" if left == 0 else f"in {left} hand{'s' if left != 1 else ''}"
    return f"{dealt} · next: {words} {when}"


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
    return _choices(tuple(offers(state, index)), ticked.kind if valid and ticked else None)


@lru_cache(maxsize=256)
def _choices(offered: tuple[Offer, ...], ticked: str | None) -> tuple[PreActionChoice, ...]:
    """``offered`` as choices, the ``ticked`` kind's marked: the very same tuple while they
    are the same (most of a street), so what is made of them is made once."""
    return tuple(
        PreActionChoice(offer.kind, offer.amount, offer.label, ticked == offer.kind)
        for offer in offered
    )


def draw_bar(view: View) -> ActionBar:
    """A draw game's draw: the viewer's cards to throw away (none: stand pat), their hand
    in words (the game's own evaluator: a 2-7 low, a badugi)."""
    assert view.viewer is not None  # the legal actions are the viewer's
    cards = tuple(c for c in view.seats[view.viewer].cards if c is not None)
    words = str(view.config.variant.strength(cards, ())) if cards else ""
    return ActionBar(
        fold=False,
        check=False,
        call=0,
        can_raise=False,
        min_raise_to=None,
        max_raise_to=None,
        word="Discard",
        sizes=(),
        draw=shown_faces(cards),
        hand_words=words,
    )


def draw_counts(view: View) -> dict[int, str]:
    """Each seat's last draw in words ("draws 2", "stands pat"), from the public events: how
    many cards, never which."""
    said: dict[int, str] = {}
    for event in view.events:
        if event.kind is EventKind.DISCARD and event.seat is not None:
            said[event.seat] = f"draws {event.amount}" if event.amount else "stands pat"
    return said


def dealt_cards(view: View, seat: int) -> tuple[Card | None, ...]:
    """The cards ``seat`` was dealt, as its own ``view`` shows them: its hole cards now, or in
    a draw game the hand first dealt (the log's "Your cards" at the deal; the draws change
    the hand after it)."""
    if view.config.variant.is_draw:
        for event in view.events:
            if event.kind is EventKind.DEAL_HOLE and event.seat == seat and event.cards:
                return tuple(event.cards)
    return view.seats[seat].cards


def runs_on_screen(view: View | None, runout: dict[str, Any] | None) -> int:
    """The boards on the felt: one per run of a run-out, two all along on a double board."""
    if runout:
        return len(runout["runs"])
    return 2 if view is not None and view.config.double_board else 1


def later_runs(view: View | None, runs: int) -> tuple[tuple[CardFace, ...], ...]:
    """Each later run's board as far as it is on screen (none dealt yet before the first
    street of the run-out shows)."""
    if view is None:
        return ()
    return tuple(shown_faces(board) for board in (view.second_board, view.third_board)[: runs - 1])


def rabbit_open(hand: HandRow | None, over: bool, view: View | None) -> bool:
    """A rabbit hunt may be asked: the hand is ``over`` (and shown: no run-out still being
    dealt) before the river, not yet hunted (``tables.services.runouts.rabbit_hunt``
    decides)."""
    if hand is None or view is None or not over or hand.rabbit:
        return False
    return view.config.variant.structure == "board" and len(view.board) < 5


def bounty_heads(snapshot: Snapshot) -> dict[str, int]:
    """A knockout tournament table's bounty on each head, by the player's name (the
    tournament's banner, public: the tournament's page lists them); none elsewhere."""
    banner = snapshot.banner
    if not banner:
        return {}
    return {head["player"]: head["bounty"] for head in banner.get("bounties", ())}


def runs_legal_data(most: int) -> dict[str, Any]:
    """The run-it-twice question as the asked player's legal actions (three times only
    where the deck has the cards for it: ``most``)."""
    return {
        "actions": ["run_thrice", "run_twice", "run_once"][3 - most :],
        "call": 0,
        "min_raise_to": None,
        "max_raise_to": None,
        "raise_word": "",
        "call_word": "call",  # nothing to call: the schema's default word
        "sizes": [],
    }


def legal_data(bar: ActionBar, view: View | None) -> dict[str, Any]:
    """The actor's legal actions, as their buttons offer them."""
    me = view.me if view is not None else None
    everything = me.bet + me.stack if me is not None else 0
    # all-in is a call when the stack covers no more, else a bet or raise to everything
    all_in = (
        everything > 0
        and view is not None
        and (
            everything <= view.current_bet
            or (bar.max_raise_to is not None and everything <= bar.max_raise_to)
        )
    )
    actions = [
        kind
        for kind, allowed in (
            ("fold", bar.fold),
            ("check", bar.check),
            ("call", bar.call > 0),
            ("raise", bar.can_raise),
            ("all_in", all_in and not bar.draw),
            ("discard", bool(bar.draw)),
        )
        if allowed
    ]
    extra = {"hand_words": bar.hand_words} if bar.draw else {}
    return {
        **extra,
        "actions": actions,
        "call": bar.call,
        "min_raise_to": bar.min_raise_to,
        "max_raise_to": bar.max_raise_to,
        "raise_word": bar.word.lower(),
        "call_word": bar.call_word.lower(),
        "sizes": [{"label": size.label, "amount": size.amount} for size in bar.sizes],
    }


def showable_cards(snapshot: Snapshot, view: View, index: int) -> tuple[CardFace, ...]:
    """The viewer's cards of the hand on screen, over, that the others do not see (what they
    may show: ``tables.services.showing``); none while its run-out is being dealt."""
    if snapshot.hand_facts.runout_showing:
        return ()
    public = snapshot.view(None).seats[index].cards
    # ``is not None``: the 2 of clubs is the card 0 (``engine.cards.Card``), a false value
    return tuple(
        CardFace(str(card))
        for card in view.seats[index].cards
        if card is not None and card not in public
    )
