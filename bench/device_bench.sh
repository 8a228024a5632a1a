#!/usr/bin/env bash
# Runs the load benchmark on a borrowed machine with no network, no PostgreSQL, no Redis and no
# project packages, from what bench/device_kit.sh packed into .devkit/ (carried along):
#
#   bench/device_bench.sh COMMAND...   # as root, e.g.
#   bench/device_bench.sh .venv/bin/python bench/bench_load.py --setup redis --tables 500
#   bench/device_bench.sh --stop       # stops the PostgreSQL it started
#
# Set-up, each step skipped when an earlier call on the same machine did it:
#   1. /tmp/venv: `python3 -m venv --without-pip`, the kit's wheels installed by the kit's pip
#      (no index, no dependencies resolved: the kit holds one version of each); numpy linked in
#      from python3's own when the kit has none; .venv -> /tmp/venv here and in .devkit/old.
#   2. /tmp/svc: services.tar.xz (PostgreSQL 15, redis-server, their libraries); its bin/ (wrappers
#      that set LD_LIBRARY_PATH for those programs only) goes first on the PATH.
#   3. PostgreSQL on 127.0.0.1:5432 run by a user that is not root (it refuses root), data in
#      /tmp/pgdata-5432: max_connections 500, shared_buffers 512MB, durability as shipped
#      (fsync, synchronous_commit: defaults); database "test", role postgres, trust.
# Then COMMAND runs with DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (unless set).
#
# For a trial elsewhere: PGPORT_OVERRIDE (5432), DEVKIT_PYTHON (python3), DEVKIT_VENV (/tmp/venv),
# DEVKIT_SVC (/tmp/svc), DEVKIT_PGDATA (/tmp/pgdata-PORT), DEVKIT_PG_USER (postgres, made if
# missing, else nobody), DEVKIT_NUMPY_PYTHON (the interpreter whose numpy is linked in).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KIT=$ROOT/.devkit
PYTHON=${DEVKIT_PYTHON:-python3}
VENV=${DEVKIT_VENV:-/tmp/venv}
SVC=${DEVKIT_SVC:-/tmp/svc}
PGPORT=${PGPORT_OVERRIDE:-5432}
PGDATA=${DEVKIT_PGDATA:-/tmp/pgdata-$PGPORT}
PG_BIN=$SVC/usr/lib/postgresql/15/bin

SECONDS=0
step() { printf '[device %4ds] %s\n' "$SECONDS" "$*"; }
die() { printf '[device %4ds] FAILED: %s\n' "$SECONDS" "$*" >&2; exit 1; }
trap 'die "line $LINENO: $BASH_COMMAND"' ERR

# Run a command as the PostgreSQL user (the current one when not root), from / (it may not be
# allowed into the checkout).
as_pg() {
    if [[ $(id -u) != 0 ]]; then
        (cd / && "$@")
    elif command -v setpriv >/dev/null; then
        (cd / && setpriv --reuid="$(id -u "$PG_USER")" --regid="$(id -g "$PG_USER")" --clear-groups "$@")
    elif command -v runuser >/dev/null; then
        (cd / && runuser -u "$PG_USER" -- "$@")
    else
        (cd / && "$PYTHON" -c 'import os, pwd, sys
p = pwd.getpwnam(sys.argv[1]); os.setgroups([]); os.setgid(p.pw_gid); os.setuid(p.pw_uid)
os.execvp(sys.argv[2], sys.argv[2:])' "$PG_USER" "$@")
    fi
}

stamp_of() { cksum <"$1" | cut -d' ' -f1; }

# Unpack a .tar.xz (with Python's lzma where there is no xz program).
untar() {  # untar ARCHIVE DIR
    if command -v xz >/dev/null; then
        tar -xJf "$1" -C "$2"
    else
        "$PYTHON" -c 'import sys, tarfile
with tarfile.open(sys.argv[1]) as t: t.extractall(sys.argv[2], filter="fully_trusted")' "$1" "$2"
    fi
}

if [[ ${1:-} == --stop ]]; then
    if [[ -d $PGDATA ]]; then
        PG_USER=$(stat -c %U "$PGDATA")
        if as_pg "$SVC/bin/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; then
            as_pg "$SVC/bin/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null
        fi
    fi
    step "PostgreSQL on port $PGPORT stopped"
    exit 0
fi

cd "$ROOT"
for f in wheels.tar.xz services.tar.xz; do
    [[ -f $KIT/$f ]] || die "no $KIT/$f: run bench/device_kit.sh where there is network, carry .devkit"
done
command -v "$PYTHON" >/dev/null || die "no $PYTHON"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' ||
    die "$PYTHON is $("$PYTHON" --version 2>&1): the kit's wheels are for CPython 3.12"
step "machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -r), $("$PYTHON" --version 2>&1)"

# --- 1. the venv ---------------------------------------------------------------------------
want=$(stamp_of "$KIT/wheels.tar.xz")
if [[ -f $VENV/.devkit-stamp && $(<"$VENV/.devkit-stamp") == "$want" ]]; then
    step "venv: $VENV already installed from this kit (skipped)"
else
    step "venv: creating $VENV ($("$PYTHON" --version 2>&1))"
    rm -rf "$VENV" /tmp/devkit-wheels
    "$PYTHON" -m venv --without-pip "$VENV" || die "$PYTHON -m venv failed"
    mkdir -p /tmp/devkit-wheels
    untar "$KIT/wheels.tar.xz" /tmp/devkit-wheels
    wheels=(/tmp/devkit-wheels/wheels/*.whl)
    pip_wheel=$(ls /tmp/devkit-wheels/wheels/pip-*.whl) || die "the kit has no pip wheel"
    step "venv: installing ${#wheels[@]} wheels (no index, no dependencies)"
    # pip runs from its wheel; the machine's pip configuration (if any) is not read
    PIP_CONFIG_FILE=/dev/null "$VENV/bin/python" "$pip_wheel/pip" install -q --no-index --no-deps \
        --disable-pip-version-check --no-warn-script-location "${wheels[@]}" ||
        die "pip install of the kit's wheels failed"
    if ! ls /tmp/devkit-wheels/wheels/numpy-*.whl >/dev/null 2>&1; then
        # the kit leaves numpy out: link the machine's (its package, its libraries, its metadata)
        np_python=${DEVKIT_NUMPY_PYTHON:-$PYTHON}
        found=$("$np_python" -c 'import importlib.metadata as m, os, numpy
print(os.path.dirname(numpy.__file__), m.distribution("numpy")._path, numpy.__version__)') ||
            die "the kit has no numpy and $np_python has none to lend: rebuild the kit with KEEP_NUMPY=1"
        read -r np_dir np_meta np_version <<<"$found"
        site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
        ln -sfn "$np_dir" "$site/numpy"
        ln -sfn "$np_meta" "$site/$(basename "$np_meta")"
        [[ ! -d $(dirname "$np_dir")/numpy.libs ]] || ln -sfn "$(dirname "$np_dir")/numpy.libs" "$site/numpy.libs"
        step "venv: numpy $np_version linked from $np_dir"
    fi
    "$VENV/bin/python" - <<'EOF' || die "the venv cannot import what the benchmark needs"
import importlib.metadata as m
import channels, channels_redis, daphne, django, numpy, orjson, psycopg, redis, rest_framework
import websockets, yaml
print("[device] venv:", ", ".join(f"{n} {m.version(n)}" for n in (
    "Django", "channels", "channels-redis", "daphne", "psycopg", "numpy", "orjson", "websockets")),
    f"(psycopg {psycopg.pq.__impl__})")
EOF
    rm -rf /tmp/devkit-wheels
    echo "$want" >"$VENV/.devkit-stamp"
fi
for dir in "$ROOT" "$KIT/old"; do
    [[ -d $dir ]] || continue
    if [[ -L $dir/.venv || ! -e $dir/.venv ]]; then
        ln -sfn "$VENV" "$dir/.venv"
    else
        die "$dir/.venv exists and is not a link: move it away"
    fi
done
step "venv: .venv -> $VENV in ${ROOT}$([[ -d $KIT/old ]] && echo " and .devkit/old ($(cat "$KIT/old/.devkit-commit" 2>/dev/null | cut -c1-9))")"

# --- 2. the services' programs -------------------------------------------------------------
want=$(stamp_of "$KIT/services.tar.xz")
if [[ -f $SVC/.devkit-stamp && $(<"$SVC/.devkit-stamp") == "$want" ]]; then
    step "services: $SVC already unpacked (skipped)"
else
    step "services: unpacking into $SVC"
    rm -rf "$SVC"
    mkdir -p "$SVC"
    untar "$KIT/services.tar.xz" "$SVC"
    chmod -R a+rX "$SVC"
    echo "$want" >"$SVC/.devkit-stamp"
fi
if command -v ldd >/dev/null; then
    for elf in "$PG_BIN"/* "$SVC/usr/bin/redis-server"; do
        missing=$(LD_LIBRARY_PATH=$SVC/lib ldd "$elf" | grep 'not found' || true)
        [[ -z $missing ]] || die "$elf lacks libraries: $missing"
    done
fi
# PostgreSQL reads time zones from /usr/share/zoneinfo (Debian's build): lend the kit's if absent
if [[ ! -e /usr/share/zoneinfo/UTC ]]; then
    mkdir -p /usr/share/zoneinfo && cp -an "$SVC/zoneinfo/." /usr/share/zoneinfo/
    step "services: /usr/share/zoneinfo was missing: the kit's copied there"
fi
export PATH=$SVC/bin:$PATH
step "services: $(postgres --version), $(redis-server --version | cut -d' ' -f1-3)"

# --- 3. PostgreSQL ---------------------------------------------------------------------------
if [[ -n ${DEVKIT_PG_USER:-} ]]; then
    PG_USER=$DEVKIT_PG_USER
elif [[ -d $PGDATA ]]; then
    PG_USER=$(stat -c %U "$PGDATA")
elif id -u postgres >/dev/null 2>&1; then
    PG_USER=postgres
elif command -v useradd >/dev/null &&
    useradd --system --no-create-home --home-dir /nonexistent --shell /bin/false postgres; then
    PG_USER=postgres
elif id -u nobody >/dev/null 2>&1; then
    PG_USER=nobody
else
    die "no user to run PostgreSQL as (not root): no postgres, no useradd, no nobody"
fi
[[ $(id -u) == 0 ]] || PG_USER=$(id -un)
[[ $(id -u "$PG_USER") != 0 ]] || die "PostgreSQL cannot run as root ($PG_USER)"

if [[ -s $PGDATA/PG_VERSION ]]; then
    step "postgres: cluster $PGDATA exists (initdb skipped)"
else
    step "postgres: initdb $PGDATA as $PG_USER"
    rm -rf "$PGDATA"
    mkdir -p "$PGDATA"
    chown "$PG_USER:$(id -gn "$PG_USER")" "$PGDATA"
    chmod 700 "$PGDATA"
    as_pg env LC_ALL=C TZ=UTC "$SVC/bin/initdb" -D "$PGDATA" -U postgres \
        --auth=trust -E UTF8 --locale=C >"$PGDATA.initdb.log" 2>&1 ||
        { tail -20 "$PGDATA.initdb.log"; die "initdb failed (log: $PGDATA.initdb.log)"; }
    cat >>"$PGDATA/postgresql.conf" <<EOF

# bench/device_bench.sh: as for production, durability settings (fsync, synchronous_commit,
# full_page_writes) as shipped
listen_addresses = '127.0.0.1'
port = $PGPORT
unix_socket_directories = '/tmp'	# Debian's build would want /var/run/postgresql
max_connections = 500
shared_buffers = 512MB
jit = off			# the kit has no LLVM
EOF
fi
if as_pg "$SVC/bin/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; then
    step "postgres: already running on port $PGPORT (start skipped)"
else
    step "postgres: starting on 127.0.0.1:$PGPORT"
    as_pg "$SVC/bin/pg_ctl" -D "$PGDATA" -l "$PGDATA/server.log" -w -t 120 start >/dev/null ||
        { tail -20 "$PGDATA/server.log"; die "PostgreSQL did not start (log: $PGDATA/server.log)"; }
fi
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres)
if [[ $("${PSQL[@]}" -tAc "SELECT 1 FROM pg_database WHERE datname = 'test'") != 1 ]]; then
    "${PSQL[@]}" -c 'CREATE DATABASE test'
fi
step "postgres: $("${PSQL[@]}" -tAc "SELECT 'server ' || current_setting('server_version')
    || ', max_connections ' || current_setting('max_connections')
    || ', shared_buffers ' || current_setting('shared_buffers')
    || ', fsync ' || current_setting('fsync')
    || ', synchronous_commit ' || current_setting('synchronous_commit')"); database test ready"

# --- the benchmark ---------------------------------------------------------------------------
# thousands of sockets: the open-file limit as high as allowed
ulimit -Sn "$(ulimit -Hn)" 2>/dev/null || true
(($(ulimit -Sn) >= 65536)) || ulimit -n 65536 2>/dev/null || true
export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:$PGPORT/test}
step "ready: open files $(ulimit -n), somaxconn $(cat /proc/sys/net/core/somaxconn 2>/dev/null || echo ?), /dev/shm $(df -h --output=size /dev/shm 2>/dev/null | tail -1 | xargs), DATABASE_URL=$DATABASE_URL, redis-server from $(command -v redis-server)"
[[ $# -gt 0 ]] || exit 0
step "running: $*"
trap - ERR
set +e
"$@"
rc=$?
set -e
step "finished: exit status $rc"
exit "$rc"
