"""The hand state machine: one hand of hold'em or Omaha, any betting structure.

Seats are indices ``0..n-1`` of the ``stacks``/``players`` lists, clockwise; ``button`` is one
of them. Only decisions are left open: posting, dealing, collecting, returning uncalled bets,
side pots, showdown and payouts happen by themselves.

Dealing order (so a hand is fully determined by its deck): hole cards one at a time,
round-robin, starting with the seat left of the button (heads-up: the big blind) and ending
with the button, as many rounds as the game has hole cards; then burn one card and deal three
(flop), burn and deal one (turn), burn and deal one (river).

Each command (``fold``, ``check``, ``call``, ``bet_or_raise_to``, ``all_in``) verifies first and
raises ``IllegalAction`` naming the rule broken, changing nothing; otherwise it returns the
events it caused. ``view(seat)`` is the one place hidden information is filtered.

House rules implemented (see DESIGN.md), with the choices this engine makes where the
rules leave room:

* Heads-up the button posts the small blind, acts first before the flop and last after it.
* Forced bets are posted in this order: per-player antes (each seat from the left of the
  button), small blind, big blind, the big-blind ante (after the blind: the blind has
  priority when the stack is short), straddle (the seat left of the big blind; needs three or
  more players). Anyone short posts what they have and is all-in.
* A big-blind ante is dead money: it is in the pot but does not count toward the big
  blind's bet. Per-player antes are dead too (they never count as a bet).
* A big blind (or small blind) posted all-in for less still makes the others call the full
  big blind. A full straddle is a blind raise: the next full raise is to twice the straddle.
* No-limit: a bet is at least the big blind, a raise at least the largest full bet or raise
  this street; all-in for less is always allowed. A short all-in does not reopen betting for
  a seat that already acted, unless the raises since that seat last acted add up to a full
  raise. Folding is only allowed when facing a bet (otherwise check). Raising is not allowed
  when no other player left could put in more than the current bet.
* Pot-limit: the largest raise is to the pot after calling. Fixed limit: bets and raises are
  one small bet (preflop, flop) or big bet (turn, river); one bet and three raises per street
  (the big blind counts as the preflop bet); no cap while only two players are in the hand.
  An all-in for less than a full bet is not a raise that counts toward the cap.
* A seat that is the only one left who can act only acts when it faces more chips than it
  has put in; otherwise the remaining board is dealt out.
* The uncalled part of the largest bet is returned at the end of each betting round.
* Side pots are built from contributions; each pot goes to the best eligible hand(s); odd
  chips go one at a time to the winners in seat order starting left of the button.
* Showdown order: the last aggressor of the last betting round shows first, else the first
  live seat left of the button. Auto-muck rule: if any live seat is all-in (an all-in
  showdown) every live hand is shown; otherwise, in showdown order, a hand is shown when it is
  at least as good as the best hand shown so far and mucked unseen when it is beaten.
  Winning hands are therefore always shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.cards import ALL_CARDS, Card, check_deck, format_cards
from engine.errors import IllegalAction, PokerError
from engine.pots import Pot, build_pots, split_pot, uncalled

GAMES = {"holdem": 2, "omaha": 4}
MAX_SEATS = {"holdem": 12, "omaha": 10}
BETTINGS = ("no-limit", "pot-limit", "fixed-limit")
ANTE_MODES = ("per-player", "big-blind")
STREETS = ("preflop", "flop", "turn", "river")
ACTION_KINDS = ("fold", "check", "call", "raise", "all_in")
_BOARD_SIZES = (0, 3, 1, 1)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class HandConfig:
    """The rules of one hand (stakes and structure); JSON-able through ``to_dict``.

    Fixed limit: ``small_bet`` defaults to the big blind and ``big_bet`` to twice the small bet.
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

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise PokerError(f"unknown game {self.game!r} (one of {', '.join(GAMES)})")
        if self.betting not in BETTINGS:
            raise PokerError(f"unknown betting {self.betting!r} (one of {', '.join(BETTINGS)})")
        if self.ante_mode not in ANTE_MODES:
            raise PokerError(f"unknown ante_mode {self.ante_mode!r} (one of {', '.join(ANTE_MODES)})")
        for name in ("small_blind", "big_blind", "ante", "straddle"):
            value = getattr(self, name)
            if not _is_int(value) or value < 0:
                raise PokerError(f"{name} must be a whole number of chips >= 0, got {value!r}")
        if self.big_blind < 1:
            raise PokerError("big_blind must be at least 1 chip")
        if self.small_blind > self.big_blind:
            raise PokerError("small_blind must not be larger than big_blind")
        if self.straddle and self.straddle <= self.big_blind:
            raise PokerError("a straddle must be larger than the big blind")
        for name in ("small_bet", "big_bet"):
            value = getattr(self, name)
            if value is not None and (not _is_int(value) or value < 1):
                raise PokerError(f"{name} must be a whole number of chips >= 1, got {value!r}")

    @property
    def hole_count(self) -> int:
        return GAMES[self.game]

    @property
    def max_seats(self) -> int:
        return MAX_SEATS[self.game]

    @property
    def fixed_small_bet(self) -> int:
        return self.small_bet if self.small_bet is not None else self.big_blind

    @property
    def fixed_big_bet(self) -> int:
        return self.big_bet if self.big_bet is not None else 2 * self.fixed_small_bet

    def to_dict(self) -> dict:
        return {"game": self.game, "betting": self.betting, "small_blind": self.small_blind,
                "big_blind": self.big_blind, "ante": self.ante, "ante_mode": self.ante_mode,
                "straddle": self.straddle, "small_bet": self.small_bet, "big_bet": self.big_bet}

    @classmethod
    def from_dict(cls, data: dict) -> HandConfig:
        if isinstance(data, HandConfig):
            return data
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise PokerError(f"unknown hand config field(s): {', '.join(sorted(unknown))}")
        return cls(**data)


@dataclass(frozen=True, slots=True)
class Action:
    """A decision: ``fold``, ``check``, ``call``, ``raise`` (to a street total) or ``all_in``.

    >>> Action.parse("raise 120")
    Action(kind='raise', amount=120)
    >>> str(Action("raise", 120))
    'raise 120'
    """

    kind: str
    amount: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ACTION_KINDS:
            raise PokerError(f"unknown action {self.kind!r} (one of {', '.join(ACTION_KINDS)})")
        if self.kind == "raise":
            if not _is_int(self.amount) or self.amount < 1:
                raise PokerError(f"a raise needs a whole amount of chips, got {self.amount!r}")
        elif self.amount is not None:
            raise PokerError(f"{self.kind} takes no amount")

    def __str__(self) -> str:
        return f"raise {self.amount}" if self.kind == "raise" else self.kind

    @classmethod
    def parse(cls, text: str) -> Action:
        parts = text.split()
        if len(parts) == 2 and parts[0] in ("raise", "bet"):
            try:
                return cls("raise", int(parts[1]))
            except ValueError:
                raise PokerError(f"not an action: {text!r}") from None
        if len(parts) == 1:
            kind = parts[0].replace("-", "_")
            return cls("all_in" if kind == "allin" else kind)
        raise PokerError(f"not an action: {text!r}")

    def to_dict(self) -> dict:
        return {"kind": self.kind, "amount": self.amount}

    @classmethod
    def from_dict(cls, data: dict) -> Action:
        return cls(data["kind"], data.get("amount"))

    @classmethod
    def coerce(cls, value: Action | str | dict) -> Action:
        if isinstance(value, Action):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, dict):
            return cls.from_dict(value)
        raise PokerError(f"not an action: {value!r}")


class Legal(NamedTuple):
    """What the actor may do. ``call`` is the chips to add (0 when checking is possible);
    ``min_raise_to``/``max_raise_to`` are street totals, ``None`` when no bet/raise is allowed."""

    fold: bool
    check: bool
    call: int
    min_raise_to: int | None
    max_raise_to: int | None

    def to_dict(self) -> dict:
        return self._asdict()


class Event(NamedTuple):
    """Something that happened; prints as a PHH-like line (``p2 cbr 300``, ``d db 7h``).

    Seats print as ``p<seat+1>`` in this hand's seat order. Lines that PHH has no action for
    (forced bets, returned bets, winnings) print as ``#`` comments.
    """

    kind: str
    seat: int | None = None
    amount: int = 0
    cards: tuple = ()
    text: str = ""

    def __str__(self) -> str:
        p = f"p{self.seat + 1}" if self.seat is not None else ""
        k = self.kind
        if k == "deal_hole":
            return f"d dh {p} {format_cards(self.cards) if self.cards else '????'}"
        if k == "deal_board":
            return f"d db {format_cards(self.cards)}"
        if k == "fold":
            return f"{p} f"
        if k in ("check", "call"):
            return f"{p} cc"
        if k in ("bet", "raise"):
            return f"{p} cbr {self.amount}"
        if k == "show":
            return f"{p} sm {format_cards(self.cards)}"
        if k == "muck":
            return f"{p} sm"
        if k == "return":
            return f"# {p} takes back {self.amount} uncalled"
        if k == "win":
            return f"# {p} wins {self.amount}" + (f" ({self.text})" if self.text else "")
        return f"# {p} posts {k.replace('_', ' ')} {self.amount}"

    def to_dict(self) -> dict:
        return {"kind": self.kind, "seat": self.seat, "amount": self.amount,
                "cards": [str(c) for c in self.cards], "text": self.text}


class Award(NamedTuple):
    """One pot's payout: pot index, its chips, the winning seats and their shares."""

    pot: int
    amount: int
    winners: tuple[int, ...]
    amounts: tuple[int, ...]
    description: str

    def to_dict(self) -> dict:
        return {"pot": self.pot, "amount": self.amount, "winners": list(self.winners),
                "amounts": list(self.amounts), "description": self.description}


class Result(NamedTuple):
    """How a finished hand ended: per-seat net chips, awards, and the hands shown."""

    net: tuple[int, ...]
    awards: tuple[Award, ...]
    shown: dict  # seat -> (cards tuple, description)

    def to_dict(self) -> dict:
        return {"net": list(self.net), "awards": [a.to_dict() for a in self.awards],
                "shown": {str(s): {"cards": [str(c) for c in cards], "description": d}
                          for s, (cards, d) in self.shown.items()}}


class Hand:
    """One hand; see the module docstring for the rules and the dealing order."""

    def __init__(self, config: HandConfig | dict, stacks: Sequence[int], button: int,
                 deck: Iterable[int], players: Sequence[str] | None = None) -> None:
        config = HandConfig.from_dict(config) if not isinstance(config, HandConfig) else config
        stacks = list(stacks)
        n = len(stacks)
        if not 2 <= n <= config.max_seats:
            raise PokerError(f"{config.game} needs 2 to {config.max_seats} seats, got {n}")
        for s in stacks:
            if not _is_int(s) or s < 1:
                raise PokerError(f"every stack must be a whole number of chips >= 1, got {s!r}")
        if not _is_int(button) or not 0 <= button < n:
            raise PokerError(f"button must be a seat index 0..{n - 1}, got {button!r}")
        deck = list(deck)
        check_deck(deck)
        if players is None:
            players = [f"p{i + 1}" for i in range(n)]
        players = [str(p) for p in players]
        if len(players) != n:
            raise PokerError(f"{len(players)} player names for {n} stacks")
        if config.straddle and n < 3:
            raise PokerError("a straddle needs three or more players")

        self.config = config
        self.players = tuple(players)
        self.button = button
        self.starting_stacks = tuple(stacks)
        self._n = n
        self._deck = [ALL_CARDS[c] for c in deck]
        self._next_card = 0
        self._stacks = stacks
        self._bets = [0] * n
        self._committed = [0] * n
        self._folded = [False] * n
        self._all_in = [False] * n
        self._to_act = [False] * n
        self._acted_at: list[int | None] = [None] * n
        self.hole: list[tuple[Card, ...]] = [()] * n
        self.board: list[Card] = []
        self._street = 0
        self._over = False
        self._actor: int | None = None
        self._current_bet = 0
        self._last_full = config.big_blind
        self._raises = 0
        self._aggressor: int | None = None
        self._round_aggressor: int | None = None
        self._round_start = 0
        self._dead = 0  # a big-blind ante: in the pot, but nobody's contribution
        self.events: list[Event] = []
        # Each event as PHH-style text, and for dealt hole cards also as others see it
        # (``view`` is asked for every viewer after every action: formatted once each).
        self._event_texts: list[tuple[str, str | None, int | None]] = []
        self._actions: list[Action] = []
        self._result: Result | None = None
        self._shown: dict = {}
        self._mucked: set[int] = set()
        if n == 2:
            self.small_blind_seat, self.big_blind_seat = button, (button + 1) % n
        else:
            self.small_blind_seat, self.big_blind_seat = (button + 1) % n, (button + 2) % n
        self.straddle_seat = (button + 3) % n if config.straddle else None
        self._start()

    # ------------------------------------------------------------------ set-up
    def _post(self, seat: int, amount: int, kind: str, bet: bool) -> None:
        amount = min(amount, self._stacks[seat])
        if amount <= 0:
            return
        self._stacks[seat] -= amount
        self._committed[seat] += amount
        if bet:
            self._bets[seat] += amount
        if self._stacks[seat] == 0:
            self._all_in[seat] = True
        self.events.append(Event(kind, seat, amount))

    def _start(self) -> None:
        c = self.config
        n = self._n
        order = [(self.button + k) % n for k in range(1, n + 1)]
        if c.ante and c.ante_mode == "per-player":
            for seat in order:
                self._post(seat, c.ante, "ante", False)
        self._post(self.small_blind_seat, c.small_blind, "small_blind", True)
        self._post(self.big_blind_seat, c.big_blind, "big_blind", True)
        if c.ante and c.ante_mode == "big-blind":
            before = self._committed[self.big_blind_seat]
            self._post(self.big_blind_seat, c.ante, "ante", False)
            self._dead = self._committed[self.big_blind_seat] - before
        self._current_bet = c.big_blind
        self._last_full = c.fixed_small_bet if c.betting == "fixed-limit" else c.big_blind
        self._raises = 1
        first = (self.big_blind_seat + 1) % n
        if self.straddle_seat is not None:
            s = self.straddle_seat
            self._post(s, c.straddle, "straddle", True)
            if self._bets[s] > c.big_blind:
                self._current_bet = self._bets[s]
                if self._bets[s] == c.straddle:
                    self._last_full = c.straddle
                    self._raises = 2
            first = (s + 1) % n
        # deal hole cards
        deck = self._deck
        pos = 0
        holes: list[list[Card]] = [[] for _ in range(n)]
        for _ in range(c.hole_count):
            for seat in order:
                holes[seat].append(deck[pos])
                pos += 1
        self._next_card = pos
        self.hole = [tuple(h) for h in holes]
        for seat in order:
            self.events.append(Event("deal_hole", seat, 0, self.hole[seat]))
        self._begin_round(first)

    def _begin_round(self, first: int) -> None:
        to_act = self._to_act
        for i in range(self._n):
            to_act[i] = not self._folded[i] and not self._all_in[i]
            self._acted_at[i] = None
        self._round_aggressor = None
        self._round_start = len(self._actions)
        actor = self._find_actor(first)
        if actor is None:
            self._end_round()
        else:
            self._actor = actor

    def _find_actor(self, start: int) -> int | None:
        n = self._n
        to_act = self._to_act
        active = 0
        for i in range(n):
            if not self._folded[i] and not self._all_in[i]:
                active += 1
        bets = self._bets
        for k in range(n):
            j = (start + k) % n
            if to_act[j]:
                if active >= 2:
                    return j
                # the only seat that can act: only if it faces more chips than it put in
                mine = bets[j]
                for i in range(n):
                    if i != j and not self._folded[i] and bets[i] > mine:
                        return j
                to_act[j] = False
        return None

    def _deal_board(self, count: int) -> None:
        deck = self._deck
        pos = self._next_card + 1  # burn one
        cards = tuple(deck[pos:pos + count])
        self._next_card = pos + count
        self.board.extend(cards)
        self.events.append(Event("deal_board", None, 0, cards))

    def _return_uncalled(self) -> None:
        back = uncalled(self._bets)
        if back is not None:
            seat, amount = back
            self._stacks[seat] += amount
            self._committed[seat] -= amount
            self._bets[seat] -= amount
            if amount and self._all_in[seat]:
                self._all_in[seat] = False
            self.events.append(Event("return", seat, amount))

    def _end_round(self) -> None:
        self._return_uncalled()
        bets = self._bets
        for i in range(self._n):
            bets[i] = 0
        if len(self._actions) > self._round_start:  # a betting round took place
            self._aggressor = self._round_aggressor
        self._actor = None
        if self._street == 3:
            self._showdown()
            return
        self._street += 1
        self._current_bet = 0
        c = self.config
        if c.betting == "fixed-limit":
            self._last_full = c.fixed_small_bet if self._street < 2 else c.fixed_big_bet
        else:
            self._last_full = c.big_blind
        self._raises = 0
        self._deal_board(_BOARD_SIZES[self._street])
        self._begin_round((self.button + 1) % self._n)

    # ------------------------------------------------------------------ queries
    @property
    def actor(self) -> int | None:
        """Seat to act, or ``None`` when the hand is over."""
        return self._actor

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def street(self) -> str:
        return "over" if self._over else STREETS[self._street]

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
        collected = [c - b for c, b in zip(self._committed, self._bets)]
        collected[self.big_blind_seat] -= self._dead
        live = [not f for f in self._folded]
        return build_pots(collected, live, self._dead)

    @property
    def total_pot(self) -> int:
        return sum(self._committed)

    @property
    def result(self) -> Result | None:
        return self._result

    @property
    def legal(self) -> Legal | None:
        """The actor's legal actions, or ``None`` when the hand is over."""
        j = self._actor
        if j is None:
            return None
        to_call = self._current_bet - self._bets[j]
        stack = self._stacks[j]
        if to_call > 0:
            fold, check, call = True, False, min(to_call, stack)
        else:
            fold, check, call = False, True, 0
        lo, hi = self._raise_bounds(j)
        return Legal(fold, check, call, lo, hi)

    def _raise_block(self, j: int) -> str | None:
        """Why seat ``j`` may not bet or raise now (``None`` when it may)."""
        to_call = self._current_bet - self._bets[j]
        if self._stacks[j] <= to_call:
            return "not enough chips to raise: the stack only covers a call"
        current = self._current_bet
        for i in range(self._n):
            if (i != j and not self._folded[i] and not self._all_in[i]
                    and self._bets[i] + self._stacks[i] > current):
                break
        else:
            return "no raise when no other player could call more than the current bet"
        acted = self._acted_at[j]
        if acted is not None and self._current_bet - acted < self._last_full:
            return ("betting was not reopened: a short all-in raise does not reopen the "
                    "betting for a player who already acted")
        if (self.config.betting == "fixed-limit" and self._raises >= 4
                and sum(1 for f in self._folded if not f) > 2):
            return "fixed-limit cap: one bet and three raises per street"
        return None

    def _raise_bounds(self, j: int) -> tuple[int | None, int | None]:
        if self._raise_block(j) is not None:
            return None, None
        everything = self._bets[j] + self._stacks[j]
        current = self._current_bet
        betting = self.config.betting
        if betting == "fixed-limit":
            target = min(current + self._last_full, everything)
            return target, target
        lo = current + self._last_full
        hi = everything
        if betting == "pot-limit":
            to_call = current - self._bets[j]
            hi = min(hi, current + sum(self._committed) + to_call)
        return min(lo, hi), hi

    # ------------------------------------------------------------------ commands
    def _check_turn(self, seat: int | None) -> int:
        if self._over:
            raise IllegalAction("the hand is over: no more actions")
        j = self._actor
        if seat is not None and seat != j:
            raise IllegalAction(f"out of turn: seat {seat} acted but seat {j} is to act")
        return j

    def fold(self, *, seat: int | None = None) -> list[Event]:
        j = self._check_turn(seat)
        if self._current_bet - self._bets[j] <= 0:
            raise IllegalAction("no folding when checking is free: check instead")
        mark = len(self.events)
        self._actions.append(Action("fold"))
        self._folded[j] = True
        self._to_act[j] = False
        self.events.append(Event("fold", j))
        live = [i for i in range(self._n) if not self._folded[i]]
        if len(live) == 1:
            self._win_uncontested(live[0])
        else:
            self._next(j)
        return self.events[mark:]

    def check(self, *, seat: int | None = None) -> list[Event]:
        j = self._check_turn(seat)
        if self._current_bet - self._bets[j] > 0:
            raise IllegalAction(f"no checking when facing a bet: call "
                                f"{min(self._current_bet - self._bets[j], self._stacks[j])} or fold")
        mark = len(self.events)
        self._actions.append(Action("check"))
        self._to_act[j] = False
        self._acted_at[j] = self._current_bet
        self.events.append(Event("check", j))
        self._next(j)
        return self.events[mark:]

    def call(self, *, seat: int | None = None) -> list[Event]:
        j = self._check_turn(seat)
        to_call = self._current_bet - self._bets[j]
        if to_call <= 0:
            raise IllegalAction("nothing to call: check instead")
        mark = len(self.events)
        self._actions.append(Action("call"))
        self._pay(j, min(to_call, self._stacks[j]))
        self._to_act[j] = False
        self._acted_at[j] = self._current_bet
        self.events.append(Event("call", j, self._bets[j]))
        self._next(j)
        return self.events[mark:]

    def _pay(self, j: int, amount: int) -> None:
        self._stacks[j] -= amount
        self._bets[j] += amount
        self._committed[j] += amount
        if self._stacks[j] == 0:
            self._all_in[j] = True

    def bet_or_raise_to(self, amount: int, *, seat: int | None = None) -> list[Event]:
        j = self._check_turn(seat)
        self._verify_raise(j, amount)
        mark = len(self.events)
        self._actions.append(Action("raise", amount))
        self._raise(j, amount)
        return self.events[mark:]

    def _verify_raise(self, j: int, amount: int) -> None:
        if not _is_int(amount):
            raise IllegalAction(f"a bet or raise is a whole number of chips, got {amount!r}")
        why = self._raise_block(j)
        if why is not None:
            raise IllegalAction(why)
        lo, hi = self._raise_bounds(j)
        everything = self._bets[j] + self._stacks[j]
        word = "bet" if self._current_bet == 0 else "raise"
        if amount > everything:
            raise IllegalAction(f"more chips than the stack: can {word} to at most {everything}")
        if amount > hi:
            limit = "pot-limit" if self.config.betting == "pot-limit" else "fixed-limit"
            raise IllegalAction(f"{word} above the {limit} maximum: at most {hi}")
        if amount <= self._current_bet:
            raise IllegalAction(f"a raise must be to more than the current bet of {self._current_bet}")
        if amount < lo and amount != everything:
            raise IllegalAction(f"{word} below the minimum: at least {lo} (or all-in for less)")

    def _raise(self, j: int, amount: int) -> None:
        current = self._current_bet
        kind = "bet" if current == 0 else "raise"
        self._pay(j, amount - self._bets[j])
        increment = amount - current
        if increment >= self._last_full:
            if self.config.betting != "fixed-limit":
                self._last_full = increment
            self._raises += 1
        self._current_bet = amount
        self._round_aggressor = j
        self._acted_at[j] = amount
        to_act = self._to_act
        for i in range(self._n):
            to_act[i] = i != j and not self._folded[i] and not self._all_in[i]
        self.events.append(Event(kind, j, amount))
        self._next(j)

    def all_in(self, *, seat: int | None = None) -> list[Event]:
        """Put in the whole stack: a call when it does not cover more, else a bet or raise."""
        j = self._check_turn(seat)
        everything = self._bets[j] + self._stacks[j]
        if everything <= self._current_bet:
            mark = len(self.events)
            self._actions.append(Action("all_in"))
            self._pay(j, self._stacks[j])
            self._to_act[j] = False
            self._acted_at[j] = self._current_bet
            self.events.append(Event("call", j, self._bets[j]))
            self._next(j)
            return self.events[mark:]
        self._verify_raise(j, everything)
        mark = len(self.events)
        self._actions.append(Action("all_in"))
        self._raise(j, everything)
        return self.events[mark:]

    def act(self, action: Action | str | dict, *, seat: int | None = None) -> list[Event]:
        action = Action.coerce(action)
        kind = action.kind
        if kind == "raise":
            return self.bet_or_raise_to(action.amount, seat=seat)
        if kind == "fold":
            return self.fold(seat=seat)
        if kind == "check":
            return self.check(seat=seat)
        if kind == "call":
            return self.call(seat=seat)
        return self.all_in(seat=seat)

    def _next(self, j: int) -> None:
        actor = self._find_actor(j + 1)
        if actor is None:
            self._end_round()
        else:
            self._actor = actor

    # ------------------------------------------------------------------ the end
    def _win_uncontested(self, winner: int) -> None:
        self._return_uncalled()
        self._bets = [0] * self._n
        self._actor = None
        amount = sum(self._committed)
        self._stacks[winner] += amount
        self.events.append(Event("win", winner, amount))
        self._finish((Award(0, amount, (winner,), (amount,), ""),))

    def _finish(self, awards: tuple[Award, ...]) -> None:
        self._over = True
        self._actor = None
        net = tuple(s - s0 for s, s0 in zip(self._stacks, self.starting_stacks))
        self._result = Result(net, awards, dict(self._shown))

    def _showdown_order(self, live: list[int]) -> list[int]:
        n = self._n
        if self._aggressor is not None and not self._folded[self._aggressor]:
            start = self._aggressor
        else:
            start = (self.button + 1) % n
        return sorted(live, key=lambda s: (s - start) % n)

    def _showdown(self) -> None:
        from engine.evaluate import evaluate, evaluate_omaha

        n = self._n
        live = [i for i in range(n) if not self._folded[i]]
        board = self.board
        ranks = {}
        if self.config.game == "omaha":
            for s in live:
                ranks[s] = evaluate_omaha(self.hole[s], board)
        else:
            for s in live:
                ranks[s] = evaluate(list(self.hole[s]) + board)
        all_in_showdown = any(self._all_in[s] for s in live)
        best = None
        for s in self._showdown_order(live):
            r = ranks[s]
            if all_in_showdown or best is None or r >= best:
                self._shown[s] = (self.hole[s], r.description)
                self.events.append(Event("show", s, 0, self.hole[s], r.description))
                if best is None or r > best:
                    best = r
            else:
                self._mucked.add(s)
                self.events.append(Event("muck", s))
        contributions = list(self._committed)
        contributions[self.big_blind_seat] -= self._dead
        pots = build_pots(contributions, [not f for f in self._folded], self._dead)
        awards = []
        for index, pot in enumerate(pots):
            top = max(ranks[s] for s in pot.eligible)
            winners = tuple(s for s in pot.eligible if ranks[s] == top)
            shares = tuple(split_pot(pot.amount, winners, self.button, n))
            for w, share in zip(winners, shares):
                self._stacks[w] += share
                self.events.append(Event("win", w, share, (), top.description))
            awards.append(Award(index, pot.amount, winners, shares, top.description))
        self._finish(tuple(awards))

    # ------------------------------------------------------------------ replay and view
    @classmethod
    def replay(cls, config: HandConfig | dict, stacks: Sequence[int], button: int,
               deck: Iterable[int], actions: Iterable[Action | str | dict],
               players: Sequence[str] | None = None) -> Hand:
        """Rebuild a hand from its inputs; the same inputs always give the same hand."""
        hand = cls(config, stacks, button, deck, players)
        for action in actions:
            hand.act(action)
        return hand

    def _check_viewer(self, viewer: int | None) -> None:
        if viewer is not None and not (_is_int(viewer) and 0 <= viewer < self._n):
            raise PokerError(f"no seat {viewer!r} in this hand")

    def _sees_hole(self, viewer: int | None, seat: int) -> bool:
        """The hidden-card rule: a viewer sees its own hole cards and the hands shown."""
        return seat == viewer or seat in self._shown

    def visible_cards(self, seat: int | None = None) -> frozenset[Card]:
        """Every card ``seat`` (or a spectator, ``None``) may see now, by ``view``'s rule:
        the board, its own hole cards and the hands shown at showdown."""
        self._check_viewer(seat)
        seen = set(self.board)
        for i in range(self._n):
            if self._sees_hole(seat, i):
                seen.update(self.hole[i])
        return frozenset(seen)

    def view(self, seat: int | None = None) -> dict:
        """The hand as ``seat`` (or a spectator, ``None``) may see it: JSON-able.

        Shows the viewer's own hole cards and cards shown at showdown; every other hole card
        is ``None``. Never the deck, burn cards or mucked cards.
        """
        n = self._n
        self._check_viewer(seat)
        seats = []
        for i in range(n):
            if self._sees_hole(seat, i):
                cards = [str(c) for c in self.hole[i]]
            elif self._folded[i] or i in self._mucked:
                cards = []
            else:
                cards = [None] * len(self.hole[i])
            seats.append({
                "seat": i, "name": self.players[i], "stack": self._stacks[i],
                "bet": self._bets[i], "committed": self._committed[i],
                "folded": self._folded[i], "all_in": self._all_in[i], "cards": cards,
                "shown": i in self._shown, "is_button": i == self.button,
                "is_small_blind": i == self.small_blind_seat,
                "is_big_blind": i == self.big_blind_seat,
                "is_straddle": i == self.straddle_seat,
            })
        texts = self._event_texts
        for e in self.events[len(texts):]:  # events are only ever appended
            hidden = str(e._replace(cards=())) if e.kind == "deal_hole" else None
            texts.append((str(e), hidden, e.seat))
        log = [text if hidden is None or owner == seat else hidden
               for text, hidden, owner in texts]
        legal = self.legal if (seat is not None and seat == self._actor) else None
        return {
            "viewer": seat,
            "config": self.config.to_dict(),
            "street": self.street,
            "button": self.button,
            "seats": seats,
            "board": [str(c) for c in self.board],
            "pots": [p.to_dict() for p in self.pots],
            "total_pot": sum(self._committed),
            "current_bet": self._current_bet,
            "actor": self._actor,
            "legal": legal.to_dict() if legal is not None else None,
            "log": log,
            "result": self._result.to_dict() if self._result is not None else None,
        }

    def __repr__(self) -> str:
        return (f"<Hand {self.config.game} {self.config.betting} {self._n} seats "
                f"street={self.street} actor={self._actor} stacks={self._stacks}>")
