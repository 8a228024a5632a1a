"""The multi-host harness's pure part (``deploy/hosts/plan.py``): the address plan and
``deploy/nginx.conf`` adapted to it. The harness itself needs root (``make hosts-test``)."""

import re
from pathlib import Path

import pytest

from deploy.hosts.plan import (
    Plan,
    nginx_has_http2_directive,
    nginx_main,
    nginx_site,
    owner_host,
)

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = (ROOT / "deploy" / "nginx.conf").read_text()


def site(**options) -> str:
    return nginx_site(
        TEMPLATE,
        Plan(),
        certificate="/run/lb.crt",
        key="/run/lb.key",
        static_root="/srv/site/staticfiles",
        **options,
    )


def upstream(conf: str, name: str) -> str:
    return conf.split(f"upstream {name} {{", 1)[1].split("}", 1)[0]


def test_every_host_has_its_own_address_on_one_subnet():
    plan = Plan()
    addresses = list(plan.hosts.values())
    assert len(set(addresses)) == len(addresses) == 6
    assert {a.rsplit(".", 1)[0] for a in addresses} == {"10.55.0"}
    assert len({plan.namespace(h) for h in plan.hosts}) == 6
    assert all(len(plan.veth(h)) <= 15 for h in plan.hosts)  # a Linux interface name's limit


def test_two_daphnes_on_each_app_host_and_two_redis_servers():
    plan = Plan()
    assert [d.name for d in plan.daphnes] == ["app1:8001", "app1:8002", "app2:8001", "app2:8002"]
    assert {d.address for d in plan.daphnes} == {plan.hosts["app1"], plan.hosts["app2"]}
    assert plan.redis_urls == ["redis://10.55.0.20:6379/0", "redis://10.55.0.20:6380/0"]
    assert Plan(redis_servers=1).redis_urls == ["redis://10.55.0.20:6379/0"]
    assert plan.database_url("poker") == "postgres://postgres@10.55.0.10:5432/poker"


def test_both_upstreams_list_every_app_process_and_nothing_on_loopback():
    conf = site()
    for name, parameters in (
        ("poker", " max_fails=1 fail_timeout=5s"),  # each upstream keeps its own
        ("poker_tables", " max_fails=0"),
    ):
        lines = [line.strip() for line in upstream(conf, name).splitlines() if line.strip()]
        assert [line for line in lines if line.startswith("server ")] == [
            f"server {a}:{p}{parameters};"
            for a in ("10.55.0.31", "10.55.0.32")
            for p in (8001, 8002)
        ]
    assert "server 127.0.0.1" not in conf  # (a comment may name the address)
    # What routes and balances stays as shipped.
    assert "least_conn;" in upstream(conf, "poker")
    assert "hash $table_route consistent;" in upstream(conf, "poker_tables")


def table_route(conf: str, uri: str) -> str:
    """``$table_route`` of ``uri``, as the configuration's map makes it (nginx tries the map's
    regular expressions in order, the first match wins; these read the same in Python)."""
    block = conf.split("map $uri $table_route {", 1)[1].split("}", 1)[0]
    entries = [line.split() for line in block.splitlines() if line.strip()]
    for pattern, value in entries:
        found = re.match(pattern.removeprefix("~"), uri) if pattern != "default" else None
        if found:
            return value.rstrip(";").replace("$1", found.group(1))
    default = dict(entries)["default"].rstrip(";")
    return uri if default == "$uri" else default


def location(conf: str, match: str) -> str:
    return conf.split(f"location {match} {{", 1)[1].split("}", 1)[0]


def test_a_table_s_sockets_api_and_pages_go_to_one_process_by_its_id():
    conf = site()
    routes = {
        table_route(conf, uri)
        for uri in (
            "/ws/tables/42/",
            "/api/tables/42/actions/",
            "/api/tables/42/state/",
            "/tables/42/",
            "/tables/42/host/pause/",
        )
    }
    assert routes == {"42"}
    assert table_route(conf, "/ws/tables/7/") == "7" != table_route(conf, "/tables/42/")
    # Not one table's: as before, by the whole path.
    assert table_route(conf, "/api/tables/") == "/api/tables/"
    assert table_route(conf, "/api/tables/mine/") == "/api/tables/mine/"
    for match in ("/ws/", r"~ ^/api/tables/\d+/", r"~ ^/tables/\d+/"):
        assert "proxy_pass http://poker_tables;" in location(conf, match)
    for match in ("/api/", "/"):
        assert "proxy_pass http://poker;" in location(conf, match)
    # The API's errors are JSON on both of its locations.
    assert "error_page 502 503 504 = @api_unavailable;" in location(conf, r"~ ^/api/tables/\d+/")


def test_the_name_certificate_static_folder_and_listening_address_are_the_harness_s():
    conf = site()
    assert conf.count("server_name 10.55.0.40;") == 2
    assert "ssl_certificate     /run/lb.crt;" in conf
    assert "ssl_certificate_key /run/lb.key;" in conf
    assert "alias /srv/site/staticfiles/;" in conf
    assert "/srv/poker" not in conf and "letsencrypt" not in conf
    assert "listen 10.55.0.40:443 ssl;" in conf and "http2 on;" in conf
    assert "listen 10.55.0.40:80;" in conf


def test_an_nginx_before_1_25_1_gets_http2_on_the_listen_line():
    conf = site(http2_directive=False)
    assert "listen 10.55.0.40:443 ssl http2;" in conf
    assert "http2 on;" not in conf
    assert nginx_has_http2_directive("nginx version: nginx/1.22.1") is False
    assert nginx_has_http2_directive("nginx version: nginx/1.25.1") is True
    assert nginx_has_http2_directive("nginx version: nginx/1.27.0") is True


def test_a_template_without_what_the_harness_adapts_is_refused():
    with pytest.raises(ValueError, match="127.0.0.1"):
        nginx_site(
            "upstream poker {\n    server 10.0.0.1:8001;\n}\n",
            Plan(),
            certificate="c",
            key="k",
            static_root="s",
        )


def test_the_whole_configuration_keeps_its_files_in_the_run_folder():
    main = nginx_main(site(), "/tmp/run")
    assert "pid /tmp/run/nginx.pid;" in main
    assert "proxy_temp_path /tmp/run/proxy;" in main
    assert main.count("{") == main.count("}")


def test_a_lease_owner_names_its_host():
    assert owner_host("app2:4242:a1b2c3") == "app2"
    assert owner_host(None) is None


def test_the_players_page_origin_goes_with_their_socket_s_scheme():
    from tests.load.clients import origin_of

    assert origin_of("wss://10.55.0.40") == "https://10.55.0.40"
    assert origin_of("ws://127.0.0.1:8001") == "http://127.0.0.1:8001"


def test_the_harness_starts_daphne_as_the_systemd_unit_does():
    from deploy.hosts.plan import daphne_arguments

    exec_start = (
        "/srv/poker/.venv/bin/daphne --proxy-headers --ping-interval 3 --ping-timeout 20 "
        "--fd 3 pokersite.asgi:application"
    )
    assert daphne_arguments(exec_start) == [
        "--proxy-headers",
        "--ping-interval",
        "3",
        "--ping-timeout",
        "20",
        "--fd",
        "3",
        "pokersite.asgi:application",
    ]
    with pytest.raises(ValueError, match="daphne"):
        daphne_arguments("/usr/bin/gunicorn app")
    with pytest.raises(ValueError, match="systemd"):  # a process binding its own port
        daphne_arguments("/srv/poker/.venv/bin/daphne -b 127.0.0.1 -p %i app")


def test_the_shipped_units_are_the_ones_the_harness_runs():
    """The harness's holder (``deploy/hosts/holder.py``) binds what ``poker@.socket`` listens
    on, on the descriptor ``poker@.service``'s daphne is told to take it from."""
    from deploy.hosts.holder import LISTEN_FD
    from deploy.hosts.plan import daphne_arguments, unit_exec_start, unit_socket

    arguments = daphne_arguments(unit_exec_start())
    assert arguments[-3:] == ["--fd", str(LISTEN_FD), "pokersite.asgi:application"]
    assert "--ping-interval" in arguments
    assert unit_socket() == "127.0.0.1:%i"


def test_only_the_skewed_host_runs_with_its_clock_ahead():
    """``--ahead``: app1's processes under libfaketime."""
    from deploy.hosts.plan import SKEWED_HOST
    from deploy.hosts.services import clock_ahead

    assert clock_ahead(Plan(), SKEWED_HOST) == []
    assert clock_ahead(Plan(clock_ahead=2), "app2") == []
    if not Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1").exists():
        pytest.skip("no libfaketime here")
    prefix = clock_ahead(Plan(clock_ahead=2), SKEWED_HOST)
    assert prefix[0] == "env" and "FAKETIME=+2s" in prefix
