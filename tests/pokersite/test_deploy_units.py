"""The systemd units (``deploy/systemd``) and the ``Procfile`` are well-formed, and start the
processes with the command the production page gives: ``systemd-analyze verify`` where the
machine has it, and every unit read as INI with the keys a drain and a restart need."""

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"
DOCS = ROOT / "docs" / "production.md"


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read_string((UNITS / name).read_text())
    return parser


def documented_command() -> str:
    """The daphne command of the production page's ``ExecStart`` line."""
    found = re.findall(r"^\s*ExecStart=(.*daphne.*)$", DOCS.read_text(), flags=re.M)
    assert len(found) == 1, found
    return found[0]


def test_the_process_unit_runs_the_documented_command_and_drains_on_stop():
    service = unit("poker@.service")
    assert service["Service"]["ExecStart"] == documented_command()
    # The port is the instance's socket unit's, handed over as systemd's first descriptor.
    assert service["Service"]["ExecStart"].endswith(" --fd 3 pokersite.asgi:application")
    assert "poker@%i.socket" in service["Unit"]["Requires"].split()
    assert "poker@%i.socket" in service["Unit"]["After"].split()
    assert service["Service"]["Environment"] == (
        "DJANGO_SETTINGS_MODULE=pokersite.settings_production"
    )
    assert service["Service"]["Restart"] == "on-failure"
    assert service["Service"]["KillSignal"] == "SIGTERM"
    # systemd's SIGKILL comes after the drain's longest wait (POKER_DRAIN_SECONDS, 60)
    assert int(service["Service"]["TimeoutStopSec"]) > 60
    assert service["Unit"]["PartOf"] == "poker.target"
    assert service["Install"]["WantedBy"] == "poker.target"


def test_the_socket_unit_holds_the_instance_s_port_across_restarts():
    """Issue 55: a restarted process's port stays open (its connections wait in the backlog
    for the next process), so a drained table's players come back to the same port."""
    socket = unit("poker@.socket")
    assert socket["Socket"]["ListenStream"] == "127.0.0.1:%i"
    assert int(socket["Socket"]["Backlog"]) >= 1024  # a table's rush of reconnects waits
    assert "Accept" not in socket["Socket"]  # one process takes every connection
    assert socket["Unit"]["PartOf"] == "poker.target"


def test_the_target_groups_the_processes_and_the_set_up_runs_first():
    target = unit("poker.target")
    wanted = target["Unit"]["Wants"].split()
    assert "poker-migrate.service" in wanted
    assert {"poker@8001.service", "poker@8002.service"} <= set(wanted)
    assert {"poker@8001.socket", "poker@8002.socket"} <= set(wanted)
    assert unit("poker-migrate.service")["Service"]["Type"] == "oneshot"
    assert "poker-migrate.service" in unit("poker@.service")["Unit"]["Requires"]


def test_the_procfile_lists_the_same_command_per_port():
    """A Procfile runner holds no socket: each process binds its own port, the rest of the
    command as the unit's."""
    lines = [
        line
        for line in (ROOT / "Procfile").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    command = documented_command().replace("/srv/poker/", "")
    assert lines == [
        "web1: " + command.replace("--fd 3", "-b 127.0.0.1 -p 8001"),
        "web2: " + command.replace("--fd 3", "-b 127.0.0.1 -p 8002"),
    ]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_verifies_the_units(tmp_path):
    # The units name /srv/poker; here the checkout stands in for it (the programs must exist).
    for path in UNITS.iterdir():
        (tmp_path / path.name).write_text(path.read_text().replace("/srv/poker", str(ROOT)))
    run = subprocess.run(
        [
            "systemd-analyze",
            "verify",
            "--man=no",
            "./poker@8001.socket",
            "./poker@8001.service",
            "./poker-migrate.service",
            "./poker.target",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0 and run.stderr == "", run.stderr


def daphne_option(command: str, name: str) -> int:
    found = re.search(rf"{name}\s+(\d+)", command)
    assert found, f"the documented command sets no {name}: {command}"
    return int(found.group(1))


def nginx_ws_read_timeout() -> int:
    """``proxy_read_timeout`` of ``location /ws/`` in deploy/nginx.conf, in seconds."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    block = conf.split("location /ws/ {", 1)[1].split("}", 1)[0]
    found = re.search(r"proxy_read_timeout\s+(\d+)s;", block)
    assert found, block
    return int(found.group(1))


#: daphne looks at its sockets every 2 s (daphne.server.Server.timeout_checker): a ping is
#: sent up to this much after its interval.
DAPHNE_CHECK_SECONDS = 2
#: The multi-host floor (issue 55): a lost host's tables owned by another within 15 s.
TAKEOVER_FLOOR_SECONDS = 15


def test_nginx_gives_up_on_a_silent_process_in_time_but_never_on_a_thinking_player():
    """Issue 55: nginx held the players' sockets on a host cut from the network for
    ``proxy_read_timeout`` (1 h), freezing its tables. daphne pings an idle socket every
    ``--ping-interval`` seconds, so a live process is never silent for longer than that (plus
    its check period): nginx's read timeout must leave room for two of those (a ping late on a
    loaded machine is not a dead process), and end well within the takeover floor, so that the
    players reconnect to another host in time for it to take their tables."""
    command = documented_command()
    interval = daphne_option(command, "--ping-interval")
    timeout = nginx_ws_read_timeout()
    assert 2 * (interval + DAPHNE_CHECK_SECONDS) <= timeout
    assert timeout <= TAKEOVER_FLOOR_SECONDS - 5  # the reconnect and takeover need the rest
    # A player whose own link went quiet is let go (its pong missing) within a minute.
    assert interval < daphne_option(command, "--ping-timeout") <= 60
