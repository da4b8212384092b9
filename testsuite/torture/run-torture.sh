#!/bin/bash
# run-torture.sh CC PLUGIN - GCC's own C torture suite as a peer test for kalloc.
#
# For the gcc.c-torture sources of CC's major version (extracted once from
# Debian's gcc-N-source tarball into build/torture/gcc-N, never committed):
#   execute/ (with ieee/ and builtins/): compile, link and run each test
#   compile/: compile each test (-c)
# at each of -O0 and -O2, built the same way without and with the plugin,
# in two variants:
#   plain   -fplugin=kalloc.so (mode=harden, the default)
#   alloc   also -include alloc-prelude.h (kernel allocators plus a
#           constructor that allocates with them) in both builds, and
#           -fplugin-arg-kalloc-alloc= for malloc, calloc and realloc, so
#           the plugin rewrites the tests' own allocation calls too.
# A test that fails without the plugin is a baseline failure and takes no
# part.  Otherwise the build with the plugin must compile (and link, run,
# exit 0 and print the same output).  Counted as failures: ICEs (the
# compiler crashed with the plugin and not without) and regressions.
# Ends with a table and the line
#   torture: N passed, N failed
# and exits non-zero if anything failed.  Logs of every ICE and regression
# go to build/torture/logs.
#
# Environment (all optional):
#   TORTURE_JOBS=2            parallel jobs
#   TORTURE_OPTS="-O0 -O2"    optimisation levels
#   TORTURE_DIRS="execute compile"
#   TORTURE_VARIANTS="plain alloc"
#   TORTURE_ONLY=GLOB         only tests whose path (e.g. execute/pr*.c) matches
#   TORTURE_CACHE=DIR         default build/torture in the repository
set -u

# ---------------------------------------------------------------- one job
# Called back through xargs: run-torture.sh --job KIND RELPATH
if [ "${1:-}" = "--job" ]; then
    kind=$2 rel=$3
    . "$(dirname "$0")/peer.sh"
    src=$T_SRC/$rel
    case $rel in
        execute/builtins/*) dir=execute/builtins ;;
        execute/ieee/*) dir=execute/ieee ;;
        *) dir=${rel%%/*} ;;
    esac
    name=${rel//\//_}
    name=${name%.c}

    # dg-options (the last one that applies to x86_64) and every
    # dg-additional-options that applies; target selectors are read
    # roughly: none, or one naming x86_64 and not ia32/ilp32, or
    # fpic/pie/lp64.
    dgflags=$(awk '
        function applies(sel) {
            if (sel !~ /target/) return 1
            if (sel ~ /ia32|ilp32/) return 0
            if (sel ~ /x86_64|fpic|[^a-z_]pie[^a-z_]|lp64/) return 1
            return 0
        }
        /dg-(additional-)?options/ {
            line = $0
            add = (line ~ /dg-additional-options/)
            sub(/.*dg-(additional-)?options[ \t]*/, "", line)
            if (line ~ /^\{/) sub(/^\{[ \t]*/, "", line)
            if (line !~ /^"/) next
            line = substr(line, 2)
            q = index(line, "\"")
            if (q == 0) next
            opts = substr(line, 1, q - 1)
            rest = substr(line, q + 1)
            if (!applies(rest)) next
            if (add) extra = extra " " opts; else main = opts
        }
        END { print main extra }' "$src")
    # dg-timeout-factor scales the compile timeout.
    factor=$(sed -n 's/.*dg-timeout-factor[[:space:]]*\([0-9.]*\).*/\1/p' "$src" | head -n 1)
    ctimeout=$(awk -v f="${factor:-1}" 'BEGIN { printf "%d", 60 * (f < 1 ? 1 : f) }')

    sources=$src
    extra=""
    case $kind in
        builtin)
            lib=${src%.c}-lib.c
            [ -f "$lib" ] && sources="$sources $lib"
            sources="$sources $T_SRC/execute/builtins/lib/main.c"
            extra="-fno-tree-dse -fno-tree-loop-distribute-patterns -fno-tracer -fno-ipa-ra -fno-inline-functions"
            ;;
        ieee) extra="-fno-inline" ;;
    esac

    # A TEST.x file beside an execute test (Tcl, read by GCC's harness):
    # honour its unconditional "set/lappend additional_flags" lines.
    xfile=${src%.c}.x
    if [ "$kind" != compile ] && [ -f "$xfile" ]; then
        while read -r verb var rest; do
            rest=${rest//\"/}
            case $verb in
                set) extra=$rest ;;
                lappend) extra="$extra $rest" ;;
            esac
        done < <(grep -E '^(set|lappend) additional_flags ' "$xfile")
    fi

    work=$T_WORK/$name
    logs=$T_LOGS
    prelude=$T_PRELUDE
    plugin=(-fplugin="$T_PLUGIN")
    allocargs=(-fplugin-arg-kalloc-alloc=malloc:size
               -fplugin-arg-kalloc-alloc=calloc:count,size
               -fplugin-arg-kalloc-alloc=realloc:_,size)

    # build TAG FLAGS... -> b_status: compiles the sources (-c) into
    # $work/TAG/; the command and its output go to $work/TAG.cmd, .out.
    declare -A linkflags
    build() {
        local tag=$1; shift
        mkdir -p "$work/$tag"
        linkflags[$tag]="$*"
        local cmd=($T_CC -w -pipe "$@" -c $sources)
        echo "${cmd[*]}" > "$work/$tag.cmd"
        (cd "$work/$tag" && timeout -k 5 "$ctimeout" "${cmd[@]}") > "$work/$tag.out" 2>&1 </dev/null
        local rc=$?
        echo "exit $rc" >> "$work/$tag.cmd"
        classify_build $rc "$work/$tag.out"
    }

    # link TAG -> b_status: links what build TAG compiled into
    # $work/TAG/t, with the same flags (for -fprofile-generate, -fopenmp).
    link() {
        local tag=$1
        [ "$kind" = compile ] && return
        [ "$b_status" = ok ] || return
        # shellcheck disable=SC2206
        local cmd=($T_CC -w ${linkflags[$tag]} "$work/$tag"/*.o -o "$work/$tag/t" -lm)
        echo "${cmd[*]}" >> "$work/$tag.cmd"
        (cd "$work/$tag" && timeout -k 5 "$ctimeout" "${cmd[@]}") >> "$work/$tag.out" 2>&1 </dev/null
        local rc=$?
        echo "exit $rc" >> "$work/$tag.cmd"
        classify_build $rc "$work/$tag.out"
    }

    # outcome TAG -> sets o_status: pass | the reason it does not.
    # Builds and runs (execute tests) what build TAG made.
    outcome() {
        local tag=$1
        if [ "$b_status" != ok ]; then
            o_status=$b_status
            return
        fi
        if [ "$kind" = compile ]; then
            o_status=pass
            return
        fi
        (cd "$work/$tag" && timeout -k 2 10 ./t) > "$work/$tag.stdout" 2> "$work/$tag.stderr" </dev/null
        local rc=$?
        echo "$rc" > "$work/$tag.rc"
        classify_run $rc
        o_status=$r_status
    }

    # same_objects A B: builds A and B made byte-identical objects, so B
    # need not be linked nor run.
    same_objects() {
        local o
        for o in "$work/$1"/*.o; do
            [ -f "$o" ] || return 1
            cmp -s "$o" "$work/$2/${o##*/}" || return 1
        done
        return 0
    }

    # stable TAG: running TAG's program again gives the same exit status
    # and output (tests that print uninitialised heap memory do not).
    stable() {
        local rc
        (cd "$work/$1" && timeout -k 2 10 ./t) > "$work/$1.stdout2" 2>/dev/null </dev/null
        rc=$?
        [ "$rc" = "$(cat "$work/$1.rc")" ] && cmp -s "$work/$1.stdout" "$work/$1.stdout2"
    }

    # verdict BASE_STATUS PLUG_STATUS PLUG_BUILD_STATUS BASE_TAG PLUG_TAG
    verdict() {
        local base=$1 plug=$2 pbuild=$3
        if [ "$pbuild" = ice ] && ! crashed "$work/$4.out"; then
            v=ice
        elif [ "$base" != pass ]; then
            v=basefail
            plug=base-$base
        elif [ "$plug" != pass ] || { [ "$kind" != compile ] && ! cmp -s "$work/$4.stdout" "$work/$5.stdout"; }; then
            [ "$plug" = pass ] && plug=output-differs
            v=regress
            if [ "$kind" != compile ] && [ "$pbuild" = ok ] && ! stable "$4"; then
                v=basefail plug=base-nondeterministic
            fi
        else
            v=pass
        fi
        why=$plug
    }

    record() { # VARIANT OPT VERDICT WHY BASE_TAG PLUG_TAG
        echo "RESULT $dir $2 $1 $3 $rel $4"
        if [ "$3" = ice ] || [ "$3" = regress ]; then
            local log=$logs/$1$2-$name.log
            {
                echo "== $rel $2 variant $1: $3 ($4)"
                for t in "$5" "$6"; do
                    echo "== $t build:"; cat "$work/$t.cmd" 2>/dev/null
                    cat "$work/$t.out" 2>/dev/null
                    if [ -f "$work/$t.rc" ]; then
                        echo "== $t run: exit $(cat "$work/$t.rc")"
                        head -c 4000 "$work/$t.stdout"; head -c 4000 "$work/$t.stderr"
                    fi
                done
            } > "$log"
        fi
    }

    for opt in $T_OPTS; do
        rm -rf "$work"
        mkdir -p "$work"
        # shellcheck disable=SC2086
        flags=($opt $extra $dgflags)

        build base "${flags[@]}"
        link base
        if [ "$b_status" = timeout ]; then
            # Nothing to compare against: not built with the plugin.
            for variant in $T_VARIANTS; do
                record "$variant" "$opt" basefail compile-timeout
            done
            continue
        fi
        outcome base; base_status=$o_status

        for variant in $T_VARIANTS; do
            if [ "$variant" = plain ]; then
                same=0
                build plug "${flags[@]}" "${plugin[@]}"
                if [ "$b_status" = ok ] && [ "$base_status" = pass ] && same_objects base plug; then
                    pbuild=ok plug_status=pass
                    cp "$work/base.stdout" "$work/plug.stdout" 2>/dev/null
                    same=1
                else
                    link plug; pbuild=$b_status
                    outcome plug; plug_status=$o_status
                fi
                verdict "$base_status" "$plug_status" "$pbuild" base plug
                [ "$v" = pass ] && [ "$same" = 1 ] && why=same-objects
                record plain "$opt" "$v" "$why" base plug
            else
                build aplug "${flags[@]}" -include "$prelude" "${plugin[@]}" "${allocargs[@]}" \
                    -fplugin-arg-kalloc-report="$T_REPORT"
                link aplug; pbuild=$b_status
                outcome aplug; aplug_status=$o_status
                # Its baseline is the same build without the plugin, made
                # only when needed: when the plain baseline and the build
                # with the plugin both pass with the same output, the
                # prelude broke nothing and the plugin changed nothing.
                if [ "$base_status" = pass ] && [ "$aplug_status" = pass ] \
                   && { [ "$kind" = compile ] || cmp -s "$work/base.stdout" "$work/aplug.stdout"; }; then
                    v=pass why=pass
                    record alloc "$opt" pass pass base aplug
                else
                    build abase "${flags[@]}" -include "$prelude"
                    link abase
                    outcome abase; abase_status=$o_status
                    verdict "$abase_status" "$aplug_status" "$pbuild" abase aplug
                    record alloc "$opt" "$v" "$why" abase aplug
                fi
            fi
        done
    done
    rm -rf "$work"
    exit 0
fi

# ---------------------------------------------------------------- driver
. "$(dirname "$0")/peer.sh"
peer_args torture "${1:-}" "${2:-}"
major=$($cc -dumpversion 2>/dev/null | cut -d. -f1)
if [ -z "$major" ]; then
    echo "run-torture: '$cc' is not an installed compiler" >&2
    cannot_run torture
fi
cache=${TORTURE_CACHE:-$top/build/torture}
srcroot=$cache/gcc-$major
src=$srcroot/gcc.c-torture

# The torture sources, extracted once from Debian's gcc-N-source.
if [ ! -f "$src/.complete" ]; then
    tarball=$(ls /usr/src/gcc-"$major"/gcc-*.tar.* 2>/dev/null | grep -v 'gm2' | head -n 1)
    if [ -z "$tarball" ]; then
        "$top/testsuite/apt-install.sh" "gcc-$major-source"
        tarball=$(ls /usr/src/gcc-"$major"/gcc-*.tar.* 2>/dev/null | grep -v 'gm2' | head -n 1)
    fi
    if [ -z "$tarball" ]; then
        echo "run-torture: no GCC source tarball in /usr/src/gcc-$major (apt-get install gcc-$major-source)" >&2
        cannot_run torture
    fi
    echo "run-torture: extracting the torture tests from $tarball"
    rm -rf "$srcroot"
    mkdir -p "$srcroot"
    # The two directories, and the two files of other directories that
    # compile tests include.
    tar -xf "$tarball" -C "$srcroot" --strip-components=3 --wildcards \
        '*/gcc/testsuite/gcc.c-torture/execute/*' \
        '*/gcc/testsuite/gcc.c-torture/compile/*' \
        '*/gcc/testsuite/gcc.dg/20030309-1.c' \
        '*/gcc/testsuite/gcc.target/powerpc/ppc-switch-2.c' || {
        echo "run-torture: could not extract $tarball" >&2
        cannot_run torture
    }
    touch "$src/.complete"
fi

jobs=${TORTURE_JOBS:-2}
export T_CC=$cc T_PLUGIN=$plugin T_SRC=$src
export T_OPTS=${TORTURE_OPTS:-"-O0 -O2"}
export T_VARIANTS=${TORTURE_VARIANTS:-"plain alloc"}
export T_PRELUDE=$here/alloc-prelude.h
export T_WORK=$cache/work T_LOGS=$cache/logs
export T_REPORT=$cache/alloc-sites.jsonl
results=$cache/results.txt
rm -rf "$T_WORK" "$T_LOGS"
rm -f "$T_REPORT" "$results"
mkdir -p "$T_WORK" "$T_LOGS"

# The job list: KIND RELPATH.
list() {
    for d in ${TORTURE_DIRS:-execute compile}; do
        case $d in
            execute)
                (cd "$src" && ls execute/*.c) | sed 's/^/execute /'
                (cd "$src" && ls execute/ieee/*.c) | sed 's/^/ieee /'
                (cd "$src" && ls execute/builtins/*.c) | grep -v -- '-lib\.c$' | sed 's/^/builtin /'
                ;;
            compile)
                (cd "$src" && ls compile/*.c) | sed 's/^/compile /'
                ;;
        esac
    done | while read -r kind rel; do
        case $rel in ${TORTURE_ONLY:-*}) echo "$kind $rel" ;; esac
    done
}
list > "$cache/jobs.txt"
total=$(wc -l < "$cache/jobs.txt")
echo "run-torture: $cc (GCC $major), $total tests x ($T_OPTS) x ($T_VARIANTS), $jobs jobs"
start=$(date +%s)

# Progress every 10%.
step=$(( total / 10 )); [ "$step" -gt 0 ] || step=1
per=$(( $(echo $T_OPTS | wc -w) * $(echo $T_VARIANTS | wc -w) ))
# (The jobs' stderr holds only the shell's notes on programs that died
# of a signal, as torture tests do by design.)
xargs -P "$jobs" -n 2 "$0" --job < "$cache/jobs.txt" 2>"$cache/jobs.stderr" \
  | { n=0; while IFS= read -r line; do
        echo "$line" >> "$results"
        n=$(( n + 1 ))
        if [ $(( n % (step * per) )) -eq 0 ]; then
            echo "run-torture: $(( n / per ))/$total tests, $(( $(date +%s) - start )) s," \
                 "$(grep -c ' ice ' "$results") ICEs, $(grep -c ' regress ' "$results") regressions"
        fi
      done; }
end=$(date +%s)

# ---------------------------------------------------------------- summary
done_tests=$(( $(grep -c '^RESULT' "$results" 2>/dev/null || echo 0) / (per > 0 ? per : 1) ))
echo
awk -v secs=$(( end - start )) '
    $1 == "RESULT" {
        key = $4 " " $2 " " $3
        if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
        n[key]++; c[key, $5]++
        t[$5]++
    }
    END {
        printf "%-7s %-18s %-4s %6s %6s %9s %5s %8s\n", "variant", "directory", "-O", "tests", "pass", "base-fail", "ICE", "regress"
        for (i = 1; i <= nk; i++) {
            k = keys[i]; split(k, f, " ")
            printf "%-7s %-18s %-4s %6d %6d %9d %5d %8d\n", f[1], f[2], f[3], n[k], c[k, "pass"], c[k, "basefail"], c[k, "ice"], c[k, "regress"]
        }
        printf "total: %d comparisons, %d passed, %d baseline failures, %d ICEs, %d regressions, %d s\n", t["pass"] + t["basefail"] + t["ice"] + t["regress"], t["pass"], t["basefail"], t["ice"], t["regress"], secs
    }' <(sort -k4,4 -k2,2 -k3,3 "$results")
sites=0 rewritten=0
if [ -f "$T_REPORT" ]; then
    sites=$(wc -l < "$T_REPORT")
    rewritten=$(grep -vc '"rewrites":\[\]' "$T_REPORT")
    torture_sites=$(grep -vc 'alloc-prelude.h' "$T_REPORT")
    echo "alloc variant: kalloc saw $sites allocation sites ($torture_sites in the torture tests' own code), rewrote $rewritten"
fi
echo "plain variant: $(grep -c '^RESULT .* plain pass .* same-objects$' "$results") of $(grep -c '^RESULT .* plain pass ' "$results") passes made objects identical to the build without the plugin"
ice=$(grep -c '^RESULT .* ice ' "$results")
reg=$(grep -c '^RESULT .* regress ' "$results")
passed=$(grep -c '^RESULT .* pass ' "$results")
failed=$(( ice + reg ))
if [ "$passed" -eq 0 ]; then
    echo "run-torture: nothing passed" >&2
    failed=$(( failed + 1 ))
fi
missing=$(( total - done_tests ))
if [ "$missing" -gt 0 ]; then
    echo "run-torture: $missing tests gave no result" >&2
    failed=$(( failed + missing ))
fi
if [ "$failed" -gt 0 ]; then
    echo "run-torture: ICEs and regressions:"
    grep -E '^RESULT .* (ice|regress) ' "$results" | sort | sed 's/^RESULT /  /'
    echo "run-torture: logs in $T_LOGS"
fi
summary torture "$passed" "$failed"
