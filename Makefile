# kalloc - build, test and demo.
#
#   make                 build plugin/kalloc.so for $(CC) (default gcc)
#   make CC=gcc-11       build it for another installed GCC
#   make check           run the DejaGnu testsuite
#   make check-gcc       run it with GCC 11, 12, 14 and 15 (chroots, root)
#   make check-torture   GCC's C torture suite without and with the plugin
#   make check-csmith    csmith random programs without and with the plugin
#   make demo            install what is missing, build, show what kalloc catches

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

.PHONY: all plugin check check-gcc check-torture check-csmith demo deps clean headers-present FORCE

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

# Peer tests: GCC's own torture suite (gcc-N-source, installed with apt if
# missing) and csmith programs, built without and with the plugin.
check-torture: $(PLUGIN)
	@testsuite/torture/run-torture "$(CC)" "$(abspath $(PLUGIN))"

check-csmith: $(PLUGIN)
	@testsuite/torture/run-csmith "$(CC)" "$(abspath $(PLUGIN))" $(CSMITH_COUNT)

deps:
	@testsuite/install-deps "$(CC)"

demo: deps
	@$(MAKE) --no-print-directory plugin
	@docs/demo/run-demo "$(CC)" "$(abspath $(PLUGIN))"

clean:
	rm -rf build $(PLUGIN)

FORCE:
