"""``GET /api/ops/runtimes/``: what this server process's table runtimes do, for its operators
and the load benchmark (staff only).

It lives beside the runtimes, not in ``tables.api``: the REST API and the live layer are
independent siblings (import-linter's layers), so the API may not import a runtime, and
handing it one through a hook registered at start-up would hide a plain call behind a
registry. ``pokersite.urls`` routes it under ``/api/`` like the socket's own protocol document;
the REST framework's settings (token or session, JSON errors, throttling, the schema class)
apply to it as to every API view.

Each process answers for itself: behind a load balancer, ask each process (the benchmark asks
every server it started).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAdminUser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.db.threads import work_cpu
from tables.live.runtime import TableRuntime
from tables.services.leases import PROCESS


class RuntimeFiguresSerializer(serializers.Serializer[dict[str, Any]]):
    process = serializers.CharField(help_text="This process's name in the leases it holds.")
    owned = serializers.ListField(
        child=serializers.IntegerField(), help_text="The tables this process runs (their ids)."
    )
    followed = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The tables it has sockets on but another process runs.",
    )
    commands = serializers.IntegerField(help_text="Commands carried out here as the owner.")
    forwards = serializers.IntegerField(
        help_text="Requests forwarded to the process that owns their table."
    )
    reads = serializers.IntegerField(help_text="Times a table was read again from the database.")
    built = serializers.IntegerField(
        help_text="Versions of a table another process runs built here from the action its"
        " owner published, instead of read."
    )
    forwarded_seconds = serializers.ListField(
        child=serializers.FloatField(),
        help_text="Each forwarded request's time until the owner's answer, in seconds,"
        " oldest first (the last 100,000 since the process started).",
    )
    threads = serializers.DictField(
        child=serializers.FloatField(),
        help_text="Each running thread's CPU seconds since it started, by its name (the event"
        " loop's is MainThread's under daphne).",
    )
    work = serializers.DictField(
        child=serializers.DictField(child=serializers.FloatField()),
        help_text="The CPU seconds spent on each kind of work since the process started, and"
        " how many times it ran: name -> {seconds, calls} (on the database threads: a table's"
        " command by its operation, its clock, else the service's name; on the event loop:"
        " the frames).",
    )


@extend_schema(
    tags=["operations"],
    summary="This server process's table runtimes (staff)",
    responses=RuntimeFiguresSerializer,
)
class RuntimeFigures(APIView):
    """The tables this process runs and follows, the commands it carried out and forwarded,
    the forwarded requests' answer times and where its CPU went (``process_figures``)."""

    permission_classes = [IsAdminUser]

    def get(self, request: Request) -> Response:
        return Response(RuntimeFiguresSerializer(process_figures()).data)


def process_figures() -> dict[str, Any]:
    """What this process's runtimes do now: the tables it runs and follows, the commands
    carried out and forwarded, the tables read again or built from their owner's action, the
    forwarded requests' answer times (seconds, oldest first), and where its CPU went: by
    thread, and by kind of work (``tables.db.threads.work_cpu``)."""
    runtimes = list(TableRuntime.runtimes.values())
    return {
        "process": PROCESS,
        "owned": sorted(r.table_id for r in runtimes if r.epoch is not None),
        "followed": sorted(r.table_id for r in runtimes if r.epoch is None),
        "commands": TableRuntime.totals["commands"],
        "forwards": TableRuntime.totals["forwards"],
        "reads": TableRuntime.totals["reads"],
        "built": TableRuntime.totals["built"],
        "forwarded_seconds": list(TableRuntime.forwarded_seconds),
        "threads": thread_cpu(),
        "work": work_cpu.figures(),
    }


def thread_cpu() -> dict[str, float]:
    """Each running thread's CPU seconds since it started, by its name."""
    seconds: dict[str, float] = {}
    for thread in threading.enumerate():
        if thread.ident is None:
            continue
        try:
            clock = time.pthread_getcpuclockid(thread.ident)
            spent = time.clock_gettime(clock)
        except OSError:  # it ended meanwhile
            continue
        seconds[thread.name] = seconds.get(thread.name, 0.0) + spent
    return seconds
