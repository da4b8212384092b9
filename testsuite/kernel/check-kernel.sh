#!/bin/bash
# check-kernel.sh - kalloc on real kernels: build Debian's Linux 6.1 and 6.12
# (tinyconfig plus the KUnit fragments in this directory) without and with
# the plugin, boot each under QEMU, and require the same KUnit results,
# all passing, and no kalloc warning.  Everything comes from Debian
# packages, installed if missing.
#
# Usage: testsuite/kernel/check-kernel.sh [CC [PLUGIN [VERSION...]]]
#   CC        the compiler (default gcc); PLUGIN must be built for it.  The
#             target architecture is the compiler's (-dumpmachine): x86_64,
#             aarch64 (ARCH=arm64, booted with qemu-system-aarch64 -M virt
#             -cpu cortex-a57) or arm (ARCH=arm, qemu-system-arm -M virt);
#             a cross compiler's prefix becomes CROSS_COMPILE.
#   PLUGIN    kalloc.so (default plugin/kalloc.so)
#   VERSION   6.1, 6.12 (default both)
# Environment:
#   KALLOC_KERNEL_ARGS       extra plugin options for every plugin build,
#                            e.g. "-fplugin-arg-kalloc-no-counter-store"
#   KALLOC_KERNEL_NO_COUNTED_BY  auto (default): kernels with a counted_by
#                            Kconfig probe (6.12) get a second plugin build
#                            with -fplugin-arg-kalloc-no-counted-by, when the
#                            compiler is older than GCC 15 (GCC 15 has its own
#                            counted_by, which the option leaves); yes: every
#                            kernel; no: none
#   KALLOC_KERNEL_TIMEOUT    seconds a boot may take (default 120)
#   KALLOC_KERNEL_APPEND     kernel command line (default: the serial
#                            console, panic=-1, KUnit on, 6.12's slow cases
#                            filtered)
#   KALLOC_KERNEL_JOBS       make -j (default: number of CPUs)
#   KALLOC_KERNEL_REBUILD=1  rebuild even when the cached build matches
#   KALLOC_KERNEL_BOOT=no    build only (fills the cache; every build then
#                            counts as failed: nothing was checked)
#   KALLOC_KERNEL_PROFILE    tiny (default) or full, below
#   KALLOC_KERNEL_MODULES    full profile: all (default) keeps the base
#                            configuration's modules; fragments turns them
#                            off (make mod2noconfig) before the fragments,
#                            so only full.config's modules (and what they
#                            select) remain.  For arm64, whose defconfig
#                            builds over a thousand driver modules: a pair
#                            of builds then fits in hours of 2 cores
#                            (docs/results/kernels.md)
#
# Before any build, fix-tests corrects KUnit expectations that upstream
# later fixed for every compiler (see there); both builds compile the
# corrected test.
#
# Per kernel and build, under build/kernel/VERSION[-ARCH]-BUILD/ (ARCH
# when not x86_64): obj/ (the
# object tree), config.log, config-dropped.txt, build.log, boot.log (the
# console), kunit.txt (normalised results), check.txt, report.jsonl and
# report.txt (plugin builds), times.  The summary is also written to
# build/kernel/summary.txt (summary-ARCH.txt for other targets).  The last line is
#   kernel: N passed, N failed[, N expected failures]
# counting one check per kernel and build: it booted, KUnit completed and
# passed, and (plugin builds) gave the same results as without the plugin
# and kalloc warned about nothing.  Every KUnit failure and every warning
# of a plugin build is a failure: there is no list of expected ones.
#
# KALLOC_KERNEL_PROFILE=full (make check-kernel-full) builds whole kernels
# instead: defconfig plus the fragments above plus full.config (every
# KUnit suite that builds, KASAN, UBSAN, a few modules), without the
# plugin and with it only (no no-counted-by build), under
# build/kernel-full/.  After KUnit each kernel boots into an initramfs
# (Debian's busybox-static and the static program userspace-load.c) that
# exercises tmpfs, pipes, poll/epoll, loopback sockets, module load and
# unload and /proc and /sys, then powers off.  The build without the
# plugin counts as passed when it boots, KUnit completes and the
# userspace run is clean (KUnit failures it has are listed: a defconfig
# kernel under QEMU has some, and there is no list of expected ones); the
# plugin build must give exactly its KUnit results, case by case, and a
# clean userspace run.
set -u
. "$(dirname "$0")/args.sh"
kernel_args kernel "6.1 6.12" "$@"
say() { echo "check-kernel: $*" >&2; }
# give_up MESSAGE: a run that cannot start is one failed check.
give_up() { say "$*"; cannot_run kernel; }
profile=${KALLOC_KERNEL_PROFILE:-tiny}
# What the profile decides; the userspace run (full) adds an initramfs,
# its packages, a second vCPU and the checks of kunit-results --userspace.
case $profile in
    tiny) base=tinyconfig out=$top/build/kernel mem_x86=256 mem_arm=512 default_timeout=120
          profile_pkgs= qemu_smp= check_flags= ;;
    full) base=defconfig out=$top/build/kernel-full mem_x86=2048 mem_arm=2048 default_timeout=7200
          profile_pkgs="busybox-static kmod" qemu_smp="-smp 2"
          check_flags="--userspace --list-failures" ;;
    *) give_up "KALLOC_KERNEL_PROFILE is tiny or full, not '$profile'" ;;
esac
extra_args=${KALLOC_KERNEL_ARGS:-}
gcc_major=$($cc -dumpversion 2>/dev/null | cut -d. -f1)
case $gcc_major in ''|*[!0-9]*) gcc_major=0 ;; esac
no_counted_by=${KALLOC_KERNEL_NO_COUNTED_BY:-auto}
boot_timeout=${KALLOC_KERNEL_TIMEOUT:-$default_timeout}
append_default="panic=-1 kunit.enable=1 kunit.filter=speed>slow"
jobs=${KALLOC_KERNEL_JOBS:-$(nproc 2>/dev/null || echo 2)}
rebuild=${KALLOC_KERNEL_REBUILD:-0}
boot_too=${KALLOC_KERNEL_BOOT:-yes}
modules=${KALLOC_KERNEL_MODULES:-all}
case $modules in
    all|fragments) ;;
    *) give_up "KALLOC_KERNEL_MODULES is all or fragments, not '$modules'" ;;
esac
[ "$modules" = all ] || [ "$profile" = full ] ||
    give_up "KALLOC_KERNEL_MODULES=fragments needs KALLOC_KERNEL_PROFILE=full"
mkdir -p "$out"

# ---- Target ---------------------------------------------------------------
# Everything target-dependent comes from the compiler.
machine=$($cc -dumpmachine 2>/dev/null) || machine=
cross=
case $cc in *-gcc|*-gcc-[0-9]*) cross=${cc%gcc*} ;; esac
case $machine in
    x86_64-*)
        arch=x86_64 image=arch/x86/boot/bzImage console=ttyS0
        qemu_pkg=qemu-system-x86 qemu="qemu-system-x86_64 -machine accel=tcg -m $mem_x86" ;;
    aarch64-*)
        arch=arm64 image=arch/arm64/boot/Image console=ttyAMA0
        qemu_pkg=qemu-system-arm qemu="qemu-system-aarch64 -M virt,accel=tcg -cpu cortex-a57 -m $mem_arm" ;;
    arm-*)
        arch=arm image=arch/arm/boot/zImage console=ttyAMA0
        qemu_pkg=qemu-system-arm qemu="qemu-system-arm -M virt,accel=tcg -cpu cortex-a15 -m $mem_arm" ;;
    *) give_up "$cc targets '${machine:-?}'; x86_64, aarch64 and arm are supported" ;;
esac
[ "$arch" = x86_64 ] && cross=
targets=$(basename "$image")
[ "$profile" = full ] && targets="$targets modules"
append=${KALLOC_KERNEL_APPEND:-"console=$console $append_default"}
# Build directories: VERSION-BUILD on x86_64 (as before), VERSION-ARCH-BUILD
# elsewhere.
tag() { if [ "$arch" = x86_64 ]; then echo "$1"; else echo "$1-$arch"; fi; }

# One run per architecture at a time: a second one would delete the first's objects.
exec 9> "$out/.lock-$arch"
flock -n 9 || give_up "another check-kernel is running in $out"

exec 3>&2

# ---- Dependencies -------------------------------------------------------
install_deps() {
    local pkgs="make flex bison bc libelf-dev libssl-dev cpio xz-utils \
        $qemu_pkg python3 $profile_pkgs" v
    for v in $versions; do pkgs="$pkgs linux-source-$v"; done
    # shellcheck disable=SC2086
    "$top/testsuite/apt-install.sh" $pkgs ${pkgs_cross:-} >&2
}
[ -z "$cross" ] || pkgs_cross="binutils-${cross%-}"
install_deps || give_up "could not install the dependencies"

# ---- Sources --------------------------------------------------------------
# Unpack /usr/src/linux-source-V.tar.xz once into build/kernel/src-V and
# apply fix-tests.  tar keeps the archive's times, so after a new unpack
# kbuild recompiles only what fix-tests changed.
source_key() {
    echo "$(stat -c %s-%Y "/usr/src/linux-source-$1.tar.xz") $(sha256sum < "$here/fix-tests.sh" | cut -c1-16)"
}
unpack() {
    local v=$1 src=$out/src-$1 tarball=/usr/src/linux-source-$1.tar.xz
    [ -f "$tarball" ] || { say "no $tarball"; return 1; }
    if [ -f "$src/.unpacked" ] && [ "$(cat "$src/.unpacked")" = "$(source_key "$v")" ]; then
        return 0
    fi
    say "unpacking $tarball"
    rm -rf "$src" "$out/tmp-$v"
    mkdir -p "$out/tmp-$v"
    tar -xf "$tarball" -C "$out/tmp-$v" || return 1
    mv "$out/tmp-$v/linux-source-$v" "$src" && rmdir "$out/tmp-$v" || return 1
    "$here/fix-tests.sh" "$v" "$src" || return 1
    source_key "$v" > "$src/.unpacked"
}

# ---- Configure and build --------------------------------------------------
# kmake V DIR ARGS...: make in the source tree of V, objects in DIR/obj.
kmake() {
    local v=$1 dir=$2
    shift 2
    make -C "$out/src-$v" O="$dir/obj" ARCH=$arch ${cross:+CROSS_COMPILE=$cross} CC="$CC_LINE" \
        $hostcc_arg "$@"
}

# The fragments, most general first: common, the architecture's, the
# version's, the version's on that architecture; then, for the full
# profile, full and its own by architecture and version.
fragments() {
    local f extra=
    [ "$profile" = full ] && extra="full full-$arch full-$1 full-$1-$arch"
    for f in common $arch $1 $1-$arch $extra; do
        [ -f "$here/$f.config" ] && echo "$here/$f.config"
    done
}

# configure V DIR: the base configuration + fragments; lists the options that did not
# end up as asked in DIR/config-dropped.txt.
configure() {
    local v=$1 dir=$2 f line opt
    {
        kmake "$v" "$dir" "$base" &&
        { [ "$modules" = all ] || kmake "$v" "$dir" mod2noconfig; } &&
        "$out/src-$v/scripts/kconfig/merge_config.sh" -m -O "$dir/obj" \
            "$dir/obj/.config" $(fragments "$v") &&
        kmake "$v" "$dir" olddefconfig
    } > "$dir/config.log" 2>&1 || return 1
    : > "$dir/config-dropped.txt"
    for f in $(fragments "$v"); do
        while IFS= read -r line; do
            case $line in
                CONFIG_*=*)
                    grep -qxF "$line" "$dir/obj/.config" ||
                        echo "$line (got: $(grep -E "^(# )?${line%%=*}[= ]" "$dir/obj/.config" || echo absent))" \
                            >> "$dir/config-dropped.txt" ;;
                "# CONFIG_"*" is not set")
                    opt=${line#\# }; opt=${opt%% *}
                    grep -q "^$opt=" "$dir/obj/.config" &&
                        echo "$line (got: $(grep "^$opt=" "$dir/obj/.config"))" >> "$dir/config-dropped.txt" ;;
            esac
        done < "$f"
    done
    if [ -s "$dir/config-dropped.txt" ]; then
        say "warning: $v $(basename "$dir"): options dropped by Kconfig:"
        sed 's/^/    /' "$dir/config-dropped.txt" >&2
    fi
    return 0
}

# What a build depends on: a cached build is reused while this is the same.
build_key() {
    local v=$1
    {
        echo "$CC_LINE" | sed "s|$out/[^ ]*report.jsonl|REPORT|"
        $cc --version | head -n 1
        case $CC_LINE in *-fplugin=*) sha256sum < "$plugin" ;; esac
        echo "$arch $cross"
        [ "$profile" = tiny ] || echo "$profile"
        [ "$modules" = all ] || echo "modules=$modules"
        cat $(fragments "$v")
        source_key "$v"
    } | sha256sum | cut -d' ' -f1
}

# build V DIR NAME: configure and make the boot image, or reuse a matching
# cached build.  A build without the plugin whose key changed is made
# again in its object tree: kbuild tracks sources, configuration and
# command lines.  A plugin build starts from scratch, since kbuild does
# not see a changed kalloc.so.  Writes "build WALL CPU" (seconds; CPU = user + system of make and
# its children, which other load on the machine does not inflate) to
# DIR/times.
build() {
    local v=$1 dir=$2 name=$3 key rc t
    key=$(build_key "$v")
    if [ "$rebuild" != 1 ] && [ -f "$dir/obj/$image" ] &&
       [ "$(cat "$dir/build.key" 2>/dev/null)" = "$key" ]; then
        say "$v $name: reusing the cached build (KALLOC_KERNEL_REBUILD=1 rebuilds)"
        sed -i 's/^\(build [0-9 ]*\)$/\1 (cached)/' "$dir/times"
        return 0
    fi
    local how="configuring and building"
    if [ "$rebuild" != 1 ] && [ -f "$dir/obj/.config" ] && [ -f "$dir/build.key" ] &&
       [ "${CC_LINE#*-fplugin=}" = "$CC_LINE" ]; then
        how="configuring and building again in the cached tree"
    else
        rm -rf "$dir/obj"
    fi
    rm -f "$dir/report.jsonl" "$dir/build.key" "$dir/times"
    mkdir -p "$dir/obj"
    say "$v $name: $how (-j$jobs)"
    TIMEFORMAT='%0R %0U %0S'
    t=$( { time { configure "$v" "$dir" > /dev/null 2>&3 &&
                  kmake "$v" "$dir" -j"$jobs" $targets > "$dir/build.log" 2>&1
                  echo $? > "$dir/build.rc"; } ; } 2>&1 )
    rc=$(cat "$dir/build.rc" 2>/dev/null || echo 1)
    rm -f "$dir/build.rc"
    set -- $t
    echo "build $1 $(( $2 + $3 ))" > "$dir/times"
    if [ ! -s "$dir/obj/.config" ] || ! grep -q '^CONFIG_KUNIT=y' "$dir/obj/.config"; then
        say "$v $name: configuration failed, see $dir/config.log"
        return 1
    fi
    if [ "$rc" -ne 0 ]; then
        say "$v $name: build failed, see $dir/build.log"
        tail -n 20 "$dir/build.log" | sed 's/^/    /' >&2
        return 1
    fi
    echo "$key" > "$dir/build.key"
}

# ---- Userspace (full profile) ---------------------------------------------
# busybox: the path of a static busybox for the target, Debian's
# busybox-static: the installed one on x86_64, else the target's package
# fetched with apt into build/kernel-full/busybox-ARCH (package lists of
# its own: the machine's dpkg architectures stay as they are).
busybox() {
    local debarch dir=$out/busybox-$arch opts
    [ "$arch" = x86_64 ] && { echo /bin/busybox; return 0; }
    case $arch in arm64) debarch=arm64 ;; arm) debarch=armhf ;; esac
    if [ ! -x "$dir/root/bin/busybox" ]; then
        rm -rf "$dir" && mkdir -p "$dir/lists/partial" && chmod 777 "$dir" || return 1
        opts="-o APT::Architectures::=$(dpkg --print-architecture) -o APT::Architectures::=$debarch -o Dir::State::Lists=$dir/lists"
        # shellcheck disable=SC2086
        { apt-get update $opts && (cd "$dir" && apt-get download $opts "busybox-static:$debarch") &&
          dpkg-deb -x "$dir"/busybox-static_*.deb "$dir/root"; } > "$dir/apt.log" 2>&1 || {
            say "could not fetch busybox-static:$debarch, see $dir/apt.log"; return 1; }
    fi
    echo "$dir/root/bin/busybox"
}

# initramfs V DIR: DIR/initramfs.cpio.gz holding busybox, userspace-load
# (built static with the target's compiler, without the plugin: it is the
# probe, not the object under test), userspace-init as /init and the
# build's modules.
initramfs() {
    local v=$1 dir=$2 root=$2/initramfs bb
    bb=$(busybox) || return 1
    rm -rf "$root" && mkdir -p "$root/bin" || return 1
    cp "$bb" "$root/bin/busybox" &&
    $cc -static -O2 -Wall -o "$root/bin/userspace-load" "$here/userspace-load.c" &&
    install -m 755 "$here/userspace-init.sh" "$root/init" &&
    kmake "$v" "$dir" INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 modules_install \
        > "$dir/modules_install.log" 2>&1 || { say "${dir##*/}: no initramfs, see $dir/modules_install.log"; return 1; }
    (cd "$root" && find . | cpio -o -H newc --quiet) | gzip > "$dir/initramfs.cpio.gz"
}

# ---- Boot -----------------------------------------------------------------
# boot DIR: run the kernel under QEMU (TCG; KVM hangs here).  With no init
# the kernel panics once KUnit is done, panic=-1 reboots at once and
# -no-reboot ends QEMU.  The timeout is the backstop.  Sets BOOT_SECONDS.
boot() {
    local dir=$1 start rc initrd=
    [ -f "$dir/initramfs.cpio.gz" ] && initrd="-initrd $dir/initramfs.cpio.gz"
    start=$(date +%s)
    timeout -k 10 "$boot_timeout" $qemu $qemu_smp $initrd \
        -kernel "$dir/obj/$image" -nographic -no-reboot \
        -append "$append" \
        < /dev/null > "$dir/boot.log" 2>&1
    rc=$?
    BOOT_SECONDS=$(( $(date +%s) - start ))
    sed -i '/^boot /d' "$dir/times" 2>/dev/null
    echo "boot $BOOT_SECONDS" >> "$dir/times"
    [ $rc -eq 124 ] && say "${dir##*/}: boot timed out after ${boot_timeout}s"
    "$here/kunit-results.py" parse "$dir/boot.log" > "$dir/kunit.txt"
}

passed=0 failed=0
ran=""    # the build directories of this run: only they are summarised
summary=$out/summary.txt
[ "$arch" = x86_64 ] || summary=$out/summary-$arch.txt
: > "$summary"
row() { printf '%-11s %-21s %-22s %-7s %-26s %s\n' "$@" | tee -a "$summary"; }

for v in $versions; do
    unpack "$v" || { say "$v: cannot unpack the sources"; failed=$((failed + 1)); continue; }
    builds="plain kalloc"
    if [ "$profile" = full ]; then
        :    # no-counted-by is covered by the tinyconfig kernels
    elif [ "$no_counted_by" = yes ] ||
       { [ "$no_counted_by" = auto ] && [ "$gcc_major" -lt 15 ] &&
         grep -q '^config CC_HAS_COUNTED_BY' "$out/src-$v/init/Kconfig"; }; then
        builds="$builds kalloc-no-counted-by"
    fi
    for b in $builds; do
        dir=$out/$(tag "$v")-$b
        ran="$ran $dir"
        mkdir -p "$dir"
        # This run's results only: a plugin build whose plain build failed
        # must not be compared with the KUnit results of an earlier run.
        rm -f "$dir/check.txt" "$dir/report.txt" "$dir/kunit.txt" "$dir/boot.log" "$dir/config-diff.txt"
        case $b in
            plain) CC_LINE=$cc ;;
            kalloc) CC_LINE="$cc -fplugin=$plugin -fplugin-arg-kalloc-report=$dir/report.jsonl $extra_args" ;;
            kalloc-no-counted-by) CC_LINE="$cc -fplugin=$plugin -fplugin-arg-kalloc-report=$dir/report.jsonl $extra_args -fplugin-arg-kalloc-no-counted-by" ;;
        esac
        CC_LINE=${CC_LINE% }
        echo "$CC_LINE" > "$dir/cc"
        if ! build "$v" "$dir" "$b"; then
            echo "verdict: fail (build)" > "$dir/check.txt"
            continue    # counted with the summary, as every build of $ran
        fi
        if [ "$boot_too" = no ]; then
            echo "verdict: fail (built, not booted: KALLOC_KERNEL_BOOT=no)" > "$dir/check.txt"
            continue
        fi
        rm -f "$dir/initramfs.cpio.gz"
        if [ "$profile" = full ] && ! initramfs "$v" "$dir"; then
            echo "verdict: fail (initramfs)" > "$dir/check.txt"
            continue
        fi
        say "$v $b: booting (timeout ${boot_timeout}s)"
        boot "$dir"
        if [ $b = plain ]; then
            "$here/kunit-results.py" check $check_flags "$dir/kunit.txt" > "$dir/check.txt"
        else
            "$here/kunit-results.py" check $check_flags --baseline "$out/$(tag "$v")-plain/kunit.txt" \
                "$dir/kunit.txt" > "$dir/check.txt"
            "$top/plugin/kalloc-report.py" summary --srcdir "$out/src-$v" "$dir/report.jsonl" > "$dir/report.txt" 2>&1
            # Zero warnings: each one is a kernel bug to write up or a
            # false positive to fix in the plugin.
            nwarn=$(grep -c '^    warning: ' "$dir/report.txt")
            if [ "$nwarn" -gt 0 ]; then
                sed -i "s/^verdict: .*/verdict: fail ($nwarn kalloc warnings)/" "$dir/check.txt"
            fi
            # What the plugin changed in the configuration (Kconfig probes $(CC)).
            diff <(grep -v '^CONFIG_CC_VERSION_TEXT\|^#' "$out/$(tag "$v")-plain/obj/.config" | sort) \
                 <(grep -v '^CONFIG_CC_VERSION_TEXT\|^#' "$dir/obj/.config" | sort) \
                 | grep '^[<>]' > "$dir/config-diff.txt"
            # Typed calls (Linux 7.x's kmalloc_obj () family) are left as
            # they are: a unit with only typed calls compiles to the same
            # object.  Comparable only when the configurations are the same.
            if [ "$b" = kalloc ] && grep -q '"typed":true' "$dir/report.jsonl" 2>/dev/null; then
                if [ -s "$dir/config-diff.txt" ]; then
                    echo "typed-identical: not compared, the configurations differ" >> "$dir/report.txt"
                elif ! "$here/typed-identical.py" --report "$dir/report.jsonl" --src "$out/src-$v" \
                        "$out/$(tag "$v")-plain/obj" "$dir/obj" >> "$dir/report.txt" 2>&1; then
                    sed -i "s/^verdict: pass$/verdict: fail (objects of typed-only units differ)/" "$dir/check.txt"
                fi
            fi
        fi
    done
done

# ---- Summary --------------------------------------------------------------
echo | tee -a "$summary"
row kernel build "kunit suites p/f/s" "result" "build (wall, cpu)" "boot"
for v in $versions; do
    t=$(tag "$v")
    for dir in "$out/$t-plain" "$out/$t-kalloc" "$out/$t-kalloc-no-counted-by"; do
        case " $ran " in *" $dir "*) ;; *) continue ;; esac
        b=${dir##*/$t-}
        verdict=$(sed -n 's/^verdict: //p' "$dir/check.txt")
        totals=$(sed -n 's/^totals: \([0-9]*\) suites, pass:\([0-9]*\) fail:\([0-9]*\) skip:\([0-9]*\)/\1 suites \2\/\3\/\4/p' "$dir/check.txt")
        read -r bw bc bn <<< "$(sed -n 's/^build //p' "$dir/times" 2>/dev/null)"
        case $bc in *[!0-9]*) bn="$bc${bn:+ $bn}"; bc= ;; esac
        bt="${bw:-?}s, ${bc:-?}s${bn:+ $bn}"
        ut=$(sed -n 's/^boot //p' "$dir/times" 2>/dev/null)
        row "$t" "$b" "${totals:--}" "${verdict%% *}" "$bt" "${ut:-?}s"
        case $verdict in
            pass) passed=$((passed + 1)) ;;
            *) failed=$((failed + 1)) ;;
        esac
        grep -v '^totals:\|^verdict:' "$dir/check.txt" | sed 's/^/      /' | tee -a "$summary"
        if [ -s "$dir/config-diff.txt" ]; then
            echo "      config with the plugin: $(sed 's/^> //;s/^< \(.*\)/-\1/' "$dir/config-diff.txt" | tr '\n' ' ' | sed 's/ $//')" | tee -a "$summary"
        fi
        if [ -f "$dir/report.jsonl" ]; then
            echo "      report: $("$top/plugin/kalloc-report.py" summary --brief --srcdir "$out/src-$v" "$dir/report.jsonl" 2>&1)" | tee -a "$summary"
            sed -n 's/^    warning: /      warning: /p' "$dir/report.txt" | tee -a "$summary"
            sed -n 's/^typed-identical: /      typed-identical: /p; /: differs in /s/^/        /p' "$dir/report.txt" | tee -a "$summary"
        fi
    done
done
echo "(kunit: suites, cases+parameters pass/fail/skip; build: configure + make -j$jobs, wall and CPU seconds; boot: QEMU TCG, seconds; logs in build/kernel)" | tee -a "$summary"
line=$(summary kernel "$passed" "$failed")
status=$?
echo "$line" | tee -a "$summary"
exit $status
