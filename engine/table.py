"""Between hands, still pure Python: seats, sitting out, busting out, the button, the blinds.

A ``Table`` has numbered seats (clockwise). Each hand takes the seats in play (seated, not
sitting out, chips > 0) in seat order, moves the button to the next one of them after the
previous button (``next_button``), takes the blinds from the ``BlindSchedule`` level for the
hand number, and builds an ``engine.hand.Hand``. ``finish_hand`` writes the final stacks
back; a seat left with no chips busts out (it is emptied). ``play`` runs many hands in a row
with bots, which is what the tests and simulations use.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from engine.errors import PokerError
from engine.hand import Hand, HandConfig


def next_button(seats_in_play: list[int], previous_button: int | None) -> int:
    """The next seat in play clockwise after ``previous_button`` (the first seat when None).

    >>> next_button([1, 4, 7], 4)
    7
    >>> next_button([1, 4, 7], 7)
    1
    >>> next_button([1, 4, 7], 5)
    7
    """
    if not seats_in_play:
        raise PokerError("no seat in play: cannot place the button")
    ordered = sorted(seats_in_play)
    if previous_button is None:
        return ordered[0]
    for seat in ordered:
        if seat > previous_button:
            return seat
    return ordered[0]


@dataclass(frozen=True)
class BlindLevel:
    small_blind: int
    big_blind: int
    ante: int = 0


@dataclass
class BlindSchedule:
    """Blind levels that rise every ``hands_per_level`` hands (the last level stays)."""

    levels: list[BlindLevel]
    hands_per_level: int = 0  # 0: never rises

    def level(self, hand_number: int) -> BlindLevel:
        if not self.levels:
            raise PokerError("a blind schedule needs at least one level")
        if self.hands_per_level <= 0:
            return self.levels[0]
        return self.levels[min(hand_number // self.hands_per_level, len(self.levels) - 1)]


@dataclass
class Seat:
    number: int
    name: str
    stack: int
    sitting_out: bool = False


@dataclass
class Table:
    """Seats ``0..seats-1``; ``config`` gives the game and structure, the schedule the stakes."""

    seats: int
    config: HandConfig = field(default_factory=HandConfig)
    schedule: BlindSchedule | None = None
    rng: random.Random = field(default_factory=random.Random)
    occupants: dict[int, Seat] = field(default_factory=dict)
    button: int | None = None
    hands_played: int = 0
    busted: list[str] = field(default_factory=list)
    _hand_seats: list[int] = field(default_factory=list)

    def join(self, seat: int, name: str, stack: int) -> None:
        if not 0 <= seat < self.seats:
            raise PokerError(f"no seat {seat} at a {self.seats}-seat table")
        if seat in self.occupants:
            raise PokerError(f"seat {seat} is taken")
        if stack < 1:
            raise PokerError("a player joins with at least one chip")
        if any(s.name == name for s in self.occupants.values()):
            raise PokerError(f"{name} is already seated")
        self.occupants[seat] = Seat(seat, name, stack)

    def leave(self, seat: int) -> int:
        """Empty the seat and return its chips."""
        occupant = self.occupants.pop(seat, None)
        if occupant is None:
            raise PokerError(f"seat {seat} is empty")
        return occupant.stack

    def sit_out(self, seat: int) -> None:
        self._occupant(seat).sitting_out = True

    def sit_in(self, seat: int) -> None:
        self._occupant(seat).sitting_out = False

    def _occupant(self, seat: int) -> Seat:
        if seat not in self.occupants:
            raise PokerError(f"seat {seat} is empty")
        return self.occupants[seat]

    def seats_in_play(self) -> list[int]:
        return sorted(n for n, s in self.occupants.items() if not s.sitting_out and s.stack > 0)

    def current_config(self) -> HandConfig:
        if self.schedule is None:
            return self.config
        level = self.schedule.level(self.hands_played)
        return replace(self.config, small_blind=level.small_blind, big_blind=level.big_blind,
                       ante=level.ante)

    def start_hand(self, deck: list[int] | None = None) -> Hand:
        in_play = self.seats_in_play()
        if len(in_play) < 2:
            raise PokerError("a hand needs two or more players in play")
        self.button = next_button(in_play, self.button)
        if deck is None:
            deck = list(range(52))
            self.rng.shuffle(deck)
        self._hand_seats = in_play
        return Hand(self.current_config(), [self.occupants[s].stack for s in in_play],
                    in_play.index(self.button), deck, [self.occupants[s].name for s in in_play])

    def finish_hand(self, hand: Hand) -> list[str]:
        """Write the final stacks back; returns the names of players who busted out."""
        if not hand.is_over:
            raise PokerError("the hand is not over")
        out = []
        for index, seat in enumerate(self._hand_seats):
            occupant = self.occupants[seat]
            occupant.stack = hand.stacks[index]
            if occupant.stack == 0:
                out.append(occupant.name)
                del self.occupants[seat]
        self.busted.extend(out)
        self.hands_played += 1
        return out

    def play(self, bots: dict, hands: int) -> list[Hand]:
        """Play up to ``hands`` hands with ``bots`` (seat number -> bot); stops early when
        fewer than two players are left in play."""
        played = []
        for _ in range(hands):
            if len(self.seats_in_play()) < 2:
                break
            hand = self.start_hand()
            while not hand.is_over:
                index = hand.actor
                bot = bots[self._hand_seats[index]]
                hand.act(bot.decide(hand.view(index)))
            self.finish_hand(hand)
            played.append(hand)
        return played

    def total_chips(self) -> int:
        return sum(s.stack for s in self.occupants.values())
