"""The harness's plan, pure (no root, no processes; unit-tested): which host has which address
and which processes, and the production files adapted to it (``deploy/nginx.conf`` with the
app hosts' addresses as its upstreams, the channel layer's Redis servers).

Hosts are Linux network namespaces named ``PREFIX + host`` on one bridge (in a namespace of its
own, so the machine's own network is never touched); each reaches the others only by its
address on that bridge.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

PREFIX = "poker-"
SWITCH = PREFIX + "sw"
BRIDGE = "br0"
SUBNET = "10.55.0"
PREFIX_LENGTH = 24
#: Each host's last address byte.
HOST_ADDRESSES = {"db": 10, "redis": 20, "app1": 31, "app2": 32, "lb": 40, "clients": 50}
APP_HOSTS = ("app1", "app2")
POSTGRES_PORT = 5432
#: One Redis server per port on the redis host (channels-redis shards its groups over them).
REDIS_PORTS = (6379, 6380)
#: The daphne processes of each app host, one per port (as ``poker@.service`` instances).
DAPHNE_PORTS = (8001, 8002)
HTTPS_PORT = 443
#: The app host whose clock ``--ahead`` sets ahead (issue 55's clock skew).
SKEWED_HOST = "app1"


@dataclass(frozen=True)
class Daphne:
    host: str
    address: str
    port: int

    @property
    def name(self) -> str:
        return f"{self.host}:{self.port}"


@dataclass(frozen=True)
class Plan:
    """The addresses of every host and service."""

    hosts: dict[str, str] = field(
        default_factory=lambda: {h: f"{SUBNET}.{n}" for h, n in HOST_ADDRESSES.items()}
    )
    redis_servers: int = len(REDIS_PORTS)
    #: Seconds ``SKEWED_HOST``'s wall clock runs ahead of the others' (libfaketime; 0: none).
    clock_ahead: float = 0.0

    def namespace(self, host: str) -> str:
        return PREFIX + host

    def cidr(self, host: str) -> str:
        return f"{self.hosts[host]}/{PREFIX_LENGTH}"

    def veth(self, host: str) -> str:
        """The switch's end of the host's link (the host's own end is ``eth0``)."""
        return f"vh-{host}"

    @property
    def daphnes(self) -> list[Daphne]:
        return [Daphne(h, self.hosts[h], p) for h in APP_HOSTS for p in DAPHNE_PORTS]

    def database_url(self, name: str) -> str:
        return f"postgres://postgres@{self.hosts['db']}:{POSTGRES_PORT}/{name}"

    @property
    def redis_urls(self) -> list[str]:
        return [f"redis://{self.hosts['redis']}:{p}/0" for p in REDIS_PORTS[: self.redis_servers]]

    @property
    def public(self) -> str:
        """The site's address as players know it: the load balancer's."""
        return self.hosts["lb"]


def upstream_lines(plan: Plan, indent: str = "    ", parameters: str = "") -> str:
    """An upstream's ``server`` lines: every daphne, with the template's parameters."""
    return "\n".join(f"{indent}server {d.address}:{d.port}{parameters};" for d in plan.daphnes)


_UPSTREAM_SERVER = re.compile(r"^(\s*)server\s+127\.0\.0\.1:\d+([^;]*);\n", re.M)


def nginx_site(
    template: str,
    plan: Plan,
    *,
    certificate: str,
    key: str,
    static_root: str,
    http2_directive: bool = True,
) -> str:
    """``deploy/nginx.conf`` for these hosts: each upstream's servers are every app host's
    daphne processes (with the parameters of the upstream's first server); the name,
    certificate and static folder are the harness's; everything else (the balancing, the
    socket routing, the throttles, the API's errors) stays as the production page ships it.
    ``http2_directive=False`` (nginx before 1.25.1, which lacks ``http2 on;``) says it the
    older way, on the ``listen`` line."""
    out = []
    for block in re.split(r"(?=^upstream )", template, flags=re.M):
        if block.startswith("upstream "):
            servers = list(_UPSTREAM_SERVER.finditer(block))
            if not servers:
                raise ValueError("an upstream of deploy/nginx.conf names no 127.0.0.1 server")
            first, last = servers[0], servers[-1]
            indent, parameters = first.group(1), first.group(2)
            servers_here = upstream_lines(plan, indent, parameters) + "\n"
            block = block[: first.start()] + servers_here + block[last.end() :]
        out.append(block)
    site = "".join(out)
    replacements = [
        (r"server_name\s+[^;]+;", f"server_name {plan.public};"),
        (r"ssl_certificate\s+[^;]+;", f"ssl_certificate     {certificate};"),
        (r"ssl_certificate_key\s+[^;]+;", f"ssl_certificate_key {key};"),
        (r"/srv/poker/staticfiles/", static_root.rstrip("/") + "/"),
        (r"listen 80;", f"listen {plan.public}:80;"),
        (r"listen 443 ssl;", f"listen {plan.public}:{HTTPS_PORT} ssl;"),
    ]
    if not http2_directive:
        replacements += [
            (r"listen ([^;]*) ssl;", r"listen \1 ssl http2;"),
            (r"\n\s*http2 on;", ""),
        ]
    for pattern, replacement in replacements:
        site, count = re.subn(pattern, replacement, site)
        if not count:
            raise ValueError(f"deploy/nginx.conf has no {pattern!r} to adapt")
    return site


def nginx_main(site: str, run_dir: str, mime_types: str = "/etc/nginx/mime.types") -> str:
    """A whole nginx configuration around the site (``deploy/nginx.conf`` is a site file, for
    ``sites-enabled``): its pid, logs and temporary files in ``run_dir``."""
    return f"""# Written by deploy/hosts (the multi-host harness); removed with its run.
worker_processes 1;
user root;
pid {run_dir}/nginx.pid;
error_log {run_dir}/nginx-error.log warn;
events {{ worker_connections 8192; }}
http {{
    include {mime_types};
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path {run_dir}/body;
    proxy_temp_path {run_dir}/proxy;
    fastcgi_temp_path {run_dir}/fastcgi;
    uwsgi_temp_path {run_dir}/uwsgi;
    scgi_temp_path {run_dir}/scgi;
{site}
}}
"""


def nginx_has_http2_directive(version_output: str) -> bool:
    """From ``nginx -v`` ("nginx version: nginx/1.22.1"): whether it knows ``http2 on;``
    (1.25.1 and later)."""
    found = re.search(r"nginx/(\d+)\.(\d+)\.(\d+)", version_output)
    if not found:
        return True
    return tuple(int(n) for n in found.groups()) >= (1, 25, 1)


def owner_host(owner: str | None) -> str | None:
    """The host in a lease's owner (``tables_tablelease.owner``: "host:pid:hex"); the harness
    names each app host's processes' host (a UTS namespace) after it."""
    return owner.split(":", 1)[0] if owner else None


#: The unit every production daphne is started by; the harness starts its own the same way.
PROCESS_UNIT = Path(__file__).resolve().parents[1] / "systemd" / "poker@.service"
#: The unit that holds each process's listening socket.
SOCKET_UNIT = PROCESS_UNIT.with_name("poker@.socket")


def unit_exec_start(unit: Path = PROCESS_UNIT) -> str:
    """The ``ExecStart=`` command of ``poker@.service``."""
    found = re.findall(r"^ExecStart=(.*)$", unit.read_text(), flags=re.M)
    if len(found) != 1:
        raise ValueError(f"{unit} has {len(found)} ExecStart= lines, not one")
    return str(found[0]).strip()


def unit_socket(unit: Path = SOCKET_UNIT) -> str:
    """The ``ListenStream=`` of ``poker@.socket`` (``127.0.0.1:%i``)."""
    found = re.findall(r"^ListenStream=(.*)$", unit.read_text(), flags=re.M)
    if len(found) != 1:
        raise ValueError(f"{unit} has {len(found)} ListenStream= lines, not one")
    return str(found[0]).strip()


def daphne_arguments(exec_start: str) -> list[str]:
    """daphne's arguments in ``exec_start`` (the unit's command): the same options (the proxy
    headers, the keep-alive pings) and the same inherited socket (``--fd 3``: the harness's
    holder, ``deploy.hosts.holder``, hands it over as systemd's ``poker@.socket`` does)."""
    words = shlex.split(exec_start)
    if not words or not words[0].endswith("daphne"):
        raise ValueError(f"not a daphne command: {exec_start!r}")
    if "--fd" not in words:
        raise ValueError(f"daphne does not take its socket from systemd: {exec_start!r}")
    return words[1:]
