"""A server process lets a thread waiting for the interpreter lock in sooner than the
interpreter's default (pokersite.gil_policy)."""

import pytest

from tests.pokersite.fresh_python import fresh_json, run_fresh

#: A fresh interpreter's switch interval, whatever the database or the channel layer.
pytestmark = pytest.mark.one_pass

PROBE = "import json, sys, pokersite.asgi; print(json.dumps(sys.getswitchinterval()))"
#: The interpreter's own switch interval, in seconds.
INTERPRETER_DEFAULT = 0.005


def switch_interval(**env) -> float:
    """The switch interval of a freshly imported ASGI module (as daphne imports it)."""
    env["DJANGO_SETTINGS_MODULE"] = "pokersite.settings"
    return float(fresh_json(PROBE, env, drop={"POKER_SWITCH_INTERVAL_MS"}))


def test_the_asgi_module_shortens_the_switch_interval():
    found = switch_interval()
    assert found == pytest.approx(0.001)
    assert found < INTERPRETER_DEFAULT


def test_a_plain_import_of_the_settings_leaves_the_interpreter_alone():
    # Only a server process (the ASGI module) changes it: management commands do not.
    code = "import json, sys, django; django.setup(); print(json.dumps(sys.getswitchinterval()))"
    found = fresh_json(code, {"DJANGO_SETTINGS_MODULE": "pokersite.settings"})
    assert float(found) == pytest.approx(INTERPRETER_DEFAULT)


def test_the_interval_can_be_set_from_the_environment():
    assert switch_interval(POKER_SWITCH_INTERVAL_MS="2.5") == pytest.approx(0.0025)


@pytest.mark.parametrize("text", ["0", "-1", "fast", "1,2"])
def test_a_malformed_interval_stops_the_server_with_a_clear_error(text):
    done = run_fresh(
        PROBE,
        {"DJANGO_SETTINGS_MODULE": "pokersite.settings", "POKER_SWITCH_INTERVAL_MS": text},
    )
    assert done.returncode != 0
    assert "ImproperlyConfigured: POKER_SWITCH_INTERVAL_MS must be a number" in done.stderr
