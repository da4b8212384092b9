#!/bin/bash
# score-cocci.sh - kalloc's suggest patch against upstream's own Coccinelle
# conversion, over the same compiled files of a real kernel.
#
# Usage: testsuite/suggest/score-cocci.sh [--build] [--baseline KUNIT.TXT] COCCI
#   COCCI       upstream's scripts/coccinelle/api/kmalloc_objs.cocci (Linux
#               7.0; not in Debian's 6.12 tree and not part of kalloc: pass
#               its path)
#   --build     also check that kalloc's patch builds and works: apply it
#               to a copy of the tree, build that without the plugin, boot
#               it under QEMU and compare its KUnit results with the
#               unconverted build's (booted too, unless --baseline gives a
#               kunit-results file of that build)
# Environment: CC (default gcc), PLUGIN (default plugin/kalloc.so),
#   KALLOC_SCORE_JOBS (parallel jobs, default 2), KALLOC_SCORE_TIMEOUT
#   (boot seconds, default 150), KALLOC_SCORE_OBJ (an object tree of the
#   same configuration already built, instead of build/score/plain/obj),
#   KALLOC_SCORE_PASS=naming (kalloc's pass over the C files that name an
#   allocator only, not all compiled files).
#
# The kernel is the one check-kernel builds: Debian's linux-source-6.12,
# ARCH=x86_64 tinyconfig plus testsuite/kernel/{common,x86_64,6.12}.config,
# fix-tests applied.  Everything is under build/score/:
#   src-6.12/           the unpacked sources (never edited but by fix-tests)
#   plain/              the build without the plugin (obj/, logs; with
#                       --build boot.log and kunit.txt)
#   files.txt           the C files it compiled (from obj/**/.*.o.cmd)
#   suggest/diag/       each of them compiled again by its own command line
#                       with -fplugin-arg-kalloc-suggest -fplugin-arg-kalloc-
#                       suggest-keep-gfp -fdiagnostics-generate-patch: the
#                       diagnostics, one file each
#   kalloc.patch        kalloc's patch, GFP_KERNEL kept as upstream's script
#                       keeps it, each hunk once
#   cocci/              spatch's output for each compiled file and header
#                       that names an allocator; cocci.patch all of it
#   hunks.txt, score.txt  the comparison (hunks compare); score.txt ends
#                       with "score: ..." and is printed
#   With --build: kalloc-default.patch (kalloc's patch as users get it,
#   GFP_KERNEL dropped), converted/{src,obj,boot.log,kunit.txt,check.txt}.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
kernel=$top/testsuite/kernel

build_too=0 baseline=
while [ $# -gt 0 ]; do
    case $1 in
        --build) build_too=1; shift ;;
        --baseline) baseline=$2; shift 2 ;;
        -*) echo "score-cocci: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    sed -n '4,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
cocci=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -n "$baseline" ] && baseline=$(cd "$(dirname "$baseline")" && pwd)/$(basename "$baseline")

cc=${CC:-gcc}
plugin=${PLUGIN:-$top/plugin/kalloc.so}
case $plugin in /*) ;; *) plugin=$top/$plugin ;; esac
jobs=${KALLOC_SCORE_JOBS:-2}
boot_timeout=${KALLOC_SCORE_TIMEOUT:-150}
v=6.12
arch=x86_64
out=$top/build/score
src=$out/src-$v
mkdir -p "$out"

say() { echo "score-cocci: $*" >&2; }
die() { say "$*"; exit 1; }

[ -f "$plugin" ] || die "no plugin at $plugin (run make first)"
command -v spatch > /dev/null || die "spatch is missing (apt-get install coccinelle)"
[ -f /usr/src/linux-source-$v.tar.xz ] || die "no /usr/src/linux-source-$v.tar.xz (apt-get install linux-source-$v)"

# ---- Sources --------------------------------------------------------------
# unpack DIR: a fresh copy of the 6.12 sources with fix-tests applied.
unpack() {
    local dir=$1 tmp=$1.tmp
    rm -rf "$dir" "$tmp"
    mkdir -p "$tmp"
    tar -xf /usr/src/linux-source-$v.tar.xz -C "$tmp" &&
        mv "$tmp/linux-source-$v" "$dir" && rmdir "$tmp" &&
        "$kernel/fix-tests.sh" "$v" "$dir"
}
if [ ! -f "$src/.unpacked" ]; then
    say "unpacking linux-source-$v"
    unpack "$src" || die "cannot unpack the sources"
    touch "$src/.unpacked"
fi

# ---- Configure and build ----------------------------------------------------
# kmake SRC OBJ CC ARGS...
kmake() {
    local s=$1 o=$2 c=$3
    shift 3
    make -C "$s" O="$o" ARCH=$arch CC="$c" "$@"
}

# build SRC DIR CC: tinyconfig + check-kernel's fragments, then bzImage,
# objects in DIR/obj, logs in DIR.
build() {
    local s=$1 dir=$2 c=$3 f frags=
    for f in common $arch $v; do frags="$frags $kernel/$f.config"; done
    rm -rf "$dir/obj"
    mkdir -p "$dir/obj"
    {
        kmake "$s" "$dir/obj" "$c" tinyconfig &&
        "$s/scripts/kconfig/merge_config.sh" -m -O "$dir/obj" "$dir/obj/.config" $frags &&
        kmake "$s" "$dir/obj" "$c" olddefconfig
    } > "$dir/config.log" 2>&1 || { say "configuration failed, see $dir/config.log"; return 1; }
    nice -n 10 make -C "$s" O="$dir/obj" ARCH=$arch CC="$c" -j"$jobs" bzImage \
        > "$dir/build.log" 2>&1 || {
        say "build failed, see $dir/build.log"
        tail -n 20 "$dir/build.log" | sed 's/^/    /' >&2
        return 1
    }
}

# The object tree: the build without the plugin (also the baseline of
# --build), made once while the compiler, configuration and sources stay.
key=$( { $cc --version | head -n 1; cat "$kernel"/{common,$arch,$v}.config;
         sha256sum < "$kernel/fix-tests.sh"; stat -c %s-%Y /usr/src/linux-source-$v.tar.xz; } | sha256sum | cut -c1-16)
plain=$out/plain
objtree=${KALLOC_SCORE_OBJ:-$plain/obj}
if [ -n "${KALLOC_SCORE_OBJ:-}" ]; then
    [ -f "$objtree/.config" ] || die "no object tree at $objtree"
elif [ "$(cat "$plain/build.key" 2>/dev/null)" != "$key" ]; then
    say "building $v without the plugin (-j$jobs)"
    mkdir -p "$plain"
    rm -f "$plain/build.key" "$plain/kunit.txt"
    build "$src" "$plain" "$cc" || exit 1
    echo "$key" > "$plain/build.key"
else
    say "reusing the build in $plain"
fi
# The target's C files (host programs are compiled without -nostdinc).
"$here/compiled-files.py" "$objtree" "$src" -nostdinc > "$out/files.txt" ||
    die "cannot list the compiled files"
nfiles=$(wc -l < "$out/files.txt")
[ "$nfiles" -gt 0 ] || die "no compiled files found in $objtree"

# ---- kalloc's patch ---------------------------------------------------------
# Every compiled file again, with its own command line and kalloc's
# suggest, GFP_KERNEL kept as upstream's script keeps it; redone when the
# plugin changes.  The plugin is copied first: rebuilding it during the
# run must not change it under the compiler.
kdir=$out/suggest
# KALLOC_SCORE_PASS=naming: only the files that name an allocator
# themselves (a quarter of them, for a loaded machine); a header's calls
# then get kalloc's fix-its only from such a file.
names='\b(kv?[mz]alloc|kv?malloc_array|kv?calloc)\b'
pass_files=
if [ "${KALLOC_SCORE_PASS:-all}" = naming ]; then
    pass_files=$(cut -f1 "$out/files.txt" | (cd "$src" && xargs grep -lE "$names"))
fi
pkey=$( { sha256sum < "$plugin"; echo "$key ${KALLOC_SCORE_PASS:-all}"; } | sha256sum | cut -c1-16)
suggest="-fplugin-arg-kalloc-suggest -fdiagnostics-generate-patch"
# With --build, kalloc's patch as users get it (GFP_KERNEL dropped) is
# made alongside: the same files without suggest-keep-gfp.
default_pass() {
    local dkey
    dkey=$( { echo default; echo "$pkey"; } | sha256sum | cut -c1-16)
    [ "$(cat "$out/default/key" 2>/dev/null)" = "$dkey" ] && return 0
    rm -rf "$out/default"
    mkdir -p "$out/default"
    cp "$plugin" "$(dirname "$plugin")/kalloc-core.so" "$out/default/"
    # shellcheck disable=SC2086
    "$here/suggest-pass.py" "$objtree" "$out/files.txt" "$out/default/diag" "$jobs" $pass_files -- \
        -fplugin="$out/default/kalloc.so" $suggest &&
        echo "$dkey" > "$out/default/key"
}
default_pid=
if [ "$build_too" = 1 ]; then
    default_pass &
    default_pid=$!
fi
if [ "$(cat "$kdir/key" 2>/dev/null)" != "$pkey" ]; then
    say "compiling ${pass_files:+the $(echo "$pass_files" | wc -w) of }$nfiles files${pass_files:+ that name an allocator} with kalloc's suggest (-j$jobs)"
    rm -rf "$kdir"
    mkdir -p "$kdir"
    cp "$plugin" "$(dirname "$plugin")/kalloc-core.so" "$kdir/"
    # shellcheck disable=SC2046
    "$here/suggest-pass.py" "$objtree" "$out/files.txt" "$kdir/diag" "$jobs" $pass_files -- \
        -fplugin="$kdir/kalloc.so" $suggest -fplugin-arg-kalloc-suggest-keep-gfp ||
        die "kalloc's pass failed"
    echo "$pkey" > "$kdir/key"
else
    say "reusing kalloc's fix-its in $kdir"
fi
# GCC prints the patch after a file's diagnostics: from its first "--- ".
for f in "$kdir"/diag/*.err; do
    sed -n '/^--- /,$p' "$f"
done > "$out/kalloc-raw.patch"
"$here/hunks.py" merge "$src" "$out/kalloc-raw.patch" > "$out/kalloc.patch" ||
    die "cannot merge kalloc's patch"

# ---- upstream's patch -------------------------------------------------------
# spatch with the options the script's header names, per compiled file,
# with the include paths and forced includes of that file's compile.
# Results are kept per file while the .cocci stays the same (the sources
# never change).
ckey=$( { sha256sum < "$cocci"; spatch --version | head -n 1; } | sha256sum | cut -c1-16)
if [ "$(cat "$out/cocci/key" 2>/dev/null)" != "$ckey" ]; then
    rm -rf "$out/cocci"
    mkdir -p "$out/cocci"
    echo "$ckey" > "$out/cocci/key"
fi
# Only the files that name an allocator can have a hunk: the compiled C
# files and the headers of the tree they read.
"$here/compiled-files.py" --headers "$objtree" "$src" -nostdinc > "$out/read-files.txt" ||
    die "cannot list the headers"
cut -f1 "$out/read-files.txt" | (cd "$src" && xargs grep -lE "$names") > "$out/cocci-files.list"
awk -F'\t' 'NR == FNR { want[$0]; next } $1 in want' "$out/cocci-files.list" \
    "$out/read-files.txt" > "$out/cocci-files.txt"
ncocci=$(wc -l < "$out/cocci-files.txt")
say "running spatch over the $ncocci files that name an allocator (-j$jobs)"
cocci_one() {
    local path=$1 args=$2 log
    log=$out/cocci/$(printf '%s' "$path" | sed 's|/|%|g')
    [ "$(cat "$log.rc" 2>/dev/null)" = 0 ] && return
    # shellcheck disable=SC2086
    (cd "$src" && nice -n 10 timeout 600 spatch --very-quiet --sp-file "$cocci" -D patch \
        --include-headers-for-types --all-includes --include-headers --keep-comments \
        $args "$path") > "$log.patch" 2> "$log.err"
    echo $? > "$log.rc"
}
export -f cocci_one
export out src cocci
cut -f1,3 "$out/cocci-files.txt" | tr '\t' '\n' | xargs -d '\n' -n 2 -P "$jobs" bash -c 'cocci_one "$1" "$2"' _
# The files of the list, not ones left from an earlier configuration.
cocci_files() {
    cut -f1 "$out/cocci-files.txt" | sed -e 's|/|%|g' -e "s|^|$out/cocci/|" -e "s|\$|.$1|"
}
failed_spatch=$(cocci_files rc | xargs grep -L '^0$' 2>/dev/null | wc -l)
[ "$failed_spatch" -eq 0 ] || say "spatch failed on $failed_spatch files (see $out/cocci/*.err)"
cocci_files patch | xargs cat > "$out/cocci-raw.patch"
"$here/hunks.py" merge "$src" "$out/cocci-raw.patch" > "$out/cocci.patch" ||
    die "cannot merge upstream's patch"

# ---- The score ----------------------------------------------------------------
# Upstream's hunks that kalloc did not make, in lines the preprocessor
# left out for this configuration (spatch reads every #if branch), are
# not compiled code: listed apart.
compare() {
    "$here/hunks.py" compare --label-a upstream --label-b kalloc "$@" "$src" \
        "$out/cocci.patch" "$out/kalloc.patch"
}
compare --only-a-places > "$out/only-upstream.txt" || die "cannot compare the patches"
"$here/compiled-lines.py" "$objtree" "$src" "$out/files.txt" < "$out/only-upstream.txt" \
    > "$out/not-compiled.txt" || die "cannot preprocess the files"
compare --not-compiled "$out/not-compiled.txt" > "$out/hunks.txt" ||
    die "cannot compare the patches"
{
    cat "$out/hunks.txt"
    echo "score: $nfiles compiled C files of Linux $v (x86_64 tinyconfig + check-kernel's KUnit config), spatch failed on $failed_spatch;" \
        "$(sed -n 's/^hunks: //p' "$out/hunks.txt")"
} > "$out/score.txt"
grep -v '^hunks: ' "$out/score.txt"

[ "$build_too" = 1 ] || exit 0

# ---- Does kalloc's patch build and work? ----------------------------------------
# kalloc's patch as users get it (GFP_KERNEL dropped), from the pass
# started above.
wait "$default_pid" || die "kalloc's pass failed, see $out/default/diag"
for f in "$out"/default/diag/*.err; do
    sed -n '/^--- /,$p' "$f"
done > "$out/kalloc-default-raw.patch"
"$here/hunks.py" merge "$src" "$out/kalloc-default-raw.patch" > "$out/kalloc-default.patch" ||
    die "cannot merge kalloc's patch"

# boot DIR: QEMU (TCG; KVM hangs here); no init, so the kernel panics once
# KUnit is done, panic=-1 reboots and -no-reboot ends QEMU.
boot() {
    local dir=$1
    timeout -k 10 "$boot_timeout" qemu-system-x86_64 -machine accel=tcg -m 256 \
        -kernel "$dir/obj/arch/x86/boot/bzImage" -nographic -no-reboot \
        -append "console=ttyS0 panic=-1 kunit.enable=1 kunit.filter=speed>slow" \
        < /dev/null > "$dir/boot.log" 2>&1
    "$kernel/kunit-results.py" parse "$dir/boot.log" > "$dir/kunit.txt"
}

if [ -z "$baseline" ]; then
    [ -n "${KALLOC_SCORE_OBJ:-}" ] && die "--build with KALLOC_SCORE_OBJ needs --baseline"
    if [ ! -s "$plain/kunit.txt" ]; then
        say "booting the unconverted tree"
        boot "$plain"
    fi
    baseline=$plain/kunit.txt
fi

say "applying kalloc's patch to a copy of the tree"
conv=$out/converted
rm -rf "$conv"
mkdir -p "$conv"
# Hard links: patch(1) writes each file it changes anew.
cp -al "$src" "$conv/src" || die "cannot copy the tree"
patch -d "$conv/src" -p1 --no-backup-if-mismatch < "$out/kalloc-default.patch" > "$conv/patch.log" ||
    die "kalloc's patch does not apply, see $conv/patch.log"
say "building and booting the converted tree (without the plugin)"
build "$conv/src" "$conv" "$cc" || exit 1
boot "$conv"
"$kernel/kunit-results.py" check --baseline "$baseline" "$conv/kunit.txt" > "$conv/check.txt"
rc=$?
echo "converted: $(grep -c '^+++ ' "$out/kalloc-default.patch") files patched," \
    "$(sed -n 's/^totals: //p' "$conv/check.txt"), $(sed -n 's/^verdict: //p' "$conv/check.txt")" |
    tee -a "$out/score.txt"
grep -v '^totals:\|^verdict:' "$conv/check.txt" | sed 's/^/  /' | tee -a "$out/score.txt"

# The conversion must not bring a compiler warning: the
# converted build's warnings, file and text without line numbers, that the
# unconverted build (without the plugin, the same configuration) lacks.
warnings_of() {
    grep -E '(warning|error): ' "$1" 2>/dev/null |
        sed -E 's/^([^:]*):[0-9]+:[0-9]+:/\1:/' | sort -u
}
warnings_of "$conv/build.log" > "$conv/warnings.txt"
if [ -f "$plain/build.log" ]; then
    warnings_of "$plain/build.log" > "$plain/warnings.txt"
else
    : > "$plain/warnings.txt"
fi
comm -23 "$conv/warnings.txt" "$plain/warnings.txt" > "$conv/new-warnings.txt"
nnew=$(wc -l < "$conv/new-warnings.txt")
echo "converted: $nnew compiler warnings the unconverted build does not have" | tee -a "$out/score.txt"
sed 's/^/  /' "$conv/new-warnings.txt" | tee -a "$out/score.txt"
[ "$nnew" -eq 0 ] || rc=1
exit $rc
