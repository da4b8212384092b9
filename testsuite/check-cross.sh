#!/bin/sh
# check-cross.sh - kalloc for the cross compilers vendor kernels are built
# with: the plugin is built with the host's g++ against each target GCC's
# plugin headers, the compile tests run with that compiler, and the run
# tests run under qemu-user.  One summary line per target.
# Installs (apt, as root) what is missing.
#
# Usage: testsuite/check-cross.sh [--install-only] [TARGET...]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. testsuite/lib/harness.sh
mkdir -p build
install_only=no
[ "${1:-}" = --install-only ] && { install_only=yes; shift; }
targets=${*:-"aarch64-linux-gnu arm-linux-gnueabihf"}
major=12

packages=""
for t in $targets; do
    command -v "$t-gcc-$major" >/dev/null 2>&1 || packages="$packages gcc-$major-$t"
    [ -f "$($t-gcc-$major -print-file-name=plugin 2>/dev/null)/include/gcc-plugin.h" ] || \
        packages="$packages gcc-$major-plugin-dev-$t"
    case $t in
        aarch64-linux-gnu) arch=arm64 ;;
        arm-linux-gnueabihf) arch=armhf ;;
        *) arch=${t%%-*} ;;
    esac
    [ -f "/usr/$t/include/stdio.h" ] || packages="$packages libc6-dev-$arch-cross"
done
command -v qemu-aarch64 >/dev/null 2>&1 || packages="$packages qemu-user"
if [ -n "$packages" ] && ! testsuite/apt-install.sh $packages; then
    echo "$(summary kalloc 0 1) (could not install$packages)"
    exit 1
fi
[ $install_only = no ] || exit 0

status=0
for t in $targets; do
    cc=$t-gcc-$major
    line=$(make --no-print-directory CC="$cc" check 2>&1 | tee "build/check-$cc.log" | grep '^kalloc: [0-9]* passed' | tail -n 1)
    [ -n "$line" ] || line="$(summary kalloc 0 1) (no result; see build/check-$cc.log)"
    case $line in *", 0 failed"*) ;; *) status=1 ;; esac
    printf '%-28s %s\n' "$cc" "$line"
done
exit $status
