"""The modules one click crosses: from the socket's receive to the frames sent.

    .venv/bin/python bench/one_click_modules.py [--json] [--lines]

One real click through the real server code, in process: a fresh SQLite file, two players
seated, a hand dealt from a fixed deck, both following the table over Channels'
``WebsocketCommunicator`` against the project's ASGI application (as ``tests/tables/wsclient.py``
does): the player to act on a browser page's socket, the other on a ``?state=json`` socket.
The player to act calls; ``sys.setprofile`` (and ``threading.setprofile`` for the threads the
database work runs on) records every module whose code runs from the consumer's ``receive``
of that click until its frames are all sent: until the runtime, done with its sockets, tells
the other processes (``tables.services.events.publish``).

Prints, in the order first entered (with the function that entered each), the site modules
(``tables.*``, ``pokersite.*``) and the engine's (``engine.*``) apart, their counts, the
thread hops (each hand-over to a thread and back, with the site code that asked for it), and
the site modules first entered after the frames; ``--json`` adds every function each site
module was entered by, with how often (``functions``: where the click's code lives). A
module is entered when one of its functions is called; a coroutine that only goes on after
an ``await`` (the ASGI stack around the consumer, the runtime's queue loop, each started
before the click) enters nothing. The test harness (``tests.*``, ``bench.*``) and the
libraries are left out. The table's clock (``TableRuntime``'s keep-up pass) is held off so
that it cannot fall inside the click.

``--lines`` also traces every line the click runs (``sys.settrace``: slower, so apart) and
prints, beside each site module, how many of its lines the click ran: where the click's code
lives, against the modules' whole size (what a module holds that no click runs).

It measures the tree it is run from; a checkout from before the runtime (no ``publish``
step) is measured to its last frame sent, which ``site_count_to_last_send`` also gives here
(it leaves out what a socket does after sending its frame, so the two differ by a module or
two with the order the sockets are served in).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dis
import inspect
import json
import os
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SITE = ("tables", "pokersite")
ENGINE = ("engine",)
HARNESS = ("tests", "bench", "__main__")
FIXED_SEED = f"{1:064x}"


def family(module: str) -> str:
    """``site``, ``engine``, ``harness`` or ``library`` for a module's dotted name."""
    top = module.split(".", 1)[0]
    if top in SITE:
        return "site"
    if top in ENGINE:
        return "engine"
    if top in HARNESS:
        return "harness"
    return "library"


class ModuleRecorder:
    """A profile function: each module's first entry (in order) from ``start_code``'s first
    call to ``end_code``'s (the click's frames all sent), and each hand-over to a thread
    (``run_in_executor``, or the site's ``WorkThreads.run``: ``hop_codes``) with the site code
    that asked for it."""

    def __init__(
        self, start_code: Any, end_code: Any, send_code: Any, hop_codes: tuple[Any, ...]
    ) -> None:
        self.start_code, self.end_code, self.hop_codes = start_code, end_code, hop_codes
        self.send_code = send_code
        self.armed = False  # waiting for the receive
        self.recording = False
        self.order: dict[str, int] = {}  # module -> when first entered (a call counter)
        self.first: dict[str, str] = {}  # module -> the function it was first entered by
        self.calls = 0
        self.end = 0  # the counter when the frames were all sent
        self.last_send = 0  # the counter at the last frame sent (until ``frames_in``)
        self.frames_in = False  # the harness has every frame of the click
        self.hops: list[tuple[int, str]] = []  # (counter, the site code that asked)
        self.threads: dict[str, set[str]] = {}  # module -> names of the threads it ran on
        self.functions: dict[str, dict[str, int]] = {}  # module -> function -> calls

    def __call__(self, frame: FrameType, event: str, arg: object) -> None:
        if event != "call" or _resumed(frame):
            return
        if not self.recording:
            if not (self.armed and frame.f_code is self.start_code):
                return
            self.recording, self.armed = True, False
        module = frame.f_globals.get("__name__") or "?"
        kind = family(module)
        if kind == "harness":
            return
        self.calls += 1
        if module not in self.order:
            self.order[module] = self.calls
            self.first[module] = frame.f_code.co_qualname
        self.threads.setdefault(module, set()).add(threading.current_thread().name)
        called = self.functions.setdefault(module, {})
        called[frame.f_code.co_qualname] = called.get(frame.f_code.co_qualname, 0) + 1
        if frame.f_code is self.end_code and not self.end:
            self.end = self.calls
        elif frame.f_code is self.send_code and not self.frames_in:
            self.last_send = self.calls
        elif frame.f_code in self.hop_codes:
            self.hops.append((self.calls, _site_caller(frame)))

    def in_click(self) -> bool:
        """Whether the click is under way: its receive came, its frames are not all sent."""
        return self.recording and not self.end and not self.frames_in

    def report(self) -> dict[str, Any]:
        def listed(kind: str, until: int | None, after: int | None = None) -> list[str]:
            return [
                module
                for module, at in sorted(self.order.items(), key=lambda item: item[1])
                if family(module) == kind
                and (until is None or at <= until)
                and (after is None or at > after)
            ]

        end = self.end or self.last_send
        site = listed("site", end)
        engine = listed("engine", end)
        return {
            "site_modules": site,
            "engine_modules": engine,
            "entered_by": {module: self.first[module] for module in [*site, *engine]},
            "functions": {module: self.functions[module] for module in site},
            "site_count": len(site),
            "site_count_to_last_send": len(listed("site", self.last_send)),
            "engine_count": len(engine),
            "thread_hops": [where for at, where in self.hops if at <= end],
            "off_the_loop": sorted(
                module
                for module in [*site, *engine]
                if self.threads[module] != {threading.main_thread().name}
            ),
            "site_after_frames": listed("site", None, after=end),
        }


#: code -> the offset where a fresh call of it starts running its body
_STARTS: dict[CodeType, int] = {}


def _resumed(frame: FrameType) -> bool:
    """Whether ``frame`` (a coroutine's or a generator's) goes on after an ``await`` or a
    ``yield`` rather than starting: the profile reports both as a call."""
    code = frame.f_code
    if not code.co_flags & _SUSPENDING:
        return False
    start = _STARTS.get(code)
    if start is None:
        start = _STARTS[code] = next(
            op.offset for op in dis.get_instructions(code) if op.opname == "RESUME"
        )
    return frame.f_lasti > start


_SUSPENDING = inspect.CO_COROUTINE | inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR


def _site_hops() -> tuple[Any, ...]:
    """The code of the site's own hand-over to a thread, where the checkout has one."""
    import tables.db.threads as threads

    work_threads = getattr(threads, "WorkThreads", None)
    return (work_threads.run.__code__,) if work_threads is not None else ()


def _site_caller(frame: FrameType | None) -> str:
    """The nearest site function up the stack from ``frame`` that is not the hand-over's own
    (``tables.db.threads``): ``module.function``."""
    while frame is not None:
        module = frame.f_globals.get("__name__") or "?"
        if family(module) == "site" and module != "tables.db.threads":
            return f"{module}.{frame.f_code.co_name}"
        frame = frame.f_back
    return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--lines", action="store_true", help="count the lines of each site module the click runs"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/click.sqlite3"
        os.environ["POKER_CROUPIER"] = "0"  # the click is the only change
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")
        figures = measure(lines=args.lines)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{ROOT}: one click (a call), from the socket's receive to the frames sent")
    print(f"site modules ({figures['site_count']}), in the order first entered:")
    run = figures.get("site_lines_run")
    for module in figures["site_modules"]:
        lines = f"{run[module]:4} of {figures['site_lines'][module]:4} lines  " if run else ""
        print(f"  {module:32} {lines}{figures['entered_by'][module]}")
    if run:
        whole = sum(figures["site_lines"].values())
        print(f"  (lines run: {sum(run.values())} of the {whole} these modules hold)")
    print(f"  (to the last frame sent: {figures['site_count_to_last_send']})")
    print(f"engine modules ({figures['engine_count']}):")
    for module in figures["engine_modules"]:
        print(f"  {module:32} {figures['entered_by'][module]}")
    print(f"thread hops (a thread and back): {len(figures['thread_hops'])}, asked by:")
    for where in figures["thread_hops"]:
        print(f"  {where}")
    print(f"run off the event loop's thread: {', '.join(figures['off_the_loop']) or 'none'}")
    after = ", ".join(figures["site_after_frames"]) or "none"
    print(f"site modules first entered after the frames: {after}")


def measure(lines: bool = False) -> dict[str, Any]:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    import tables.services.hands as hands

    hands.new_seed = lambda: FIXED_SEED  # type: ignore[attr-defined]  # the same deal every run
    with contextlib.suppress(ImportError):  # a checkout from before the runtime has none
        import tables.live.ownership as runtime_module

        runtime_module.KEEP_UP_SECONDS = 3600.0  # no clock pass inside the click
    from tables.models import Table
    from tables.selectors.hands import hand_state
    from tables.services import hand_start, player_sign_up, seat_take, table_save

    table = table_save(table=Table(name="One click", max_seats=6))
    players = [player_sign_up(username=name, password=f"pw-{name}-Secret1") for name in "ab"]
    for number, player in enumerate(players):
        seat_take(table=table, player=player, buy_in=200, seat_number=number)
    hand = hand_start(table=Table.objects.get(pk=table.pk))
    state = hand_state(hand)
    assert state.actor is not None
    actor_id = hand.seats[state.actor]["player_id"]
    clicker = next(player for player in players if player.pk == actor_id)
    other = next(player for player in players if player.pk != actor_id)
    return asyncio.run(click(table.pk, clicker, other, lines))


class LineRecorder:
    """A trace function: the lines of site modules run while ``recorder``'s click is under
    way (each module's distinct line numbers)."""

    def __init__(self, recorder: ModuleRecorder) -> None:
        self.recorder = recorder
        self.lines: dict[str, set[int]] = {}

    def __call__(self, frame: FrameType, event: str, arg: object) -> Any:
        module = frame.f_globals.get("__name__") or "?"
        return self._line if family(module) == "site" else None

    def _line(self, frame: FrameType, event: str, arg: object) -> Any:
        if event == "line" and self.recorder.in_click():
            module = frame.f_globals.get("__name__") or "?"
            self.lines.setdefault(module, set()).add(frame.f_lineno)
        return self._line

    def report(self, modules: list[str]) -> dict[str, Any]:
        """The lines run in each of ``modules`` and each one's size (its file's lines)."""
        return {
            "site_lines_run": {module: len(self.lines.get(module, ())) for module in modules},
            "site_lines": {
                module: len(Path(sys.modules[module].__file__ or "").read_text().splitlines())
                for module in modules
            },
        }


async def click(table_id: int, clicker: Any, other: Any, lines: bool = False) -> dict[str, Any]:
    from asgiref.sync import SyncToAsync, sync_to_async
    from channels.generic.websocket import AsyncWebsocketConsumer

    import tables.services.events as events
    from tables.live.consumer import TableConsumer
    from tests.tables.wsclient import Socket, communicator, session_cookie

    # The frames are all sent when the runtime tells the other processes (a checkout from
    # before the runtime has no such step: its click ends at the last frame sent).
    publish = getattr(events, "publish", None)
    recorder = ModuleRecorder(
        TableConsumer.receive.__code__,
        publish.__code__ if publish is not None else None,
        AsyncWebsocketConsumer.send.__code__,
        (asyncio.BaseEventLoop.run_in_executor.__code__, *_site_hops()),
    )
    # Every thread made from here on is profiled: the database's threads are made anew.
    threading.setprofile(recorder)
    sys.setprofile(recorder)
    tracer = LineRecorder(recorder) if lines else None
    if tracer is not None:
        threading.settrace(tracer)
        sys.settrace(tracer)
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor())
    try:
        cookies = [await sync_to_async(session_cookie)(p.user) for p in (clicker, other)]
        page = await Socket("page", communicator(table_id, cookies[0])).connect()
        program = Socket("json", communicator(table_id, cookies[1], query="state=json"))
        connected, _ = await program.comm.connect(timeout=10)
        assert connected
        assert json.loads(await program.receive())["type"] == "state"
        await page.drain()
        await program.drain()
        version = page.version
        recorder.armed = True
        await page.act("call")
        await page.until_version(version + 1)
        await program.until(lambda frame: _json_version(frame) > version)
        recorder.frames_in = True
        await page.drain()  # what the click still does once its frames are sent
        recorder.recording = False
        for socket in (page, program):
            await socket.close()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
        sys.settrace(None)
        threading.settrace(None)
    assert recorder.last_send > 0, "no frame was sent"
    figures = recorder.report()
    if tracer is not None:
        figures.update(tracer.report(figures["site_modules"]))
    return figures


def _json_version(frame: str) -> int:
    data = json.loads(frame)
    if data.get("type") not in ("state", "update"):
        return -1
    version = data.get("version", data.get("state", {}).get("version", -1))
    return int(version)


if __name__ == "__main__":
    main()
