"""Player statistics: pure functions over finished engine hands (no database).

``seat_figures(hand)`` reads one finished ``engine.hand.Hand`` (its events) and returns, for
each seat, the facts the statistics count; ``Totals`` adds them up (the database does the same
sums over stored ``PlayerHand`` rows) and ``Totals.stats()`` turns the sums into figures.

Definitions (percentages are 0..100, ``None`` when nobody was ever in the spot):

- hands played: hands dealt in (finished hands only; a voided hand never counts).
- VPIP: voluntarily put chips in preflop (a call, bet or raise; an all-in that calls counts
  as a call) ÷ hands dealt. Posting a blind, an ante or a straddle, or checking the big blind,
  does not count.
- PFR: raised preflop (a raise, including an all-in raise for less than a full raise) ÷ hands
  dealt.
- 3-bet %: re-raised preflop when facing exactly one raise ÷ times in that spot. The spot is a
  player's first preflop decision made when exactly one voluntary raise has been made (the
  blinds and a straddle are not raises), whether or not a re-raise was legal for them.
- aggression factor: postflop bets + raises ÷ postflop calls (a plain ratio; ``None`` with no
  postflop call).
- WTSD: went to showdown ÷ saw the flop. Seeing the flop means not having folded when the
  flop was dealt (an all-in player who is dealt the flop saw it).
- W$SD: won chips at showdown (collected a share of any pot) ÷ showdowns.
- net chips won: collected − contributed, where an uncalled bet returned to its owner is not
  contributed (it equals the change in the player's stack over the hand); cash hands only.
- bb/100: the sum over cash hands of (net ÷ that hand's big blind), times 100 ÷ cash hands.
- biggest pot won: the most chips collected in one cash hand (shares of every pot won in it).

Cash hands: a tournament hand's chips are tournament chips, not bankroll chips, so the three
chip figures above leave tournament hands out; every other figure counts them
(``Totals.add(figures, cash=False)``).

Stud games (stud, stud hi-lo, razz) count the same figures with their own streets: 3rd
street (the first betting round) stands for preflop and 4th street for the flop
(``StreetTracker``). So VPIP is
money put in voluntarily on 3rd street (completing the bring-in, calling or raising; posting
the ante or the bring-in does not count), PFR a completion or raise on 3rd street, 3-bet % a
re-raise facing exactly one completion or raise there, WTSD showdowns ÷ hands that saw 4th
street, and aggression counts 4th to 7th street. Their "big blind" is the small bet (the
fixed-limit unit: limit hold'em's big blind is its small bet too).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from engine.streets import StreetTracker
from engine.types import DECISIONS, EventKind

if TYPE_CHECKING:
    from engine.hand import Hand as EngineHand

_RAISES = frozenset({EventKind.BET, EventKind.RAISE})
_DEALS = frozenset({EventKind.DEAL_UP, EventKind.DEAL_HOLE, EventKind.DEAL_BOARD})


@dataclass(frozen=True, slots=True)
class SeatFigures:
    """What one seat did in one finished hand, as the statistics count it."""

    seat: int
    big_blind: int
    contributed: int
    collected: int
    net: int
    vpip: bool
    pfr: bool
    three_bet_chance: bool
    three_bet: bool
    saw_flop: bool
    showdown: bool
    won_at_showdown: bool
    postflop_aggressive: int
    postflop_calls: int

    @property
    def net_bb(self) -> float:
        return self.net / self.big_blind


def seat_figures(hand: EngineHand) -> list[SeatFigures]:
    """The figures of every seat of a finished engine ``Hand``, in seat order."""
    if not hand.is_over:
        raise ValueError("statistics are only taken from finished hands")
    n = hand.seats
    vpip = [False] * n
    pfr = [False] * n
    chance = [False] * n
    three_bet = [False] * n
    spot_seen = [False] * n
    saw_flop = [False] * n
    folded = [False] * n
    showdown = [False] * n
    collected = [0] * n
    aggressive = [0] * n
    calls = [0] * n
    preflop_raises = 0
    stud = hand.config.is_stud
    streets = StreetTracker(hand.config.variant.structure)
    for event in hand.events:
        kind, seat = event.kind, event.seat
        if streets.see(event) and streets.street == 1:
            for i in range(n):
                saw_flop[i] = not folded[i]
        street = streets.street
        if kind in _DEALS or seat is None:  # what follows is a seat's: shown, won, decided
            continue
        if kind is EventKind.SHOW or kind is EventKind.MUCK:
            showdown[seat] = True
            continue
        if kind is EventKind.WIN:
            collected[seat] += event.amount
            continue
        if kind not in DECISIONS:
            continue  # forced bets, dealing, returned bets
        if kind is EventKind.BRING_IN:
            continue  # stud's bring-in is forced, like a blind
        if kind is EventKind.FOLD:
            folded[seat] = True
        if street == 0:
            if not spot_seen[seat] and preflop_raises == 1:
                spot_seen[seat] = True
                chance[seat] = True
                three_bet[seat] = kind in _RAISES
            if kind in _RAISES:
                preflop_raises += 1
                pfr[seat] = True
                vpip[seat] = True
            elif kind is EventKind.CALL:
                vpip[seat] = True
        elif kind in _RAISES:
            aggressive[seat] += 1
        elif kind is EventKind.CALL:
            calls[seat] += 1
    big_blind = hand.config.fixed_small_bet if stud else hand.config.big_blind
    committed = hand.committed
    result = hand.result
    assert result is not None  # the hand is over (checked above)
    net = result.net
    return [
        SeatFigures(
            seat=i,
            big_blind=big_blind,
            contributed=committed[i],
            collected=collected[i],
            net=net[i],
            vpip=vpip[i],
            pfr=pfr[i],
            three_bet_chance=chance[i],
            three_bet=three_bet[i],
            saw_flop=saw_flop[i],
            showdown=showdown[i],
            won_at_showdown=showdown[i] and collected[i] > 0,
            postflop_aggressive=aggressive[i],
            postflop_calls=calls[i],
        )
        for i in range(n)
    ]


def _percent(part: int, whole: int) -> float | None:
    return round(100.0 * part / whole, 2) if whole else None


@dataclass(slots=True)
class Totals:
    """Sums of ``SeatFigures`` over a player's hands (what the database aggregates)."""

    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet_chances: int = 0
    three_bets: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    won_at_showdown: int = 0
    postflop_aggressive: int = 0
    postflop_calls: int = 0
    cash_hands: int = 0
    net: int = 0
    net_bb: float = 0.0
    biggest_pot_won: int = 0

    def add(self, figures: SeatFigures, cash: bool = True) -> Totals:
        """Count one hand; ``cash=False`` for a tournament hand (no chip figures)."""
        self.hands += 1
        self.vpip += figures.vpip
        self.pfr += figures.pfr
        self.three_bet_chances += figures.three_bet_chance
        self.three_bets += figures.three_bet
        self.saw_flop += figures.saw_flop
        self.showdowns += figures.showdown
        self.won_at_showdown += figures.won_at_showdown
        self.postflop_aggressive += figures.postflop_aggressive
        self.postflop_calls += figures.postflop_calls
        if cash:
            self.cash_hands += 1
            self.net += figures.net
            self.net_bb += figures.net_bb
            self.biggest_pot_won = max(self.biggest_pot_won, figures.collected)
        return self

    @classmethod
    def of(cls, figures: Iterable[Any]) -> Totals:
        totals = cls()
        for f in figures:
            totals.add(f)
        return totals

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Totals:
        """From a row of sums (``None`` for an empty sum is 0)."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: (v or 0) for k, v in data.items() if k in names})

    def stats(self) -> dict[str, Any]:
        """The figures of the issue, from these sums."""
        return {
            "hands": self.hands,
            "vpip": _percent(self.vpip, self.hands),
            "pfr": _percent(self.pfr, self.hands),
            "three_bet": _percent(self.three_bets, self.three_bet_chances),
            "aggression_factor": (
                round(self.postflop_aggressive / self.postflop_calls, 2)
                if self.postflop_calls
                else None
            ),
            "wtsd": _percent(self.showdowns, self.saw_flop),
            "wsd": _percent(self.won_at_showdown, self.showdowns),
            "cash_hands": self.cash_hands,
            "net_won": self.net,
            "bb_per_100": (
                round(100.0 * self.net_bb / self.cash_hands, 2) if self.cash_hands else None
            ),
            "biggest_pot_won": self.biggest_pot_won,
            "counts": {
                "vpip": self.vpip,
                "pfr": self.pfr,
                "three_bet_chances": self.three_bet_chances,
                "three_bets": self.three_bets,
                "saw_flop": self.saw_flop,
                "showdowns": self.showdowns,
                "won_at_showdown": self.won_at_showdown,
                "postflop_bets_raises": self.postflop_aggressive,
                "postflop_calls": self.postflop_calls,
            },
        }
