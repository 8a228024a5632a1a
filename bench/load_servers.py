"""What ``bench_load.py`` reads from the server processes it measures: their CPU time
(``/proc``), py-spy's profile of one, and their table runtimes' figures
(``/api/ops/runtimes/``, read with a staff member's token: how many requests one process
forwarded to another, and how long each waited for its answer)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

from tests.load.harness import PYTHON, Server

if TYPE_CHECKING:
    from bench.bench_load import Options

#: The operators' endpoint with a server process's runtime figures (``tables.live.operators``).
RUNTIMES_PATH = "/api/ops/runtimes/"


def profile_file(server: Server) -> Path:
    """Where py-spy writes the server's profile: outside its log folder, which is removed
    when the server closes, before the profile is printed."""
    return Path(tempfile.gettempdir()) / f"bench-profile-{os.getpid()}-{server.name}.txt"


def start_profile(server: Server, options: Options) -> subprocess.Popen:
    return subprocess.Popen(
        profile_command(server.proc.pid, profile_file(server), options),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def profile_command(pid: int, out: Path, options: Options) -> list[str]:
    """py-spy sampling process ``pid`` while the game is measured, raw stacks into ``out``:
    the thread holding the GIL, or every thread (``profile_threads``)."""
    beside = Path(PYTHON).parent / "py-spy"  # a virtualenv's, else the one on the PATH
    return [
        str(beside) if beside.exists() else shutil.which("py-spy") or "py-spy",
        "record",
        "--nonblocking",
        "--threads" if options.profile_threads else "--gil",
        *("-r", str(options.profile_rate), "-d", str(int(options.seconds)), "-f", "raw"),
        *("-o", str(out), "-p", str(pid)),
    ]


def process_cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from ``/proc`` (0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def runtime_figures(server: Server, token: str | None) -> dict | None:
    """The server's runtime figures now (``tables.live.operators.process_figures``), or None
    without a token or where the server does not serve them (a checkout from before them)."""
    if not token:
        return None
    request = urllib.request.Request(
        server.http + RUNTIMES_PATH, headers={"Authorization": f"Token {token}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())
    except (OSError, ValueError):  # urllib's HTTPError (a 404 from an older checkout) included
        return None
