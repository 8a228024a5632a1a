"""The table screen's HTML: each view model through its partial (``templates/jinja2/tables``).

HTML is cached on the view model it is rendered from (a frozen dataclass: the key is the very
value the template renders, so a cache cannot drift from its template):

- per process, for the parts that look the same from one table version to the next (one
  player acted): a card, a seat's plate, a seat, a log line, the recent hands, the controls;
- per table version (the screen's ``html``, shared by the viewers of that snapshot), for the
  five regions.

``page_parts`` cuts a screen into the parts a socket update may send alone (a seat, the
pots, the viewer's stack, the log's lines), and ``page_update`` sends those that changed
(``tables.live.frames``: what a socket holds).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from django.template import engines
from django.urls import reverse
from django.utils.safestring import SafeString

if TYPE_CHECKING:
    from django.template.backends.jinja2 import Jinja2
    from jinja2 import Environment, Template

from tables.presenters.models import (
    ActionsRegion,
    BoardRegion,
    CardFace,
    ControlsRegion,
    LogLine,
    LogRegion,
    Plate,
    RecentHands,
    Screen,
    SeatPanel,
    SeatsRegion,
)

#: The regions of the table screen, one partial each (``templates/jinja2/tables/_<region>.html``),
#: swapped in by id (``table-<region>``).
REGIONS = ("seats", "board", "actions", "controls", "log")


def render(template: str, **context: Any) -> SafeString:
    """A table partial (``templates/jinja2/<template>``, autoescaped) as safe HTML."""
    html = _template(template).render(context)
    # The templates' indentation and blank lines, one newline each (the same to a browser
    # outside <pre>, which these partials have none of): a third of a socket's bytes.
    # SafeString itself, not mark_safe (its lazy-string check cost as much as rendering a
    # small partial); Jinja2 and Django templates both take it as safe (``__html__``).
    return SafeString(_LAYOUT_SPACE.sub("\n", html))


_LAYOUT_SPACE = re.compile(r"[ \t\r\n]*\n[ \t\r\n]*")


def _template(name: str) -> Template:
    env = _jinja()
    if env.auto_reload:  # DEBUG: pick up edited templates
        return env.get_template(name)
    return _compiled_template(name)


@lru_cache(maxsize=64)
def _compiled_template(name: str) -> Template:
    return _jinja().get_template(name)


@lru_cache(maxsize=1)
def _jinja() -> Environment:
    # The "jinja2" engine is Django's Jinja2 backend (settings.TEMPLATES).
    return cast("Jinja2", engines["jinja2"]).env


# --- the regions ----------------------------------------------------------------------------


def render_regions(screen: Screen, *, oob: bool = True) -> str:
    """Every region of the table screen as HTML; ``oob`` marks them for htmx's swap by id."""
    return "".join(region_html(screen, oob=oob).values())


def region_html(screen: Screen, *, oob: bool = True) -> dict[str, str]:
    """Each region of the table screen (``REGIONS``) as HTML, for the page and the sockets.

    The message line is not among them: it answers one socket (``render_message``). A region
    is rendered once per table version and view model: the sockets of a process at one
    version share what is the same for them.
    """
    return {region: _region(screen, model, oob) for region, model in screen.regions().items()}


def _seats(seats: SeatsRegion, oob: bool) -> str:
    return render(
        "tables/_seats.html",
        oob=oob,
        seats=seats,
        seats_html=SafeString("".join(map(seat_html, seats.seats))),
    )


@lru_cache(maxsize=20_000)
def seat_html(seat: SeatPanel, oob: bool = False, keep_hole: bool = False) -> str:
    """One seat as one viewer sees it (``_seat.html``): most look the same from one version
    of a table to the next (one player acted), so each is rendered once, not on every change.
    ``oob``: swapped by itself, by id (a socket update that changes this seat alone);
    ``keep_hole``: its cards are those the page shows already (htmx keeps them)."""
    return render(
        "tables/_seat.html",
        seat=seat,
        oob=oob,
        keep_hole=keep_hole,
        plate_html=plate_html(seat.plate) if seat.plate is not None else "",
        cards_html=_cards_html(seat.cards) if not seat.up else "",
        down_html=_cards_html(seat.down_cards) if seat.up else "",
        up_html=_cards_html(seat.up_cards) if seat.up else "",
    )


@lru_cache(maxsize=20_000)
def plate_html(plate: Plate) -> str:
    """A seat's plate (``_seat_plate.html``), the same for every viewer."""
    return render("tables/_seat_plate.html", plate=plate)


def _board(board: BoardRegion, oob: bool) -> str:
    return render(
        "tables/_board.html",
        oob=oob,
        board=board,
        pots_html=pots_html(board, False),
        cards_html=_cards_html(board.cards),
        later_html=[
            (run, f"Board {run}" if board.double_board else f"{name} run", _cards_html(cards))
            for run, name, cards in zip(
                (2, 3), ("Second", "Third"), board.later_cards, strict=False
            )
        ],
        rabbit_html=_cards_html(board.rabbit),
    )


def pots_html(board: BoardRegion, oob: bool) -> str:
    """The board's pots (``_pots.html``): inside the board, or swapped by themselves
    (``oob``) when only they changed (a bet)."""
    return render("tables/_pots.html", oob=oob, board=board)


def _actions(actions: ActionsRegion, oob: bool) -> str:
    return render("tables/_actions.html", oob=oob, actions=actions)


@lru_cache(maxsize=10_000)
def _controls(controls: ControlsRegion, oob: bool) -> str:
    """A player's controls change far less often than the table: rendered once per look."""
    me = controls.viewer
    stack_html = my_stack_html(me.stack, False) if me is not None else ""
    return render("tables/_controls.html", oob=oob, controls=controls, stack_html=stack_html)


@lru_cache(maxsize=10_000)
def my_stack_html(stack: int, oob: bool) -> str:
    """The viewer's stack in their controls (``_my_stack.html``), or by itself (``oob``)."""
    return render("tables/_my_stack.html", oob=oob, stack=stack)


def controls_frame(controls: ControlsRegion) -> ControlsRegion:
    """What the controls show but the viewer's stack: when only the stack changed, it is
    sent by itself (a top-up's room shows only between hands)."""
    me = controls.viewer
    if me is None:
        return controls
    return replace(controls, viewer=replace(me, stack=0, room=0 if me.in_hand else me.room))


def _log(log: LogRegion, oob: bool) -> str:
    return render(
        "tables/_log.html",
        oob=oob,
        log=log,
        lines_html=SafeString("".join(map(log_line_html, log.lines))),
        recent_html=recent_html(log.recent),
    )


@lru_cache(maxsize=20_000)
def log_line_html(line: LogLine) -> str:
    """One line of the hand log: its text (escaped) and its cards."""
    return render("tables/_log_line.html", line=line, cards_html=_cards_html(line.cards))


@lru_cache(maxsize=1024)
def recent_html(recent: RecentHands) -> str:
    """The links to a table's last finished hands: the same for every viewer until the next
    hand ends."""
    return render("tables/_recent.html", recent=recent, hand_url=_hand_url)


@lru_cache(maxsize=10_000)
def _hand_url(table_id: int, number: int) -> str:
    return reverse("tables:hand", args=[table_id, number])


@lru_cache(maxsize=10_000)
def table_url(name: str, table_id: int) -> str:
    """A table's page (``name``): the same for every viewer and version, and ``reverse``
    costs as much as a small part of a viewer's screen."""
    return reverse(name, args=[table_id])


_RENDERERS: dict[type[Any], Callable[[Any, bool], str]] = {
    SeatsRegion: _seats,
    BoardRegion: _board,
    ActionsRegion: _actions,
    ControlsRegion: _controls,
    LogRegion: _log,
}


# --- a page in parts, for the socket's updates -------------------------------------------


@dataclass(frozen=True, eq=False)
class PageParts:
    """One viewer's table screen as the parts a socket update may send alone.

    A socket remembers the ``PageParts`` it was last sent (``tables.live.frames``) and is
    sent only what differs: a seat, a region, the log's new lines. Each part is the HTML that
    the whole region holds for it, so applying the changed parts gives the whole region.
    ``seats_frame`` and ``log_head`` are what the region's own element shows: when they
    change, the whole region goes. Compared by identity: sockets holding the same parts
    share the update made from them (``eq=False``).
    """

    screen: Screen
    seats_frame: tuple[Any, ...]
    seats: tuple[str, ...]  # each seat's HTML, as in the seats region
    board: str
    board_frame: BoardRegion  # the board less its pots: when it changed, the whole board goes
    actions: str
    controls: str
    controls_frame: ControlsRegion  # less the viewer's stack: else the whole controls go
    log_head: tuple[Any, ...]
    log_lines: tuple[str, ...]

    def seats_region(self) -> str:
        return _region(self.screen, self.screen.seats)

    def log_region(self) -> str:
        return _region(self.screen, self.screen.log)

    def pots(self) -> str:
        return pots_html(self.screen.board, True)

    def my_stack(self) -> str:
        viewer = self.screen.controls.viewer
        assert viewer is not None  # asked only when the viewer's stack is all that changed
        return my_stack_html(viewer.stack, True)

    def seat(self, number: int, held: SeatPanel) -> str:
        """Seat ``number`` by itself, for a page that shows it as ``held``."""
        seat = self.screen.seats.seats[number]
        keep_hole = (
            held.plate is not None
            and seat.plate is not None
            and (held.cards, held.up) == (seat.cards, seat.up)
        )
        return seat_html(seat, True, keep_hole)


def page_parts(screen: Screen) -> PageParts:
    """``screen`` in parts (``PageParts``), each rendered once per look (the caches above)."""
    seats, log = screen.seats, screen.log
    return PageParts(
        screen,
        (seats.hand_id, seats.street, seats.max_seats, seats.bottom, seats.face_up),
        tuple(map(seat_html, seats.seats)),
        _region(screen, screen.board),
        replace(screen.board, pots=(), total_pot=0),
        _region(screen, screen.actions),
        _region(screen, screen.controls),
        controls_frame(screen.controls),
        (log.hand_number, log.recent),
        tuple(map(log_line_html, log.lines)),
    )


def page_update(held: PageParts | None, now: PageParts) -> str:
    """The oob HTML that turns a page showing ``held`` into one showing ``now`` ("" when
    nothing changed; everything when it holds nothing)."""
    if held is None:
        return "".join((now.seats_region(), now.board, now.actions, now.controls, now.log_region()))
    out = []
    if held.seats_frame != now.seats_frame or len(held.seats) != len(now.seats):
        out.append(now.seats_region())
    else:
        panels = held.screen.seats.seats
        out.extend(
            now.seat(number, panels[number])
            for number, (old, new) in enumerate(zip(held.seats, now.seats, strict=True))
            if old != new
        )
    if held.board != now.board:
        out.append(now.pots() if held.board_frame == now.board_frame else now.board)
    if held.actions != now.actions:
        out.append(now.actions)
    if held.controls != now.controls:
        out.append(now.my_stack() if held.controls_frame == now.controls_frame else now.controls)
    grown = len(now.log_lines) - len(held.log_lines)
    if held.log_head != now.log_head or held.log_lines != now.log_lines[: len(held.log_lines)]:
        out.append(now.log_region())
    elif grown and now.log_head[0] is not None:  # a hand's log: new lines go at its end
        out.append(log_lines_oob_html(now.log_lines[len(held.log_lines) :]))
    elif grown:
        out.append(now.log_region())
    return "".join(out)


def _region(screen: Screen, model: Hashable, oob: bool = True) -> str:
    """A region (``model``: its view model), rendered once per table version and model."""
    key = (model, oob)
    html = screen.html.get(key)
    if html is None:
        html = screen.html[key] = _RENDERERS[type(model)](model, oob)
    return html


def log_lines_oob_html(lines: tuple[str, ...]) -> str:
    """Lines added at the end of the hand's log (each line's HTML, ``log_line_html``)."""
    return f'<ol id="table-log-lines" hx-swap-oob="beforeend">{"".join(lines)}</ol>'


# --- cards and the message line -------------------------------------------------------------


@lru_cache(maxsize=128)
def card_html(card: CardFace | None) -> str:
    """One card as HTML (``_card.html``), face up or (``None``) face down; rendered once."""
    return render("tables/_card.html", card=card)


def _cards_html(cards: Iterable[CardFace | None]) -> SafeString:
    return SafeString("".join(map(card_html, cards)))


def render_message(message: str, *, oob: bool = True, error: bool = True) -> str:
    """The message line under the actions (an error goes to its sender only)."""
    return render("tables/_message.html", message=message, error=error, oob=oob)


CARD_ATTR = re.compile(r'data-card="([^"]*)"')


def cards_in_html(html: str) -> list[str]:
    """Every face-up card in rendered HTML (each is drawn with ``data-card``)."""
    return CARD_ATTR.findall(html)


def render_felt(seats: SeatsRegion, board: BoardRegion) -> str:
    """The felt's content, the board and the seats, for a page that is not the live table
    (the replayer's steps): the same partials, so the same cards, plates and chips."""
    return _board(board, False) + _seats(seats, False)
