#!/bin/sh
# run-tests.sh CC PLUGIN OUTDIR - run the DejaGnu testsuite against PLUGIN
# built for CC, in OUTDIR, and end with one line:
#   kalloc: N passed, N failed[, N skipped]
# Exit status is non-zero on any failure or if nothing passed.
# KALLOC_OTHER_GCC_PLUGIN (environment, set by make check): the loader
# built for another GCC release, for kalloc.args/loader.exp.
# RUNTESTFLAGS (environment) passes extra runtest arguments, e.g. a
# test name: RUNTESTFLAGS=run.exp=flex-counter-run.c make check
set -u
cc=$1
plugin=$2
outdir=$3
srcdir=$(cd "$(dirname "$0")" && pwd)
. "$srcdir/lib/harness.sh"

if ! command -v runtest >/dev/null 2>&1; then
    echo "kalloc: runtest is missing: apt-get install dejagnu" >&2
    cannot_run kalloc
fi

# A cross compiler's programs run under qemu-user, with the target's
# libraries from Debian's libc6-*-cross packages.
target=$($cc -dumpmachine 2>/dev/null)
run=""
if [ -n "$target" ] && [ "$target" != "$(gcc -dumpmachine 2>/dev/null)" ]; then
    case $target in
        aarch64-*) qemu=qemu-aarch64 ;;
        arm*-*) qemu=qemu-arm ;;
        *) qemu=qemu-${target%%-*} ;;
    esac
    if command -v "$qemu" >/dev/null 2>&1; then
        run="$qemu -L /usr/$target"
    fi
fi

mkdir -p "$outdir"
cd "$outdir" || exit 1
# Two runs in one directory would count each other's results.
exec 9> .lock
if ! flock -n 9; then
    echo "kalloc: another run of the testsuite is using $outdir" >&2
    cannot_run kalloc
fi
rm -f kalloc.sum kalloc.log
# Plain ASCII quotes in messages, whatever the user's locale.
LC_ALL=C LANG=C runtest --tool kalloc --srcdir "$srcdir" \
    KALLOC_CC="$cc" KALLOC_PLUGIN="$plugin" KALLOC_RUN="$run" \
    KALLOC_OTHER_GCC_PLUGIN="${KALLOC_OTHER_GCC_PLUGIN:-}" \
    ${RUNTESTFLAGS:-} </dev/null
status=$?

count() {
    sed -n "s/^# of $1[[:space:]]*\([0-9]*\)\$/\1/p" kalloc.sum 2>/dev/null | head -n 1
}
num() { echo "${1:-0}"; }
passed=$(( $(num "$(count 'expected passes')") + $(num "$(count 'expected failures')") ))
failed=$(( $(num "$(count 'unexpected failures')") + $(num "$(count 'unexpected successes')") + $(num "$(count 'unresolved testcases')") ))
skipped=$(( $(num "$(count 'unsupported tests')") + $(num "$(count 'untested testcases')") ))
errors=$(grep -c '^ERROR:' kalloc.sum 2>/dev/null)
failed=$(( failed + $(num "$errors") ))

if [ ! -f kalloc.sum ]; then
    failed=$(( failed + 1 ))
fi
if [ "$passed" -eq 0 ]; then
    failed=$(( failed + 1 ))
fi

if ! summary kalloc "$passed" "$failed" "$skipped" || [ "$status" -ne 0 ]; then
    echo "kalloc: see $outdir/kalloc.log" >&2
    exit 1
fi
exit 0
