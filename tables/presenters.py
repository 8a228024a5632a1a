"""What one viewer sees of a table: plain data for the table templates.

Every hole card a template gets comes from ``engine.Hand.view(seat)`` (the one viewer filter):
``table_screen`` never reads the hand's deck or the engine's ``hole`` itself. A seated player
sees their own cards, a spectator (``player=None`` or not dealt in) sees none; cards shown at
showdown are visible to all. The same function renders the first page load and every
websocket update, so a reload shows exactly the live state.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from django.contrib.auth import get_user_model
from django.db import router
from django.template import engines
from django.urls import reverse
from django.utils.safestring import SafeString

from engine.cards import Card, format_cards
from engine.types import FORCED_BETS, EventKind, Legal, View
from tables.db import statements
from tables.models import Hand, HandAction, Player, Seat, Table
from tables.selectors import hand_decisions, hand_state, with_deck
from tables.services import hand_cache

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANK_TEXT = {"T": "10"}
#: The regions of the table screen, one partial each (``templates/jinja2/tables/_<region>.html``),
#: swapped in by id (``table-<region>``).
REGIONS = ("seats", "board", "actions", "controls", "log")
#: How many finished hands the page links to.
RECENT_HANDS = 8


@dataclass(frozen=True)
class CardFace:
    """A face-up card for the templates: ``As`` -> rank ``A``, suit ``♠``, colour class."""

    code: str

    @property
    def rank(self) -> str:
        return RANK_TEXT.get(self.code[0], self.code[0])

    @property
    def suit(self) -> str:
        return SUIT_SYMBOLS[self.code[1]]

    @property
    def suit_name(self) -> str:
        return SUIT_NAMES[self.code[1]]

    def __str__(self) -> str:
        return self.code

    @property
    def html(self) -> str:
        return card_html(self.code)


def faces(cards) -> list[CardFace | None]:
    """Cards from a view: a card -> its face, ``None`` (hidden) stays ``None``."""
    return [CardFace(str(c)) if c is not None else None for c in cards]


def split_cards(text: str) -> list[CardFace]:
    """``"AsKd7h"`` (cards as ``format_cards`` writes them) -> faces."""
    return [CardFace(text[i : i + 2]) for i in range(0, len(text), 2)]


def viewer_player(user) -> Player | None:
    """The player behind a request's or socket's user (``None`` for anonymous users)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).select_related("user").first()


def shown_hand(table: Table) -> Hand | None:
    """The hand on screen: the running one, else the last finished one (its showdown); its
    deck (for the replay) in the same statement."""
    return statements.select_first(Hand, "shown-hand", _shown_hand_query, table.pk,
                                   Hand.Status.VOIDED)


def _shown_hand_query(table_id, voided):
    return with_deck(Hand.objects.filter(table_id=table_id).exclude(status=voided)).order_by(
        "-number")[:1]


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """What a table screen shows of a seated player."""

    name: str
    is_bot: bool
    bankroll: int


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


def table_and_seats(table_id: int,
                    known: Table | None = None) -> tuple[Table | None, list[SeatRow]]:
    """A table and its seats with their players, in no particular order: one compiled query
    (two for a table nobody sits at, unless the caller ``known`` its row). ``(None, [])``
    when there is no such table."""
    rows = statements.select_values(Seat, "snapshot-seats", _seats_query, table_id)
    if not rows:
        if known is not None:
            return known, []
        return statements.select_first(Table, "snapshot-table", _table_query, table_id), []
    table_columns = _table_columns()
    table = Table.from_db(router.db_for_read(Table), table_columns, rows[0][-len(table_columns):])
    return table, [
        SeatRow(number, player_id, stack, sitting_out, leaving, SeatedPlayer(name, is_bot, bankroll))
        for number, player_id, stack, sitting_out, leaving, name, is_bot, bankroll, *_ in rows
    ]


def _table_columns() -> list[str]:
    return [field.attname for field in Table._meta.concrete_fields]


def _seats_query(table_id):
    username = get_user_model().USERNAME_FIELD
    # Unordered (the snapshot keys seats by number): Seat's default ordering goes through
    # the table's, a join.
    return Seat.objects.filter(table_id=table_id).order_by().values_list(
        "number", "player_id", "stack", "sitting_out", "leave_after_hand",
        f"player__user__{username}", "player__is_bot", "player__bankroll",
        *(f"table__{name}" for name in _table_columns()),
    )


def _table_query(table_id):
    return Table.objects.filter(pk=table_id).order_by()[:1]


def recent_hands(table_id: int) -> list[dict]:
    """The table's last ``RECENT_HANDS`` finished hands, newest first: number and pot."""
    return [{"number": number, "pot": pot} for number, pot in statements.select_values(
        Hand, "recent-hands", _recent_query, table_id, Hand.Status.FINISHED)]


def _recent_query(table_id, finished):
    return (Hand.objects.filter(table_id=table_id).filter(status=finished).order_by("-number")
            .values_list("number", "pot")[:RECENT_HANDS])


def _log_lines(view: View, hand: Hand, decisions: list | None = None) -> list[tuple]:
    """The hand's log in words, from the engine view's filtered events: ``(text, cards)``
    lines, ``cards`` as ``format_cards`` writes them (``"AsKd"``) or ``""``.

    Each dealing of hole cards is a ``(DEALT, seat)`` marker in the viewer's place: the
    viewer's own becomes "Your cards" (``viewer_log``), the others say nothing, so the log
    read from the spectator's view serves every viewer.
    ``decisions``: the hand's (kind, amount, source) in order, if already read: they add
    "(all-in)" and "(timed out)" to the decisions' lines.
    """
    names = [s["name"] for s in hand.seats]
    if decisions is None:
        decisions = list(
            hand.actions.order_by("index").values_list("kind", "amount", "source"))
    decision = iter(decisions)
    streets = iter(("Flop", "Turn", "River"))
    lines: list[tuple] = []
    for event in view.events:
        kind, amount = event.kind, event.amount
        if kind is EventKind.DEAL_HOLE:
            lines.append((DEALT, event.seat))
            continue
        if kind is EventKind.DEAL_BOARD:
            lines.append((f"{next(streets, 'Board')}:", format_cards(event.cards)))
            continue
        name = names[event.seat]
        if kind in FORCED_BETS:
            lines.append((f"{name} posts {kind.replace('_', ' ')} {amount}", ""))
        elif kind is EventKind.RETURN:
            lines.append((f"{name} takes back {amount} uncalled", ""))
        elif kind is EventKind.WIN:
            lines.append((f"{name} wins {amount}" + (f" ({event.text})" if event.text else ""), ""))
        elif kind is EventKind.SHOW:
            lines.append((f"{name} shows", format_cards(event.cards)))
        elif kind is EventKind.MUCK:
            lines.append((f"{name} mucks", ""))
        else:
            lines.append((f"{name} {_DECISION_WORDS[kind](amount)}"
                          + _decision_notes(next(decision, None)), ""))
    return lines


_DECISION_WORDS = {
    EventKind.FOLD: lambda amount: "folds",
    EventKind.CHECK: lambda amount: "checks",
    EventKind.CALL: lambda amount: "calls",
    EventKind.BET: lambda amount: f"bets to {amount}",
    EventKind.RAISE: lambda amount: f"raises to {amount}",
}


def _decision_notes(decision: tuple | None) -> str:
    """" (all-in)", " (timed out)", both or neither, from a stored (kind, amount, source)."""
    if decision is None:
        return ""
    kind, _, source = decision
    return ((" (all-in)" if kind == "all_in" else "")
            + (" (timed out)" if source == HandAction.Source.TIMEOUT else ""))


#: Marks where hole cards were dealt in ``_log_lines``.
DEALT = object()


def viewer_log(lines: list[tuple], index: int | None,
               cards: tuple[Card | None, ...]) -> list[tuple]:
    """``_log_lines`` for the viewer in hand seat ``index`` whose hole ``cards`` (from their
    own engine view) are known: "Your cards" where theirs were dealt, no other marker."""
    out = []
    for line in lines:
        if line[0] is DEALT:
            if line[1] == index and all(c is not None for c in cards):
                out.append(("Your cards", format_cards(c for c in cards if c is not None)))
            continue
        out.append(line)
    return out


def _quick_sizes(view: View, legal: Legal) -> list[dict]:
    """Min, half pot, pot and all-in as raise-to amounts within the legal range."""
    lo, hi = legal.min_raise_to, legal.max_raise_to
    me = view.seats[view.viewer]
    call = legal.call
    pot_after_call = view.total_pot + call
    base = view.current_bet
    sizes = [("Min", lo), ("½ pot", base + pot_after_call // 2), ("Pot", base + pot_after_call),
             ("All-in", me.bet + me.stack)]
    out, seen = [], set()
    for label, amount in sizes:
        amount = max(lo, min(hi, amount))
        if amount not in seen:
            seen.add(amount)
            out.append({"label": label, "amount": amount})
    return out


class Snapshot:
    """One table at one version, read once: rows, the replayed hand, shared HTML.

    Everything here is the same for every viewer; what differs per viewer (their own hole
    cards, the action bar, their controls) is derived in ``screen`` from the engine's
    ``view(seat)`` of the one replayed hand, so the engine stays the only viewer filter.
    Built by ``load_snapshot`` (a few queries, no per-viewer reads) and then used without
    touching the database, so it can be shared by every socket of a process at that version
    (``tables.live.caches.SnapshotCache``) and rendered from the event loop.
    """

    def __init__(self, table: Table, seats, hand: Hand | None, decisions: list, recent: list,
                 state=None):
        self.table = table
        self.version = table.version
        self.created_at = table.created_at
        self.seats = {s.number: s for s in seats}
        self.hand = hand
        self.decisions = decisions  # [(kind, amount, source)] in order
        self.recent = recent
        if state is None and hand is not None:
            state = hand_state(hand, decisions)
        self.state = state  # the engine hand after ``decisions``
        self.running = hand is not None and hand.is_running
        self._views: dict[int | None, View] = {}
        self._view_dicts: dict[int | None, dict] = {}
        self._shared: dict | None = None
        self.html: dict = {}  # (region, key) -> rendered HTML, filled by ``region_html``

    def view(self, index: int | None) -> View:
        """The engine's view for hand seat ``index`` (None: a spectator), computed once."""
        if index not in self._views:
            self._views[index] = self.state.view(index)
        return self._views[index]

    def view_dict(self, index: int | None) -> dict:
        """``view(index)`` as JSON data (``View.to_dict``), computed once."""
        if index not in self._view_dicts:
            self._view_dicts[index] = self.view(index).to_dict()
        return self._view_dicts[index]

    def seat_of(self, player_id: int | None):
        if player_id is None:
            return None
        return next((s for s in self.seats.values() if s.player_id == player_id), None)

    def bankroll_of(self, player_id: int) -> int | None:
        """A seated player's bankroll as read with this version (else None: ask the database)."""
        seat = self.seat_of(player_id)
        return seat.player.bankroll if seat is not None else None

    def shared(self) -> dict:
        """The viewer-independent part of the screen (from the spectator's view)."""
        if self._shared is not None:
            return self._shared
        table, hand = self.table, self.hand
        view = self.view(None) if hand is not None else None
        running = self.running
        winners: dict[int, int] = {}
        pots = []
        result = view.result if view is not None else None
        if result is not None:
            for award in result.awards:
                for w, amount in zip(award.winners, award.amounts):
                    winners[w] = winners.get(w, 0) + amount
                pots.append({
                    "amount": award.amount,
                    "label": "Main pot" if award.pot == 0 else f"Side pot {award.pot}",
                    "winners": [view.seats[w].name for w in award.winners],
                    "description": award.description,
                })
        elif view is not None:
            for i, pot in enumerate(view.pots):
                pots.append({"amount": pot.amount,
                             "label": "Main pot" if i == 0 else f"Side pot {i}"})
        # Per table seat number: everything about the seat except its hole cards and where it
        # is drawn (both depend on the viewer).
        rows = {}
        in_hand = {}
        if view is not None:
            for start, seen in zip(hand.seats, view.seats):
                in_hand[start["seat"]] = (seen, start["player_id"])
        for number in range(table.max_seats):
            row = {"number": number, "label": number + 1, "empty": True}
            seat = self.seats.get(number)
            entry = in_hand.get(number)
            if seat is not None:
                row.update(
                    empty=False, name=seat.player.name, is_bot=seat.player.is_bot,
                    stack=seat.stack, sitting_out=seat.sitting_out,
                    leaving=seat.leave_after_hand, player_id=seat.player_id,
                )
            if entry is not None and (seat is None or entry[1] == seat.player_id):
                seen = entry[0]
                if seat is None:  # left after the hand: still shown until the next one
                    row.update(empty=False, name=seen.name, is_bot=False, sitting_out=False,
                               leaving=True, stack=seen.stack, player_id=None)
                if running:
                    row["stack"] = seen.stack
                shown = result.shown.get(seen.seat) if result is not None else None
                row.update(
                    dealt=True, hand_index=seen.seat, bet=seen.bet, folded=seen.folded,
                    all_in=seen.all_in, shown=seen.shown,
                    is_button=seen.is_button, is_small_blind=seen.is_small_blind,
                    is_big_blind=seen.is_big_blind,
                    is_actor=running and view.actor == seen.seat,
                    won=winners.get(seen.seat, 0),
                    description=shown[1] if shown is not None else "",
                )
            if not row["empty"]:
                row["plate"] = _plate_html(tuple(row.get(f) for f in PLATE_FIELDS))
            rows[number] = row
        deadline = table.action_deadline if running else None
        actor_name = None
        if running and view.actor is not None:
            actor_name = view.seats[view.actor].name
        # Each seat as a spectator sees it (every viewer but its owner, unless their view of
        # it differs): rendered once per version.
        for row in rows.values():
            row["cards"] = faces(view.seats[row["hand_index"]].cards) if row.get("dealt") else []
            row["html"] = _seat_html(row, is_me=False)
        self._shared = {
            "table": table,
            "version": table.version,
            "hand": hand,
            "hand_id": hand.pk if hand else "",
            "running": running,
            "street": view.street if view is not None else "",
            "board": faces(view.board) if view is not None else [],
            "pots": pots,
            "total_pot": view.total_pot if view is not None and running else 0,
            "rows": rows,
            "seat_rows": [rows[number] for number in range(table.max_seats)],
            "deadline_ms": int(deadline.timestamp() * 1000) if deadline else None,
            "actor_name": actor_name,
            "result": result,
            "recent": self.recent,
            "free_seats": [n + 1 for n in range(table.max_seats) if n not in self.seats],
            "min_buy_in": table.effective_min_buy_in,
            "max_buy_in": table.effective_max_buy_in,
            "default_buy_in": min(table.effective_max_buy_in,
                                  max(table.effective_min_buy_in, 50 * table.big_blind)),
        }
        return self._shared

    def screen(self, player: Player | None, bankroll: int | None = None) -> dict:
        """Everything the table templates need for one viewer (``player`` or a spectator).

        ``bankroll``: the player's bankroll when they are not seated (seated players' come
        with the snapshot).
        """
        shared = self.shared()
        table, hand = self.table, self.hand
        player_id = player.pk if player is not None else None
        my_seat = self.seat_of(player_id)
        index = hand.seat_index_of(player_id) if (hand is not None and player_id) else None
        view = self.view(index) if hand is not None else None
        running = shared["running"]
        # Every seat as a spectator sees it (the shared fragments) but the viewer's own: drawn
        # as theirs, with the hole cards of the engine's view for this viewer.
        seat_rows = list(shared["seat_rows"])
        for number, row in enumerate(seat_rows):
            is_me = my_seat is not None and number == my_seat.number
            own_cards = index is not None and row.get("dealt") and row["hand_index"] == index
            if is_me or own_cards:
                cards = faces(view.seats[index].cards) if own_cards else row["cards"]
                row = {**row, "is_me": is_me, "cards": cards}
                row["html"] = _seat_html(row, is_me=is_me)
                seat_rows[number] = row
        legal = view.legal if (view is not None and running) else None
        actions = None
        if legal is not None:
            actions = {
                "fold": legal.fold,
                "check": legal.check,
                "call": legal.call,
                "raise": legal.min_raise_to is not None,
                "min": legal.min_raise_to,
                "max": legal.max_raise_to,
                "word": "Bet" if view.current_bet == 0 else "Raise",
                "sizes": _quick_sizes(view, legal) if legal.min_raise_to is not None else [],
            }
        me = None
        if player is not None:
            if my_seat is not None:
                bankroll = my_seat.player.bankroll
            elif bankroll is None:
                bankroll = Player.objects.filter(pk=player.pk).values_list(
                    "bankroll", flat=True)[0]
            me = {
                "name": player.name,
                "bankroll": bankroll,
                "seated": my_seat is not None,
                "seat": my_seat.number + 1 if my_seat else None,
                "stack": my_seat.stack if my_seat else 0,
                "sitting_out": bool(my_seat and my_seat.sitting_out),
                "leaving": bool(my_seat and my_seat.leave_after_hand),
                "in_hand": running and index is not None,
                "room": max(table.effective_max_buy_in - my_seat.stack, 0) if my_seat else 0,
            }
        return {
            **shared,
            "seats": seat_rows,
            "actions": actions,
            "log": self.log(index) if view is not None else [],
            # the engine's view as JSON data, for ?state=json sockets (issue 7)
            "view": self.view_dict(index) if view is not None else None,
            "me": me,
            "viewer_index": index,
            "viewer_seat": my_seat.number if my_seat else None,
            "snapshot": self,
        }

    def log(self, index: int | None) -> list[str]:
        """The hand's log as HTML lines (``_log_line.html``) for hand seat ``index``."""
        key = ("log-lines", index)
        if key not in self.html:
            lines = self.html.get("log-shared")
            if lines is None:  # read once per version from the spectator's view
                lines = self.html["log-shared"] = _log_lines(
                    self.view(None), self.hand, self.decisions)
            cards = self.view(index).seats[index].cards if index is not None else ()
            self.html[key] = [_log_line_html(text, codes)
                              for text, codes in viewer_log(lines, index, cards)]
        return self.html[key]


def load_snapshot(table: Table | int, previous: Snapshot | None = None) -> Snapshot | None:
    """Read a table once: the table row with its seats and players (one query), the hand on
    screen and its action log, the recent finished hands. None if there is no such table.

    ``previous``: this table's last snapshot. While its hand is still being played (the table
    row says a player is on the clock, and the actions since then leave the hand running) only
    those actions are read: the hand row and the recent hands cannot have changed.
    When this process made the one player's action since ``previous``, nothing is read at
    all (``following_snapshot``). The table row is read first (or with the seats), so the
    snapshot is never older than its ``version``. The invariant this relies on:
    ``tables.live.caches``.
    """
    following = following_snapshot(previous)
    if following is not None:
        return following
    # The table row with the seats (one query), so the snapshot is never older than its
    # version; a Table given by the caller was read before.
    given = table if isinstance(table, Table) else None
    table, seats = table_and_seats(given.pk if given else table, known=given)
    if table is None:
        return None
    table = given or table
    if (previous is not None and previous.running and table.action_deadline is not None
            and previous.created_at == table.created_at):
        played = hand_cache.peek(table)  # this process made the change
        if played is not None and played.hand.pk == previous.hand.pk:
            decisions = list(played.decisions)
        else:
            decisions = previous.decisions + hand_decisions(previous.hand, len(previous.decisions))
        if len(decisions) > len(previous.decisions):
            state = hand_state(previous.hand, decisions)
            if not state.is_over:  # the same hand, still running: nothing else to read
                return Snapshot(table, seats, previous.hand, decisions, previous.recent, state)
    hand = shown_hand(table)
    decisions = hand_decisions(hand) if hand is not None else []
    return Snapshot(table, seats, hand, decisions, recent_hands(table.pk))


def following_snapshot(previous: Snapshot | None) -> Snapshot | None:
    """``previous`` one player's action later, without reading the database: when this
    process made that action (``hand_cache`` holds its entry at the next version).

    That write changed only the hand's log, the stacks of the seats in it (the engine's), the
    table's clock and version. The clock's own actions (bots, timeouts) are read instead: the
    croupier sets the clock again after them, and a timeout also sits the player out.
    The invariant this relies on: ``tables.live.caches``.
    """
    if previous is None or not previous.running:
        return None
    played = hand_cache.peek(previous.table, previous.version + 1)
    # Exactly one decision more. (A snapshot may hold a little more than its version says:
    # its reads after the table row's see later commits, e.g. the hand dealt at the next
    # version, whose entry then has no decision at all.)
    if (played is None or played.hand.pk != previous.hand.pk
            or len(played.decisions) != len(previous.decisions) + 1
            or played.decisions[:-1] != tuple(previous.decisions)
            or played.decisions[-1][2] != HandAction.Source.PLAYER):
        return None
    state = hand_state(previous.hand, played.decisions)
    table = copy.copy(previous.table)
    table.version, table.action_deadline = played.version, played.deadline
    stacks = {start["player_id"]: stack for start, stack in zip(previous.hand.seats, state.stacks)}
    seats = [replace(seat, stack=stacks[seat.player_id]) if seat.player_id in stacks else seat
             for seat in previous.seats.values()]
    return Snapshot(table, seats, previous.hand, list(played.decisions), previous.recent, state)


def table_screen(table: Table, player: Player | None) -> dict:
    """Everything the table templates need for one viewer (``player`` or a spectator)."""
    return load_snapshot(table).screen(player)


def render_regions(screen: dict, *, oob: bool = True) -> str:
    """Every region of the table screen as HTML; ``oob`` marks them for htmx's swap by id."""
    return "".join(region_html(screen, oob=oob).values())


def region_html(screen: dict, *, oob: bool = True) -> dict[str, str]:
    """Each region of the table screen (``REGIONS``) as HTML, for the page and the sockets.

    The message line is not among them: it answers one socket (``render_message``). A region
    is rendered once per snapshot and per what its HTML depends on (``_region_key``), so the
    sockets of a process at one version share what is the same for them.
    """
    snapshot = screen.get("snapshot")
    out = {}
    for region in REGIONS:
        key = (region, oob, _region_key(region, screen))
        html = snapshot.html.get(key) if snapshot is not None else None
        if html is None:
            html = REGION_RENDERERS[region](screen, oob)
            if snapshot is not None:
                snapshot.html[key] = html
        out[region] = html
    return out


def _region_key(region: str, screen: dict):
    """What one region's HTML depends on, besides the snapshot (see the templates)."""
    if region == "seats":  # which seat is at the bottom and "me", which cards are seen
        return screen["viewer_seat"], screen["viewer_index"]
    if region == "log":  # "Your cards"
        return screen["viewer_index"]
    if region == "actions":  # the action bar for the actor only
        return screen["viewer_index"] if screen["actions"] else None
    if region == "controls":
        me = screen["me"]
        return None if me is None else tuple(me.items()), screen.get("request_path")
    return None  # board


def render(template: str, **context) -> SafeString:
    """A table partial (``templates/jinja2/<template>``, autoescaped) as safe HTML."""
    # The context is the template's globals and ``context`` merged here, passed as shared:
    # Jinja2's own merge walks its ChainMap of globals key by key, which cost as much as
    # rendering the small partials. SafeString itself, not mark_safe (its lazy-string check
    # cost as much again); Jinja2 and Django templates both take it as safe (``__html__``).
    compiled = _template(template)
    merged = compiled.new_context({**_globals_of(compiled), **context}, shared=True)
    return SafeString(compiled.environment.concat(compiled.root_render_func(merged)))


@lru_cache(maxsize=64)
def _globals_of(compiled) -> dict:
    return dict(compiled.globals)


def _template(name: str):
    env = _jinja()
    if env.auto_reload:  # DEBUG: pick up edited templates
        return env.get_template(name)
    return _compiled_template(name)


@lru_cache(maxsize=64)
def _compiled_template(name: str):
    return _jinja().get_template(name)


@lru_cache(maxsize=1)
def _jinja():
    return engines["jinja2"].env


def _seats(screen: dict, oob: bool) -> str:
    return render(
        "tables/_seats.html", oob=oob, hand_id=screen["hand_id"], street=screen["street"],
        version=screen["version"], max_seats=screen["table"].max_seats,
        bottom=screen["viewer_seat"] or 0,
        seats=SafeString("".join(row["html"] for row in screen["seats"])),
    )


#: What a seat's plate shows (``_seat_plate.html``), and so what its cached HTML depends on.
PLATE_FIELDS = ("name", "is_bot", "stack", "sitting_out", "leaving", "all_in", "folded",
                "description", "won", "is_button", "is_small_blind", "is_big_blind", "bet")
#: What ``_seat.html`` shows besides the plate and the cards.
SEAT_FIELDS = ("empty", "is_actor", "folded", "won", "sitting_out", "label", "number", "plate")


@lru_cache(maxsize=20_000)
def _plate_html(values: tuple) -> str:
    """A seat's plate (``PLATE_FIELDS`` values): most seats look the same from one version of
    a table to the next (one player acted), so this is rendered once, not on every change."""
    return render("tables/_seat_plate.html", seat=dict(zip(PLATE_FIELDS, values)))


def _seat_html(row: dict, *, is_me: bool) -> str:
    """One seat as a viewer sees it (``_seat.html``): its plate, ``is_me``, the cards shown."""
    cards = tuple(c.code if c else None for c in row["cards"])
    return _seat_html_of(tuple(row.get(f) for f in SEAT_FIELDS), is_me, cards)


@lru_cache(maxsize=20_000)
def _seat_html_of(values: tuple, is_me: bool, cards: tuple) -> str:
    return render(
        "tables/_seat.html", seat=dict(zip(SEAT_FIELDS, values)), is_me=is_me,
        cards_html=SafeString("".join(card_html(code) for code in cards)),
    )


def _board(screen: dict, oob: bool) -> str:
    hand = screen["hand"]
    return render(
        "tables/_board.html", oob=oob, hand_id=screen["hand_id"], street=screen["street"],
        board=screen["board"], pots=screen["pots"], running=screen["running"],
        total_pot=screen["total_pot"], hand_number=hand.number if hand else None,
    )


def _actions(screen: dict, oob: bool) -> str:
    return render(
        "tables/_actions.html", oob=oob, version=screen["version"], hand_id=screen["hand_id"],
        running=screen["running"], deadline_ms=screen["deadline_ms"],
        actions=screen["actions"], actor_name=screen["actor_name"],
    )


def _controls(screen: dict, oob: bool) -> str:
    me = screen["me"]
    return _controls_of(
        oob, None if me is None else tuple(me.items()), tuple(screen["free_seats"]),
        screen["min_buy_in"], screen["max_buy_in"], screen["default_buy_in"],
        screen.get("request_path"),
    )


@lru_cache(maxsize=10_000)
def _controls_of(oob, me, free_seats, min_buy_in, max_buy_in, default_buy_in, request_path):
    """A player's controls change far less often than the table: rendered once per look."""
    return render(
        "tables/_controls.html", oob=oob, me=None if me is None else dict(me),
        free_seats=free_seats, min_buy_in=min_buy_in, max_buy_in=max_buy_in,
        default_buy_in=default_buy_in, request_path=request_path,
    )


def _log(screen: dict, oob: bool) -> str:
    hand = screen["hand"]
    return render(
        "tables/_log.html", oob=oob, hand_number=hand.number if hand else None,
        lines=SafeString("".join(screen["log"])),
        recent=_recent_html(
            screen["table"].pk, tuple((h["number"], h["pot"]) for h in screen["recent"])),
    )


@lru_cache(maxsize=20_000)
def _log_line_html(text: str, cards: str) -> str:
    """One line of the hand log: its text (escaped) and its cards (``"AsKd"`` or ``""``)."""
    return render("tables/_log_line.html", text=text, cards=split_cards(cards))


@lru_cache(maxsize=1024)
def _recent_html(table_id: int, hands: tuple) -> str:
    """The links to a table's last finished hands ((number, pot) pairs): the same for every
    viewer until the next hand ends."""
    return render("tables/_recent.html", table_id=table_id, hands=hands, hand_url=_hand_url)


@lru_cache(maxsize=10_000)
def _hand_url(table_id: int, number: int) -> str:
    return reverse("tables:hand", args=[table_id, number])


REGION_RENDERERS = {"seats": _seats, "board": _board, "actions": _actions,
                    "controls": _controls, "log": _log}


@lru_cache(maxsize=128)
def card_html(code: str | None) -> str:
    """One card as HTML (``_card.html``), face up or (``None``) face down; rendered once."""
    return render("tables/_card.html", card=CardFace(code) if code else None)


def render_message(message: str, *, oob: bool = True, error: bool = True) -> str:
    """The message line under the actions (an error goes to its sender only)."""
    return render("tables/_message.html", message=message, error=error, oob=oob)


CARD_ATTR = re.compile(r'data-card="([^"]*)"')


def cards_in_html(html: str) -> list[str]:
    """Every face-up card in rendered HTML (each is drawn with ``data-card``)."""
    return CARD_ATTR.findall(html)
