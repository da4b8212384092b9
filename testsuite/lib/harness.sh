# harness.sh - what kalloc's shell test scripts share (sourced; POSIX sh).
# The Python scripts' counterpart is the package kharness beside it.
#
#   summary NAME PASSED FAILED [SKIPPED]
#       prints the summary line every check ends with,
#       "NAME: P passed, F failed[, S skipped]", and returns the exit
#       status of the check: 1 when F is not 0 or nothing passed (a check
#       that ran nothing proves nothing), else 0.  End a script with
#       `summary NAME "$passed" "$failed"` to exit with it.
#   cannot_run NAME
#       a check that cannot run fails, it does not skip: prints
#       "NAME: 0 passed, 1 failed" and exits 1 (say why on stderr first).

summary() {
    if [ $# -eq 4 ]; then
        echo "$1: $2 passed, $3 failed, $4 skipped"
    else
        echo "$1: $2 passed, $3 failed"
    fi
    [ "$3" -eq 0 ] && [ "$2" -gt 0 ]
}

cannot_run() {
    summary "$1" 0 1
    exit 1
}
