"""Safe defaults read from the environment (pokersite/settings.py, settings_production.py):
DEBUG is off unless asked for, and nobody is exempt from the log-in and sign-up limits unless
listed. Each case imports the settings in a fresh interpreter with exactly that environment."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_KEY = "k" * 60


def read_settings(module="pokersite.settings", **env):
    """``DEBUG`` and ``RATELIMIT_EXEMPT`` of ``module`` imported with ``env`` set."""
    environ = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "RATELIMIT_EXEMPT"}}
    environ.update(env)
    code = f"import json, {module} as s; print(json.dumps([s.DEBUG, list(s.RATELIMIT_EXEMPT)]))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_debug_is_off_unless_asked_for():
    assert read_settings()[0] is False
    assert read_settings(DEBUG="1")[0] is True
    assert read_settings(DEBUG="0")[0] is False


@pytest.mark.parametrize(
    "value, exempt",
    [
        (None, []),
        ("", []),
        ("10.0.0.1, ::1", ["10.0.0.1", "::1"]),
    ],
)
def test_nobody_is_exempt_unless_listed(value, exempt):
    env = {} if value is None else {"RATELIMIT_EXEMPT": value}
    assert read_settings(**env)[1] == exempt


def test_production_exempts_nobody_whatever_the_environment_says():
    debug, exempt = read_settings(
        "pokersite.settings_production",
        SECRET_KEY=PRODUCTION_KEY,
        RATELIMIT_EXEMPT="127.0.0.1,::1",
    )
    assert exempt == [] and debug is False
