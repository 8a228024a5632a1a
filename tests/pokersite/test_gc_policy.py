"""A server process freezes its start-up objects and spaces out collections (pokersite.gc_policy)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pokersite.gc_policy import SERVER_THRESHOLDS, thresholds_from_env

ROOT = Path(__file__).resolve().parents[2]

PROBE = (
    "import gc, json, pokersite.asgi; "
    "print(json.dumps({'thresholds': gc.get_threshold(), 'frozen': gc.get_freeze_count()}))"
)


def load_asgi(**env) -> dict:
    """Import the ASGI module in a fresh interpreter, as daphne does; its gc settings."""
    environment = {k: v for k, v in os.environ.items() if k != "POKER_GC_THRESHOLDS"}
    environment.update(env, DJANGO_SETTINGS_MODULE="pokersite.settings")
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_asgi_module_freezes_start_up_objects_and_sets_the_server_thresholds():
    found = load_asgi()
    assert tuple(found["thresholds"]) == SERVER_THRESHOLDS
    assert SERVER_THRESHOLDS[0] > 700 and SERVER_THRESHOLDS[2] > 10  # the defaults, spaced out
    # Django, the apps and the engine: tens of thousands of objects no collection walks again.
    assert found["frozen"] > 10_000


def test_thresholds_can_be_set_from_the_environment():
    assert tuple(load_asgi(POKER_GC_THRESHOLDS="700,10,10")["thresholds"]) == (700, 10, 10)


@pytest.mark.parametrize("text", ["700,10", "a,b,c", "0,10,10", "700,-1,10", "1,2,3,4"])
def test_malformed_thresholds_are_refused_with_a_clear_error(text):
    with pytest.raises(ValueError, match="POKER_GC_THRESHOLDS"):
        thresholds_from_env(text)


def test_unset_thresholds_mean_the_server_defaults():
    assert thresholds_from_env(None) == thresholds_from_env("  ") == SERVER_THRESHOLDS
