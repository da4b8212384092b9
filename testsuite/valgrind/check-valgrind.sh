#!/bin/bash
# check-valgrind.sh CC PLUGIN OUTDIR - every kalloc.dg, kalloc.run and
# kalloc.args test compiled with report=, dump and suggest on at once,
# cc1 under valgrind memcheck: -O2 in the classic kernel shape and -O0
# in the 6.10+ one.  GCC's own noise (cc1 is not built for valgrind) is
# suppressed by a file made in the same run from the same compiles
# without the plugin and by gcc-noise.supp (GCC's sparse sets, which the
# register allocator runs differently on the plugin's code); every error
# left counts, and errors with a frame in kalloc-core.so are counted
# apart.  Ends with
#   valgrind: N passed, N failed
# and exits non-zero on any error or if nothing ran.  KALLOC_JOBS: how many
# compiles at once (2).  Slow: about two
# valgrind compiles per test and shape (make check-valgrind).
set -u
cc=$1
plugin=$2
out=$3
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
jobs=${KALLOC_JOBS:-2}
. "$src/lib/harness.sh"

if ! command -v valgrind >/dev/null 2>&1; then
    echo "check-valgrind: valgrind is missing: apt-get install valgrind" >&2
    cannot_run valgrind
fi
if [ ! -f "$plugin" ]; then
    echo "check-valgrind: no plugin at $plugin" >&2
    cannot_run valgrind
fi
rm -rf "$out"
mkdir -p "$out/base" "$out/plugin"

# One line per compile: NAME<TAB>FLAGS<TAB>FILE.  The test's own
# dg-options are kept (the kalloc.args tests are about them).
list=$out/compiles
: > "$list"
for f in "$src"/kalloc.dg/*.c "$src"/kalloc.run/*.c "$src"/kalloc.args/*.c; do
    opts=$(sed -n 's/.*{ *dg-options *"\([^"]*\)".*/\1/p' "$f" | tail -n 1)
    base=$(basename "$(dirname "$f")")-$(basename "$f" .c)
    printf '%s\t%s\t%s\n' "$base-O2" "-O2 $opts" "$f" >> "$list"
    printf '%s\t%s\t%s\n' "$base-O0-hooks" "-O0 -DKSHAPE_HOOKS $opts" "$f" >> "$list"
done
# KALLOC_VALGRIND_ONLY=REGEXP keeps the compiles whose name matches.
if [ -n "${KALLOC_VALGRIND_ONLY:-}" ]; then
    grep -E "^[^	]*(${KALLOC_VALGRIND_ONLY})" "$list" > "$list.only"
    mv "$list.only" "$list"
fi
total=$(wc -l < "$list")
[ "$total" -gt 0 ] || cannot_run valgrind

# compile MODE NAME FLAGS FILE: cc1 under valgrind, its log in MODE/NAME.log
compile() {
    mode=$1 name=$2 flags=$3 file=$4
    dir=$out/$mode/$name
    mkdir -p "$dir"
    if [ "$mode" = plugin ]; then
        extra="-fplugin=$plugin -fplugin-arg-kalloc-report=$dir/report.json -fplugin-arg-kalloc-dump -fplugin-arg-kalloc-suggest"
        supp="--suppressions=$out/gcc.supp,--suppressions=$here/gcc-noise.supp"
    else
        extra= supp="--gen-suppressions=all"
        flags=$(echo "$flags" | sed 's/-fplugin-arg-kalloc-[^ ]*//g')
    fi
    # shellcheck disable=SC2086
    (cd "$dir" && $cc -S $extra $flags -I"$src/include" -I"$src/../include" \
        -wrapper valgrind,--num-callers=12,--log-file="$dir/vg.%p",$supp \
        "$file" -o out.s >/dev/null 2>&1)
    cat "$dir"/vg.* > "$out/$mode/$name.log" 2>/dev/null
    rm -f "$dir"/vg.*
}
export -f compile
export out plugin src cc here

# run_all MODE: every compile of the list, JOBS at a time.
run_all() {
    while IFS=$'\t' read -r name flags file; do
        printf '%s\0%s\0%s\0' "$name" "$flags" "$file"
    done < "$list" | xargs -0 -n 3 -P "$jobs" bash -c 'compile "$0" "$1" "$2" "$3"' "$1"
}
run_all base
# GCC's noise: every suppression the compiles without the plugin asked for.
awk '/^\{/ { s = $0 "\n"; keep = 1; next }
     keep { s = s $0 "\n" }
     /^\}/ && keep { if (!(s in seen)) { seen[s] = 1; printf "%s", s } keep = 0 }' \
    "$out"/base/*.log | sed 's/^   <insert_a_suppression_name_here>/   gcc-noise/' > "$out/gcc.supp"
run_all plugin

# Each cc1 run must have ended under valgrind (its ERROR SUMMARY), with
# no error left after GCC's noise.
passed=0 failed=0 skipped=0
for log in "$out"/plugin/*.log; do
    name=$(basename "$log" .log)
    summaries=$(grep -c 'ERROR SUMMARY:' "$log")
    dirty=$(grep 'ERROR SUMMARY:' "$log" | grep -vc 'ERROR SUMMARY: 0 errors')
    # A test of bad arguments or of errors stops cc1 early; every other
    # one compiles.
    compiled=yes
    file=$(awk -F'\t' -v n="$name" '$1 == n { print $3 }' "$list")
    case $name in
        kalloc.args-*) ;;
        *) grep -q 'dg-error' "$file" || [ -s "$out/plugin/$name/out.s" ] || compiled=no ;;
    esac
    # A test for another compiler (GCC 13's SARIF, GCC 16's pointer
    # counted_by) compiles neither with nor without the plugin here.
    if [ $compiled = no ] && ! grep -q 'dg-error' "$file" \
       && { [ ! -s "$out/base/$name/out.s" ] || grep -q 'dg-require-' "$file"; } \
       && [ "$dirty" -eq 0 ]; then
        skipped=$((skipped + 1))
        continue
    fi
    if [ "$summaries" -eq 0 ] || [ "$dirty" -ne 0 ] || [ $compiled = no ]; then
        failed=$((failed + 1))
        echo "FAIL: $name ($summaries cc1 runs, $dirty with errors, compiled: $compiled)"
        grep -E -m 3 -A 8 '^==[0-9]+== [A-Z][a-z]+ .*(uninitialised|Invalid|free|overlap|Syscall)' "$log" | sed 's/^/    /'
    else
        passed=$((passed + 1))
    fi
done
# Errors whose stack reaches kalloc's own code.
# (A frame names kalloc-core.so, or, with its debug information, one of
# plugin/*.c's files.)
plugin_files=$(cd "$src/../plugin" && ls *.c | sed 's/\./\\./g' | paste -sd'|')
kalloc_errors=$(cat "$out"/plugin/*.log 2>/dev/null | grep -E -A 14 '^==[0-9]+== (Conditional|Use of uninitialised|Invalid|Mismatched|Syscall|Source and destination)' | grep -Ec "kalloc-core|\(($plugin_files):[0-9]+\)")
echo "valgrind: frames of kalloc-core.so in error stacks: $kalloc_errors"
ran=$(ls "$out"/plugin/*.log 2>/dev/null | wc -l)
[ "$ran" -eq "$total" ] || { echo "check-valgrind: $ran of $total compiles ran" >&2; failed=$((failed + total - ran)); }
summary valgrind "$passed" "$failed" "$skipped"
