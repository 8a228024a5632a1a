"""The clubs' readers: a player's clubs, a club's members and games, its standings by season
(recomputed from scratch from finished tournaments and the ledgers of its cash games, so the
same after a restart), its ledger of nights."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import QuerySet

from tables.clubs import points
from tables.clubs.access import ACTIVE
from tables.clubs.models import Club, ClubEvent, Membership, ScheduledGame, Season
from tables.models import Player, Table
from tables.selectors.ledger import table_ledger
from tables.text import NumberError, parse_whole_number
from tables.tournaments.models import Tournament


def clubs_of(player: Player | None) -> QuerySet[Club]:
    """The clubs ``player`` is an active member of."""
    if player is None:
        return Club.objects.none()
    return Club.objects.filter(memberships__player=player, memberships__status=ACTIVE)


def club_for(pk: object, player: Player | None) -> Club | None:
    """The club ``pk`` when ``player`` is an active member of it, else None (a 404)."""
    try:  # the one strict reading of a number from outside: "²" or "٣" is no id
        club_id = parse_whole_number(pk, what="id", minimum=1)
    except NumberError:
        return None
    return clubs_of(player).filter(pk=club_id).first()


def members(club: Club, *, with_pending: bool = False) -> QuerySet[Membership]:
    statuses = [ACTIVE, Membership.Status.PENDING] if with_pending else [ACTIVE]
    return (
        Membership.objects.filter(club=club, status__in=statuses)
        .select_related("player__user")
        .order_by("joined_at", "pk")
    )


def club_tables(club: Club) -> QuerySet[Table]:
    return Table.objects.filter(club_link__club=club).order_by("-pk")


def club_tournaments(club: Club) -> QuerySet[Tournament]:
    return Tournament.objects.filter(club_link__club=club).order_by("-pk")


def scheduled_games(club: Club) -> QuerySet[ScheduledGame]:
    """The games still to open (cash) or to start (tournaments), soonest first."""
    return (
        ScheduledGame.objects.filter(club=club, opened_at__isnull=True)
        .exclude(tournament__status__in=["running", "finished"])
        .order_by("starts_at", "pk")
    )


def upcoming_for(player: Player | None, limit: int = 10) -> list[ScheduledGame]:
    """The scheduled games of every club ``player`` belongs to, soonest first (the lobby)."""
    if player is None:
        return []
    games = (
        ScheduledGame.objects.filter(club__in=clubs_of(player), opened_at__isnull=True)
        .exclude(tournament__status__in=["running", "finished"])
        .select_related("club")
        .order_by("starts_at", "pk")
    )
    return list(games[:limit])


#: What each kind of club event says after who did it ({player}, {season}: their names).
EVENT_WORDS = {
    "club_created": "created the club",
    "invite_reset": "made a new invitation code",
    "member_joined": "joined",
    "join_requested": "asked to join",
    "member_approved": "approved {player}",
    "member_promoted": "made {player} an admin",
    "member_demoted": "made {player} a member again",
    "member_removed": "removed {player}",
    "member_left": "left the club",
    "table_opened": "opened a table",
    "tournament_created": "created a tournament",
    "game_scheduled": "scheduled a game",
    "season_opened": "opened the season {season}",
    "season_closed": "closed the season {season}",
}
#: The events nobody did (the croupier's), as whole sentences.
UNSIGNED_EVENT_WORDS = {
    "game_opened": "A scheduled cash game opened.",
    "game_failed": "A scheduled cash game could not open.",
}


@dataclass(frozen=True)
class EventLine:
    at: datetime
    words: str


def recent_events(club: Club, limit: int = 20) -> list[EventLine]:
    """The club's last events, newest first, each in words ("alice opened the season
    Autumn"): the players and seasons named, never a code."""
    events = list(ClubEvent.objects.filter(club=club).select_related("actor__user")[:limit])
    wanted = {e.detail.get("player") for e in events} - {None}
    players = {p.pk: p.name for p in Player.objects.filter(pk__in=wanted).select_related("user")}
    seasons = dict(Season.objects.filter(club=club).values_list("pk", "name"))
    lines = []
    for event in events:
        if event.kind in UNSIGNED_EVENT_WORDS:
            lines.append(EventLine(event.at, UNSIGNED_EVENT_WORDS[event.kind]))
            continue
        what = EVENT_WORDS.get(event.kind, event.kind.replace("_", " "))
        words = what.format(
            player=players.get(event.detail.get("player"), "a player"),
            season=seasons.get(event.detail.get("season"), ""),
        ).strip()
        who = event.actor.name if event.actor is not None else "Someone"
        lines.append(EventLine(event.at, f"{who} {words}."))
    return lines


def season_for(club: Club, pk: object = None, today: date | None = None) -> Season | None:
    """The season ``pk`` of ``club``, or by default the one running ``today`` (else the
    latest)."""
    seasons = Season.objects.filter(club=club)
    if pk not in (None, ""):
        try:
            season_id = parse_whole_number(pk, what="season", minimum=1)
        except NumberError:
            return None
        return seasons.filter(pk=season_id).first()
    if today is not None:
        running = seasons.filter(starts_on__lte=today, ends_on__gte=today).first()
        if running is not None:
            return running
    return seasons.first()


#: The standings of a club without a season: every game it has played, by the default rule.
ALL_GAMES = "All the club's games"


def standings_season(club: Club, pk: object = None, today: date | None = None) -> Season | None:
    """The season whose standings are asked (``season_for``); a club without any season
    stands by all its games (an unsaved season from the first day to the last, named
    ``ALL_GAMES``). None only for a season ``pk`` the club does not have."""
    season = season_for(club, pk, today)
    if season is None and pk in (None, ""):  # (the latest is the default: there is none)
        return Season(club=club, name=ALL_GAMES, starts_on=date.min, ends_on=date.max)
    return season


@dataclass(frozen=True)
class Standing:
    player_id: int
    name: str
    points: float
    tournaments: int
    cash_net: int


def standings(season: Season) -> list[Standing]:
    """Each member's points from the club's tournaments finished within ``season`` (by its
    rule) and their net result at its cash games opened within it; most points first."""
    scores: dict[int, list[float]] = {}
    names: dict[int, str] = {}
    finished = club_tournaments(season.club).filter(
        status=Tournament.Status.FINISHED,
        finished_at__date__gte=season.starts_on,
        finished_at__date__lte=season.ends_on,
    )
    for tournament in finished.prefetch_related("entries__player__user"):
        entries = list(tournament.entries.all())
        for entry in entries:
            if entry.player.is_bot or entry.place is None:
                continue
            row = scores.setdefault(entry.player_id, [0.0, 0, 0])
            row[0] += points.for_place(season.rule, season.points_table, entry.place, len(entries))
            row[1] += 1
            names[entry.player_id] = str(entry.player)
    cash = club_tables(season.club).filter(
        created_at__date__gte=season.starts_on, created_at__date__lte=season.ends_on
    )
    for table in cash:
        for ledger_row in table_ledger(table).rows:
            if ledger_row.is_bot:
                continue
            row = scores.setdefault(ledger_row.player_id, [0.0, 0, 0])
            row[2] += ledger_row.net
            names[ledger_row.player_id] = ledger_row.name
    table_rows = [
        Standing(pk, names[pk], round(row[0], 2), int(row[1]), int(row[2]))
        for pk, row in scores.items()
    ]
    return sorted(table_rows, key=lambda s: (-s.points, -s.cash_net, s.name, s.player_id))


@dataclass(frozen=True)
class Night:
    table_id: int
    name: str
    nets: dict[int, int]


@dataclass(frozen=True)
class ClubLedger:
    nights: list[Night]
    totals: dict[int, int]
    names: dict[int, str]


def club_ledger(club: Club) -> ClubLedger:
    """The club's cash nights, each with its players' nets (the settle-up), and each player's
    running total over them."""
    nights: list[Night] = []
    totals: dict[int, int] = {}
    names: dict[int, str] = {}
    for table in club_tables(club).order_by("pk"):
        nets = {}
        for row in table_ledger(table).rows:
            if row.is_bot:
                continue
            nets[row.player_id] = row.net
            totals[row.player_id] = totals.get(row.player_id, 0) + row.net
            names[row.player_id] = row.name
        nights.append(Night(table.pk, table.name, nets))
    return ClubLedger(nights, totals, names)
