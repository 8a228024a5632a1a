"""A hand's state: its inputs checked, every per-seat and per-street field the rules act on,
and the queries that read them (``engine.hand.machine.Hand`` adds the rules and commands).

Seats are indices ``0..n-1`` of the ``stacks``/``players`` lists, clockwise; ``button`` is one
of them. Heads-up the button posts the small blind; with three or more seats the two seats
left of the button post the blinds. Stud and bomb pots have no blinds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.cards import ALL_CARDS, Card, check_deck
from engine.errors import PokerError
from engine.pots import Pot, build_pots, uncalled
from engine.types import (
    MOST_RUNS,
    Action,
    Event,
    EventKind,
    HandConfig,
    Result,
    is_whole,
)
from engine.view import View

__all__ = ["BOARD_SIZES", "HandState"]

# The board cards dealt on each street: preflop, flop, turn, river.
BOARD_SIZES = (0, 3, 1, 1)


class HandState:
    """The fields of one hand and its queries; dealing nothing yet (``Hand`` starts it)."""

    def __init__(
        self,
        config: HandConfig | Mapping[str, Any],
        stacks: Sequence[int],
        button: int,
        deck: Iterable[int],
        players: Sequence[str] | None = None,
    ) -> None:
        config = HandConfig.from_dict(config) if not isinstance(config, HandConfig) else config
        stacks = list(stacks)
        n = len(stacks)
        if not 2 <= n <= config.max_seats:
            raise PokerError(f"{config.game} needs 2 to {config.max_seats} seats, got {n}")
        for s in stacks:
            if not is_whole(s) or s < 1:
                raise PokerError(f"every stack must be a whole number of chips >= 1, got {s!r}")
        if not is_whole(button) or not 0 <= button < n:
            raise PokerError(f"button must be a seat index 0..{n - 1}, got {button!r}")
        deck = list(deck)
        check_deck(deck)
        if players is None:
            players = [f"p{i + 1}" for i in range(n)]
        players = [str(p) for p in players]
        if len(players) != n:
            raise PokerError(f"{len(players)} player names for {n} stacks")
        if config.straddles and n < config.straddles + 2:
            raise PokerError(
                "a straddle needs three or more players"
                if config.straddles == 1
                else f"{config.straddles} straddles need {config.straddles + 2} or more players"
            )
        if any(seat >= n for seat, _, _ in config.posts):
            raise PokerError(f"a post names a seat past the {n} seats")
        if config.double_board and not config.double_board_fits(n):
            raise PokerError(
                f"{n} hands of {config.hole_count} cards leave too few cards for two boards "
                "(each burns three and deals five)"
            )
        stud = config.is_stud

        self.config = config
        self.players = tuple(players)
        self.button = button
        self.starting_stacks = tuple(stacks)
        self._n = n
        # The game's cards of the shuffled 52, in their order (short deck: sixes and up).
        playing = config.variant.deck
        self._deck = [ALL_CARDS[c] for c in deck if c in playing]
        self._next_card = 0
        self._stacks = stacks
        self._bets = [0] * n
        self._committed = [0] * n
        self._folded = [False] * n
        self._all_in = [False] * n
        self._to_act = [False] * n
        self._acted_at: list[int | None] = [None] * n
        self.hole: list[tuple[Card, ...]] = [()] * n
        # Which of each seat's cards are face up (stud), parallel to ``hole``.
        self.up: list[tuple[bool, ...]] = [()] * n
        self.board: list[Card] = []
        # Run it twice or three times: the second and third runs' whole boards (the cards
        # before the run-out, then their own), the runs chosen (None until asked), whether
        # the hand waits for that choice. A double-board bomb pot: board two is
        # ``second_board``, dealt street by street with board one.
        self.second_board: list[Card] = []
        self.third_board: list[Card] = []
        self._runs: int | None = None
        self._runs_due = False
        self._run_from = 0  # the street the runs part from
        # Events before the moment no more betting was possible with two or more hands live.
        self._betting_closed: int | None = None
        self._stud = stud
        self._draw = config.variant.is_draw
        self._last_street = len(config.streets) - 1
        # The draw games: the deck as given (seeds a reshuffle; its text is made there, not
        # for every hand built), whether the actor is to discard, the seats still to discard
        # this round, how many each is to be dealt (None: not discarded this round), each
        # seat's discards, and the counts drawn.
        self._dealt_from = deck
        self._draw_due = False
        self._drawers: list[int] = []
        self._to_draw: list[int | None] = [None] * n
        self._discarded: list[list[Card]] = [[] for _ in range(n)]
        self.drawn: list[list[int]] = [[] for _ in range(n)]
        self._reshuffles = 0
        self._recorded: list[list[Card | None]] = []  # a replayed record's draws
        # Stud: the bring-in is still to be posted or completed; the completion's target.
        self._bring_in_due = False
        self._completion_to = 0
        # Seats whose lone check the hand skipped (the only one left who could act, facing
        # nothing): (seat, decisions made before it). A PHH file may still write that check.
        self.skipped_checks: list[tuple[int, int]] = []
        self._street = 0
        self._over = False
        self._actor: int | None = None
        self._current_bet = 0
        self._last_full = config.big_blind
        self._raises = 0
        self._aggressor: int | None = None
        self._round_aggressor: int | None = None
        self._round_start = 0
        # Dead chips per seat (a big-blind ante, a missed small blind posted dead): in the
        # first pot, but no part of the seat's contribution (``_contributions``).
        self._dead_by_seat = [0] * n
        self.events: list[Event] = []
        # For ``view``: each event as other seats see it, where each seat's hole cards were
        # dealt, and the spectator's view of the latest state with its event count.
        self._others_see: list[Event] = []
        self._deal_index: dict[int, list[int]] = {}
        #: Where each street began: (its first event's index, the decisions made before it).
        #: Street 0 begins with the hand; a hole-card broadcast (``tables.presenters.broadcast``)
        #: reads from it which street each card was dealt on.
        self.street_starts: list[tuple[int, int]] = [(0, 0)]
        self._public: tuple[int, View] | None = None
        self._actions: list[Action] = []
        self._result: Result | None = None
        self._shown: dict[int, tuple[tuple[Card, ...], str]] = {}
        self._mucked: set[int] = set()
        # Seats a history records as mucking at the showdown (``Payout.concede_at_showdown``).
        self._conceded: frozenset[int] = frozenset()
        # Once the hand is over, the cards each seat chose to show (``Views.reveal``).
        self._revealed: dict[int, tuple[Card, ...]] = {}
        self.small_blind_seat: int | None
        self.big_blind_seat: int | None
        if stud or config.bomb_pot:
            self.small_blind_seat = self.big_blind_seat = None
        elif config.variant.button_blind:  # heads-up the other seat posts it (pokerkit)
            self.small_blind_seat, self.big_blind_seat = None, button if n > 2 else 1 - button
        elif n == 2:
            self.small_blind_seat, self.big_blind_seat = button, (button + 1) % n
        else:
            self.small_blind_seat, self.big_blind_seat = (button + 1) % n, (button + 2) % n
        # Under the gun and the re-straddles after it, or the button alone.
        self.straddle_seats: tuple[int, ...] = (
            (button,)
            if config.button_straddle
            else tuple((button + 3 + k) % n for k in range(config.straddles))
        )
        self.straddle_seat = self.straddle_seats[0] if self.straddle_seats else None

    def _order(self) -> list[int]:
        """Every seat, from the left of the button round to the button."""
        n = self._n
        return [(self.button + k) % n for k in range(1, n + 1)]

    def _pay(self, j: int, amount: int) -> None:
        self._stacks[j] -= amount
        self._bets[j] += amount
        self._committed[j] += amount
        if self._stacks[j] == 0:
            self._all_in[j] = True

    def _return_uncalled(self) -> None:
        back = uncalled(self._bets)
        if back is not None:
            seat, amount = back
            self._stacks[seat] += amount
            self._committed[seat] -= amount
            self._bets[seat] -= amount
            if amount and self._all_in[seat]:
                self._all_in[seat] = False
            self.events.append(Event(EventKind.RETURN, seat, amount))

    # ------------------------------------------------------------------ queries
    @property
    def runs_due(self) -> bool:
        """The hand waits for the choice of runs: ``run_once``, ``run_twice`` or
        ``run_thrice`` (``choose_runs``)."""
        return self._runs_due

    @property
    def draw_due(self) -> bool:
        """The actor is to discard (a draw game's draw round)."""
        return self._draw_due

    @property
    def runs(self) -> int:
        """How many times the board was run (2 or 3 only after ``run_twice``/``run_thrice``)."""
        return self._runs or 1

    @property
    def most_runs(self) -> int:
        """While ``runs_due``: the most times the rest of the board can be run, each run
        burning and dealing its streets from the deck left (3 at most; Omaha at a full table
        has cards for fewer). 1 otherwise."""
        if not self._runs_due:
            return 1
        each = sum(1 + BOARD_SIZES[street] for street in range(self._street + 1, 4))
        return max(1, min(MOST_RUNS, (len(self._deck) - self._next_card) // each))

    @property
    def boards(self) -> list[list[Card]]:
        """Every board of the hand: the first, then each later run's once dealt."""
        return [self.board] + [b for b in (self.second_board, self.third_board) if b]

    @property
    def no_more_betting(self) -> bool:
        """Nobody can bet any more and two or more hands are live (an all-in run-out or
        showdown): the moment every live hand may be turned face up."""
        return self._betting_closed is not None

    @property
    def runout_start(self) -> int | None:
        """How many events the hand had when no more betting became possible (the run-out's
        cards are the board events after it), or ``None``."""
        return self._betting_closed

    @property
    def actor(self) -> int | None:
        """Seat to act, or ``None`` when the hand is over."""
        return self._actor

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def street(self) -> str:
        if self._over:
            return "over"
        return self.config.streets[self._street]

    @property
    def stacks(self) -> tuple[int, ...]:
        return tuple(self._stacks)

    @property
    def bets(self) -> tuple[int, ...]:
        """Chips each seat has in front of it on this street (not yet in the pot)."""
        return tuple(self._bets)

    @property
    def committed(self) -> tuple[int, ...]:
        return tuple(self._committed)

    @property
    def folded(self) -> tuple[bool, ...]:
        return tuple(self._folded)

    @property
    def all_in_seats(self) -> tuple[bool, ...]:
        return tuple(self._all_in)

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def seats(self) -> int:
        return self._n

    @property
    def current_bet(self) -> int:
        return self._current_bet

    @property
    def pots(self) -> list[Pot]:
        """Pots from the chips already collected (bets of the current street excluded)."""
        collected = [c - b for c, b in zip(self._committed, self._bets, strict=True)]
        collected = [c - d for c, d in zip(collected, self._dead_by_seat, strict=True)]
        live = [not f for f in self._folded]
        return build_pots(collected, live, sum(self._dead_by_seat))

    @property
    def total_pot(self) -> int:
        return sum(self._committed)

    @property
    def result(self) -> Result | None:
        return self._result
