"""The database threads' CPU time by kind of work (``tables.db.threads.work_cpu``), which the
operators' figures and the load benchmark show: each piece of work is counted under its name,
on the thread that ran it, raised or not."""

import functools
import time

import pytest

from tables.db.threads import WorkCpu, read_async, work_cpu, work_name, write_async
from tables.live.runtime import _command_name


def spin(seconds: float) -> str:
    """Busy for ``seconds`` of this thread's CPU time."""
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass
    return "spun"


def test_work_is_counted_under_its_name_with_its_threads_cpu_time():
    cpu = WorkCpu()
    timed = cpu.timed(spin, "spinning")
    assert timed(0.02) == "spun"
    assert timed(0.0) == "spun"
    figures = cpu.figures()
    assert set(figures) == {"spinning"}
    assert figures["spinning"]["calls"] == 2
    assert figures["spinning"]["seconds"] >= 0.02


def test_work_that_raises_is_counted_too():
    cpu = WorkCpu()

    def broken() -> None:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        cpu.timed(broken, "broken")()
    assert cpu.figures()["broken"]["calls"] == 1


def test_a_partials_name_is_its_functions():
    assert work_name(functools.partial(spin, 0.0)) == f"{__name__}.spin"


@pytest.mark.django_db(transaction=True)
async def test_reads_and_writes_from_the_loop_are_counted_on_their_threads():
    before = work_cpu.figures()
    assert await read_async(spin)(0.01) == "spun"
    assert await write_async(1, spin, "spinning write")(0.01) == "spun"
    after = work_cpu.figures()
    name = f"{__name__}.spin"
    assert after[name]["calls"] == before.get(name, {"calls": 0})["calls"] + 1
    assert after["spinning write"]["calls"] == (
        before.get("spinning write", {"calls": 0})["calls"] + 1
    )
    assert after["spinning write"]["seconds"] >= 0.01


def test_a_command_is_counted_by_its_operation_and_a_made_up_one_under_one_name():
    assert _command_name({"op": "act"}) == "command act"
    assert _command_name({"op": "take_seat"}) == "command take_seat"
    assert _command_name({"op": "x" * 40}) == "command (other)"
    assert _command_name({"op": ["act"]}) == "command (other)"
    assert _command_name({}) == "command (other)"
