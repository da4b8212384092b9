# chroot.sh - Debian chroots with other GCC releases, for kalloc's
# scripts (sourced, not run).  Needs root.
#   ensure_chroot SUITE PACKAGES   create build/chroots/SUITE once
#   chroot_for COMPILER            "SUITE PACKAGES" for gcc-14 and gcc-15

# The machine's Debian mirror, from its apt sources.
mirror() {
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$f" | grep -v security | head -n 1
    done | head -n 1
    [ -f /etc/apt/sources.list ] && sed -n 's/^deb[[:space:]]\{1,\}\([a-z]*:[^[:space:]]*\).*/\1/p' /etc/apt/sources.list | grep -v security | head -n 1
}

chroot_for() {
    case $1 in
        gcc-14) echo "trixie gcc-14,g++-14,make,libc6-dev,gcc-14-plugin-dev,dejagnu" ;;
        gcc-15) echo "sid gcc-15,g++-15,make,libc6-dev,gcc-15-plugin-dev,dejagnu" ;;
    esac
}

ensure_chroot() {
    suite=$1 packages=$2 root=build/chroots/$1
    if [ -x "$root/usr/bin/runtest" ]; then
        return 0
    fi
    command -v debootstrap >/dev/null 2>&1 || \
        { apt-get update -qq && apt-get install -y -qq debootstrap; } >/dev/null
    url=$(mirror | head -n 1)
    [ -n "$url" ] || { echo "kalloc: no Debian mirror in /etc/apt" >&2; return 1; }
    rm -rf "$root"
    mkdir -p build/chroots
    echo "kalloc: creating the $suite chroot (about a minute)" >&2
    debootstrap --variant=minbase --include="$packages" "$suite" "$root" "$url" \
        > "build/chroots/$suite.log" 2>&1
}

# copy_tree ROOT: the tracked files of this checkout into ROOT/kalloc.
copy_tree() {
    rm -rf "$1/kalloc"
    mkdir -p "$1/kalloc"
    git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$1/kalloc"
}
