"""Reads for hand histories and statistics: a few queries each, however many hands.

Statistics add up the ``PlayerHand`` rows (one per player per finished hand, written at hand
end from ``tables.stats.seat_figures``) in one aggregate query; ratios come from
``tables.stats.Totals.stats``. A hand's history goes out only through the engine's viewer
filter (``Hand.view``), and only once the hand is finished.

Tournament hands and bankroll chips: a hand at a tournament's table counts in the hand
statistics (hands, VPIP, PFR, 3-bet, aggression, WTSD, W$SD) like any other, but its chips are
tournament chips, not bankroll chips: the chip figures (net won, bb/100, biggest pot, the net
curve, the cash leaderboard) add up cash-table hands only (``CASH_HANDS``). What a tournament
did to the bankroll is its prize minus its entry fees (``tables.tournaments.records``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.db.models import (
    Count,
    ExpressionWrapper,
    F,
    FloatField,
    Max,
    Q,
    QuerySet,
    Sum,
)

from engine import phh, pkstate
from engine.errors import FormatCannotHold
from engine.hand import HandConfig
from engine.streets import decisions
from tables.http import Viewer
from tables.models import Hand, Player, PlayerHand
from tables.models.hands import runout_showing_q
from tables.selectors.access import tables_visible_to
from tables.selectors.hands import hand_state, with_actions, with_deck
from tables.selectors.players import shown_as_bot
from tables.selectors.replay import hand_replay_steps
from tables.selectors.replay_odds import step_odds_json
from tables.stats.figures import Totals

RESULTS = ("won", "lost", "even")
#: ``PlayerHand`` rows of cash tables (a tournament's tables have a ``tournament_table``, by
#: the relation's name: the tournaments app builds on this one, not the other way round).
CASH_HANDS = Q(table__tournament_table__isnull=True)
#: A hand whose run-out is still being dealt on screen is not over for its readers: no row,
#: total or curve counts it before its river is shown (``Hand.in_play``).
SHOWN_OVER = ~runout_showing_q("hand__")
LEADERBOARD_ORDERS = {"net": "-net", "bb100": "-bb_per_100", "hands": "-hands"}


@dataclass(frozen=True)
class HandFilter:
    """Which of a player's hands: a table, a game, a date range (inclusive, UTC), a result."""

    table: int | None = None
    game: str | None = None
    since: date | None = None
    until: date | None = None
    result: str | None = None
    tournament: int | None = None

    def apply(self, rows: QuerySet[PlayerHand]) -> QuerySet[PlayerHand]:
        if self.table is not None:
            rows = rows.filter(table_id=self.table)
        if self.tournament is not None:  # its tables (``tables.tournaments``)
            rows = rows.filter(table__tournament_table__tournament_id=self.tournament)
        if self.game is not None:
            rows = rows.filter(game=self.game)
        if self.since is not None:
            rows = rows.filter(started_at__date__gte=self.since)
        if self.until is not None:
            rows = rows.filter(started_at__date__lte=self.until)
        if self.result == "won":
            rows = rows.filter(net__gt=0)
        elif self.result == "lost":
            rows = rows.filter(net__lt=0)
        elif self.result == "even":
            rows = rows.filter(net=0)
        return rows


def hidden_tables_as_missing(filters: HandFilter, user: Viewer) -> HandFilter:
    """``filters``, but a table ``user`` may not see counts no hands, exactly as a table that
    does not exist (a private game's existence is not revealed by its players' figures)."""
    if filters.table is None or tables_visible_to(user).filter(pk=filters.table).exists():
        return filters
    return replace(filters, table=0)  # ids start at 1: no table has this one


def figure_aggregates() -> dict[str, Any]:
    """The sums of ``Totals`` over ``PlayerHand`` rows, as one aggregate (or annotate)."""

    def yes(name: str) -> Count:
        return Count("id", filter=Q(**{name: True}))

    return {
        "hands": Count("id"),
        "vpip": yes("vpip"),
        "pfr": yes("pfr"),
        "three_bet_chances": yes("three_bet_chance"),
        "three_bets": yes("three_bet"),
        "saw_flop": yes("saw_flop"),
        "showdowns": yes("showdown"),
        "won_at_showdown": yes("won_at_showdown"),
        "postflop_aggressive": Sum("postflop_aggressive"),
        "postflop_calls": Sum("postflop_calls"),
        "cash_hands": Count("id", filter=CASH_HANDS),
        "net": Sum("net", filter=CASH_HANDS),
        "net_bb": Sum("net_bb", filter=CASH_HANDS),
        "biggest_pot_won": Max("collected", filter=CASH_HANDS),
    }


def player_totals(player: Player, filters: HandFilter = HandFilter()) -> Totals:
    """The sums over the player's finished hands matching ``filters`` (one query)."""
    rows = filters.apply(PlayerHand.objects.filter(SHOWN_OVER, player=player))
    return Totals.from_dict(rows.order_by().aggregate(**figure_aggregates()))


def player_stats(player: Player, filters: HandFilter = HandFilter()) -> dict[str, Any]:
    return player_totals(player, filters).stats()


def player_hand_rows(player: Player, filters: HandFilter = HandFilter()) -> QuerySet[PlayerHand]:
    """The player's finished hands (``PlayerHand`` rows with hand and table), newest first;
    a hand whose run-out is still being dealt on screen is not over for its readers yet."""
    rows = PlayerHand.objects.filter(SHOWN_OVER, player=player).select_related("hand", "table")
    return filters.apply(rows).order_by("-started_at", "-hand_id")


def net_curve(player: Player, filters: HandFilter = HandFilter()) -> list[int]:
    """Cumulative net chips after each of the player's cash hands, oldest first (one query)."""
    total = 0
    curve = []
    rows = filters.apply(PlayerHand.objects.filter(CASH_HANDS, SHOWN_OVER, player=player))
    for net in rows.order_by("started_at", "hand_id").values_list("net", flat=True):
        total += net
        curve.append(total)
    return curve


def leaderboard(order: str = "net", min_hands: int = 1) -> QuerySet[Any, Any]:
    """Players ranked by net won, bb/100 or hands played at cash tables, with at least
    ``min_hands`` cash hands (tournaments have their own: ``tables.tournaments.records``).

    Rows are dicts: ``player_id``, ``name``, ``is_bot``, ``hands``, ``net``, ``bb_per_100``.
    """
    rows = (
        PlayerHand.objects.filter(CASH_HANDS, SHOWN_OVER)
        .order_by()
        .values("player_id")
        .annotate(
            hands=Count("id"),
            net=Sum("net"),
            bb_per_100=ExpressionWrapper(
                100.0 * Sum("net_bb") / Count("id"), output_field=FloatField()
            ),
            name=F("player__user__username"),
            is_bot=shown_as_bot(),
        )
        .filter(hands__gte=min_hands)
    )
    return rows.order_by(LEADERBOARD_ORDERS[order], "name")


# --- one hand's history ---------------------------------------------------------------------
def finished_hand(hand_id: int) -> Hand | None:
    """The hand with its table and actions, or None (running hands are the caller's check)."""
    return with_actions(with_deck(Hand.objects.select_related("table"))).filter(pk=hand_id).first()


def viewer_seat(hand: Hand, user: Viewer) -> int | None:
    """The engine seat of ``user`` in ``hand`` (None for anyone not dealt in, staff too)."""
    player = getattr(user, "player", None) if user.is_authenticated else None
    return hand.seat_index_of(player.pk) if player is not None else None


def hand_history(hand: Hand, seat: int | None) -> dict[str, Any]:
    """A finished hand as ``seat`` may see it (``None``: only what was shown at showdown).

    Everything about cards comes from ``Hand.view(seat)``; the deck and the seed never appear.
    """
    if hand.status != Hand.Status.FINISHED or hand.in_play:
        raise ValueError("only a finished hand has a history")
    state = hand_state(hand)
    view = state.view(seat)
    as_json = view.to_dict()
    result = state.result
    assert result is not None  # a finished hand's (checked above)
    net = result.net
    # engine seat -> all-in EV, for the seats of an all-in hand whose EV is known
    allin_ev: dict[int, float] = {
        seat: ev
        for seat, ev in PlayerHand.objects.filter(hand=hand, all_in=True).values_list(
            "seat", "ev_net"
        )
        if ev is not None
    }
    seats = []
    for i, (stored, shown) in enumerate(zip(hand.seats, as_json["seats"], strict=True)):
        seats.append(
            {
                "seat": i,
                "table_seat": stored["seat"],
                "player_id": stored["player_id"],
                "name": stored["name"],
                "starting_stack": stored["stack"],
                "final_stack": shown["stack"],
                "net": net[i],
                "allin_ev": round(allin_ev[i], 2) if i in allin_ev else None,
                "cards": shown["cards"],
                "up": shown["up"],
                "shown": shown["shown"],
                "folded": shown["folded"],
                "is_button": shown["is_button"],
                "is_small_blind": shown["is_small_blind"],
                "is_big_blind": shown["is_big_blind"],
            }
        )
    return {
        "id": hand.pk,
        "table": {"id": hand.table_id, "name": hand.table.name},
        "number": hand.number,
        "status": hand.status,
        "started_at": hand.started_at,
        "finished_at": hand.finished_at,
        "commitment": hand.commitment,
        "config": as_json["config"],
        "viewer_seat": seat,
        "seats": seats,
        "board": as_json["board"],
        "boards": [[str(card) for card in board] for board in view.boards],
        "pot": hand.pot,
        "actions": decisions(state),
        "log": as_json["log"],
        "result": as_json["result"],
        # the replayer's steps with their odds, from what this viewer saw
        "steps": step_odds_json(hand_replay_steps(hand, seat)),
    }


def hand_phh(hand: Hand, seat: int | None) -> str:
    """A finished hand as PHH text: the cards shown at showdown plus ``seat``'s own."""
    if hand.status != Hand.Status.FINISHED or hand.in_play:
        raise ValueError("only a finished hand has a history")
    state = hand_state(hand)
    text = phh.dumps(state, known_cards=state.history_cards(seat))
    return text + f"hand = {hand.number}\ntable = {_toml_string(hand.table.name)}\n"


def hand_yaml(hand: Hand, seat: int | None) -> str:
    """A finished hand as pkstate YAML: the cards shown at showdown plus ``seat``'s own (the
    others' ``PnDealt`` left out), its id and when it started."""
    if hand.status != Hand.Status.FINISHED or hand.in_play:
        raise ValueError("only a finished hand has a history")
    state = hand_state(hand)
    return pkstate.dumps(
        state, known_cards=state.history_cards(seat), id=str(hand.pk), datetime=hand.started_at
    )


def hand_downloads(hand: Hand) -> dict[str, bool]:
    """Which files the hand can be downloaded as (``{"phh": .., "yaml": ..}``): a format
    without the hand's game (or one of its rules) is not offered (``FormatCannotHold``)."""
    config = HandConfig.from_dict(hand.config)
    offered = {}
    for name, check in (("phh", phh.check_can_write), ("yaml", pkstate.check_can_write)):
        try:
            check(config)
        except FormatCannotHold:
            offered[name] = False
        else:
            offered[name] = True
    return offered


def _toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def player_tables(player: Player) -> list[dict[str, Any]]:
    """The tables the player has finished hands at: ``[{"id", "name"}]`` (one query)."""
    rows = (
        PlayerHand.objects.filter(player=player)
        .order_by("table__name")
        .values_list("table_id", "table__name")
        .distinct()
    )
    return [{"id": pk, "name": name} for pk, name in rows]
