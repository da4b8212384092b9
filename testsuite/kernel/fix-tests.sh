#!/bin/bash
# fix-tests.sh VERSION SRCDIR - correct KUnit expectations in Debian's kernel
# sources that upstream later found wrong for every compiler.  check-kernel
# runs it on the unpacked tree before any build, so the builds without and
# with the plugin compile the same test.  Each fix names the upstream commit
# that made it; none touches what a test checks of kalloc's own work.
set -eu
v=$1 src=$2

case $v in
6.12)
    # lib/overflow_kunit.c DEFINE_FLEX_test expects, with counted_by, a
    # whole-object size (bdos type 0) of an on-stack DEFINE_RAW_FLEX of
    # sizeof(struct foo) = 8, i.e. the counter (0) applied to the whole
    # object.  Neither GCC 15 nor Clang does that: both give the stack size,
    # 12, and use the counter only for pointers into the array.  Upstream
    # fixed the test in "kunit/overflow: Fix DEFINE_FLEX tests for
    # counted_by" (Kees Cook, March 2025: "GCC and Clang agree on this
    # behavior"); Debian's 6.12 predates it.  Here the whole-object
    # expectation becomes the stack size in both configurations, and the
    # check upstream added for the array itself (size 0 when the counter
    # is 0 and counted_by is on, the stack size otherwise) is added: it is
    # the one that tests counted_by, and kalloc's object sizes with it.
    f=$src/lib/overflow_kunit.c
    grep -q 'kalloc fix-tests' "$f" && exit 0
    grep -q '^	int expected_raw_size = sizeof(struct foo);$' "$f" || {
        echo "fix-tests: $f is not the expected 6.12 text" >&2; exit 1; }
    sed -i \
        -e 's/^	int expected_raw_size = sizeof(struct foo);$/	int expected_raw_size = sizeof(struct foo) + 2 * sizeof(s16); \/* kalloc fix-tests *\//' \
        -e 's/^	KUNIT_EXPECT_EQ(test, __struct_size(two_but_zero), expected_raw_size);$/&\
	KUNIT_EXPECT_EQ(test, __struct_size(two_but_zero->array),\
			IS_ENABLED(CONFIG_CC_HAS_COUNTED_BY) ? 0 : 2 * sizeof(s16)); \/* kalloc fix-tests *\//' \
        "$f"
    [ "$(grep -c 'kalloc fix-tests' "$f")" -eq 2 ] || {
        echo "fix-tests: could not correct $f" >&2; exit 1; }
    ;;
6.1)
    # lib/kunit/try-catch.c gives every KUnit case a fixed 300 s.  Under
    # TCG with KASAN, drm_mm's insert and replace cases take 275 s and
    # 296 s of it, so whether they pass is decided by the
    # host's load, not by the code: one kalloc boot timed them out with
    # instruction-identical drm_mm objects.  Upstream made the timeout
    # configurable in "kunit: Make default kunit_test timeout configurable
    # via both a module parameter and a Kconfig option" (Linux 6.17, with
    # "kunit: Adjust kunit_test timeout based on test_{suite,case} speed"),
    # and dropped these slow drm_mm cases before 6.12.  Here the fixed
    # timeout becomes 900 s in both builds; no test's checks change.
    f=$src/lib/kunit/try-catch.c
    grep -q 'kalloc fix-tests' "$f" && exit 0
    line='^	return 300 \* msecs_to_jiffies(MSEC_PER_SEC); /\* 5 min \*/$'
    grep -q "$line" "$f" || {
        echo "fix-tests: $f is not the expected 6.1 text" >&2; exit 1; }
    sed -i "s|$line|	return 900 * msecs_to_jiffies(MSEC_PER_SEC); /* kalloc fix-tests: 15 min */|" "$f"
    [ "$(grep -c 'kalloc fix-tests' "$f")" -eq 1 ] || {
        echo "fix-tests: could not correct $f" >&2; exit 1; }
    ;;
esac
exit 0
