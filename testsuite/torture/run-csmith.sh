#!/bin/bash
# run-csmith.sh CC PLUGIN [N] - N random csmith programs (default 200) as a
# peer test for kalloc.
#
# Program i is `csmith --seed $((CSMITH_SEED + i))` (CSMITH_SEED defaults
# to 1, so runs are repeatable).  Csmith programs do not allocate, so two
# things are injected, the same in both builds:
#   - alloc-prelude.h is force-included (-include) with KALLOC_PRELUDE_MIX:
#     kernel-style kmalloc/kzalloc/kcalloc/kmalloc_array/size_add/size_mul,
#     a constructor that allocates with them, and __kp_heap_mix ();
#   - main () gets, right after func_1 (), the line
#         crc32_context ^= __kp_heap_mix (crc32_context);
#     so allocation counts depend on the random program's state and what
#     the allocations hold goes into the printed checksum.
# Each program is built at -O0 and -O2 without and with
#   -fplugin=kalloc.so -fplugin-arg-kalloc-alloc=malloc:size
#   -fplugin-arg-kalloc-alloc=calloc:count,size -fplugin-arg-kalloc-alloc=realloc:_,size
# and run (timeout 10 s); the outputs (csmith's checksum) must be the same.
# A program whose build without the plugin fails, crashes or times out is
# a baseline failure.  Failures are ICEs with the plugin and regressions;
# the program and the logs are kept in build/csmith/logs.  Ends with
#   csmith: N passed, N failed
#
# Environment: CSMITH_JOBS=2, CSMITH_SEED=1, CSMITH_OPTS="-O0 -O2",
# CSMITH_CACHE=build/csmith.
set -u

if [ "${1:-}" = "--job" ]; then
    seed=$2
    work=$C_WORK/$seed
    rm -rf "$work"
    mkdir -p "$work"
    . "$(dirname "$0")/peer.sh"
    cd "$work" || exit 1
    if ! timeout 60 csmith --seed "$seed" -o prog.c > gen.out 2>&1; then
        for opt in $C_OPTS; do echo "RESULT $opt basefail $seed csmith-failed"; done
        exit 0
    fi
    # The allocation call, after func_1 () in main ().
    sed -i 's/^\([[:space:]]*\)func_1();$/&\n\1crc32_context ^= __kp_heap_mix(crc32_context);/' prog.c
    grep -q '__kp_heap_mix' prog.c || { for opt in $C_OPTS; do echo "RESULT $opt basefail $seed no-func_1-call"; done; exit 0; }

    common=(-w -I"$C_INC" -include "$C_PRELUDE" -DKALLOC_PRELUDE_MIX)
    plugin=(-fplugin="$C_PLUGIN"
            -fplugin-arg-kalloc-alloc=malloc:size
            -fplugin-arg-kalloc-alloc=calloc:count,size
            -fplugin-arg-kalloc-alloc=realloc:_,size
            -fplugin-arg-kalloc-report="$C_REPORT")

    build() { # TAG FLAGS... -> b_status ok|fail|timeout|ice
        local tag=$1; shift
        local cmd=($C_CC "$@" prog.c -o "$tag")
        echo "${cmd[*]}" > "$tag.cmd"
        timeout -k 5 120 "${cmd[@]}" > "$tag.out" 2>&1 </dev/null
        local rc=$?
        echo "exit $rc" >> "$tag.cmd"
        classify_build $rc "$tag.out"
    }
    run() { # TAG -> r_status pass|run-timeout|run-exit-N
        timeout -k 2 10 "./$1" > "$1.stdout" 2> "$1.stderr" </dev/null
        local rc=$?
        echo "$rc" > "$1.rc"
        classify_run $rc
    }

    keep=0
    for opt in $C_OPTS; do
        o=${opt#-}
        build "base$o" "$opt" "${common[@]}"; bb=$b_status
        build "plug$o" "$opt" "${common[@]}" "${plugin[@]}"; pb=$b_status
        if [ "$pb" = ice ] && [ "$bb" != ice ]; then
            v=ice why=compile-ice
        elif [ "$bb" != ok ]; then
            v=basefail why=base-$bb
        else
            run "base$o"; br=$r_status
            if [ "$br" != pass ]; then
                v=basefail why=base-$br
            elif [ "$pb" != ok ]; then
                v=regress why=$pb
            else
                run "plug$o"; pr=$r_status
                v=""
                if [ "$pr" != pass ]; then
                    v=regress why=$pr
                elif ! cmp -s "base$o.stdout" "plug$o.stdout"; then
                    v=regress why=checksum-differs
                fi
                if [ "$v" = regress ]; then
                    # Not one if the program alone gives another result
                    # when run again.
                    timeout -k 2 10 "./base$o" > "base$o.stdout2" 2>/dev/null </dev/null
                    if [ $? != "$(cat "base$o.rc")" ] || ! cmp -s "base$o.stdout" "base$o.stdout2"; then
                        v=basefail why=base-nondeterministic
                    fi
                else
                    v=pass why=$(sed -n 's/^checksum = //p' "base$o.stdout")
                fi
            fi
        fi
        echo "RESULT $opt $v $seed $why"
        if [ "$v" = ice ] || [ "$v" = regress ]; then
            keep=1
            {
                echo "== csmith --seed $seed, $opt: $v ($why)"
                for t in "base$o" "plug$o"; do
                    echo "== $t build:"; cat "$t.cmd"; cat "$t.out"
                    if [ -f "$t.rc" ]; then
                        echo "== $t run: exit $(cat "$t.rc")"; head -c 2000 "$t.stdout"; head -c 2000 "$t.stderr"
                    fi
                done
            } > "$C_LOGS/seed$seed$opt.log"
        fi
    done
    [ "$keep" -eq 1 ] && cp prog.c "$C_LOGS/seed$seed.c"
    cd "$C_WORK" && rm -rf "$work"
    exit 0
fi

. "$(dirname "$0")/peer.sh"
peer_args csmith "${1:-}" "${2:-}"
count=${3:-200}

# csmith and its runtime headers (Debian: csmith, libcsmith-dev).
inc=""
for d in /usr/include/csmith /usr/local/include/csmith /usr/include/csmith-*; do
    [ -f "$d/csmith.h" ] && { inc=$d; break; }
done
if ! command -v csmith >/dev/null 2>&1 || [ -z "$inc" ]; then
    "$top/testsuite/apt-install.sh" csmith libcsmith-dev
    for d in /usr/include/csmith /usr/local/include/csmith; do
        [ -f "$d/csmith.h" ] && { inc=$d; break; }
    done
fi
if ! command -v csmith >/dev/null 2>&1 || [ -z "$inc" ]; then
    echo "run-csmith: csmith or its headers are missing (apt-get install csmith libcsmith-dev)" >&2
    cannot_run csmith
fi

cache=${CSMITH_CACHE:-$top/build/csmith}
export C_CC=$cc C_PLUGIN=$plugin C_INC=$inc C_PRELUDE=$here/alloc-prelude.h
export C_OPTS=${CSMITH_OPTS:-"-O0 -O2"}
export C_WORK=$cache/work C_LOGS=$cache/logs C_REPORT=$cache/alloc-sites.jsonl
results=$cache/results.txt
rm -rf "$C_WORK" "$C_LOGS"
rm -f "$C_REPORT" "$results"
mkdir -p "$C_WORK" "$C_LOGS"
jobs=${CSMITH_JOBS:-2}
seed0=${CSMITH_SEED:-1}
echo "run-csmith: $cc, $count programs (seeds $((seed0 + 1))..$((seed0 + count))) x ($C_OPTS), $(cd "$cache" && csmith --version 2>/dev/null | head -n 1), $jobs jobs"
start=$(date +%s)
nopt=$(echo $C_OPTS | wc -w)
step=$(( count / 10 )); [ "$step" -gt 0 ] || step=1
seq $((seed0 + 1)) $((seed0 + count)) | xargs -P "$jobs" -n 1 "$0" --job 2>"$cache/jobs.stderr" \
  | { n=0; while IFS= read -r line; do
        echo "$line" >> "$results"
        n=$(( n + 1 ))
        if [ $(( n % (step * nopt) )) -eq 0 ]; then
            echo "run-csmith: $(( n / nopt ))/$count programs, $(( $(date +%s) - start )) s"
        fi
      done; }
end=$(date +%s)

echo
awk -v secs=$(( end - start )) '
    $1 == "RESULT" { n[$2]++; c[$2, $3]++; t[$3]++; if (!($2 in seen)) { seen[$2] = 1; o[++no] = $2 } }
    END {
        printf "%-4s %8s %6s %9s %5s %8s\n", "-O", "programs", "pass", "base-fail", "ICE", "regress"
        for (i = 1; i <= no; i++)
            printf "%-4s %8d %6d %9d %5d %8d\n", o[i], n[o[i]], c[o[i], "pass"], c[o[i], "basefail"], c[o[i], "ice"], c[o[i], "regress"]
        printf "total: %d passed, %d baseline failures, %d ICEs, %d regressions, %d s\n", t["pass"], t["basefail"], t["ice"], t["regress"], secs
    }' "$results"
if [ -f "$C_REPORT" ]; then
    echo "kalloc saw $(wc -l < "$C_REPORT") allocation sites, rewrote $(grep -vc '"rewrites":\[\]' "$C_REPORT")"
fi
grep -E '^RESULT [^ ]+ basefail ' "$results" | awk '{print $5}' | sed 's/-exit-.*/-exit/' | sort | uniq -c \
    | awk '{printf "  baseline failures: %s %s\n", $1, $2}'
ice=$(grep -c '^RESULT [^ ]* ice ' "$results")
reg=$(grep -c '^RESULT [^ ]* regress ' "$results")
passed=$(grep -c '^RESULT [^ ]* pass ' "$results")
failed=$(( ice + reg ))
got=$(grep -c '^RESULT' "$results")
if [ "$got" -lt $(( count * nopt )) ]; then
    echo "run-csmith: $(( count * nopt - got )) results missing" >&2
    failed=$(( failed + count * nopt - got ))
fi
if [ "$failed" -gt 0 ]; then
    grep -E '^RESULT [^ ]+ (ice|regress) ' "$results" | sed 's/^RESULT /  /'
    echo "run-csmith: programs and logs in $C_LOGS"
fi
summary csmith "$passed" "$failed"
