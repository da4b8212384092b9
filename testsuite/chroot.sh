# chroot.sh - Debian chroots with other GCC releases, for kalloc's
# scripts (sourced, not run).  Needs root.
#   chroot_for COMPILER            "SUITE PACKAGES" for gcc-13 and gcc-14
#                                  (trixie), gcc-15 and gcc-16 (sid)
#   ensure_chroot SUITE PACKAGES   build/chroots/SUITE with PACKAGES: made
#                                  once with debootstrap, completed with
#                                  apt when a package is missing
#   copy_tree ROOT                 this checkout into ROOT/kalloc, its build/
#                                  kept but for the plugin's objects
#   sync_tree ROOT                 the same, the objects kept too (the
#                                  kernel scripts: make rebuilds by times)
#   with_proc ROOT CMD...          CMD with /proc mounted in ROOT (kernel
#                                  builds and QEMU read it)

# The machine's Debian mirror, from its apt sources.
mirror() {
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$f" | grep -v security | head -n 1
    done | head -n 1
    [ -f /etc/apt/sources.list ] && sed -n 's/^deb[[:space:]]\{1,\}\([a-z]*:[^[:space:]]*\).*/\1/p' /etc/apt/sources.list | grep -v security | head -n 1
}

# One chroot per suite holds both of its compilers.
chroot_gcc() { echo "gcc-$1,g++-$1,gcc-$1-plugin-dev,gcc-$2,g++-$2,gcc-$2-plugin-dev,make,libc6-dev,dejagnu,python3,patch"; }
chroot_for() {
    case $1 in
        gcc-13|gcc-14) echo "trixie $(chroot_gcc 13 14)" ;;
        gcc-15|gcc-16) echo "sid $(chroot_gcc 15 16)" ;;
    esac
}

ensure_chroot() {
    suite=$1 packages=$2 root=build/chroots/$1
    if [ "$(id -u)" -ne 0 ]; then
        echo "kalloc: the $suite chroot (debootstrap, chroot) needs root" >&2
        return 1
    fi
    if [ -x "$root/usr/bin/runtest" ]; then
        # A chroot made before a compiler joined the suite: add it.
        "$top/testsuite/apt-install.sh" --root "$root" $(echo "$packages" | tr ',' ' ')
        return
    fi
    command -v debootstrap >/dev/null 2>&1 || "$top/testsuite/apt-install.sh" debootstrap || return 1
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
    mkdir -p "$1/kalloc"
    find "$1/kalloc" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} +
    # A kernel run there keeps its trees; the plugin's objects go, so that
    # every source is compiled again (their times are the copy's).
    find "$1/kalloc/build" -mindepth 1 -maxdepth 1 -name 'gcc-*' -exec rm -rf {} + 2>/dev/null
    git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$1/kalloc"
}

# sync_tree ROOT: as copy_tree, but ROOT/kalloc/build stays: the kernel
# scripts key their cached builds by the plugin, so a stale tree is rebuilt;
# files keep their times, so that make rebuilds only what changed.
sync_tree() {
    mkdir -p "$1/kalloc"
    find "$1/kalloc" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} +
    git ls-files -z --cached --others --exclude-standard | xargs -0 cp -p --parents -t "$1/kalloc"
}

# with_proc ROOT CMD...: run CMD with ROOT/proc mounted, unmounted after.
with_proc() {
    local root=$1 rc mounted=0
    shift
    if [ ! -e "$root/proc/self" ]; then
        mount -t proc proc "$root/proc" || return 1
        mounted=1
    fi
    "$@"
    rc=$?
    [ "$mounted" = 0 ] || umount "$root/proc"
    return $rc
}
