#!/bin/bash
# distcc-kernel.sh CC PLUGIN [VERSION] - one kernel built locally and through
# a distcc helper that cannot see the sources: the same kalloc reports.
#
# Linux VERSION (6.12) tinyconfig with check-kernel's KUnit fragments,
# built twice with the plugin (mode=harden) and report=: once with
# CC="CC -fplugin=...", once with CC="distcc WRAPPER", the wrapper adding
# the plugin, distccd started in a mount namespace where the source tree
# is an empty tmpfs (root, unshare), the client preprocessing as usual.
# The two reports must be identical site for site (columns aside: GCC's
# own differ from a .i), and every file with a site must have been
# compiled on the helper (distccd's log): the compiles the kernel expects
# to fail (lib/test_fortify) fall back to the client, as distcc does.  Sources are
# unpacked by check-kernel (build/kernel/src-VERSION); the builds go to
# build/distcc-kernel.  Ends with "distcc-kernel: N passed, N failed".
set -u
. "$(dirname "$0")/../lib/harness.sh"
say() { echo "distcc-kernel: $*" >&2; }
fail() { say "$*"; cannot_run distcc-kernel; }
[ $# -ge 2 ] && [ -f "$2" ] || fail "usage: distcc-kernel.sh CC PLUGIN [VERSION]"
cc=$1 plugin=$2 v=${3:-6.12}
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/testsuite/kernel
src=$top/build/kernel/src-$v
work=$top/build/distcc-kernel
[ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null || fail "needs root and unshare"
command -v distccd >/dev/null || "$top/testsuite/apt-install.sh" distcc || fail "no distcc"
if [ ! -f "$src/.unpacked" ]; then
    say "unpacking Linux $v (check-kernel's build only)"
    KALLOC_KERNEL_BOOT=no "$here/check-kernel.sh" "$cc" "$plugin" "$v" >/dev/null 2>&1
fi
[ -f "$src/Makefile" ] || fail "no sources at $src"
rm -rf "$work"
mkdir -p "$work"
chmod 755 "$work"

wrapper=$work/kalloc-cc
printf '#!/bin/sh\nexec %s -fplugin=%s -fplugin-arg-kalloc-report=%s "$@"\n' \
    "$(command -v "$cc")" "$plugin" "$work/remote.jsonl" > "$wrapper"
chmod 755 "$wrapper"
echo "$wrapper" > "$work/cmdlist"
: > "$work/remote.jsonl"; chmod 666 "$work/remote.jsonl"
: > "$work/distccd.log"; chmod 666 "$work/distccd.log"

configure() { # DIR
    make -s -C "$src" O="$1" ARCH=x86_64 tinyconfig >/dev/null &&
    "$src/scripts/kconfig/merge_config.sh" -m -O "$1" "$1/.config" \
        "$here/common.config" "$here/x86_64.config" "$here/$v.config" >/dev/null &&
    make -s -C "$src" O="$1" ARCH=x86_64 olddefconfig >/dev/null
}

say "local build"
configure "$work/local" || fail "configure failed"
make -s -C "$src" O="$work/local" ARCH=x86_64 -j"$(nproc)" \
    CC="$cc -fplugin=$plugin -fplugin-arg-kalloc-report=$work/local.jsonl" \
    bzImage > "$work/local.log" 2>&1 || fail "local build failed ($work/local.log)"

say "distcc build, the helper without $src"
mkdir -p "$work/distcc"
port=39${RANDOM:0:3}
unshare -m sh -c "mount -t tmpfs none '$src' && exec env DISTCC_CMDLIST='$work/cmdlist' distccd --daemon --no-detach --allow 127.0.0.1 --listen 127.0.0.1 --port $port --log-file '$work/distccd.log' --jobs $(nproc)" &
daemon=$!
sleep 1
configure "$work/remote" || { kill $daemon; fail "configure failed"; }
DISTCC_DIR=$work/distcc DISTCC_HOSTS="127.0.0.1:$port/$(nproc)" \
    make -s -C "$src" O="$work/remote" ARCH=x86_64 -j"$(nproc)" \
    CC="distcc $wrapper" bzImage > "$work/remote.log" 2>&1
status=$?
kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null
[ $status -eq 0 ] || fail "distcc build failed ($work/remote.log)"

python3 - "$work/local.jsonl" "$work/remote.jsonl" "$work/distccd.log" "$top/testsuite/lib" <<'PY'
import json, re, sys
import os
sys.path.insert(0, sys.argv[4])
import kharness
def rows(path):
    # What a .i cannot hold is not compared: columns, and the allocator's
    # name where a macro spelled it (6.10+'s kcalloc () is
    # kmalloc_array_noprof () in the expanded text).
    out = []
    for row in kharness.report.records(path):
        row.pop("column", None)
        row.pop("allocator", None)
        out.append(json.dumps(row, sort_keys=True))
    return sorted(out)
a, b = rows(sys.argv[1]), rows(sys.argv[2])
log = open(sys.argv[3], errors="replace").read()
remote = {os.path.normpath(f) for f in
          re.findall(r"COMPILE_OK .* (\S+\.c)$", log, re.M)}
failed = {os.path.normpath(f) for f in
          re.findall(r"COMPILE_ERROR .* (\S+\.c)$", log, re.M)}
# Files with sites whose compile failed on the helper and ran again on
# the client: their sites would be the client's verdict, not the
# helper's.  (A .c file #included by another unit is never a job.)
units = {os.path.normpath(json.loads(r)["file"]) for r in a
         if '"function"' in r}
local_only = sorted(u for u in units if u in failed and u not in remote)
jobs, bad = len(remote), len(failed)
print("distcc-kernel: %d report lines locally, %d from the helper; %d files "
      "compiled on the helper, %d failed there (compiled again locally); "
      "%d .c files with sites" % (len(a), len(b), jobs, bad,
                                  len([u for u in units if u.endswith(".c")])))
for u in local_only:
    print("  compiled again on the client: " + u)
for r in a:
    if a.count(r) > b.count(r):
        print("  only local: " + r)
for r in b:
    if b.count(r) > a.count(r):
        print("  only from the helper: " + r)
ok = a == b and len(a) > 0 and jobs > 0 and not local_only
sys.exit(kharness.summary("distcc-kernel", ok, not ok))
PY
