"""Run a line of Python in a fresh interpreter at the repository's root, with the
environment as given: how the tests read settings that are fixed when a process starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_fresh(code: str, env: dict, drop: Iterable[str] = ()) -> subprocess.CompletedProcess:
    """``code`` run by a new interpreter whose environment is this one's without ``drop``,
    plus ``env``."""
    dropped = set(drop)
    environ = {k: v for k, v in os.environ.items() if k not in dropped}
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def fresh_json(code: str, env: dict, drop: Iterable[str] = ()):
    """The JSON ``code`` prints last, run as ``run_fresh`` does; it must succeed."""
    done = run_fresh(code, env, drop)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
