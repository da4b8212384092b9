# args.sh - the command line of check-kernel and check-defconfig
# (sourced, bash): SCRIPT [CC [PLUGIN [VERSION...]]].
#   kernel_args SUMMARY DEFAULT-VERSIONS "$@"
# sets here (the script's directory), top (the checkout, made the current
# directory), cc (default gcc), plugin (absolute; default
# plugin/kalloc.so) and versions; without the plugin file it says so and
# ends the script with "SUMMARY: 0 passed, 1 failed".
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
    if [ ! -f "$plugin" ]; then
        echo "$(basename "$0"): no plugin at $plugin (run make first)" >&2
        echo "$summary: 0 passed, 1 failed"
        exit 1
    fi
}
