#!/bin/sh
# install-deps.sh [CC] - install, through apt (testsuite/apt-install.sh), what
# kalloc needs to build and test with CC (default gcc): the compiler, its
# plugin headers, g++ of the same release, make and DejaGnu.  Does nothing
# when everything is there; fails (non-zero) when it cannot install.
set -eu
cc=${1:-gcc}
here=$(cd "$(dirname "$0")" && pwd)
major=$($cc -dumpversion 2>/dev/null | cut -d. -f1 || true)
missing=""
if [ -z "$major" ]; then
    # Not installed: gcc-N names its release; plain gcc is Debian's default.
    case $cc in
        *-[0-9]*) major=${cc##*-}; missing="$cc g++-$major" ;;
        *) missing="gcc g++"
           major=$(apt-cache policy gcc 2>/dev/null | sed -n 's/.*Candidate: [0-9]*:\{0,1\}\([0-9]*\)\..*/\1/p') ;;
    esac
fi
[ -n "$major" ] || { echo "install-deps: cannot tell the GCC release of '$cc'" >&2; exit 1; }
plugin_dir=$($cc -print-file-name=plugin 2>/dev/null || true)
[ -f "$plugin_dir/include/gcc-plugin.h" ] || missing="$missing gcc-$major-plugin-dev"
command -v "g++-$major" >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 || missing="$missing g++-$major"
command -v runtest >/dev/null 2>&1 || missing="$missing dejagnu"
command -v make >/dev/null 2>&1 || missing="$missing make"
[ -n "$missing" ] || exit 0
# shellcheck disable=SC2086
exec "$here/apt-install.sh" $(printf '%s\n' $missing | sort -u)
