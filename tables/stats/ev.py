"""All-in adjusted winnings: a player's net beside their all-in EV, per game and over hands.

Each ``PlayerHand`` stores its EV once (``ev_net``: the expected net at the all-in, computed
with the run-out's odds by ``engine.allin_ev``; the net of a hand without an all-in), so
these reads only add stored figures: one aggregate query for the table of games, one list of
values for the curves. A row whose all-in EV is still being computed counts its net until it
is. Cash hands only, as every chip figure (``tables.stats.selectors.CASH_HANDS``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, FloatField, Q, Sum
from django.db.models.functions import Cast, Coalesce

from engine.variants import VARIANTS
from tables.models import Hand, Player, PlayerHand
from tables.selectors.ledger import Ledger
from tables.stats.selectors import CASH_HANDS, SHOWN_OVER, HandFilter

#: No filter: every cash hand.
EVERY_HAND = HandFilter()
#: The stored EV, or the net while it is still being computed.
_EV = Coalesce(F("ev_net"), Cast("net", FloatField()))
_EV_BB = Coalesce(F("ev_net_bb"), F("net_bb"))


class RanAgainstEV:
    """How far a ``net`` ran above (+) or below (−) its all-in ``ev``: the figures, the
    ledger's night rows and the night's swings say it the same way."""

    __slots__ = ()
    net: int
    ev: float

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
    def words(self) -> str:
        return luck_words(self.luck)


@dataclass(frozen=True, slots=True)
class EVFigures(RanAgainstEV):
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


# --- the night at one table -----------------------------------------------------------------
def luck_words(luck: float) -> str:
    """ "ran +340 above EV", "ran 120 below EV" or "ran at EV" (whole chips)."""
    chips = round(luck)
    if chips > 0:
        return f"ran +{chips:,} above EV"
    if chips < 0:
        return f"ran {-chips:,} below EV"
    return "ran at EV"


@dataclass(frozen=True, slots=True)
class Swing(RanAgainstEV):
    """One player's all-in hand where the cards were furthest from the EV."""

    hand_id: int
    number: int
    name: str
    net: int
    ev: float


@dataclass(frozen=True, slots=True)
class NightRow(RanAgainstEV):
    """A ledger row's player: their net for the night, their all-in EV (the net with each
    all-in hand's EV in place of its result) and the difference."""

    player_id: int
    name: str
    net: int
    ev: float


#: The biggest all-in swings listed for a night.
SWINGS = 5


def night_ev(
    table_id: int, players: Sequence[tuple[int, str, int]]
) -> tuple[list[NightRow], list[Swing]]:
    """The night at table ``table_id`` beside the all-in EV: for each of ``players`` (player
    id, name, the ledger's net; in its order) a ``NightRow``, and the ``SWINGS`` all-in
    hands that ran furthest from EV (the player who ran above it in each; one per hand).
    Two queries. The EVs sum to the nets' sum: each hand's differences sum to zero."""
    rows = PlayerHand.objects.filter(table_id=table_id, all_in=True, ev_net__isnull=False)
    luck = {
        player_id: value or 0.0
        for player_id, value in rows.order_by()
        .values("player_id")
        .annotate(luck=Sum(F("net") - F("ev_net")))
        .values_list("player_id", "luck")
    }
    night = [NightRow(pid, name, net, net - luck.get(pid, 0.0)) for pid, name, net in players]
    swings: list[Swing] = []
    seen: set[int] = set()
    ranked = rows.filter(net__gt=F("ev_net")).order_by(F("ev_net") - F("net"), "hand_id")
    for hand_id, number, name, net, ev in ranked.values_list(
        "hand_id", "hand__number", "player__user__username", "net", "ev_net"
    )[: SWINGS * 4]:
        if ev is not None and hand_id not in seen and len(swings) < SWINGS:  # known: filtered
            seen.add(hand_id)
            swings.append(Swing(hand_id, number, name, net, ev))
    return night, swings


def ledger_ev(ledger: Ledger) -> tuple[list[NightRow], list[Swing]]:
    """``night_ev`` of a table's ledger: its rows' players and nets."""
    return night_ev(ledger.table_id, [(row.player_id, row.name, row.net) for row in ledger.rows])
