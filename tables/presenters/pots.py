"""A hand's pots as lines on the felt and in the replayer: "Main pot", "Side pot 1", a hi-lo
pot's halves, and who won each with what."""

from __future__ import annotations

from engine.view import View
from tables.presenters.models import PotLine
from tables.text import without_board_codes

#: A hi-lo pot's parts, after its label ("Pot · high", "Main pot · low").
HALF_LABELS = {"high": " · high", "low": " · low", "whole": " · high, no low"}


def awarded_pot_lines(view: View) -> tuple[PotLine, ...]:
    """The finished hand's awards as pot lines: who won each pot with what; a hi-lo pot's
    halves labelled ("Pot · high", "Pot · low", "Pot · high, no low")."""
    assert view.result is not None  # a finished hand's view
    awards = view.result.awards
    count = len({award.pot for award in awards})
    return tuple(
        PotLine(
            pot_label(award.pot, count) + HALF_LABELS.get(award.half, ""),
            award.amount,
            tuple(view.seats[w].name for w in award.winners),
            without_board_codes(award.description),
            award.half,
        )
        for award in awards
    )


def pot_label(number: int, count: int) -> str:
    """ "Pot" when there is one; else "Main pot", "Side pot 1", ..."""
    if count == 1:
        return "Pot"
    return "Main pot" if number == 0 else f"Side pot {number}"
