#!/bin/bash
# check-defconfig.sh - kalloc at scale: build Debian's Linux 6.12 and 6.1 as
# ARCH=x86_64 defconfig (vmlinux and modules, CONFIG_WERROR off so every
# warning is seen) with the plugin in mode=check and its report on, and
# require zero kalloc warnings.  Then measure what was found
# (kalloc-report summary), what a source search finds that the report lacks
# (recall) and the compile-time cost on a sample of the files
# (time-sample).  Not in CI: a build takes 30-60 minutes on 2 cores.
#
# Usage: testsuite/kernel/check-defconfig.sh [CC [PLUGIN [VERSION...]]]
#   CC        the compiler (default gcc); PLUGIN must be built for it
#   PLUGIN    kalloc.so (default plugin/kalloc.so)
#   VERSION   6.12, 6.1 (default both, in that order)
# Environment:
#   KALLOC_DEFCONFIG_JOBS    make -j (default: number of CPUs)
#   KALLOC_DEFCONFIG_NICE    nice level of the builds (default 10)
#   KALLOC_DEFCONFIG_SAMPLE  files in the compile-time sample (default 100,
#                            0: none)
#   KALLOC_DEFCONFIG_REBUILD=1  rebuild even when the cached build matches
#
# Per kernel, under build/defconfig/VERSION/: kalloc.so (the copy the build
# used, so that rebuilding the plugin meanwhile changes nothing), obj/,
# config.log, build.log, times, report.jsonl, report.txt (kalloc-report summary),
# warnings.txt (kalloc's warnings, from the log), recall.txt,
# time-sample.txt.  Sources are unpacked from /usr/src/linux-source-V.tar.xz
# (package linux-source-V, installed with apt when missing) into
# build/defconfig/src-V.  The last line is
#   defconfig: N passed, N failed
# one check per kernel: vmlinux built, no compiler crash, no kalloc warning,
# no unexplained recall miss.
set -u
. "$(dirname "$0")/args.sh"
kernel_args defconfig "6.12 6.1" "$@"
out=$top/build/defconfig
jobs=${KALLOC_DEFCONFIG_JOBS:-$(nproc 2>/dev/null || echo 2)}
nice_level=${KALLOC_DEFCONFIG_NICE:-10}
sample=${KALLOC_DEFCONFIG_SAMPLE:-100}
rebuild=${KALLOC_DEFCONFIG_REBUILD:-0}
mkdir -p "$out"

say() { echo "check-defconfig: $*" >&2; }

# One run at a time: a second one would delete the first's objects.
exec 9> "$out/.lock"
if ! flock -n 9; then
    say "another check-defconfig is running in $out"
    cannot_run defconfig
fi

unpack() {
    local v=$1 src=$out/src-$1 tarball=/usr/src/linux-source-$1.tar.xz
    [ -f "$tarball" ] || "$top/testsuite/apt-install.sh" "linux-source-$v" >&2 ||
        { say "no $tarball, and linux-source-$v could not be installed"; return 1; }
    [ -f "$src/Makefile" ] && [ -f "$src/.unpacked" ] && return 0
    say "unpacking $tarball"
    rm -rf "$src" "$out/tmp-$v"
    mkdir -p "$out/tmp-$v"
    tar -xf "$tarball" -C "$out/tmp-$v" &&
        mv "$out/tmp-$v/linux-source-$v" "$src" && rmdir "$out/tmp-$v" &&
        touch "$src/.unpacked"
}

# kalloc's warnings in a build log: the one reader, testsuite/lib/kharness/kalloc_log.py.
kalloc_warnings() { python3 "$here/../lib/kharness" warnings "$@"; }

# control V DIR: the build's own command line for kernel/kthread.c, on a
# file with four known bugs (a pointer's size, a pointer-sized element,
# a wrong type of the same size, an offset scaled twice), must give
# kalloc's four warnings: the harness would see a warning of any kind if
# there were one.
control() {
    local dir=$1 cmdf=$1/obj/kernel/.kthread.o.cmd src cmd tmp n
    [ -f "$cmdf" ] || return 1
    src=$(python3 "$here/../lib/kharness" source "$cmdf")
    cmd=$(python3 "$here/../lib/kharness" cmd "$cmdf")
    cmd=${cmd%%"$src"*}
    [ -n "$cmd" ] || { echo "no command line in $cmdf" > "$dir/control.log"; return 1; }
    tmp=$(mktemp -d)
    cat > "$tmp/control.c" <<'EOC'
#include <linux/slab.h>
struct control { long a, b, c; };
struct other { long x, y, z; };
struct control *control(int n);
struct control *control(int n)
{
	struct control *p = kmalloc(sizeof(p), GFP_KERNEL);
	struct control *q = kcalloc(n, sizeof(q), GFP_KERNEL);
	struct control *r = kzalloc(sizeof(struct other), GFP_KERNEL);
	long *t = kmalloc(4 * sizeof(*t), GFP_KERNEL);
	long *u = t + sizeof(*t);

	*u = 0;
	kfree(t);
	kfree(q);
	kfree(r);
	return p;
}
EOC
    cmd=$(echo "$cmd" | sed "s|-Wp,-MMD,[^ ]*||; s|-fplugin-arg-kalloc-report=[^ ]*||; s| -o [^ ]*| -o $tmp/control.o|")
    (cd "$dir/obj" && eval "$cmd $tmp/control.c") > "$dir/control.log" 2>&1
    n=$(kalloc_warnings "$dir/control.log" | wc -l)
    rm -rf "$tmp"
    [ "$n" -eq 4 ]
}

passed=0 failed=0
for v in $versions; do
    dir=$out/$v src=$out/src-$v
    unpack "$v" || { failed=$((failed + 1)); continue; }
    mkdir -p "$dir"
    key="$cc $(sha256sum < "$plugin" | cut -c1-16)"
    if [ "$rebuild" = 1 ] || [ ! -f "$dir/built" ] || [ "$(cat "$dir/built")" != "$key" ]; then
        rm -rf "$dir/obj" "$dir/built" "$dir/report.jsonl"
        cp "$plugin" "$(dirname "$plugin")/kalloc-core.so" "$dir/"
        cc_line="$cc -fplugin=$dir/kalloc.so -fplugin-arg-kalloc-mode=check -fplugin-arg-kalloc-report=$dir/report.jsonl"
        say "$v: configuring (x86_64 defconfig, CONFIG_WERROR off)"
        {
            make -C "$src" O="$dir/obj" ARCH=x86_64 CC="$cc_line" $hostcc_arg defconfig &&
            "$src/scripts/config" --file "$dir/obj/.config" --disable WERROR &&
            make -C "$src" O="$dir/obj" ARCH=x86_64 CC="$cc_line" $hostcc_arg olddefconfig
        } > "$dir/config.log" 2>&1 || { say "$v: configuration failed, see $dir/config.log"; failed=$((failed + 1)); continue; }
        say "$v: building vmlinux and modules (-j$jobs, nice $nice_level); log in $dir/build.log"
        start=$(date +%s)
        TIMEFORMAT="real %R user %U sys %S"
        { time nice -n "$nice_level" make -C "$src" O="$dir/obj" ARCH=x86_64 CC="$cc_line" $hostcc_arg \
            -k -j"$jobs" vmlinux modules > "$dir/build.log" 2>&1; } 2> "$dir/times"
        echo "wall $(( $(date +%s) - start ))" >> "$dir/times"
        echo "$key" > "$dir/built"
    fi

    # ---- what the build gave ------------------------------------------------
    ok=1
    [ -f "$dir/obj/vmlinux" ] || { say "$v: no vmlinux"; ok=0; }
    if grep -q 'internal compiler error' "$dir/build.log"; then
        say "$v: compiler crashes:"; grep 'internal compiler error' "$dir/build.log" | sort -u | head >&2; ok=0
    fi
    control "$dir" || { say "$v: the control file did not give kalloc's 4 warnings (see $dir/control.log)"; ok=0; }
    kalloc_warnings "$dir/build.log" | sort -u > "$dir/warnings.txt"
    files=$(find "$dir/obj" -name '.*.o.cmd' -exec grep -l '^source_.*\.c$' {} + | wc -l)
    "$top/plugin/kalloc-report.py" summary --srcdir "$src" "$dir/report.jsonl" > "$dir/report.txt"
    nwarn=$(wc -l < "$dir/warnings.txt")
    nreport=$(grep -c '^    warning: ' "$dir/report.txt")
    [ "$nwarn" -eq 0 ] && [ "$nreport" -eq 0 ] || { say "$v: $nwarn kalloc warnings in the log, $nreport warned sites in the report"; ok=0; }

    say "$v: recall (source search against the report)"
    nice -n "$nice_level" "$here/recall.py" --obj "$dir/obj" --src "$src" --jobs "$jobs" \
        --json "$dir/recall.jsonl" "$dir/report.jsonl" > "$dir/recall.txt" 2>&1
    grep -q ', 0 unexplained$' "$dir/recall.txt" || { say "$v: unexplained recall misses"; ok=0; }

    if [ "$sample" -gt 0 ]; then
        say "$v: compile time of $sample files without and with kalloc"
        nice -n "$nice_level" "$here/time-sample.py" --count "$sample" --repeat 2 \
            "$dir/obj" > "$dir/time-sample.txt" 2>&1
    fi

    echo "== Linux $v x86_64 defconfig, kalloc mode=check"
    echo "compiled C files: $files; build: $(head -1 "$dir/times")"
    cat "$dir/report.txt"
    echo "kalloc warnings in the build log: $nwarn"
    sed 's/^/  /' "$dir/warnings.txt"
    cat "$dir/recall.txt"
    [ "$sample" -gt 0 ] && tail -1 "$dir/time-sample.txt"
    if [ "$ok" = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
summary defconfig "$passed" "$failed"
