"""Games players host: start one, invite friends, and the host's controls.

Every function is one transaction holding the table row lock (``table_lock``), then player
rows for bankroll changes; each change is announced in the table's log (``TableNotice``),
bumps ``Table.version`` and publishes ``table.changed`` on commit. A change that would alter
the hand being played waits for its end (``tables.services.host_pending``); the answer says
which. Host controls take ``by``, the user asking: the game's host or staff (``can_host``),
else ``NotHost``. A closed game is read-only (``TableClosed``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction

from tables.models import Player, Table, TableGuest
from tables.selectors.access import can_host, invite_lets_in
from tables.selectors.hands import running_hand
from tables.services.errors import (
    InvalidSettings,
    NoSuchInvite,
    NotHost,
    TableClosed,
    TooManyGames,
)
from tables.services.events import table_lock, table_touch
from tables.services.hooks import rules_for
from tables.services.host_pending import (
    GAME_FIELDS,
    close_now,
    describe_settings,
    notice_post,
    pending_queue,
)

if TYPE_CHECKING:
    from tables.selectors.access import Viewer

#: Open games one player may host at once.
MAX_OPEN_GAMES = 10
#: A hosted game nobody has sat at for this long closes itself.
EMPTY_GAME_LIFETIME = timedelta(hours=24)
#: What a new game is when its host changes nothing: a good night among friends.
GAME_DEFAULTS = {
    "game": Table.DEFAULT_GAME,
    "betting": Table.Betting.NO_LIMIT,
    "small_blind": 1,
    "big_blind": 2,
    "ante": 0,
    "ante_mode": Table.AnteMode.PER_PLAYER,
    "straddle": 0,
    "straddles": 0,
    "button_straddle": False,
    "bring_in": 0,
    "small_bet": None,
    "big_bet": None,
    "max_seats": 9,
    "min_buy_in": 40,
    "max_buy_in": 200,
    "action_seconds": 30,
    "time_bank_seconds": 60,
    # the time bank's refill (issue 50): none unless the host sets one
    "time_bank_refill_seconds": 0,
    "time_bank_refill_hands": 10,
    # seat etiquette (issue 50): missed blinds are posted, the small dead, the big live
    "missed_blinds": Table.MissedBlinds.POST,
    "bot_seats": 0,
    "private": True,
    "seat_approval": False,
    "top_up_approval": False,
    "spectator_chat": False,
    "hud": True,  # issue 51: the players' statistics beside the seats (each may turn it off)
    # run-outs and bomb pots (issue 20): off unless the host turns them on
    "run_it_twice": False,
    "bomb_pot_ante": 0,
    "bomb_pot_every": 0,
    "bomb_pot_double_board": False,  # issue 50: bomb pots dealt two boards
    # mixed games (issue 30): each game for an orbit; dealer's choice from every game
    "rotation_hands": 0,
    "choice_games": [],
    "choice_seconds": 20,
}
#: Settings a host may choose (at the start and later).
HOST_FIELDS = ("name", *GAME_DEFAULTS)
#: Settings the hand being played was dealt with: a change waits for its end.
NEXT_HAND_FIELDS = (
    *GAME_FIELDS,
    "max_seats",
    "action_seconds",
    "time_bank_seconds",
    "rotation_hands",
    "choice_games",
)


def new_invite_token() -> str:
    """An unguessable invite token: 32 random bytes (256 bits), URL-safe."""
    return secrets.token_urlsafe(32)


def host_name_of(user: Viewer) -> str:
    return user.get_username() if user is not None else "the site"


def _validated(table: Table, fields: dict[str, Any]) -> None:
    """Set ``fields`` on ``table`` and check the whole game (``Table.clean`` and the field
    limits); ``InvalidSettings`` names each field that is wrong."""
    unknown = sorted(set(fields) - set(HOST_FIELDS))
    if unknown:
        raise InvalidSettings(dict.fromkeys(unknown, "Not a setting a host can change."))
    for name, value in fields.items():
        setattr(table, name, value)
    table.bots_allowed = bool(table.bot_seats)
    try:
        table.full_clean(
            exclude=["version", "hand_version", "host", "invite_token", "pending_changes"],
            validate_unique=False,  # a taken name gets its host's name (``_unique_name``)
        )
    except ValidationError as error:
        raise InvalidSettings(
            {name: " ".join(messages) for name, messages in error.message_dict.items()}
        ) from None


def _unique_name(name: str, host: Player | None, pk: int | None = None) -> str:
    """``name``, or when another table has it, ``name · host`` (then numbered): friends'
    games are often all called "Friday night"."""
    others = Table.objects.exclude(pk=pk) if pk else Table.objects.all()
    candidates = [name, f"{name} · {host}"[:80]] if host else [name]
    candidates += [f"{name[:70]} · {n}" for n in range(2, 1000)]
    for candidate in candidates:
        if not others.filter(name=candidate).exists():
            return candidate
    raise InvalidSettings({"name": "That name is taken: choose another."})


def hosted_table(table: Table | int, by: Viewer) -> Table:
    """Lock ``table`` and check that ``by`` may run it and that it is not closed."""
    table = table_lock(table)
    if not can_host(table, by):
        raise NotHost("Only the game's host can do that.")
    if rules_for(table).seating_closed:  # a tournament's: its chips are not bankrolls'
        raise NotHost("A tournament runs this table: there are no host controls here.")
    if table.status == Table.Status.CLOSED:
        raise TableClosed(f"{table.name} is closed: its history is kept, nothing changes.")
    return table


def _new_game(host: Player | None, fields: dict[str, Any]) -> Table:
    """An unsaved game: ``GAME_DEFAULTS`` with ``fields`` over them, checked whole."""
    table = Table(host=host, **{k: v for k, v in GAME_DEFAULTS.items() if k not in fields})
    _validated(table, fields)
    return table


def game_settings_check(**fields: Any) -> None:
    """Check a game's settings now, as ``table_create`` will when it opens the game later (a
    scheduled club game): ``InvalidSettings`` names every wrong field."""
    _new_game(None, fields)


def table_create(*, host: Player, **fields: Any) -> Table:
    """Start a game hosted by ``host``: ``GAME_DEFAULTS`` with ``fields`` over them.

    Lock: none (a new row). ``InvalidSettings`` names every wrong field; ``TooManyGames`` past
    ``MAX_OPEN_GAMES`` open games. Every hosted game gets an invite token (the link works
    for public games too); bots sit when ``bot_seats`` is more than 0.
    """
    table = _new_game(host, fields)
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=host.pk).first()  # one count at a time
        open_games = Table.objects.filter(host=host).exclude(status=Table.Status.CLOSED)
        if open_games.count() >= MAX_OPEN_GAMES:
            raise TooManyGames(
                f"You host {MAX_OPEN_GAMES} open games already: close one to start another."
            )
        table.name = _unique_name(table.name, host)
        table.invite_token = new_invite_token()
        table.save()
        notice_post(table, f"{host} opened the game.")
        return table


def table_invite_replace(*, table: Table | int, by: Viewer) -> Table:
    """A new invite link; the old one stops working at once (guests already in stay)."""
    with transaction.atomic():
        table = hosted_table(table, by)
        table.invite_token = new_invite_token()
        Table.objects.filter(pk=table.pk).update(invite_token=table.invite_token)
        notice_post(table, "The host replaced the invite link.")
        table_touch(table)
        return table


def table_guest_join(*, token: str, player: Player) -> Table:
    """``player`` opened the invite link ``token``: they may see the game from now on.

    Lock: the table row. ``NoSuchInvite`` for a wrong or replaced token, a closed game, or a
    game the link does not open to ``player`` (a club's to a non-member: ``invite_lets_in``);
    nothing recorded then.
    """
    if not isinstance(token, str) or not token:
        raise NoSuchInvite("That invite link does not work (it may have been replaced).")
    found = Table.objects.filter(invite_token=token).values_list("pk", flat=True).first()
    if found is None:
        raise NoSuchInvite("That invite link does not work (it may have been replaced).")
    with transaction.atomic():
        table = table_lock(found)
        if (
            table.invite_token != token
            or table.status == Table.Status.CLOSED
            or not invite_lets_in(table, player)
        ):
            raise NoSuchInvite("That invite link does not work (it may have been replaced).")
        TableGuest.objects.get_or_create(table=table, player=player)
        return table


@dataclass(frozen=True)
class HostUpdate:
    """What a host's change did: the fields in effect now and those waiting for the next hand."""

    table: Table
    applied: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)


def _with_other_games_cleared(table: Table, changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` with, when they change the game or its betting, every setting that does not
    apply to the new one (``Table.settings_not_for``: stud's bring-in, fixed limit's bets,
    dealer's choice's games) back at its default, unless given: a stud game's bring-in must
    not hold back a switch to no-limit hold'em, where nobody sees or sets it."""
    game, betting = changes.get("game", table.game), changes.get("betting", table.betting)
    if (game, betting) == (table.game, table.betting) or game not in Table.GAMES:
        return changes
    cleared = {
        name: GAME_DEFAULTS[name]
        for name in Table.settings_not_for(game, betting)
        if name in GAME_DEFAULTS and name not in changes
    }
    return {**cleared, **changes}


def table_host_update(*, table: Table | int, by: Viewer, changes: dict[str, Any]) -> HostUpdate:
    """Change a game's settings: those the running hand was dealt with (``NEXT_HAND_FIELDS``)
    wait for its end, the others apply now; each part is announced. ``InvalidSettings``
    (nothing changed) when the game would not hold together."""
    with transaction.atomic():
        table = hosted_table(table, by)
        target = Table.objects.get(pk=table.pk)
        target.pending_changes = table.pending_changes
        for name, value in (table.pending_changes or {}).get("settings", {}).items():
            setattr(target, name, value)
        # compared with the game as the next hand will be dealt: what already waits is not
        # changed (nor announced) again
        planned = {name: getattr(target, name) for name in HOST_FIELDS}
        _validated(target, _with_other_games_cleared(target, changes))
        changed = {
            name: getattr(target, name)
            for name in HOST_FIELDS
            if getattr(target, name) != planned[name]
        }
        changed["bots_allowed"] = target.bots_allowed
        hand_running = running_hand(table) is not None
        if "name" in changed:
            changed["name"] = _unique_name(changed["name"], table.host, table.pk)
        waiting = {k: v for k, v in changed.items() if hand_running and k in NEXT_HAND_FIELDS}
        now = {k: v for k, v in changed.items() if k not in waiting}
        if now:
            for name, value in now.items():
                setattr(table, name, value)
            Table.objects.filter(pk=table.pk).update(**now)
        shown = {k: v for k, v in now.items() if k != "bots_allowed"}
        if shown:
            notice_post(table, f"The host set {describe_settings(target, shown)}.")
        if waiting:
            pending_queue(table, settings=waiting)
            notice_post(
                table,
                f"From the next hand: {describe_settings(target, waiting)} (set by the host).",
            )
        table_touch(table)
        return HostUpdate(table=table, applied=sorted(shown), waiting=sorted(waiting))


def table_host_pause(*, table: Table | int, by: Viewer) -> Table:
    """Pause: the hand being played finishes, no new one starts."""
    with transaction.atomic():
        table = hosted_table(table, by)
        if table.status != Table.Status.PAUSED:
            table.status = Table.Status.PAUSED
            notice_post(table, "The host paused the game: no new hand starts.")
            table_touch(table, "status")
        return table


def table_host_resume(*, table: Table | int, by: Viewer) -> Table:
    """Play on after a pause."""
    with transaction.atomic():
        table = hosted_table(table, by)
        if table.status != Table.Status.OPEN:
            table.status = Table.Status.OPEN
            notice_post(table, "The host resumed the game.")
            table_touch(table, "status")
        return table


def table_host_bomb_pot(*, table: Table | int, by: Viewer) -> Table:
    """Call a bomb pot for the next hand: everyone antes the game's ``bomb_pot_ante`` and
    the flop comes with no preflop betting (``tables.services.hands.hand_start``).
    ``InvalidSettings`` when the game has no bomb-pot ante (or is a stud game)."""
    with transaction.atomic():
        table = hosted_table(table, by)
        if not table.bomb_pot_ante:
            raise InvalidSettings(
                {"bomb_pot_ante": "Set the bomb pot's ante first: every player antes it."}
            )
        if not table.has_bomb_pots:
            raise InvalidSettings({"game": "This game has no bomb pots (it has no flop)."})
        if not table.bomb_pot_next:
            table.bomb_pot_next = True
            notice_post(
                table,
                f"The host called a bomb pot: next hand everyone antes {table.bomb_pot_ante} "
                "and the flop comes at once.",
            )
            table_touch(table, "bomb_pot_next")
        return table


def table_host_close(*, table: Table | int, by: Viewer) -> bool:
    """Close the game: everyone cashed out (when the hand being played ends, if one is), then
    read-only with its history kept. True if closed now."""
    with transaction.atomic():
        table = hosted_table(table, by)
        if running_hand(table) is not None:
            pending_queue(table, close=True)
            notice_post(table, "The host closes the game when this hand ends.")
            table_touch(table)
            return False
        close_now(table, reason=f"{table.name} closed by the host")
        notice_post(table, "The host closed the game: everyone was cashed out.")
        table_touch(table)
        return True


def hosted_games_tidy(*, now: datetime) -> list[int]:
    """The croupier's periodic work for hosted games: note when each became empty, and close
    those nobody has sat at for ``EMPTY_GAME_LIFETIME`` (their ledger and history kept).
    Returns the ids closed. Lock: each table row it changes."""
    closed = []
    hosted = Table.objects.filter(host__isnull=False).exclude(status=Table.Status.CLOSED)
    Table.objects.filter(
        pk__in=hosted.filter(seats__isnull=False, empty_since__isnull=False)
    ).update(empty_since=None)
    hosted.filter(seats__isnull=True, empty_since__isnull=True).update(empty_since=now)
    due = hosted.filter(seats__isnull=True, empty_since__lte=now - EMPTY_GAME_LIFETIME)
    for pk in list(due.values_list("pk", flat=True)):
        with transaction.atomic():
            table = table_lock(pk)
            if table.status == Table.Status.CLOSED or table.seats.exists():
                continue
            close_now(table, reason=f"{table.name} closed: nobody played for a day")
            notice_post(table, "Nobody sat here for a day: the game closed itself.")
            table_touch(table)
            closed.append(pk)
    return closed
