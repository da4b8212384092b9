#!/usr/bin/env python3
"""kalloc_log - the one reader of kalloc's diagnostics in build logs.

kalloc's warnings about allocation sites are in its report too; the
offset warning (pointer arithmetic a sizeof scales twice) is about a
statement, not a site, and only a build log has it.  GCC quotes with '
or, in a UTF-8 locale, with typographic quotes.

As a module: WARNING_RE (any kalloc warning), OFFSET_RE (the offset
warning, groups 1 and 2 the file and line), offsets(text, srcdirs) ->
set of (file, line) with file relative to the first of SRCDIRS that holds
it (import kharness.kalloc_log).  As a program, for shell scripts:

  python3 testsuite/lib/kharness warnings LOG...
      prints each distinct kalloc warning line
"""
import os
import re
import sys

WARNING_RE = re.compile(r"warning: ('|\u2018)[A-Za-z_0-9]+('|\u2019) (allocates|element size|sizes )"
                        r"|warning: ('|\u2018)[^'\u2019]*('|\u2019) advances a ")
OFFSET_RE = re.compile(r"^(\S+?):(\d+):\d+: warning: ('|\u2018)[^'\u2019]*('|\u2019) advances a ")


def relative(path, srcdirs, cwd_dirs=()):
    """PATH relative to the first of SRCDIRS under which it lies; a
    relative PATH is looked for in each of SRCDIRS and CWD_DIRS."""
    path = os.path.normpath(path)
    if not os.path.isabs(path):
        found = [os.path.join(base, path) for base in list(srcdirs) + list(cwd_dirs)
                 if os.path.exists(os.path.join(base, path))]
        if not found:
            # make in a subdirectory: the one file of the tree that ends so
            found = [os.path.join(root, name) for src in srcdirs
                     for root, _, names in os.walk(src) for name in names
                     if os.path.join(root, name).endswith(os.sep + path)]
        if len(found) >= 1:
            path = os.path.normpath(found[0])
    for src in srcdirs:
        if path.startswith(src.rstrip(os.sep) + os.sep):
            return os.path.relpath(path, src)
    return path


def offsets(text, srcdirs, cwd_dirs=()):
    found = set()
    for line in text.splitlines():
        m = OFFSET_RE.match(line)
        if m:
            found.add((relative(m.group(1), srcdirs, cwd_dirs), int(m.group(2))))
    return found


def main(argv):
    if len(argv) < 3 or argv[1] != 'warnings':
        sys.exit(__doc__.strip().split('\n\n')[-1])
    seen = set()
    for log in argv[2:]:
        with open(log, errors='replace') as f:
            for line in f:
                line = line.rstrip('\n')
                if WARNING_RE.search(line) and line not in seen:
                    seen.add(line)
                    print(line)


if __name__ == '__main__':
    main(sys.argv)
