"""``poker bot``: a policy plays a seat over the socket, as any client does.

A policy is ``sensible`` or ``random`` (``engine.bots``, given the engine's view of the hand
from the state frame) or ``package.module:function``, your own: it is called with the play
state (the same object ``GET /api/tables/<id>/state/`` answers, ``legal`` included) whenever
it is your turn, and returns an action: ``"fold"``, ``"check"``, ``"call"``, ``"all_in"``,
``"raise 120"``, ``("raise", 120)`` or ``{"kind": "raise", "amount": 120}`` (raise *to*);
in a draw game's draw ``"discard 7h2c"`` or ``{"kind": "discard", "cards": ["7h", "2c"]}``
(``"discard"`` stands pat). At a dealer's-choice table it picks the host's first game.
"""

from __future__ import annotations

import asyncio
import importlib
import random
from collections.abc import Callable, Coroutine
from typing import Any

from engine.bots import RandomBot, SensibleBot
from engine.types import Action, ActionKind
from pokerclient.config import ClientError
from pokerclient.live import TableSocket

Policy = Callable[[dict[str, Any]], Any]  # the state frame -> an action


def load_policy(spec: str, seed: int | None = None) -> Policy:
    """The policy named ``spec``; a ``ClientError`` naming what is wrong otherwise."""
    if spec in ("sensible", "random"):
        rng = random.Random(seed)
        bot = SensibleBot(rng) if spec == "sensible" else RandomBot(rng)
        return lambda frame: bot.decide(frame["view"])
    module_name, _, function_name = spec.partition(":")
    if not module_name or not function_name:
        raise ClientError(f"unknown policy {spec!r}: sensible, random or package.module:function")
    try:
        function = getattr(importlib.import_module(module_name), function_name)
    except (ImportError, AttributeError) as error:
        raise ClientError(f"cannot load policy {spec!r}: {error}") from None
    if not callable(function):
        raise ClientError(f"policy {spec!r} is not a function")
    return lambda frame: function(frame["state"])


def request_of(action: Any) -> dict[str, Any]:
    """A policy's answer as the ``act`` request's fields (``kind``, ``amount``)."""
    action = Action.coerce(action)
    fields: dict[str, Any] = {"kind": str(action.kind)}
    if action.amount is not None:
        fields["amount"] = action.amount
    if action.kind is ActionKind.DISCARD:
        fields["cards"] = [str(card) for card in action.cards]
    return fields


def safe_fields(actions: list[str]) -> dict[str, Any]:
    """The move that is always legal: stand pat at a draw, else check, else fold (a stud
    bring-in, where neither is open, is posted by calling)."""
    for kind in ("discard", "check", "fold", "call"):
        if kind in actions:
            return {"kind": kind}
    return {"kind": actions[0]}


class BotRunner:
    """Plays one seat with ``policy``: sits down with ``buy_in`` when it has no seat, acts on
    its turn, leaves after ``hands`` hands it was dealt into (None: goes on)."""

    def __init__(
        self,
        socket_of: Callable[..., TableSocket],
        policy: Policy,
        buy_in: int | None = None,
        hands: int | None = None,
        say: Callable[[str], None] = print,
    ) -> None:
        self.socket = socket_of(on_state=self.on_state, on_status=say)
        self.policy, self.buy_in, self.hands, self.say = policy, buy_in, hands, say
        self.acted: set[tuple[int | str, int]] = set()
        self.dealt: set[int] = set()
        self.finished: set[int] = set()
        self.sitting = False
        self.done = asyncio.Event()
        self.tasks: set[asyncio.Task[Any]] = set()

    async def run(self) -> int:
        """Play until done; the hands played to their end."""
        follow = asyncio.ensure_future(self.socket.run())
        finished = asyncio.ensure_future(self.done.wait())
        await asyncio.wait({follow, finished}, return_when=asyncio.FIRST_COMPLETED)
        if follow.done():
            finished.cancel()
            follow.result()  # a ClientError ends the bot with its line
        else:
            try:
                await self.socket.request("leave")
            except ClientError as error:
                self.say(f"could not leave: {error}")
            await self.socket.stop()
            await follow
        return len(self.finished)

    def on_state(self, frame: dict[str, Any]) -> None:
        state = frame["state"]
        you = state.get("you") or {}
        hand = state.get("hand")
        if hand is not None and you.get("in_hand"):
            self.dealt.add(hand)
        if not state["running"] and state.get("hand_number") is not None:
            self.finished |= self.dealt
            self.dealt = set()
        if self.hands is not None and len(self.finished) >= self.hands:
            self.done.set()
            return
        if you.get("seat") is None and self.buy_in and not self.sitting:
            self.sitting = True
            self._spawn(self._sit_down())
        if state.get("choice") and ("choice", state["version"]) not in self.acted:
            self.acted.add(("choice", state["version"]))  # dealer's choice: the list's first
            self._spawn(self._choose(state["choice"][0]["game"]))
        legal = state.get("legal")
        key = (hand, state["version"])
        if legal is not None and hand is not None and key not in self.acted:
            self.acted.add(key)
            self._spawn(self._act(frame, hand, state["version"]))

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _sit_down(self) -> None:
        try:
            answer = await self.socket.request("take_seat", buy_in=self.buy_in)
            self.say(answer["message"])
        except ClientError as error:
            self.say(str(error))
        finally:
            self.sitting = False

    async def _choose(self, game: str) -> None:
        try:
            answer = await self.socket.request("choose_game", game=game)
            self.say(answer["message"])
        except ClientError as error:
            self.say(str(error))

    async def _act(self, frame: dict[str, Any], hand: int, version: int) -> None:
        try:
            if "run_once" in frame["state"]["legal"]["actions"]:
                fields = {"kind": "run_once"}  # run it twice? a bot keeps it simple
            else:
                fields = request_of(self.policy(frame))
        except Exception as error:  # the user's policy failed: play safe, say why in a line
            self.say(f"policy failed ({type(error).__name__}: {error}): checking or folding")
            fields = safe_fields(frame["state"]["legal"]["actions"])
        try:
            answer = await self.socket.request("act", hand=hand, version=version, **fields)
        except ClientError as error:
            self.say(str(error))
            return
        if answer["error"]:
            self.say(f"refused: {answer['message']} ({answer.get('code')})")
