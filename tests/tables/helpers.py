"""Drive hands through the services, reading everything back from the database."""

from __future__ import annotations

import contextlib
import functools
import random
from collections.abc import Callable
from typing import Any

from engine.bots import RandomBot
from tables.live import runtime
from tables.models import Hand, Player, Table
from tables.presenters.models import Screen
from tables.presenters.screen import table_screen
from tables.selectors.hands import hand_state, running_hand
from tables.selectors.hosting import left_table
from tables.selectors.players import player_bankroll
from tables.selectors.snapshot import Snapshot, load_snapshot
from tables.services import hand_act, hand_start
from tables.services.errors import HandInProgress
from tables.services.live_hand import LiveHand
from tables.text import act_fields


def fresh(table: Table) -> Table:
    return Table.objects.get(pk=table.pk)


def screen_of(table: Table, player: Player | None) -> Screen:
    """The table as ``player`` (None: a spectator) sees it now, as the page load builds it."""
    bankroll = player_bankroll(player.pk) if player is not None else None
    snapshot = load_snapshot(table)
    left_with = left_table(table.pk, player).minimum if player is not None else 0
    return table_screen(snapshot, player, bankroll, left_with=left_with)


def current_hand(table: Table) -> Hand:
    hand = running_hand(fresh(table))
    assert hand is not None, "no hand is running"
    return hand


def actor(hand: Hand) -> Player:
    """The player to act in ``hand`` (rebuilt from the database)."""
    state = hand_state(hand)
    assert state.actor is not None, "nobody is to act"
    return Player.objects.get(pk=hand.seats[state.actor]["player_id"])


def act(table: Table, action, *, player: Player | None = None, source: str = "player") -> Hand:
    """The actor (or ``player``) acts with the table's current version."""
    hand = current_hand(table)
    who = player or actor(hand)
    return hand_act(
        table=table,
        player=who,
        hand_id=hand.pk,
        version=fresh(table).version,
        action=action,
        source=source,
    )


def passive_action(hand: Hand) -> str:
    legal = hand_state(hand).legal
    return "check" if legal.check else "call"


def play_out(table: Table, choose=passive_action, limit: int = 500) -> Hand:
    """Play the running hand to its end, each actor choosing ``choose(hand)``.

    Blinds can put everyone but one player all-in, and such a hand is over as soon as it is
    dealt: then the table's latest hand is returned as it is.
    """
    hand = running_hand(fresh(table)) or table.hands.order_by("-number").first()
    assert hand is not None, "no hand was dealt at this table"
    for _ in range(limit):
        hand.refresh_from_db()
        if not hand.is_running:
            return hand
        act(table, choose(hand))
    raise AssertionError(f"hand not over after {limit} actions")


def play_until(table: Table, reached, choose=passive_action, limit: int = 300) -> Hand:
    """Play hand after hand until ``reached(hand)`` holds for the running hand, each actor
    choosing ``choose(hand)``; returns that hand.

    Between hands the next one is dealt now through the same locked service the croupier uses,
    instead of waiting for it; if a croupier deals first, the service refuses and the next pass
    reads that hand."""
    for _ in range(limit):
        hand = running_hand(table)
        if hand is None:
            with contextlib.suppress(HandInProgress):
                hand_start(table=table)
        elif reached(hand):
            return hand
        else:
            act(table, choose(hand))
    raise AssertionError(f"not reached after {limit} steps")


def act_request(
    table_id: int, player: Player, data: dict[str, Any], live: LiveHand | None
) -> Callable[[], str]:
    """A socket's ``act`` request as the table's runtime carries it out
    (``TableRuntime._command``): its fields parsed now (``act_fields``: ``BadFrame`` or
    ``NumberError``), the action on the write thread by ``hand_act``, on the runtime's hand
    in memory (``live``)."""
    return functools.partial(runtime._act, table_id, player, act_fields(data), live)


def bot_act_request(
    snapshot: Snapshot, rng: random.Random, by_id: dict[int, Player], live: LiveHand | None
) -> Callable[[], Any]:
    """A random bot's decision for the actor of ``snapshot``'s running hand, as their
    socket's ``act`` request reaches the table's runtime (``act_request`` on ``live``)."""
    state = snapshot.state
    assert snapshot.hand is not None and state is not None and state.actor is not None
    decided = RandomBot(rng).decide(state.view(state.actor))
    who = by_id[snapshot.hand.seats[state.actor]["player_id"]]
    data = {
        "op": "act",
        "hand": snapshot.hand.pk,
        "version": snapshot.version,
        "kind": str(decided.kind),
        "amount": decided.amount,
    }
    return act_request(snapshot.table.pk, who, data, live)


class Calls:
    """How often ``module.name`` is called from now on (the real one still runs), e.g. how
    often a service replayed a hand (``hand_state``) or a view loaded a table."""

    def __init__(self, monkeypatch: Any, module: Any, name: str) -> None:
        self.count = 0
        real = getattr(module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
