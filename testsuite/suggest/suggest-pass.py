#!/usr/bin/env python3
"""suggest-pass.py - compile a kbuild tree's C files again, with kalloc's
suggest, to collect its fix-its.

  suggest-pass.py OBJDIR FILES.TXT DIAGDIR JOBS [PATH...] -- FLAG...

Runs the compile command of each file of FILES.TXT (compiled-files'
output; only the PATHs given, when some are) as kbuild ran it (its
.o.cmd), in OBJDIR, with FLAG... added after the compiler, earlier
-fplugin options and the dependency file dropped and the object written
to /dev/null.  Each file's diagnostics (with -fdiagnostics-generate-patch,
its patch) go to DIAGDIR/PATH.err, "/" written "%", so that parallel
compiles do not interleave.  JOBS compiles run at a time.  Exit status 1
if any compile failed (its .err says why).
"""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from kharness import kbuild_cmd  # noqa: E402


def compile_command(objdir, obj, flags):
    cmd = kbuild_cmd.read(kbuild_cmd.cmd_path(objdir, obj)).cmd
    words = kbuild_cmd.compiler_words(cmd) if cmd else []
    if not words:
        return None
    return [words[0]] + flags + kbuild_cmd.compile_args(
        words[1:], drop=('-fplugin', '-Wp,-MMD', '-fdiagnostics-generate-patch'),
        output='/dev/null')


def main(argv):
    if '--' not in argv or len(argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    cut = argv.index('--')
    objdir, files_txt, diagdir, jobs = argv[:4]
    only = set(argv[4:cut])
    flags = argv[cut + 1:]
    objdir = os.path.abspath(objdir)
    os.makedirs(diagdir, exist_ok=True)
    rows = []
    with open(files_txt) as f:
        for row in f:
            path, obj = row.rstrip('\n').split('\t')[:2]
            if not only or path in only:
                rows.append((path, obj))

    def run(row):
        path, obj = row
        err = os.path.join(diagdir, path.replace('/', '%') + '.err')
        args = compile_command(objdir, obj, flags)
        with open(err, 'w') as out:
            if args is None:
                out.write('suggest-pass: no command line for %s\n' % obj)
                return False
            return subprocess.run(['nice', '-n', '10'] + args, cwd=objdir,
                                  stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL,
                                  stderr=out).returncode == 0

    with ThreadPoolExecutor(max_workers=int(jobs)) as pool:
        results = list(pool.map(run, rows))
    failed = [r[0] for r, ok in zip(rows, results) if not ok]
    for path in failed:
        sys.stderr.write('suggest-pass: %s failed, see %s\n'
                         % (path, os.path.join(diagdir, path.replace('/', '%') + '.err')))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
