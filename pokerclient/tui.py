"""``poker play`` / ``poker watch``: the table full screen (Textual), live over the socket.

The screen redraws from each state frame (``pokerclient.render``); a key sends one request
(``TableSocket.request``; the add-on, which is the tournament's, through the REST API) and
its refusal, if any, shows as one line. Sitting down and
topping up ask an amount first (``AmountPrompt``, checked by ``pokerclient.seating``). The
clock counts down locally from the frame's ``seconds_left`` between frames (the server owns
the clock).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Header, Input, RichLog, Static

from pokerclient import render, seating
from pokerclient.config import ClientError
from pokerclient.live import TableSocket
from pokerclient.rest import Api

PLAY_KEYS = [
    Binding("f", "act('fold')", "Fold"),
    Binding("c", "act('check_or_call')", "Check/Call"),
    Binding("r", "act('raise')", "Bet/Raise"),
    Binding("a", "act('all_in')", "All-in"),
    Binding("y", "pre_action('y')", "Call any"),
    Binding("3", "act('run_thrice')", "Run three times"),
    Binding("2", "act('run_twice')", "Run twice"),
    Binding("1", "act('run_once')", "Once"),
    Binding("d", "discard", "Draw"),
    Binding("g", "choose_game", "Pick game"),
    Binding("w", "show_cards", "Show cards"),
    Binding("plus,equals_sign,up", "size(1)", "+BB"),
    Binding("minus,down", "size(-1)", "-BB"),
    Binding("m", "size_to('min')", "Min"),
    Binding("x", "size_to('max')", "Max"),
    Binding("s", "sit_down", "Sit down"),
    Binding("t", "top_up", "Top up"),
    Binding("o", "seat('sit_out')", "Sit out"),
    Binding("o", "away", "Away"),
    Binding("i", "seat('sit_in')", "Sit in"),
    Binding("l", "seat('leave')", "Leave"),
    Binding("u", "addon", "Add-on"),
]
#: The keys a tournament's table does not offer (the tournament seats its players: no
#: sitting down, leaving or top-up; sitting out there is "away", still dealt in), and the
#: ones only it offers (the add-on only while its window is open).
CASH_ONLY = {"sit_down", "top_up", "leave", "sit_out"}
TOURNAMENT_ONLY = {"away", "addon"}


class AmountPrompt(ModalScreen[dict[str, Any] | None]):
    """Asks an amount (and, to sit down, a seat: blank for the first free one); Enter checks
    it with ``read`` and returns the request's fields, Escape returns None. A wrong entry is
    one line under the fields and nothing is sent."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    AmountPrompt { align: center middle; }
    AmountPrompt > Vertical { width: 64; height: auto; border: thick $accent; padding: 1 2;
                              background: $surface; }
    AmountPrompt #prompt-error { color: $error; height: auto; }
    """

    def __init__(
        self,
        title: str,
        hint: str,
        amount: int,
        read: Callable[[dict[str, Any]], dict[str, Any]],
        ask_seat: bool = False,
        text: bool = False,
    ) -> None:
        super().__init__()
        self.title_line, self.hint, self.amount, self.read = title, hint, amount, read
        self.ask_seat = ask_seat
        self.text = text  # any text (cards to throw away), not only a number

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_line, style="bold"), id="prompt-title")
            yield Static(Text(self.hint + "   Enter: OK, Escape: cancel"), id="prompt-hint")
            if self.text:
                yield Input("", id="amount")
            else:
                yield Input(str(self.amount), id="amount", restrict=r"[0-9]*")
            if self.ask_seat:
                yield Input(placeholder="seat (blank: the first free one)", id="seat")
            yield Static(id="prompt-error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        values = {field.id or "": field.value for field in self.query(Input)}
        try:
            fields = self.read(values)
        except ClientError as error:
            self.query_one("#prompt-error", Static).update(Text(str(error)))
            return
        self.dismiss(fields)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TableApp(App[None]):
    """One table, watched (``poker watch``); ``PlayApp`` adds the keys that play."""

    TITLE = "poker"
    CSS = """
    #seats { height: auto; border: round $primary; padding: 0 1; }
    #board { height: auto; padding: 0 1; }
    #turn { height: auto; border: round $accent; padding: 0 1; }
    #status { height: 1; color: $warning; padding: 0 1; }
    #log { border: round $secondary; }
    """
    BINDINGS = [Binding("q", "quit", "Quit")]

    watch_only = True

    def __init__(self, server: str, token: str, table_id: int):
        super().__init__()
        self.table_id = table_id
        self.socket = TableSocket(
            server, table_id, token, on_state=self.show_state, on_status=self.show_status
        )
        self.api = Api(server, token)
        self.state: dict[str, Any] | None = None
        self.bet_size: int | None = None
        self.deadline: float | None = None  # monotonic time the actor's clock runs out
        self.log_shown = 0  # how many of the hand's log lines are on screen
        self.log_hand = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield Static("Connecting...", id="board")
            yield Static(id="seats")
            yield Static(id="turn")
            yield Static(id="status")
            yield RichLog(id="log", wrap=True, max_lines=500)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"table {self.table_id}" + (" (watching)" if self.watch_only else "")
        self.run_worker(self._follow(), exclusive=True)
        self.set_interval(0.5, self._tick)

    async def _follow(self) -> None:
        try:
            await self.socket.run()
        except ClientError as error:
            self.show_status(str(error))

    def show_status(self, line: str) -> None:
        # As plain text: a server's message or a key hint like "[s]" is not Rich markup.
        self.query_one("#status", Static).update(Text(line))

    def at_tournament(self) -> bool:
        return self.state is not None and self.state.get("tournament") is not None

    def addon_open(self) -> dict[str, Any] | None:
        """The tournament's add-on while its window is open (``chips``, ``price``), else None."""
        addon = ((self.state or {}).get("tournament") or {}).get("addon")
        return addon if addon and addon["open"] else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the keys this table does not offer (``CASH_ONLY``, ``TOURNAMENT_ONLY``)."""
        name = parameters[0] if action == "seat" and parameters else action
        if name in CASH_ONLY:
            return not self.at_tournament()
        if name == "addon":
            return self.addon_open() is not None
        if name in TOURNAMENT_ONLY:
            return self.at_tournament()
        return True

    def show_state(self, frame: dict[str, Any]) -> None:
        state = frame["state"]
        offered = (self.at_tournament(), self.addon_open() is not None)
        self.state = state
        if (self.at_tournament(), self.addon_open() is not None) != offered:
            self.refresh_bindings()
        legal = state.get("legal")
        if legal is None or legal["min_raise_to"] is None:
            self.bet_size = None
        elif self.bet_size is None or not (
            legal["min_raise_to"] <= self.bet_size <= legal["max_raise_to"]
        ):
            self.bet_size = legal["min_raise_to"]
        seconds = state["clock"]["seconds_left"]
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.query_one("#board", Static).update(render.board_text(state))
        self.query_one("#seats", Static).update(render.seats_table(state))
        self._draw_turn()
        self._draw_log(state)

    def _draw_turn(self) -> None:
        if self.state is None:
            return
        left = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
        turn = render.turn_text(self.state, self.bet_size, left, playing=not self.watch_only)
        self.query_one("#turn", Static).update(turn)

    def _draw_log(self, state: dict[str, Any]) -> None:
        lines = render.log_lines(state)
        log = self.query_one("#log", RichLog)
        key = state.get("hand_number")
        if key != self.log_hand:
            self.log_hand, self.log_shown = key, 0
            if key is not None:
                log.write(f"-- hand #{key} --")
        if len(lines) < self.log_shown:
            self.log_shown = 0
        for line in lines[self.log_shown :]:
            log.write(line)
        self.log_shown = len(lines)

    def _tick(self) -> None:
        if self.deadline is not None:
            self._draw_turn()

    # --- keys ---------------------------------------------------------------------------
    async def action_act(self, kind: str) -> None:
        state = self.state
        legal = state.get("legal") if state else None
        if state is not None and legal is None and state.get("pre_actions"):
            # not your turn: [f] and [c] tick a choice in advance instead
            await self.action_pre_action({"fold": "f", "check_or_call": "c"}.get(kind, ""))
            return
        if state is None or legal is None:
            self.show_status("It is not your turn.")
            return
        if kind == "check_or_call":
            kind = "check" if "check" in legal["actions"] else "call"
        if kind not in legal["actions"]:
            self.show_status(f"You cannot {kind.replace('_', '-')} now.")
            return
        fields: dict[str, Any] = {"kind": kind, "hand": state["hand"], "version": state["version"]}
        if kind == "raise":
            fields["amount"] = self.bet_size
        await self._request("act", **fields)

    async def action_pre_action(self, key: str) -> None:
        """Tick (or untick) the choice ``key`` stands for, to be taken when the turn comes."""
        fields = render.pre_action_for(key, self.state.get("pre_actions") if self.state else None)
        if fields is None:
            self.show_status("Nothing to tick in advance with that key now.")
            return
        await self._request("pre_action", **fields)

    def action_size(self, steps: int) -> None:
        state = self.state
        legal = state.get("legal") if state else None
        if state is None or self.bet_size is None or legal is None:
            return
        step = state["table"]["big_blind"] * steps
        self.bet_size = min(legal["max_raise_to"], max(legal["min_raise_to"], self.bet_size + step))
        self._draw_turn()

    def action_size_to(self, end: str) -> None:
        legal = self.state.get("legal") if self.state else None
        if self.bet_size is not None and legal is not None:
            self.bet_size = legal[f"{end}_raise_to"]
            self._draw_turn()

    async def action_show_cards(self) -> None:
        """Show every card of the hand just over (while the play state offers them)."""
        state = self.state
        you = state.get("you") if state else None
        if state is None or you is None or not you.get("can_show") or not state.get("result"):
            self.show_status("You have no cards to show now.")
            return
        # the hand is over: the state names it in its result (``hand`` is the running one's)
        await self._request("show_cards", hand=state["result"]["hand"])

    async def action_seat(self, op: str) -> None:
        await self._request(op)

    async def action_away(self) -> None:
        """At a tournament's table: sit out, which keeps the player dealt in."""
        await self._request("sit_out")

    async def action_addon(self) -> None:
        """Take the tournament's add-on (``POST /api/tournaments/<id>/addon/``) while its
        window is open; the server says why not otherwise (taken already, in a hand...)."""
        addon = self.addon_open()
        if self.state is None or addon is None:
            self.show_status("There is no add-on to take now.")
            return
        path = f"tournaments/{self.state['tournament']['id']}/addon/"
        try:
            await asyncio.to_thread(self.api.post, path, {})
        except ClientError as error:
            self.show_status(str(error))
            return
        self.show_status(f"Add-on taken: {addon['chips']} chips on your stack.")

    def action_sit_down(self) -> None:
        state = self.state
        if state is None or state.get("you") is None:
            self.show_status("Not connected yet.")
        elif seating.seated(state):
            self.show_status(f"You are in seat {state['you']['seat']} already ([l] leaves).")
        elif not seating.free_seats(state):
            self.show_status("The table is full: you are watching.")
        else:

            def read(values: dict[str, Any]) -> dict[str, Any]:
                return {
                    "buy_in": seating.parse_buy_in(values["amount"], state),
                    "seat": seating.parse_seat(values["seat"], state),
                }

            free = ", ".join(map(str, seating.free_seats(state)))
            prompt = AmountPrompt(
                f"Sit down at {state['table']['name']} (free seats: {free})",
                seating.buy_in_hint(state),
                seating.buy_in_offer(state),
                read,
                ask_seat=True,
            )
            self.push_screen(prompt, callback=self._send_chosen("take_seat"))

    def action_top_up(self) -> None:
        state = self.state
        if state is None or not seating.seated(state):
            self.show_status("Sit down first ([s]).")
            return
        room = state["you"]["top_up_room"]
        if room < 1:
            self.show_status("Your stack is at the table's maximum: nothing to add.")
            return
        prompt = AmountPrompt(
            "Top up from your bankroll (between hands)",
            f"At most {room} chips",
            room,
            lambda values: {"amount": seating.parse_top_up(values["amount"], state)},
        )
        self.push_screen(prompt, callback=self._send_chosen("top_up"))

    def action_discard(self) -> None:
        """A draw game's draw: type the cards to throw away (blank: stand pat)."""
        state = self.state
        legal = state.get("legal") if state else None
        if state is None or legal is None or "discard" not in legal["actions"]:
            self.show_status("There is no draw now.")
            return
        hand, version = state["hand"], state["version"]

        def read(values: dict[str, Any]) -> dict[str, Any]:
            cards = seating.parse_discard(values["amount"], state)
            return {"kind": "discard", "cards": cards, "hand": hand, "version": version}

        prompt = AmountPrompt(
            f"Your draw: {legal.get('hand_words', '')}",
            "The cards to throw away, e.g. 7h 2c (blank: stand pat).",
            0,
            read,
            text=True,
        )
        self.push_screen(prompt, callback=self._send_chosen("act"))

    def action_choose_game(self) -> None:
        """Dealer's choice: pick the orbit's game by its number in the list."""
        state = self.state
        picks = (state or {}).get("choice") or []
        if not picks:
            self.show_status("You are not picking the game now.")
            return
        listed = ", ".join(f"{n}: {pick['name']}" for n, pick in enumerate(picks, start=1))

        def read(values: dict[str, Any]) -> dict[str, Any]:
            return {"game": seating.parse_pick(values["amount"], picks)}

        prompt = AmountPrompt("Dealer's choice: pick the game", listed, 1, read)
        self.push_screen(prompt, callback=self._send_chosen("choose_game"))

    def _send_chosen(self, op: str) -> Callable[[dict[str, Any] | None], Awaitable[None]]:
        """The prompt's callback: send ``op`` with the fields chosen (nothing if cancelled)."""

        async def send(fields: dict[str, Any] | None) -> None:
            if fields is not None:
                await self._request(op, **fields)

        return send

    async def _request(self, op: str, **fields: Any) -> None:
        try:
            answer = await self.socket.request(op, **fields)
        except ClientError as error:
            self.show_status(str(error))
            return
        self.show_status(answer["message"] if answer["error"] or answer["message"] else "")

    async def action_quit(self) -> None:
        await self.socket.stop()
        self.exit()


class PlayApp(TableApp):
    """``poker play``: the table with a key for every action and for the bet size."""

    watch_only = False
    BINDINGS = [*TableApp.BINDINGS, *PLAY_KEYS]
