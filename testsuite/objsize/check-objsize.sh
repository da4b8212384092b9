#!/bin/sh
# check-objsize.sh - the differential test of counted_by object sizes:
# programs from gen-objsize.py are built with GCC 15 and GCC 16 (native
# counted_by, in the Debian sid chroot of check-gcc) and with $CC +
# kalloc, at -O0 and -O2; each program must exit 0 and print as many
# lines as the reference, and every printed __builtin_dynamic_object_size
# () value must match (differences are counted from both sides).
# Usage: testsuite/objsize/check-objsize.sh CC PLUGIN   (root, for chroot)
# Environment: OBJSIZE_REFS="gcc-15 gcc-16", OBJSIZE_OPTS="-O0 -O2",
# OBJSIZE_PROGRAMS=N (only the first N programs; default all).
set -u
. "$(dirname "$0")/../lib/harness.sh"
die() { echo "objsize: $*" >&2; cannot_run objsize; }
[ $# -eq 2 ] || die "usage: check-objsize.sh CC PLUGIN"
cc=$1
plugin=$2
refs=${OBJSIZE_REFS:-gcc-15 gcc-16}
opts=${OBJSIZE_OPTS:--O0 -O2}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. testsuite/chroot.sh

[ -f "$plugin" ] || die "no plugin at $plugin (run make first)"
command -v "${cc%% *}" >/dev/null 2>&1 || die "no compiler '$cc'"
set -- $(chroot_for gcc-15)
ensure_chroot "$1" "$2" || die "could not make the $1 chroot (see build/chroots/$1.log)"
root=build/chroots/$1
work=build/objsize
rm -rf "$work" "$root/tmp/objsize"
mkdir -p "$work" "$root/tmp/objsize"
count=$(python3 testsuite/objsize/gen-objsize.py "$work") || die "gen-objsize.py failed"
[ "$count" -gt 0 ] 2>/dev/null || die "gen-objsize.py wrote no program"
[ -z "${OBJSIZE_PROGRAMS:-}" ] || [ "$OBJSIZE_PROGRAMS" -ge "$count" ] || count=$OBJSIZE_PROGRAMS
cp "$work"/*.c "$root/tmp/objsize/"

# run OUT CMD...: CMD's output into OUT; says why and fails unless it
# exits 0 and prints something.
run() {
    out=$1; shift
    "$@" > "$out" 2> "$out.err"
    rc=$?
    [ $rc -eq 0 ] || { echo "objsize: $* exited with status $rc" >&2; return 1; }
    [ -s "$out" ] || { echo "objsize: $* printed nothing" >&2; return 1; }
}

# differences A B: the lines (values) that differ, position by position,
# plus the lines one side has past the end of the other.
differences() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        for (;;) {
            ra = (getline x < a) > 0; rb = (getline y < b) > 0
            if (!ra && !rb) break
            if (ra != rb || x != y) d++
        }
        print d + 0 }'
}

passed=0 failed=0
i=0
while [ "$i" -lt "$count" ]; do
    for opt in $opts; do
        base=objsize-$i$opt
        mine=ok
        $cc $opt -w "$work/objsize-$i.c" -fplugin="$plugin" -o "$work/$base-kalloc" &&
            run "$work/$base-kalloc.txt" "$work/$base-kalloc" || mine=bad
        for ref in $refs; do
            ok=$mine
            if [ $ok = ok ]; then
                chroot "$root" "$ref" $opt -w "/tmp/objsize/objsize-$i.c" -o "/tmp/objsize/$base-$ref" &&
                    run "$work/$base-$ref.txt" chroot "$root" "/tmp/objsize/$base-$ref" || ok=bad
            fi
            if [ $ok = ok ]; then
                n=$(wc -l < "$work/$base-$ref.txt")
                m=$(wc -l < "$work/$base-kalloc.txt")
                d=$(differences "$work/$base-kalloc.txt" "$work/$base-$ref.txt")
                echo "$n $d" >> "$work/$ref.tally"
                [ "$n" -eq "$m" ] && [ "$d" -eq 0 ] || ok=bad
            fi
            if [ $ok = ok ]; then
                passed=$((passed + 1))
            else
                failed=$((failed + 1))
                echo "objsize: $base differs from $ref (see $work/$base-*.txt)"
            fi
        done
    done
    i=$((i + 1))
done
for ref in $refs; do
    awk -v ref="$ref" '{ v += $1; d += $2 }
        END { printf "objsize: %d values compared with %s, %d differences\n", v, ref, d }' \
        "$work/$ref.tally" 2>/dev/null || echo "objsize: 0 values compared with $ref"
done
[ $((passed + failed)) -gt 0 ] || failed=1
summary objsize "$passed" "$failed"
