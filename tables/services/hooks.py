"""Where other apps plug into the cash game's services without the services importing them.

The tournaments app (``tables.tournaments``) and the statistics (``tables.stats``) register
into these lists from their ``AppConfig.ready``; the services call them at fixed points, inside
their transaction, with the table row locked. A table nobody claims plays by the cash-game
rules (``CASH_RULES``).

- ``table_rules``: ``f(table, now) -> TableRules | None``: the first answer that is not None
  decides how the table seats and deals at ``now`` (the croupier's time, injected in tests).
- ``hand_starting``: ``f(table, now) -> None`` before a hand is dealt (may set the table's
  stakes, saved by the listener: the hand is dealt with them; not who is dealt in, which the
  croupier works out before it calls them).
- ``hand_finished``: ``f(hand, state) -> None`` once a hand is over and its result stored
  (``state``: the engine's finished hand), before its stacks go back to the seats.
- ``hand_ended``: ``f(table, hand) -> None`` once a hand is over, its stacks written and the
  busted seats freed.
- ``croupier_pass``: ``f(now) -> None`` once per pass of the croupier, before the tables'.
- ``turn_passed``: ``f(table, hand, player_id) -> None`` when the turn passes to a player (a
  hand dealt, or an action after which another player is to act), the table at its new
  version (the turn nudge's Web Push, ``tables.push``: it must stay cheap).
- ``push_subscribed``: ``f(player_id) -> None`` once a browser's push subscription for the
  player is committed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypeVar

from django.utils import timezone

if TYPE_CHECKING:
    from engine.hand import Hand as EngineHand
    from tables.models import Hand, Table

L = TypeVar("L")  # a registry's listener type


@dataclass(frozen=True)
class TableRules:
    """How a table seats and deals, when not as a cash game.

    ``seating_closed``: why players cannot sit down, leave or add chips themselves (the
    message for them), or None. ``deal_sitting_out``: players sitting out are dealt in (they
    post blinds and the clock folds them). ``bots_alone``: a hand may start with bots only.
    ``may_deal``: a hand may start now (False holds the table back, e.g. hand-for-hand or a
    break). ``away_keeps_clock``: a player sitting out or leaving is acted for when the action
    clock runs out (no time bank), not at once.
    """

    seating_closed: str | None = None
    deal_sitting_out: bool = False
    bots_alone: bool = False
    may_deal: bool = True
    away_keeps_clock: bool = False


CASH_RULES = TableRules()

# Listeners' answers other than table_rules' are not used: they may return anything.
table_rules: list[Callable[[Table, datetime], TableRules | None]] = []
hand_starting: list[Callable[[Table, datetime], object]] = []
hand_finished: list[Callable[[Hand, EngineHand], object]] = []
hand_ended: list[Callable[[Table, Hand], object]] = []
croupier_pass: list[Callable[[datetime], object]] = []
turn_passed: list[Callable[[Table, Hand, int], object]] = []
push_subscribed: list[Callable[[int], object]] = []


def rules_for(table: Table, now: datetime | None = None) -> TableRules:
    """The rules ``table`` plays by at ``now`` (default: the time now): the first listener's
    answer, else ``CASH_RULES``."""
    now = now or timezone.now()
    for listener in table_rules:
        rules = listener(table, now)
        if rules is not None:
            return rules
    return CASH_RULES


def register(registry: list[L], listener: L) -> None:
    """Add ``listener`` once (``AppConfig.ready`` may run more than once in tests)."""
    if listener not in registry:
        registry.append(listener)
