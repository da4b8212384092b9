#!/bin/busybox sh
# userspace-init.sh - /init of check-kernel-full's initramfs (Debian's
# busybox-static as /bin/busybox, userspace-load as /bin/userspace-load,
# the kernel's modules under /lib/modules).  Runs after KUnit: the
# allocation-heavy load program, every module loaded, used where a
# busybox applet can, and unloaded, /proc and /sys read; then powers off.
# The console shows "kalloc-userspace: start", one line per step and per
# module loaded or unloaded, and "kalloc-userspace: done, N failures"
# (the steps that failed) before the kernel's power-down.
/bin/busybox mkdir -p /proc /sys /dev /tmp /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
echo "kalloc-userspace: start"
fails=0
step() {
    "$@" > /step.out 2>&1
    status=$?
    sed 's/^/    /' /step.out
    if [ $status -eq 0 ]; then
        echo "kalloc-userspace: ok: $*"
    else
        echo "kalloc-userspace: FAIL: $* (exit status $status)"
        fails=$((fails + 1))
    fi
}

step ip link set lo up
step /bin/userspace-load /tmp/load

# Modules: load each (with what it needs), use it, unload everything.
# Each module's load and unload is one line, "kalloc-userspace: module M:
# loaded|no such device|load failed|unloaded|unload failed|still loaded",
# a result of its own (kunit-results compares them between the builds
# like KUnit cases), not a step: a defconfig's drivers for hardware the
# guest lacks may refuse to load, the same with or without a plugin.
# ENODEV is that refusal by convention (x86_pkg_temp_thermal).
modules=$(find /lib/modules -name '*.ko' -exec basename {} .ko \; 2>/dev/null | sort)
echo "kalloc-userspace: $(echo $modules | wc -w) modules"
for m in $modules; do
    if modprobe "$m" > /step.out 2>&1; then
        echo "kalloc-userspace: module $m: loaded"
    elif grep -q 'No such device' /step.out; then
        echo "kalloc-userspace: module $m: no such device"
    else
        sed 's/^/    /' /step.out
        echo "kalloc-userspace: module $m: load failed"
    fi
done
if lsmod | grep -q '^dummy '; then
    step ip link set dummy0 up
    step ip addr add 10.11.12.1/24 dev dummy0
    step ping -c 3 -W 2 10.11.12.1
fi
if lsmod | grep -q '^bridge '; then
    step brctl addbr kbr0
    lsmod | grep -q '^dummy ' && step brctl addif kbr0 dummy0
    step ip link set kbr0 up
    step ip link set kbr0 down
    lsmod | grep -q '^dummy ' && step brctl delif kbr0 dummy0
    step brctl delbr kbr0
fi
if lsmod | grep -q '^tun '; then
    step tunctl -t ktap0
    step ip link set ktap0 up
    step tunctl -d ktap0
fi
if lsmod | grep -q '^veth '; then
    step ip link add kveth0 type veth
    step ip link del kveth0
fi
# Unload in dependency order: each round removes the modules nothing uses
# (use count 0 in /proc/modules) and not yet tried; the rounds end when
# one removes nothing.
tried=" "
while :; do
    progress=0
    for m in $(awk '$3 == 0 { print $1 }' /proc/modules); do
        case "$tried" in *" $m "*) continue ;; esac
        if rmmod "$m" > /step.out 2>&1; then
            echo "kalloc-userspace: module $m: unloaded"
            progress=1
        else
            sed 's/^/    /' /step.out
            echo "kalloc-userspace: module $m: unload failed"
            tried="$tried$m "
        fi
    done
    [ $progress -eq 1 ] || break
done
for m in $(awk '{ print $1 }' /proc/modules); do
    case "$tried" in *" $m "*) ;; *) echo "kalloc-userspace: module $m: still loaded" ;; esac
done

# The load program once more, now that the modules came and went.
step /bin/userspace-load /tmp/load2
step umount /tmp
echo "kalloc-userspace: done, $fails failures"
sync
poweroff -f
