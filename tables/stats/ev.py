"""All-in adjusted winnings: a player's net beside their all-in EV, per game and over hands.

Each ``PlayerHand`` stores its EV once (``ev_net``: the expected net at the all-in, computed
with the run-out's odds by ``engine.allin_ev``; the net of a hand without an all-in), so
these reads only add stored figures: one aggregate query for the table of games, one list of
values for the curves. A row whose all-in EV is still being computed counts its net until it
is. Cash hands only, as every chip figure (``tables.stats.selectors.CASH_HANDS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, FloatField, Q, Sum
from django.db.models.functions import Cast, Coalesce

from engine.variants import VARIANTS
from tables.models import Hand, Player, PlayerHand
from tables.stats.selectors import CASH_HANDS, SHOWN_OVER, HandFilter

#: No filter: every cash hand.
EVERY_HAND = HandFilter()
#: The stored EV, or the net while it is still being computed.
_EV = Coalesce(F("ev_net"), Cast("net", FloatField()))
_EV_BB = Coalesce(F("ev_net_bb"), F("net_bb"))


@dataclass(frozen=True, slots=True)
class EVFigures:
    """Net and all-in EV over some hands: chips, big blinds and per 100 hands."""

    game: str | None  # None: every game
    label: str
    hands: int
    all_in_hands: int
    net: int
    ev: float
    net_bb: float
    ev_bb: float

    @property
    def luck(self) -> float:
        """How far the net ran above (+) or below (−) the all-in EV."""
        return self.net - self.ev

    @property
    def luck_text(self) -> str:
        """The luck in whole chips with its sign: "+340", "-120", "0"."""
        chips = round(self.luck)
        return f"{chips:+,}" if chips else "0"

    @property
    def net_bb_per_100(self) -> float | None:
        return round(100 * self.net_bb / self.hands, 2) if self.hands else None

    @property
    def ev_bb_per_100(self) -> float | None:
        return round(100 * self.ev_bb / self.hands, 2) if self.hands else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "hands": self.hands,
            "all_in_hands": self.all_in_hands,
            "net": self.net,
            "ev": round(self.ev, 2),
            "luck": round(self.luck, 2),
            "net_bb": round(self.net_bb, 2),
            "ev_bb": round(self.ev_bb, 2),
            "net_bb_per_100": self.net_bb_per_100,
            "ev_bb_per_100": self.ev_bb_per_100,
        }


def _cash_rows(player: Player, filters: HandFilter) -> Any:
    return filters.apply(PlayerHand.objects.filter(CASH_HANDS, SHOWN_OVER, player=player))


def player_ev_by_game(player: Player, filters: HandFilter = EVERY_HAND) -> list[EVFigures]:
    """The player's net and all-in EV per game played, then over every game (last), of cash
    hands matching ``filters`` (one query). Empty with no cash hand."""
    rows = (
        _cash_rows(player, filters)
        .order_by()
        .values("game")
        .annotate(
            # named apart from the fields they add up (an annotation hides its field)
            hands_sum=Count("id"),
            all_in_sum=Count("id", filter=Q(all_in=True)),
            net_sum=Sum("net"),
            ev_sum=Sum(_EV),
            net_bb_sum=Sum("net_bb"),
            ev_bb_sum=Sum(_EV_BB),
        )
        .order_by("game")
    )
    games = [
        EVFigures(
            row["game"],
            VARIANTS[row["game"]].label if row["game"] in VARIANTS else row["game"],
            row["hands_sum"],
            row["all_in_sum"],
            row["net_sum"] or 0,
            row["ev_sum"] or 0.0,
            row["net_bb_sum"] or 0.0,
            row["ev_bb_sum"] or 0.0,
        )
        for row in rows
    ]
    if not games:
        return []
    overall = EVFigures(
        None,
        "All games",
        sum(g.hands for g in games),
        sum(g.all_in_hands for g in games),
        sum(g.net for g in games),
        sum(g.ev for g in games),
        sum(g.net_bb for g in games),
        sum(g.ev_bb for g in games),
    )
    return [*games, overall]


@dataclass(frozen=True, slots=True)
class Curves:
    """Cumulative net and all-in EV after each of a player's cash hands, oldest first, and
    which hand each point is (its id)."""

    net: list[int]
    ev: list[float]
    hand_ids: list[int]


def net_and_ev_curves(player: Player, filters: HandFilter = EVERY_HAND) -> Curves:
    """The player's ``Curves`` over the cash hands matching ``filters`` (one query, of the
    stored figures only)."""
    rows = (
        _cash_rows(player, filters)
        .order_by("started_at", "hand_id")
        .values_list("hand_id", "net", "ev_net")
    )
    curves = Curves([], [], [])
    net, ev = 0, 0.0
    for hand_id, hand_net, hand_ev in rows:
        net += hand_net
        ev += hand_net if hand_ev is None else hand_ev
        curves.net.append(net)
        curves.ev.append(ev)
        curves.hand_ids.append(hand_id)
    return curves


def hand_labels(hand_ids: list[int]) -> dict[int, str]:
    """ "Hand #12 at Friday game" for each of these hands (one query)."""
    rows = Hand.objects.filter(pk__in=hand_ids).values_list("pk", "number", "table__name")
    return {pk: f"Hand #{number} at {table}" for pk, number, table in rows}
