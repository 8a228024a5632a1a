"""Safe defaults read from the environment (pokersite/settings.py, settings_production.py):
DEBUG is off unless asked for, and nobody is exempt from the log-in and sign-up limits unless
listed. Each case imports the settings in a fresh interpreter with exactly that environment."""

import pytest

from tests.pokersite.fresh_python import fresh_json

PRODUCTION_KEY = "k" * 60


def read_settings(module="pokersite.settings", **env):
    """``DEBUG`` and ``RATELIMIT_EXEMPT`` of ``module`` imported with ``env`` set."""
    code = f"import json, {module} as s; print(json.dumps([s.DEBUG, list(s.RATELIMIT_EXEMPT)]))"
    return fresh_json(code, env, drop={"DEBUG", "RATELIMIT_EXEMPT"})


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


def test_production_refuses_to_turn_the_limits_off_without_a_second_switch():
    """Issue 54 finding 7: the production settings obeyed RATELIMIT_ENABLED=0."""
    from tests.pokersite.fresh_python import run_fresh

    code = "import json, pokersite.settings_production as s; print(json.dumps(s.AXES_ENABLED))"
    drop = {"RATELIMIT_ENABLED", "RATELIMIT_DISABLE_IN_PRODUCTION"}
    refused = run_fresh(code, {"SECRET_KEY": PRODUCTION_KEY, "RATELIMIT_ENABLED": "0"}, drop)
    assert refused.returncode != 0
    assert "RATELIMIT_DISABLE_IN_PRODUCTION" in refused.stderr
    both = {"RATELIMIT_ENABLED": "0", "RATELIMIT_DISABLE_IN_PRODUCTION": "1"}
    said = run_fresh(code, {"SECRET_KEY": PRODUCTION_KEY, **both}, drop)
    assert said.returncode == 0 and said.stdout.strip() == "false"
    assert "limits are OFF in production" in said.stderr
    on = run_fresh(code, {"SECRET_KEY": PRODUCTION_KEY}, drop)
    assert on.stdout.strip() == "true" and "OFF" not in on.stderr
