#!/usr/bin/env python3
"""compiled-lines.py - which source lines a kernel build's preprocessor kept.

  compiled-lines.py OBJDIR SRCDIR FILES.TXT < QUERIES

QUERIES: lines "PATH:LINE" (PATH relative to SRCDIR).  FILES.TXT:
compiled-files' output for OBJDIR.  For a .c file the query is answered by
preprocessing that file with its own kbuild command (-E instead of -c);
for a header, by up to three of the compiled files whose dependencies
(the .o.cmd deps_ list) name it.  Prints the queries whose line produced
no code in any of them (an #if branch this configuration leaves out, or a
header none of them reads past that point), one "PATH:LINE" a line, and
as "PATH:LINE other" those whose code, preprocessed, calls no kmalloc-
family allocator: a macro made the name something else there (the x86
boot decompressor's #define kmalloc(size, flags) malloc(size)).
"""
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from kharness import kbuild_cmd  # noqa: E402

MARKER = re.compile(r'^# (\d+) "(.*)"')
# What the kmalloc family's names expand to (kmalloc_noprof, ...).
ALLOCATOR = re.compile(r'\bkv?[mz]alloc|\bkv?calloc')


def command(objdir, obj):
    """The compile command of OBJ (from its .o.cmd) and its dependencies."""
    found = kbuild_cmd.read(kbuild_cmd.cmd_path(objdir, obj))
    return found.cmd, found.deps


def preprocess(objdir, srcdir, cmd):
    """{(path, line): text} of the lines that produced output."""
    # The wrapper and compiler options as kbuild ran them, minus the
    # output and dependency file: -E to stdout.
    args = [w for w in kbuild_cmd.compile_args(kbuild_cmd.compiler_words(cmd)) if w != '-c']
    out = subprocess.run(args + ['-E'], cwd=objdir, capture_output=True,
                         text=True, errors='replace').stdout
    kept = {}
    name, line = None, 0
    for text in out.split('\n'):
        m = MARKER.match(text)
        if m:
            line = int(m.group(1))
            path = os.path.normpath(os.path.join(objdir, m.group(2)))
            name = path[len(srcdir) + 1:] if path.startswith(srcdir + '/') else None
            continue
        if text.strip() and name:
            kept[(name, line)] = kept.get((name, line), '') + text
        line += 1
    return kept


def main(objdir, srcdir, files_txt):
    objdir = os.path.abspath(objdir)
    srcdir = os.path.abspath(srcdir)
    objects = {}
    with open(files_txt) as f:
        for row in f:
            parts = row.rstrip('\n').split('\t')
            objects[parts[0]] = parts[1]
    queries = []
    for q in sys.stdin:
        q = q.strip()
        if q:
            path, line = q.rsplit(':', 1)
            queries.append((path, int(line)))
    # Which compiled files answer for each header.
    deps_of = {}
    if any(not p.endswith('.c') for p, _ in queries):
        for path, obj in objects.items():
            _cmd, deps = command(objdir, obj)
            for d in deps:
                d = os.path.normpath(os.path.join(objdir, d))
                if d.startswith(srcdir + '/'):
                    deps_of.setdefault(d[len(srcdir) + 1:], []).append(path)
    cache = {}
    for path, line in queries:
        units = [path] if path in objects else deps_of.get(path, [])[:3]
        found = allocator = False
        for unit in units:
            if unit not in cache:
                cmd, _deps = command(objdir, objects[unit])
                cache[unit] = preprocess(objdir, srcdir, cmd)
            if (path, line) in cache[unit]:
                found = True
                # The statement's first lines, as compiled.
                text = ''.join(cache[unit].get((path, line + i), '') for i in range(4))
                allocator = bool(ALLOCATOR.search(text))
                break
        if not found:
            print('%s:%d' % (path, line))
        elif not allocator:
            print('%s:%d other' % (path, line))


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        sys.exit(2)
    main(*sys.argv[1:])
