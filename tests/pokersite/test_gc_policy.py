"""A server process freezes its start-up objects, collects the youngest generation on a timer
and spaces out the older ones' collections (pokersite.gc_policy)."""

import subprocess

import pytest

from tests.pokersite.fresh_python import fresh_json, run_fresh

#: A fresh interpreter's collector, whatever the database or the channel layer.
pytestmark = pytest.mark.one_pass

#: The server's thresholds unless ``POKER_GC_THRESHOLDS`` says otherwise (pokersite/settings.py).
SERVER_THRESHOLDS = (10_000, 100, 100)

PROBE = (
    "import gc, json, pokersite.asgi; "
    "print(json.dumps({'thresholds': gc.get_threshold(), 'frozen': gc.get_freeze_count()}))"
)


GC_VARIABLES = {"POKER_GC_THRESHOLDS", "POKER_GC_YOUNG_SECONDS"}

#: Young collections of a process that allocates next to nothing meanwhile (none from the
#: thresholds), seen by a ``gc.callbacks`` hook that wakes the probe at the third (a busy
#: machine may wake the collector late: at most 5 s), and whether the collector's thread runs.
YOUNG_PROBE = (
    "import gc, json, threading, {module}; "
    "young, enough = [], threading.Event()\n"
    "def seen(phase, info):\n"
    "    if phase == 'stop' and info['generation'] == 0:\n"
    "        young.append(1)\n"
    "        if len(young) >= 3: enough.set()\n"
    "gc.callbacks.append(seen); enough.wait(5)\n"
    "print(json.dumps({{'young': len(young), "
    "'thread': any(t.name == 'gc-young-generation' for t in threading.enumerate())}}))"
)


def young_collections(module: str = "pokersite.asgi", **env) -> dict:
    env["DJANGO_SETTINGS_MODULE"] = "pokersite.settings"
    code = YOUNG_PROBE.format(module=module)
    if module != "pokersite.asgi":
        code = code.replace(f"{module}; ", f"{module}; django.setup(); ")
    return fresh_json(code, env, drop=GC_VARIABLES)


def run_asgi(**env) -> subprocess.CompletedProcess:
    """Import the ASGI module in a fresh interpreter, as daphne does."""
    env["DJANGO_SETTINGS_MODULE"] = "pokersite.settings"
    return run_fresh(PROBE, env, drop=GC_VARIABLES)


def load_asgi(**env) -> dict:
    """The gc settings of a freshly imported ASGI module."""
    env["DJANGO_SETTINGS_MODULE"] = "pokersite.settings"
    return fresh_json(PROBE, env, drop=GC_VARIABLES)


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


def test_the_server_collects_the_youngest_generation_every_tenth_of_a_second():
    found = young_collections()
    assert found["thread"]
    assert found["young"] >= 3  # within 5 s at 0.1 s: the timer's, not the thresholds'


@pytest.mark.slow
def test_the_young_collections_can_be_spaced_out_or_left_to_the_thresholds():
    assert young_collections(POKER_GC_YOUNG_SECONDS="60") == {"young": 0, "thread": True}
    assert young_collections(POKER_GC_YOUNG_SECONDS="0") == {"young": 0, "thread": False}


@pytest.mark.slow
def test_only_a_server_process_collects_on_a_timer():
    # management commands and the tests import the settings, not the ASGI module
    assert young_collections("django") == {"young": 0, "thread": False}


@pytest.mark.parametrize("text", ["-1", "often", "0.1,0.2"])
def test_a_malformed_young_interval_stops_the_server_with_a_clear_error(text):
    done = run_asgi(POKER_GC_YOUNG_SECONDS=text)
    assert done.returncode != 0
    assert "ImproperlyConfigured: POKER_GC_YOUNG_SECONDS must be a number" in done.stderr
