"""``POKER_LOG_FORMAT=json``: one JSON object per record, with the table and hand ids a record
carries; the readable lines stay the default; another value is refused at start-up."""

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

from pokersite.logs import JsonFormatter

ROOT = Path(__file__).resolve().parents[2]


def record(**extra) -> logging.LogRecord:
    made = logging.getLogger("tables.live.runtime").makeRecord(
        "tables.live.runtime", logging.WARNING, __file__, 1, "table %s: lease lost", (7,), None
    )
    made.__dict__.update(extra)
    return made


def test_a_record_is_one_json_line_with_its_table_and_hand():
    line = JsonFormatter().format(record(table=7, hand=42))
    assert "\n" not in line
    parsed = json.loads(line)
    assert parsed.pop("time").endswith("+00:00")
    assert parsed == {
        "level": "WARNING",
        "logger": "tables.live.runtime",
        "message": "table 7: lease lost",
        "table": 7,
        "hand": 42,
    }


def test_without_ids_there_are_none_and_an_exception_stays_on_its_line():
    try:
        raise ValueError("boom")
    except ValueError:
        made = record(exc_info=sys.exc_info())
    parsed = json.loads(JsonFormatter().format(made))
    assert "table" not in parsed and "hand" not in parsed
    assert "ValueError: boom" in parsed["exception"]


def logged(fmt: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "POKER_LOG_FORMAT"}
    if fmt is not None:
        env["POKER_LOG_FORMAT"] = fmt
    code = (
        "import django, logging; django.setup(); "
        "logging.getLogger('tables.croupier').warning('table %s: slow', 3, extra={'table': 3})"
    )
    env["DJANGO_SETTINGS_MODULE"] = "pokersite.settings"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_the_setting_switches_the_server_logs_to_json():
    run = logged("json")
    assert run.returncode == 0, run.stderr
    parsed = json.loads(run.stderr.strip().splitlines()[-1])
    assert parsed["message"] == "table 3: slow" and parsed["table"] == 3


def test_the_readable_lines_stay_the_default():
    run = logged(None)
    assert run.stderr.strip().splitlines()[-1] == "table 3: slow"


def test_another_format_is_refused_at_start_up():
    run = logged("xml")
    assert run.returncode != 0
    assert "POKER_LOG_FORMAT must be text or json, not 'xml'" in run.stderr
