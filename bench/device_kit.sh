#!/usr/bin/env bash
# Builds .devkit/: what bench/device_bench.sh needs to run the load benchmark on a borrowed
# machine with no network, no PostgreSQL, no Redis and no project packages (x86-64 Linux,
# CPython 3.12, glibc >= this machine's).
#
#   bench/device_kit.sh [OLD_COMMIT]        # run here, from anywhere in the checkout
#
# .devkit/ (git-ignored through .git/info/exclude) then holds
#   wheels.tar.xz   wheels/*.whl for CPython 3.12 manylinux x86_64: the runtime dependencies
#                   (pyproject.toml [project] dependencies, this checkout's and OLD_COMMIT's,
#                   at the versions of this checkout's .venv), pip itself (to install them into
#                   a venv made --without-pip) and tzdata. numpy is left out (the device has its
#                   own; KEEP_NUMPY=1 packs it: +16 MB) and so is py-spy, which only --profile
#                   uses (WITH_PYSPY=1 packs it: +2 MB, over the limit with the rest). The wheels
#                   are re-zipped uncompressed so that xz packs them: 40% smaller than as built.
#   requirements.txt  the wheels' names and versions
#   services.tar.xz PostgreSQL 15 (bin/, lib/, share/ in Debian's layout, relocatable) and
#                   redis-server, the shared libraries they need (lib/; not glibc's, libstdc++
#                   or libgcc_s), /usr/share/zoneinfo (PostgreSQL reads the system's) and
#                   wrappers in bin/ that set LD_LIBRARY_PATH for those programs only
#   old/            git archive of OLD_COMMIT (default 0f22422: main before issue 28), served with --server-dir
# and must stay under DEVKIT_MAX_MIB (54) MiB: with the tracked files (8 MiB) under the 64 MiB that may
# travel to the lent machine.
set -euo pipefail

OLD_COMMIT=${1:-0f22422}
MAX_MIB=${DEVKIT_MAX_MIB:-54}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KIT=$ROOT/.devkit
PG=/usr/lib/postgresql/15
PGSHARE=/usr/share/postgresql/15
REDIS=/usr/bin/redis-server
# pip's target: CPython 3.12 on manylinux x86_64 (glibc 2.5 .. 2.28 wheels run on the device)
PLATFORMS=(manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_24_x86_64
    manylinux_2_17_x86_64 manylinux2014_x86_64 manylinux_2_5_x86_64 manylinux1_x86_64)
# dependencies that PyPI has as a source archive only (pure Python)
SOURCE_ONLY=(http-ece)
# glibc's own libraries (the device's glibc must be used: they share private symbols) and the
# compiler's runtime, which every Linux has: not packed
SYSTEM_LIBS='^(libc|libm|libmvec|libpthread|libdl|librt|libresolv|libutil|libanl|libnsl|libnss_[a-z]+|ld-linux-x86-64|libstdc\+\+|libgcc_s)\.so'

SECONDS=0
step() { printf '[kit %3ds] %s\n' "$SECONDS" "$*"; }
die() { printf '[kit %3ds] FAILED: %s\n' "$SECONDS" "$*" >&2; exit 1; }
trap 'die "line $LINENO: $BASH_COMMAND"' ERR

cd "$ROOT"
for tool in git python3 xz tar ldd; do
    command -v "$tool" >/dev/null || die "$tool is not installed"
done
[[ -x $PG/bin/postgres && -d $PGSHARE ]] || die "PostgreSQL 15 not found under $PG and $PGSHARE"
[[ -e $REDIS ]] || die "$REDIS not found"
git rev-parse --verify --quiet "$OLD_COMMIT^{commit}" >/dev/null || die "no commit $OLD_COMMIT"

# git ignores .devkit/ here only (the lead commits nothing of it)
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qxF '/.devkit/' "$exclude" 2>/dev/null || echo '/.devkit/' >>"$exclude"

rm -rf "$KIT"
mkdir -p "$KIT"
STAGE=$(mktemp -d /tmp/devkit-stage.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT

# --- wheels ----------------------------------------------------------------------------------
step "wheels: resolving the runtime dependencies (this checkout's and $OLD_COMMIT's) for CPython 3.12"
git show "$OLD_COMMIT:pyproject.toml" >"$STAGE/old-pyproject.toml"
python3 - "$ROOT/pyproject.toml" "$STAGE/old-pyproject.toml" >"$STAGE/requirements.in" <<'EOF'
import re, sys, tomllib, os
keep_numpy = os.environ.get("KEEP_NUMPY") == "1"
with_pyspy = os.environ.get("WITH_PYSPY") == "1"
seen = []
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        for req in tomllib.load(f)["project"]["dependencies"]:
            name = re.match(r"[A-Za-z0-9._-]+", req).group().lower().replace("_", "-")
            if (keep_numpy or name != "numpy") and req not in seen:
                seen.append(req)
# what the benchmark needs beyond them: tzdata (zoneinfo without the system's), pip (installs
# the rest into a venv made without pip), py-spy if asked (--profile)
print("\n".join(seen + ["tzdata", "pip"] + ["py-spy"] * with_pyspy))
EOF
# the versions this checkout's .venv has (those the tests ran with), where there is one
if [[ -x .venv/bin/python ]]; then
    .venv/bin/python -m pip freeze --exclude-editable 2>/dev/null | grep -v '^#' >"$STAGE/constraints.txt"
else
    step "wheels: no .venv here, so the newest versions allowed are taken"
    : >"$STAGE/constraints.txt"
fi
# pure-Python packages published as source only (pip cannot download a source for another
# interpreter): built into wheels here, at the version the constraints name, and found there
mkdir -p "$STAGE/built"
for name in "${SOURCE_ONLY[@]}"; do
    pin=$(grep -i "^${name//[-_]/[-_]}==" "$STAGE/constraints.txt" || echo "$name")
    nice python3 -m pip wheel -qq --disable-pip-version-check --no-deps -w "$STAGE/built" "$pin" ||
        die "could not build a wheel of $pin"
done
platforms=()
for p in "${PLATFORMS[@]}"; do platforms+=(--platform "$p"); done
nice python3 -m pip download -qq --disable-pip-version-check --only-binary=:all: \
    --python-version 3.12 --implementation cp --abi cp312 "${platforms[@]}" \
    --find-links "$STAGE/built" \
    -d "$STAGE/download" -r "$STAGE/requirements.in" -c "$STAGE/constraints.txt" ||
    die "pip download failed (network? a package without a cp312 manylinux wheel?)"
if [[ ${KEEP_NUMPY:-0} != 1 ]] && ls "$STAGE"/download/numpy-* >/dev/null 2>&1; then
    die "numpy was pulled in by another package: set KEEP_NUMPY=1"
fi
# one version per package, stored (not deflated) so that xz compresses across them
mkdir -p "$STAGE/wheels/wheels"
python3 - "$STAGE/download" "$STAGE/wheels/wheels" <<'EOF'
import sys, zipfile
from pathlib import Path
src, dst = Path(sys.argv[1]), Path(sys.argv[2])
names = {}
for wheel in sorted(src.glob("*.whl")):
    name = wheel.name.split("-")[0].lower()
    if name in names:
        sys.exit(f"two versions of {name}: {names[name]} and {wheel.name}")
    names[name] = wheel.name
    with zipfile.ZipFile(wheel) as zin, zipfile.ZipFile(dst / wheel.name, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            info.compress_type = zipfile.ZIP_STORED
            zout.writestr(info, data)
unpinned = [p.name for p in src.iterdir() if p.suffix != ".whl"]
if unpinned:
    sys.exit(f"not wheels: {unpinned}")
EOF
(cd "$STAGE/download" && ls *.whl | sed -E 's/^([^-]+)-([^-]+)-.*/\1==\2/') >"$KIT/requirements.txt"
cp "$KIT/requirements.txt" "$STAGE/wheels/wheels/requirements.txt"
step "wheels: $(wc -l <"$KIT/requirements.txt") packages, $(du -sh "$STAGE/download" | cut -f1) as built; packing (xz -9)"
tar -C "$STAGE/wheels" --owner=0 --group=0 --numeric-owner -cf - wheels | nice xz -9 -T1 >"$KIT/wheels.tar.xz"

# --- services ----------------------------------------------------------------------------------
step "services: PostgreSQL 15 and redis-server with their libraries"
S=$STAGE/svc
mkdir -p "$S/usr/lib/postgresql/15/bin" "$S/usr/lib/postgresql/15/lib" "$S/usr/share/postgresql" \
    "$S/usr/bin" "$S/lib" "$S/bin"
# PostgreSQL finds share/ and lib/ relative to its binary when the layout below bin/'s
# common prefix with them (/usr) is kept: usr/lib/postgresql/15/bin, usr/share/postgresql/15
PG_BINS=(postgres initdb pg_ctl psql pg_isready)
for b in "${PG_BINS[@]}"; do cp -L "$PG/bin/$b" "$S/usr/lib/postgresql/15/bin/"; done
# the server's own modules (PL/pgSQL, the snowball dictionaries, the encoding conversions,
# replication): not contrib's extensions (the site creates none), the LLVM JIT (libLLVM: 100 MB;
# jit is off on the device) nor the build files (pgxs, bitcode)
for so in "$PG"/lib/*.so; do
    case $(basename "$so") in
    plpgsql.so | dict_snowball.so | libpqwalreceiver.so | pgoutput.so | *_and_* | euc2004_sjis2004.so)
        cp -L "$so" "$S/usr/lib/postgresql/15/lib/" ;;
    esac
done
# share/: all that initdb and the server read; of the extensions only plpgsql (initdb creates it)
tar -C "$(dirname "$PGSHARE")" --exclude=15/man --exclude='15/extension/*' -cf - 15 |
    tar -C "$S/usr/share/postgresql" -xf -
cp "$PGSHARE"/extension/plpgsql* "$S/usr/share/postgresql/15/extension/"
# redis-server is a link to redis-check-rdb here, and redis picks its role by its name
cp -L "$REDIS" "$S/usr/bin/redis-server"
tar -C /usr/share --exclude=zoneinfo/right --exclude=zoneinfo/posix -cf - zoneinfo | tar -C "$S" -xf -

# every library they load (ldd is recursive), except glibc's and the compiler's runtime
for elf in "$S"/usr/lib/postgresql/15/bin/* "$S"/usr/lib/postgresql/15/lib/*.so "$S/usr/bin/redis-server"; do
    out=$(ldd "$elf") || die "ldd $elf failed"
    if grep -q 'not found' <<<"$out"; then die "$elf: $(grep 'not found' <<<"$out")"; fi
    awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' <<<"$out"
done | sort -u | while read -r soname path; do
    [[ $soname =~ $SYSTEM_LIBS ]] || cp -L "$path" "$S/lib/$soname"
done

# wrappers: LD_LIBRARY_PATH for these programs only (python3 and the rest keep the system's)
wrap() {  # wrap NAME RELATIVE_PATH
    cat >"$S/bin/$1" <<EOF
#!/bin/sh
# $1 from the device kit, with the kit's libraries (set for this program and its children only)
d=\$(cd "\$(dirname "\$(readlink -f "\$0")")/.." && pwd)
LD_LIBRARY_PATH="\$d/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "\$d/$2" "\$@"
EOF
    chmod 755 "$S/bin/$1"
}
for b in "${PG_BINS[@]}"; do wrap "$b" "usr/lib/postgresql/15/bin/$b"; done
wrap redis-server usr/bin/redis-server
{
    "$S/bin/postgres" --version
    "$S/bin/redis-server" --version
    echo "packed on $(. /etc/os-release && echo "$PRETTY_NAME"), $(ldd --version | head -1)"
} >"$S/VERSIONS"
step "services: $(ls "$S/lib" | wc -l) libraries, $(du -sh "$S" | cut -f1) unpacked; packing (xz -9)"
tar -C "$S" --owner=0 --group=0 --numeric-owner -cf - . | nice xz -9 -T1 >"$KIT/services.tar.xz"

# --- the old code --------------------------------------------------------------------------
step "old: git archive $OLD_COMMIT ($(git rev-parse --short "$OLD_COMMIT^{commit}")) into .devkit/old"
mkdir -p "$KIT/old"
git archive "$OLD_COMMIT" | tar -x -C "$KIT/old"
git rev-parse "$OLD_COMMIT^{commit}" >"$KIT/old/.devkit-commit"

# --- sizes ----------------------------------------------------------------------------------
for part in "$KIT"/* "$KIT"; do
    printf '    %s on disk, %s of data\t%s\n' "$(du -sh "$part" | cut -f1)" \
        "$(du -sh --apparent-size "$part" | cut -f1)" "${part#"$ROOT"/}"
done
tracked=$(git ls-files -z | du -c --block-size=1K --files0-from=- 2>/dev/null | tail -1 | cut -f1)
echo "    $((tracked / 1024)) MiB	tracked files of the working tree (they travel too)"
total=$(du -s --block-size=1M "$KIT" | cut -f1)
((total < MAX_MIB)) || die ".devkit is $total MiB, over $MAX_MIB MiB"
step "done: .devkit is $total MiB (limit $MAX_MIB MiB)"
