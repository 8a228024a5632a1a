"""The croupier's service: what is due at a table at a given moment, done exactly once.

``clock_tick(table=..., now=...)`` runs in one transaction holding the table row lock, looks
at the table as it is in the database (deadlines are data, so a restarted server carries on)
and does at most one thing:

- a bot is to act and its human-like delay has passed: the bot acts (engine ``SensibleBot`` on
  the bot's own ``view`` only), source ``bot``;
- the player to act is sitting out or leaving: the clock acts for them at once (at a table
  whose rules say ``away_keeps_clock``, a tournament's: once the action deadline has passed,
  without the time bank);
- the action deadline has passed: the player's time bank adds ``TIME_BANK_CHUNK`` seconds
  (while it lasts), else the clock checks when that is free and folds otherwise, source
  ``timeout`` (``hand_act`` sits them out until they come back);
- no hand is running: bots are seated up to the table's ``bot_seats`` (granted chips through
  the ledger when their bankroll is short), and a new hand starts once ``next_hand_at`` has
  passed, with two players sitting in, at least one of them a person.

Every action goes through ``hand_act`` with the version read under the lock, so two
processes ticking the same table can never act twice: the second sees the new state.
``now`` is injected so tests drive the clock deterministically.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from engine.bots import SensibleBot
from engine.hand import Hand as EngineHand
from engine.types import Legal
from tables.db import statements
from tables.db.rows import IDS_AT_ONCE, select_first, select_values_by_ids
from tables.models import Hand, HandAction, HandSecret, Player, Seat, Table
from tables.selectors.hands import (
    hand_decisions,
    hand_secret,
    hand_state,
    last_hand,
    with_deck,
)
from tables.services import mixed, runouts
from tables.services.errors import ServiceError
from tables.services.etiquette import dealing_for
from tables.services.events import fenced_atomic, table_lock, table_touch
from tables.services.hands import hand_act, hand_deal
from tables.services.hooks import rules_for
from tables.services.leases import held_by_another
from tables.services.live_hand import LiveHand
from tables.services.players import player_create, player_grant
from tables.services.seats import seat_take

if TYPE_CHECKING:
    from tables.selectors.snapshot import Snapshot

#: Seconds the time bank adds each time the deadline passes (while the bank lasts).
TIME_BANK_CHUNK = 10
BOT_NAMES = ("ada", "bo", "cy", "dot", "eli", "fay", "gus", "hal", "ivy", "jo", "kit", "lou")


def bot_delay(hand_id: int, index: int) -> float:
    """The bot's thinking time for action ``index`` of a hand (``POKER_BOT_DELAY``): fixed
    per decision."""
    low, high = settings.POKER_BOT_DELAY
    digest = hashlib.sha256(f"{hand_id}:{index}".encode()).digest()
    delay: float = low + (high - low) * digest[0] / 255
    return delay


def _bot_player(table: Table, buy_in: int) -> Player:
    """A bot not yet at ``table``, with at least ``buy_in`` chips (granted through the ledger)."""

    seated = set(table.seats.values_list("player_id", flat=True))
    bot = Player.objects.filter(is_bot=True).exclude(pk__in=seated).order_by("pk").first()
    if bot is None:
        User = get_user_model()
        taken = set(
            User.objects.filter(username__startswith="bot_").values_list("username", flat=True)
        )
        name = next((f"bot_{n}" for n in BOT_NAMES if f"bot_{n}" not in taken), None)
        if name is None:
            name = f"bot_{len(taken) + 1}"
        user = User(username=name)
        user.set_unusable_password()
        user.save()
        bot = player_create(user=user, is_bot=True, grant=0)
    if bot.bankroll < buy_in:
        player_grant(player=bot, amount=buy_in * 10, reason="Croupier: chips for a bot")
        bot.refresh_from_db()
    return bot


def _seat_bots(table: Table) -> int:
    """Seat bots up to ``bot_seats`` (leaving a seat free for people). Returns how many sat."""

    if not table.bots_allowed or not table.bot_seats:
        return 0
    seats = list(table.seats.select_related("player"))
    bots = sum(1 for s in seats if s.player.is_bot)
    free = table.max_seats - len(seats)
    want = min(table.bot_seats - bots, free - 1)
    buy_in = min(table.effective_max_buy_in, max(table.effective_min_buy_in, 100 * table.unit))
    for _ in range(max(want, 0)):
        seat_take(table=table, player=_bot_player(table, buy_in), buy_in=buy_in)
    return max(want, 0)


def clock_tick(
    *, table: Table | int, now: datetime, skip_busy: bool = False, live: LiveHand | None = None
) -> str | None:
    """Do what is due at ``table`` at ``now`` (see the module docstring); say what was done.

    Lock: table row (then player rows, through the services it calls). Returns ``"bot"``,
    ``"timeout"``, ``"sat-out"``, ``"time-bank"``, ``"bots-seated"``, ``"started"`` or None.

    ``skip_busy``: do nothing (None) rather than wait when another transaction holds the
    table row (the croupier's passes: the holder is a player's action or another process's
    croupier, and the next pass looks again; waiting held up every table queued behind).

    ``live``: the running hand as the table's runtime holds it in memory: where it is the
    locked table's, the clock's bot or timeout acts on it in place (nothing read, nothing
    replayed), and the runtime builds its next version from it.
    """

    with fenced_atomic():  # a runtime's tick: its lease's transaction, no savepoint
        locked = table_lock(table, skip_locked=skip_busy)
        if locked is None or locked.status == Table.Status.CLOSED:
            return None
        table = locked
        if live is None or live.spent or live.version != table.version:
            latest = _latest_hand(table)
            if latest is None or latest.status != Hand.Status.RUNNING:
                return _between_hands(table, latest, now)
            # a running hand is always the table's latest (``hand_start``)
            decisions = hand_decisions(latest)
            live = LiveHand(table.version, latest, decisions, hand_state(latest, decisions))
        hand, decisions, state = live.hand, live.decisions, live.state
        actor = state.actor
        if state.runs_due:
            return _runs_due_tick(table, hand, state, now)
        if actor is None:  # a running hand always has an actor; nothing the clock can do
            return None
        player_id = hand.seats[actor]["player_id"]
        seat = _actor_seat(table.pk, player_id)
        player = (  # ``hand_act`` reads the player's id alone
            Player(pk=player_id, is_bot=seat.is_bot)
            if seat is not None
            else Player.objects.get(pk=player_id)  # gone from the table
        )
        index = len(decisions)
        if table.action_deadline is None:  # e.g. a hand dealt before a restart: start its clock
            statements.update(
                Table,
                {"pk": table.pk},
                action_deadline=now + timedelta(seconds=table.action_seconds),
            )
            return None
        if player.is_bot:
            turn_started = table.action_deadline - timedelta(seconds=table.action_seconds)
            if now < turn_started + timedelta(seconds=bot_delay(hand.pk, index)):
                return None
            rng = random.Random(f"{hand.pk}:{index}:{hand_secret(hand).seed}")
            decision = SensibleBot(rng=rng, samples=80).decide(state.view(actor))
            hand_act(
                table=table,
                player=player,
                hand_id=hand.pk,
                version=table.version,
                action=decision,
                source=HandAction.Source.BOT,
                live=live,
                clock_now=now,
                locked=True,  # the tick's lock, its row unchanged since
            )
            return "bot"
        away = seat is None or seat.sitting_out or seat.leave_after_hand
        waits = not away or rules_for(table, now).away_keeps_clock
        if waits and now < table.action_deadline:
            return None
        if not away and seat is not None and seat.time_bank > 0:
            chunk = min(TIME_BANK_CHUNK, seat.time_bank)
            Seat.objects.filter(pk=seat.pk).update(time_bank=seat.time_bank - chunk)
            table.action_deadline = max(now, table.action_deadline) + timedelta(seconds=chunk)
            table.action_banked = True  # a page opened from now on draws the bank as such
            table_touch(table, "action_deadline", "action_banked")
            return "time-bank"
        assert state.legal is not None  # the hand has an actor: it has legal actions
        move = timeout_move(state.legal)
        try:
            hand_act(
                table=table,
                player=player,
                hand_id=hand.pk,
                version=table.version,
                action=move,
                source=HandAction.Source.TIMEOUT,
                live=live,
                clock_now=now,
                locked=True,  # the tick's lock, its row unchanged since
            )
        except ServiceError:
            return None
        return "sat-out" if away else "timeout"


@dataclass(frozen=True)
class ActorSeat:
    """What the clock looks at of the seat of the player to act."""

    pk: int
    sitting_out: bool
    leave_after_hand: bool
    time_bank: int
    is_bot: bool


def _actor_seat(table_id: int, player_id: int) -> ActorSeat | None:
    """The seat of ``player_id`` at the table, and whether they are a bot (None: they left
    it). One compiled statement."""
    rows = statements.select_values(
        Seat, "clock-actor-seat", _actor_seat_query, table_id, player_id
    )
    if not rows:
        return None
    pk, sitting_out, leaving, time_bank, is_bot = rows[0]  # SQLite's truths are 0 or 1
    return ActorSeat(pk, bool(sitting_out), bool(leaving), time_bank, bool(is_bot))


def _actor_seat_query(table_id: int, player_id: int) -> QuerySet[Seat, tuple[Any, ...]]:
    return Seat.objects.filter(Q(table_id=table_id), Q(player_id=player_id)).values_list(
        "pk", "sitting_out", "leave_after_hand", "time_bank", "player__is_bot"
    )


def _latest_hand(table: Table) -> Hand | None:
    """The table's latest hand, voided or not, with its deck: the running hand if there is
    one (``hand_start`` deals none while one runs). One compiled statement."""
    return select_first(
        Hand, "latest-hand", _latest_hand_query, table.pk, annotations=_DECK_ANNOTATION
    )


def _latest_hand_query(table_id: int) -> QuerySet[Hand]:
    return with_deck(Hand.objects.filter(table_id=table_id)).order_by("-number")[:1]


#: The field of ``with_deck``'s annotation (a JSON list, decoded through it).
_DECK_ANNOTATION = {"secret_deck": HandSecret._meta.get_field("deck")}


def _between_hands(table: Table, latest: Hand | None, now: datetime) -> str | None:
    """``clock_tick`` at a table (locked) where no hand runs; ``latest``: its latest hand.
    Who the next hand deals is worked out once, for the checks and the deal alike."""
    last = latest if latest is None or latest.status != Hand.Status.VOIDED else last_hand(table)
    if last is not None and last.runout_showing:  # no new hand before its river
        return runouts.runout_advance(table, last, now)
    if table.status != Table.Status.OPEN:
        return None
    if _seat_bots(table):
        return "bots-seated"
    if table.next_hand_at is not None and now < table.next_hand_at:
        return None
    rules = rules_for(table, now)
    if not rules.may_deal:
        return None
    dealing = dealing_for(table, now, rules, latest)  # where the big blind was: ``latest``
    bots = [seat.is_bot for seat in dealing.seats]
    if len(bots) < 2 or not (rules.bots_alone or not all(bots)):
        return None
    version = table.version
    if mixed.choice_wait(table, dealing.numbers, now):
        return "choosing"
    if table.version != version:  # a bot picked the orbit's game: deal by its rules
        dealing = dealing_for(table, now, rules, latest)
    hand_deal(table, now, latest.number if latest is not None else 0, dealing, clock=True)
    return "started"


def timeout_move(legal: Legal) -> str:
    """What the clock does for a player out of time: stand pat at a draw, check, else fold;
    where none is open (stud's bring-in) the forced bet is posted by calling."""
    if legal.discard:
        return "discard"
    if legal.check:
        return "check"
    return "fold" if legal.fold else "call"


def _runs_due_tick(table: Table, hand: Hand, state: EngineHand, now: datetime) -> str | None:
    """Run it twice asked: a bot answers "once" at once (bots keep it simple); when the clock
    runs out, the default, once, is taken for whoever has not answered."""
    waiting = runouts.runs_unanswered(hand, state)
    bots = set(
        Player.objects.filter(
            pk__in=[hand.seats[s]["player_id"] for s in waiting], is_bot=True
        ).values_list("pk", flat=True)
    )
    bot = next((s for s in waiting if hand.seats[s]["player_id"] in bots), None)
    if bot is None and table.action_deadline is not None and now < table.action_deadline:
        return None
    seat = bot if bot is not None else waiting[0]
    hand_act(
        table=table,
        player=Player.objects.get(pk=hand.seats[seat]["player_id"]),
        hand_id=hand.pk,
        version=table.version,
        action="run_once",
        source=HandAction.Source.BOT if bot is not None else HandAction.Source.TIMEOUT,
        clock_now=now,
        locked=True,  # the tick's lock, its row unchanged since
    )
    return "runs"


def tables_due(now: datetime) -> list[int]:
    """Ids of the tables the croupier looks after that may have something due at ``now``, from
    ONE query, so it locks only those (``clock_tick`` still decides, under the lock, what
    exactly is due; a table left out here is one where it would do nothing). When each table
    is due: ``tables_due_at``."""
    return [pk for pk, at in tables_due_at().items() if at is not None and at <= now]


#: "Due now, whenever you look": a table with something to do that no deadline says.
DUE_NOW = datetime.min.replace(tzinfo=UTC)


def tables_due_at(table_ids: list[int] | None = None) -> dict[int, datetime | None]:
    """From ONE query, when each table the croupier looks after (open or paused, with someone
    seated or bots to seat; of ``table_ids`` if given) may next have something due: the
    moment its clock fires (``tables.timers``), ``DUE_NOW`` for at once, None for not
    until the table changes. A table whose lease another process holds now is left out:
    that process's clock runs it (``held_by_another``, its lease read in the same query);
    once that lease has expired, the table is read here again.

    - no hand running (open table): at once with bots to seat or no next hand set, else at
      ``next_hand_at``; a paused table: not until it changes;
    - a hand running: at once without a clock yet or with someone seated sitting out or
      leaving (the clock acts for them at once), else at the action deadline, or earlier
      with a bot seated, once the turn is old enough for the quickest bot to have thought
      (``POKER_BOT_DELAY``'s minimum).
    """

    rows: Iterable[tuple[Any, ...]]
    if table_ids is None:  # every table: the timers' resync, every few seconds
        rows = select_values_by_ids(Table, "clock-due-all", _due_of_all)
    elif 0 < len(table_ids) <= IDS_AT_ONCE:
        # A table after each of its changes and ticks, or the tables changed while the
        # timers' previous read was in flight: the statement compiled once per count.
        rows = select_values_by_ids(Table, f"clock-due-{len(table_ids)}", _due_of_ids, *table_ids)
    else:
        rows = _due_query(table_ids)
    return _due_from_rows(rows)


def _due_of_ids(*table_ids: int) -> QuerySet[Table, tuple[Any, ...]]:
    return _due_query(list(table_ids))


def _due_of_all() -> QuerySet[Table, tuple[Any, ...]]:
    return _due_query(None)


def _due_query(table_ids: list[int] | None) -> QuerySet[Table, tuple[Any, ...]]:
    """The rows ``tables_due_at`` reads: of every table, or of ``table_ids``."""
    running = Hand.objects.filter(table=OuterRef("pk"), status=Hand.Status.RUNNING)
    seats = Seat.objects.filter(table=OuterRef("pk"))
    tables = Table.objects.exclude(status=Table.Status.CLOSED)
    if table_ids is not None:
        tables = tables.filter(pk__in=table_ids)
    return (
        # the tables the croupier looks after (``due_after_write`` tells them the same way)
        tables.filter(Q(seats__isnull=False) | Q(bots_allowed=True, bot_seats__gt=0))
        .distinct()
        .annotate(
            has_hand=Exists(running),
            has_bot=Exists(seats.filter(player__is_bot=True)),
            has_away=Exists(seats.filter(Q(sitting_out=True) | Q(leave_after_hand=True))),
        )
        .order_by("pk")
        .values_list(  # the table, ``due_at``'s facts in its order, the lease
            "pk",
            "status",
            "bots_allowed",
            "bot_seats",
            "next_hand_at",
            "action_deadline",
            "action_seconds",
            "has_hand",
            "has_bot",
            "has_away",
            "lease__owner",
            "lease__until",
        )
    )


def _due_from_rows(rows: Iterable[tuple[Any, ...]]) -> dict[int, datetime | None]:
    now = timezone.now()  # the leases' clock, as ``held_elsewhere``'s: not a tick's ``now``
    due: dict[int, datetime | None] = {}
    for pk, *facts, lease_owner, lease_until in rows:
        if not held_by_another(lease_owner, lease_until, now):
            due[pk] = due_at(*facts)
    return due


def due_at(
    status: str,
    bots_allowed: bool,
    bot_seats: int,
    next_hand_at: datetime | None,
    deadline: datetime | None,
    seconds: int,
    has_hand: bool,
    has_bot: bool,
    has_away: bool,
) -> datetime | None:
    """When a table the croupier looks after may next have something due, from its facts
    (``tables_due_at``'s rule, whose query reads them; ``due_after_write`` reads them off a
    runtime's snapshot): ``has_hand``, a hand is running; ``has_bot``, one of the croupier's
    bots is seated; ``has_away``, someone seated is sitting out or leaving."""
    if not has_hand:
        if status != Table.Status.OPEN:
            return None
        if (bots_allowed and bot_seats) or next_hand_at is None:
            return DUE_NOW
        return next_hand_at
    if deadline is None or has_away:
        return DUE_NOW
    if has_bot:
        low = settings.POKER_BOT_DELAY[0]
        return min(deadline, deadline - timedelta(seconds=seconds - low))
    return deadline


def due_after_write(snapshot: Snapshot) -> datetime | None:
    """``tables_due_at``'s moment for the table of ``snapshot``, the table as the write of
    its runtime in this process left it (so the lease is this process's): the same facts as
    its query, off the snapshot's table row and seats, without reading the database. None
    for a table the croupier does not look after (closed; nobody seated, no bots to seat),
    whose timer goes."""
    table, seats = snapshot.table, snapshot.seats.values()
    listed = bool(seats) or (table.bots_allowed and table.bot_seats > 0)  # as ``_due_query``
    if table.status == Table.Status.CLOSED or not listed:
        return None
    return due_at(
        table.status,
        table.bots_allowed,
        table.bot_seats,
        table.next_hand_at,
        table.action_deadline,
        table.action_seconds,
        snapshot.running,
        any(seat.player.croupier_bot for seat in seats),
        any(seat.sitting_out or seat.leave_after_hand for seat in seats),
    )
