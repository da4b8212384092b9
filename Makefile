# kalloc - build, install and test.  `make help` prints this list, the
# one list of targets (a test holds every target to it).  Tiers of checks
# (docs/testing.md): check is the README's test; check-ci is what CI runs;
# check-slow is hours of kernels, drivers, packages and peers.
#
# Build and use:
#   make                 build plugin/kalloc.so for $(CC) (default gcc)
#   make CC=gcc-11       build it for another installed GCC
#   make install         kalloc.so into $(CC)'s plugin directory (-fplugin=kalloc),
#                        kalloc.h, kalloc-report, the man page, the docs
#                        (DESTDIR, PREFIX)
#   make install-docs    the docs only, into $(PREFIX)/share/doc/kalloc
#   make uninstall       remove what make install installed
#   make deb             build/kalloc_VERSION_ARCH.deb for $(CC)
#   make report REPORT=F summarise a -fplugin-arg-kalloc-report=F file
#                        (kalloc-report summary); WRAPPERS=W also writes
#                        its wrappers as a wrapper file W for
#                        -fplugin-arg-kalloc-wrappers=W
#   make deps            install what building and make check need (apt)
#   make demo            install what is missing, build, show what kalloc catches
#   make clean           remove the plugin and build/ (its chroots, kernel
#                        trees and caches too)
#   make help            this list
#
# Tier check, minutes:
#   make check           the DejaGnu testsuite (the README's test command)
#
# Tier ci, what .ci/run runs (root: chroots, packages), under an hour:
#   make check-ci        all of this tier, then make check
#   make check-gcc       the testsuite with GCC 11 to 16 (chroots)
#   make check-cross     with the arm64 and armhf cross compilers (qemu-user)
#   make check-objsize   counted_by object sizes against GCC 15 and 16
#   make check-counted-by  GCC 15's own counted_by tests: the same errors
#                        and warnings with $(CC) + kalloc as with GCC 15
#   make check-sizes     generated size expressions (signed terms, sums,
#                        products, struct_size ()) without and with the
#                        plugin: same bytes unless the size overflows
#   make check-counters  counter stores against random well-defined uses
#   make check-instrument  every run test under each sanitizer and
#                        instrumentation option: no compiler crash
#   make check-preprocessed  every test from its source and from a .i:
#                        the same verdict
#   make check-ecosystem install, deb, ccache, distcc, icecream
#   make check-guide     the user guide's recipes (docs/guide.md), run as
#                        written: one file, autotools, CMake, a module
#                        against installed kernel headers, wrappers, suggest
#   make check-report-html  kalloc-report's HTML page in headless chromium:
#                        every site, sorting, filtering, load time
#   make check-harness   each test script fails on a broken input
#
# Tier slow, hours (root; installs Debian packages):
#   make check-slow      all of this tier, each one's verdict, then a summary
#   make check-mutants   one-line breakages of plugin/ (testsuite/mutants/
#                        mutants.list), each of which make check must catch
#   make check-valgrind  every test input, cc1 under valgrind memcheck
#   make check-torture   GCC's C torture suite without and with the plugin
#   make check-csmith    csmith random programs without and with the plugin
#   make check-distcc-kernel  a tinyconfig kernel built locally and through
#                        a distcc helper without the sources: same reports
#   make check-kernel    Linux 6.1 and 6.12 tinyconfig + KUnit without and
#                        with kalloc, booted under QEMU, results compared
#   make check-kernel-full   whole kernels: x86_64 defconfig with every KUnit
#                        suite, KASAN and UBSAN, plain and hardened, booted
#                        through KUnit and a userspace run (KERNELS=7.2
#                        CC=gcc-16 runs Linux 7.2 in the sid chroot)
#   make check-kernel-cross  Linux 6.12 on arm64 and 32-bit arm with
#                        Debian's cross compilers
#   make check-defconfig Linux 6.12 and 6.1 x86_64 defconfig in mode=check:
#                        zero warnings, recall against a source search
#                        (KERNELS=7.2 CC=gcc-16: Linux 7.2 in the sid chroot)
#   make check-dkms      Debian 12's DKMS packages (out-of-tree drivers)
#                        against its 6.1 headers without and with kalloc
#                        (DKMS_PACKAGES="a-dkms b-dkms")
#   make check-userspace Debian 12 C packages (expat, pcre2, xz...) built
#                        without and with kalloc, their own test suites
#                        compared (USERSPACE_PACKAGES="expat zlib")
#   make bench           compile-time cost, code and memory, against goals
#                        (docs/results/performance.md)
#
# Not a check:
#   make score-cocci COCCI=F  suggest's patch against upstream's Coccinelle
#                        script F (kmalloc_objs.cocci) over Linux 6.12;
#                        SCORE_ARGS=--build also builds and boots the result

# make predefines CC=cc; kalloc wants GCC unless told otherwise.
ifeq ($(origin CC),default)
CC := gcc
endif

GCC_MAJOR := $(shell $(CC) -dumpversion 2>/dev/null | cut -d. -f1)
PLUGIN_DIR := $(shell $(CC) -print-file-name=plugin 2>/dev/null)
# The plugin is host code: build it with the host g++ of the same release.
HOSTCXX ?= $(shell command -v g++-$(GCC_MAJOR) 2>/dev/null || echo g++)
CC_NAME := $(notdir $(firstword $(CC)))

BUILD := build/$(CC_NAME)
# plugin/kalloc.so is a loader (plugin/loader.c) that checks the GCC
# version and loads the plugin proper, kalloc-core.so beside it, in cc1
# only: lto1 and cc1plus lack the C front end the plugin proper needs.
PLUGIN := plugin/kalloc.so
PLUGIN_CORE := plugin/kalloc-core.so
SOURCES := $(filter-out plugin/loader.c,$(wildcard plugin/*.c))
OBJECTS := $(patsubst plugin/%.c,$(BUILD)/%.o,$(SOURCES))

# kalloc's version: help, the report, the package.
VERSION := 0.1
PLUGIN_CXXFLAGS := -fPIC -fno-rtti -fno-exceptions -O2 -g \
	-Wall -Wextra -Wno-unused-parameter -isystem $(PLUGIN_DIR)/include \
	-DKALLOC_VERSION='"$(VERSION)"' 
# cc1 carries libstdc++ (linked in statically) and exports it to plugins:
# linking libstdc++.so too would make every compile load and relocate it,
# about 4M instructions (docs/results/performance.md).
PLUGIN_LDFLAGS := -shared -nodefaultlibs
PLUGIN_LIBS := -lc -lgcc

.PHONY: all plugin install install-docs uninstall deb help check check-ci check-slow check-gcc check-cross check-objsize check-counted-by check-harness check-mutants check-sizes check-counters check-preprocessed check-instrument check-valgrind check-ecosystem check-guide check-report-html check-distcc-kernel check-torture check-csmith check-kernel check-kernel-full check-kernel-cross check-defconfig check-dkms check-userspace score-cocci report bench demo deps clean headers-present FORCE

all: plugin
plugin: $(PLUGIN)

headers-present:
	@if [ -z "$(GCC_MAJOR)" ]; then \
	  echo "kalloc: '$(CC)' is not an installed compiler"; exit 1; fi
	@if [ ! -f "$(PLUGIN_DIR)/include/gcc-plugin.h" ]; then \
	  echo "kalloc: GCC plugin headers for $(CC) are missing: apt-get install gcc-$(GCC_MAJOR)-plugin-dev"; \
	  exit 1; fi

$(BUILD)/%.o: plugin/%.c plugin/kalloc.h plugin/gcc-compat.h | headers-present
	@mkdir -p $(BUILD)
	$(HOSTCXX) $(PLUGIN_CXXFLAGS) -c $< -o $@

$(BUILD)/kalloc-core.so: $(OBJECTS) Makefile
	$(HOSTCXX) $(PLUGIN_LDFLAGS) -o $@ $(OBJECTS) $(PLUGIN_LIBS)

# The loader carries the core's checksum: a new core is a new kalloc.so
# for ccache and the scripts that key their caches on it.
$(BUILD)/loader.o: plugin/loader.c $(BUILD)/kalloc-core.so | headers-present
	$(HOSTCXX) $(PLUGIN_CXXFLAGS) \
		-DKALLOC_CORE_ID='"'"$$(sha256sum < $(BUILD)/kalloc-core.so | cut -c1-16)"'"' \
		-c $< -o $@

$(BUILD)/kalloc.so: $(BUILD)/loader.o Makefile
	$(HOSTCXX) $(PLUGIN_LDFLAGS) -o $@ $< $(PLUGIN_LIBS) -ldl

# For the loader's test (testsuite/kalloc.args/loader.exp): the loader
# built against plugin headers that name another GCC release, 10.5.0.
OTHER_GCC := $(BUILD)/other-gcc
$(OTHER_GCC)/plugin-version.h: $(PLUGIN_DIR)/include/plugin-version.h | headers-present
	@mkdir -p $(OTHER_GCC)
	sed 's/^static char basever\[\] = .*/static char basever[] = "10.5.0";/' $< > $@
$(OTHER_GCC)/kalloc.so: plugin/loader.c $(OTHER_GCC)/plugin-version.h
	$(HOSTCXX) $(PLUGIN_CXXFLAGS) -I$(OTHER_GCC) $(PLUGIN_LDFLAGS) -o $@ $< $(PLUGIN_LIBS) -ldl

# plugin/kalloc.so and kalloc-core.so are the build for the compiler
# named last.
$(PLUGIN): $(BUILD)/kalloc.so $(PLUGIN_CORE) FORCE
	@cmp -s $< $@ || cp $< $@
$(PLUGIN_CORE): $(BUILD)/kalloc-core.so FORCE
	@cmp -s $< $@ || cp $< $@

check: $(PLUGIN) $(OTHER_GCC)/kalloc.so
	@KALLOC_OTHER_GCC_PLUGIN="$(abspath $(OTHER_GCC)/kalloc.so)" \
	testsuite/run-tests.sh "$(CC)" "$(abspath $(PLUGIN))" build/testsuite-$(CC_NAME)

# Every kalloc.dg test compiled from its source and from a .i whose
# sources are out of reach (what distcc and icecream helpers compile):
# the same diagnostics and report, columns and macro-spelled allocator
# names aside.
check-preprocessed: $(PLUGIN)
	@testsuite/preprocessed/check-preprocessed.py "$(CC)" "$(abspath $(PLUGIN))" build/preprocessed-$(CC_NAME)

# Every run test compiled under each sanitizer and instrumentation option
# (TSan, ASan, KASAN, UBSan, bounds, KCOV's trace-pc/trace-cmp, gcov, -pg,
# -finstrument-functions) at -O0/-O2 in both kernel shapes: no ICE.
check-instrument: $(PLUGIN)
	@RUNTESTFLAGS="instrument.exp KALLOC_INSTRUMENT=1" \
	testsuite/run-tests.sh "$(CC)" "$(abspath $(PLUGIN))" build/instrument-$(CC_NAME)

# Every test input with report=, dump and suggest, cc1 under valgrind
# memcheck (slow: most of an hour on 2 cores).
check-valgrind: $(PLUGIN)
	@testsuite/valgrind/check-valgrind.sh "$(CC)" "$(abspath $(PLUGIN))" build/valgrind-$(CC_NAME)

# The testsuite with GCC 11, 12, 13 and 14 (trixie chroot), 15 and 16 (sid chroot).
check-gcc:
	@testsuite/check-gcc.sh

# The cross compilers (arm64, armhf), run tests under qemu-user.
check-cross:
	@testsuite/check-cross.sh

# counted_by object sizes against GCC 15's and 16's (sid chroot, root).
check-objsize: $(PLUGIN)
	@testsuite/objsize/check-objsize.sh "$(CC)" "$(abspath $(PLUGIN))"

# counted_by's diagnostics against GCC 15's native attribute: GCC's own
# tests (gcc-15-source, sid chroot, root) and kalloc.dg/counted-by-gcc15-*.
check-counted-by: $(PLUGIN)
	@testsuite/counted-by/check-counted-by-gcc15.sh "$(CC)" "$(abspath $(PLUGIN))"

# The recipes of docs/guide.md, read from it and run as written, on a
# tiny library and module made under build/guide (installs autoconf,
# automake, cmake or kernel headers if missing: root).
check-guide: $(PLUGIN)
	@testsuite/guide/check-guide.py --plugin "$(abspath $(PLUGIN))"

# kalloc-report's HTML page in Debian's chromium (installed if missing:
# root), on a planted report and on check-defconfig's Linux 6.12 report
# when it is there: every site, sorting, filtering, load time.
check-report-html:
	@testsuite/report/check-report-html.py

# Broken inputs to the test scripts: each must fail (root, sid chroot).
check-harness: $(PLUGIN)
	@testsuite/check-harness.sh
# Mutation testing: each one-line breakage of plugin/ in
# testsuite/mutants/mutants.list must make `make check` fail (not in CI:
# a build and a make check a mutant).  MUTANTS=a,b runs only those.
check-mutants:
	@testsuite/mutants/check-mutants.py "$(CC)"

# The differential test of hardened sizes (docs/rewrites.md): thousands of
# generated expressions, -O0/-O2, both kernel shapes.  SIZES_FILES,
# SIZES_EXPRS and SIZES_SEED (environment) change the run.
# Counter stores against random well-defined uses of the counter, with
# and without the plugin, plain and under AddressSanitizer.
check-counters: $(PLUGIN)
	@testsuite/counters/check-counters.py "$(CC)" "$(abspath $(PLUGIN))" build/counters-$(CC_NAME)

check-sizes: $(PLUGIN)
	@testsuite/sizes/check-sizes.py "$(CC)" "$(abspath $(PLUGIN))" build/sizes-$(CC_NAME)

# install, the Debian package, ccache and distcc (root for the package).
check-ecosystem: $(PLUGIN)
	@testsuite/ecosystem/check-ecosystem.sh "$(CC)" "$(abspath $(PLUGIN))"

# Linux 6.12 tinyconfig + KUnit built locally and through a distcc helper
# that cannot see the sources (root): identical reports.  ~15 minutes of
# 2 cores; not in CI.  docs/integration.md.
check-distcc-kernel: $(PLUGIN)
	@testsuite/ecosystem/distcc-kernel.sh "$(CC)" "$(abspath $(PLUGIN))" $(or $(KERNELS),6.12)

# Peer tests: GCC's own torture suite (gcc-N-source, installed with apt if
# missing) and csmith programs, built without and with the plugin.
check-torture: $(PLUGIN)
	@testsuite/torture/run-torture.sh "$(CC)" "$(abspath $(PLUGIN))"

check-csmith: $(PLUGIN)
	@testsuite/torture/run-csmith.sh "$(CC)" "$(abspath $(PLUGIN))" $(CSMITH_COUNT)

# Debian's Linux 6.1 and 6.12 (tinyconfig + KUnit) without and with the
# plugin, booted under QEMU; see docs/results/kernels.md.  Installs what is missing.
# KERNELS="6.12" picks versions.
# A compiler this machine lacks (CC=gcc-16) is in a Debian chroot: the
# kernel scripts build the plugin there (testsuite/kernel/args.sh).
KERNEL_PLUGIN := $(if $(shell command -v $(firstword $(CC))),$(PLUGIN))

check-kernel: $(KERNEL_PLUGIN)
	@testsuite/kernel/check-kernel.sh "$(CC)" "$(abspath $(PLUGIN))" $(KERNELS)

# Linux 6.12 cross-built with kalloc for arm64 and 32-bit arm, booted
# under qemu-system-aarch64 / qemu-system-arm (-M virt); docs/results/kernels.md.
CROSS_KERNEL_TARGETS := aarch64-linux-gnu arm-linux-gnueabihf
check-kernel-cross:
	@testsuite/check-cross.sh --install-only $(CROSS_KERNEL_TARGETS)
	@status=0; for t in $(CROSS_KERNEL_TARGETS); do \
	    $(MAKE) --no-print-directory CC=$$t-gcc-12 build/$$t-gcc-12/kalloc.so || exit 1; \
	    KALLOC_KERNEL_NO_COUNTED_BY=$${KALLOC_KERNEL_NO_COUNTED_BY:-no} \
	    KALLOC_KERNEL_TIMEOUT=$${KALLOC_KERNEL_TIMEOUT:-600} \
	    testsuite/kernel/check-kernel.sh $$t-gcc-12 "$(CURDIR)/build/$$t-gcc-12/kalloc.so" \
	        $(or $(KERNELS),6.12) || status=1; \
	done; exit $$status

# Whole kernels: Linux 6.12 and 6.1 x86_64 defconfig with every KUnit
# suite that builds, KASAN and UBSAN, without and with kalloc
# (mode=harden), booted under QEMU until KUnit is done, then a userspace
# run; hours of CPU.  KERNELS picks versions.  docs/results/kernels.md.
check-kernel-full: $(KERNEL_PLUGIN)
	@KALLOC_KERNEL_PROFILE=full testsuite/kernel/check-kernel.sh "$(CC)" "$(abspath $(PLUGIN))" $(or $(KERNELS),6.12 6.1)

# upstream's kmalloc_objs.cocci is not part of kalloc: COCCI names it.
score-cocci: $(PLUGIN)
	@if [ -z "$(COCCI)" ]; then \
	  echo "kalloc: make score-cocci COCCI=path/to/kmalloc_objs.cocci"; exit 2; fi
	@CC="$(CC)" PLUGIN="$(abspath $(PLUGIN))" testsuite/suggest/score-cocci.sh $(SCORE_ARGS) "$(COCCI)"

# Debian's Linux 6.12 and 6.1 x86_64 defconfig with the plugin in
# mode=check: no warning, recall, compile-time sample; see docs/results/kernels.md.
check-defconfig: $(KERNEL_PLUGIN)
	@testsuite/kernel/check-defconfig.sh "$(CC)" "$(abspath $(PLUGIN))" $(KERNELS)

# Debian 12's *-dkms packages built as their dkms.conf says against
# linux-headers-amd64, without and with kalloc (mode=harden, report):
# the table and triage are in docs/results/dkms.md.  Not in CI.
check-dkms: $(PLUGIN)
	@testsuite/dkms/check-dkms.sh "$(CC)" "$(abspath $(PLUGIN))" $(DKMS_PACKAGES)
# Debian 12 C packages built without and with kalloc (mode=harden), each
# package's own test suite compared; docs/results/userspace.md.  Not in CI (about
# 40 minutes); USERSPACE_PACKAGES="expat zlib" picks packages.
check-userspace: $(PLUGIN)
	@testsuite/userspace/check-userspace.py "$(CC)" "$(abspath $(PLUGIN))" $(USERSPACE_PACKAGES)

# Summarise a report=FILE report: make report REPORT=kalloc.jsonl
# (kalloc-report summary, which make install installs)
# [WRAPPERS=wrappers.txt] (the wrapper file for -fplugin-arg-kalloc-wrappers=)
report:
	@plugin/kalloc-report.py summary $(if $(WRAPPERS),--wrappers $(WRAPPERS)) $(REPORT)

# Compile-time cost on a Linux 6.12 corpus and stress units, the code kalloc
# makes against Linux 7.0's macros, memory: docs/results/performance.md.  The corpus
# is cached in build/bench; about 19 minutes on an idle 2-core machine
# (docs/results/performance.md).
bench: $(PLUGIN)
	@testsuite/bench/make-corpus.sh "$(CC)"
	@testsuite/bench/run-bench.py "$(CC)" "$(abspath $(PLUGIN))"

deps:
	@testsuite/install-deps.sh "$(CC)"

demo: deps
	@$(MAKE) --no-print-directory plugin
	@docs/demo/run-demo.sh "$(CC)" "$(abspath $(PLUGIN))"

# ---- install ---------------------------------------------------------------
# The plugin goes into the compiler's own plugin directory, where
# -fplugin=kalloc finds it by name; DESTDIR stages, PREFIX places the rest.
PREFIX ?= /usr/local
INSTALL_PLUGIN_DIR = $(DESTDIR)$(PLUGIN_DIR)
# Every page, in the tree the links between them expect.
INSTALL_DOCS := README.md NEWS.md
INSTALL_DOCS_MANUAL := $(wildcard docs/*.md docs/*.png)
INSTALL_DOCS_RESULTS := $(wildcard docs/results/*.md)

# kalloc-gcc-N runs gcc-N with the plugin: a compiler for CC=, ccache
# and distcc (whose distccd refuses -fplugin= in what it is sent).
WRAPPER := kalloc-gcc-$(GCC_MAJOR)
CC_PATH = $(shell command -v $(firstword $(CC)))

install: $(PLUGIN)
	install -d $(INSTALL_PLUGIN_DIR) $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin \
		$(DESTDIR)$(PREFIX)/share/man/man7 $(DESTDIR)$(PREFIX)/share/doc/kalloc
	install -m 0644 $(PLUGIN) $(INSTALL_PLUGIN_DIR)/kalloc.so
	install -m 0644 $(PLUGIN_CORE) $(INSTALL_PLUGIN_DIR)/kalloc-core.so
	printf '#!/bin/sh\n# %s with the kalloc plugin\nexec %s -fplugin=kalloc "$$@"\n' \
		'$(CC_PATH)' '$(CC_PATH)' > $(DESTDIR)$(PREFIX)/bin/$(WRAPPER)
	chmod 0755 $(DESTDIR)$(PREFIX)/bin/$(WRAPPER)
	sed "s/^VERSION = .*/VERSION = '$(VERSION)'/" plugin/kalloc-report.py > $(DESTDIR)$(PREFIX)/bin/kalloc-report
	chmod 0755 $(DESTDIR)$(PREFIX)/bin/kalloc-report
	install -m 0644 include/kalloc.h $(DESTDIR)$(PREFIX)/include/kalloc.h
	sed 's/"kalloc [^"]*"/"kalloc $(VERSION)"/' docs/kalloc.7 > $(DESTDIR)$(PREFIX)/share/man/man7/kalloc.7
	chmod 0644 $(DESTDIR)$(PREFIX)/share/man/man7/kalloc.7
	$(MAKE) --no-print-directory install-docs

install-docs:
	install -d $(DESTDIR)$(PREFIX)/share/doc/kalloc/docs/results
	install -m 0644 $(INSTALL_DOCS) $(DESTDIR)$(PREFIX)/share/doc/kalloc/
	install -m 0644 $(INSTALL_DOCS_MANUAL) $(DESTDIR)$(PREFIX)/share/doc/kalloc/docs/
	install -m 0644 $(INSTALL_DOCS_RESULTS) $(DESTDIR)$(PREFIX)/share/doc/kalloc/docs/results/

uninstall:
	rm -f $(INSTALL_PLUGIN_DIR)/kalloc.so $(INSTALL_PLUGIN_DIR)/kalloc-core.so \
		$(DESTDIR)$(PREFIX)/include/kalloc.h \
		$(DESTDIR)$(PREFIX)/bin/$(WRAPPER) $(DESTDIR)$(PREFIX)/bin/kalloc-report \
		$(DESTDIR)$(PREFIX)/share/man/man7/kalloc.7
	rm -rf $(DESTDIR)$(PREFIX)/share/doc/kalloc

# A Debian package for $(CC): build/kalloc_VERSION_ARCH.deb, tied to the
# exact GCC package it was built against (a plugin loads into no other).
DEB_ARCH = $(shell dpkg --print-architecture)
DEB_GCC = gcc-$(GCC_MAJOR)
DEB_GCC_VERSION = $(shell dpkg-query -W -f='$${Version}' $(DEB_GCC) 2>/dev/null)
DEB_ROOT := build/deb/root

deb: $(PLUGIN)
	rm -rf build/deb
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(DEB_ROOT)) PREFIX=/usr
	install -d $(DEB_ROOT)/DEBIAN
	printf '%s\n' \
	  'Package: kalloc' \
	  'Version: $(VERSION)' \
	  'Architecture: $(DEB_ARCH)' \
	  'Maintainer: kalloc developers <kalloc@invalid>' \
	  'Depends: $(DEB_GCC) (= $(DEB_GCC_VERSION))' \
	  'Recommends: python3' \
	  'Section: devel' \
	  'Priority: optional' \
	  'Description: GCC plugin: typed, overflow-checked kmalloc() for legacy C code' \
	  ' kalloc gives code calling the Linux kmalloc() family the guarantees of' \
	  ' Linux 7.0 kmalloc_obj()/kmalloc_objs()/kmalloc_flex() at compile time:' \
	  ' size-mismatch warnings, overflow-checked sizes, counted_by counters.' \
	  > $(DEB_ROOT)/DEBIAN/control
	dpkg-deb --root-owner-group --build $(DEB_ROOT) build/kalloc_$(VERSION)_$(DEB_ARCH).deb

clean:
	rm -rf build $(PLUGIN) $(PLUGIN_CORE)

# The comment block that opens this file, without its '#'.
help:
	@sed -n '1,/^$$/{/^$$/d;s/^# \{0,1\}//;p}' $(firstword $(MAKEFILE_LIST))

# The tiers.  check-ci stops at the first failure, as CI does, and ends
# with make check's summary line.
CI_CHECKS := check-gcc check-cross check-objsize check-counted-by \
	check-sizes check-counters check-instrument check-preprocessed \
	check-ecosystem check-guide check-report-html check-harness
check-ci:
	@set -e; for t in $(CI_CHECKS) check; do \
	  echo "== make $$t"; $(MAKE) --no-print-directory $$t; done

# check-slow runs every slow check, whatever the others give, and ends
# with one line per check and "slow: N passed, N failed".
SLOW_CHECKS := check-mutants check-valgrind check-torture check-csmith \
	check-distcc-kernel check-kernel check-kernel-full check-kernel-cross \
	check-defconfig check-dkms check-userspace bench
check-slow:
	@mkdir -p build; : > build/slow.txt; \
	for t in $(SLOW_CHECKS); do \
	  echo "== make $$t"; \
	  if $(MAKE) --no-print-directory $$t; then echo "PASS: $$t" >> build/slow.txt; \
	  else echo "FAIL: $$t" >> build/slow.txt; fi; \
	done; cat build/slow.txt; \
	p=$$(grep -c '^PASS' build/slow.txt); f=$$(grep -c '^FAIL' build/slow.txt); \
	. testsuite/lib/harness.sh; summary slow $$p $$f

FORCE:
