"""The load benchmark's command line and arithmetic (``bench/bench_load.py``): a table count
above the cap is refused with a message, never cut; another checkout can be served beside this
one; the connect phase and the frame figures add up across the client processes; each row and
the medians of several runs give the CPU ratio against the echo; the requests forwarded
between server processes are counted in the window only."""

import subprocess
from dataclasses import replace

import pytest

from bench import bench_load, load_report
from bench.echo_clients import client_url
from bench.load_figures import cpu_figures, forward_figures, frame_figures, merge_connects
from bench.load_options import MAX_TABLES, Checkout, Options, table_counts
from bench.load_report import (
    HEADER,
    print_cpu_split,
    print_forwards,
    print_game_details,
    print_medians,
    print_rows,
    reference_seconds,
)
from bench.load_servers import profile_command
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


def test_a_row_gives_the_cpu_ratio_against_the_echo_beside_the_p99_ratio(capsys):
    game = {"per_s": 100.0, "p50": 10.0, "p95": 40.0, "p99": 60.0, "cpu": 0.8}
    echo = {"per_s": 500.0, "p50": 20.0, "p99": 120.0, "cpu": 0.8}  # 1.6 ms a message
    print_rows("new", "embedded", 50, {"game": game, "echo": echo})
    row = capsys.readouterr().out
    cells = row.split("|")
    assert cells[1].split()[-1] == "8.0"  # ms/act
    assert cells[2].split()[-1] == "1.6"  # ms/msg
    assert cells[3].split() == ["5.00", "0.5"]  # 8.0 / 1.6, then 60 / 120
    assert HEADER.split("|")[3].split() == ["cpu", "ratio", "p99", "ratio"]
    assert len(row.rstrip("\n")) == len(HEADER)  # the columns line up


def test_a_failed_echo_leaves_the_ratios_unmeasured_not_the_row(capsys):
    game = {"per_s": 100.0, "p50": 10.0, "p95": 40.0, "p99": 60.0, "cpu": 0.8}
    nan = float("nan")
    print_rows("new", "redis", 50, {"game": game, "echo": {"per_s": nan, "p50": nan, "p99": nan}})
    assert capsys.readouterr().out.split("|")[3].split() == ["nan", "nan"]


def test_the_medians_of_several_runs_name_p99_cpu_per_action_and_the_cpu_ratio(capsys):
    games = [
        {"p99": 90.0, "cpu": 0.8, "per_s": 100.0},
        {"p99": 300.0, "cpu": 1.0, "per_s": 100.0},
        {"p99": 120.0, "cpu": 0.9, "per_s": 100.0},
    ]
    # each run's own echo: 2.0, 1.6 and 2.25 ms a message -> ratios 4.0, 6.25 and 4.0
    echoes = [{"per_s": 500.0, "cpu": c, "p99": 100.0} for c in (1.0, 0.8, 1.125)]
    outs = [{"game": g, "echo": e} for g, e in zip(games, echoes, strict=True)]
    print_medians("new", "embedded", 150, outs)
    line = capsys.readouterr().out
    assert "p99 over 3 runs: median 120.0 ms (from 90.0 to 300.0 ms)" in line
    assert "ms/act median 9.0 (from 8.0 to 10.0)" in line
    # the median of the runs' ratios (not 9.0 / 2.0, the ratio of the medians)
    assert "cpu ratio median 4.00 (from 4.00 to 6.25)" in line


def test_each_table_on_one_server_or_spread_half_to_each():
    urls = ["ws://a", "ws://b"]
    assert {client_url(urls, 3, p) for p in range(6)} == {"ws://b"}
    assert {client_url(urls, 4, p) for p in range(6)} == {"ws://a"}
    spread = [client_url(urls, 3, p, spread=True) for p in range(6)]
    assert spread.count("ws://a") == spread.count("ws://b") == 3
    assert {client_url(["ws://only"], 3, p, spread=True) for p in range(6)} == {"ws://only"}


def _figures(forwards: int, seconds: list[float], owned=(), followed=(), commands=0) -> dict:
    return {
        "process": "host:1:ab",
        "owned": list(owned),
        "followed": list(followed),
        "commands": commands,
        "forwards": forwards,
        "reads": 0,
        "forwarded_seconds": seconds,
    }


def test_the_forwarded_requests_are_those_of_the_window():
    before = [_figures(2, [0.5, 0.5]), _figures(0, [], commands=7)]
    after = [
        _figures(5, [0.5, 0.5, 0.004, 0.004, 0.010], owned=[1], followed=[2]),
        _figures(1, [0.004], owned=[2], followed=[1], commands=17),
    ]
    figures = forward_figures(["p0", "p1"], before, after, actions=8)
    assert figures["forwards"] == 4 and figures["per_action"] == 0.5
    assert figures["answered"] == 4  # the warm-up's two answers (0.5 s) left out
    assert figures["p50"] == pytest.approx(4.0)
    assert figures["p99"] == pytest.approx(10.0, abs=6.0)  # not 500 ms: the warm-up's are out
    assert figures["commands"] == 10
    assert figures["servers"] == [
        {"name": "p0", "owned": 1, "followed": 1},
        {"name": "p1", "owned": 1, "followed": 1},
    ]
    # a checkout from before the endpoint: nothing to report, said so
    assert forward_figures(["p0"], [None], [None], actions=8) is None


def test_the_runtimes_line_says_how_many_requests_crossed_and_how_long_they_took(capsys):
    figures = forward_figures(
        ["p0", "p1"],
        [_figures(0, []), _figures(0, [])],
        [_figures(3, [0.002, 0.003, 0.004], owned=[1, 2]), _figures(0, [], followed=[1, 2])],
        actions=6,
    )
    print_forwards("new", "redis", 2, figures)
    print_forwards("old", "redis", 2, None)
    spread, old = capsys.readouterr().out.splitlines()
    assert "runtimes: 3 requests forwarded between processes (0.50 per action)" in spread
    assert "answered in p50 3.0 ms" in spread
    assert spread.endswith("tables: p0 runs 2 and follows 0, p1 runs 0 and follows 2")
    assert old.endswith("runtimes: not served (no /api/ops/runtimes/ on this checkout)")
    none = forward_figures(["p0"], [_figures(0, [])], [_figures(0, [], owned=[1])], actions=6)
    print_forwards("new", "embedded", 1, none)
    line = capsys.readouterr().out
    assert "0 requests forwarded" in line and "answered" not in line


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


def _cpu(threads: dict[str, float], work: dict[str, tuple[float, int]]) -> dict:
    return {
        "threads": threads,
        "work": {name: {"seconds": s, "calls": c} for name, (s, c) in work.items()},
    }


def test_the_cpu_split_is_the_windows_by_pool_and_by_work_over_both_servers():
    before = [
        _cpu({"MainThread": 10.0, "reads_0": 1.0}, {"command act": (2.0, 100)}),
        _cpu({"MainThread": 5.0}, {}),
    ]
    after = [
        _cpu(
            {"MainThread": 10.4, "reads_0": 1.05, "reads_1": 0.05},
            {"command act": (2.1, 150), "clock": (0.02, 4)},
        ),
        _cpu({"MainThread": 5.2}, {"command act": (0.05, 25)}),
    ]
    split = cpu_figures(before, after, actions=100)
    # 0.6 s of the event loops and 0.1 s of the two read threads over 100 actions
    assert [pool for pool, _ in split["threads"]] == ["MainThread", "reads"]
    assert [round(ms, 3) for _, ms in split["threads"]] == [6.0, 1.0]
    act, clock = split["work"]
    assert act["name"] == "command act" and act["calls"] == 75
    assert act["ms"] == pytest.approx(1.5) and act["per_call"] == pytest.approx(2.0)
    assert split["per"] == "action"
    assert clock["name"] == "clock" and clock["per_call"] == pytest.approx(5.0)
    # a window without an action: per second of the window (an idle room)
    idle = cpu_figures(before, after, actions=0, window=20.0)
    assert idle is not None and idle["per"] == "second"
    assert [round(ms, 3) for _, ms in idle["threads"]] == [30.0, 5.0]
    assert idle["work"][0]["ms"] == pytest.approx(7.5)
    assert cpu_figures(before, after, actions=0) is None  # no window: nothing to divide by
    # a checkout whose servers do not tell: nothing
    assert cpu_figures([None], [None], actions=100) is None
    assert cpu_figures([_figures(0, [])], [_figures(0, [])], actions=100) is None


def test_the_cpu_lines_name_the_pools_and_the_work(capsys):
    split = cpu_figures(
        [_cpu({"MainThread": 1.0}, {})],
        [_cpu({"MainThread": 1.5}, {"tables.services.clock.tables_due_at": (0.01, 20)})],
        actions=100,
    )
    print_cpu_split("new", "embedded", 50, split)
    print_cpu_split("old", "embedded", 50, None)
    idle = cpu_figures([_cpu({"MainThread": 1.0}, {})], [_cpu({"MainThread": 1.2}, {})], 0, 20.0)
    print_cpu_split("new", "embedded", 50, idle)
    threads, work, idle_threads, _ = capsys.readouterr().out.splitlines()
    assert threads.endswith("cpu by thread, ms per action: MainThread 5.00")
    assert work.endswith(
        "work, ms per action (calls x ms each): services.clock.tables_due_at 0.10 (20 x 0.50)"
    )
    assert idle_threads.endswith("cpu by thread, ms per second: MainThread 10.00")
