#!/usr/bin/env python3
"""compiled-files.py - the .c files a kbuild object tree compiled with CC.

  compiled-files.py [--headers] OBJDIR SRCDIR MARKER

Reads OBJDIR/**/.*.o.cmd and prints, sorted, one line per C file of
SRCDIR that was compiled by a command containing MARKER (the compiler
wrapper: host programs and generated sources are left out):

  PATH<TAB>OBJECT<TAB>SPATCH-ARGS

PATH relative to SRCDIR, OBJECT to OBJDIR; SPATCH-ARGS the command's
include options in spatch's spelling (-I DIR, --include FILE), absolute,
so that spatch sees the headers and macros the compiler saw.
"""
import os
import shlex
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from kharness import kbuild_cmd  # noqa: E402


def main(objdir, srcdir, marker, headers=False):
    objdir = os.path.abspath(objdir)
    srcdir = os.path.abspath(srcdir)
    rows = {}
    header_rows = {}
    for root, name in kbuild_cmd.cmd_files(objdir):
        cmd, source, deps = kbuild_cmd.read(os.path.join(root, name))
        deps = [d for d in deps if d.endswith(('.h', '.c'))]  # also a .c #included
        if not cmd or not source or marker not in cmd:
            continue
        path = os.path.normpath(os.path.join(objdir, source))
        if not path.endswith('.c') or not path.startswith(srcdir + '/'):
            continue
        args = []
        words = shlex.split(cmd.split(';')[0])
        for i, w in enumerate(words):
            if w == '-include' and i + 1 < len(words):
                args += ['--include', os.path.join(objdir, words[i + 1])]
            elif w.startswith('-I') and len(w) > 2:
                args += ['-I', os.path.normpath(os.path.join(objdir, w[2:]))]
        obj = os.path.relpath(os.path.join(root, name[1:-4]), objdir)
        rows[path[len(srcdir) + 1:]] = (obj, ' '.join(args))
        for d in deps if headers else []:
            d = os.path.normpath(os.path.join(objdir, d))
            if d.startswith(srcdir + '/'):
                header_rows.setdefault(d[len(srcdir) + 1:], (obj, ' '.join(args)))
    for path in header_rows:
        rows.setdefault(path, header_rows[path])
    for path in sorted(rows):
        print('%s\t%s\t%s' % (path, rows[path][0], rows[path][1]))


if __name__ == '__main__':
    argv = sys.argv[1:]
    with_headers = argv[:1] == ['--headers']
    if with_headers:
        argv = argv[1:]
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        sys.exit(2)
    main(*argv, headers=with_headers)
