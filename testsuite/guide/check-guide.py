#!/usr/bin/env python3
"""check-guide.py - docs/guide.md's recipes, run as the guide writes them.

    testsuite/guide/check-guide.py [--guide FILE] [--plugin SO] [--work DIR]
                                   [--only NAME,...] [--list]

The recipes come from the guide itself, never from a copy: a code block
(indented or fenced) on the line after an HTML comment

    <!-- recipe: NAME -->

is a recipe, run with bash -e -x exactly as it stands, from a scratch
directory under DIR (default build/guide), with the variables the guide
uses set: KALLOC (this checkout) and PLUGIN (--plugin, default
$KALLOC/plugin/kalloc.so), in the C locale, with no make, compiler or
kbuild variables inherited from the caller (a reader's fresh shell).  A
block after <!-- expect: NAME --> is text the guide says a recipe prints
or writes, compared as text.

Each check below runs one or more recipes, creates first what the guide
says the reader brings (a library's source, a module's source), and
then checks what the guide promises: the warning lines, the report's
sites, the library's own tests, the patch.  A check whose tools are
missing installs them with testsuite/apt-install.sh, and fails, saying so,
when it cannot.  A check whose recipe is not marked in the guide fails;
so does a recipe marked in the guide that no check runs.

The module checks build against the installed kernel headers of the
running kernel; when those are missing they take the newest installed
headers built with the GCC release `gcc` is (installing the
distribution's linux-headers-ARCH if none is), and write its release for
$(uname -r), as the guide tells the reader to.

One line a check, PASS or FAIL with the reason (the logs are in
DIR/NAME/), then "guide: N passed, N failed"; exits 1 on any failure or
when no check ran.  --only runs the named checks; --list prints them.
"""
import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "testsuite", "lib"))
import kharness  # noqa: E402

MARK = re.compile(r"^( *)<!-- (recipe|expect): ([a-z0-9][a-z0-9-]*) -->\s*$")
TRACE = "+ [guide] "
TIMEOUT = 900

# What a reader's fresh shell does not have: the caller's make (whose
# MAKEFLAGS carry its command-line variables into every make below),
# compiler and kbuild variables.
STRIP_ENV = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "GNUMAKEFLAGS",
             "MAKEFILES", "MAKE_TERMOUT", "MAKE_TERMERR", "CC", "CXX", "CPP",
             "CFLAGS", "CPPFLAGS", "CXXFLAGS", "LDFLAGS", "LIBS", "KCFLAGS",
             "KCPPFLAGS", "KBUILD_OUTPUT", "ARCH", "CROSS_COMPILE", "LLVM",
             "CMAKE_GENERATOR", "CMAKE_BUILD_TYPE", "LANGUAGE", "LC_MESSAGES",
             "LC_CTYPE", "GCC_COLORS")


class Failure(Exception):
    """What makes a check fail: the reason, one line."""


# ---- the guide --------------------------------------------------------------

def read_block(lines, i, indent):
    """The code block starting at lines[i] (which must start one), for a
    marker indented INDENT: its text and the index after it, or None."""
    if i >= len(lines):
        return None, i
    line = lines[i]
    m = re.match(r"^( {0,%d})(```+|~~~+)" % (indent + 3), line)
    if m:
        fence, strip = m.group(2), len(m.group(1))
        body = []
        i += 1
        while i < len(lines) and not lines[i].lstrip().startswith(fence):
            body.append(lines[i][strip:] if lines[i][:strip].strip() == "" else lines[i].lstrip())
            i += 1
        return "\n".join(body) + "\n", i + 1
    pad = " " * (indent + 4)
    if not line.startswith(pad) or not line.strip():
        return None, i
    body = []
    while i < len(lines) and (lines[i].startswith(pad) or not lines[i].strip()):
        body.append(lines[i][len(pad):] if lines[i].strip() else "")
        i += 1
    while body and not body[-1]:
        body.pop()
        i -= 1
    return "\n".join(body) + "\n", i


def parse_guide(path):
    """{'recipe': {NAME: (TEXT, LINE)}, 'expect': {...}} and the errors."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    marks = {"recipe": {}, "expect": {}}
    errors = []
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        if not m:
            i += 1
            continue
        kind, name, where = m.group(2), m.group(3), i + 1
        text, i = read_block(lines, i + 1, len(m.group(1)))
        if text is None:
            errors.append("%s:%d: %s %s: no code block on the next line" % (path, where, kind, name))
        elif name in marks[kind]:
            errors.append("%s:%d: %s %s: marked twice (first at line %d)"
                          % (path, where, kind, name, marks[kind][name][1]))
        else:
            marks[kind][name] = (text, where)
    return marks, errors


# ---- running a recipe ---------------------------------------------------------

class Run:
    """One recipe's run: its exit status, its output (stdout and stderr
    in order, bash's trace lines included), and that output cut at each
    top-level command."""

    def __init__(self, name, rc, out):
        self.name, self.rc, self.out = name, rc, out
        self.lines = out.splitlines()
        self.segments = []            # [command, [output lines]]
        for line in self.lines:
            if line.startswith(TRACE):
                self.segments.append([line[len(TRACE):], []])
            elif re.match(r"^\+\+ \[guide\] ", line):
                continue              # a command substitution's trace
            elif self.segments:
                self.segments[-1][1].append(line)

    def output(self):
        return [l for s in self.segments for l in s[1]]

    def commands(self, pattern):
        """The segments whose command matches PATTERN."""
        return [s for s in self.segments if re.search(pattern, s[0])]


class Check:
    def __init__(self, name, args, marks, work):
        self.name, self.args, self.marks = name, args, marks
        self.dir = os.path.join(work, name)
        self.src = os.path.join(self.dir, "src")
        self.subst = []
        self.notes = []
        self.used = set()
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.src)

    def text(self, kind, name):
        if name not in self.marks[kind]:
            raise Failure("%s has no block marked <!-- %s: %s -->"
                          % (rel(self.args.guide), kind, name))
        self.used.add((kind, name))
        return self.marks[kind][name][0]

    def expect(self, name):
        return self.text("expect", name).splitlines()

    def env(self):
        env = {k: v for k, v in os.environ.items() if k not in STRIP_ENV}
        env.update(KALLOC=TOP, PLUGIN=self.args.plugin, LC_ALL="C", LANG="C")
        return env

    def run(self, name):
        """Runs recipe NAME from the scratch source directory; fails the
        check if it exits non-zero."""
        text = self.text("recipe", name)
        for old, new in self.subst:
            text = text.replace(old, new)
        script = os.path.join(self.dir, name + ".sh")
        with open(script, "w") as f:
            f.write("# recipe %s of docs/guide.md (line %d), run with bash -e -x\n"
                    "PS4='%s'\nset -e -x\n%s"
                    % (name, self.marks["recipe"][name][1], TRACE, text))
        log = os.path.join(self.dir, name + ".log")
        proc = subprocess.Popen(["bash", script], cwd=self.src, env=self.env(),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        try:
            out, _ = proc.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
            with open(log, "wb") as f:
                f.write(out)
            raise Failure("recipe %s: no end after %d s (%s)" % (name, TIMEOUT, rel(log)))
        out = out.decode("utf-8", "replace")
        with open(log, "w") as f:
            f.write(out)
        r = Run(name, proc.returncode, out)
        if r.rc != 0:
            last = r.segments[-1][0] if r.segments else "?"
            raise Failure("recipe %s: exit %d at '%s' (%s)" % (name, r.rc, last, rel(log)))
        return r

    def need(self, tools):
        """TOOLS: {command: package}; installs the packages of missing ones."""
        missing = sorted({p for c, p in tools.items() if not shutil.which(c)})
        if not missing:
            return
        install(missing)
        still = [c for c in tools if not shutil.which(c)]
        if still:
            raise Failure("%s not found although testsuite/apt-install.sh %s succeeded"
                          % (" ".join(still), " ".join(missing)))

    def write(self, files, root=None):
        for name, text in files.items():
            path = os.path.join(root or self.src, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)


def install(packages):
    """testsuite/apt-install.sh PACKAGES, or the check fails saying why."""
    p = subprocess.run([os.path.join(TOP, "testsuite", "apt-install.sh")] + packages,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        why = (p.stdout.strip().splitlines() or ["no output"])[-1]
        raise Failure("needs %s; testsuite/apt-install.sh failed: %s" % (" ".join(packages), why))


def rel(path):
    return os.path.relpath(path, TOP) if path.startswith(TOP + os.sep) else path


def sh(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, env={k: v for k, v in os.environ.items() if k not in STRIP_ENV})
    if p.returncode != 0:
        raise Failure("%s: exit %d: %s" % (" ".join(cmd), p.returncode,
                                           (p.stdout.strip().splitlines() or [""])[-1]))
    return p.stdout


# ---- what the checks look at --------------------------------------------------

WARNING = re.compile(r"^(\S+?):(\d+):(\d+): warning: (.*)$")


def warnings(lines):
    """The warning lines among LINES, with GCC's UTF-8 quotes as ASCII."""
    return [l.replace("\u2018", "'").replace("\u2019", "'")
            for l in lines if WARNING.match(l)]


def same_lines(what, got, want):
    if got != want:
        raise Failure("%s: got %s, the guide says %s" % (what, show(got), show(want)))


def show(lines):
    return "nothing" if not lines else " | ".join(lines)


def warned_at(lines, files, numbers, allocators):
    """The warnings of LINES: exactly one at each FILES[i]:NUMBERS[i],
    ALLOCATORS[i] 'allocates 8 bytes, the size of a pointer', no other."""
    got = warnings(lines)
    want = sorted(zip(files, numbers, allocators))
    seen = []
    for w in got:
        m = WARNING.match(w)
        seen.append((os.path.basename(m.group(1)), int(m.group(2)),
                     (re.match(r"'(\w+)' allocates 8 bytes, the size of a pointer", m.group(4))
                      or re.match(r"()", "")).group(1)))
    if sorted(seen) != want:
        raise Failure("warnings: got %s, want %s" % (
            show(got), show(["%s:%d: '%s' allocates 8 bytes, the size of a pointer" % w
                             for w in want])))


def line_of(text, needle):
    for n, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return n
    raise AssertionError(needle)


def report_sites(path, root):
    """The sites of report PATH in files under ROOT: {(file, line): warned}."""
    if not os.path.exists(path):
        raise Failure("no report %s" % rel(path))
    sites = {}
    counts = {}
    for rec in kharness.report.records(path, counts):
        # A file name as the compile was given it: absolute, or
        # relative to the build's directory, the source directory here.
        full = os.path.normpath(os.path.join(root, rec.get("file") or ""))
        if "wrapper" in rec or not full.startswith(root + os.sep):
            continue
        if re.search(r"conftest\.c$|/CMakeFiles/", full):
            continue
        key = (os.path.relpath(full, root), rec["line"])
        sites[key] = sites.get(key, False) or bool(rec.get("warnings"))
    if counts.get("bad"):
        raise Failure("%s: %d lines that are not JSON" % (rel(path), counts["bad"]))
    return sites


def check_report(run, path, root, want):
    """The report file lists exactly the sites WANT ({(file, line):
    warned}) under ROOT, and `make report` printed each warned one."""
    got = report_sites(path, root)
    if got != want:
        raise Failure("report %s: sites %s, want %s" % (rel(path), fmt_sites(got), fmt_sites(want)))
    out = run.output()
    for (fname, line), warned in want.items():
        if warned and not any(re.search(r"^\s+warning: (\S*/)?%s:%d: " % (re.escape(fname), line), l)
                              for l in out):
            raise Failure("make report does not list the warning at %s:%d" % (fname, line))
    if not any(re.search(r"unique sites: %d in " % len(want), l) for l in out):
        raise Failure("make report does not count %d unique sites" % len(want))


def fmt_sites(sites):
    return "{%s}" % ", ".join("%s:%d%s" % (f, l, " (warned)" if w else "")
                              for (f, l), w in sorted(sites.items()))


def wrapper_line(path, name, where):
    """The wrapper file PATH has the line 'NAME:size' with a comment naming WHERE."""
    if not os.path.exists(path):
        raise Failure("no wrapper file %s" % rel(path))
    with open(path) as f:
        lines = f.read().splitlines()
    if not any(re.match(r"^%s:size\s+#.*\b%s:\d+" % (name, re.escape(where)), l) for l in lines):
        raise Failure("%s: no line '%s:size  # %s:LINE...': %s" % (rel(path), name, where, show(lines)))


# ---- what the reader brings ---------------------------------------------------

TINY_H = """\
#include <stddef.h>

struct tiny { long a, b, c; };

struct tiny *tiny_new(void);
struct tiny *tiny_bad(void);
struct tiny *tiny_wrapped(void);
void *xzalloc(size_t size);
"""
TINY_C = """\
#include <stdlib.h>
#include "tiny.h"

/* Right. */
struct tiny *tiny_new(void)
{
	struct tiny *p = malloc(sizeof(*p));

	return p;
}

/* The legacy bug: the size of the pointer. */
struct tiny *tiny_bad(void)
{
	struct tiny *p = malloc(sizeof(p));

	return p;
}

/* The same bug through xalloc.c's wrapper: the two-pass build finds it. */
struct tiny *tiny_wrapped(void)
{
	struct tiny *p = xzalloc(sizeof(p));

	return p;
}
"""
XALLOC_C = """\
#include <stdlib.h>
#include <string.h>
#include "tiny.h"

void *xzalloc(size_t size)
{
	void *p = malloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}
"""
TINY_TEST_C = """\
#include <stdio.h>
#include <stdlib.h>
#include "tiny.h"

int main(void)
{
	struct tiny *p = tiny_new();

	if (!p)
		return 1;
	p->c = 3;
	free(p);
	puts("tiny-test: ok");
	return 0;
}
"""
TINY_SOURCES = {"tiny.h": TINY_H, "tiny.c": TINY_C, "xalloc.c": XALLOC_C,
                "tiny-test.c": TINY_TEST_C}
AUTOTOOLS = {
    "configure.ac": """\
AC_INIT([tiny], [1.0])
AM_INIT_AUTOMAKE([foreign])
AC_PROG_CC
AC_PROG_RANLIB
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
""",
    "Makefile.am": """\
noinst_LIBRARIES = libtiny.a
libtiny_a_SOURCES = tiny.c xalloc.c tiny.h
check_PROGRAMS = tiny-test
tiny_test_LDADD = libtiny.a
TESTS = tiny-test
""",
}
CMAKE = {
    "CMakeLists.txt": """\
cmake_minimum_required(VERSION 3.13)
project(tiny C)
enable_testing()
add_library(tiny STATIC tiny.c xalloc.c)
add_executable(tiny-test tiny-test.c)
target_link_libraries(tiny-test tiny)
add_test(NAME tiny-test COMMAND tiny-test)
""",
}
L_NEW = line_of(TINY_C, "malloc(sizeof(*p))")
L_BAD = line_of(TINY_C, "malloc(sizeof(p))")
L_WRAPPED = line_of(TINY_C, "xzalloc(sizeof(p))")
# The library's sites in one build: xzalloc()'s own malloc (size) is the
# wrapper's body, not a site.
TINY_SITES = {("tiny.c", L_NEW): False, ("tiny.c", L_BAD): True}

MOD_DRV_C = """\
#include <linux/module.h>
#include <linux/slab.h>

struct tiny { long a, b, c; };

void *tiny_zalloc(size_t size);

static struct tiny *bad, *good, *wrapped;

static int __init tinydrv_init(void)
{
	bad = kmalloc(sizeof(bad), GFP_KERNEL);		/* the bug */
	good = kzalloc(sizeof(*good), GFP_KERNEL);	/* right */
	wrapped = tiny_zalloc(sizeof(wrapped));		/* the bug, through a wrapper */
	return 0;
}

static void __exit tinydrv_exit(void)
{
	kfree(bad);
	kfree(good);
	kfree(wrapped);
}

module_init(tinydrv_init);
module_exit(tinydrv_exit);
MODULE_LICENSE("GPL");
"""
MOD_ALLOC_C = """\
#include <linux/module.h>
#include <linux/slab.h>

void *tiny_zalloc(size_t size)
{
	return kzalloc(size, GFP_KERNEL);
}
EXPORT_SYMBOL(tiny_zalloc);

MODULE_LICENSE("GPL");
"""
MODULE = {"Kbuild": "obj-m := tinydrv.o tinyalloc.o\n",
          "tinydrv.c": MOD_DRV_C, "tinyalloc.c": MOD_ALLOC_C}
M_BAD = line_of(MOD_DRV_C, "kmalloc(sizeof(bad)")
M_GOOD = line_of(MOD_DRV_C, "kzalloc(sizeof(*good)")
M_WRAPPED = line_of(MOD_DRV_C, "tiny_zalloc(sizeof(wrapped))")


def autotools_source(c):
    c.need({"autoreconf": "autoconf", "automake": "automake", "make": "make"})
    c.write(TINY_SOURCES)
    c.write(AUTOTOOLS)
    sh(["autoreconf", "-i"], c.src)           # the reader's source has its configure


def cmake_source(c):
    c.need({"cmake": "cmake", "ctest": "cmake", "make": "make"})
    c.write(TINY_SOURCES)
    c.write(CMAKE)


def gcc_major(cc="gcc"):
    try:
        return subprocess.run([cc, "-dumpversion"], capture_output=True,
                              text=True).stdout.strip().split(".")[0]
    except OSError:
        return ""


def headers_gcc_major(release):
    conf = "/lib/modules/%s/build/include/config/auto.conf" % release
    try:
        with open(conf) as f:
            m = re.search(r"^CONFIG_GCC_VERSION=(\d+)$", f.read(), re.M)
    except OSError:
        return None
    return str(int(m.group(1)) // 10000) if m else None


def version_key(release):
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", release)]


def module_headers(c):
    """The release whose headers the module recipes build against; sets
    the $(uname -r) substitution when it is not the running kernel's."""
    running = os.uname().release
    if headers_gcc_major(running):
        return running
    want = gcc_major()

    def candidates():
        return sorted((r for r in (os.path.basename(os.path.dirname(b))
                                   for b in glob.glob("/lib/modules/*/build"))
                       if headers_gcc_major(r) == want), key=version_key)
    found = candidates()
    if not found:
        arch = sh(["dpkg", "--print-architecture"], TOP).strip()
        install(["linux-headers-" + arch])
        found = candidates()
    if not found:
        raise Failure("no installed kernel headers built with gcc %s" % want)
    c.subst = [("$(uname -r)", found[-1])]
    c.notes.append("headers %s for $(uname -r) %s" % (found[-1], running))
    return found[-1]


# ---- the checks ---------------------------------------------------------------

def check_install_check(c):
    r = c.run("install-check")
    same_lines("its output", r.output(), c.expect("install-check"))


def check_one_file(c):
    r = c.run("one-file")
    same_lines("the warning", warnings(r.output()), c.expect("one-file"))


def check_two_files(c):
    r = c.run("two-files")
    pass1 = r.commands(r"^gcc .*-fplugin-arg-kalloc-report=")
    pass2 = r.commands(r"^gcc .*-fplugin-arg-kalloc-wrappers=")
    if len(pass1) != 1 or len(pass2) != 1:
        raise Failure("recipe two-files: not one compile of each pass: %s"
                      % show([s[0] for s in r.segments]))
    same_lines("pass 1", warnings(pass1[0][1]), [])
    with open(os.path.join(c.src, "wrappers.txt")) as f:
        same_lines("wrappers.txt", f.read().splitlines(), c.expect("two-files-wrappers"))
    same_lines("pass 2", warnings(pass2[0][1]), c.expect("two-files"))


def check_autotools(c):
    autotools_source(c)
    r = c.run("autotools")
    warned_at(r.output(), ["tiny.c"], [L_BAD], ["malloc"])
    if not any(re.match(r"^PASS: tiny-test$", l) for l in r.output()):
        raise Failure("make check did not run the library's test (%s)" % rel(c.dir))
    r = c.run("autotools-report")
    check_report(r, os.path.join(c.src, "kalloc.jsonl"), c.src, TINY_SITES)


def check_cmake(c):
    cmake_source(c)
    r = c.run("cmake")
    warned_at(r.output(), ["tiny.c"], [L_BAD], ["malloc"])
    if not any(re.search(r"100% tests passed, 0 tests failed out of 1$", l) for l in r.output()):
        raise Failure("ctest did not pass the library's test (%s)" % rel(c.dir))
    r = c.run("cmake-report")
    check_report(r, os.path.join(c.src, "kalloc.jsonl"), c.src, TINY_SITES)


def check_two_pass_library(c, build):
    first, last = build[0][1], build[-1][1]
    warned_at(first, ["tiny.c"], [L_BAD], ["malloc"])
    wrapper_line(os.path.join(c.src, "wrappers.txt"), "xzalloc", "xalloc.c")
    warned_at(last, ["tiny.c", "tiny.c"], [L_BAD, L_WRAPPED], ["malloc", "xzalloc"])


def check_wrappers_autotools(c):
    autotools_source(c)
    r = c.run("wrappers-autotools")
    build = r.commands(r"^make$")
    if len(build) != 2:
        raise Failure("recipe wrappers-autotools: not two builds (make): %s"
                      % show([s[0] for s in r.segments]))
    check_two_pass_library(c, build)


def check_wrappers_cmake(c):
    cmake_source(c)
    r = c.run("wrappers-cmake")
    build = r.commands(r"^cmake --build ")
    if len(build) != 2:
        raise Failure("recipe wrappers-cmake: not two builds (cmake --build): %s"
                      % show([s[0] for s in r.segments]))
    check_two_pass_library(c, build)


def module_source(c):
    c.need({"make": "make"})
    release = module_headers(c)
    c.write(MODULE)
    return release


def check_module(c):
    module_source(c)
    want = gcc_major()
    r = c.run("module-compiler")
    m = [re.match(r"^CONFIG_CC_VERSION_TEXT=\"?(\S+)", l) for l in r.output()]
    m = [x for x in m if x]
    if len(m) != 1 or gcc_major(m[0].group(1)) != want:
        raise Failure("module-compiler: %s does not name a GCC %s" % (show(r.output()), want))
    r = c.run("module")
    warned_at(r.output(), ["tinydrv.c"], [M_BAD], ["kmalloc"])
    for ko in ("tinydrv.ko", "tinyalloc.ko"):
        if not os.path.exists(os.path.join(c.src, ko)):
            raise Failure("the module build made no %s" % ko)
    r = c.run("module-report")
    check_report(r, os.path.join(c.src, "kalloc.jsonl"), c.src,
                 {("tinydrv.c", M_BAD): True, ("tinydrv.c", M_GOOD): False})
    cmds = sorted(os.path.relpath(p, c.src) for p in
                  glob.glob(os.path.join(c.src, "**", ".*.o.cmd"), recursive=True))
    grep = r.commands(r"^grep -l -e -fplugin=")
    got = sorted(os.path.normpath(l) for l in grep[0][1]) if grep else []
    if not cmds or got != cmds:
        raise Failure("compiles with the plugin: %s; every compile: %s" % (show(got), show(cmds)))


def check_wrappers_module(c):
    module_source(c)
    r = c.run("wrappers-module")
    build = r.commands(r"^make -C /lib/modules/")
    if len(build) != 2:
        raise Failure("recipe wrappers-module: not two builds: %s" % show([s[0] for s in r.segments]))
    warned_at(build[0][1], ["tinydrv.c"], [M_BAD], ["kmalloc"])
    wrapper_line(os.path.join(c.src, "wrappers.txt"), "tiny_zalloc", "tinyalloc.c")
    warned_at(build[1][1], ["tinydrv.c", "tinydrv.c"], [M_BAD, M_WRAPPED], ["kmalloc", "tiny_zalloc"])


def check_list_allocators(c):
    r = c.run("list-allocators")
    out = r.output()
    for name in ("kmalloc", "kcalloc", "malloc", "calloc"):
        if not any(re.match(r"^\s*%s\b" % name, l) for l in out):
            raise Failure("list-allocators does not list %s: %s" % (name, show(out[:5])))


def check_convert(c):
    c.need({"patch": "patch"})
    r = c.run("convert")
    last = r.segments[-1]
    same_lines("the last compile, '%s'" % last[0], last[1], [])
    with open(os.path.join(c.src, "drv.c")) as f:
        text = f.read().splitlines()
    for want in c.expect("convert"):
        if want not in text:
            raise Failure("drv.c has no line '%s' after the patch: %s" % (want, show(text)))


CHECKS = [
    ("install-check", check_install_check),
    ("one-file", check_one_file),
    ("autotools", check_autotools),
    ("cmake", check_cmake),
    ("module", check_module),
    ("two-files", check_two_files),
    ("wrappers-autotools", check_wrappers_autotools),
    ("wrappers-cmake", check_wrappers_cmake),
    ("wrappers-module", check_wrappers_module),
    ("list-allocators", check_list_allocators),
    ("convert", check_convert),
]
# The blocks each check reads: a block the guide marks that is in none
# of these is a recipe nobody runs.
USES = {
    "install-check": [("recipe", "install-check"), ("expect", "install-check")],
    "one-file": [("recipe", "one-file"), ("expect", "one-file")],
    "autotools": [("recipe", "autotools"), ("recipe", "autotools-report")],
    "cmake": [("recipe", "cmake"), ("recipe", "cmake-report")],
    "module": [("recipe", "module-compiler"), ("recipe", "module"), ("recipe", "module-report")],
    "two-files": [("recipe", "two-files"), ("expect", "two-files-wrappers"), ("expect", "two-files")],
    "wrappers-autotools": [("recipe", "wrappers-autotools")],
    "wrappers-cmake": [("recipe", "wrappers-cmake")],
    "wrappers-module": [("recipe", "wrappers-module")],
    "list-allocators": [("recipe", "list-allocators")],
    "convert": [("recipe", "convert"), ("expect", "convert")],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--guide", default=os.path.join(TOP, "docs", "guide.md"))
    ap.add_argument("--plugin", default=os.path.join(TOP, "plugin", "kalloc.so"))
    ap.add_argument("--work", default=os.path.join(TOP, "build", "guide"))
    ap.add_argument("--only", default="", help="NAME,... : these checks only")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        for name, _ in CHECKS:
            print(name)
        return 0
    args.plugin = os.path.abspath(args.plugin)
    args.work = os.path.abspath(args.work)
    only = [n for n in args.only.split(",") if n]
    unknown = [n for n in only if n not in dict(CHECKS)]
    passed = failed = 0

    def fail(name, why):
        nonlocal failed
        print("FAIL: %s: %s" % (name, why), flush=True)
        failed += 1

    for n in unknown:
        fail(n, "no such check (--list names them)")
    try:
        marks, errors = parse_guide(args.guide)
    except OSError as e:
        fail("guide", "cannot read %s: %s" % (args.guide, e.strerror))
        marks, errors = None, []
    for e in errors:
        fail("guide", e)
    if marks is not None:
        used = {u for uses in USES.values() for u in uses}
        for kind in ("recipe", "expect"):
            for name, (_, where) in sorted(marks[kind].items()):
                if (kind, name) not in used:
                    fail("guide", "%s:%d: %s %s: no check runs it"
                         % (rel(args.guide), where, kind, name))
    if marks is not None:
        # The recipes say gcc: a plugin built for another compiler would
        # fail every one of them for a reason the guide does not cover.
        p = subprocess.run(["gcc", "-fplugin=" + args.plugin, "-fsyntax-only", "-x", "c",
                            "/dev/null"], capture_output=True, text=True)
        if p.returncode != 0:
            fail("guide", "the plugin %s does not load into gcc, which the recipes run "
                 "(make CC=gcc builds it): %s"
                 % (rel(args.plugin), (p.stderr.strip().splitlines() or ["?"])[0]))
            marks = None
    for name, func in CHECKS if marks is not None else []:
        if only and name not in only:
            continue
        start = time.time()
        c = Check(name, args, marks, args.work)
        try:
            func(c)
            missing = [u for u in USES[name] if u not in c.used]
            if missing:
                raise Failure("did not read %s" % show(["%s %s" % u for u in missing]))
        except Failure as e:
            fail(name, e)
            continue
        passed += 1
        print("PASS: %s (%.0f s%s)" % (name, time.time() - start,
                                       "".join("; " + n for n in c.notes)), flush=True)
    if passed + failed == 0:
        fail("guide", "no check ran")
    return kharness.summary("guide", passed, failed)


if __name__ == "__main__":
    sys.exit(main())
