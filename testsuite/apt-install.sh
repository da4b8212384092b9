#!/bin/sh
# apt-install.sh [--root DIR] PACKAGE... - install Debian packages with apt,
# only those not installed yet, for kalloc's test scripts (one place that
# installs).  As root, or through sudo; --root DIR installs into the
# Debian chroot DIR instead of this machine.  Exits non-zero, saying why,
# when it cannot install (not root and no sudo, apt failed, a package is
# still missing afterwards), so a caller stops instead of testing without.
set -u
root=""
if [ "${1:-}" = --root ]; then
    [ $# -ge 2 ] || { echo "apt-install: --root needs a directory" >&2; exit 2; }
    root=$2
    shift 2
    [ -d "$root/var/lib/dpkg" ] || { echo "apt-install: $root is not a Debian chroot" >&2; exit 1; }
fi
[ $# -gt 0 ] || { echo "apt-install: no package named" >&2; exit 2; }

in_root() { if [ -n "$root" ]; then chroot "$root" "$@"; else "$@"; fi; }
installed() {
    in_root dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q 'ok installed'
}

missing=""
for p in "$@"; do
    installed "$p" || missing="$missing $p"
done
[ -n "$missing" ] || exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if [ -z "$root" ] && command -v sudo >/dev/null 2>&1; then
        sudo="sudo"
    else
        echo "apt-install: installing$missing needs root" >&2
        exit 1
    fi
fi
echo "apt-install: installing$missing${root:+ in $root}" >&2
# Another apt may be running (other scripts, other users): wait for its lock.
aptopts="-o DPkg::Lock::Timeout=600"
# A chroot's lists may come from a snapshot whose Release has expired,
# whether apt runs from outside it (--root) or inside it (a script that
# testsuite/kernel/args.sh runs there).
[ -z "$root" ] && [ -z "${KALLOC_IN_CHROOT:-}" ] || aptopts="$aptopts -o Acquire::Check-Valid-Until=false"
if ! { in_root $sudo apt-get $aptopts update -qq &&
       in_root $sudo env DEBIAN_FRONTEND=noninteractive apt-get $aptopts install \
           -y -qq --no-install-recommends $missing; } >&2; then
    echo "apt-install: apt-get could not install$missing" >&2
    exit 1
fi
for p in $missing; do
    installed "$p" || { echo "apt-install: $p is still not installed" >&2; exit 1; }
done
exit 0
