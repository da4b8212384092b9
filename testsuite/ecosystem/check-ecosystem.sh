#!/bin/bash
# check-ecosystem.sh CC PLUGIN - kalloc in the builds people run:
#   install    make install into a staging DESTDIR; -fplugin=kalloc by name
#   deb        make deb; apt install ./kalloc_*.deb; use, -flto too;
#              apt remove (root)
#   ccache     results replayed, misses when the plugin or its args change
#   distcc     a distccd on 127.0.0.1 compiles with the plugin: same
#              object, same warnings as a local build; and a distccd
#              that cannot see the source tree (a mount namespace hides
#              it, root) gives verdict.c's warnings and report as a local
#              build does, the columns aside
#   icecream   an iceccd helper compiling in its compiler chroot (root)
#              gives verdict.c's warnings and object as a local build
# Ends with "ecosystem: N passed, N failed".
set -u
. "$(dirname "$0")/../lib/harness.sh"
if [ $# -ne 2 ] || [ ! -f "$2" ]; then
    echo "check-ecosystem: usage: check-ecosystem.sh CC PLUGIN (plugin '${2:-}' not found)" >&2
    cannot_run ecosystem
fi
cc=$1
plugin=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
work=$top/build/ecosystem
rm -rf "$work"
mkdir -p "$work"
src=$work/t.c
cp testsuite/kalloc.dg/kmalloc-sizeof-ptr-1.c "$src"
inc="-I$top/testsuite/include"
passed=0 failed=0

result() { # NAME STATUS
    if [ "$2" -eq 0 ]; then
        echo "PASS: $1"; passed=$((passed + 1))
    else
        echo "FAIL: $1"; failed=$((failed + 1))
    fi
}
warnings() { grep -c 'warning: .kmalloc. allocates' "$1"; }
need() { command -v "$1" >/dev/null 2>&1 || testsuite/apt-install.sh "$2"; }

export LC_ALL=C
# The local reference: object and messages.
$cc $inc -fplugin="$plugin" -c "$src" -o "$work/local.o" 2> "$work/local.txt"
expected=$(warnings "$work/local.txt")
[ "$expected" -gt 0 ]; result "reference build warns ($expected)" $?

# ---- Linux 7.x typed calls: left byte for byte as they are ----
# The typed part of typed-linux7-1.c (everything before its legacy call),
# in both kernel shapes at -O0 and -O2: the same object without and with
# the plugin.
typed_src=$work/typed.c
sed '/^struct item \*legacy/,$d' testsuite/kalloc.dg/typed-linux7-1.c > "$typed_src"
typed_ok=0
for flags in "-O0" "-O2" "-O0 -DKSHAPE_HOOKS" "-O2 -DKSHAPE_HOOKS"; do
    $cc $flags $inc -c "$typed_src" -o "$work/typed-plain.o" &&
    $cc $flags $inc -fplugin="$plugin" -c "$typed_src" -o "$work/typed-kalloc.o" &&
    cmp -s "$work/typed-plain.o" "$work/typed-kalloc.o" || typed_ok=1
done
result "Linux 7.x typed calls: the same object without and with kalloc" $typed_ok

# ---- install ----
stage=$work/stage
make --no-print-directory CC="$cc" install DESTDIR="$stage" PREFIX=/usr >/dev/null 2>&1
plugdir=$stage$($cc -print-file-name=plugin)
[ -f "$plugdir/kalloc.so" ] && [ -f "$plugdir/kalloc-core.so" ] && [ -f "$stage/usr/include/kalloc.h" ] && \
    [ -f "$stage/usr/share/man/man7/kalloc.7" ]; result "install: files in place" $?
[ "$("$stage/usr/bin/kalloc-report" --version 2>&1)" = "kalloc-report $(sed -n 's/^VERSION := //p' Makefile)" ]
result "install: kalloc-report, of the Makefile's version" $?
$cc $inc -iplugindir="$plugdir" -fplugin=kalloc -c "$src" -o "$work/byname.o" 2> "$work/byname.txt"
[ "$(warnings "$work/byname.txt")" -eq "$expected" ]; result "install: -fplugin=kalloc by name" $?
make --no-print-directory CC="$cc" uninstall DESTDIR="$stage" PREFIX=/usr >/dev/null 2>&1
[ -z "$(find "$stage" -type f)" ]; result "uninstall removes every file" $?

# ---- Debian package ----
if [ "$(id -u)" -eq 0 ] && command -v dpkg >/dev/null && ! dpkg -s kalloc >/dev/null 2>&1; then
    make --no-print-directory CC="$cc" deb >/dev/null 2>&1
    deb=$(ls build/kalloc_*.deb 2>/dev/null | head -n 1)
    [ -n "$deb" ]; result "deb: package built" $?
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$deb" >/dev/null 2>&1
    result "deb: apt install ./$(basename "$deb")" $?
    $cc $inc -fplugin=kalloc -c "$src" -o "$work/deb.o" 2> "$work/deb.txt"
    [ "$(warnings "$work/deb.txt")" -eq "$expected" ] && dpkg -L kalloc | grep -q "man7/kalloc.7" &&
        kalloc-report --version >/dev/null
    result "deb: -fplugin=kalloc works, man page and kalloc-report installed" $?
    # lto1 loads the plugin at the link too (kalloc.so, the loader, does
    # nothing there).
    $cc $inc -fplugin=kalloc -flto -O2 -fPIC -c "$src" -o "$work/deb-lto.o" 2>/dev/null &&
        $cc -fplugin=kalloc -flto -O2 -shared "$work/deb-lto.o" -o "$work/deb-lto.so"
    result "deb: an -flto link with -fplugin=kalloc" $?
    DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq kalloc >/dev/null 2>&1 && \
        [ ! -e "$($cc -print-file-name=plugin)/kalloc.so" ] && \
        [ ! -e "$($cc -print-file-name=plugin)/kalloc-core.so" ] && [ ! -e /usr/include/kalloc.h ]
    result "deb: apt remove kalloc leaves nothing" $?
else
    echo "SKIP: deb (needs root, dpkg, and kalloc not installed already)"
fi

# ---- ccache ----
if need ccache ccache; then
    export CCACHE_DIR=$work/ccache
    ccache -z >/dev/null
    hits() { ccache --print-stats | awk '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { n += $2 } END { print n + 0 }'; }
    ccache $cc $inc -fplugin="$plugin" -c "$src" -o "$work/c1.o" 2> "$work/c1.txt"
    ccache $cc $inc -fplugin="$plugin" -c "$src" -o "$work/c2.o" 2> "$work/c2.txt"
    [ "$(hits)" -eq 1 ] && cmp -s "$work/c2.o" "$work/local.o" && \
        [ "$(warnings "$work/c2.txt")" -eq "$expected" ]
    result "ccache: hit, same object, warnings replayed" $?
    ccache $cc $inc -fplugin="$plugin" -fplugin-arg-kalloc-no-warn=all -c "$src" -o "$work/c3.o" 2> "$work/c3.txt"
    [ "$(hits)" -eq 1 ] && [ "$(warnings "$work/c3.txt")" -eq 0 ]
    result "ccache: a plugin argument change misses" $?
    cp "$plugin" "$(dirname "$plugin")/kalloc-core.so" "$work/"
    ccache $cc $inc -fplugin="$work/kalloc.so" -c "$src" -o "$work/c4.o" 2>/dev/null
    touch -d '2001-01-01' "$work/kalloc.so"
    ccache $cc $inc -fplugin="$work/kalloc.so" -c "$src" -o "$work/c5.o" 2>/dev/null
    [ "$(hits)" -eq 1 ]; result "ccache: a changed plugin file misses" $?
    unset CCACHE_DIR
else
    result "ccache: installed" 1
fi

# verdict.c, with its headers, for the helpers that must not see it.
tree=$work/srctree
mkdir -p "$tree"
cp testsuite/ecosystem/verdict.c testsuite/include/*.h "$tree/"

# ---- distcc, on loopback only ----
# A loaded machine starts a daemon late, and a distcc that finds nobody
# listening puts the host in backoff: wait until it listens (10 s at most).
wait_listening() {
    for _ in $(seq 50); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.2
    done
}
# The daemon logs a job as it ends it: give the line time to land.
wait_logged() {
    for _ in $(seq 25); do
        grep -q COMPILE_OK "$1" 2>/dev/null && return 0
        sleep 0.2
    done
}
if need distccd distcc; then
    port=36${RANDOM:0:3}
    wrapper=$work/kalloc-cc
    printf '#!/bin/sh\nexec %s -fplugin=%s "$@"\n' "$cc" "$plugin" > "$wrapper"
    chmod 755 "$wrapper" "$work"
    echo "$wrapper" > "$work/cmdlist"
    chmod 644 "$work/cmdlist"
    : > "$work/distccd.log"; chmod 666 "$work/distccd.log"
    DISTCC_CMDLIST=$work/cmdlist distccd --daemon --no-detach --allow 127.0.0.1 \
        --listen 127.0.0.1 --port "$port" --log-file "$work/distccd.log" --jobs 2 &
    daemon=$!
    wait_listening "$port"
    rm -rf "$work/distcc"
    mkdir -p "$work/distcc"
    DISTCC_DIR=$work/distcc DISTCC_HOSTS=127.0.0.1:$port/2 DISTCC_FALLBACK=0 \
        distcc "$wrapper" $inc -c "$src" -o "$work/remote.o" 2> "$work/remote.txt"
    status=$?
    wait_logged "$work/distccd.log"
    kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null
    grep -q COMPILE_OK "$work/distccd.log" && [ $status -eq 0 ] && \
        cmp -s "$work/remote.o" "$work/local.o" && \
        diff <(grep warning: "$work/remote.txt") <(grep warning: "$work/local.txt") >/dev/null
    result "distcc: compiled by distccd on 127.0.0.1, same object and warnings" $?

    # The helper without the sources: distccd in a mount namespace where
    # the source tree is an empty tmpfs.  The client preprocesses, the
    # helper compiles the .i; verdict.c has every warning kind and a
    # bare byte count that must stay silent.
    verdict() { # OUT: warnings (no columns) and report lines
        grep -a 'warning:' "$1.txt" | sed 's/^\([^:]*:[0-9]*\):[0-9]*:/\1:/'
        sed 's/"column":[0-9]*,//' "$1.json" 2>/dev/null
    }
    LC_ALL=C "$cc" -fplugin="$plugin" -fplugin-arg-kalloc-report="$work/vlocal.json" \
        -I"$tree" -c "$tree/verdict.c" -o "$work/vlocal.o" 2> "$work/vlocal.txt"
    if command -v unshare >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
        port=37${RANDOM:0:3}
        : > "$work/distccd2.log"; chmod 666 "$work/distccd2.log"
        # distccd runs as its own user: the report file must be writable.
        : > "$work/vremote.json"; chmod 666 "$work/vremote.json"
        unshare -m sh -c "mount -t tmpfs none '$tree' && exec env DISTCC_CMDLIST='$work/cmdlist' distccd --daemon --no-detach --allow 127.0.0.1 --listen 127.0.0.1 --port $port --log-file '$work/distccd2.log' --jobs 2" &
        daemon=$!
        wait_listening "$port"
        LC_ALL=C DISTCC_DIR=$work/distcc DISTCC_HOSTS=127.0.0.1:$port/2 DISTCC_FALLBACK=0 \
            distcc "$wrapper" -fplugin-arg-kalloc-report="$work/vremote.json" \
            -I"$tree" -c "$tree/verdict.c" -o "$work/vremote.o" 2> "$work/vremote.txt"
        status=$?
        wait_logged "$work/distccd2.log"
        kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null
        grep -q COMPILE_OK "$work/distccd2.log" && [ $status -eq 0 ] && \
            [ "$(grep -c 'warning:' "$work/vlocal.txt")" -eq 5 ] && \
            diff <(verdict "$work/vlocal") <(verdict "$work/vremote") > "$work/verdict.diff"
        result "distcc: a helper without the sources gives the local verdict" $?
    else
        result "distcc: a helper without the sources (needs root and unshare)" 1
    fi
else
    result "distcc: installed" 1
fi

# ---- icecream, on loopback only ----
# A scheduler and two daemons of a private network name: the client's
# local daemon, and a helper that compiles in the chroot of the compiler
# environment icecc-create-env made (the compiler, the plugin and
# kalloc-core.so beside it: nothing of the source tree).  icecream's
# client preprocesses with -fdirectives-only and pipes the result to the
# helper's cc1 on standard input.  By default it compiles again locally
# whenever the helper printed anything (GCC's carets need the source);
# ICECC_CARET_WORKAROUND=0 keeps the helper's output, so the helper's own
# verdict is what is compared.  Reports are written inside the helper's
# chroot, so only warnings and the object are compared.
if [ "$(id -u)" -eq 0 ] && need iceccd icecc && need icecc-create-env icecc; then
    ice=$work/icecream
    mkdir -p "$ice/plugin"
    chmod 755 "$work" "$ice"
    # The daemons run as the icecc user: their environment directories
    # must be its own.
    install -d -o icecc -g icecc "$ice/envs-local" "$ice/envs-helper" "$ice/run"
    cp "$plugin" "$(dirname "$plugin")/kalloc-core.so" "$ice/plugin/"
    iceplugin=$ice/plugin/kalloc.so
    net=kalloc-check-$$
    port=38${RANDOM:0:3}
    (cd "$ice" && icecc-create-env --gcc "$(command -v "$cc")" "$(command -v g++ || command -v "$cc")" \
        --addfile "$iceplugin" --addfile "$ice/plugin/kalloc-core.so") > "$ice/env.log" 2>&1
    env_file=$(sed -n 's/^creating //p' "$ice/env.log")
    icecc-scheduler -n "$net" -p "$port" -l "$ice/scheduler.log" &
    sched=$!
    ICECC_TEST_SOCKET=$ice/run/local.socket iceccd --no-remote -p $((port + 200)) -n "$net" -s "127.0.0.1:$port" \
        -b "$ice/envs-local" -N kalloc-local -vvv > "$ice/local.log" 2>&1 &
    local_daemon=$!
    ICECC_TEST_SOCKET=$ice/run/helper.socket iceccd -p $((port + 100)) -n "$net" -s "127.0.0.1:$port" \
        -b "$ice/envs-helper" -N kalloc-helper -m 2 -vvv > "$ice/helper.log" 2>&1 &
    helper=$!
    for _ in $(seq 30); do
        grep -q "Connected to scheduler" "$ice/local.log" "$ice/helper.log" 2>/dev/null &&
            [ "$(grep -l "Connected to scheduler" "$ice/local.log" "$ice/helper.log" | wc -l)" -eq 2 ] && break
        sleep 1
    done
    ICECC_TEST_SOCKET=$ice/run/local.socket ICECC_VERSION="$ice/$env_file" ICECC_TEST_REMOTEBUILD=1 \
        ICECC_PREFERRED_HOST=kalloc-helper ICECC_CARET_WORKAROUND=0 ICECC_DEBUG=debug \
        ICECC_LOGFILE="$ice/client.log" \
        icecc "$cc" -fplugin="$iceplugin" -I"$tree" -c "$tree/verdict.c" -o "$ice/remote.o" \
        2> "$ice/remote.txt"
    status=$?
    kill "$helper" "$local_daemon" "$sched" 2>/dev/null
    wait "$helper" "$local_daemon" "$sched" 2>/dev/null
    "$cc" -fplugin="$iceplugin" -I"$tree" -c "$tree/verdict.c" -o "$ice/local.o" 2> "$ice/local.txt"
    ice_verdict() { grep -a 'warning:' "$1" | sed 's/^\([^:]*:[0-9]*\):[0-9]*:/\1:/'; }
    [ -n "$env_file" ] && [ $status -eq 0 ] && \
        grep -q "Remote compilation completed with exit code 0" "$ice/helper.log" && \
        ! grep -q "building_local" "$ice/client.log" && \
        [ "$(grep -c 'warning:' "$ice/local.txt")" -eq 5 ] && \
        diff <(ice_verdict "$ice/local.txt") <(ice_verdict "$ice/remote.txt") > "$ice/verdict.diff" && \
        cmp -s "$ice/local.o" "$ice/remote.o"
    result "icecream: a helper in its compiler chroot gives the local verdict and object" $?
else
    result "icecream: installed, run as root" 1
fi

summary ecosystem "$passed" "$failed"
