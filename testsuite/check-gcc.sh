#!/bin/sh
# check-gcc.sh - build kalloc and run its testsuite with every GCC it
# supports, printing one summary line per compiler and the total:
#   gcc-11 and gcc-12 from this Debian 12 machine (installed if missing),
#   gcc-13 and gcc-14 in a Debian trixie chroot, gcc-15 and gcc-16 in a
#   Debian sid chroot, made once with debootstrap from the machine's own
#   Debian mirror and cached under build/chroots.  Needs root (apt,
#   debootstrap, chroot).  A compiler that cannot be installed or a chroot
#   that cannot be made is a failure, not a skip.
# Usage: testsuite/check-gcc.sh [COMPILER...]   (default: all six)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
mkdir -p build
compilers=${*:-"gcc-11 gcc-12 gcc-13 gcc-14 gcc-15 gcc-16"}

. testsuite/chroot.sh
. testsuite/lib/harness.sh

lines=""
good=0 bad=0 start=$(date +%s)
for cc in $compilers; do
    set -- $(chroot_for "$cc")
    if [ $# -eq 0 ] && ! testsuite/install-deps.sh "$cc" >&2; then
        line="$(summary kalloc 0 1) (could not install $cc)"
    elif [ $# -eq 0 ]; then
        line=$(make --no-print-directory -j2 CC="$cc" check 2>&1 | tee "build/check-$cc.log" | grep '^kalloc: [0-9]* passed' | tail -n 1)
    elif ! ensure_chroot "$1" "$2"; then
        line="$(summary kalloc 0 1) (could not make the $1 chroot; see build/chroots/$1.log)"
    else
        root=build/chroots/$1
        copy_tree "$root"
        line=$(chroot "$root" sh -c "cd /kalloc && make --no-print-directory -j2 CC=$cc check" 2>&1 | tee "build/check-$cc.log" | grep '^kalloc: [0-9]* passed' | tail -n 1)
    fi
    [ -n "$line" ] || line="$(summary kalloc 0 1) (no result; see build/check-$cc.log)"
    case $line in *", 0 failed"*) good=$((good + 1)) ;; *) bad=$((bad + 1)) ;; esac
    lines="$lines$(printf '%-7s %s' "$cc" "$line")
"
done
printf '%s' "$lines"
echo "check-gcc: $(($(date +%s) - start)) s"
summary check-gcc "$good" "$bad"
