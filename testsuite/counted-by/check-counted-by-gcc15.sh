#!/bin/sh
# check-counted-by-gcc15.sh - the differential test of counted_by's
# diagnostics: GCC's own counted_by tests (every gcc.dg and c-c++-common
# C test that mentions counted_by, from Debian's gcc-15-source in the
# sid chroot) and kalloc's counted-by-gcc15-*.c tests are compiled with
# GCC 15 (native counted_by) and with CC + kalloc (counted_by from the
# plugin, which provides it in its default mode, harden), each with the
# options its dg-options and dg-additional-options give; the errors,
# warnings and notes, normalised to "file:line: kind: message" (no
# column, no [-Wname] suffix), must be the same.  A missing chroot or
# source, or nothing compared, is a failure.
# Usage: testsuite/counted-by/check-counted-by-gcc15.sh CC PLUGIN   (root)
# With COUNTED_BY_IN_CHROOT=1 in the environment, CC and PLUGIN are run
# inside the sid chroot instead (its gcc-13, gcc-14 or gcc-16 and a
# kalloc built there), e.g. COUNTED_BY_IN_CHROOT=1
#   testsuite/counted-by/check-counted-by-gcc15.sh gcc-14 /kalloc/plugin/kalloc.so
set -u
cc=$1
plugin=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. testsuite/chroot.sh
. testsuite/lib/harness.sh

fail() {
    echo "counted-by: $*" >&2
    cannot_run counted-by
}

# GCC tests left out where CC is older than the GCC release that has
# what they need independently of counted_by: "NAME MAJOR reason"
# (docs/object-size.md lists them).
left_out='
flex-array-counted-by-7.c 14 _BitInt counters: _BitInt is GCC 14+ (and C23 only)
flex-array-counted-by-8.c 15 C23 tag compatibility (redefining a struct in one scope) is GCC 15+
pr119717.c 13 -std=c23 with bool as a keyword is GCC 13+
builtin-counted-by-ref.c 15 __builtin_counted_by_ref is GCC 15+
builtin-counted-by-ref-1.c 15 __builtin_counted_by_ref is GCC 15+
'
# GCC 11 has no __builtin_dynamic_object_size (): tests that call it
# are left out there.
bdos_probe=$(mktemp -d)
echo 'unsigned long f (void *p) { return __builtin_dynamic_object_size (p, 0); }' > "$bdos_probe/probe.c"
if [ "${COUNTED_BY_IN_CHROOT:-0}" = 1 ]; then
    have_bdos=1     # GCC 13 and later
elif $cc -c -Werror=implicit-function-declaration "$bdos_probe/probe.c" -o "$bdos_probe/probe.o" 2>/dev/null; then
    have_bdos=1
else
    have_bdos=0
fi
rm -rf "$bdos_probe"

# Options neither compiler gets (both sides compile the same command):
# dumps only write files; -fstrict-flex-arrays is GCC 13+ and changes
# which arrays object sizes treat as flexible, not counted_by's rules.
dropped_options='-fdump-tree-original -fstrict-flex-arrays=3'

set -- $(chroot_for gcc-15)
ensure_chroot "$1" "$2" || fail "could not create the $1 chroot (see build/chroots/$1.log)"
root=build/chroots/$1
if [ "${COUNTED_BY_IN_CHROOT:-0}" = 1 ]; then
    major=$(chroot "$root" $cc -dumpversion 2>/dev/null)
else
    major=$($cc -dumpversion 2>/dev/null)
fi
major=${major%%.*}
[ -n "$major" ] || fail "'$cc' is not a compiler"
if ! ls "$root"/usr/src/gcc-15/gcc-*.tar.* >/dev/null 2>&1; then
    testsuite/apt-install.sh --root "$root" gcc-15-source > build/chroots/gcc-15-source.log 2>&1 ||
        fail "could not install gcc-15-source in the $1 chroot (see build/chroots/gcc-15-source.log)"
fi
tarball=$(ls "$root"/usr/src/gcc-15/gcc-*.tar.* 2>/dev/null | head -n 1)
[ -n "$tarball" ] || fail "no GCC source tarball in $root/usr/src/gcc-15"

# The tests live inside the chroot, so both compilers read the same
# files under the same relative names.
work=/tmp/counted-by
host_work=$root$work
stamp=$host_work/.source
if [ "$(cat "$stamp" 2>/dev/null)" != "$(basename "$tarball")" ]; then
    echo "counted-by: unpacking GCC 15's C tests from $(basename "$tarball")" >&2
    rm -rf "$host_work"
    mkdir -p "$host_work/src"
    tar -xf "$tarball" -C "$host_work/src" --strip-components=3 --wildcards \
        '*/gcc/testsuite/gcc.dg/*' '*/gcc/testsuite/c-c++-common/*' ||
        fail "could not unpack $tarball"
    basename "$tarball" > "$stamp"
fi
rm -rf "$host_work/kalloc" "$host_work/out"
mkdir -p "$host_work/kalloc" "$host_work/out"
cp testsuite/kalloc.dg/counted-by-gcc15-*.c "$host_work/kalloc/" 2>/dev/null

# The tests: relative to $work, one a line.
tests=$( (cd "$host_work" && grep -rl --include='*.c' 'counted_by' src/gcc.dg src/c-c++-common | sort
          ls kalloc/*.c 2>/dev/null | sort) )
[ -n "$tests" ] || fail "no counted_by tests found in $tarball"

# The test's own options: dg-options, then dg-additional-options.
options_of() {
    opts=$(sed -n 's/.*{ *dg-options *"\([^"]*\)".*/\1/p' "$1" | head -n 1)
    more=$(sed -n 's/.*{ *dg-additional-options *"\([^"]*\)".*/\1/p' "$1" | head -n 1)
    out=""
    for o in $opts $more; do
        case " $dropped_options " in *" $o "*) continue ;; esac
        out="$out $o"
    done
    echo "$out"
}

# file:line: kind: message; a message without a line (the driver's,
# cc1's "cannot load plugin") is kept as it is.
normalise() {
    sed -nE -e 's#^([^:]*/)?([^/:]+):([0-9]+):[0-9]+: (fatal error|error|warning|note): (.*)#\2:\3: \4: \5#p' -e t \
        -e 's#^([^: ]+): (fatal error|error|warning|note): (.*)#\1: \2: \3#p' |
        sed -E 's/ \[-W[^]]*\]$//'
}

# CC with the plugin must load it and know counted_by, or every test
# without messages would compare equal.
probe='#if !__has_attribute (__counted_by__)
#error "no counted_by"
#endif
struct s { int n; int a[] __attribute__ ((counted_by (n))); };'
mkdir -p "$host_work"
printf '%s\n' "$probe" > "$host_work/probe.c"
if [ "${COUNTED_BY_IN_CHROOT:-0}" = 1 ]; then
    probe_out=$(chroot "$root" sh -c "$cc -fplugin=$plugin -c $work/probe.c -o /dev/null" 2>&1)
else
    probe_out=$($cc -fplugin="$plugin" -c "$host_work/probe.c" -o /dev/null 2>&1)
fi
[ -z "$probe_out" ] || fail "$cc with $plugin does not provide counted_by: $probe_out"

passed=0 failed=0 skipped=0
for t in $tests; do
    name=$(basename "$t")
    reason=$(printf '%s\n' "$left_out" | sed -n "s/^$name \([0-9]*\) /\1 /p")
    if [ -n "$reason" ] && [ "$major" -ge "${reason%% *}" ]; then
        reason=""
    fi
    reason=${reason#* }
    if [ -z "$reason" ] && [ $have_bdos = 0 ] &&
        grep -q __builtin_dynamic_object_size "$host_work/$t"; then
        reason="__builtin_dynamic_object_size is GCC 12+ ($cc has none)"
    fi
    if [ -n "$reason" ] && [ "${t#kalloc/}" = "$t" ]; then
        skipped=$((skipped + 1))
        echo "counted-by: left out $name: $reason"
        continue
    fi
    dir=$(dirname "$t")
    opts=$(options_of "$host_work/$t")
    out=$host_work/out/$(echo "$t" | tr / _)
    chroot "$root" sh -c "cd $work/$dir && LC_ALL=C gcc-15 -fdiagnostics-plain-output $opts -c $name -o /dev/null" \
        2>&1 | normalise > "$out.gcc15"
    if [ "${COUNTED_BY_IN_CHROOT:-0}" = 1 ]; then
        chroot "$root" sh -c "cd $work/$dir && LC_ALL=C $cc -fdiagnostics-plain-output -fplugin=$plugin $opts -c $name -o /dev/null"
    else
        (cd "$host_work/$dir" && LC_ALL=C $cc -fdiagnostics-plain-output -fplugin="$plugin" $opts -c "$name" -o /dev/null)
    fi 2>&1 | normalise > "$out.kalloc"
    if cmp -s "$out.gcc15" "$out.kalloc"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "counted-by: $t differs from GCC 15 (< GCC 15, > kalloc):"
        diff "$out.gcc15" "$out.kalloc" | grep '^[<>]'
    fi
done
echo "counted-by: $skipped tests left out (reasons above, docs/object-size.md)"
summary counted-by "$passed" "$failed"
