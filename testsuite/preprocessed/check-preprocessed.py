#!/usr/bin/env python3
"""check-preprocessed.py - the same verdict from the source and from a .i.

distcc and icecream preprocess on the client and compile the .i on a
helper without the source tree.  Every kalloc.dg test is compiled three
times with the plugin and report=: directly; as distcc does it, `gcc -E`
then a compile of the .i in an empty directory, its line markers
pointing to a directory that does not exist (the sources out of reach);
and as icecream does it, `gcc -E -fdirectives-only` then the .i piped to
the compiler's standard input.  In both kernel shapes, at -O0 and -O2.
The three must give the same warnings and errors, at the same lines,
with the same text, and the same report lines.  What a .i cannot hold
may differ, and only that: columns (GCC's own differ; the compiles use
-fno-show-column and the report's column is dropped), the allocator's
name where a macro spelled it, and suggest's notes and fix-its (the
conversions, and where the typed allocators are), which kalloc makes
from the source file only (from a .i it says once that it
declines; that note is not compared).

Usage: check-preprocessed.py CC PLUGIN [OUTDIR]
Ends with "preprocessed: N passed, N failed"; exits non-zero on any
failure, or when nothing was compared.
"""
import glob
import json
import os
import re
import shlex
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import kharness  # noqa: E402
from kharness import run  # noqa: E402

UNREACHABLE = "/nonexistent-kalloc-sources"
MESSAGE = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+): (?P<kind>warning|error|note): (?P<text>.*)$")


def dg_options(path):
    opts = ""
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r'\{\s*dg-options\s+"([^"]*)"', line)
            if m:
                opts = m.group(1)
    return opts


QUOTED_NAME = re.compile(r"^(['\u2018])[A-Za-z_][A-Za-z0-9_]*(['\u2019])")


def messages(output, macro_names):
    """(file basename, line, kind, text) of every message, suggest's own
    notes and fix-it lines left out; with MACRO_NAMES, the allocator's
    name that opens a message is not compared (6.10+'s kcalloc () is a
    macro, gone from a .i)."""
    out = []
    for line in output.splitlines():
        m = MESSAGE.match(line)
        if not m:
            continue
        text = m.group("text")
        if m.group("kind") == "note" and (
                "typed form" in text or "no fix-its from a preprocessed" in text
                or "written in a macro body: no fix-it" in text
                or "is not defined here: Linux 7.0 and later define the typed" in text):
            continue
        if macro_names:
            text = QUOTED_NAME.sub(r"\1ALLOCATOR\2", text)
        out.append((os.path.basename(m.group("file")), int(m.group("line")),
                    m.group("kind"), text))
    return out


def report(path, macro_names):
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        for line in f:
            try:
                row = json.loads(line)
            except ValueError:
                rows.append(("unreadable", line))
                continue
            row.pop("column", None)
            if macro_names:
                row.pop("allocator", None)
            for field in ("file", "unit"):
                if row.get(field):
                    row[field] = os.path.basename(row[field])
            rows.append(json.dumps(row, sort_keys=True))
    return sorted(rows)


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    cc, plugin = sys.argv[1], sys.argv[2]
    outdir = sys.argv[3] if len(sys.argv) > 3 else "build/preprocessed"
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isfile(plugin):
        return kharness.cannot_run("preprocessed", "no plugin at %s" % plugin)
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    outdir = os.path.abspath(outdir)
    tests = sorted(glob.glob(os.path.join(top, "kalloc.dg", "*.c")))
    incs = "-I%s -I%s" % (shlex.quote(os.path.join(top, "include")),
                          shlex.quote(os.path.join(os.path.dirname(top), "include")))
    base = "-fno-show-column -fdiagnostics-plain-output"
    passed = failed = skipped = 0
    for test in tests:
        name = os.path.basename(test)[:-2]
        # The test's own report= would take the harness's place.
        opts = re.sub(r"-fplugin-arg-kalloc-report=\S+", "", dg_options(test))
        for variant in ("-O0", "-O2", "-O0 -DKSHAPE_HOOKS", "-O2 -DKSHAPE_HOOKS"):
            tag = "%s %s" % (name, variant)
            work = os.path.join(outdir, name + variant.replace(" ", ""))
            direct_dir, pre_dir = work + "-direct", work + "-i"
            os.makedirs(direct_dir)
            os.makedirs(pre_dir)
            plug = "-fplugin=%s -fplugin-arg-kalloc-report=report.json" % shlex.quote(plugin)
            direct = run("%s %s %s %s %s %s -S %s -o out.s" % (
                cc, variant, base, plug, opts, incs, shlex.quote(test)), cwd=direct_dir)
            # A test for another compiler (dg-require-sarif: GCC 13+).
            if re.search(r"unrecognized (command-line option|argument in option)",
                         direct.stdout):
                skipped += 1
                continue
            # As distcc's client does: the same command line, with -E (the
            # plugin loaded, so __has_attribute (counted_by) is what the
            # compile sees).
            pre = run("%s %s %s -fplugin=%s %s %s -E %s -o %s/unit.i" % (
                cc, variant, base, shlex.quote(plugin), opts, incs,
                shlex.quote(test), pre_dir))
            if pre.returncode != 0:
                failed += 1
                print("FAIL: %s: gcc -E failed: %s" % (tag, pre.stdout[-800:]))
                continue
            # The sources out of reach: every marker names a directory
            # that does not exist.
            with open(os.path.join(pre_dir, "unit.i"), errors="surrogateescape") as f:
                text = f.read()
            text = re.sub(r'^(# \d+ ")(/[^"]*/)?([^"/]*")',
                          lambda m: m.group(1) + UNREACHABLE + "/" + m.group(3),
                          text, flags=re.M)
            with open(os.path.join(pre_dir, "unit.i"), "w", errors="surrogateescape") as f:
                f.write(text)
            compiled = run("%s %s %s %s %s -S unit.i -o out.s" % (
                cc, variant, base, plug, opts), cwd=pre_dir)
            # As icecream does: -fdirectives-only (macros kept, defined
            # again as the helper compiles), the text on standard input.
            dio_dir = work + "-dio"
            os.makedirs(dio_dir)
            dio = run("%s %s %s -fplugin=%s %s %s -E -fdirectives-only %s -o %s/unit.i" % (
                cc, variant, base, shlex.quote(plugin), opts, incs,
                shlex.quote(test), dio_dir))
            with open(os.path.join(dio_dir, "unit.i"), errors="surrogateescape") as f:
                text = f.read()
            text = re.sub(r'^(# \d+ ")(/[^"]*/)?([^"/]*")',
                          lambda m: m.group(1) + UNREACHABLE + "/" + m.group(3),
                          text, flags=re.M)
            with open(os.path.join(dio_dir, "unit.i"), "w", errors="surrogateescape") as f:
                f.write(text)
            piped = run("%s %s %s %s %s -x c -fpreprocessed -fdirectives-only -S - -o out.s < unit.i" % (
                cc, variant, base, plug, opts), cwd=dio_dir)
            hooks = True        # a macro may spell the allocator in either shape
            a = messages(direct.stdout, hooks)
            b = messages(compiled.stdout, hooks)
            c = messages(piped.stdout, hooks)
            ra = report(os.path.join(direct_dir, "report.json"), hooks)
            rb = report(os.path.join(pre_dir, "report.json"), hooks)
            rc = report(os.path.join(dio_dir, "report.json"), hooks)
            if (a == b == c and ra == rb == rc and dio.returncode == 0
                    and direct.returncode == compiled.returncode == piped.returncode):
                passed += 1
                continue
            failed += 1
            print("FAIL: %s" % tag)
            if dio.returncode != 0:
                print("      gcc -E -fdirectives-only failed: %s" % dio.stdout[-800:])
            for m in a:
                if a.count(m) > c.count(m):
                    print("      only from the source, not the piped directives-only .i: %s:%d: %s: %s" % m)
            for m in c:
                if c.count(m) > a.count(m):
                    print("      only from the piped directives-only .i: %s:%d: %s: %s" % m)
            for r in ra:
                if r not in rc:
                    print("      report not from the piped directives-only .i: %s" % r)
            for m in a:
                if a.count(m) > b.count(m):
                    print("      only from the source: %s:%d: %s: %s" % m)
            for m in b:
                if b.count(m) > a.count(m):
                    print("      only from the .i:     %s:%d: %s: %s" % m)
            for r in ra:
                if r not in rb:
                    print("      report only from the source: %s" % r)
            for r in rb:
                if r not in ra:
                    print("      report only from the .i:     %s" % r)
            if direct.returncode != compiled.returncode:
                print("      exit %d from the source, %d from the .i"
                      % (direct.returncode, compiled.returncode))
    print("preprocessed: %d tests, 4 variants each" % len(tests))
    if passed == 0:
        failed += 1
    return kharness.summary("preprocessed", passed, failed, skipped)


if __name__ == "__main__":
    sys.exit(main())
