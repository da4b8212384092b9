#!/bin/sh
# cost-sqlite3.sh CC /abs/path/kalloc.so [OPT...] - what kalloc costs on one large
# package: Debian 12's SQLite amalgamation (sqlite3.c,
# about 250,000 lines in one unit, made from the source package with its own
# `make sqlite3.c`) compiled without and with the plugin (mode=harden):
# cc1's instructions under callgrind at each OPT (default -O0; the bench's
# way: cc1 run alone, from `CC -###`), CPU time at -O2, and `size` of
# libsqlite3.so built at -O2.  Work in build/userspace/cost (cleared).
# Prints the numbers; docs/results/userspace.md records them.
set -eu
[ $# -ge 2 ] || { echo "usage: cost-sqlite3.sh CC /abs/path/kalloc.so [OPT...]" >&2; exit 2; }
cc=$1 plugin=$2
shift 2
[ $# -gt 0 ] || set -- -O0
[ -f "$plugin" ] || { echo "cost-sqlite3: $plugin not found" >&2; exit 1; }
root=$(cd "$(dirname "$0")/../.." && pwd)
dl=$root/build/userspace/dl
work=$root/build/userspace/cost
rm -rf "$work"
mkdir -p "$work" "$dl"
export LC_ALL=C
unset MAKEFLAGS MFLAGS MAKELEVEL

(cd "$dl" && apt-get source --download-only -qq sqlite3) >&2
dsc=$(ls "$dl"/sqlite3_*.dsc | sort -V | tail -1)
dpkg-source --no-check -x "$dsc" "$work/src" >/dev/null
(cd "$work/src" && ./configure --disable-tcl >/dev/null && make sqlite3.c >/dev/null 2>&1)
src=$work/src/sqlite3.c
[ -s "$src" ] || { echo "cost-sqlite3: make sqlite3.c made nothing" >&2; exit 1; }
echo "sqlite3.c: $(wc -l < "$src") lines ($(basename "$dsc" .dsc))"

kflags="-fplugin=$plugin -fplugin-arg-kalloc-mode=harden"
cc1_line() {  # the cc1 command of: CC FLAGS... -S sqlite3.c
    $cc "$@" -S -o /dev/null "$src" -### 2>&1 | grep -E '/cc1"? ' | head -1
}
for opt in "$@"; do
    for mode in none harden; do
        flags=$opt
        [ $mode = none ] || flags="$opt $kflags -fplugin-arg-kalloc-report=$work/report$opt.jsonl"
        line=$(cc1_line $flags)
        [ -n "$line" ] || { echo "cost-sqlite3: no cc1 line" >&2; exit 1; }
        eval "valgrind --tool=callgrind --callgrind-out-file=$work/cg.$mode$opt.out $line" \
            2> "$work/cg.$mode$opt.err" >/dev/null
        ir=$(sed -n 's/.*Collected : *//p' "$work/cg.$mode$opt.err")
        [ -n "$ir" ] || { echo "cost-sqlite3: callgrind failed ($work/cg.$mode$opt.err)" >&2; exit 1; }
        eval "ir_$mode=$ir"
    done
    echo "cc1 instructions $opt: none $ir_none, harden $ir_harden," \
        "$(awk "BEGIN { printf \"%+.3f %%\", ($ir_harden - $ir_none) * 100 / $ir_none }")"
done

# CPU time (user + sys, best of 2) and the library at -O2.
best_cpu() {
    best=""
    for i in 1 2; do
        t=$( (/usr/bin/time -f 'T %U %S' "$@" 2>&1 >/dev/null) | awk '/^T / { print $2 + $3 }')
        if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
    done
    echo "$best"
}
for mode in none harden; do
    flags=""
    [ $mode = none ] || flags="$kflags -fplugin-arg-kalloc-report=$work/report-so.jsonl"
    rm -f "$work/report-so.jsonl"
    cpu=$(best_cpu $cc -O2 -g -fPIC $flags -c "$src" -o "$work/sqlite3.$mode.o")
    $cc -shared -o "$work/libsqlite3.$mode.so" "$work/sqlite3.$mode.o" -lm
    echo "-O2 -g -c CPU s $mode: $cpu"
    size "$work/libsqlite3.$mode.so" | tail -1 | awk -v m=$mode '{ print "size libsqlite3.so " m ": text " $1 ", data " $2 ", bss " $3 ", total " $4 }'
done
"$root/plugin/kalloc-report.py" summary --brief "$work/report-so.jsonl"
