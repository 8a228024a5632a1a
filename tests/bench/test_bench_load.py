"""The load benchmark's command line and arithmetic (``bench/bench_load.py``): a table count
above the cap is refused with a message, never cut; another checkout can be served beside this
one; the connect phase and the frame figures add up across the client processes."""

import subprocess
from dataclasses import replace

import pytest

from bench import bench_load, load_report
from bench.bench_load import (
    MAX_TABLES,
    Checkout,
    Options,
    profile_command,
    table_counts,
)
from bench.load_figures import frame_figures, merge_connects
from bench.load_report import print_game_details, reference_seconds
from tests.load.processes import PYTHON, ROOT


def test_the_cap_is_a_thousand_tables_at_least():
    assert MAX_TABLES >= 1000
    assert table_counts(f"25,200,{MAX_TABLES}") == [25, 200, MAX_TABLES]


@pytest.mark.parametrize("asked", [f"{MAX_TABLES + 1}", f"10,{MAX_TABLES * 5}", "0"])
def test_a_count_outside_the_cap_is_refused_with_a_message(asked):
    with pytest.raises(ValueError, match=f"from 1 to {MAX_TABLES} tables"):
        table_counts(asked)


def test_the_command_line_refuses_too_many_tables_before_starting_anything():
    run = subprocess.run(
        [PYTHON, "bench/bench_load.py", "--tables", f"{MAX_TABLES + 1}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert f"--tables {MAX_TABLES + 1}: from 1 to {MAX_TABLES} tables" in run.stderr
    assert run.stdout == ""  # nothing measured, no server started


def test_another_checkout_is_served_with_its_own_interpreter(tmp_path):
    here = Checkout.parse(f"mine={ROOT}")
    assert (here.label, here.root) == ("mine", ROOT)
    assert here.python.endswith("python")
    with pytest.raises(ValueError, match="not a checkout of the site"):
        Checkout.parse(str(tmp_path))


def test_the_connect_phase_is_the_slowest_worker_and_retries_are_the_extra_handshakes():
    merged = merge_connects(
        [
            {"seconds": 3.0, "sockets": 600, "with_state": 600, "attempts": 610, "shed": 4},
            {"seconds": 5.5, "sockets": 600, "with_state": 600, "attempts": 600, "shed": 0},
        ]
    )
    assert merged == {
        "seconds": 5.5,
        "sockets": 1200,
        "with_state": 1200,
        "attempts": 1210,
        "retried": 10,
        "shed": 4,
        "without_state": [],
    }
    stuck = {"table": 7, "player": "p3", "attempts": 1, "connects": 1, "frames": 0}
    late = merge_connects(
        [
            {"seconds": None, "sockets": 6, "with_state": 5, "attempts": 9, "shed": 0},
            {"seconds": 1.0, "sockets": 6, "with_state": 5, "attempts": 6, "shed": 0}
            | {"without_state": [stuck]},
        ]
    )
    assert late["seconds"] is None and late["with_state"] == 10
    assert late["without_state"] == [stuck]  # named, to look up in the servers' logs


def test_the_report_names_the_sockets_that_never_got_a_state(capsys):
    stuck = {"table": 7, "player": "p3", "attempts": 1, "connects": 1, "frames": 0}
    connect = {"seconds": None, "sockets": 6, "with_state": 5, "attempts": 6, "shed": 0}
    frames = {"frames": 0, "median": 0.0, "p99": 0.0, "per_action": 0.0}
    game = {
        "connect": connect | {"retried": 0, "without_state": [stuck]},
        "frames": {"json": frames | {"versions_per_action": 1.29}, "browser": frames},
    }
    print_game_details("new", "redis", 1, game)
    out = capsys.readouterr().out
    assert "5/6 sockets had their state, NOT all by the deadline" in out
    assert "no state: table 7 p3: 1 handshakes, 1 opened, 0 frames" in out
    json_line, browser_line = (line for line in out.splitlines() if " frames: " in line)
    assert json_line.endswith("per action per socket, 1.29 versions per action")
    assert "versions" not in browser_line  # a browser's regions are not counted by version


def test_frame_figures_per_kind_of_client():
    results = [
        {
            "json_sizes": [500, 700, 900],
            "json_sockets": 6,
            "json_table_frames": 9,  # the action to all six sockets, a deal to three of them
            "browser_sizes": [1000, 3000],
            "browser_sockets": 1,
            "browser_table_actions": 2,
        }
    ]
    figures = frame_figures(results, actions=1)
    assert figures["json"]["median"] == 700
    assert figures["json"]["per_action"] == pytest.approx(2100 / 6)  # 1 action, 6 sockets
    assert figures["json"]["versions_per_action"] == pytest.approx(9 / 6)
    assert figures["browser"]["frames"] == 2
    assert figures["browser"]["per_action"] == 2000  # 4000 B over the 2 actions at its table
    assert bench_load.PLAYERS == 6


def test_the_profile_samples_the_gil_holder_or_every_thread(tmp_path):
    options = Options(seconds=12.5, think=(0.5, 1.5))
    gil = profile_command(4242, tmp_path / "p.txt", options)
    assert "--gil" in gil and "--threads" not in gil
    assert gil[gil.index("-d") + 1] == "12" and gil[gil.index("-p") + 1] == "4242"
    every = profile_command(4242, tmp_path / "p.txt", replace(options, profile_threads=True))
    assert "--threads" in every and "--gil" not in every


def test_two_checkouts_take_turns_first_and_last_alternately():
    assert bench_load.taking_turns(["old", "new"], 3) == ["old", "new", "new", "old", "old", "new"]
    assert bench_load.taking_turns(["this"], 2) == ["this", "this"]
    assert bench_load.taking_turns(["old", "new"], 0) == ["old", "new"]  # one run at least


def test_the_medians_of_several_runs_name_p99_and_cpu_per_action(capsys):
    from bench.load_report import print_medians

    games = [
        {"p99": 90.0, "cpu": 0.8, "per_s": 100.0},
        {"p99": 300.0, "cpu": 1.0, "per_s": 100.0},
        {"p99": 120.0, "cpu": 0.9, "per_s": 100.0},
    ]
    print_medians("new", "embedded", 150, games)
    line = capsys.readouterr().out
    assert "p99 over 3 runs: median 120.0 ms (from 90.0 to 300.0 ms)" in line
    assert "ms/act median 9.0 (from 8.0 to 10.0)" in line


def test_every_client_process_gets_a_table_however_few_there_are():
    tables = [{"id": n} for n in range(5)]
    assert bench_load.worker_shares(tables[:1], 2) == [[{"id": 0}]]
    shares = bench_load.worker_shares(tables, 2)
    assert shares == [[{"id": 0}, {"id": 2}, {"id": 4}], [{"id": 1}, {"id": 3}]]
    assert sorted(t["id"] for share in bench_load.worker_shares(tables, 8) for t in share) == [
        0,
        1,
        2,
        3,
        4,
    ]
    assert all(bench_load.worker_shares(tables, 8))


def test_a_room_not_all_in_by_the_deadline_is_measured_without_a_warm_up():
    from bench.load_players import warms_up

    assert warms_up(rush=False, all_in=4.2)
    assert not warms_up(rush=False, all_in=None)  # was a TimeoutError: the room went unmeasured
    assert not warms_up(rush=True, all_in=4.2)


def test_the_reference_loop_is_timed_fastest_first():
    spent = reference_seconds(times=4, loop=10_000)
    assert len(spent) == 4
    assert spent == sorted(spent)
    assert spent[0] > 0


def test_the_machine_line_says_how_fast_the_machine_was(monkeypatch):
    monkeypatch.setattr(load_report, "reference_seconds", lambda: [0.412, 0.5, 0.873])
    line = load_report.machine()
    assert "load average" in line
    assert line.endswith("sum(range(3 * 10**7)) 0.41–0.87 s")
