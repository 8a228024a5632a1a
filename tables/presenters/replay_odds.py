"""The replayer's odds in words: each step's equity lines and a call's pot odds.

Pure: ``tables.selectors.replay_odds`` computes them from what the viewer saw; here they
become the short texts ``hands/replay_odds.html`` draws beside the felt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.replay_odds import RANDOM_SAMPLES, PotOdds
from tables.text import chips

if TYPE_CHECKING:
    from tables.selectors.replay_odds import HandsOdds, StepOdds


@dataclass(frozen=True)
class OddsLine:
    """One hand's chance: its player's name, the pot share expected, win alone, tie."""

    name: str
    equity: str
    win: str
    tie: str


@dataclass(frozen=True)
class OddsPanel:
    """What one step shows: a title saying against what, how it was counted, a line per
    hand, and a call's pot odds (empty when not a call)."""

    title: str
    how: str
    lines: tuple[OddsLine, ...]
    pot_odds: str

    @property
    def empty(self) -> bool:
        return not self.lines and not self.pot_odds


def odds_panel(odds: StepOdds) -> OddsPanel:
    """``odds`` as the replayer words it."""
    title = how = ""
    lines: tuple[OddsLine, ...] = ()
    if odds.hands is not None:
        title, how = _title(odds.hands), _how(odds.hands)
        lines = tuple(
            OddsLine(hand.name, _percent(hand.share), _percent(hand.win), _percent(hand.tie))
            for hand in odds.hands.hands
        )
    return OddsPanel(title, how, lines, _pot_odds(odds.pot_odds))


def _title(hands: HandsOdds) -> str:
    if hands.against_random:
        count = hands.opponents
        return f"Equity vs {count} random hand{'s' if count > 1 else ''}"
    return "Equity of the hands shown"


def _how(hands: HandsOdds) -> str:
    if hands.exact:
        return "exact: every deal still to come counted"
    if hands.against_random:
        return f"a seeded sample of {RANDOM_SAMPLES:,} deals (about ±0.4%)"
    return "a seeded sample of the deals to come (the same on every load)"


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _pot_odds(odds: PotOdds | None) -> str:
    """ "Pot odds: 40 to call into 120: 25.0% (3.0 to 1)"."""
    if odds is None:
        return ""
    return (
        f"Pot odds: {chips(odds.to_call)} to call into {chips(odds.pot)}: "
        f"needs {odds.percent:.1f}% equity ({odds.ratio:.1f} to 1)"
    )
