"""Five-card draw: five hole cards, one draw, the best high hand wins; no limit or pot limit,
blinds (and antes if the table sets them), no opening requirement (jacks or better is not
needed to open). pokerkit has no preset for it: this is the game its generic ``State`` deals
with five hole cards, one draw street and the standard high evaluator, which is how the
tests build it. The PHH specification has no code for it, so it is not written as PHH."""

from __future__ import annotations

from collections.abc import Sequence

from engine.evaluate import HandClass, evaluate
from engine.variants.base import Variant
from engine.variants.deuce_seven import DRAW_FORCED_BETS
from engine.variants.holdem import holdem_strength


def keep_made_cards(hole: Sequence[int]) -> frozenset[int]:
    """Stand pat on a straight or better; otherwise keep the pairs and trips, or the highest
    card when there are none."""
    if evaluate(hole).hand_class >= HandClass.STRAIGHT:
        return frozenset(hole)
    ranks = [card >> 2 for card in hole]
    made = frozenset(card for card in hole if ranks.count(card >> 2) > 1)
    return made or frozenset({max(hole)})


FIVE_CARD_DRAW = Variant(
    name="five-card-draw",
    label="Five-Card Draw",
    short="5CD",
    structure="draw",
    hole_cards=5,
    max_seats=6,
    bettings=("no-limit", "pot-limit"),
    forced_bets=DRAW_FORCED_BETS,
    strength=holdem_strength,
    draws=1,
    keeps=keep_made_cards,
)
