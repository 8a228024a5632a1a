"""The one-click tool (``bench/one_click_modules.py``) follows a real click from the socket's
receive through the table's runtime and its service to the frames, and reports the modules it
crossed and, traced line by line, how much of each it ran (the figures are reported in
docs/architecture/one-click.md, not asserted here)."""

import json
import subprocess

from tests.load.processes import PYTHON, ROOT


def test_a_click_is_followed_from_the_socket_through_the_runtime_and_the_service():
    done = subprocess.run(
        [PYTHON, "bench/one_click_modules.py", "--json", "--lines"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    site = figures["site_modules"]
    assert site[0] == "tables.live.consumer"  # the socket's receive comes first
    assert {"tables.live.runtime", "tables.services.hands", "tables.live.frames"} <= set(site)
    assert figures["site_count"] == len(site)
    assert "engine.hand.machine" in figures["engine_modules"]  # the engine's counted apart
    assert not any(module.startswith(("tests.", "bench.")) for module in site)
    assert figures["thread_hops"]  # the write, on its thread
    # every function each site module was entered by, the first among them
    functions = figures["functions"]
    assert set(functions) == set(site)
    assert all(figures["entered_by"][module] in functions[module] for module in site)
    assert all(calls > 0 for called in functions.values() for calls in called.values())
    # each module entered ran some of its lines, never more than it holds
    run, size = figures["site_lines_run"], figures["site_lines"]
    assert set(run) == set(size) == set(site)
    assert all(0 < run[module] < size[module] for module in site), (run, size)
