"""A hand's rules: the games, bettings and their limits, and ``HandConfig`` (the stakes and
options one hand is dealt with, checked as it is made). ``engine.types`` names them too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import PokerError
from engine.variants import (
    BOARD_STREETS,
    STUD_STREETS as STUD_STREETS,
    VARIANTS,
    Variant,
    variant,
)

#: Cards each player is dealt per game (in stud, over five streets), from the registry.
GAMES = {name: game.hole_cards for name, game in VARIANTS.items()}
#: Most seats per game (each game's module says why).
MAX_SEATS = {name: game.max_seats for name, game in VARIANTS.items()}
#: The seven-card games: antes and a bring-in, no blinds, no board (but a common card).
STUD_GAMES = frozenset(name for name, game in VARIANTS.items() if game.is_stud)
#: The games whose pots are split between the best high and the best eight-or-better low.
HILO_GAMES = frozenset(name for name, game in VARIANTS.items() if game.is_split)
BETTINGS = ("no-limit", "pot-limit", "fixed-limit")
ANTE_MODES = ("per-player", "big-blind")
STREETS = BOARD_STREETS


def is_whole(value: object) -> bool:
    """A whole number that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_straddle(big_blind: int, straddle: int) -> None:
    """The straddle rule: none (0), or a blind raise to at least twice the big blind (the
    smallest full raise over it, as casinos require).

    >>> check_straddle(2, 4)
    >>> check_straddle(2, 3)
    Traceback (most recent call last):
    engine.errors.PokerError: a straddle is at least twice the big blind (4), got 3
    """
    if straddle and straddle < 2 * big_blind:
        raise PokerError(
            f"a straddle is at least twice the big blind ({2 * big_blind}), got {straddle}"
        )


@dataclass(frozen=True, slots=True)
class HandConfig:
    """The rules of one hand (stakes and structure); JSON-able through ``to_dict``.

    Fixed limit: ``small_bet`` defaults to the big blind and ``big_bet`` to twice the small bet.
    Stud games (``STUD_GAMES``) are fixed limit with antes and a ``bring_in`` below the small
    bet; they have no blinds (both 0) and name their ``small_bet``.

    Straddles: ``straddle`` is the first straddle's amount and ``straddles`` how many are
    posted this hand (1 when only ``straddle`` is given): under the gun, then each next seat
    re-straddles double the previous. ``button_straddle``: the one straddle is posted by the
    button instead. ``bomb_pot``: every seat antes this amount instead of the blinds and the
    flop comes with no preflop betting; ``double_board``: the bomb pot is dealt two boards,
    each street burning and dealing board one's cards, then burning and dealing board two's,
    and each pot is split between the boards (the odd chip to board one), each half won on
    its own board (hi-lo: each half split high and low as usual; never run twice). Written
    by ``to_dict`` only when set. ``run_it_twice``: when nobody can bet any more before
    the river, the hand waits for ``run_once``, ``run_twice`` or ``run_thrice`` (the players'
    agreement).

    ``posts``: one hand's posts besides the blinds, as ``(seat, dead, live)``: a player coming
    back after missing their blinds (PokerNow's "posts a missing small blind" and "posts a
    missed big blind"). ``dead`` chips go into the pot as no bet (as an ante); ``live`` is a
    big blind's bet posted out of turn, so that seat may check when the action reaches it.
    Written by ``to_dict`` only when there are some (a table's stakes never have them).
    """

    game: str = "holdem"
    betting: str = "no-limit"
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    ante_mode: str = "per-player"
    straddle: int = 0
    small_bet: int | None = None
    big_bet: int | None = None
    bring_in: int = 0
    straddles: int = 0
    button_straddle: bool = False
    bomb_pot: int = 0
    run_it_twice: bool = False
    double_board: bool = False
    posts: tuple[tuple[int, int, int], ...] = ()

    def __post_init__(self) -> None:
        game = variant(self.game)
        self._check_posts()
        if self.betting not in BETTINGS:
            raise PokerError(f"unknown betting {self.betting!r} (one of {', '.join(BETTINGS)})")
        if self.ante_mode not in ANTE_MODES:
            raise PokerError(
                f"unknown ante_mode {self.ante_mode!r} (one of {', '.join(ANTE_MODES)})"
            )
        if self.straddle and not self.straddles:
            object.__setattr__(self, "straddles", 1)  # the one straddle of older configs
        for flag in ("button_straddle", "run_it_twice", "double_board"):
            if not isinstance(getattr(self, flag), bool):
                raise PokerError(f"{flag} must be true or false, got {getattr(self, flag)!r}")
        if self.double_board and not self.bomb_pot:
            raise PokerError("a double board is a bomb pot's: set bomb_pot")
        for name in (
            "small_blind",
            "big_blind",
            "ante",
            "straddle",
            "bring_in",
            "straddles",
            "bomb_pot",
        ):
            value = getattr(self, name)
            if not is_whole(value) or value < 0:
                raise PokerError(f"{name} must be a whole number of chips >= 0, got {value!r}")
        for name in ("small_bet", "big_bet"):
            value = getattr(self, name)
            if value is not None and (not is_whole(value) or value < 1):
                raise PokerError(f"{name} must be a whole number of chips >= 1, got {value!r}")
        if self.betting not in game.bettings:
            raise PokerError(f"{self.game} is played {' or '.join(game.bettings)} only")
        if self.is_stud:
            self._check_stud()
            return
        if self.bring_in:
            raise PokerError("only stud games have a bring-in")
        if game.button_blind:
            self._check_button_blind()
        if game.is_draw:
            self._check_draw()
        if self.big_blind < 1:
            raise PokerError("big_blind must be at least 1 chip")
        if self.small_blind > self.big_blind:
            raise PokerError("small_blind must not be larger than big_blind")
        check_straddle(self.big_blind, self.straddle)
        self._check_straddles()

    def double_board_fits(self, players: int) -> bool:
        """``double_board_fits`` for this game."""
        return double_board_fits(self.game, players)

    def _check_posts(self) -> None:
        try:
            posts = tuple((int(seat), int(dead), int(live)) for seat, dead, live in self.posts)
        except (TypeError, ValueError):
            raise PokerError(f"posts are (seat, dead, live) triples, got {self.posts!r}") from None
        object.__setattr__(self, "posts", posts)  # JSON gives lists
        seats = [seat for seat, _, _ in posts]
        if len(set(seats)) != len(seats) or any(seat < 0 for seat in seats):
            raise PokerError(f"posts name each seat once, by index >= 0: {seats}")
        for _, dead, live in posts:
            if dead < 0 or live not in (0, self.big_blind) or not (dead or live):
                raise PokerError(
                    f"a post is dead chips >= 0 and a live big blind ({self.big_blind}) or "
                    f"nothing, got dead {dead} live {live}"
                )
        if posts and (self.variant.is_stud or self.variant.button_blind or self.bomb_pot):
            raise PokerError(f"posts besides the blinds need the two blinds ({self.game})")

    def _check_button_blind(self) -> None:
        """Short deck: antes and the button's one blind (``big_blind``), nothing else."""
        if self.small_blind:
            raise PokerError(f"{self.game} has one blind, the button's: set small_blind to 0")
        if self.straddles or self.button_straddle or self.bomb_pot:
            raise PokerError(f"{self.game} has no straddles or bomb pots")
        if self.run_it_twice:
            raise PokerError(f"{self.game} is not run twice")
        if self.ante_mode != "per-player":
            raise PokerError(f"{self.game} antes are per player")

    def _check_draw(self) -> None:
        """The draw games: blinds and antes, no straddles, bomb pots or second runs (no board)."""
        if self.straddles or self.button_straddle or self.bomb_pot:
            raise PokerError(f"{self.game} has no straddles or bomb pots")
        if self.run_it_twice:
            raise PokerError(f"{self.game} is not run twice (it has no board to run)")

    def _check_straddles(self) -> None:
        if self.straddles and not self.straddle:
            raise PokerError("straddles need the first straddle's amount (straddle)")
        if self.straddles > self.max_seats - 2:
            raise PokerError(
                f"at most {self.max_seats - 2} straddles in {self.game} (every seat but the "
                f"blinds), got {self.straddles}"
            )
        if self.button_straddle and self.straddles != 1:
            raise PokerError("the button straddle is the only straddle: set straddles to 1")
        if self.bomb_pot and self.straddles:
            raise PokerError("a bomb pot has no preflop betting, so no straddles")

    def _check_stud(self) -> None:
        if self.small_blind or self.big_blind or self.straddles or self.button_straddle:
            raise PokerError(f"{self.game} has no blinds or straddle: set them to 0")
        if self.bomb_pot:
            raise PokerError(f"{self.game} has no bomb pots (they are a flop game's)")
        if self.run_it_twice:
            raise PokerError(f"{self.game} is not run twice (it has no board to run)")
        if self.ante_mode != "per-player":
            raise PokerError(f"{self.game} antes are per player")
        if self.small_bet is None:
            raise PokerError(f"{self.game} needs its small_bet")
        if not 1 <= self.bring_in < self.small_bet:
            raise PokerError(
                f"the bring-in is at least 1 chip and below the small bet ({self.small_bet}), "
                f"got {self.bring_in}"
            )

    @property
    def variant(self) -> Variant:
        """The game's rules (``engine.variants``)."""
        return VARIANTS[self.game]

    @property
    def is_stud(self) -> bool:
        return self.variant.is_stud

    @property
    def is_hilo(self) -> bool:
        return self.variant.is_split

    @property
    def streets(self) -> tuple[str, ...]:
        return self.variant.streets

    @property
    def straddle_amounts(self) -> tuple[int, ...]:
        """Each straddle in posting order, each double the previous."""
        return tuple(self.straddle << k for k in range(self.straddles))

    @property
    def hole_count(self) -> int:
        return self.variant.hole_cards

    @property
    def max_seats(self) -> int:
        return self.variant.max_seats

    @property
    def fixed_small_bet(self) -> int:
        return self.small_bet if self.small_bet is not None else self.big_blind

    @property
    def fixed_big_bet(self) -> int:
        return self.big_bet if self.big_bet is not None else 2 * self.fixed_small_bet

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "betting": self.betting,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "ante_mode": self.ante_mode,
            "straddle": self.straddle,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "bring_in": self.bring_in,
            "straddles": self.straddles,
            "button_straddle": self.button_straddle,
            "bomb_pot": self.bomb_pot,
            "run_it_twice": self.run_it_twice,
        } | (
            ({"posts": [list(post) for post in self.posts]} if self.posts else {})
            | ({"double_board": True} if self.double_board else {})
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | HandConfig) -> HandConfig:
        if isinstance(data, HandConfig):
            return data
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise PokerError(f"unknown hand config field(s): {', '.join(sorted(unknown))}")
        return cls(**data)


def double_board_fits(game: str, players: int) -> bool:
    """Whether ``players`` hands of ``game`` leave the cards for two boards (each burns three
    and deals five): not Omaha at ten seats."""
    rules = variant(game)
    return players * rules.hole_cards + 16 <= rules.deck_size
