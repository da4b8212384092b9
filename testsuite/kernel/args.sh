# args.sh - the command line of check-kernel and check-defconfig
# (sourced, bash): SCRIPT [CC [PLUGIN [VERSION...]]].
#   kernel_args SUMMARY DEFAULT-VERSIONS "$@"
# sets here (the script's directory), top (the checkout, made the current
# directory), cc (default gcc), plugin (absolute; default
# plugin/kalloc.so) and versions; without the plugin file it says so and
# ends the script with "SUMMARY: 0 passed, 1 failed".
#
# A compiler this machine lacks but a Debian chroot of testsuite/chroot.sh
# has (gcc-15, gcc-16 from sid; gcc-13, gcc-14 from trixie) runs the whole
# script in that chroot instead: this checkout is copied to
# build/chroots/SUITE/kalloc (its build/ kept), the plugin is built there
# with that compiler (PLUGIN is not used: it was built for another GCC), and
# the results are under build/chroots/SUITE/kalloc/build/.  Linux 7.2 with
# GCC 16 is `SCRIPT gcc-16 - 7.2`: sid carries linux-source-7.2.
# It sources testsuite/lib/harness.sh: summary, cannot_run.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/harness.sh"

kernel_args() {
    local summary=$1 default=$2
    shift 2
    here=$(cd "$(dirname "$0")" && pwd)
    top=$(cd "$here/../.." && pwd)
    cd "$top" || exit 1
    cc=${1:-gcc}
    plugin=${2:-$top/plugin/kalloc.so}
    shift 2 2>/dev/null || shift $#
    versions=${*:-$default}
    case $plugin in /*) ;; *) plugin=$top/$plugin ;; esac
    if [ -z "${KALLOC_IN_CHROOT:-}" ] && ! command -v "$cc" >/dev/null 2>&1; then
        in_chroot "$summary"
    fi
    # Kbuild builds its host programs with gcc; a chroot of gcc-16 alone
    # has none: the compiler under test builds them (make $hostcc_arg).
    hostcc_arg=
    command -v gcc >/dev/null 2>&1 || hostcc_arg="HOSTCC=$cc"
    if [ ! -f "$plugin" ]; then
        echo "$(basename "$0" .sh): no plugin at $plugin (run make first)" >&2
        cannot_run "$summary"
    fi
}

# in_chroot SUMMARY: the script again, inside the chroot that has $cc; ends
# the script with its status.
in_chroot() {
    local summary=$1 suite packages root rc
    . "$top/testsuite/chroot.sh"
    set -- $(chroot_for "$cc")
    if [ $# -ne 2 ]; then
        echo "$(basename "$0" .sh): no $cc here, and no Debian chroot of testsuite/chroot.sh has it" >&2
        cannot_run "$summary"
    fi
    suite=$1 packages=$2
    ensure_chroot "$suite" "$packages" || cannot_run "$summary"
    root=$top/build/chroots/$suite    # ensure_chroot sets a relative root of its own
    echo "$(basename "$0" .sh): $cc is in the $suite chroot: running there (results under $root/kalloc/build)" >&2
    sync_tree "$root"
    chroot "$root" make -C /kalloc --no-print-directory CC="$cc" plugin >&2 ||
        { echo "$(basename "$0" .sh): the plugin does not build with $cc in $suite" >&2
          cannot_run "$summary"; }
    # shellcheck disable=SC2086
    with_proc "$root" chroot "$root" env KALLOC_IN_CHROOT=1 \
        "/kalloc/testsuite/kernel/$(basename "$0")" "$cc" /kalloc/plugin/kalloc.so $versions
    rc=$?
    exit $rc
}
