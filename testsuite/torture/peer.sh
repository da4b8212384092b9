# peer.sh - what run-torture and run-csmith share (sourced, bash): their
# command line and what became of a compile or a run.  The two peer tests
# call a result by the same name, so a crash is an ICE in both.
#   peer_args NAME CC PLUGIN  -> cc, plugin, here, top; without the
#                                plugin file, ends with "NAME: 0 passed, 1 failed"
#   classify_build RC OUTPUT  -> b_status ok|fail|timeout|ice
#   classify_run RC           -> r_status pass|run-timeout|run-exit-N
#   crashed OUTPUT            true if OUTPUT shows a compiler crash
# RC is the exit status under timeout(1) -k: 124 or 137 is a timeout.
# It sources testsuite/lib/harness.sh: summary, cannot_run.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/harness.sh"

crashed() {
    grep -qE 'internal compiler error|Segmentation fault|in plugin|Please submit a full bug report' "$1" 2>/dev/null
}

# A compiler that crashed (not one that reported an error): GCC's ICE
# banner, a signal (status above 128) or GCC's exit status 4 for an ICE.
classify_build() {
    if [ "$1" -eq 124 ] || [ "$1" -eq 137 ]; then
        b_status=timeout
    elif crashed "$2" || [ "$1" -eq 4 ] || [ "$1" -gt 128 ]; then
        b_status=ice
    elif [ "$1" -ne 0 ]; then
        b_status=fail
    else
        b_status=ok
    fi
}

classify_run() {
    if [ "$1" -eq 0 ]; then
        r_status=pass
    elif [ "$1" -eq 124 ] || [ "$1" -eq 137 ]; then
        r_status=run-timeout
    else
        r_status=run-exit-$1
    fi
}

peer_args() {
    cc=${2:-gcc}
    plugin=${3:-}
    here=$(cd "$(dirname "$0")" && pwd)
    top=$(cd "$here/../.." && pwd)
    if [ -z "$plugin" ] || [ ! -f "$plugin" ]; then
        echo "run-$1: usage: run-$1.sh CC PLUGIN (plugin '$plugin' not found)" >&2
        cannot_run "$1"
    fi
}
