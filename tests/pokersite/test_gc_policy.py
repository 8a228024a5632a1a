"""A server process freezes its start-up objects and spaces out collections
(pokersite.gc_policy)."""

import subprocess

import pytest

from tests.pokersite.fresh_python import fresh_json, run_fresh

#: The server's thresholds unless ``POKER_GC_THRESHOLDS`` says otherwise (pokersite/settings.py).
SERVER_THRESHOLDS = (10_000, 10, 100)

PROBE = (
    "import gc, json, pokersite.asgi; "
    "print(json.dumps({'thresholds': gc.get_threshold(), 'frozen': gc.get_freeze_count()}))"
)


def run_asgi(**env) -> subprocess.CompletedProcess:
    """Import the ASGI module in a fresh interpreter, as daphne does."""
    env["DJANGO_SETTINGS_MODULE"] = "pokersite.settings"
    return run_fresh(PROBE, env, drop={"POKER_GC_THRESHOLDS"})


def load_asgi(**env) -> dict:
    """The gc settings of a freshly imported ASGI module."""
    env["DJANGO_SETTINGS_MODULE"] = "pokersite.settings"
    return fresh_json(PROBE, env, drop={"POKER_GC_THRESHOLDS"})


def test_the_asgi_module_freezes_start_up_objects_and_sets_the_server_thresholds():
    found = load_asgi()
    assert tuple(found["thresholds"]) == SERVER_THRESHOLDS
    assert SERVER_THRESHOLDS[0] > 700 and SERVER_THRESHOLDS[2] > 10  # the defaults, spaced out
    # Django, the apps and the engine: tens of thousands of objects no collection walks again.
    assert found["frozen"] > 10_000


def test_thresholds_can_be_set_from_the_environment():
    assert tuple(load_asgi(POKER_GC_THRESHOLDS="700,10,10")["thresholds"]) == (700, 10, 10)


@pytest.mark.parametrize("text", ["700,10", "a,b,c", "0,10,10", "700,-1,10", "1,2,3,4"])
def test_malformed_thresholds_stop_the_server_with_a_clear_error(text):
    done = run_asgi(POKER_GC_THRESHOLDS=text)
    assert done.returncode != 0
    assert "ImproperlyConfigured: POKER_GC_THRESHOLDS must be three whole numbers" in done.stderr


def test_empty_thresholds_mean_the_server_defaults():
    assert tuple(load_asgi(POKER_GC_THRESHOLDS="  ")["thresholds"]) == SERVER_THRESHOLDS
