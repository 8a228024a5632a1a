"""The replayer's steps as the live table draws them: seats, plates, cards, bets and pots.

Pure: each ``ReplayStep`` (``tables.selectors.replay``, the engine's view for the viewer at
that step) becomes the same view models as a live screen, rendered by the same partials.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from django.utils.html import escape
from django.utils.safestring import SafeString

from engine.cards import Card
from engine.view import View
from tables.presenters.models import (
    NO_NOTES,
    BoardRegion,
    NoteMarks,
    Plate,
    PotLine,
    SeatPanel,
    SeatsRegion,
    faces,
    shown_faces,
)
from tables.presenters.pots import HALF_LABELS, awarded_pot_lines, pot_label
from tables.presenters.render import card_html, render_felt

if TYPE_CHECKING:
    from tables.selectors.replay import ReplayStep


def replay_felt(
    step: ReplayStep,
    *,
    hand_id: int,
    hand_number: int,
    table_seats: list[int],
    max_seats: int,
    notes: NoteMarks = NO_NOTES,
    player_ids: Sequence[int | None] = (),
) -> str:
    """One step's felt as HTML. ``table_seats``: the table seat of each engine seat;
    ``notes``: the viewer's own notes on players (``player_ids``: each engine seat's player)."""
    seats, board = replay_regions(
        step, hand_id=hand_id, hand_number=hand_number, table_seats=table_seats, max_seats=max_seats
    )
    if notes:
        panels = tuple(
            replace(panel, note=notes.get(player_id))
            for panel, player_id in zip(seats.seats, player_ids, strict=True)
        )
        seats = replace(seats, seats=panels)
    return render_felt(seats, board)


def replay_regions(
    step: ReplayStep, *, hand_id: int, hand_number: int, table_seats: list[int], max_seats: int
) -> tuple[SeatsRegion, BoardRegion]:
    view = step.view
    won: dict[int, int] = {}
    if step.awarded and view.result is not None:
        for award in view.result.awards:
            for w, amount in zip(award.winners, award.amounts, strict=True):
                won[w] = won.get(w, 0) + amount
        pots = awarded_pot_lines(view)
    elif view.result is not None:
        # The hand's last decision and its run-out: the chips are in the pots, not yet paid.
        awards = view.result.awards
        view = _before_awards(view)
        count = len({a.pot for a in awards})
        pots = tuple(
            PotLine(pot_label(a.pot, count) + HALF_LABELS.get(a.half, ""), a.amount) for a in awards
        )
    else:
        pots = tuple(
            PotLine(pot_label(i, len(view.pots)), pot.amount) for i, pot in enumerate(view.pots)
        )
    shown = view.result.shown if step.awarded and view.result is not None else {}
    panels = tuple(
        SeatPanel(
            table_seats[s.seat],
            Plate(
                name=s.name,
                is_bot=False,
                stack=s.stack,
                sitting_out=False,
                leaving=False,
                all_in=s.all_in,
                folded=s.folded,
                description=shown[s.seat][1] if s.seat in shown else "",
                won=won.get(s.seat, 0),
                is_button=s.is_button and not view.config.is_stud,  # stud deals no button
                is_small_blind=s.is_small_blind,
                is_big_blind=s.is_big_blind,
                bet=s.bet,
            ),
            cards=faces(s.cards),
            up=s.up if view.config.is_stud else (),
            is_actor=s.seat == step.acted,
            is_me=s.seat == view.viewer,
        )
        for s in view.seats
    )
    bottom = table_seats[view.viewer] if view.viewer is not None else 0
    seats = SeatsRegion(hand_id, view.street, step.index, max_seats, bottom, panels)
    board = BoardRegion(
        hand_id,
        view.street,
        shown_faces(view.board),
        pots,
        not step.awarded,
        view.total_pot if not step.awarded else 0,
        hand_number,
        runs=len(view.boards) or 1,
        later_cards=tuple(shown_faces(board) for board in view.boards[1:]),
        double_board=view.config.double_board,
    )
    return seats, board


def replay_label_html(step: ReplayStep) -> SafeString:
    """A step's label with the cards it deals drawn as cards (every run's on a board run more
    than once), as the log draws them."""
    html = str(escape(step.label))
    if step.cards:
        html += f' <span class="label-cards">{_cards(step.cards)}</span>'
    kind = "board" if step.view.config.double_board else "run"
    for name, cards in zip(("second", "third"), step.later_cards, strict=False):
        html += f' · {name} {kind} <span class="label-cards">{_cards(cards)}</span>'
    return SafeString(html)


def _cards(cards: tuple[Card, ...]) -> str:
    return "".join(card_html(face) for face in shown_faces(cards))


def _before_awards(view: View) -> View:
    """The final view with the winnings taken back off the stacks and the bets in the pots."""
    assert view.result is not None  # called with a finished hand's view only
    won: dict[int, int] = {}
    for award in view.result.awards:
        for w, amount in zip(award.winners, award.amounts, strict=True):
            won[w] = won.get(w, 0) + amount
    seats = tuple(replace(s, stack=s.stack - won.get(s.seat, 0), bet=0) for s in view.seats)
    return replace(view, seats=seats, total_pot=sum(a.amount for a in view.result.awards))
