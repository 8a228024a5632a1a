"""One table at one version, read once for every viewer of it: ``load_snapshot``.

A ``Snapshot`` holds the table row, its seats with their players, the hand on screen (the
running one, else the last finished one), its decisions and the engine hand replayed from
them, and the table's last finished hands. It holds no viewer's screen: the presenters build
that (``tables.presenters.screen``) from the engine's ``view(seat)``, the one viewer filter.
Once built a snapshot reads nothing, so every socket of a process can share it: a table's
runtime (``tables.live.runtime``) holds the latest one. What the screens derive from the
table's settings and from the hand's row (``TableFacts``, ``HandFacts``) is worked out once,
as plain values, when the snapshot is read: the presenters ask no model, and a version made
in memory after an action keeps them.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import router
from django.db.models import QuerySet

from engine.config import HandConfig
from engine.hand import Hand as EngineHand
from engine.pre_actions import PreAction
from engine.runout import runout_frame
from engine.view import SeatView, View
from tables.db import statements
from tables.db.rows import from_row, select_first
from tables.db.statements import row_copy
from tables.models import Hand, Seat, Table
from tables.selectors.banners import banner_for, seating_notice_for
from tables.selectors.broadcast import street_times
from tables.selectors.hands import Decision, hand_decisions, hand_state, last_hand
from tables.selectors.hosting import NoticeRow, log_notices
from tables.selectors.table_rows import RecentHand, recent_hands, table_version


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """What a table screen shows of a seated player (``is_bot``: the bot badge, for the
    croupier's bots and for bot accounts)."""

    name: str
    is_bot: bool
    bankroll: int
    #: One of the croupier's own bots (``Player.is_bot``), which acts on the table's clock;
    #: not a bot account, which plays like a person.
    croupier_bot: bool


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat as a snapshot holds it: the columns the screens use, read in one compiled query
    without building models (every table socket's snapshot reads the seats)."""

    number: int
    player_id: int
    stack: int
    sitting_out: bool
    leave_after_hand: bool
    player: SeatedPlayer
    time_bank: int = 0  # seconds left
    waiting_for_big_blind: bool = False
    sit_out_next: str = ""  # "hand", "big_blind" or ""
    pre_action: PreAction | None = None  # what the player ticked to do in advance


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What the screens show of the table's settings, worked out once from its row (the
    model's properties: the game and its stakes in words, the buy-ins), for the presenters
    to read as plain values. A version made in memory after an action keeps them: only the
    table's clock and version changed (``snapshot_after_action``)."""

    variant: str  # ``Table.variant``: "No-limit Hold'em", "HORSE: Fixed-limit Razz"
    stakes: str  # ``Table.stakes``
    heading: str  # ``Table.heading``
    unit: int  # ``Table.unit``: the big blind, or the small bet
    min_buy_in: int  # ``Table.effective_min_buy_in``
    max_buy_in: int  # ``Table.effective_max_buy_in``
    mixed_label: str | None  # a mixed table's name ("HORSE"), else None
    next_game: tuple[str, int] | None  # a rotation's next game and the hands left before it


def table_facts(table: Table, players: int) -> TableFacts:
    """``table``'s ``TableFacts`` (``players``: how many are seated)."""
    mixed = table.mixed
    return TableFacts(
        table.variant,
        table.stakes,
        table.heading,
        table.unit,
        table.effective_min_buy_in,
        table.effective_max_buy_in,
        mixed.label if mixed is not None else None,
        table.next_game(players) if mixed is not None else None,
    )


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What the screens ask of the hand on screen beyond its columns, worked out once from
    its row (``Hand.is_running``, ``runout_showing``, ``seat_indexes``): every later version
    of the same hand row keeps them (``_same_hand``)."""

    running: bool
    runout_showing: bool  # its all-in run-out is still being dealt on screen
    indexes: Mapping[int, int]  # player id -> their seat in the hand (engine seat index)


#: The hand facts of a snapshot without a hand.
NO_HAND = HandFacts(False, False, {})


def hand_facts(hand: Hand | None) -> HandFacts:
    if hand is None:
        return NO_HAND
    return HandFacts(hand.is_running, hand.runout_showing, hand.seat_indexes)


class Snapshot:
    """One table at one version, read once: rows, the replayed hand, nothing per viewer.

    Built by ``load_snapshot`` (a few queries, no per-viewer reads) or, after the runtime's
    own action, ``snapshot_after_action``, and then used without touching the database.
    ``view(index)`` is the engine's view of its hand for hand seat ``index``, computed once
    per snapshot.
    """

    def __init__(
        self,
        table: Table,
        seats: Iterable[SeatRow],
        hand: Hand | None,
        decisions: list[Decision],
        recent: tuple[RecentHand, ...],
        state: EngineHand | None = None,
        banner: dict[str, Any] | None = None,
        notices: tuple[NoticeRow, ...] = (),
        seating_closed: str | None = None,
        facts: TableFacts | None = None,
        hand_of: HandFacts | None = None,
    ) -> None:
        self.table = table
        #: What the table's screens show of the game it belongs to (a tournament's level):
        #: ``tables.selectors.banners``; None at a cash table.
        self.banner = banner
        #: Why players cannot sit down, leave or top up here (a tournament seats its players:
        #: ``tables.selectors.banners.seating_notice_for``), or None at a cash table. A table
        #: is a tournament's from its creation or never, so a later snapshot keeps it.
        self.seating_closed = seating_closed
        self.version = table.version
        self.created_at = table.created_at
        self.seats: dict[int, SeatRow] = {s.number: s for s in seats}
        self._seat_of = {s.player_id: s for s in self.seats.values()}  # each socket asks
        #: The table's settings as the screens show them (given: those of the same row).
        self.facts = facts if facts is not None else table_facts(table, len(self.seats))
        self.hand = hand
        #: The hand's (given: those of the same hand row).
        self.hand_facts = hand_of if hand_of is not None else hand_facts(hand)
        self.decisions = decisions
        self.recent = recent
        #: The host's (and the site's) notices the hand log shows, placed by the presenters.
        self.notices = notices
        if state is None and hand is not None:
            state = hand_state(hand, decisions)
        self.state = state  # the engine hand after ``decisions``
        self.running = self.hand_facts.running
        self._views: dict[int | None, View] = {}
        self._view_dicts: dict[int | None, dict[str, Any]] = {}
        self._view_seats: dict[int, SeatView] = {}  # ``view_seat``'s, where no view is built
        #: What the presenters derive from this version once for all its viewers (the parts of
        #: the screen that are the same for them, rendered HTML): freed with the snapshot.
        self.memo: dict[Hashable, Any] = {}
        #: A hand broadcast with a delay in minutes (``Hand.broadcast``): when each of its
        #: streets began (``tables.selectors.broadcast.street_times``); else empty.
        self.street_times: tuple[datetime, ...] = ()
        #: The version before, where this one is a later version of its running hand: the
        #: presenters go on from what they built for it (``tables.presenters.shared_screen``),
        #: then drop it. Never two steps back: a version made from this one drops it.
        self.previous: Snapshot | None = None

    def view(self, index: int | None) -> View:
        """The engine's view for hand seat ``index`` (None: a spectator), computed once."""
        if index not in self._views:
            assert self.state is not None  # asked only of a snapshot with a hand: it has a state
            view = self.state.view(index)
            if self.hand is not None and self.hand_facts.runout_showing:
                assert self.hand.runout is not None  # runout_showing: there is a run-out
                view = runout_frame(view, self.hand.runout)
            self._views[index] = view
        return self._views[index]

    def view_seat(self, index: int) -> SeatView:
        """``view(index).seats[index]``: hand seat ``index`` as its player sees it, without
        building their whole view where it is not built (a run-out's frame is the view's)."""
        if index in self._views or self.hand_facts.runout_showing:
            return self.view(index).seats[index]
        seat = self._view_seats.get(index)
        if seat is None:
            assert self.state is not None  # asked only of a snapshot with a hand: it has a state
            seat = self._view_seats[index] = self.state.own_seat(index)
        return seat

    def view_dict(self, index: int | None) -> dict[str, Any]:
        """``view(index)`` as JSON data (``View.to_dict``), computed once."""
        if index not in self._view_dicts:
            # The seats and stakes that did not change are the very dicts of the last version
            # (an update's diff passes them over: ``tables.live.patch``).
            data = self.view(index).to_dict(_seat_data, _config_data)
            self._view_dicts[index] = data
        return self._view_dicts[index]

    def view_own_lines(self, index: int | None) -> dict[int, str]:
        """The lines of ``view_dict(index)``'s log that differ from the spectator's, by
        index (``View.own_lines``: the viewer's own cards dealt)."""
        return self.view(index).own_lines(self.view(None)) if index is not None else {}

    def view_own(self, index: int | None) -> dict[str, Any]:
        """The viewer's own members of ``view_dict(index)`` (``View.OWN_MEMBERS``) and, for
        a seat, its own entry of ``seats`` (key ``"seat"``), without building the whole dict
        when it was not built."""
        built = self._view_dicts.get(index)
        if built is not None:
            out = {key: built[key] for key in View.OWN_MEMBERS}
            if index is not None:
                out["seat"] = built["seats"][index]
            return out
        view = self.view(index)
        out = view.own_members()
        if index is not None:
            out["seat"] = _seat_data(view.seats[index])
        return out

    def seat_of(self, player_id: int | None) -> SeatRow | None:
        return self._seat_of.get(player_id) if player_id is not None else None

    def hand_index_of(self, player_id: int | None) -> int | None:
        """The player's seat in the hand on screen (None: not dealt in, or no hand)."""
        if self.hand is None or not player_id:
            return None
        return self.hand_facts.indexes.get(player_id)

    def bankroll_of(self, player_id: int) -> int | None:
        """A seated player's bankroll as read with this version (else None: ask the database)."""
        seat = self.seat_of(player_id)
        return seat.player.bankroll if seat is not None else None


def table_and_seats(
    table_id: int, known: Table | None = None
) -> tuple[Table | None, list[SeatRow]]:
    """A table and its seats with their players, in no particular order: one compiled query
    (two for a table nobody sits at, unless the caller ``known`` its row). ``(None, [])``
    when there is no such table."""
    # No date-time among the seats' columns: the table's are converted by ``from_row``.
    rows = statements.select_values(Seat, "snapshot-seats", _seats_query, table_id, aware=False)
    if not rows:
        if known is not None:
            return known, []
        return select_first(Table, "snapshot-table", _table_query, table_id), []
    table_columns = _table_columns()
    table = from_row(Table, router.db_for_read(Table), rows[0][-len(table_columns) :])
    return table, [
        SeatRow(
            number,
            player_id,
            stack,
            sitting_out,
            leaving,
            SeatedPlayer(name, is_bot or bot_account, bankroll, is_bot),
            time_bank,
            waiting,
            sit_out_next,
            PreAction(pre_kind, pre_amount, pre_hand, pre_street) if pre_kind else None,
        )
        for (
            number,
            player_id,
            stack,
            sitting_out,
            leaving,
            time_bank,
            waiting,
            sit_out_next,
            pre_kind,
            pre_amount,
            pre_hand,
            pre_street,
            name,
            is_bot,
            bot_account,
            bankroll,
            *_,
        ) in rows
    ]


def _table_columns() -> list[str]:
    return [field.attname for field in Table._meta.concrete_fields]


def _seats_query(table_id: int) -> QuerySet[Seat, tuple[Any, ...]]:
    username = get_user_model().USERNAME_FIELD
    # Unordered (the snapshot keys seats by number): Seat's default ordering goes through
    # the table's, a join.
    return (
        Seat.objects.filter(table_id=table_id)
        .order_by()
        .values_list(
            "number",
            "player_id",
            "stack",
            "sitting_out",
            "leave_after_hand",
            "time_bank",
            "wait_for_big_blind",
            "sit_out_next",
            "pre_action",
            "pre_action_amount",
            "pre_action_hand",
            "pre_action_street",
            f"player__user__{username}",
            "player__is_bot",
            "player__bot_account",
            "player__bankroll",
            *(f"table__{name}" for name in _table_columns()),
        )
    )


def _table_query(table_id: int) -> QuerySet[Table]:
    return Table.objects.filter(pk=table_id).order_by()[:1]


def load_snapshot(table: Table | int, previous: Snapshot | None = None) -> Snapshot | None:
    """Read a table once: the table row with its seats and players (one query), the hand on
    screen and its action log, the recent finished hands. None if there is no such table.

    ``previous``: this table's last snapshot. While its hand is still being played (the table
    row says a player is on the clock, and the actions since then leave the hand running) and
    every version since ``previous`` was one of those actions, only those actions are read:
    the hand row, the recent hands and the notices cannot have changed (any other change, a
    host's notice among them, reads everything). The table row is read first (or with the
    seats), so the snapshot is never older than its ``version``.
    """
    # The table row with the seats (one query), so the snapshot is never older than its
    # version; a Table given by the caller was read before.
    given = table if isinstance(table, Table) else None
    row, seats = table_and_seats(table.pk if isinstance(table, Table) else table, known=given)
    if row is None:
        return None
    table = given or row
    if (
        previous is not None
        and previous.running
        and table.action_deadline is not None
        and previous.created_at == table.created_at
    ):
        assert previous.hand is not None  # running: its hand is being played
        decisions = previous.decisions + hand_decisions(previous.hand, len(previous.decisions))
        new = len(decisions) - len(previous.decisions)
        if new > 0 and table.version - previous.version == new:
            state = hand_state(previous.hand, decisions)
            # the same hand, still running: nothing else to read (but a run-out's odds and
            # answers are written to the hand's row)
            if not state.is_over and not state.no_more_betting:
                return timed(_same_hand(previous, table, seats, decisions, state))
    for _ in range(_TRIES):
        snapshot = _whole(table, seats)
        # Each read sees what had committed when it ran: a write that committed after the
        # table row was read shows in the rest under the version before, and a click on such
        # a frame would be refused as stale. Read again until nothing moved in between.
        if table_version(table.pk) in (table.version, None):
            break
        row, seats = table_and_seats(table.pk)
        if row is None:
            return None
        table = row
    return timed(snapshot)


#: How often a whole read is tried before one that raced a write is shown (under its first
#: version, so never older than it says).
_TRIES = 3


def _whole(table: Table, seats: list[SeatRow]) -> Snapshot:
    hand = last_hand(table)  # the hand on screen: running, else the last one's showdown
    decisions = hand_decisions(hand) if hand is not None else []
    notices = log_notices(table.pk, hand.number if hand is not None else None)
    return Snapshot(
        table,
        seats,
        hand,
        decisions,
        recent_hands(table.pk),
        banner=banner_for(table),
        notices=notices,
        seating_closed=seating_notice_for(table),
    )


def timed(snapshot: Snapshot) -> Snapshot:
    """``snapshot`` with its streets' times when its hand is broadcast after minutes."""
    hand, state = snapshot.hand, snapshot.state
    if hand is not None and state is not None and hand.broadcast.startswith("m"):
        snapshot.street_times = street_times(hand, state)
    return snapshot


def snapshot_after_action(
    previous: Snapshot,
    version: int,
    deadline: datetime | None,
    decisions: list[Decision],
    state: EngineHand,
) -> Snapshot | None:
    """``previous`` one player's action later, without reading the database: the table's
    runtime made that action on ``state`` (its engine hand, acted on in place) and knows
    everything it changed: the hand's log, the stacks of the seats in it, the table's clock
    (a new turn's: no time bank drawn) and version. None where that is not all that changed
    (the betting is over: a run-out's odds go to the hand's row; the hand ended): the caller
    reads the table instead."""
    if not previous.running or state.is_over or state.no_more_betting:
        return None
    assert previous.hand is not None  # running: its hand is being played
    timed = previous.hand.broadcast.startswith("m")
    if timed and len(state.street_starts) != len(previous.street_times):
        return None  # a timed broadcast's new street: its time is the log's (read)
    table = row_copy(previous.table)
    table.version, table.action_deadline, table.hand_version = version, deadline, version
    table.action_banked = False  # the next turn's clock (``hands._after_change``)
    stacks = {
        start["player_id"]: stack
        for start, stack in zip(previous.hand.seats, state.stacks, strict=True)
    }
    # an action moves one stack at most: the other seats are the previous version's own rows
    seats = [
        replace(seat, stack=stacks[seat.player_id])
        if stacks.get(seat.player_id, seat.stack) != seat.stack
        else seat
        for seat in previous.seats.values()
    ]
    # the same row but for the clock and version: its settings' facts are the previous'
    snapshot = _same_hand(previous, table, seats, decisions, state, previous.facts)
    snapshot.street_times = previous.street_times
    return snapshot


def _same_hand(
    previous: Snapshot,
    table: Table,
    seats: Iterable[SeatRow],
    decisions: list[Decision],
    state: EngineHand,
    facts: TableFacts | None = None,
) -> Snapshot:
    """A later version of ``previous``'s running hand: what only changes between hands (the
    recent hands, the banner, the notices, the seating) carried over, and the facts of its
    hand row (the same row); ``facts``: the table's, when its row is the previous' too."""
    snapshot = Snapshot(
        table,
        seats,
        previous.hand,
        decisions,
        previous.recent,
        state,
        previous.banner,
        previous.notices,
        previous.seating_closed,
        facts,
        previous.hand_facts,
    )
    previous.previous = None
    snapshot.previous = previous
    return snapshot


# Shared by every version that has an equal seat or config: nothing may change these dicts.
@lru_cache(maxsize=4096)
def _seat_data(seat: SeatView) -> dict[str, Any]:
    data = seat.to_dict()
    # the same cards are the very same lists: a seat that changed is diffed without them
    data["cards"], data["up"] = _listed(tuple(data["cards"])), _listed(seat.up)
    return data


@lru_cache(maxsize=4096)
def _listed(items: tuple[Any, ...]) -> list[Any]:
    return list(items)


@lru_cache(maxsize=256)
def _config_data(config: HandConfig) -> dict[str, Any]:
    return config.to_dict()
