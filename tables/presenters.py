"""What one viewer sees of a table: plain data for the table templates.

Every hole card a template gets comes from ``engine.Hand.view(seat)`` (the one viewer filter):
``table_screen`` never reads ``Hand.deck`` or the engine's ``hole`` itself. A seated player
sees their own cards, a spectator (``player=None`` or not dealt in) sees none; cards shown at
showdown are visible to all. The same function renders the first page load and every
websocket update, so a reload shows exactly the live state.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from tables.models import Hand, HandAction, Player, Seat, Table

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANK_TEXT = {"T": "10"}
#: The regions of the table screen, one partial each (``templates/tables/_<region>.html``),
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
    """Cards from a view: ``"As"`` -> a face, ``None`` (hidden) stays ``None``."""
    return [CardFace(c) if c else None for c in cards]


def split_cards(text: str) -> list[CardFace]:
    """``"AsKd7h"`` (PHH style, from the engine log) -> faces."""
    return [CardFace(text[i : i + 2]) for i in range(0, len(text), 2)]


def seat_position(number: int, max_seats: int, bottom: int) -> tuple[float, float]:
    """Where seat ``number`` sits around the oval (percent x, y), ``bottom`` at the bottom."""
    angle = math.pi / 2 + 2 * math.pi * ((number - bottom) % max_seats) / max_seats
    return round(50 + 44 * math.cos(angle), 2), round(50 + 41 * math.sin(angle), 2)


def viewer_player(user) -> Player | None:
    """The player behind a request's or socket's user (``None`` for anonymous users)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).select_related("user").first()


def shown_hand(table: Table) -> Hand | None:
    """The hand on screen: the running one, else the last finished one (its showdown)."""
    return (
        table.hands.exclude(status=Hand.Status.VOIDED).order_by("-number").first()
    )


def _log_lines(view: dict, hand: Hand, decisions: list | None = None) -> list[list]:
    """The hand's log for this viewer, in words, from the viewer's filtered engine log.

    ``decisions``: the hand's (kind, amount, source) in order, if already read.
    """
    names = [s["name"] for s in hand.seats]
    if decisions is None:
        decisions = list(
            hand.actions.order_by("index").values_list("kind", "amount", "source"))
    decision = iter(decisions)
    streets = iter(("Flop", "Turn", "River"))
    bet_made = True  # preflop the blinds are the bet: every bet is a raise
    lines: list[list] = []
    for raw in view["log"]:
        parts = raw.split()
        if parts[0] == "d" and parts[1] == "dh":
            seat = int(parts[2][1:]) - 1
            if seat == view["viewer"] and parts[3] != "????":
                lines.append(["Your cards", *split_cards(parts[3])])
            continue
        if parts[0] == "d" and parts[1] == "db":
            lines.append([f"{next(streets, 'Board')}:", *split_cards(parts[2])])
            bet_made = False
            continue
        if parts[0] == "#":
            name = names[int(parts[1][1:]) - 1]
            rest = " ".join(parts[2:])
            lines.append([f"{name} {rest}"])
            continue
        name = names[int(parts[0][1:]) - 1]
        verb = parts[1]
        if verb == "sm":
            if len(parts) > 2:
                lines.append([f"{name} shows", *split_cards(parts[2])])
            else:
                lines.append([f"{name} mucks"])
            continue
        kind, amount, source = next(decision, ("?", None, HandAction.Source.PLAYER))
        if verb == "f":
            text = f"{name} folds"
        elif verb == "cc":
            text = f"{name} checks" if kind == "check" else f"{name} calls"
        else:
            text = f"{name} {'raises' if bet_made else 'bets'} to {parts[2]}"
            bet_made = True
        if kind == "all_in":
            text += " (all-in)"
        if source == HandAction.Source.TIMEOUT:
            text += " (timed out)"
        lines.append([text])
    return lines


def _quick_sizes(view: dict, legal: dict) -> list[dict]:
    """Min, half pot, pot and all-in as raise-to amounts within the legal range."""
    lo, hi = legal["min_raise_to"], legal["max_raise_to"]
    me = view["seats"][view["viewer"]]
    call = legal["call"]
    pot_after_call = view["total_pot"] + call
    base = view["current_bet"] if view["current_bet"] else 0
    sizes = [("Min", lo), ("½ pot", base + pot_after_call // 2), ("Pot", base + pot_after_call),
             ("All-in", me["bet"] + me["stack"])]
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
    (``tables.render_cache``) and rendered from the event loop.
    """

    def __init__(self, table: Table, seats, hand: Hand | None, decisions: list, recent: list):
        self.table = table
        self.version = table.version
        self.created_at = table.created_at
        self.seats = {s.number: s for s in seats}
        self.hand = hand
        self.decisions = decisions  # [(kind, amount, source)] in order
        self.recent = recent
        self.state = _replay(hand, decisions) if hand is not None else None
        self.running = hand is not None and hand.is_running
        self._views: dict = {}
        self._shared: dict | None = None
        self.html: dict = {}  # (region, key) -> rendered HTML, filled by ``render_screen``

    def view(self, index: int | None) -> dict:
        """The engine's view for hand seat ``index`` (None: a spectator), computed once."""
        if index not in self._views:
            self._views[index] = self.state.view(index)
        return self._views[index]

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
        result = view["result"] if view else None
        if result:
            for award in result["awards"]:
                for w, amount in zip(award["winners"], award["amounts"]):
                    winners[w] = winners.get(w, 0) + amount
                pots.append({
                    "amount": award["amount"],
                    "label": "Main pot" if award["pot"] == 0 else f"Side pot {award['pot']}",
                    "winners": [view["seats"][w]["name"] for w in award["winners"]],
                    "description": award["description"],
                })
        elif view is not None:
            for i, pot in enumerate(view["pots"]):
                pots.append({"amount": pot["amount"],
                             "label": "Main pot" if i == 0 else f"Side pot {i}"})
        # Per table seat number: everything about the seat except its hole cards and where it
        # is drawn (both depend on the viewer).
        rows = {}
        in_hand = {}
        if view is not None:
            for start, seen in zip(hand.seats, view["seats"]):
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
                    row.update(empty=False, name=seen["name"], is_bot=False, sitting_out=False,
                               leaving=True, stack=seen["stack"], player_id=None)
                if running:
                    row["stack"] = seen["stack"]
                row.update(
                    dealt=True, hand_index=seen["seat"], bet=seen["bet"], folded=seen["folded"],
                    all_in=seen["all_in"], shown=seen["shown"],
                    is_button=seen["is_button"], is_small_blind=seen["is_small_blind"],
                    is_big_blind=seen["is_big_blind"],
                    is_actor=running and view["actor"] == seen["seat"],
                    won=winners.get(seen["seat"], 0) if result else 0,
                    description=(result["shown"].get(str(seen["seat"]), {}).get("description", "")
                                 if result else ""),
                )
            if not row["empty"]:
                row["plate"] = mark_safe(render_to_string("tables/_seat_plate.html", {"seat": row}))
            rows[number] = row
        deadline = table.action_deadline if running else None
        actor_name = None
        if running and view["actor"] is not None:
            actor_name = view["seats"][view["actor"]]["name"]
        self._shared = {
            "table": table,
            "version": table.version,
            "hand": hand,
            "hand_id": hand.pk if hand else "",
            "running": running,
            "street": view["street"] if view else "",
            "board": faces(view["board"]) if view else [],
            "pots": pots,
            "total_pot": view["total_pot"] if view and running else 0,
            "rows": rows,
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
        bottom = my_seat.number if my_seat else 0
        seat_rows = []
        for number in range(table.max_seats):
            row = dict(shared["rows"][number])
            x, y = seat_position(number, table.max_seats, bottom)
            row["x"], row["y"] = x, y
            if not row["empty"]:
                row["is_me"] = my_seat is not None and number == my_seat.number
            if row.get("dealt"):
                # The hole cards this viewer may see: from the engine's view for this viewer.
                row["cards"] = faces(view["seats"][row["hand_index"]]["cards"])
                row["cards_html"] = mark_safe("".join(
                    card_html(c.code if c else None) for c in row["cards"]))
            seat_rows.append(row)
        legal = view["legal"] if (view and running) else None
        actions = None
        if legal is not None:
            actions = {
                "fold": legal["fold"],
                "check": legal["check"],
                "call": legal["call"],
                "raise": legal["min_raise_to"] is not None,
                "min": legal["min_raise_to"],
                "max": legal["max_raise_to"],
                "word": "Bet" if view["current_bet"] == 0 else "Raise",
                "sizes": _quick_sizes(view, legal) if legal["min_raise_to"] is not None else [],
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
            "log": self.log(index) if view else [],
            "view": view,  # engine viewer view, for ?state=json sockets (issue 7)
            "me": me,
            "viewer_index": index,
            "viewer_seat": my_seat.number if my_seat else None,
            "snapshot": self,
        }

    def log(self, index: int | None) -> list[list]:
        key = ("log-lines", index)
        if key not in self.html:
            self.html[key] = _log_lines(self.view(index), self.hand, self.decisions)
        return self.html[key]


def _replay(hand: Hand, decisions: list):
    """The engine hand of ``hand`` from its stored inputs and the decisions already read
    (``tables.selectors.hand_state`` without a second read of the action log)."""
    from engine.hand import Action, HandConfig
    from engine.hand import Hand as EngineHand

    return EngineHand.replay(
        HandConfig.from_dict(hand.config),
        [s["stack"] for s in hand.seats],
        hand.button,
        hand.deck,
        [Action(kind, amount) for kind, amount, _ in decisions],
        players=[s["name"] for s in hand.seats],
    )


def load_snapshot(table: Table | int, previous: Snapshot | None = None) -> Snapshot | None:
    """Read a table once: the table row with its seats and players (one query), the hand on
    screen and its action log, the recent finished hands. None if there is no such table.

    ``previous``: this table's last snapshot; while the same hand is running, the recent
    hands cannot have changed and only the actions after its last one are read.
    The table row is read first (or with the seats), so the snapshot is never older than its
    ``version``.
    """
    if isinstance(table, Table):
        seats = list(Seat.objects.filter(table_id=table.pk).select_related("player__user"))
    else:
        seats = list(
            Seat.objects.filter(table_id=table).select_related("table", "player__user")
        )
        if seats:
            table = seats[0].table
        else:
            table = Table.objects.filter(pk=table).first()
            if table is None:
                return None
    hand = shown_hand(table)
    same = (previous is not None and hand is not None and previous.hand is not None
            and previous.hand.pk == hand.pk and previous.running and hand.is_running
            and previous.created_at == table.created_at)
    decisions = []
    if same:
        decisions = previous.decisions + list(
            HandAction.objects.filter(hand_id=hand.pk, index__gte=len(previous.decisions))
            .order_by("index").values_list("kind", "amount", "source")
        )
        recent = previous.recent
    else:
        if hand is not None:
            decisions = list(
                HandAction.objects.filter(hand_id=hand.pk).order_by("index")
                .values_list("kind", "amount", "source")
            )
        recent = list(
            table.hands.filter(status=Hand.Status.FINISHED).order_by("-number")
            .values("number", "pot")[:RECENT_HANDS]
        )
    return Snapshot(table, seats, hand, decisions, recent)


def table_screen(table: Table, player: Player | None) -> dict:
    """Everything the table templates need for one viewer (``player`` or a spectator)."""
    return load_snapshot(table).screen(player)


def render_regions(screen: dict, *, oob: bool = True) -> str:
    """Every region of the table screen as HTML; ``oob`` marks them for htmx's swap by id.

    The message line is not among them: it answers one socket (``render_message``). A region
    is rendered once per snapshot and per what its HTML depends on (``_region_key``), so all
    the sockets of a process at one version share the viewer-independent regions.
    """
    snapshot = screen.get("snapshot")
    context = None
    out = []
    for region in REGIONS:
        key = (region, oob, _region_key(region, screen))
        html = snapshot.html.get(key) if snapshot is not None else None
        if html is None:
            if context is None:
                context = {**screen, "oob": oob}
            html = render_to_string(f"tables/_{region}.html", context)
            if snapshot is not None:
                snapshot.html[key] = html
        out.append(html)
    return "".join(out)


def _region_key(region: str, screen: dict):
    """What one region's HTML depends on, besides the snapshot (see the templates)."""
    if region == "seats":  # where each seat is drawn, which is "me", which cards are seen
        return screen["viewer_seat"], screen["viewer_index"]
    if region == "log":  # "Your cards"
        return screen["viewer_index"]
    if region == "actions":  # the action bar for the actor only
        return screen["viewer_index"] if screen["actions"] else None
    if region == "controls":
        me = screen["me"]
        return None if me is None else tuple(me.items()), screen.get("request_path")
    return None  # board


@lru_cache(maxsize=128)
def card_html(code: str | None) -> str:
    """One card as HTML (``_card.html``), face up or (``None``) face down; rendered once."""
    return render_to_string("tables/_card.html", {"card": CardFace(code) if code else None})


def render_message(message: str, *, oob: bool = True, error: bool = True) -> str:
    """The message line under the actions (an error goes to its sender only)."""
    return render_to_string(
        "tables/_message.html", {"message": message, "error": error, "oob": oob}
    )


CARD_ATTR = re.compile(r'data-card="([^"]*)"')


def cards_in_html(html: str) -> list[str]:
    """Every face-up card in rendered HTML (each is drawn with ``data-card``)."""
    return CARD_ATTR.findall(html)
