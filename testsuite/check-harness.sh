#!/bin/bash
# check-harness.sh - every harness check can fail: feed each test script a
# deliberately broken input (a failing apt, a missing plugin, a program
# that stops half way or exits non-zero, a .cmd file without a command, a
# missing KUnit baseline, a crashing compiler) and require that it fails,
# saying so; and the same of each piece of the shared library
# (testsuite/lib/kharness, harness.sh): a summary with a failure or no
# test, a log with kalloc's warnings, a report line that is not JSON.
# One line a case, PASS when the script failed as it must; ends with
#   harness: N passed, N failed
# Usage: testsuite/check-harness.sh [CASE-GLOB]   (root: the objsize cases
# use the sid chroot of check-gcc, made if missing)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. testsuite/lib/harness.sh
only=${1:-*}
work=$top/build/harness
rm -rf "$work"
mkdir -p "$work/bin"
passed=0 failed=0

# must_fail NAME PATTERN CMD...: CMD must exit non-zero and print (stdout
# or stderr) a line matching the extended regexp PATTERN.
must_fail() {
    local name=$1 pattern=$2 log rc
    shift 2
    # shellcheck disable=SC2053
    [[ $name == $only ]] || return 0
    log=$work/$(echo "$name" | tr -c 'A-Za-z0-9\n' -).log
    "$@" > "$log" 2>&1 </dev/null
    rc=$?
    if [ $rc -ne 0 ] && grep -qE "$pattern" "$log"; then
        echo "PASS: $name"; passed=$((passed + 1))
    else
        echo "FAIL: $name (exit $rc, see $log)"; failed=$((failed + 1))
    fi
}

# must_pass NAME CMD...: the control: the same script passes on good input.
must_pass() {
    local name=$1 log rc
    shift
    # shellcheck disable=SC2053
    [[ $name == $only ]] || return 0
    log=$work/$(echo "$name" | tr -c 'A-Za-z0-9\n' -).log
    "$@" > "$log" 2>&1 </dev/null
    rc=$?
    if [ $rc -eq 0 ]; then
        echo "PASS: $name"; passed=$((passed + 1))
    else
        echo "FAIL: $name (exit $rc, see $log)"; failed=$((failed + 1))
    fi
}

# ---- apt-install: a failed install stops the caller ----------------------
# An apt-get that fails, and one that "succeeds" without installing.
printf '#!/bin/sh\necho "E: harness: apt-get fails" >&2\nexit 100\n' > "$work/bin/apt-get"
mkdir -p "$work/apt-noop"
printf '#!/bin/sh\nexit 0\n' > "$work/apt-noop/apt-get"
chmod +x "$work/bin/apt-get" "$work/apt-noop/apt-get"
failing_apt=(env "PATH=$work/bin:$PATH")
absent=kalloc-harness-absent-package
must_fail "apt-install: apt-get fails" "could not install" \
    "${failing_apt[@]}" testsuite/apt-install.sh "$absent"
must_fail "apt-install: apt-get installs nothing" "still not installed" \
    env "PATH=$work/apt-noop:$PATH" testsuite/apt-install.sh "$absent"
must_fail "apt-install: --root is no chroot" "not a Debian chroot" \
    testsuite/apt-install.sh --root "$work/none" "$absent"
must_fail "apt-install: no package" "no package" testsuite/apt-install.sh
must_pass "apt-install: installed already" testsuite/apt-install.sh dpkg
must_fail "install-deps: compiler not installable" "could not install" \
    "${failing_apt[@]}" testsuite/install-deps.sh gcc-99
must_fail "check-gcc: compiler not installable" "gcc-99 .* 1 failed" \
    "${failing_apt[@]}" testsuite/check-gcc.sh gcc-99
if command -v setpriv >/dev/null 2>&1; then
    nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp)
    must_fail "chroot.sh: not root" "needs root" \
        "${nobody[@]}" sh -c '. testsuite/chroot.sh; ensure_chroot sid x'
    must_fail "apt-install: not root" "needs root|sudo" \
        "${nobody[@]}" testsuite/apt-install.sh "$absent"
fi
must_fail "check-cross: cross compiler not installable" "1 failed" \
    "${failing_apt[@]}" testsuite/check-cross.sh kalloc-harness-none-gnu

# ---- missing inputs --------------------------------------------------------
must_fail "run-tests: missing plugin" "kalloc: [0-9]+ passed, [1-9]" \
    env RUNTESTFLAGS="dg.exp=kmalloc-sizeof-ptr-1.c" \
    testsuite/run-tests.sh gcc "$work/none.so" "$work/run-tests"
mkdir -p "$work/run-tests-busy"
must_fail "run-tests: another run in the same directory" "another run of the testsuite is using" \
    flock "$work/run-tests-busy/.lock" testsuite/run-tests.sh gcc "$top/plugin/kalloc.so" "$work/run-tests-busy"
must_fail "check-objsize: missing plugin" "no plugin" \
    testsuite/objsize/check-objsize.sh gcc "$work/none.so"
must_fail "check-objsize: missing compiler" "no compiler" \
    testsuite/objsize/check-objsize.sh kalloc-harness-no-cc "$top/plugin/kalloc.so"
must_fail "check-kernel: missing plugin" "no plugin" \
    testsuite/kernel/check-kernel.sh gcc "$work/none.so" 6.12
must_fail "check-kernel: bad KALLOC_KERNEL_MODULES" "all or fragments, not 'bogus'" \
    env KALLOC_KERNEL_PROFILE=full KALLOC_KERNEL_MODULES=bogus \
    testsuite/kernel/check-kernel.sh gcc "$top/plugin/kalloc.so" 6.12
must_fail "check-kernel: modules=fragments without the full profile" "needs KALLOC_KERNEL_PROFILE=full" \
    env KALLOC_KERNEL_MODULES=fragments \
    testsuite/kernel/check-kernel.sh gcc "$top/plugin/kalloc.so" 6.12
must_fail "check-defconfig: missing plugin" "no plugin" \
    testsuite/kernel/check-defconfig.sh gcc "$work/none.so" 6.12
must_fail "check-sizes: missing plugin" "no plugin" \
    testsuite/sizes/check-sizes.py gcc "$work/none.so" "$work/sizes"
must_fail "check-sizes: missing compiler" "does not run" \
    testsuite/sizes/check-sizes.py kalloc-harness-no-cc "$top/plugin/kalloc.so" "$work/sizes"
must_fail "check-counters: missing plugin" "no plugin" \
    testsuite/counters/check-counters.py gcc "$work/none.so" "$work/counters"
must_fail "check-counters: missing compiler" "the program itself fails" \
    env COUNTERS_FILES=1 COUNTERS_FUNCS=3 \
    testsuite/counters/check-counters.py kalloc-harness-no-cc "$top/plugin/kalloc.so" "$work/counters"
must_fail "check-preprocessed: missing plugin" "no plugin" \
    testsuite/preprocessed/check-preprocessed.py gcc "$work/none.so" "$work/pre"
must_fail "check-valgrind: missing plugin" "no plugin" \
    testsuite/valgrind/check-valgrind.sh gcc "$work/none.so" "$work/vg"
must_fail "check-instrument: missing plugin" "kalloc: 0 passed" \
    env RUNTESTFLAGS="instrument.exp KALLOC_INSTRUMENT=1" \
    testsuite/run-tests.sh gcc "$work/none.so" "$work/instrument"
must_fail "check-ecosystem: missing plugin" "not found" \
    testsuite/ecosystem/check-ecosystem.sh gcc "$work/none.so"
must_fail "distcc-kernel: missing plugin" "usage" \
    testsuite/ecosystem/distcc-kernel.sh gcc "$work/none.so"
must_fail "run-torture: missing plugin" "not found" \
    testsuite/torture/run-torture.sh gcc "$work/none.so"
must_fail "run-csmith: missing plugin" "not found" \
    testsuite/torture/run-csmith.sh gcc "$work/none.so" 1

# ---- check-kernel's KUnit comparison ---------------------------------------
printf 'suite list ok pass:3 fail:0 skip:0 total:3\nplan: 1 suites, 1 results, complete\n' > "$work/kunit.txt"
must_pass "kunit-results: complete results" \
    testsuite/kernel/kunit-results.py check --baseline "$work/kunit.txt" "$work/kunit.txt"
must_fail "kunit-results: missing baseline (plain build failed)" "no baseline" \
    testsuite/kernel/kunit-results.py check --baseline "$work/none.txt" "$work/kunit.txt"
must_fail "kunit-results: missing results" "no results" \
    testsuite/kernel/kunit-results.py check "$work/none.txt"
printf 'suite list ok pass:3 fail:0 skip:0 total:3\nplan: 2 suites, 1 results, incomplete\n' > "$work/kunit-half.txt"
must_fail "kunit-results: boot stopped half way" "incomplete" \
    testsuite/kernel/kunit-results.py check --baseline "$work/kunit.txt" "$work/kunit-half.txt"

# check-kernel-full: a console log with KUnit, then the userspace run.
# boot_log FILE [LINE...]: one passing suite with a failing case, the
# userspace run, the extra LINEs inside it, its verdict and power-down.
boot_log() {
    local f=$1
    shift
    {
        printf 'KTAP version 1\n1..1\n    # Subtest: demo\n    1..2\n'
        printf '    ok 1 good\n    not ok 2 flaky\n# demo: pass:1 fail:1 skip:0 total:2\n'
        printf '# Totals: pass:1 fail:1 skip:0 total:2\nnot ok 1 demo\n'
        printf 'kalloc-userspace: start\n'
        for l in "$@"; do printf '%s\n' "$l"; done
    } > "$f"
}
boot_log "$work/us-clean.log" 'kalloc-userspace: done, 0 failures' '[   9.1] reboot: Power down'
testsuite/kernel/kunit-results.py parse "$work/us-clean.log" > "$work/us-clean.txt"
must_pass "kunit-results: clean userspace run, failures listed" \
    testsuite/kernel/kunit-results.py check --userspace --list-failures \
        --baseline "$work/us-clean.txt" "$work/us-clean.txt"
must_fail "kunit-results: a failed case without --list-failures" "failed: test demo.flaky" \
    testsuite/kernel/kunit-results.py check --userspace "$work/us-clean.txt"
sed 's/not ok 2 flaky/ok 2 flaky/' "$work/us-clean.log" > "$work/us-fixed.log"
testsuite/kernel/kunit-results.py parse "$work/us-fixed.log" > "$work/us-fixed.txt"
must_fail "kunit-results: a listed failure that differs from the baseline" "differs" \
    testsuite/kernel/kunit-results.py check --userspace --list-failures \
        --baseline "$work/us-clean.txt" "$work/us-fixed.txt"
boot_log "$work/us-ubsan.log" '[  8.0] UBSAN: array-index-out-of-bounds in fs/x.c:1:2' \
    'kalloc-userspace: done, 0 failures' 'reboot: Power down'
testsuite/kernel/kunit-results.py parse "$work/us-ubsan.log" > "$work/us-ubsan.txt"
must_fail "kunit-results: a UBSAN report during the userspace run" "reports during the userspace run" \
    testsuite/kernel/kunit-results.py check --userspace --list-failures "$work/us-ubsan.txt"
boot_log "$work/us-fail.log" 'kalloc-userspace: done, 2 failures' 'reboot: Power down'
testsuite/kernel/kunit-results.py parse "$work/us-fail.log" > "$work/us-fail.txt"
must_fail "kunit-results: the userspace run failed" "failures:2" \
    testsuite/kernel/kunit-results.py check --userspace --list-failures "$work/us-fail.txt"
boot_log "$work/us-hang.log" 'kalloc-userspace: done, 0 failures'
testsuite/kernel/kunit-results.py parse "$work/us-hang.log" > "$work/us-hang.txt"
must_fail "kunit-results: no power-down after the userspace run" "did not power off" \
    testsuite/kernel/kunit-results.py check --userspace --list-failures "$work/us-hang.txt"
boot_log "$work/us-none.log"
testsuite/kernel/kunit-results.py parse "$work/us-none.log" > "$work/us-none.txt"
must_fail "kunit-results: the userspace run never finished" "did not finish" \
    testsuite/kernel/kunit-results.py check --userspace --list-failures "$work/us-none.txt"
# Modules: each load and unload is a result compared with the baseline.
boot_log "$work/mod-base.log" 'kalloc-userspace: module a: loaded' \
    'kalloc-userspace: module b: load failed' 'kalloc-userspace: module c: no such device' \
    'kalloc-userspace: module a: unloaded' 'kalloc-userspace: done, 0 failures' 'reboot: Power down'
testsuite/kernel/kunit-results.py parse "$work/mod-base.log" > "$work/mod-base.txt"
must_pass "kunit-results: module results as without the plugin, failures listed" \
    testsuite/kernel/kunit-results.py check --userspace --list-failures \
        --baseline "$work/mod-base.txt" "$work/mod-base.txt"
must_fail "kunit-results: a module that failed to load, without --list-failures" \
    "failed: module load.b" testsuite/kernel/kunit-results.py check --userspace "$work/mod-base.txt"
sed 's/module a: loaded/module a: load failed/' "$work/mod-base.log" > "$work/mod-load.log"
testsuite/kernel/kunit-results.py parse "$work/mod-load.log" > "$work/mod-load.txt"
must_fail "kunit-results: a module loads only without the plugin" "differs: with plugin:    module load.a not-ok" \
    testsuite/kernel/kunit-results.py check --userspace --list-failures \
        --baseline "$work/mod-base.txt" "$work/mod-load.txt"
sed 's/module a: unloaded/module a: still loaded/' "$work/mod-base.log" > "$work/mod-left.log"
testsuite/kernel/kunit-results.py parse "$work/mod-left.log" > "$work/mod-left.txt"
must_fail "kunit-results: a module left loaded only with the plugin" "differs: with plugin:    module unload.a not-ok" \
    testsuite/kernel/kunit-results.py check --userspace --list-failures \
        --baseline "$work/mod-base.txt" "$work/mod-left.txt"

# ---- the shared library: testsuite/lib/kharness and harness.sh -------------
# The summary line every check ends with comes from one function, in
# Python (kharness.summary, also its command line) and in shell
# (harness.sh): a failure, or no test at all, fails, and both print the
# same line.  A check that cannot run (cannot_run) fails and stops.
kh=(python3 testsuite/lib/kharness)
sh_summary() { sh -c '. testsuite/lib/harness.sh; summary "$@"' sh "$@"; }
py_kharness() { python3 -c "import sys; sys.path.insert(0, 'testsuite/lib'); import kharness; $1"; }
must_fail "kharness summary: a failure" "^demo: 3 passed, 1 failed$" "${kh[@]}" summary demo 3 1
must_fail "kharness summary: no test at all" "^demo: 0 passed, 0 failed$" "${kh[@]}" summary demo 0 0
must_fail "kharness summary: skipped tests only" "^demo: 0 passed, 0 failed, 2 skipped$" \
    "${kh[@]}" summary demo 0 0 2
must_pass "kharness summary: all passed" "${kh[@]}" summary demo 3 0 2
must_fail "harness.sh summary: a failure" "^demo: 3 passed, 1 failed$" sh_summary demo 3 1
must_fail "harness.sh summary: no test at all" "^demo: 0 passed, 0 failed$" sh_summary demo 0 0
must_pass "harness.sh summary: all passed" sh_summary demo 3 0 2
# same_summary: for each count, the two print the same bytes and exit alike.
same_summary() {
    local counts a b ra rb
    for counts in "3 0" "3 1" "0 0" "0 1" "3 0 2" "0 0 2" "12 0 0"; do
        # shellcheck disable=SC2086
        a=$("${kh[@]}" summary demo $counts); ra=$?
        # shellcheck disable=SC2086
        b=$(sh_summary demo $counts); rb=$?
        echo "$counts: '$a' ($ra), '$b' ($rb)"
        [ "$a" = "$b" ] && [ "$ra" = "$rb" ] || return 1
    done
}
must_pass "summary: Python and shell print the same line, exit alike" same_summary
must_fail "harness.sh cannot_run: the check fails and stops" "^demo: 0 passed, 1 failed$" \
    sh -c '. testsuite/lib/harness.sh; cannot_run demo; echo "demo: still running"'
must_fail "kharness cannot_run: the check fails" "^demo: 0 passed, 1 failed$" \
    py_kharness 'sys.exit(kharness.cannot_run("demo", "no plugin"))'

# The Kbuild .cmd reader (kharness.kbuild_cmd, through its command line).
mkdir -p "$work/obj"
printf 'source_a.o := a.c\n' > "$work/obj/.a.o.cmd"
must_fail "kbuild_cmd: .cmd without a command" "no cmd line" \
    "${kh[@]}" cmd "$work/obj/.a.o.cmd"
must_fail "kbuild_cmd: missing .cmd" "No such file" \
    "${kh[@]}" cmd "$work/obj/.b.o.cmd"
printf 'cmd_a.o := gcc -c -o a.o a.c\n' >> "$work/obj/.a.o.cmd"
must_pass "kbuild_cmd: Linux 6.1's cmd_" "${kh[@]}" cmd "$work/obj/.a.o.cmd"
printf 'savedcmd_b.o := gcc -c -o b.o b.c\n' > "$work/obj/.b.o.cmd"
must_fail "kbuild_cmd: .cmd without a source" "no source line" \
    "${kh[@]}" source "$work/obj/.b.o.cmd"
must_pass "kbuild_cmd: Linux 6.3's savedcmd_" "${kh[@]}" cmd "$work/obj/.b.o.cmd"
must_fail "compiled-files: missing object tree" "no object tree" \
    testsuite/suggest/compiled-files.py "$work/none" "$work" gcc

# kalloc's warnings in build logs (kharness.kalloc_log): real compiles'
# logs in the C locale and in UTF-8 (typographic quotes) hold them, the
# offset warning with its file and line; GCC's own warnings are not
# kalloc's.  log_clean LOG...: no kalloc warning in the LOGs.
log_clean() {
    local w
    w=$("${kh[@]}" warnings "$@") || return 1
    [ -z "$w" ] || { echo "$w"; return 1; }
}
kl=$work/kalloc-log
mkdir -p "$kl"
printf '#include "kernel.h"\nstruct s { long a, b; };\nstruct s *f (void)\n{\n  return kmalloc (sizeof (struct s *), GFP_KERNEL);\n}\nlong *g (long *p, int n)\n{\n  return p + n * sizeof (*p);\n}\nint h (int x) { int y; return x + 1; }\n' > "$kl/drv.c"
if [ -f plugin/kalloc.so ]; then
    for loc in C C.UTF-8; do
        (cd "$kl" && LC_ALL=$loc gcc -Wall -fplugin="$top/plugin/kalloc.so" -I"$top/testsuite/include" \
            -c drv.c -o drv.o 2> "$kl/$loc.log")
    done
    (cd "$kl" && LC_ALL=C gcc -Wall -I"$top/testsuite/include" -c drv.c -o drv.o 2> "$kl/gcc.log")
    must_pass "kalloc_log: the control log has GCC's own warning" \
        sh -c 'grep "unused variable" "$1"' sh "$kl/gcc.log"
    must_pass "kalloc_log: GCC's own warnings are not kalloc's (reader)" log_clean "$kl/gcc.log"
    must_fail "kalloc_log: kalloc's warnings, C locale" "'kmalloc' allocates 8 bytes" log_clean "$kl/C.log"
    must_fail "kalloc_log: kalloc's warnings, UTF-8 quotes" "advances a .long int \*." log_clean "$kl/C.UTF-8.log"
    must_pass "kalloc_log: the offset warning's file and line, both locales" py_kharness "
for log in ('C', 'C.UTF-8'):
    found = kharness.kalloc_log.offsets(open('$kl/%s.log' % log).read(), ['$kl'], ['$kl'])
    print(log, found)
    assert found == {('drv.c', 9)}, found"
else
    echo "FAIL: kalloc_log cases (no plugin/kalloc.so: run make first)"; failed=$((failed + 1))
fi
must_fail "kalloc_log: a missing log" "No such file" "${kh[@]}" warnings "$kl/none.log"

# Reports (kharness.report): read by kalloc-report's own loader, probes
# left out as it leaves them; a line that is not JSON is said and counted.
kr=$work/kharness-report
mkdir -p "$kr"
kr_site='"line":3,"column":7,"function":"f","allocator":"kmalloc","kind":"object","rewrites":[],"warnings":[]'
{
    echo "{\"file\":\"/tmp/mod/demo.c\",$kr_site}"
    echo "{\"file\":\"/tmp/mod/demo.c\",$kr_site}"
    echo "{\"file\":\"/tmp/build/conftest.c\",$kr_site}"
    echo "{\"wrapper\":\"my_alloc\",\"file\":\"/tmp/mod/demo.c\",\"line\":1}"
} > "$kr/good.jsonl"
{ cat "$kr/good.jsonl"; echo '{"file": "/tmp/mod/cut.c", "line": 4,'; } > "$kr/cut.jsonl"
must_pass "kharness.report: kalloc-report's loader, one site, one probe" py_kharness "
import os
assert os.path.samefile(kharness.report.tool().__file__, 'plugin/kalloc-report.py')
wrappers = {}
sites, raw, probes, bad = kharness.report.load(['$kr/good.jsonl'], [], wrappers=wrappers)
print(len(sites), raw, probes, bad, sorted(wrappers))
assert (len(sites), raw, probes, bad, sorted(wrappers)) == (1, 3, 1, 0, ['my_alloc'])"
must_fail "kharness.report: a line that is not JSON" "cut.jsonl:5: not JSON" py_kharness "
counts = {}
n = len(list(kharness.report.records('$kr/cut.jsonl', counts)))
print(n, 'records,', counts.get('bad', 0), 'bad')
sys.exit(1 if counts.get('bad') else 0)"
must_fail "kharness.report: a missing report" "No such file" \
    py_kharness "list(kharness.report.records('$kr/none.jsonl'))"

# plain_and_kalloc: a program built and run without and with the plugin
# (check-counters, check-sizes).  twice_case SRC FLAGS: the two builds
# must run and print the same; FLAGS stands for the plugin's.
printf '#include <stdio.h>\n#ifndef PLANT\n#define PLANT 1\n#endif\nint main (void) { printf ("%%d\\n", PLANT); return 0; }\n' > "$kr/twice.c"
twice_case() {
    python3 - "$@" <<'PYEOF'
import sys
sys.path.insert(0, "testsuite/lib")
import kharness
got = kharness.plain_and_kalloc("gcc", "-O2", "-w", sys.argv[1], sys.argv[2])
for side, (built, p) in got.items():
    print("%s: %s, exit %d: %s" % (side, "ran" if built else "build failed",
                                   p.returncode, p.stdout.strip()[-300:]))
plain, kal = [(built, p.returncode, p.stdout) for built, p in got.values()]
sys.exit(0 if plain == kal and plain[0] else 1)
PYEOF
}
if [ -f plugin/kalloc.so ]; then
    must_pass "plain_and_kalloc: the same output with the plugin" \
        twice_case "$kr/twice.c" "-fplugin=$top/plugin/kalloc.so"
else
    echo "FAIL: plain_and_kalloc case (no plugin/kalloc.so: run make first)"; failed=$((failed + 1))
fi
must_fail "plain_and_kalloc: another output with the flags" "kalloc: ran, exit 0: 2" \
    twice_case "$kr/twice.c" "-DPLANT=2"
must_fail "plain_and_kalloc: the build with the flags fails" "kalloc: build failed" \
    twice_case "$kr/twice.c" "-fplugin=$work/none.so"

# ---- recall: what check-defconfig counts as an explained miss --------------
# A kernel object compiled with the plugin (its site in the report), a
# host program (HOSTCC: no -D__KERNEL__, no plugin), a kernel object
# compiled without the plugin, and a report that lost a site the pass saw.
# recall_ok REPORT: recall over the fake build must end with 0 unexplained.
rc_src=$work/recall/src rc_obj=$work/recall/obj
mkdir -p "$rc_src" "$rc_obj"
printf '#include "kernel.h"\nstruct s { long a, b; };\nstruct s *f (void)\n{\n  return kmalloc (sizeof (struct s), GFP_KERNEL);\n}\n' > "$rc_src/drv.c"
cp "$rc_src/drv.c" "$rc_src/drv2.c"
printf '#include <stdlib.h>\nvoid *g (size_t n)\n{\n  return malloc (n);\n}\n' > "$rc_src/host.c"
rc_cmd() {    # NAME FLAGS
    printf 'source_%s.o := %s/%s.c\ncmd_%s.o := gcc %s -I%s/testsuite/include -c -o %s.o %s/%s.c\n' \
        "$1" "$rc_src" "$1" "$1" "$2" "$top" "$1" "$rc_src" "$1" > "$rc_obj/.$1.o.cmd"
}
recall_ok() {
    local text
    text=$(testsuite/kernel/recall.py --obj "$rc_obj" --src "$rc_src" --jobs 1 "$1") ||
        { echo "$text"; return 1; }
    echo "$text"
    echo "$text" | grep -q ', 0 unexplained$'
}
if [ -f plugin/kalloc.so ]; then
    rc_cmd drv "-D__KERNEL__ -fplugin=$top/plugin/kalloc.so"
    rc_cmd host "-O2"
    (cd "$rc_obj" && gcc -D__KERNEL__ -fplugin="$top/plugin/kalloc.so" \
        -fplugin-arg-kalloc-report="$work/recall/report.jsonl" \
        -I"$top/testsuite/include" -c -o drv.o "$rc_src/drv.c")
    : > "$work/recall/empty.jsonl"
    must_pass "recall: a host program is explained" recall_ok "$work/recall/report.jsonl"
    must_fail "recall: a site the pass saw, not in the report" "1 unexplained" \
        recall_ok "$work/recall/empty.jsonl"
    rc_cmd drv2 "-D__KERNEL__"
    must_fail "recall: a kernel object compiled without the plugin" "1 unexplained" \
        recall_ok "$work/recall/report.jsonl"
else
    echo "FAIL: recall cases (no plugin/kalloc.so: run make first)"; failed=$((failed + 1))
fi

# ---- the crash classifier of run-torture and run-csmith ---------------------
# classify EXPECTED RC TEXT: classify_build of RC and a log holding TEXT
# must say EXPECTED.
classify() {
    echo "$3" > "$work/classify.out"
    ( . testsuite/torture/peer.sh
      classify_build "$2" "$work/classify.out"
      echo "b_status=$b_status"
      [ "$b_status" = "$1" ] )
}
crash_text="t.c:3:1: internal compiler error: Segmentation fault"
must_fail "classify: an ICE is not ok" "b_status=ice" classify ok 1 "$crash_text"
must_fail "classify: a signal is not ok" "b_status=ice" classify ok 139 ""
must_fail "classify: a timeout is not ok" "b_status=timeout" classify ok 124 ""
must_pass "classify: an ICE is an ICE" classify ice 1 "$crash_text"

# ---- check-objsize: a run that stops half way, a failing program -----------
# fake-cc MODE: the real compile with the plugin, then the program is
# wrapped: "exit" prints everything and exits 3, "half" prints the first
# half of its lines and exits 0, "changed" prints one value changed.
cat > "$work/bin/objsize-cc" <<'EOF'
#!/bin/sh
mode=$(basename "$0" | sed 's/^objsize-cc-//')
out=""; prev=""
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
gcc "$@" || exit $?
mv "$out" "$out.real"
case $mode in
    exit) printf '#!/bin/sh\n"%s"\nexit 3\n' "$out.real" ;;
    half) printf '#!/bin/sh\n"%s" > "%s.all"\nhead -n $(($(wc -l < "%s.all") / 2)) "%s.all"\n' "$out.real" "$out" "$out" "$out" ;;
    changed) printf '#!/bin/sh\n"%s" | sed "1s/ [-0-9]*$/ 4242/"\n' "$out.real" ;;
esac > "$out"
chmod +x "$out"
EOF
chmod +x "$work/bin/objsize-cc"
for mode in exit half changed; do
    ln -sf objsize-cc "$work/bin/objsize-cc-$mode"
done
objsize=(env OBJSIZE_PROGRAMS=1 OBJSIZE_OPTS=-O2 OBJSIZE_REFS=gcc-15
         testsuite/objsize/check-objsize.sh)
if [ -f plugin/kalloc.so ]; then
    must_fail "check-objsize: program exits 3" "exited with status 3" \
        "${objsize[@]}" "$work/bin/objsize-cc-exit" "$top/plugin/kalloc.so"
    must_fail "check-objsize: program stops half way" "objsize: 0 passed, 1 failed" \
        "${objsize[@]}" "$work/bin/objsize-cc-half" "$top/plugin/kalloc.so"
    must_fail "check-objsize: one value differs" "with gcc-15, 1 differences" \
        "${objsize[@]}" "$work/bin/objsize-cc-changed" "$top/plugin/kalloc.so"
    must_pass "check-objsize: the real program" \
        "${objsize[@]}" gcc "$top/plugin/kalloc.so"
else
    echo "FAIL: check-objsize cases (no plugin/kalloc.so: run make first)"; failed=$((failed + 1))
fi

# ---- check-dkms: a run's table from broken results -------------------------
# A fake run directory as check-dkms leaves it (testsuite/dkms/dkms-table.py):
# one package whose plain build was never run, one whose kalloc build
# failed, one built without the plugin on its compiles, one with a warning
# nobody triaged, and the control, which passes.
dkms=$work/dkms
fake_dkms_pkg() {    # NAME PLAIN-STATUS KALLOC-STATUS PLUGIN-ON-COMPILE
    local d=$dkms/run/$1 b
    mkdir -p "$d"
    [ -n "$2" ] || return 0
    echo "$2" > "$d/plain.status"
    echo "$3" > "$d/kalloc.status"
    : > "$d/kalloc.log"
    b=$d/kalloc/$1/1.0/build
    mkdir -p "$b"
    printf 'source_%s/drv.o := %s/drv.c\ncmd_%s/drv.o := gcc %s -c drv.c\n' \
        "$b" "$b" "$b" "$4" > "$b/.drv.o.cmd"
    : > "$d/report.jsonl"
}
if [ -f plugin/kalloc.so ]; then
    rm -rf "$dkms"
    dkplugin=$top/plugin/kalloc.so
    fake_dkms_pkg good-dkms "built 1 modules" "built 1 modules" "-fplugin=$dkplugin"
    fake_dkms_pkg unrun-dkms "" "" ""
    fake_dkms_pkg kfail-dkms "built 1 modules" "failed: make" "-fplugin=$dkplugin"
    fake_dkms_pkg noplugin-dkms "built 1 modules" "built 1 modules" ""
    fake_dkms_pkg warned-dkms "built 1 modules" "built 1 modules" "-fplugin=$dkplugin"
    wb=$dkms/run/warned-dkms/kalloc/warned-dkms/1.0/build
    printf '#include "kernel.h"\nstruct s { long a, b; };\nstruct s *f (void) { return kmalloc (sizeof (struct s *), GFP_KERNEL); }\n' > "$wb/drv.c"
    gcc -fplugin="$dkplugin" -fplugin-arg-kalloc-report="$dkms/run/warned-dkms/report.jsonl" \
        -I"$top/testsuite/include" -c "$wb/drv.c" -o "$wb/drv.o" 2> "$dkms/warned.log"
    : > "$dkms/triaged"
    dktable=(python3 testsuite/dkms/dkms-table.py --run "$dkms/run" --triaged "$dkms/triaged" --plugin "$dkplugin")
    must_pass "dkms-table: a package built with the plugin" "${dktable[@]}" good-dkms
    must_fail "dkms-table: a package never built" "FAIL unrun-dkms: not run" "${dktable[@]}" good-dkms unrun-dkms
    must_fail "dkms-table: kalloc build failed" "FAIL kfail-dkms: kalloc build: failed" "${dktable[@]}" kfail-dkms
    must_fail "dkms-table: plugin not on the compile" "plugin missing on 1 of 1" "${dktable[@]}" noplugin-dkms
    must_fail "dkms-table: an untriaged warning" "untriaged warning at drv.c:3" "${dktable[@]}" warned-dkms
    echo "warned-dkms drv.c:3 true-bug harness" > "$dkms/triaged"
    must_pass "dkms-table: the warning triaged" "${dktable[@]}" warned-dkms
    must_fail "dkms-table: no package built plain" "no package built plain" "${dktable[@]}" unrun-dkms
else
    echo "FAIL: dkms-table cases (no plugin/kalloc.so: run make first)"; failed=$((failed + 1))
fi
must_fail "check-dkms: missing plugin" "no plugin" \
    testsuite/dkms/check-dkms.sh gcc "$work/none.so"

# ---- check-userspace: its verdict on broken builds and test logs -----------
# userspace_case FUNCTION ARGS...: check-userspace's FUNCTION on the JSON
# arguments; prints what it returns and fails when that is a problem
# (a non-empty list from judge (), None from a parser).
userspace_case() {
    python3 - "$@" <<'PYEOF'
import json, sys
sys.path.insert(0, "testsuite/lib")
import kharness
cu = kharness.load_script("testsuite/userspace/check-userspace.py", "cu")
args = [json.loads(a) for a in sys.argv[2:]]
result = getattr(cu, sys.argv[1])(*args)
print("result: %r" % (result,))
failed = bool(result) if sys.argv[1] == "judge" else result is None
sys.exit(1 if failed else 0)
PYEOF
}
ok='{"built": true, "tests": {"t1": "PASS", "t2": "PASS"}, "ice": 0}'
must_pass "userspace judge: identical suites" userspace_case judge '"p"' "$ok" "$ok" 3 '[]' '{}'
must_fail "userspace judge: a test fails with kalloc" "new failures: t2 .PASS -> FAIL" \
    userspace_case judge '"p"' "$ok" '{"built": true, "tests": {"t1": "PASS", "t2": "FAIL"}, "ice": 0}' 3 '[]' '{}'
must_fail "userspace judge: a test missing with kalloc" "t2 .PASS -> missing" \
    userspace_case judge '"p"' "$ok" '{"built": true, "tests": {"t1": "PASS"}, "ice": 0}' 3 '[]' '{}'
must_fail "userspace judge: no test summary" "no test-suite summary" \
    userspace_case judge '"p"' "$ok" '{"built": true, "tests": null, "ice": 0}' 3 '[]' '{}'
must_fail "userspace judge: kalloc build failed" "kalloc build failed" \
    userspace_case judge '"p"' "$ok" '{"built": false, "tests": null, "ice": 1}' 3 '[]' '{}'
must_fail "userspace judge: the plugin found nothing" "no site" \
    userspace_case judge '"p"' "$ok" "$ok" 0 '[]' '{}'
must_fail "userspace judge: an untriaged warning" "untriaged warning at a.c:7" \
    userspace_case judge '"p"' "$ok" "$ok" 3 '["a.c:7"]' '{}'
must_pass "userspace parse_ctest: a whole run" \
    userspace_case parse_ctest '"Test  #1: a ....   Passed    0.01 sec\n100% tests passed, 0 tests failed out of 1\n"'
must_fail "userspace parse_ctest: a run cut short" "result: None" \
    userspace_case parse_ctest '"Test  #1: a ....   Passed    0.01 sec\n100% tests passed, 0 tests failed out of 2\n"'
must_fail "userspace parse_automake: a TOTAL without its .trs files" "result: None" \
    userspace_case parse_automake "\"$work\"" '"# TOTAL: 4\n"'
must_fail "check-userspace: missing plugin" "userspace: 0 passed, 1 failed" \
    python3 testsuite/userspace/check-userspace.py gcc "$work/none.so" zlib

# ---- report tool: probes by what they are, not where they live -----------
# kalloc-report (plugin/kalloc-report.py): a module built under /tmp is
# real code, configure's, CMake's and Kbuild's probes are not; a report
# it cannot read, or that holds no record, is an error that says so.
probe_report=$work/probes.jsonl
site='"line":3,"column":7,"function":"f","allocator":"kmalloc","kind":"object","pointee":"struct a","count":null,"counter":null,"counter_left":null,"rewrites":[],"warnings":["object"]'
{
    echo "{\"file\":\"/tmp/mod/demo.c\",$site}"
    echo "{\"file\":\"/tmp/build/conftest.c\",$site}"
    echo "{\"file\":\"/home/me/lib/CMakeFiles/CMakeScratch/TryCompile-x/CheckFunctionExists.c\",$site}"
    echo "{\"file\":\"<stdin>\",$site}"
} > "$probe_report"
report_tool=plugin/kalloc-report.py
must_pass "report tool: a module in /tmp is real, three probes are not" \
    sh -c "$report_tool summary '$probe_report' | tee /dev/stderr | grep -q 'entries: 4 (3 from compiler probes)' && $report_tool summary '$probe_report' | grep -q 'unique sites: 1 ' && $report_tool list '$probe_report' | grep -qx '/tmp/mod/demo.c:3: kmalloc object - object'"
must_fail "report tool: the module counted as a probe" "unique sites: 0" \
    sh -c "$report_tool summary '$probe_report' | grep 'unique sites' && sed -i 's|/tmp/mod/demo.c|/tmp/mod/conftest.c|' '$probe_report' && $report_tool summary '$probe_report' | grep 'unique sites: 0' && false"
must_fail "report tool: a missing report" "no-such-report.jsonl: cannot read the report: No such file" \
    $report_tool summary "$work/no-such-report.jsonl"
must_fail "report tool: a directory for a report" "cannot read the report: Is a directory" \
    $report_tool list "$work"
: > "$work/empty.jsonl"
must_fail "report tool: an empty report" "empty.jsonl: empty report: no record" \
    $report_tool summary "$work/empty.jsonl"
must_fail "report tool: an empty report among good ones" "empty.jsonl: empty report: no record" \
    $report_tool summary --brief "$probe_report" "$work/empty.jsonl"
must_fail "report tool: the page of an empty report" "empty report: no record" \
    $report_tool html -o "$work/empty.html" "$work/empty.jsonl"
must_fail "report tool: compare with an empty report" "empty report: no record" \
    $report_tool compare "$probe_report" "$work/empty.jsonl"

# ---- report-html: kalloc-report's page in a browser -------------------------
# check-report-html on the planted report (chromium, installed if
# missing), and on a page whose sort or filter is broken.
must_pass "report-html: the planted report's page sorts and filters" \
    testsuite/report/check-report-html.py --planted-only
must_fail "report-html: a page that does not sort" "FAIL: .*the rows in sort order" \
    env KALLOC_REPORT_HTML_PLANT=sort testsuite/report/check-report-html.py --planted-only
must_fail "report-html: a page that does not filter" "FAIL: .*the filter leaves" \
    env KALLOC_REPORT_HTML_PLANT=filter testsuite/report/check-report-html.py --planted-only

# ---- typed-identical: typed-only units compile to the same object ----------
# Two object trees of one unit with a typed call only: identical passes; a
# changed object fails naming the section; a report without typed-only
# units (nothing compared) fails.
ti=$work/typed-identical
mkdir -p "$ti/src/lib" "$ti/plain/lib" "$ti/kalloc/lib"
printf 'int f (void) { return 1; }\n' > "$ti/src/lib/a.c"
printf 'int f (void) { return 2; }\n' > "$ti/src/lib/b.c"
gcc -c -o "$ti/plain/lib/a.o" "$ti/src/lib/a.c" && cp "$ti/plain/lib/a.o" "$ti/kalloc/lib/a.o"
printf '{"file":"%s","line":1,"allocator":"kmalloc","kind":"object","typed":true,"unit":"%s"}\n' \
    "$ti/src/lib/a.c" "$ti/src/lib/a.c" > "$ti/typed.jsonl"
printf '{"file":"%s","line":1,"allocator":"kmalloc","kind":"object","unit":"%s"}\n' \
    "$ti/src/lib/a.c" "$ti/src/lib/a.c" > "$ti/legacy.jsonl"
must_pass "typed-identical: the same object" \
    testsuite/kernel/typed-identical.py --report "$ti/typed.jsonl" --src "$ti/src" "$ti/plain" "$ti/kalloc"
mkdir -p "$ti/changed/lib" && gcc -c -o "$ti/changed/lib/a.o" "$ti/src/lib/b.c"
must_fail "typed-identical: a changed object" "lib/a.c: differs in .*\\.text" \
    testsuite/kernel/typed-identical.py --report "$ti/typed.jsonl" --src "$ti/src" "$ti/plain" "$ti/changed"
must_fail "typed-identical: no typed-only unit" "0 units with typed calls only" \
    testsuite/kernel/typed-identical.py --report "$ti/legacy.jsonl" --src "$ti/src" "$ti/plain" "$ti/kalloc"

# ---- check-guide: the guide's recipes, read from the guide ----------------
# A planted copy of docs/guide.md whose one-file Expect line the compiler
# does not print, one without the one-file recipe's marker, one with a
# marked block no check runs, and a convert Expect line the patch does not
# write: each must fail.  A PATH without cmake (apt-install finds the
# package installed, the command still missing): the CMake recipe fails,
# it is not skipped.
guide=(testsuite/guide/check-guide.py --work "$work/guide")
# plant NAME SED-SCRIPT: docs/guide.md through SED-SCRIPT, which must change it.
plant() {
    sed "$2" docs/guide.md > "$work/guide-$1.md"
    cmp -s docs/guide.md "$work/guide-$1.md" &&
        echo "harness: the planted guide $1 is docs/guide.md unchanged" > "$work/guide-$1.md"
}
plant expect 's/^    foo\.c:7:25: warning:/    foo.c:7:24: warning:/'
plant unmarked '/^<!-- recipe: one-file -->$/d'
plant stray 's/^<!-- expect: one-file -->$/<!-- recipe: stray -->\n    true\n\n&/'
plant convert 's/^\(    \tstruct foo \*q = \)kzalloc_objs/\1kcalloc_objs/'
mkdir -p "$work/no-cmake"
for d in /bin /usr/bin /usr/local/bin; do
    find "$d/" -maxdepth 1 ! -type d -exec ln -sf -t "$work/no-cmake" {} +
done
rm -f "$work/no-cmake/cmake" "$work/no-cmake/ctest"
must_pass "check-guide: one-file and convert as the guide writes them" \
    "${guide[@]}" --only one-file,convert
must_fail "check-guide: an Expect line the compiler does not print" \
    "FAIL: one-file: the warning: got .*the guide says foo.c:7:24:" \
    "${guide[@]}" --guide "$work/guide-expect.md" --only one-file
must_fail "check-guide: the one-file recipe not marked" \
    "FAIL: one-file: .* no block marked <!-- recipe: one-file -->" \
    "${guide[@]}" --guide "$work/guide-unmarked.md" --only one-file
must_fail "check-guide: a marked recipe no check runs" "recipe stray: no check runs it" \
    "${guide[@]}" --guide "$work/guide-stray.md" --only one-file
must_fail "check-guide: a converted line the patch does not write" \
    "FAIL: convert: drv.c has no line .*kcalloc_objs" \
    "${guide[@]}" --guide "$work/guide-convert.md" --only convert
must_fail "check-guide: no check ran" "FAIL: kalloc-harness-none: no such check" \
    "${guide[@]}" --only kalloc-harness-none
must_fail "check-guide: cmake missing" "FAIL: cmake: (cmake ctest not found|needs cmake)" \
    env "PATH=$work/no-cmake" "${guide[@]}" --only cmake

summary harness "$passed" "$failed"
