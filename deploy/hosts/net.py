"""The hosts' network: one Linux network namespace per host, each with one link (``eth0``) to a
bridge in a namespace of its own (the machine's own network is never touched), and the latency
between hosts where the kernel has ``sch_netem``. Needs root (``ip``, ``tc``)."""

from __future__ import annotations

import subprocess

from deploy.hosts.plan import BRIDGE, PREFIX, SWITCH, Plan

#: One-way delay added on each host's link where netem exists: 1 ms between two hosts.
NETEM_DELAY = "0.5ms"


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True)


def in_host(plan: Plan, host: str, *command: str) -> list[str]:
    """``command`` run on ``host`` (inside its namespace)."""
    return ["ip", "netns", "exec", plan.namespace(host), *command]


def ours() -> list[str]:
    """The namespaces a harness made (``PREFIX``), left or live."""
    listed = ip("netns", "list", check=False).stdout.split()
    return [name for name in listed if name.startswith(PREFIX)]


def build(plan: Plan) -> None:
    """The switch and every host on it; fails if a harness's namespaces are already there."""
    if ours():
        raise RuntimeError(f"namespaces {ours()} exist: another run, or one not torn down")
    ip("netns", "add", SWITCH)
    ip("-n", SWITCH, "link", "add", BRIDGE, "type", "bridge")
    ip("-n", SWITCH, "link", "set", BRIDGE, "up")
    for host in plan.hosts:
        ns = plan.namespace(host)
        ip("netns", "add", ns)
        veth = plan.veth(host)
        ip("-n", SWITCH, "link", "add", veth, "type", "veth", "peer", "eth0", "netns", ns)
        ip("-n", SWITCH, "link", "set", plan.veth(host), "master", BRIDGE, "up")
        ip("-n", ns, "addr", "add", plan.cidr(host), "dev", "eth0")
        ip("-n", ns, "link", "set", "eth0", "up")
        ip("-n", ns, "link", "set", "lo", "up")


def add_latency(plan: Plan) -> str | None:
    """``NETEM_DELAY`` on every host's link; None if the kernel lacks netem (the error ``tc``
    gave otherwise, said by the harness: it runs without latency)."""
    for host in plan.hosts:
        done = subprocess.run(
            in_host(plan, host, "tc", "qdisc", "add", "dev", "eth0", "root", "netem", "delay")
            + [NETEM_DELAY],
            capture_output=True,
            text=True,
        )
        if done.returncode:
            return (done.stderr or done.stdout).strip() or f"tc exited {done.returncode}"
    return None


def set_link(plan: Plan, host: str, up: bool) -> None:
    """Cut (or restore) ``host``'s link at the switch: its processes live on, unreachable."""
    ip("-n", SWITCH, "link", "set", plan.veth(host), "up" if up else "down")


def cut_between(plan: Plan, host: str, other: str, cut: bool) -> None:
    """Partition ``host`` from ``other`` only (this machine has no netfilter: routes do it):
    ``other`` drops what it would send back (a blackhole route) and ``host``'s new
    connections there fail at once (unreachable); both keep every other host. ``cut=False``
    heals it."""
    verb = "add" if cut else "del"
    ip("-n", plan.namespace(other), "route", verb, "blackhole", f"{plan.hosts[host]}/32")
    ip("-n", plan.namespace(host), "route", verb, "unreachable", f"{plan.hosts[other]}/32")


def tear_down() -> list[str]:
    """Every namespace a harness made, removed (their links go with them). Returns any that
    would not go (a process still inside holds nothing open on a namespace's name: ``ip netns
    del`` always unmounts it, the kernel frees it with its last process)."""
    for name in ours():
        ip("netns", "del", name, check=False)
    return ours()
