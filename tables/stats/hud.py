"""The HUD at the table (issue 51): each seated player's statistics, beside their seat.

The figures are the stats page's own: ``PlayerHand`` rows summed by ``figure_aggregates`` and
turned into ratios by ``Totals.stats`` (no second VPIP here), counted over the hands of the
game family being played at the table (Hold'em, Omaha, Stud, Draw: ``Variant.family``). A
guest account's figures are its hands at this table only (tonight's); a player's and a bot's
are all their hands in that family, as their stats page counts them.

Public by construction: every figure is counted from the actions, the showdowns and the pots
of finished hands, which every player at those tables saw; no hole card that was not shown
goes in (``seat_figures`` reads no card), and a hand counts only once it is over for its
readers (``SHOWN_OVER``: its run-out shown to the river).

Cost: the page fetches the HUD (``tables.views_hud``) when it loads and when a hand ends or
starts, never per action. The grouped sum runs once per table per counted hand, seated
players and family (``hud_key``, a cache entry shared by every viewer and process); a fetch
that finds it costs the key's three small reads.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Q

from engine.variants import VARIANTS, variant
from tables.models import Hand, PlayerHand, Seat, Table
from tables.models.hands import runout_showing_q
from tables.stats.figures import Totals
from tables.stats.selectors import SHOWN_OVER, figure_aggregates

#: A computed HUD stays in the cache this long (seconds); its key changes with every hand.
HUD_CACHE_SECONDS = 6 * 3600


@dataclass(frozen=True, slots=True)
class HudLine:
    """One seated player's figures (percentages 0..100; ``None``: never in the spot)."""

    seat: int  # the table's seat number
    player_id: int
    name: str
    is_bot: bool
    tonight_only: bool  # a guest: this table's hands alone
    hands: int
    vpip: float | None
    pfr: float | None
    three_bet: float | None
    aggression_factor: float | None
    wtsd: float | None

    @property
    def badge(self) -> str:
        """The button's short text beside the seat: VPIP/PFR, as HUDs write them."""
        return "/".join("–" if v is None else f"{v:.0f}" for v in (self.vpip, self.pfr))

    def shown(self) -> tuple[tuple[str, str, str, str], ...]:
        """Each figure as the HUD writes it: (key, short name, its words, its value)."""
        return tuple(
            (key, short, words, _text(getattr(self, key), percent))
            for key, short, words, percent in HUD_FIGURES
        )


#: The HUD's figures, in order: (``HudLine`` field, short name, its words, a percentage).
HUD_FIGURES = (
    ("hands", "Hands", "Hands played", False),
    ("vpip", "VPIP", "Voluntarily put chips in the pot before the flop", True),
    ("pfr", "PFR", "Raised before the flop", True),
    ("three_bet", "3-bet", "Re-raised when facing one raise before the flop", True),
    ("aggression_factor", "AF", "Aggression factor: bets and raises per call postflop", False),
    ("wtsd", "WTSD", "Went to showdown, of the hands that saw the flop", True),
)


def _text(value: float | None, percent: bool) -> str:
    if value is None:
        return "–"  # never in the spot: no figure yet
    if percent:
        return f"{value:.0f}%"
    return f"{value:g}"


@dataclass(frozen=True, slots=True)
class Hud:
    """The HUD of one table: its game family and a line per seated player, by seat."""

    family: str
    lines: tuple[HudLine, ...]


@dataclass(frozen=True, slots=True)
class _Seated:
    seat: int
    player_id: int
    name: str
    is_bot: bool
    is_guest: bool


def family_games(family: str) -> list[str]:
    """The registry's games of ``family`` (a ``PlayerHand.game`` is one of them)."""
    return [name for name, game in VARIANTS.items() if game.family == family]


def _family_now(table: Table) -> str:
    """The family of the game on the table now: the latest hand's, else the table's first."""
    config = table.hands.order_by("-number").values_list("config", flat=True).first()
    game = config.get("game") if isinstance(config, dict) else None
    return variant(game if game in VARIANTS else table.choices[0][0]).family


def _seated(table: Table) -> tuple[_Seated, ...]:
    rows = Seat.objects.filter(table=table).order_by("number")
    return tuple(
        _Seated(number, pid, name, is_bot or bot_account, guest_table is not None)
        for number, pid, name, is_bot, bot_account, guest_table in rows.values_list(
            "number",
            "player_id",
            "player__user__username",
            "player__is_bot",
            "player__bot_account",
            "player__guest_table_id",
        )
    )


def _last_counted_hand(table: Table) -> tuple[int, str] | None:
    """The table's latest hand the statistics count (finished, its run-out shown)."""
    row = (
        Hand.objects.filter(table=table, status=Hand.Status.FINISHED)
        .exclude(runout_showing_q())
        .order_by("-number")
        .values_list("pk", "finished_at")
        .first()
    )
    return (row[0], row[1].isoformat() if row[1] else "") if row is not None else None


def hud_key(table: Table, family: str, seated: tuple[_Seated, ...]) -> str:
    """What the HUD depends on: the table, its last counted hand, the family, who sits where."""
    last = _last_counted_hand(table)
    roster = ",".join(f"{s.seat}:{s.player_id}:{int(s.is_guest)}" for s in seated)
    digest = hashlib.sha256(f"{last}|{family}|{roster}".encode()).hexdigest()
    return f"hud:{table.pk}:{digest}"


def compute_hud(table: Table, family: str, seated: tuple[_Seated, ...]) -> Hud:
    """The figures of ``seated`` in ``family`` (one grouped query)."""
    regulars = [s.player_id for s in seated if not s.is_guest]
    guests = [s.player_id for s in seated if s.is_guest]
    whose = Q(player_id__in=regulars) | Q(player_id__in=guests, table_id=table.pk)
    rows = (
        PlayerHand.objects.filter(SHOWN_OVER, whose, game__in=family_games(family))
        .order_by()
        .values("player_id")
        .annotate(**figure_aggregates())
    )
    totals = {row["player_id"]: Totals.from_dict(dict(row)) for row in rows}
    lines = []
    for s in seated:
        stats = totals.get(s.player_id, Totals()).stats()
        lines.append(
            HudLine(
                seat=s.seat,
                player_id=s.player_id,
                name=s.name,
                is_bot=s.is_bot,
                tonight_only=s.is_guest,
                hands=stats["hands"],
                vpip=stats["vpip"],
                pfr=stats["pfr"],
                three_bet=stats["three_bet"],
                aggression_factor=stats["aggression_factor"],
                wtsd=stats["wtsd"],
            )
        )
    return Hud(family=family, lines=tuple(lines))


def table_hud(table: Table) -> Hud:
    """The HUD of ``table`` now: from the cache, else computed once and cached."""
    family = _family_now(table)
    seated = _seated(table)
    key = hud_key(table, family, seated)
    hud = cache.get(key)
    if not isinstance(hud, Hud):
        hud = compute_hud(table, family, seated)
        cache.set(key, hud, HUD_CACHE_SECONDS)
    return hud
