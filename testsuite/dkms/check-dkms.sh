#!/bin/bash
# check-dkms.sh - kalloc on out-of-tree drivers: every DKMS package of Debian
# 12's main archive (names ending in -dkms) built as its dkms.conf says
# (testsuite/dkms/dkms-build.sh) against Debian's own 6.1 kernel headers
# (linux-headers-amd64, installed with apt if missing), once with the
# kernel's compiler and once with kalloc in mode=harden with its report
# (KCFLAGS, as docs/integration.md says for 6.1).  Nothing is installed
# but the headers: packages are fetched with apt-get download and unpacked
# with dpkg-deb -x, no dkms.  Not in CI (about 20-30 minutes on 2 cores).
#
# Usage: testsuite/dkms/check-dkms.sh [CC [PLUGIN [PACKAGE...]]]
#   CC        the compiler the plugin was built for (default gcc); it must
#             be the kernel's (Debian 12: gcc-12), since kbuild uses that
#   PLUGIN    kalloc.so (default plugin/kalloc.so)
#   PACKAGE   only these packages (default: all of them)
# Environment: KALLOC_DKMS_JOBS (make -j, default 2), KALLOC_DKMS_NICE
# (default 10), KALLOC_DKMS_FLAGS (more -fplugin-arg-kalloc-* for the
# kalloc build, e.g. a wrapper file).
#
# Under build/dkms/: debs/ (the downloaded packages, kept), run/ (cleared
# each run): per package deb/ (unpacked), plain/ and kalloc/ (the dkms
# trees), plain.log, kalloc.log, plain.status, kalloc.status,
# report.jsonl; table.txt.  One check per package that builds plain: it
# builds with kalloc (the same modules), no compiler crash, the plugin on
# every C compile, and every warned site listed in testsuite/dkms/triaged
# (docs/results/dkms.md).  Packages that do not build plain are listed with the
# reason, not counted.  The last line is
#   dkms: N passed, N failed
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cc=${1:-gcc}
plugin=${2:-$top/plugin/kalloc.so}
shift 2 2>/dev/null || shift $#
only="$*"
out=$top/build/dkms
jobs=${KALLOC_DKMS_JOBS:-2}
nice_level=${KALLOC_DKMS_NICE:-10}

. "$top/testsuite/lib/harness.sh"
say() { echo "check-dkms: $*" >&2; }
fail() { say "$*"; cannot_run dkms; }

case $plugin in /*) ;; *) plugin=$(pwd)/$plugin ;; esac
[ -f "$plugin" ] || fail "no plugin $plugin (run make first)"
mkdir -p "$out/debs"
exec 9> "$out/.lock"
flock -n 9 || fail "another check-dkms is running in $out"

"$top/testsuite/apt-install.sh" linux-headers-amd64 ||
    fail "cannot install linux-headers-amd64"
# linux-headers-amd64 depends on linux-headers-KERNELVER.
kernelver=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 |
    tr ',' '\n' | sed -n 's/^ *linux-headers-\([^ ]*\).*/\1/p' | head -1)
[ -n "$kernelver" ] && [ -e "/lib/modules/$kernelver/build/Makefile" ] ||
    fail "no kernel headers for '$kernelver' in /lib/modules/$kernelver/build"
kcc=$(printf 'show-%%:\n\t@echo $($*)\ninclude %s/.kernelvariables\n' \
    "/lib/modules/$kernelver/build" | make -s -f - show-CC 2>/dev/null)
if [ -n "$kcc" ] && [ "$($kcc -dumpfullversion 2>/dev/null)" != "$($cc -dumpfullversion 2>/dev/null)" ]; then
    fail "the kernel's compiler $kcc is not $cc, which the plugin is built for"
fi

# ---- the packages ------------------------------------------------------------
# Debian's main archive: apt's Filename starts with pool/main/ (or
# pool/updates/main/, a security update: rtpengine-kernel-dkms).  One
# apt-cache show for all (it takes seconds each on a loaded machine).
names=$(apt-cache search --names-only -- '-dkms$' | awk '{print $1}' | sort)
apt-cache show --no-all-versions $names 2>/dev/null |
    awk -F': ' '/^Package: /{p=$2} /^Version: /{v[p]=$2} /^Architecture: /{a[p]=$2}
        /^Filename: /{f[p]=$2} END{for (p in f) print p, v[p], a[p], f[p]}' |
    sort > "$out/packages.txt"
packages=""
while read -r p v a f; do
    case $p in *-dkms) ;; *) continue ;; esac
    if [ -n "$only" ] && ! [[ " $only " == *" $p "* ]]; then continue; fi
    case $f in pool/main/*|pool/updates/main/*) packages="$packages $p" ;; esac
done < "$out/packages.txt"
[ -n "$packages" ] || fail "apt knows no *-dkms package of main (apt-get update?)"
say "$(echo $packages | wc -w) packages, kernel $kernelver"
# apt-get download's file name: NAME_VERSION_ARCH.deb, the epoch's ':' as %3a.
deb_file() {
    local v a
    read -r v a < <(awk -v p="$1" '$1 == p {print $2, $3}' "$out/packages.txt")
    echo "$out/debs/${1}_${v//:/%3a}_$a.deb"
}
missing=""
for p in $packages; do
    [ -f "$(deb_file "$p")" ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
    say "downloading$missing"
    # _apt cannot write into build/: apt says so and downloads as root.
    (cd "$out/debs" && apt-get download $missing) > "$out/download.log" 2>&1 ||
        fail "apt-get download failed, see $out/download.log"
fi

# ---- build each twice ----------------------------------------------------------
rm -rf "$out/run" "$out/table.txt"
mkdir -p "$out/run"
cp "$plugin" "$(dirname "$plugin")/kalloc-core.so" "$out/run/"
kflags="-fplugin=$out/run/kalloc.so -fplugin-arg-kalloc-mode=harden ${KALLOC_DKMS_FLAGS:-}"
unset KCFLAGS
export DKMS_JOBS=$jobs
start=$(date +%s)
for p in $packages; do
    d=$out/run/$p
    mkdir -p "$d"
    if ! dpkg-deb -x "$(deb_file "$p")" "$d/deb" 2> "$d/unpack.log"; then
        echo "failed: cannot unpack $(deb_file "$p")" > "$d/plain.status"
        say "$p: cannot unpack"
        continue
    fi
    conf=$(find "$d/deb/usr/src" -mindepth 2 -maxdepth 2 -name dkms.conf 2>/dev/null | head -1)
    if [ -z "$conf" ]; then
        echo "no module sources: no usr/src/*/dkms.conf in the package" > "$d/plain.status"
        say "$p: no dkms.conf"
        continue
    fi
    src=$(dirname "$conf")
    t0=$(date +%s)
    nice -n "$nice_level" "$here/dkms-build.sh" "$src" "$d/plain" "$kernelver" \
        > "$d/plain.out" 2> "$d/plain.log"
    tail -1 "$d/plain.out" > "$d/plain.status"
    t1=$(date +%s)
    echo $((t1 - t0)) > "$d/plain.time"
    say "$p: plain: $(cat "$d/plain.status") ($((t1 - t0)) s)"
    case $(cat "$d/plain.status") in built*) ;; *) continue ;; esac
    KCFLAGS="$kflags -fplugin-arg-kalloc-report=$d/report.jsonl" \
        nice -n "$nice_level" "$here/dkms-build.sh" "$src" "$d/kalloc" "$kernelver" \
        > "$d/kalloc.out" 2> "$d/kalloc.log"
    tail -1 "$d/kalloc.out" > "$d/kalloc.status"
    t2=$(date +%s)
    echo $((t2 - t1)) > "$d/kalloc.time"
    touch "$d/report.jsonl"
    say "$p: kalloc: $(cat "$d/kalloc.status") ($((t2 - t1)) s)"
done
say "built in $(( $(date +%s) - start )) s"

python3 "$here/dkms-table.py" --run "$out/run" --triaged "$here/triaged" \
    --plugin "$out/run/kalloc.so" $packages | tee "$out/table.txt"
