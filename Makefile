# kalloc - build, test and demo.
#
#   make                 build plugin/kalloc.so for $(CC) (default gcc)
#   make CC=gcc-11       build it for another installed GCC
#   make check           run the DejaGnu testsuite
#   make check-gcc       run it with GCC 11, 12, 14 and 15 (chroots, root)
#   make demo            install what is missing, build, show what kalloc catches
#   make check-kernel    build Linux 6.1 and 6.12 without and with kalloc,
#                        boot them under QEMU, compare their KUnit results

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
PLUGIN := plugin/kalloc.so
SOURCES := $(wildcard plugin/*.c)
OBJECTS := $(patsubst plugin/%.c,$(BUILD)/%.o,$(SOURCES))

PLUGIN_CXXFLAGS := -fPIC -fno-rtti -fno-exceptions -O2 -g \
	-Wall -Wextra -Wno-unused-parameter -isystem $(PLUGIN_DIR)/include
PLUGIN_LDFLAGS := -shared

.PHONY: all plugin check check-gcc check-kernel demo deps clean headers-present FORCE

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

$(BUILD)/kalloc.so: $(OBJECTS)
	$(HOSTCXX) $(PLUGIN_LDFLAGS) -o $@ $^

# plugin/kalloc.so is the build for the compiler named last.
$(PLUGIN): $(BUILD)/kalloc.so FORCE
	@cmp -s $< $@ || cp $< $@

check: $(PLUGIN)
	@testsuite/run-tests "$(CC)" "$(abspath $(PLUGIN))" build/testsuite-$(CC_NAME)

# The testsuite with GCC 11, 12, 14 (trixie chroot) and 15 (sid chroot).
check-gcc:
	@testsuite/check-gcc

# Debian's Linux 6.1 and 6.12 (tinyconfig + KUnit) without and with the
# plugin, booted under QEMU; see docs/kernel.md.  Installs what is missing.
check-kernel: $(PLUGIN)
	@testsuite/kernel/check-kernel "$(CC)" "$(abspath $(PLUGIN))"

deps:
	@testsuite/install-deps "$(CC)"

demo: deps
	@$(MAKE) --no-print-directory plugin
	@docs/demo/run-demo "$(CC)" "$(abspath $(PLUGIN))"

clean:
	rm -rf build $(PLUGIN)

FORCE:
